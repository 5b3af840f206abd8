"""The league world the league fuzz tests post into, and their oracle.

The world: a public club running a season and taking registrations for the next, a private club of someone
else with its own season, invitations live, used and expired, and a signed-in client for each person (the
``league_world`` fixture, tests/security/conftest.py, builds one per test). ``snapshot`` reads every league
row (and each match's version); ``told`` says whether a refused post told the person why: a form error shown
on the page, a message, or a 4xx page with a sentence. The values are hypothesis strategies for odd input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib import messages as message_levels
from django.contrib.messages import get_messages
from django.forms import BaseForm
from django.http import HttpResponse
from django.template.context import Context
from django.test import Client
from django.test.utils import ContextList
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from accounts.models import User
from games.models import Match, Seat
from leagues.clubs import club_invite
from leagues.models import (
    AuditEntry,
    Club,
    ClubInvitation,
    Entrant,
    Fixture,
    League,
    Membership,
    Rating,
    Round,
    Season,
    SeatOffer,
    Standing,
    Substitute,
    Unavailability,
)
from leagues.seasons import (
    season_create,
    season_open_registration,
    season_register,
)
from tests.leagues.factories import UserFactory, make_club, make_league, make_season, member
from tests.security.values import CALENDAR_END_TIMES, CALENDAR_ENDS, HUGE_NUMBERS, NON_FINITE

FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- values ---------------------------------------------------------------------------------------

UNICODE_DIGITS = "0123456789²³¹٣۴߅१๓໕༣၃႓៣０１９𝟎𝟗-+.eE_ "
EDGE = [
    *("", " ", "\x00", "a\x00b", "null", "[]", "{}", "-1", "0", "1e309", "NaN", "inf", "-inf", "²", "٣"),
    *("9" * 30, "<script>alert(1)</script>", "\u202e", "on", "off", "true", "False", "../..", "%00", "'; --"),
]
HUGE = st.sampled_from(["x" * 5000, "9" * 5000, "²" * 4001, "é" * 3000, "<b>" * 2000])
TEXT = st.one_of(st.text(max_size=60), st.sampled_from(EDGE), HUGE)
NUMBER = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.floats().map(str),
    st.text(alphabet=UNICODE_DIGITS, max_size=8),
    st.sampled_from(EDGE),
)
DATE = st.one_of(
    st.dates().map(str),
    st.sampled_from(["2026-02-30", "2026-13-01", "10000-01-01", "2026-1-1", "1/2/2026", "2026-06-01"]),
    st.sampled_from(CALENDAR_ENDS),
    TEXT,
)
EXTREME_TIMES = [*CALENDAR_END_TIMES, "2026-02-30T10:00", "2026-06-01T24:00", "2026-06-01T10:00"]
# Hours no clock has: past what a timedelta holds (1e30 hours was an OverflowError), or no number at all.
CLOCK_HOURS = st.sampled_from([*NON_FINITE, *HUGE_NUMBERS, "0.99", "-0.01", "720.01", "1440.01"])
# Points no place earns: float() reads all of these, and JSON stores no infinity or NaN (an IntegrityError).
PLACE_POINTS = st.sampled_from([f"{p},2,1,0" for p in [*NON_FINITE, "1e10", "1001"]] + ["4,2,1,nan", "inf,inf,inf,inf"])
DATETIME = st.one_of(
    st.datetimes().map(lambda d: d.isoformat(timespec="minutes")),
    st.sampled_from(EXTREME_TIMES),
    st.sampled_from(EXTREME_TIMES),
    st.sampled_from(["2026-06-01 10:00:00", "2026-06-01", "10:00", "2026-03-29T02:30", "2026-11-01T01:30"]),
    TEXT,
)
ODD_IDS = st.one_of(st.integers(min_value=0, max_value=10**18 - 1), st.sampled_from([0, 1, 2, 10**9, 2**31]))


def choice(valid: list[str], odd: st.SearchStrategy[str] = TEXT) -> st.SearchStrategy[str]:
    """Mostly a value the form offers, often anything at all."""
    return st.one_of(st.sampled_from(valid), st.sampled_from(valid), odd)


# --- the world ------------------------------------------------------------------------------------


@dataclass(repr=False)
class World:
    club: Club
    league: League
    running: Season  # started, its first round's match being played
    open: Season  # taking registrations, two divisions
    other_club: Club  # private, of someone else
    other_league: League
    other_season: Season
    users: dict[str, User]
    tokens: dict[str, str]
    clients: dict[str, Client] = field(default_factory=dict)

    def __repr__(self) -> str:
        return "World(the clubs of build())"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    def client(self, who: str) -> Client:
        client = self.clients[who]
        client.cookies.pop("messages", None)  # a message left by an earlier example is not this one's answer
        return client

    def season_url(self, name: str, season: Season, *args: Any) -> str:
        return reverse(name, args=[self.club.slug, self.league.slug, season.number, *args])


def build() -> World:
    # West of UTC: the latest date a form takes is past the last day a database can store in UTC.
    organizer = UserFactory(time_zone="America/Los_Angeles")
    club = make_club(organizer=organizer, name="Fuzz Club")
    player, target = member(club), member(club)
    league = make_league(club=club)
    running = make_season(league=league, players=[player, UserFactory(), UserFactory(), UserFactory()], rounds=1)
    open_ = season_create(league=league, actor=organizer, rounds=2, divisions=2)
    season_open_registration(season=open_, actor=organizer)
    entrant = member(club)
    for user in (entrant, member(club), member(club)):
        season_register(season=open_, user=user)
    other_organizer = UserFactory()
    other_club = make_club(organizer=other_organizer, public=False, name="Private Club")
    other_member = member(other_club)
    other_league = make_league(club=other_club)
    other_season = make_season(league=other_league, players=4, rounds=1)
    live = club_invite(club=club, actor=organizer, email="invited@fuzz.test")
    other_live = club_invite(club=other_club, actor=other_organizer, email="elsewhere@fuzz.test")
    used = club_invite(club=club, actor=organizer, email="used@fuzz.test")
    ClubInvitation.objects.filter(pk=used.pk).update(accepted_at=timezone.now(), accepted_by=target)
    expired = club_invite(club=club, actor=organizer, email="late@fuzz.test")
    ClubInvitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(days=1))
    users = {
        "organizer": organizer,
        "player": player,
        "target": target,
        "entrant": entrant,
        "outsider": UserFactory(),
        "other_member": other_member,
        "other_organizer": other_organizer,
    }
    tokens = {"live": live.token, "other": other_live.token, "used": used.token, "expired": expired.token}
    # Logged in once, outside the examples' savepoints, which would roll the sessions back.
    clients = {who: Client(raise_request_exception=False) for who in users}
    for who, client in clients.items():
        client.force_login(users[who])
    return World(club, league, running, open_, other_club, other_league, other_season, users, tokens, clients)


SNAPSHOT = [Club, Membership, ClubInvitation, League, Season, Entrant, Round, Fixture, Standing, AuditEntry]
SNAPSHOT += [Rating, Unavailability, Substitute, SeatOffer]


def snapshot() -> dict[str, list[dict[str, Any]]]:
    rows = {model.__name__: list(model.objects.order_by("pk").values()) for model in SNAPSHOT}
    rows["Match"] = list(Match.objects.order_by("pk").values("pk", "status", "version"))
    rows["Seat"] = list(Seat.objects.order_by("pk").values("pk", "user_id", "bot_level"))
    return rows


# --- what the person was told ---------------------------------------------------------------------

SENTENCE = re.compile(r"[A-Z][^<>.!?]{3,}[.!?]")


def _forms(response: HttpResponse) -> list[BaseForm]:
    layers = response.context if isinstance(response.context, ContextList) else [response.context]
    found: dict[int, BaseForm] = {}
    for layer in layers:
        if isinstance(layer, Context):
            for value in layer.flatten().values():
                if isinstance(value, BaseForm):
                    found[id(value)] = value
    return list(found.values())


def errors_shown(response: HttpResponse) -> list[str]:
    """The form errors and error messages a rendered page shows; fails if the page hides one."""
    html = response.content.decode()
    errors = [str(m) for form in _forms(response) for ms in form.errors.values() for m in ms]
    hidden = [m for m in errors if escape(m) not in html]
    assert not hidden, f"refused with reasons the page does not show: {hidden}"
    return errors + re.findall(r'<li class="error">([^<]+)</li>', html)


def error_messages(response: HttpResponse) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request) if m.level >= message_levels.ERROR]


def told(response: HttpResponse) -> bool:
    status = response.status_code
    if status == 302:
        return bool(list(get_messages(response.wsgi_request)))
    if status == 200:
        return bool(errors_shown(response))
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return 400 <= status < 500 and SENTENCE.search(text) is not None


# Plain posts, which the organizer's forms take as they are.
PLAIN_SEASON = {
    "rounds": "2",
    "divisions": "1",
    "promote": "0",
    "relegate": "0",
    "round_mode": "all",
    "fill": "bots",
    "settle": "bots",
}
LEAGUE_POST = {"name": "Plain", "game": "renfield", "table_size": "4", "time_control": "2d"}
LEAGUE_POST |= {"timeout_bot_level": "basic", "scoring": "places", "tiebreak_1": "points"}
