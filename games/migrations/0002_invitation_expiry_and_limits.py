"""Waiting matches expire; invitations are not tied to an account; invitation mails record their sender for the limits."""

from datetime import timedelta

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

# A match already waiting gets this long from now at least, so that no invitation dies the moment this runs.
GRACE = timedelta(days=1)
EXPIRE_AFTER = timedelta(days=7)


def forwards(apps, schema_editor) -> None:
    Match = apps.get_model("games", "Match")
    Seat = apps.get_model("games", "Seat")
    now = timezone.now()
    waiting = Match.objects.filter(status="waiting", expires_at__isnull=True)
    for match in waiting.only("pk", "created_at"):
        expires = max(match.created_at + EXPIRE_AFTER, now + GRACE)
        Match.objects.filter(pk=match.pk).update(expires_at=expires)
    # An open invitation linked to the account of its address told the inviter that the account exists;
    # whoever holds the link now takes the seat, as a newcomer always could.
    Seat.objects.filter(joined=False, bot_level="").exclude(invite_token="").update(user=None)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="expires_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="mail",
            name="inviter",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddIndex(
            model_name="mail",
            index=models.Index(fields=["recipient", "created_at"], name="mail_recipient_created"),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
