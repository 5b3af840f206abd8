"""Who may see and do what on every league page: organizer, player (a member), a member of another club,
an outsider who is logged in, and an anonymous visitor, in a public club and in a private one.

Each page is asked by every role in turn, the forbidden ones first, so that a refused request that
changed something anyway shows up as a changed fingerprint of the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLResolver, resolve, reverse

import leagues.urls
from accounts.models import User
from games.models import Mail, Seat
from leagues.clubs import club_invite
from leagues.models import (
    AuditEntry,
    Club,
    ClubInvitation,
    Entrant,
    Fixture,
    League,
    Membership,
    Round,
    Season,
    SeatOffer,
    Substitute,
    Unavailability,
)
from leagues.results import result_forfeit
from leagues.seasons import season_create, season_open_registration, season_register
from leagues.substitutes import substitute_add
from tests.accounts.factories import UserFactory
from tests.leagues.factories import make_club, make_league, make_season, member

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "other_club", "player", "organizer")


@dataclass
class World:
    club: Club
    league: League
    season: Season
    fixture: Fixture | None
    users: dict[str, User | None]
    target: User  # a member whose role the member pages change

    def season_url(self, name: str, *args: Any) -> str:
        return reverse(name, args=[self.club.slug, self.league.slug, self.season.number, *args])


def build(*, state: str = "running", public: bool = True) -> World:
    """A club with an organizer and a player; the player is entered in a season in ``state``."""
    organizer, player = UserFactory(), UserFactory()
    club = make_club(organizer=organizer, public=public)
    member(club, player)
    other_club_member = member(make_club(name="Other Club"))
    league = make_league(club=club)
    players = [player, UserFactory(), UserFactory(), UserFactory()]
    if state == "registration":
        season = season_create(league=league, actor=organizer, rounds=1)
        season_open_registration(season=season, actor=organizer)
        for user in players[1:]:
            member(club, user)
            season_register(season=season, user=user)
    else:
        season = make_season(league=league, players=players, rounds=1, start=state == "running")
    users: dict[str, User | None] = {
        "anonymous": None,
        "outsider": UserFactory(),
        "other_club": other_club_member,
        "player": player,
        "organizer": organizer,
    }
    target = member(club)
    club_invite(club=club, actor=organizer, email="invited@example.com")  # for the invitation buttons
    return World(club, league, season, Fixture.objects.filter(round__season=season).first(), users, target)


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def fingerprint() -> tuple[Any, ...]:
    return (
        AuditEntry.objects.count(),
        Membership.objects.count(),
        sorted(Membership.objects.values_list("role", flat=True)),
        League.objects.count(),
        sorted(League.objects.values_list("name", "tiebreaks")),
        Season.objects.count(),
        sorted(Season.objects.values_list("status", flat=True)),
        Entrant.objects.count(),
        ClubInvitation.objects.count(),
        Fixture.objects.exclude(how="").count(),
        sorted(Round.objects.values_list("play_by", flat=True), key=str),
        sorted(Entrant.objects.values_list("division", flat=True)),
        sorted(Unavailability.objects.values_list("entrant_id", "round_number")),
        sorted(Substitute.objects.values_list("season_id", "user_id")),
        sorted(SeatOffer.objects.values_list("pk", "taken_by_id")),
    )


# Expected statuses per role, in ROLES order.
EVERYONE = dict.fromkeys(ROLES, 200)
LOGGED_IN = {**EVERYONE, "anonymous": 302}
ORGANIZER_GET = {"anonymous": 302, "outsider": 403, "other_club": 403, "player": 403, "organizer": 200}
ORGANIZER_POST = {"anonymous": 302, "outsider": 403, "other_club": 403, "player": 403, "organizer": 302}
MEMBER_POST = {"anonymous": 302, "outsider": 403, "other_club": 403, "player": 302, "organizer": 302}


@dataclass
class Case:
    name: str
    url: Callable[[World], str]
    expected: dict[str, int]
    method: str = "get"
    data: Callable[[World], dict[str, Any]] | None = None
    state: str = "running"


def _club(name: str) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[w.club.slug])


def _league(name: str) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[w.club.slug, w.league.slug])


def _season(name: str) -> Callable[[World], str]:
    return lambda w: w.season_url(name)


def _player_url(w: World) -> str:
    player = w.users["player"]
    assert player is not None
    return w.season_url("leagues-player", player.pk)


def _fixture_url(w: World) -> str:
    assert w.fixture is not None
    return w.season_url("leagues-result", w.fixture.pk)


def _member_url(name: str) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[w.club.slug, w.target.pk])


def _round_url(w: World) -> str:
    first = Round.objects.filter(season=w.season).order_by("number").first()
    assert first is not None
    return w.season_url("leagues-round-dates", first.pk)


def _round_action_url(name: str) -> Callable[[World], str]:
    def url(w: World) -> str:
        first = Round.objects.filter(season=w.season).order_by("number").first()
        assert first is not None
        return w.season_url(name, first.pk)

    return url


def _invitation_url(name: str) -> Callable[[World], str]:
    def url(w: World) -> str:
        invitation = ClubInvitation.objects.get(club=w.club, email="invited@example.com")
        return reverse(name, args=[w.club.slug, invitation.pk])

    return url


def _entrant_url(w: World) -> str:
    return w.season_url("leagues-entrant-division", Entrant.objects.filter(season=w.season).first().pk)  # type: ignore[union-attr]


def _forfeit(w: World) -> dict[str, Any]:
    assert w.fixture is not None
    return {"action": "forfeit", "forfeit-entrants": [w.fixture.seats[0]], "forfeit-reason": "Did not turn up."}


LEAGUE_POST = {
    "name": "Spring League",
    "game": "renfield",
    "table_size": 4,
    "time_control": "2d",
    "timeout_bot_level": "basic",
    "scoring": "places",
    "tiebreak_1": "points",
}

CASES = [
    Case("clubs", lambda w: reverse("leagues-clubs"), EVERYONE),
    Case("club", _club("leagues-club"), EVERYONE),
    Case("club create", lambda w: reverse("leagues-club-create"), LOGGED_IN),
    Case(
        "club create post",
        lambda w: reverse("leagues-club-create"),
        {**LOGGED_IN, **dict.fromkeys(ROLES[1:], 302)},
        "post",
        lambda w: {"name": "A New Club", "public": "on"},
    ),
    Case("club join post", _club("leagues-club-join"), dict.fromkeys(ROLES, 302), "post"),
    Case("club invite", _club("leagues-club-invite"), ORGANIZER_GET),
    Case(
        "club invite post",
        _club("leagues-club-invite"),
        ORGANIZER_POST,
        "post",
        lambda w: {"email": "new@example.com", "role": "player"},
    ),
    Case("members", _club("leagues-members"), ORGANIZER_GET),
    Case(
        "member role post", _member_url("leagues-member-role"), ORGANIZER_POST, "post", lambda w: {"role": "organizer"}
    ),
    Case("league create", _club("leagues-league-create"), ORGANIZER_GET),
    Case("league create post", _club("leagues-league-create"), ORGANIZER_POST, "post", lambda w: LEAGUE_POST),
    Case("league", _league("leagues-league"), EVERYONE),
    Case("league edit", _league("leagues-league-edit"), ORGANIZER_GET),
    Case("league edit post", _league("leagues-league-edit"), ORGANIZER_POST, "post", lambda w: LEAGUE_POST),
    Case("season create", _league("leagues-season-create"), ORGANIZER_GET),
    Case(
        "season create post",
        _league("leagues-season-create"),
        ORGANIZER_POST,
        "post",
        lambda w: {
            "rounds": 2,
            "divisions": 1,
            "promote": 0,
            "relegate": 0,
            "round_mode": "all",
            "fill": "bots",
            "settle": "bots",
        },
    ),
    Case("season", _season("leagues-season"), EVERYONE),
    Case(
        "registration close post",
        _season("leagues-season-registration"),
        ORGANIZER_POST,
        "post",
        lambda w: {"action": "close"},
        state="registration",
    ),
    Case("register post", _season("leagues-season-register"), MEMBER_POST, "post", state="registration"),
    Case("withdraw post", _season("leagues-season-withdraw"), MEMBER_POST, "post", state="registration"),
    Case("fixtures", _season("leagues-fixtures"), EVERYONE),
    Case("fixtures generate post", _season("leagues-fixtures-generate"), ORGANIZER_POST, "post", state="closed"),
    Case("round dates post", _round_url, ORGANIZER_POST, "post", lambda w: {"play_by": "2026-03-01T18:00"}),
    Case("entrant division post", _entrant_url, ORGANIZER_POST, "post", lambda w: {"division": 1}, state="closed"),
    Case("start post", _season("leagues-season-start"), ORGANIZER_POST, "post", state="closed"),
    Case("organize", _season("leagues-season-organize"), ORGANIZER_GET),
    Case("result", _fixture_url, ORGANIZER_GET),
    Case("result post", _fixture_url, ORGANIZER_POST, "post", _forfeit),
    Case("finish", _season("leagues-season-finish"), ORGANIZER_GET),
    Case("finish post", _season("leagues-season-finish"), ORGANIZER_POST, "post"),
    Case("standings", _season("leagues-standings"), EVERYONE),
    Case("standings csv", _season("leagues-standings-csv"), EVERYONE),
    Case("standings json", _season("leagues-standings-json"), EVERYONE),
    Case("results csv", _season("leagues-results-csv"), EVERYONE),
    Case("player", _player_url, EVERYONE),
    Case("member remove", _member_url("leagues-member-remove"), ORGANIZER_GET),
    Case("member remove post", _member_url("leagues-member-remove"), ORGANIZER_POST, "post"),
    Case("invitation resend post", _invitation_url("leagues-invitation-resend"), ORGANIZER_POST, "post"),
    Case("invitation cancel post", _invitation_url("leagues-invitation-cancel"), ORGANIZER_POST, "post"),
    Case("season edit", _season("leagues-season-edit"), ORGANIZER_GET),
    Case("season edit post", _season("leagues-season-edit"), ORGANIZER_POST, "post", lambda w: {"name": "Renamed"}),
    Case("round open", _round_action_url("leagues-round-open"), ORGANIZER_GET),
    Case("round open post", _round_action_url("leagues-round-open"), ORGANIZER_POST, "post"),
    Case("round settle", _round_action_url("leagues-round-settle"), ORGANIZER_GET),
    Case("round settle post", _round_action_url("leagues-round-settle"), ORGANIZER_POST, "post"),
    Case(
        "divisions seed post",
        _season("leagues-divisions-seed"),
        ORGANIZER_POST,
        "post",
        lambda w: {"by": "rating"},
        state="closed",
    ),
    Case("availability post", _season("leagues-availability"), MEMBER_POST, "post", lambda w: {"rounds": ["1"]}),
    Case(
        "availability post before the draw",
        _season("leagues-availability"),
        MEMBER_POST,
        "post",
        lambda w: {"rounds": ["1"]},
        state="registration",
    ),
    Case("volunteer post", _season("leagues-substitute-volunteer"), MEMBER_POST, "post", lambda w: {"action": "join"}),
    Case(
        "substitutes post",
        _season("leagues-substitutes"),
        ORGANIZER_POST,
        "post",
        lambda w: {"action": "add", "user": w.target.pk},
    ),
]


def _ask(world: World, case: Case, role: str) -> Any:
    client = client_for(world.users[role])
    url = case.url(world)
    if case.method == "post":
        return client.post(url, case.data(world) if case.data else {})
    return client.get(url)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_it_answers_each_role_of_a_public_club_as_expected(case: Case) -> None:
    world = build(state=case.state)
    got = {}
    for role in ROLES:
        before = fingerprint()
        response = _ask(world, case, role)
        got[role] = response.status_code
        if response.status_code == 302 and role == "anonymous":
            assert response["Location"].startswith(reverse("account_login")), case.name
        if response.status_code in (403, 404) or role == "anonymous":
            assert fingerprint() == before, f"{case.name}: a refused {role} changed something"
    assert got == case.expected


def test_the_organizers_posts_take_effect() -> None:
    """The 302s of the matrix are not refusals in disguise: each organizer post above did its work."""
    world = build(state="registration")
    organizer = client_for(world.users["organizer"])
    organizer.post(world.season_url("leagues-season-registration"), {"action": "close"})
    organizer.post(world.season_url("leagues-fixtures-generate"))
    organizer.post(world.season_url("leagues-season-start"))
    world.season.refresh_from_db()
    assert world.season.status == Season.Status.RUNNING
    assert Fixture.objects.filter(round__season=world.season).exclude(match=None).exists()


def _private_expected(case: Case) -> dict[str, int]:
    """Outsiders learn nothing of a private club: 404 where the public club answered them at all."""
    expected = dict(case.expected)
    for role in ("outsider", "other_club"):
        expected[role] = 404
    if expected["anonymous"] == 200:
        expected["anonymous"] = 404
    if case.name == "clubs":
        expected.update(outsider=200, other_club=200, anonymous=200)  # the list leaves the club out instead
    if case.name == "club create" or case.name == "club create post":
        expected.update(outsider=case.expected["outsider"], other_club=case.expected["other_club"])
    return expected


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_private_club_is_not_found_by_those_outside_it(case: Case) -> None:
    world = build(state=case.state, public=False)
    got = {}
    for role in ROLES:
        before = fingerprint()
        response = _ask(world, case, role)
        got[role] = response.status_code
        if role in ("anonymous", "outsider", "other_club"):
            assert fingerprint() == before or case.name == "club create post", f"{case.name}: {role} changed something"
            assert world.club.name not in response.content.decode(), f"{case.name}: {role} saw the club's name"
    assert got == _private_expected(case)


# Pages that show a form on GET and take it on POST; every other page answers one method only.
FORM_PAGES = {"club create", "club invite", "league create", "league edit", "season create", "result", "finish"}
FORM_PAGES |= {"member remove", "season edit", "round open", "round settle"}  # a page that asks, and its post
ONE_METHOD = [c for c in CASES if c.name.removesuffix(" post") not in FORM_PAGES]


@pytest.mark.parametrize("case", ONE_METHOD, ids=[c.name for c in ONE_METHOD])
def test_a_page_answers_the_other_method_with_405(case: Case) -> None:
    world = build(state=case.state)
    organizer = client_for(world.users["organizer"])
    before = fingerprint()
    url = case.url(world)
    response = organizer.get(url) if case.method == "post" else organizer.post(url)
    assert response.status_code == 405
    assert fingerprint() == before


@pytest.mark.parametrize("public", [True, False])
def test_the_invitation_link_opens_the_club_to_whoever_holds_it_once(public: bool) -> None:
    world = build(public=public)
    organizer = world.users["organizer"]
    assert organizer is not None
    invitation = club_invite(club=world.club, actor=organizer, email="invitee@example.com")
    link = reverse("leagues-invite", args=[invitation.token])
    assert {role: _get(world, role, link) for role in ROLES} == EVERYONE
    posted = {role: client_for(world.users[role]).post(link).status_code for role in ROLES}
    # The first logged-in holder joins (and is sent to the club); the link is used up for the rest.
    assert posted == {"anonymous": 302, "outsider": 302, "other_club": 200, "player": 200, "organizer": 200}
    assert Membership.objects.filter(club=world.club, user=world.users["outsider"]).exists()
    assert not Membership.objects.filter(club=world.club, user=world.users["other_club"]).exists()
    assert Client().get(reverse("leagues-invite", args=["made-up"])).status_code == 200


@pytest.mark.parametrize("public", [True, False])
def test_the_seat_offer_link_seats_only_the_member_it_was_sent_to(public: bool) -> None:
    world = build(public=public)
    organizer = world.users["organizer"]
    assert organizer is not None and world.fixture is not None
    substitute_add(season=world.season, actor=world.target, user=world.target)
    result_forfeit(fixture=world.fixture, actor=organizer, entrants=[world.fixture.seats[1]], reason="Gone.")
    mail = Mail.objects.filter(user=world.target, body__contains="Take the seat:").get()
    link = mail.body.split("Take the seat: ")[1].split()[0].replace("http://testserver", "")
    assert {role: _get(world, role, link) for role in ROLES} == EVERYONE
    for role in ROLES:  # nobody but the member it was sent to takes the seat
        before = fingerprint()
        response = client_for(world.users[role]).post(link)
        assert response.status_code == 302 and fingerprint() == before, role
    response = client_for(world.target).post(link)
    assert response["Location"] == reverse("games-match", args=[world.fixture.match_id])
    assert Seat.objects.get(match_id=world.fixture.match_id, number=1).user_id == world.target.pk


@pytest.mark.parametrize("token", ["%00", "a%00b", "%C3%A9t%C3%A9", "x" * 65, "a.b"])
def test_a_made_up_invitation_link_is_not_found_whatever_it_holds(token: str) -> None:
    """Any text, a NUL byte even (which PostgreSQL refuses in a text column): the link is not valid, no 500."""
    world = build(public=False)
    outsider = client_for(world.users["outsider"])
    url = f"/leagues/invite/{token}/"
    assert outsider.get(url).status_code == 200
    response = outsider.post(url, follow=True)
    assert response.status_code == 200 and "already been used or does not exist" in response.content.decode()
    assert not Membership.objects.filter(club=world.club, user=world.users["outsider"]).exists()


def _get(world: World, role: str, url: str) -> int:
    return client_for(world.users[role]).get(url).status_code


def _url_names(pattern: Any) -> list[str]:
    if isinstance(pattern, URLResolver):
        return [name for inner in pattern.url_patterns for name in _url_names(inner)]
    return [pattern.name]


def test_every_league_url_is_in_the_matrix() -> None:
    """A new league page without its row here fails, as the project-wide matrix does for the other apps."""
    worlds = {state: build(state=state) for state in {case.state for case in CASES}}
    covered = {resolve(case.url(worlds[case.state]).split("?")[0]).url_name for case in CASES}
    names = {name for pattern in leagues.urls.urlpatterns for name in _url_names(pattern)}
    # The invitation and seat-offer links answer whoever holds them: their own tests above.
    assert names - covered - {"leagues-invite", "leagues-seat-offer"} == set(), "league URLs without a row in CASES"
