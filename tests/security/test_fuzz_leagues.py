"""Fuzzed posts to every league view that changes something: never a 500, no change on refused input, and a word.

One world per test: a public club running a season and taking registrations for the next, a private
club of someone else with its own season, invitations live, used and expired. Each example posts odd
values (wrong types, huge and unicode text, impossible dates, unicode digits) to a view, with ids of
this club's objects, other clubs' objects, other people and none at all, as the organizer, a player,
an outsider or a member of the other club. A snapshot of every league row (and each match's version)
is taken before and after, inside a savepoint that is rolled back, so every example meets the same world
(tests/security/league_world.py, the ``league_world`` fixture).

The oracle: the status is below 500; the rows changed only on a success (a redirect without an error
message); rows unchanged means the person was told why: a form error shown on the page, a message, or a
4xx page with a sentence. A few valid no-ops (setting a member's role to the one they have) are named.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from hypothesis import event, example, given, note
from hypothesis import strategies as st

from engine import GAMES, get_game
from games.clocks import PRESETS
from games.models import Seat
from leagues import tiebreaks
from leagues.forms import DivisionForm
from leagues.models import ClubInvitation, Entrant, Fixture, League, Membership, Round, Season
from leagues.substitutes import OFFER_SALT
from tests.security.league_world import (
    CLOCK_HOURS,
    DATE,
    DATETIME,
    FUZZ,
    NUMBER,
    ODD_IDS,
    PLACE_POINTS,
    PLAIN_SEASON,
    TEXT,
    World,
    choice,
    error_messages,
    snapshot,
    told,
)

pytestmark = pytest.mark.django_db


# --- the cases ------------------------------------------------------------------------------------

Draw = Callable[[st.SearchStrategy[Any]], Any]


@dataclass(frozen=True, repr=False)
class Case:
    """A view that changes something: who posts, to which address, what; and which posts are valid no-ops."""

    name: str
    who: list[str]
    url: Callable[[World, Draw], str]
    data: Callable[[World, Draw], dict[str, Any]] = lambda w, draw: {}
    noop: Callable[[World, str, str, dict[str, Any]], bool] = lambda w, who, url, data: False

    def __repr__(self) -> str:
        return f"Case({self.name!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def mostly(usual: Any, others: list[Any], odd: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The usual value three times in five, so that most examples reach the form; else another's, or anything."""
    return st.one_of(st.just(usual), st.just(usual), st.just(usual), st.sampled_from(others), odd)


def _slug(usual: str, others: list[str], draw: Draw) -> str:
    return quote(draw(mostly(usual, others, TEXT)), safe="")


def _user_id(w: World, draw: Draw) -> int:
    people = [u.pk for u in w.users.values()]
    result: int = draw(st.one_of(st.sampled_from(people), st.sampled_from(people), ODD_IDS))
    return result


def _who(usual: str, *others: str) -> list[str]:
    """Who posts: the usual actor (the organizer, mostly) three times in five."""
    return [usual] * -(-3 * len(others) // 2) + list(others)


def _season(w: World, draw: Draw, *extra: Season) -> Season:
    found: Season = draw(st.sampled_from([w.running, w.open, *extra]))
    return found


def _league_data(w: World, draw: Draw) -> dict[str, Any]:
    game = draw(choice(sorted(GAMES)))
    module = get_game(game) if game in GAMES else get_game("renfield")
    fields = {
        "name": choice(["Winter League", "  Spaced  "]),
        "game": st.just(game),
        "table_size": choice([str(module.MIN_PLAYERS), str(module.MAX_PLAYERS)], NUMBER),
        "time_control": choice([*PRESETS, "custom"]),
        "timeout_bot_level": choice(list(Seat.BotLevel.values)),
        "scoring": choice(list(League.Scoring.values)),
    }
    optional = {
        "place_points": choice(["", "4,2,1,0", "3;2;1", "1,2,3", "-1,0", "nan,1"], st.one_of(NUMBER, PLACE_POINTS)),
        "rated": choice(["on"]),
        "format": choice(list(League.Format.values)),
        "advance": choice(["1", "2", "3"], NUMBER),
        **{
            f"tc_{n}": choice(["1", "24", "0.5"], st.one_of(NUMBER, CLOCK_HOURS))
            for n in ("initial", "increment", "cap")
        },
        **{f"tiebreak_{n}": choice(["", *tiebreaks.TIEBREAKS]) for n in range(1, len(tiebreaks.TIEBREAKS) + 1)},
        **{
            f"opt_{entry['name']}": choice([str(entry.get("default", "")), "on", "1"], NUMBER)
            for entry in module.OPTIONS
        },
    }
    data: dict[str, Any] = draw(st.fixed_dictionaries(fields, optional=optional))
    return data


def _league_url(name: str) -> Callable[[World, Draw], str]:
    def url(w: World, draw: Draw) -> str:
        club, league = draw(mostly((w.club, w.league), [(w.other_club, w.other_league)], st.nothing()))
        game = quote(draw(choice(sorted(GAMES))), safe="")
        args = [club.slug] if name == "leagues-league-create" else [club.slug, league.slug]
        return reverse(name, args=args) + f"?game={game}"

    return url


def _same_role(w: World, who: str, url: str, data: dict[str, Any]) -> bool:
    """An organizer of the club sets a member's role to the one they have: nothing to change, nothing to say.

    Either club's organizer: the other club's organizer changing a role in their own club is one too.
    """
    found = re.search(r"/leagues/c/([^/]+)/members/(\d+)/role/", url)
    if found is None or who not in w.users:
        return False
    club = found.group(1)
    poster = Membership.objects.filter(club__slug=club, user=w.users[who], role=Membership.Role.ORGANIZER)
    membership = Membership.objects.filter(club__slug=club, user_id=int(found.group(2))).first()
    return poster.exists() and membership is not None and data.get("role") == membership.role


def _same_division(w: World, who: str, url: str, data: dict[str, Any]) -> bool:
    found = re.search(r"/entrants/(\d+)/division/", url)
    entrant = Entrant.objects.filter(pk=int(found.group(1)) if found else 0, season__league=w.league).first()
    form = DivisionForm(data)
    return (
        who == "organizer"
        and entrant is not None
        and form.is_valid()
        and form["division"].data is not None
        and (form.cleaned_data["division"] == entrant.division)
    )


def _round_url(w: World, draw: Draw) -> str:
    season = _season(w, draw)
    mine = list(Round.objects.filter(season=w.running).values_list("pk", flat=True))
    theirs = list(Round.objects.filter(season=w.other_season).values_list("pk", flat=True))
    round_id = draw(mostly(mine[0], theirs, ODD_IDS))
    return w.season_url("leagues-round-dates", season, round_id)


def _round_action_url(name: str) -> Callable[[World, Draw], str]:
    """Open or settle now: a round of the running season mostly, else another club's or none."""

    def url(w: World, draw: Draw) -> str:
        season = _season(w, draw)
        mine = list(Round.objects.filter(season=w.running).values_list("pk", flat=True))
        theirs = list(Round.objects.filter(season=w.other_season).values_list("pk", flat=True))
        return w.season_url(name, season, draw(mostly(mine[0], theirs, ODD_IDS)))

    return url


def _invitation_url(name: str) -> Callable[[World, Draw], str]:
    """Resend or cancel: an invitation of this club mostly (live, used or expired), else another club's or none."""

    def url(w: World, draw: Draw) -> str:
        club = draw(mostly(w.club, [w.other_club], st.nothing()))
        mine = list(ClubInvitation.objects.filter(club=w.club).values_list("pk", flat=True))
        theirs = list(ClubInvitation.objects.filter(club=w.other_club).values_list("pk", flat=True))
        return reverse(name, args=[club.slug, draw(mostly(mine[0], mine[1:] + theirs, ODD_IDS))])

    return url


def _entrant_url(w: World, draw: Draw) -> str:
    season = draw(mostly(w.open, [w.running], st.nothing()))
    mine = list(Entrant.objects.filter(season=w.open).values_list("pk", flat=True))
    others = list(Entrant.objects.exclude(season=w.open).values_list("pk", flat=True))
    entrant_id = draw(st.one_of(st.sampled_from(mine), st.sampled_from(mine), st.sampled_from(others), ODD_IDS))
    return w.season_url("leagues-entrant-division", season, entrant_id)


def _fixtures(w: World) -> list[Fixture]:
    return list(Fixture.objects.filter(round__season__in=[w.running, w.other_season]).select_related("round"))


def _result_url(w: World, draw: Draw) -> str:
    mine, theirs = [f.pk for f in _fixtures(w) if f.round.season_id == w.running.pk], [f.pk for f in _fixtures(w)]
    return w.season_url("leagues-result", w.running, draw(mostly(mine[0], theirs, ODD_IDS)))


def _result_data(w: World, draw: Draw) -> dict[str, Any]:
    seats = [str(e) for f in _fixtures(w) for e in f.seats if e is not None]
    places = {f"adjust-place_{n}": choice(["1", "2", "3", "4"], NUMBER) for n in range(5)}
    optional = {
        "action": choice(["forfeit", "adjust"]),
        "forfeit-entrants": st.lists(st.one_of(st.sampled_from(seats), NUMBER), max_size=5),
        "forfeit-reason": choice(["Did not turn up."]),
        "adjust-reason": choice(["Scored by hand."]),
        **places,
    }
    data: dict[str, Any] = draw(st.fixed_dictionaries({}, optional=optional))
    return data


SEASON_ACTIONS = [
    "leagues-season-registration",
    "leagues-season-register",
    "leagues-season-withdraw",
    "leagues-fixtures-generate",
    "leagues-season-start",
]

CASES = [
    Case(
        "club create",
        ["outsider", "player"],
        lambda w, draw: reverse("leagues-club-create"),
        lambda w, draw: draw(
            st.fixed_dictionaries(
                {"name": choice(["A New Club"])}, optional={"description": TEXT, "public": choice(["on"])}
            )
        ),
    ),
    Case(
        "club join",
        ["outsider", "player", "other_member"],
        lambda w, draw: f"/leagues/c/{_slug(w.club.slug, [w.other_club.slug], draw)}/join/",
    ),
    Case(
        "club invite",
        _who("organizer", "player", "other_organizer"),
        lambda w, draw: f"/leagues/c/{_slug(w.club.slug, [w.other_club.slug], draw)}/invite/",
        lambda w, draw: draw(
            st.fixed_dictionaries(
                {"email": st.one_of(st.emails(), st.sampled_from(["new@fuzz.test", w.users["player"].email]), TEXT)},
                optional={"role": choice(list(Membership.Role.values))},
            )
        ),
    ),
    Case(
        "invitation link",
        ["outsider", "player", "other_member"],
        lambda w, draw: "/leagues/invite/" + _slug(w.tokens["live"], list(w.tokens.values()), draw) + "/",
    ),
    Case(
        "member role",
        _who("organizer", "player", "other_organizer"),
        lambda w, draw: f"/leagues/c/{_slug(w.club.slug, [w.other_club.slug], draw)}/members/{_user_id(w, draw)}/role/",
        lambda w, draw: draw(st.fixed_dictionaries({}, optional={"role": choice(list(Membership.Role.values))})),
        _same_role,
    ),
    Case(
        "member remove",
        _who("organizer", "player", "target", "other_organizer"),
        lambda w, draw: (
            f"/leagues/c/{_slug(w.club.slug, [w.other_club.slug], draw)}/members/{_user_id(w, draw)}/remove/"
        ),
    ),
    Case("league create", _who("organizer", "player"), _league_url("leagues-league-create"), _league_data),
    Case("league edit", _who("organizer", "player"), _league_url("leagues-league-edit"), _league_data),
    Case(
        "season create",
        _who("organizer", "player"),
        _league_url("leagues-season-create"),
        lambda w, draw: draw(
            st.fixed_dictionaries(
                {
                    "rounds": choice(["1", "3"], NUMBER),
                    "divisions": choice(["1", "2"], NUMBER),
                    "promote": choice(["0", "1"], NUMBER),
                    "relegate": choice(["0", "1"], NUMBER),
                    "round_mode": choice(list(Season.RoundMode.values)),
                    "fill": choice(list(Season.Fill.values)),
                    "settle": choice(list(Season.Settle.values)),
                },
                optional={
                    "name": choice(["Autumn"]),
                    "starts_on": DATE,
                    "ends_on": DATE,
                    "entrants_max": choice(["", "8"], NUMBER),
                },
            )
        ),
    ),
    Case(
        "season actions",
        _who("organizer", "player", "entrant", "outsider", "other_member"),
        lambda w, draw: w.season_url(draw(st.sampled_from(SEASON_ACTIONS)), _season(w, draw)),
        lambda w, draw: draw(st.fixed_dictionaries({}, optional={"action": choice(["open", "close"])})),
    ),
    Case(
        "round dates",
        _who("organizer", "player"),
        _round_url,
        lambda w, draw: draw(st.fixed_dictionaries({}, optional={"play_by": DATETIME, "opens_at": DATETIME})),
    ),
    Case(
        "entrant division",
        _who("organizer", "entrant"),
        _entrant_url,
        lambda w, draw: draw(st.fixed_dictionaries({}, optional={"division": choice(["1", "2"], NUMBER)})),
        _same_division,
    ),
    Case("result", _who("organizer", "player"), _result_url, _result_data),
    Case(
        "invitation resend",
        _who("organizer", "player", "other_organizer"),
        _invitation_url("leagues-invitation-resend"),
    ),
    Case(
        "invitation cancel",
        _who("organizer", "player", "other_organizer"),
        _invitation_url("leagues-invitation-cancel"),
    ),
    Case("round open", _who("organizer", "player"), _round_action_url("leagues-round-open")),
    Case("round settle", _who("organizer", "player"), _round_action_url("leagues-round-settle")),
    Case(
        "season edit",
        _who("organizer", "player"),
        lambda w, draw: w.season_url("leagues-season-edit", _season(w, draw)),
        lambda w, draw: draw(
            st.fixed_dictionaries({}, optional={"name": choice(["Renamed"]), "starts_on": DATE, "ends_on": DATE})
        ),
    ),
    Case(
        "divisions seed",
        _who("organizer", "player", "entrant"),
        lambda w, draw: w.season_url("leagues-divisions-seed", _season(w, draw)),
        lambda w, draw: draw(st.fixed_dictionaries({}, optional={"by": choice(["rating", "standings"])})),
    ),
    Case(
        "availability",
        _who("entrant", "player", "organizer", "outsider", "other_member"),
        lambda w, draw: w.season_url("leagues-availability", _season(w, draw)),
        lambda w, draw: draw(
            st.fixed_dictionaries({}, optional={"rounds": st.lists(choice(["1", "2"], NUMBER), max_size=4)})
        ),
    ),
    Case(
        "substitute volunteer",
        _who("player", "entrant", "outsider", "other_member"),
        lambda w, draw: w.season_url("leagues-substitute-volunteer", _season(w, draw)),
        lambda w, draw: draw(st.fixed_dictionaries({}, optional={"action": choice(["join", "leave"])})),
    ),
    Case(
        "substitutes",
        _who("organizer", "player", "other_organizer"),
        lambda w, draw: w.season_url("leagues-substitutes", _season(w, draw)),
        lambda w, draw: draw(
            st.fixed_dictionaries(
                {"user": st.one_of(st.just(str(_user_id(w, draw))), NUMBER)},
                optional={"action": choice(["add", "remove"])},
            )
        ),
    ),
    Case(
        "season finish",
        _who("organizer", "player"),
        lambda w, draw: w.season_url("leagues-season-finish", _season(w, draw)),
        lambda w, draw: draw(
            st.fixed_dictionaries({}, optional={"promote": choice(["0", "1"], NUMBER), "relegate": NUMBER})
        ),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@FUZZ
@given(data=st.data())
def test_a_fuzzed_league_post_never_crashes_changes_nothing_when_refused_and_says_why(
    league_world: World, case: Case, data: st.DataObject
) -> None:
    who = data.draw(st.sampled_from(case.who), label="who")
    url = case.url(league_world, data.draw)
    posted = case.data(league_world, data.draw)
    note(f"{who} posts to {url}: {posted!r}"[:2000])
    cache.clear()
    with transaction.atomic():  # whatever the post did is undone: every example meets the same world
        before = snapshot()
        response = league_world.client(who).post(url, posted)
        assert response.status_code < 500, response.status_code
        changed = snapshot() != before
        event(f"{response.status_code} {'changed' if changed else 'unchanged'}")
        if changed:
            assert response.status_code == 302, f"changed the rows but answered {response.status_code}"
            assert error_messages(response) == [], "changed the rows and said it was refused"
        elif not case.noop(league_world, who, url, posted):
            assert told(response), f"refused without a word: {response.status_code}"
        transaction.set_rollback(True)


# --- the ones that must get through, so that the fuzzing reaches past the forms --------------------


def test_the_plain_posts_these_probes_bend_are_accepted(league_world: World) -> None:
    """Each case's usual post by the organizer changes something: a fuzzed one that is refused is refused for
    its values, not because the probe never reached the view."""
    organizer = league_world.client("organizer")
    running_fixture = Fixture.objects.filter(round__season=league_world.running).first()
    assert running_fixture is not None
    posts = [
        (reverse("leagues-club-create"), {"name": "Plain Club"}),
        (f"/leagues/c/{league_world.club.slug}/invite/", {"email": "plain@fuzz.test", "role": "player"}),
        (f"/leagues/c/{league_world.club.slug}/members/{league_world.users['target'].pk}/role/", {"role": "organizer"}),
        (
            reverse("leagues-league-create", args=[league_world.club.slug]) + "?game=renfield",
            {"name": "Plain", "game": "renfield", "table_size": "4", "time_control": "2d"}
            | {"timeout_bot_level": "basic", "scoring": "places", "tiebreak_1": "points"},
        ),
        (reverse("leagues-season-create", args=[league_world.club.slug, league_world.league.slug]), PLAIN_SEASON),
        (league_world.season_url("leagues-season-registration", league_world.open), {"action": "close"}),
        (
            league_world.season_url("leagues-round-dates", league_world.running, running_fixture.round_id),
            {"play_by": "2030-06-01T10:00"},
        ),
        (
            league_world.season_url(
                "leagues-entrant-division",
                league_world.open,
                league_world.open.entrants.first().pk,  # type: ignore[union-attr]
            ),
            {"division": "1"},
        ),
        (
            league_world.season_url("leagues-result", league_world.running, running_fixture.pk),
            {"action": "forfeit", "forfeit-entrants": [running_fixture.seats[0]], "forfeit-reason": "No show."},
        ),
        (
            league_world.season_url("leagues-substitutes", league_world.running),
            {"action": "add", "user": str(league_world.users["target"].pk)},
        ),
    ]
    for url, posted in posts:
        with transaction.atomic():
            before = snapshot()
            response = organizer.post(url, posted)
            assert response.status_code == 302 and snapshot() != before, (url, response.status_code)
            transaction.set_rollback(True)
    for who, url, posted in (
        ("entrant", league_world.season_url("leagues-availability", league_world.open), {"rounds": ["2"]}),
        ("player", league_world.season_url("leagues-substitute-volunteer", league_world.running), {"action": "join"}),
    ):
        with transaction.atomic():
            before = snapshot()
            response = league_world.client(who).post(url, posted)
            assert response.status_code == 302 and snapshot() != before, (url, response.status_code)
            transaction.set_rollback(True)
    outsider = league_world.client("outsider")
    with transaction.atomic():
        assert outsider.post(f"/leagues/invite/{league_world.tokens['live']}/").status_code == 302
        assert Membership.objects.filter(club=league_world.club, user=league_world.users["outsider"]).exists()
        transaction.set_rollback(True)


# --- query strings --------------------------------------------------------------------------------


@FUZZ
@given(token=st.one_of(TEXT.filter(bool), st.sampled_from(["live", "other", "used", "expired"])))
@example(token="\x00")
def test_an_invitation_page_takes_any_token(league_world: World, token: str) -> None:
    """The page says whether the invitation can be used; a made-up or slashed address is not found."""
    real = league_world.tokens.get(token)
    response = league_world.client("outsider").get("/leagues/invite/" + quote(real or token, safe="") + "/")
    if "/" in token:
        assert response.status_code == 404
    else:
        assert response.status_code == 200, response.status_code
        usable = "invites you to play" in response.content.decode()
        assert usable == (token in ("live", "other"))  # the other club's invitation is live too


SIGNED_ODD = st.one_of(
    st.dictionaries(st.sampled_from(["o", "u"]), st.one_of(st.integers(), TEXT, st.none()), max_size=2),
    st.lists(st.integers(), max_size=3),
    st.fixed_dictionaries({"o": st.integers(min_value=1, max_value=2**70), "u": st.integers(min_value=1)}),
)


@FUZZ
@given(
    token=st.one_of(TEXT.filter(bool), SIGNED_ODD.map(lambda data: signing.dumps(data, salt=OFFER_SALT))),
    who=st.sampled_from(["organizer", "player", "outsider", "target"]),
)
@example(token="\x00", who="player")
def test_a_seat_offer_link_takes_any_token_and_changes_nothing(league_world: World, token: str, who: str) -> None:
    """Made-up, altered or oddly signed offer links: never a 500, nothing changes, and the page says why."""
    url = "/leagues/offers/" + quote(token, safe="") + "/"
    with transaction.atomic():
        before = snapshot()
        got = league_world.client(who).get(url)
        posted = league_world.client(who).post(url)
        assert got.status_code < 500 and posted.status_code < 500
        assert snapshot() == before
        if "/" not in token:
            said = got.content.decode()
            assert got.status_code == 200 and ("not valid" in said or "no longer offered" in said), said[-500:]
        transaction.set_rollback(True)


@FUZZ
@given(sort=TEXT, show=TEXT, game=TEXT, who=st.sampled_from(["organizer", "player", "outsider"]))
def test_the_league_pages_take_any_query_string(league_world: World, sort: str, show: str, game: str, who: str) -> None:
    client = league_world.client(who)
    standings = league_world.season_url("leagues-standings", league_world.running)
    query = f"?sort={quote(sort, safe='')}&all={quote(show, safe='')}"
    assert client.get(standings + query).status_code == 200
    assert client.get(standings + query, headers={"HX-Request": "true"}).status_code == 200
    for name in ("leagues-league-create", "leagues-league-edit"):
        args = (
            [league_world.club.slug]
            if name == "leagues-league-create"
            else [league_world.club.slug, league_world.league.slug]
        )
        response = client.get(reverse(name, args=args) + f"?game={quote(game, safe='')}")
        assert response.status_code == (200 if who == "organizer" else 403)
