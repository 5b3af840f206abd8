"""Demo data for `make run`: a club with a Renfield league whose season is under way, standings already filled.

Made through the services, as an organizer and players would. The first round's tables and one
table of the second are played to the end by basic bots moving for the players (through
``move_submit``, like ``games.demo``) and counted; the rest wait for their players.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from engine.bots import choose
from engine.play import play_out
from games.models import Match
from games.services import move_applier
from leagues import clubs, results, seasons
from leagues.models import Club, Fixture, Membership, Season

DEMO_CLUB = "Parlour Demo Club"
# More players than the three demo logins, so that the standings have a few lines to sort.
EXTRA_PLAYERS = [
    ("dora@example.com", "Dora"),
    ("emil@example.com", "Emil"),
    ("fay@example.com", "Fay"),
    ("gus@example.com", "Gus"),
    ("hana@example.com", "Hana"),
]
MAX_DEMO_MOVES = 3_000


def demo_league(*, users: list[User]) -> Season | None:
    """Create the demo club, league and season once; ``users[0]`` organizes. Returns the season (None if it existed)."""
    if not users or Club.objects.filter(name=DEMO_CLUB).exists():
        return None
    organizer = users[0]
    players = [*users, *(_extra_player(email, name) for email, name in EXTRA_PLAYERS)]
    club = clubs.club_create(
        name=DEMO_CLUB, created_by=organizer, description="A club to try leagues in: a Renfield season is under way."
    )
    for user in players[1:]:
        Membership.objects.get_or_create(club=club, user=user)
    league = seasons.league_create(
        club=club, actor=organizer, name="Renfield Tuesdays", game="renfield", table_size=4, options={"hands": 2}
    )
    today = timezone.localdate()
    season = seasons.season_create(
        league=league,
        actor=organizer,
        rounds=3,
        starts_on=today - timedelta(days=14),
        ends_on=today + timedelta(days=7),
    )
    seasons.season_open_registration(season=season, actor=organizer)
    for user in players:
        seasons.season_register(season=season, user=user)
    seasons.season_close_registration(season=season, actor=organizer)
    seasons.fixtures_generate(season=season, actor=organizer, seed=7)
    season = seasons.season_start(season=season, actor=organizer)
    fixtures = list(Fixture.objects.filter(round__season=season).select_related("round", "match"))
    played = [f for f in fixtures if f.round.number == 1] + [f for f in fixtures if f.round.number == 2][:1]
    for fixture in played:
        assert fixture.match is not None
        _play_out(fixture.match)
        results.fixture_count(match_id=fixture.match.pk)
    return season


def _extra_player(email: str, name: str) -> User:
    # No turn mail: nobody reads these addresses.
    user, created = User.objects.get_or_create(
        email=email, defaults={"display_name": name, "notify": User.Notify.NEVER}
    )
    if created:
        user.set_unusable_password()  # a name in the standings, not a login
        user.save(update_fields=["password"])
    return user


def _play_out(match: Match) -> None:
    """Basic bot moves for every seat until the end, recorded as the players' moves."""
    game = match.engine

    def basic(state: dict[str, Any], number: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
        return choose(match.game, "basic", game.view(state, number), legal, seed=f"league-demo:{match.version}")

    play_out(game, match.state, choose=basic, apply=move_applier(match), max_steps=MAX_DEMO_MOVES)
