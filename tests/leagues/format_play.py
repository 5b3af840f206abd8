"""Bot play and place arithmetic shared by the league format season tests (knockout, ladder)."""

from __future__ import annotations

from collections.abc import Iterator

from games.models import Match, Move, Seat
from games.services import bot_action, move_submit
from leagues.models import Fixture

PLACE_POINTS = [4, 2, 1, 0]
MOST_MOVES = 5000


def turns(match: Match) -> Iterator[Seat]:
    """The match's turns until it finishes: the awaited seat (the lowest-numbered, with its player) each time,
    for the caller to move; ``match`` is read again after each. Bounded, so a bug cannot hang a test."""
    for _ in range(MOST_MOVES):
        if match.status == Match.Status.FINISHED:
            return
        seat = Seat.objects.filter(match=match, awaiting=True).select_related("user").order_by("number").first()
        assert seat is not None, "a match in play awaits somebody"
        yield seat
        match.refresh_from_db()
    raise AssertionError(f"match {match.pk} did not finish in {MOST_MOVES} moves")


def play_by_bots(fixture: Fixture) -> Match:
    """Every awaited seat's move chosen by a basic bot: a person's submitted as theirs, a bot seat's as the bot's."""
    assert fixture.match_id is not None, "the round is open"
    match = Match.objects.get(pk=fixture.match_id)
    for seat in turns(match):
        action = bot_action(match=match, seat=seat.number, level=Seat.BotLevel.BASIC)
        if seat.user is None:
            move_submit(
                match=match, user=None, seat=seat.number, action=action, version=match.version, kind=Move.Kind.BOT
            )
        else:
            move_submit(match=match, user=seat.user, seat=None, action=action, version=match.version)
    return match


def ranking(places: list[int]) -> list[int]:
    """Competition ranking among the seats (1, 1, 3) from the engine's places."""
    return [1 + sum(q < p for q in places) for p in places]


def shared(places: list[int]) -> list[float]:
    return [sum(PLACE_POINTS[p - 1 : p - 1 + places.count(p)]) / places.count(p) for p in places]


# The Swiss league of tests/leagues/test_swiss_format.py, for the other formats' flow tests.
SWISS_LEAGUE = {
    "name": "Swiss League",
    "game": "renfield",
    "table_size": 4,
    "time_control": "2d",
    "timeout_bot_level": "basic",
    "scoring": "places",
    "tiebreak_1": "points",
}
