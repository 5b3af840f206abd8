"""A snapshot stored in the old shape is rebuilt from the moves by migration 0006."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.models import Match
from tests.games.factories import make_match, play_engine_moves

pytestmark = pytest.mark.django_db

rebuild = importlib.import_module("games.migrations.0006_rebuild_snapshots").rebuild


def test_it_rebuilds_an_old_shaped_rentz_snapshot_from_the_moves_and_leaves_others_alone() -> None:
    rentz = play_engine_moves(make_match("rentz", bots=0), 5)
    karnoffel = make_match("karnoffel", bots=0)
    good_rentz, good_karnoffel = Match.objects.get(pk=rentz.pk).state, Match.objects.get(pk=karnoffel.pk).state
    old = {("trick" if k == "trick_cards" else "layout" if k == "rows" else k): v for k, v in good_rentz.items()}
    Match.objects.filter(pk=rentz.pk).update(state=old)
    rebuild(apps, None)
    assert Match.objects.get(pk=rentz.pk).state == good_rentz
    assert Match.objects.get(pk=karnoffel.pk).state == good_karnoffel
