"""A player's rename raises their standings lines' revision: the standings pages that show the name change key.

The standings page keeps its tables in the page cache under a digest of what they show
(``selectors.STANDINGS_DIGEST``: the lines' count, newest id and revisions, and the ratings' matches). Every
writer of the lines moves it already; a name lives on the user, in ``accounts``, which knows nothing of
leagues. These receivers, connected from here, see a name or an address (the name shown falls back on it)
saved through the model, and raise the revision of that player's lines, in every season, in the save's
transaction. A save that keeps both (the profile form saved for a time zone, a login) changes nothing:
the user's name as it was read is kept on the instance, without a query. A ``QuerySet.update`` of names
sends no signal and is not seen.

Why the lines and not the seasons: a result locks its table's lines, and not its season (two tables of a
season are counted at once); a rename locks the same rows as a result would, one player's, and waits for
a result in progress like another result.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.db.models.signals import post_init, post_save
from django.dispatch import receiver

from accounts.models import User
from leagues.models import Standing

# What the tables show of a player: the name, which falls back on the address.
NAME_FIELDS = ("display_name", "email")
# Where the name a user was read with is kept on the instance, to tell a rename from any other save.
NAME_WAS = "_leagues_name_was"


def _name_of(user: User) -> tuple[Any, ...]:
    # From the instance's dict: a field deferred is not read (None, so a save of it counts as a rename).
    return tuple(user.__dict__.get(name) for name in NAME_FIELDS)


@receiver(post_init, sender=User, dispatch_uid="leagues.user_name_read")
def user_name_read(sender: Any, instance: User, **kwargs: Any) -> None:
    """The name and address a user was read with (no query): a save that keeps them changes no table."""
    instance.__dict__[NAME_WAS] = _name_of(instance)


@receiver(post_save, sender=User, dispatch_uid="leagues.user_renamed")
def user_renamed(sender: Any, instance: User, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    """A player's name or address changed: their lines in every season show it. Other saves cost nothing."""
    if created or (update_fields is not None and not set(update_fields) & set(NAME_FIELDS)):
        return
    name = _name_of(instance)
    if instance.__dict__.get(NAME_WAS) == name:
        return
    instance.__dict__[NAME_WAS] = name
    # After the save, in its transaction (or just after it, in autocommit): a reader between the two reads
    # the old key and the new name, a newer table under an older key, never the reverse.
    Standing.objects.filter(entrant__user=instance).update(revision=F("revision") + 1)
