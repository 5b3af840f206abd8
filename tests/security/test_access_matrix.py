"""Who may fetch or post what: every URL of the project against every kind of reader and of match.

``EXPECTED`` is the access policy written out: one exact answer per (URL name, method, match kind)
and reader. A URL added to the project without a row fails ``test_every_url_has_a_row``; allauth's
pages are allauth's, and of the admin only its index is listed (the leak scan reads its change pages).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import User
from games.models import ChatMessage, Match
from games.services import SeatSpec, invite_accept, match_create
from tests.games.conftest import login
from tests.games.factories import UserFactory, play_engine_moves, quick_options

pytestmark = pytest.mark.django_db

GAME = "karnoffel"  # four seats: the creator, a seated player, an invitation, a bot
ROLES = ("anonymous", "seated", "member", "creator", "staff")
KINDS = ("public-active", "private-active", "public-finished", "private-finished", "waiting")
NO_MATCH = "-"  # the kind of a row for a URL that names no match

# Redirects, named by where they lead.
LOGIN = "to login"  # allauth's login page, with ?next=
ADMIN_LOGIN = "to the admin login"
TABLE = "to the table"  # post/redirect/get back to the match page, the outcome in a message
HOME = "to the dashboard"
PROFILE = "to the profile"
SOME_TABLE = "to a table or the dashboard"  # "next match": where depends on who is awaited
STOP = 286  # htmx's "stop polling": the answer to a poll once the match is over

Cell = int | str
Row = tuple[Cell, Cell, Cell, Cell, Cell]  # one answer per reader, in the order of ROLES


def every_kind(row: Row) -> dict[str, Row]:
    return dict.fromkeys(KINDS, row)


def over_or_not(
    *, active: Row, private_active: Row, finished: Row, private_finished: Row, waiting: Row
) -> dict[str, Row]:
    return {
        "public-active": active,
        "private-active": private_active,
        "public-finished": finished,
        "private-finished": private_finished,
        "waiting": waiting,
    }


# Staff are players like any other at the table: without a seat they see no private match. The
# waiting match is public, so a member without a seat may watch it but not post to it.
# Each row answers for (anonymous, seated, member, creator, staff), as ROLES lists them.
READ = over_or_not(
    active=(LOGIN, 200, 200, 200, 200),
    private_active=(LOGIN, 200, 404, 200, 404),
    finished=(LOGIN, 200, 200, 200, 200),
    private_finished=(LOGIN, 200, 404, 200, 404),
    waiting=(LOGIN, 200, 200, 200, 200),
)
POLL = over_or_not(
    active=(LOGIN, 200, 200, 200, 200),
    private_active=(LOGIN, 200, 404, 200, 404),
    finished=(LOGIN, STOP, STOP, STOP, STOP),
    private_finished=(LOGIN, STOP, 404, STOP, 404),
    waiting=(LOGIN, 200, 200, 200, 200),
)
# The replay and the export show the deal: only once the match is over.
REPLAY = over_or_not(
    active=(LOGIN, 404, 404, 404, 404),
    private_active=(LOGIN, 404, 404, 404, 404),
    finished=(LOGIN, 200, 200, 200, 200),
    private_finished=(LOGIN, 200, 404, 200, 404),
    waiting=(LOGIN, 404, 404, 404, 404),
)
EXPORT = over_or_not(
    active=(LOGIN, 409, 409, 409, 409),
    private_active=(LOGIN, 409, 404, 409, 404),
    finished=(LOGIN, 200, 200, 200, 200),
    private_finished=(LOGIN, 200, 404, 200, 404),
    waiting=(LOGIN, 409, 409, 409, 409),
)
# A post by a seated player always comes back to the table (refused or not, with a message); without a
# seat it is 403 where the reader may watch and 404 where they may not know the match exists.
POST_AT_TABLE = over_or_not(
    active=(LOGIN, TABLE, 403, TABLE, 403),
    private_active=(LOGIN, TABLE, 404, TABLE, 404),
    finished=(LOGIN, TABLE, 403, TABLE, 403),
    private_finished=(LOGIN, TABLE, 404, TABLE, 404),
    waiting=(LOGIN, TABLE, 403, TABLE, 403),
)
WRONG_METHOD = every_kind((LOGIN, 405, 405, 405, 405))
# The waiting match's invitation is for a third player: the link opens for whoever holds it (a visitor
# too, to sign up), but only its invitee may take the seat. The other matches' invitations were
# accepted: used links go home with a message.
INVITE_GET = over_or_not(
    active=(HOME, HOME, HOME, HOME, HOME),
    private_active=(HOME, HOME, HOME, HOME, HOME),
    finished=(HOME, HOME, HOME, HOME, HOME),
    private_finished=(HOME, HOME, HOME, HOME, HOME),
    waiting=(200, 200, 200, 200, 200),
)
INVITE_POST = over_or_not(
    active=(HOME, HOME, HOME, HOME, HOME),
    private_active=(HOME, HOME, HOME, HOME, HOME),
    finished=(HOME, HOME, HOME, HOME, HOME),
    private_finished=(HOME, HOME, HOME, HOME, HOME),
    waiting=(LOGIN, HOME, TABLE, HOME, HOME),
)
# The creator's controls for a seat (here: resend the invitation of seat 3) answer on the table, refused
# with a message for anyone else and for a match that is not waiting.
SEAT_MANAGE = over_or_not(
    active=(LOGIN, TABLE, TABLE, TABLE, TABLE),
    private_active=(LOGIN, TABLE, 404, TABLE, 404),
    finished=(LOGIN, TABLE, TABLE, TABLE, TABLE),
    private_finished=(LOGIN, TABLE, 404, TABLE, 404),
    waiting=(LOGIN, TABLE, TABLE, TABLE, TABLE),
)

EXPECTED: dict[tuple[str, str], dict[str, Row]] = {
    ("games-match", "GET"): READ,
    ("games-match", "POST"): WRONG_METHOD,
    ("games-poll", "GET"): POLL,
    ("games-poll", "POST"): WRONG_METHOD,
    ("games-log", "GET"): READ,
    ("games-log", "POST"): WRONG_METHOD,
    ("games-replay", "GET"): REPLAY,
    ("games-replay", "POST"): WRONG_METHOD,
    ("games-export", "GET"): EXPORT,
    ("games-export", "POST"): WRONG_METHOD,
    ("games-play", "GET"): WRONG_METHOD,
    ("games-play", "POST"): POST_AT_TABLE,
    ("games-chat", "GET"): WRONG_METHOD,
    ("games-chat", "POST"): POST_AT_TABLE,
    ("games-reclaim", "GET"): WRONG_METHOD,
    ("games-reclaim", "POST"): POST_AT_TABLE,  # a seat that is not absent: nothing to take back
    ("games-invite", "GET"): INVITE_GET,
    ("games-seat-manage", "GET"): WRONG_METHOD,
    ("games-seat-manage", "POST"): SEAT_MANAGE,
    # Pages that name no match. Anonymous visitors get the landing page at "/".
    ("games-dashboard", "GET"): {NO_MATCH: (200, 200, 200, 200, 200)},
    ("games-dashboard", "POST"): {NO_MATCH: (200, 200, 200, 200, 200)},
    ("games-next", "GET"): {NO_MATCH: (LOGIN, SOME_TABLE, HOME, SOME_TABLE, HOME)},
    ("games-next", "POST"): {NO_MATCH: (LOGIN, SOME_TABLE, HOME, SOME_TABLE, HOME)},
    ("games-rules", "GET"): {NO_MATCH: (200, 200, 200, 200, 200)},
    ("games-rules", "POST"): {NO_MATCH: (405, 405, 405, 405, 405)},
    ("games-create", "GET"): {NO_MATCH: (LOGIN, 200, 200, 200, 200)},
    ("games-create", "POST"): {NO_MATCH: (LOGIN, 200, 200, 200, 200)},  # an empty form: errors, no match
    ("accounts-profile", "GET"): {NO_MATCH: (LOGIN, 200, 200, 200, 200)},
    ("accounts-profile", "POST"): {NO_MATCH: (LOGIN, 200, 200, 200, 200)},  # an empty form: errors
    ("accounts-preferences", "GET"): {NO_MATCH: (LOGIN, 405, 405, 405, 405)},
    ("accounts-preferences", "POST"): {NO_MATCH: (LOGIN, 200, 200, 200, 200)},  # an empty form: errors
    ("games-vacation-start", "GET"): {NO_MATCH: (LOGIN, 405, 405, 405, 405)},
    ("games-vacation-start", "POST"): {NO_MATCH: (LOGIN, 200, 200, 200, 200)},  # no days given: errors
    ("games-vacation-end", "GET"): {NO_MATCH: (LOGIN, 405, 405, 405, 405)},
    ("games-vacation-end", "POST"): {NO_MATCH: (LOGIN, PROFILE, PROFILE, PROFILE, PROFILE)},  # not away: a message
    # The feed needs no login: the token in its address is the secret. Each reader asks for their own,
    # the anonymous visitor for a made-up one.
    ("games-calendar", "GET"): {NO_MATCH: (404, 200, 200, 200, 200)},
    ("games-calendar", "POST"): {NO_MATCH: (405, 405, 405, 405, 405)},
    ("games-calendar-reset", "GET"): {NO_MATCH: (LOGIN, 405, 405, 405, 405)},
    ("games-calendar-reset", "POST"): {NO_MATCH: (LOGIN, PROFILE, PROFILE, PROFILE, PROFILE)},
    # A move link from a mail: a made-up token is not found, for anyone, logged in or not.
    ("games-mail-move", "GET"): {NO_MATCH: (404, 404, 404, 404, 404)},
    ("games-mail-move", "POST"): {NO_MATCH: (404, 404, 404, 404, 404)},
    ("games-service-worker", "GET"): {NO_MATCH: (200, 200, 200, 200, 200)},
    ("games-service-worker", "POST"): {NO_MATCH: (405, 405, 405, 405, 405)},
    ("games-push-subscription", "GET"): {NO_MATCH: (LOGIN, 405, 405, 405, 405)},
    ("games-push-subscription", "POST"): {NO_MATCH: (LOGIN, 400, 400, 400, 400)},  # no subscription sent
    ("games-notice-test", "GET"): {NO_MATCH: (LOGIN, 405, 405, 405, 405)},
    ("games-notice-test", "POST"): {NO_MATCH: (LOGIN, PROFILE, PROFILE, PROFILE, PROFILE)},
    ("healthz", "GET"): {NO_MATCH: (200, 200, 200, 200, 200)},
    ("healthz", "POST"): {NO_MATCH: (200, 200, 200, 200, 200)},
    ("admin:index", "GET"): {NO_MATCH: (ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 200)},
    ("admin:index", "POST"): {NO_MATCH: (ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 200)},
    # Last, as they change the waiting match. Whoever holds an invitation link may take the seat (the
    # link is the invitation, bound to no account): the member, first in ROLES without a seat there,
    # takes it and starts the match; after that the link is used, and declining finds it gone.
    ("games-invite", "POST"): INVITE_POST,
    ("games-invite-decline", "GET"): every_kind((405, 405, 405, 405, 405)),
    ("games-invite-decline", "POST"): every_kind((HOME, HOME, HOME, HOME, HOME)),
}


# --- the project's URLs ----------------------------------------------------------------------------


def _names(patterns: list[Any], namespace: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.app_name == "admin":
                yield "admin:index"  # the admin's own pages are Django's; its change pages are in the leak scan
            elif getattr(pattern.urlconf_module, "__name__", "").startswith("allauth."):
                continue  # allauth's pages are allauth's
            elif getattr(pattern.urlconf_module, "__name__", "") == "leagues.urls":
                continue  # clubs' roles are their own matrix: tests/leagues/test_permissions.py, checked complete there
            else:
                ns = f"{pattern.namespace}:" if pattern.namespace else namespace
                yield from _names(pattern.url_patterns, ns)
        elif isinstance(pattern, URLPattern):
            assert pattern.name, f"every URL of the project has a name to list it here: {pattern.pattern}"
            yield namespace + pattern.name


def project_url_names() -> set[str]:
    return set(_names(get_resolver().url_patterns))


def test_every_url_has_a_row() -> None:
    tabled = {name for name, _method in EXPECTED}
    names = project_url_names()
    assert names - tabled == set(), "URLs without an entry in the access matrix: add their rows"
    assert tabled - names == set(), "rows for URLs the project no longer has"
    assert {"games-play", "accounts-profile", "healthz", "admin:index"} <= names  # the walk finds all apps


def test_every_row_answers_for_every_reader_and_kind() -> None:
    for key, rows in EXPECTED.items():
        assert set(rows) in ({NO_MATCH}, set(KINDS)), key
        assert all(len(row) == len(ROLES) for row in rows.values()), key


# --- the world -------------------------------------------------------------------------------------


@dataclass
class World:
    users: dict[str, User]
    readers: dict[str, Client]
    matches: dict[str, Match]
    tokens: dict[str, str]  # per kind: the waiting match's open invitation, the others' used ones


def _match(kind: str, creator: User, seated: User) -> tuple[Match, str]:
    """The creator in seat 1, ``seated`` in seat 2, an invitation in seat 3, a bot in seat 4.

    The invitee (someone new each time: an address gets only a few invitations a day) accepts, except
    at the waiting match, so every other match has a used invitation link to try.
    """
    invitee = UserFactory()
    specs = [SeatSpec(user=creator), SeatSpec(user=seated), SeatSpec(email=invitee.email), SeatSpec(bot="random")]
    match = match_create(
        game=GAME,
        players=len(specs),
        options=quick_options(GAME),
        created_by=creator,
        private=kind.startswith("private"),
        seats=specs,
    )
    token = match.seats.get(number=2).invite_token
    if kind != "waiting":
        invite_accept(token=token, user=invitee)
    match.refresh_from_db()
    if kind.endswith("finished"):
        play_engine_moves(match, 0, until_over=True)
        match.refresh_from_db()
    return match, token


@pytest.fixture
def world() -> World:
    creator, seated = UserFactory(), UserFactory()
    users = {
        "seated": seated,
        "member": UserFactory(),
        "creator": creator,
        "staff": UserFactory(is_staff=True, is_superuser=True),
    }
    readers = {"anonymous": Client(), **{role: login(user) for role, user in users.items()}}
    matches, tokens = {}, {}
    for kind in KINDS:
        matches[kind], tokens[kind] = _match(kind, creator, seated)
    expected = {
        "public-active": Match.Status.ACTIVE,
        "private-active": Match.Status.ACTIVE,
        "public-finished": Match.Status.FINISHED,
        "private-finished": Match.Status.FINISHED,
        "waiting": Match.Status.WAITING,
    }
    assert {k: m.status for k, m in matches.items()} == expected, "precondition: one match of each kind"
    return World(users=users, readers=readers, matches=matches, tokens=tokens)


def _url(name: str, kind: str, role: str, world: World) -> str:
    if name == "games-calendar":
        user = world.users.get(role)
        if user is None:
            return reverse(name, args=["1-made-up"])
        user.refresh_from_db()  # a reset earlier in the run gave it a new token
        return reverse(name, args=[f"{user.pk}-{user.calendar_token}"])
    if name == "games-rules":
        return reverse(name, args=[GAME])
    if name == "games-mail-move":
        return reverse(name, args=["made-up"])
    if kind == NO_MATCH:
        return reverse(name)
    if name in ("games-invite", "games-invite-decline"):
        return reverse(name, args=[world.tokens[kind]])
    if name == "games-seat-manage":
        return reverse(name, args=[world.matches[kind].pk, 2, "resend"])
    return reverse(name, args=[world.matches[kind].pk])


def _data(name: str, kind: str, world: World) -> dict[str, Any]:
    """What a post carries: a move the engine refuses (nothing changes), a chat line, an empty form."""
    if name == "games-play":
        return {"action": "{}", "version": world.matches[kind].version}
    if name == "games-chat":
        return {"text": "Good luck, all."}
    return {}


def _answer(response: HttpResponse, kind: str, world: World) -> Cell:
    """The response as a cell of the table: its status, or where a redirect leads."""
    if response.status_code != 302:
        return response.status_code
    location = response["Location"]
    if location.startswith(reverse("account_login") + "?next="):
        return LOGIN
    if location.startswith(reverse("admin:login") + "?next="):
        return ADMIN_LOGIN
    if location == reverse("games-dashboard"):
        return HOME
    if location == reverse("accounts-profile"):
        return PROFILE
    if kind != NO_MATCH and location == world.matches[kind].get_absolute_url():
        return TABLE
    if location.startswith("/m/"):
        return SOME_TABLE
    return f"302 to {location}"


def _cases() -> Iterator[tuple[str, str, str, int, str]]:
    for (name, method), rows in EXPECTED.items():
        for kind in rows:
            for index, role in enumerate(ROLES):
                yield name, method, kind, index, role


def test_every_reader_gets_exactly_the_answer_in_the_table(world: World) -> None:
    wrong = []
    for name, method, kind, index, role in _cases():
        cache.clear()  # burst limits, where the settings turn them on, must not answer instead of the view
        client, url = world.readers[role], _url(name, kind, role, world)
        response = client.get(url) if method == "GET" else client.post(url, _data(name, kind, world))
        expected, got = EXPECTED[name, method][kind][index], _answer(response, kind, world)
        if (expected == SOME_TABLE and got in (HOME, TABLE)) or got == expected:
            continue
        wrong.append(f"{method} {name} ({kind}) as {role}: expected {expected}, got {got}")
    assert not wrong, "\n".join(wrong)


def test_refused_posts_change_nothing(world: World) -> None:
    """The matrix's posts by readers without a seat leave every match as it was."""
    before = {kind: (m.version, m.state, m.status) for kind, m in world.matches.items()}
    chat_before = ChatMessage.objects.count()
    for kind in KINDS:
        for role in ("member", "staff"):
            for name in ("games-play", "games-chat", "games-reclaim"):
                world.readers[role].post(_url(name, kind, role, world), _data(name, kind, world))
    for kind, match in world.matches.items():
        match.refresh_from_db()
        assert (match.version, match.state, match.status) == before[kind], kind
    assert ChatMessage.objects.count() == chat_before
