"""Matches for the fault tests: two all-bot matches and one whose players' one-second clocks run out,
and the bot moves a committed match would have queued, sent to a test's own workers."""

from __future__ import annotations

from datetime import timedelta

from accounts.models import User
from games.clocks import TimeControl
from games.models import Seat
from games.services import SeatSpec, match_create
from tests.accounts.factories import UserFactory
from tests.faults import Stack


def a_player() -> User:
    user: User = UserFactory.create()
    return user


ONE_SECOND = TimeControl(initial=timedelta(seconds=1), increment=timedelta(seconds=1), cap=timedelta(seconds=1))


def make_matches() -> list[int]:
    """Two all-bot matches and one where two players' one-second clocks run out until the bot takes over."""
    ids = []
    for _ in range(2):
        seats = [SeatSpec(bot="random") for _ in range(3)]
        ids.append(match_create(game="renfield", players=3, options={}, created_by=None, seats=seats).pk)
    return [*ids, clock_match()]


def clock_match() -> int:
    """Two players on one-second clocks and a bot: the players time out until the bot plays for them."""
    seats = [SeatSpec(user=a_player()), SeatSpec(user=a_player()), SeatSpec(bot="random")]
    return match_create(
        game="renfield", players=3, options={}, created_by=None, seats=seats, time_control=ONE_SECOND
    ).pk


def kick_bots(stack: Stack, ids: list[int]) -> None:
    """Queue each awaited bot's move, as the commit that created the match would have on a real broker."""
    for seat in Seat.objects.filter(match_id__in=ids, awaiting=True).exclude(bot_level="").select_related("match"):
        stack.send("bot_move", seat.match_id, seat.number, seat.match.version)
