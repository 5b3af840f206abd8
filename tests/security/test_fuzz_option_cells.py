"""Fuzzed option tables of the new-match form: any text in any cell is a sentence beside it or a match, never a 500.

The structured options (Rentz's points, Renfield's card values, Rapscallion's bidding values) are tables of
number inputs; each cell is drawn from odd numbers and text, with the rest of the form as a browser posts it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from engine import get_game
from games.forms import NUMBER_OPTIONS, MatchCreateForm
from games.models import Match
from tests.games.factories import UserFactory
from tests.security.values import NON_FINITE, ODD_NUMBERS, TEXT

pytestmark = pytest.mark.django_db
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
GAMES = sorted({game for game, _name in NUMBER_OPTIONS})
CELL_VALUES = st.one_of(
    st.integers(min_value=-20_000, max_value=20_000).map(str),
    ODD_NUMBERS,
    TEXT,
    st.sampled_from(["", "0", "1", "99", "100", "999", "1000", "-0", "1.0", "²", *NON_FINITE]),
)


def _untouched(game: str) -> dict[str, Any]:
    module = get_game(game)
    form = MatchCreateForm(game=module)
    data: dict[str, Any] = {"game": game, "players": module.MIN_PLAYERS}
    for name in form.fields:
        initial = form[name].initial
        if initial is not None and initial is not False and name != "players":
            data[name] = "on" if initial is True else initial
    data |= {f"seat_{n}_kind": "bot" for n in range(1, module.MAX_PLAYERS)}
    return data


@st.composite
def cell_posts(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    game = draw(st.sampled_from(GAMES))
    data = _untouched(game)
    cells = sorted(name for name in data if "__" in name)
    for name in draw(st.lists(st.sampled_from(cells), min_size=1, max_size=6, unique=True)):
        data[name] = draw(CELL_VALUES)
    return game, data


@FUZZ
@given(post=cell_posts())
def test_a_fuzzed_option_table_never_crashes_and_a_refused_one_creates_nothing_and_says_why(
    fuzz_login: Callable[[User], Client], post: tuple[str, dict[str, Any]]
) -> None:
    game, data = post
    client = fuzz_login(UserFactory())
    count = Match.objects.count()
    response = client.post(reverse("games-create") + f"?game={game}", data)
    assert response.status_code < 500
    if response.status_code == 302:
        assert Match.objects.count() == count + 1
        return
    assert response.status_code == 200 and Match.objects.count() == count
    html = response.content.decode()
    errors = response.context["form"].errors
    assert errors, "a form that creates nothing was refused for a reason"
    unseen = [str(m) for messages in errors.values() for m in messages if escape(str(m)) not in html]
    assert not unseen, f"refused with reasons the page does not show: {unseen}"
