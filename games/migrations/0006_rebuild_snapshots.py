"""Rebuild the stored snapshot of every Rentz and Rapscallion match from its seed and moves.

The engine's Rentz and Rapscallion states changed shape (keys renamed so that no state key shares a
name with a view key: Rentz ``trick``/``layout`` became ``trick_cards``/``rows``; Rapscallion's piles
were renamed). A snapshot saved before would not load, so it is replayed: the moves are the record.
"""

from django.db import migrations

REBUILT = ("rentz", "rapscallion")


def rebuild(apps, schema_editor):
    from engine.replay import state_at

    Match = apps.get_model("games", "Match")
    Move = apps.get_model("games", "Move")
    for match in Match.objects.filter(game__in=REBUILT).only("id", "game", "players", "options", "seed", "state"):
        actions = list(Move.objects.filter(match_id=match.pk).order_by("ply").values("seat", "action"))
        state = state_at(match.game, match.players, match.options, match.seed, actions)
        if state != match.state:
            Match.objects.filter(pk=match.pk).update(state=state)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_pushsubscription")]

    operations = [migrations.RunPython(rebuild, migrations.RunPython.noop)]
