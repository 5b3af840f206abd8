"""The database cache's table, so that rate limits count across processes without Redis; display name checks.

settings.CACHES uses it when REDIS_URL is not set. It is created whatever the cache setting is
today, so that turning Redis off later needs no extra step (``createcachetable`` is idempotent).
"""

from django.core.management.commands.createcachetable import Command as CreateCacheTable
from django.db import migrations, models

import accounts.validators

CACHE_TABLE = "parlour_cache"


def create_cache_table(apps, schema_editor):
    command = CreateCacheTable()
    command.verbosity = 0
    command.create_table(schema_editor.connection.alias, CACHE_TABLE, dry_run=False)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(CACHE_TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.RunPython(create_cache_table, drop_cache_table, elidable=False),
        migrations.AlterField(
            model_name="user",
            name="display_name",
            field=models.CharField(
                blank=True,
                help_text="The name other players see.",
                max_length=40,
                validators=[accounts.validators.DisplayNameValidator()],
            ),
        ),
    ]
