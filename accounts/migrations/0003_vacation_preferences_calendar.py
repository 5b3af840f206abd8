"""Vacation days, reminder and quiet-hour preferences, the digest hour and the private calendar token.

The calendar token is unique and random: a callable default on AddField would give every
existing row the same value, so the column is added empty, filled row by row, then made unique.
"""

import datetime
import secrets

import django.core.validators
from django.db import migrations, models

import accounts.models


def fill_calendar_tokens(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.filter(calendar_token="").only("pk"):
        User.objects.filter(pk=user.pk).update(calendar_token=secrets.token_urlsafe(24))


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_cache_table_display_name")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="vacation_days_per_year",
            field=models.PositiveSmallIntegerField(
                default=accounts.models.default_vacation_days,
                validators=[django.core.validators.MaxValueValidator(366)],
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="vacation_days_used",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="user",
            name="vacation_year",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="vacation_started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="vacation_until",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="auto_vacation",
            field=models.BooleanField(
                default=False,
                help_text="When a deadline would pass, spend one vacation day to give you a day more, while any are left.",
                verbose_name="spend vacation days for me",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="quiet_start",
            field=models.TimeField(
                blank=True, default=datetime.time(22, 0), null=True, verbose_name="quiet hours from"
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="quiet_end",
            field=models.TimeField(
                blank=True, default=datetime.time(7, 0), null=True, verbose_name="quiet hours until"
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="reminder_hours",
            field=models.JSONField(
                blank=True,
                default=accounts.models.default_reminder_hours,
                help_text="Hours before a deadline to remind you.",
                verbose_name="reminders",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="digest_hour",
            field=models.PositiveSmallIntegerField(
                default=7,
                help_text="The hour of the day (on your own clock) at which the daily digest is sent.",
                validators=[django.core.validators.MaxValueValidator(23)],
                verbose_name="digest hour",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="calendar_token",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.RunPython(fill_calendar_tokens, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="user",
            name="calendar_token",
            field=models.CharField(
                default=accounts.models.new_calendar_token, editable=False, max_length=64, unique=True
            ),
        ),
    ]
