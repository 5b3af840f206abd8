"""Promotion and relegation against the divisions' sizes: refused when they would empty a division, never
more players moved than a division has."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.errors import NumbersRefused
from leagues.models import Entrant, Season
from leagues.results import fixture_count
from leagues.rollover import season_finish
from leagues.seasons import entrant_set_division, fixtures_generate, season_start
from leagues.standings import check_promotion_fits, division_moves
from tests.leagues.factories import UserFactory, finish, fixtures_of, make_season, organizer_of

pytestmark = pytest.mark.django_db


def two_divisions(top: int, bottom: int, *, promote: int = 1, relegate: int = 1) -> Season:
    """A running season of tables of four with bots, ``top`` players in division 1 and ``bottom`` in division 2,
    every table finished and counted."""
    users = [UserFactory() for _ in range(top + bottom)]
    season = make_season(players=users, rounds=1, divisions=2, promote=promote, relegate=relegate, start=False)
    boss = organizer_of(season.league.club)
    for i, user in enumerate(users):
        entrant = Entrant.objects.get(season=season, user=user)
        entrant_set_division(entrant=entrant, actor=boss, division=1 if i < top else 2)
    fixtures_generate(season=season, actor=boss, seed=1)
    season_start(season=season, actor=boss)
    for division in (1, 2):
        for fixture in fixtures_of(season, division=division):
            fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
    season.refresh_from_db()
    return season


def login(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def finish_url(season: Season) -> str:
    return reverse("leagues-season-finish", args=[season.league.club.slug, season.league.slug, season.number])


# --- the rule, without a database -------------------------------------------------------


@pytest.mark.parametrize(
    ("sizes", "promote", "relegate", "refused"),
    [
        ({1: 4, 2: 4}, 1, 4, "Division 1 has only 4 players: it cannot send 4 down"),
        ({1: 4, 2: 3}, 3, 0, "Division 2 has only 3 players: it cannot send 3 up (at most 2 can move"),
        ({1: 4, 2: 2}, 5, 1, "Division 2 has only 2 players: it cannot send 5 up"),
        ({1: 4, 2: 4, 3: 4}, 2, 2, "Division 2 has only 4 players: it cannot send 2 up and 2 down"),
        ({1: 0, 2: 6}, 1, 1, "Division 1 has no players: it cannot send 1 down"),
    ],
)
def test_it_refuses_numbers_that_would_move_everyone_out_of_a_division(
    sizes: dict[int, int], promote: int, relegate: int, refused: str
) -> None:
    with pytest.raises(NumbersRefused) as caught:
        check_promotion_fits(sizes=sizes, divisions=len(sizes), promote=promote, relegate=relegate)
    assert str(caught.value).startswith(refused)


@pytest.mark.parametrize(
    ("sizes", "promote", "relegate"),
    [
        ({1: 4, 2: 4}, 3, 3),  # each division keeps one of its own
        ({1: 4, 2: 5, 3: 4}, 2, 2),
        ({1: 0, 2: 6}, 1, 0),  # an empty top division relegates nobody, so it may take players from below
        ({1: 1, 2: 1}, 0, 0),
    ],
)
def test_it_accepts_numbers_that_leave_someone_in_every_division(
    sizes: dict[int, int], promote: int, relegate: int
) -> None:
    check_promotion_fits(sizes=sizes, divisions=len(sizes), promote=promote, relegate=relegate)


def test_the_rollover_never_moves_more_players_than_a_division_has() -> None:
    for size in range(0, 7):
        for divisions in (2, 3):
            for division in range(1, divisions + 1):
                for promote in range(0, 9):
                    for relegate in range(0, 9):
                        up, down = division_moves(
                            size=size, division=division, divisions=divisions, promote=promote, relegate=relegate
                        )
                        assert up >= 0 and down >= 0 and up + down <= size
                        assert up == (min(promote, size) if division > 1 else 0)
                        assert down <= relegate and (division < divisions or down == 0)
    assert division_moves(size=3, division=2, divisions=3, promote=2, relegate=2) == (2, 1)


# --- at the season's end --------------------------------------------------------------


def test_finishing_with_numbers_a_division_cannot_hold_is_refused_and_changes_nothing() -> None:
    season = two_divisions(4, 3)
    boss = organizer_of(season.league.club)
    with pytest.raises(NumbersRefused, match="Division 2 has only 3 players: it cannot send 3 up"):
        season_finish(season=season, actor=boss, promote=3, relegate=1)
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING and (season.promote, season.relegate) == (1, 1)
    assert not Season.objects.filter(previous=season).exists()


def test_the_finish_form_shows_the_refusal_as_a_form_error_beside_the_numbers() -> None:
    season = two_divisions(4, 3)
    client = login(organizer_of(season.league.club))

    response = client.post(finish_url(season), {"promote": 1, "relegate": 4})

    assert response.status_code == 200
    form = response.context["form"]
    assert form.non_field_errors() == [
        "Division 1 has only 4 players: it cannot send 4 down (at most 3 can move, so that one stays). "
        "Change the numbers of players promoted and relegated."
    ]
    assert 'class="errorlist nonfield"' in response.content.decode()
    assert 'name="relegate" value="4"' in response.content.decode()  # what was typed stays, to be corrected
    assert "Players per division: division 1, 4; division 2, 3." in response.content.decode()  # the sizes, to fix it
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING


def test_numbers_that_fit_carry_the_players_across() -> None:
    season = two_divisions(4, 3)
    nxt = season_finish(season=season, actor=organizer_of(season.league.club), promote=2, relegate=3)
    divisions = sorted(nxt.entrants.values_list("division", flat=True))
    assert divisions == [1, 1, 1, 2, 2, 2, 2]  # 4 - 3 + 2 above, 3 - 2 + 3 below
