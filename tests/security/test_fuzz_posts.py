"""Fuzzed posts and query strings: never a 500, and a refused post changes nothing and says why.

The moves are mutations of the legal ones (unknown cards, another seat's card, bools and floats as
amounts, huge numbers), JSON of the wrong shape or nesting, and random text with unicode digits; the
versions, ids, tokens and query parameters are as odd. A post is refused when the match's version did
not move; then the state must be unchanged and the reader told: ``role="alert"`` in the htmx fragment,
a message in the session after a plain form's redirect.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from accounts.models import User
from engine import get_game
from games.clocks import PRESETS
from games.models import ChatMessage, Match, Seat
from games.services import SeatSpec, match_create
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves, quick_options
from tests.security.values import HUGE_NUMBERS, JSON_ESCAPES, NON_FINITE

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
FUZZ = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
QUICK = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# --- values ---------------------------------------------------------------------------------------

UNICODE_DIGITS = "0123456789²³¹٣۴߅१๓໕༣၃႓៣᠓᥆᧓᪓᭓᮳᱃᱓꘣꣓꤃꧓꩓꯳０１９𝟎𝟗-+.eE_ "
NUMBERS = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=UNICODE_DIGITS, max_size=30),
)
ODD_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1.0, 2.0, 0.5, -1, 0, 10**18, 10**40]),
    st.text(max_size=40),
    st.sampled_from(["ZZ", "1S", "AH ", "ah", "10H", "R-red-99", "B0", "", "²", "١"]),
    st.sampled_from(["\ud800", "\udfff", "a\x00b", "\x00", float("inf"), float("nan")]),
)
ODD_JSON = st.recursive(
    ODD_SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12,
)
# What json.loads refuses or chokes on: deep nesting (RecursionError at about a thousand levels), huge text.
NESTED = st.integers(min_value=1, max_value=5_000).map(lambda n: "[" * n + "]" * n)
NESTED_OBJECTS = st.integers(min_value=1, max_value=2_000).map(lambda n: '{"a":' * n + "1" + "}" * n)
HUGE = st.sampled_from(["x" * 5000, "9" * 5000, "²" * 4001, "{" * 4000, '{"type": "' + "a" * 4000 + '"}'])
RANDOM_TEXT = st.one_of(st.text(max_size=200), st.text(alphabet=UNICODE_DIGITS, max_size=20), HUGE)


def fuzz_client(user: User) -> Client:
    """A logged-in client that answers a crash with the 500 page, so the test sees the status."""
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _told(response: HttpResponse, htmx: bool) -> bool:
    """The reader was told why: an alert in the fragment, or a message waiting after the redirect."""
    if htmx:
        return response.status_code == 200 and 'role="alert"' in response.content.decode()
    return response.status_code == 302 and bool(list(get_messages(response.wsgi_request)))


def _canonical(action: Any) -> str:
    # json.dumps keeps True apart from 1 and 1.0 apart from 1, as the engine must.
    return json.dumps(action, sort_keys=True)


# --- moves ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveRecipe:
    """How to bend a move, drawn without looking at the match (hypothesis replays draws on any state)."""

    kind: str
    pick: int
    key: int
    odd: Any
    text: str

    def action(self, match: Match, seat: int) -> str:
        game, state = match.engine, match.state
        legal = game.legal_actions(state, seat)
        others = [c for n in range(match.players) if n != seat for c in (game.view(state, n).get("hand") or [])]
        if self.kind == "json":
            return json.dumps(self.odd)
        if self.kind == "text" or not legal:
            return self.text
        action = dict(legal[self.pick % len(legal)])
        if self.kind == "legal":
            return json.dumps(action)
        if self.kind == "other card" and others:
            action["card"] = others[self.pick % len(others)]
        else:
            keys = [*sorted(action), "extra"]
            action[keys[self.key % len(keys)]] = self.odd
        return json.dumps(action)


MOVE_RECIPES = st.builds(
    MoveRecipe,
    kind=st.sampled_from(["mutated", "mutated", "other card", "legal", "json", "text"]),
    pick=st.integers(min_value=0, max_value=1000),
    key=st.integers(min_value=0, max_value=10),
    odd=ODD_JSON,
    text=st.one_of(RANDOM_TEXT, NESTED, NESTED_OBJECTS),
)
VERSIONS = st.one_of(st.just("current"), st.just("current"), NUMBERS.map(str), RANDOM_TEXT)


@pytest.fixture
def table(game: str) -> tuple[Match, dict[int, Client]]:
    """A match of humans only, so that whoever is to act can post; made once for all the examples of a run."""
    module = get_game(game)
    players = max(module.MIN_PLAYERS, min(module.MAX_PLAYERS, 3))
    match = make_match(game, players=players, options=quick_options(game))
    play_engine_moves(match, 2)  # past the first step, so that a card or two is on the table
    return match, {s.number: fuzz_client(s.user) for s in match.seats.select_related("user")}


@pytest.mark.parametrize("game", game_names())
@FUZZ
@given(recipe=MOVE_RECIPES, version=VERSIONS, htmx=st.booleans())
@example(recipe=MoveRecipe("text", 0, 0, None, "[" * 1999 + "]" * 1999), version="current", htmx=False)
@example(recipe=MoveRecipe("mutated", 1, 0, True, ""), version="current", htmx=True)  # bool as an amount
@example(recipe=MoveRecipe("mutated", 1, 0, 1.0, ""), version="current", htmx=False)  # float as an amount
def test_a_fuzzed_move_never_crashes_and_a_refused_one_changes_nothing(
    game: str, table: tuple[Match, dict[int, Client]], recipe: MoveRecipe, version: str, htmx: bool
) -> None:
    match, clients = table
    cache.clear()
    # Every example starts from the same table: an accepted move is rolled back with the savepoint.
    with transaction.atomic():
        match.refresh_from_db()
        seat = match.engine.to_act(match.state)[0]
        before_version, before_state = match.version, match.state
        action = recipe.action(match, seat)
        version = str(before_version) if version == "current" else version
        response = clients[seat].post(
            reverse("games-play", args=[match.pk]), {"action": action, "version": version}, **(HTMX if htmx else {})
        )
        assert response.status_code < 500
        match.refresh_from_db()
        event("accepted" if match.version != before_version else "refused")
        if match.version != before_version:
            legal = {_canonical(a) for a in match.engine.legal_actions(before_state, seat)}
            assert _canonical(json.loads(action)) in legal, f"accepted a move that was not legal: {action}"
        else:
            assert match.state == before_state
            assert _told(response, htmx), f"refused without a word: {response.status_code}"
        transaction.set_rollback(True)


def test_a_post_to_another_table_is_refused_without_saying_more() -> None:
    """Other people's match ids: 404 for a private match or none at all, 403 for a public one; no change."""
    mine = make_match("karnoffel")
    theirs_private = make_match("karnoffel", private=True)
    theirs_public = make_match("karnoffel")
    client = fuzz_client(mine.seats.get(number=0).user)
    expected = {theirs_private.pk: 404, theirs_public.pk: 403, 10**6: 404, 2**31: 404, 2**63 - 1: 404}
    for match_id, status in expected.items():
        for path in (f"/m/{match_id}/play/", f"/m/{match_id}/chat/"):
            response = client.post(path, {"action": '{"type": "play", "card": "AS"}', "version": 0, "text": "hi"})
            assert response.status_code == status, (path, response.status_code)
    for match in (theirs_private, theirs_public):
        before = (match.version, match.state, match.recent_chat)
        match.refresh_from_db()
        assert (match.version, match.state, match.recent_chat) == before


@pytest.mark.parametrize("match_id", [2**63, 10**30])
@pytest.mark.parametrize("page", ["", "poll/", "log/", "replay/", "export.json", "chat/"])
def test_a_match_id_too_large_for_the_database_is_not_found(match_id: int, page: str) -> None:
    client = fuzz_client(UserFactory())
    path = f"/m/{match_id}/{page}"
    response = client.post(path, {"text": "hi"}) if page == "chat/" else client.get(path)
    assert response.status_code == 404


# --- chat -----------------------------------------------------------------------------------------


@pytest.fixture
def chat_table() -> tuple[Match, Client]:
    match = make_match("karnoffel")
    return match, fuzz_client(match.seats.get(number=0).user)


@FUZZ
@given(
    text=st.one_of(RANDOM_TEXT, st.sampled_from(["", "   ", "\x00", "a\x00b", "\u202e", "\n\t", "x" * 1001])),
    htmx=st.booleans(),
)
def test_a_fuzzed_chat_line_never_crashes_and_never_moves_the_match(
    chat_table: tuple[Match, Client], text: str, htmx: bool
) -> None:
    match, client = chat_table
    cache.clear()
    match.refresh_from_db()
    before, count = (match.version, match.state), ChatMessage.objects.count()
    response = client.post(reverse("games-chat", args=[match.pk]), {"text": text}, **(HTMX if htmx else {}))
    assert response.status_code < 500
    match.refresh_from_db()
    assert (match.version, match.state) == before
    if ChatMessage.objects.count() == count:
        assert _told(response, htmx), f"refused without a word: {text!r}"
    else:
        assert 1 <= len(text.strip()) <= 1000 and "\x00" not in text


# --- creating a match -----------------------------------------------------------------------------


CLOCK_HOURS = st.sampled_from([*NON_FINITE, *HUGE_NUMBERS, "-1", "-0.0", "0", "1e10"])


@st.composite
def create_posts(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A lobby form: a real game's fields (or a made-up game) filled with anything."""
    game = draw(st.one_of(st.sampled_from(game_names()), RANDOM_TEXT))
    module = get_game(game) if game in game_names() else get_game(game_names()[0])
    value = st.one_of(
        NUMBERS.map(str),
        RANDOM_TEXT,
        ODD_JSON.map(json.dumps),
        NESTED,
        NESTED_OBJECTS,
        st.sampled_from(["on", "", *JSON_ESCAPES, *NON_FINITE]),
    )
    data: dict[str, Any] = {"players": draw(st.one_of(st.integers(0, 9).map(str), NUMBERS.map(str)))}
    for entry in module.OPTIONS:
        if draw(st.booleans()):
            data[f"opt_{entry['name']}"] = draw(value)
    for number in range(1, module.MAX_PLAYERS):
        data[f"seat_{number}_kind"] = draw(st.one_of(st.sampled_from(["bot", "email"]), RANDOM_TEXT))
        data[f"seat_{number}_level"] = draw(st.one_of(st.sampled_from(["random", "basic", "strong"]), RANDOM_TEXT))
        data[f"seat_{number}_email"] = draw(st.one_of(st.emails(), RANDOM_TEXT))
    if draw(st.booleans()):
        data["private"] = draw(st.sampled_from(["on", "true", "0", "²"]))
    if draw(st.booleans()):
        data["time_control"] = draw(st.one_of(st.sampled_from([*PRESETS, "custom", "custom"]), RANDOM_TEXT))
        hours = st.one_of(st.sampled_from(["1", "24", "0.5", "720", "1440", "0.99"]), CLOCK_HOURS, NUMBERS.map(str))
        for part in ("initial", "increment", "cap"):
            data[f"tc_{part}"] = draw(hours)
    return game, data


@pytest.fixture
def creator() -> Client:
    return fuzz_client(UserFactory())


@FUZZ
@given(post=create_posts())
@example(post=("rapscallion", {"players": "3", "opt_bidding_values": "[" * 50_000 + "]" * 50_000}))  # was a 500
@example(post=("renfield", {"players": "٣", "opt_deck_values": '{"a":' * 3000 + "1" + "}" * 3000}))
# Hours past what a timedelta holds: timedelta(hours=1e30) was an OverflowError, a 500.
@example(
    post=(
        "karnoffel",
        {"players": "4", "time_control": "custom", "tc_initial": "1e30", "tc_increment": "1", "tc_cap": "2"},
    )
)
@example(
    post=(
        "karnoffel",
        {"players": "4", "time_control": "custom", "tc_initial": "24", "tc_increment": "1", "tc_cap": str(10**30)},
    )
)
def test_a_fuzzed_lobby_form_never_crashes_and_a_refused_one_creates_nothing(
    creator: Client, post: tuple[str, dict[str, Any]]
) -> None:
    game, data = post
    cache.clear()
    count = Match.objects.count()
    response = creator.post(reverse("games-create") + "?" + _query(game=game), data)
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


def _lobby_form(game: str) -> dict[str, Any]:
    module = get_game(game)
    data: dict[str, Any] = {"players": module.MIN_PLAYERS}
    for number in range(1, module.MAX_PLAYERS):
        data |= {f"seat_{number}_kind": "bot", f"seat_{number}_level": "basic", f"seat_{number}_email": ""}
    return data


def test_the_plain_lobby_form_used_in_these_probes_creates_a_match(creator: Client) -> None:
    response = creator.post(reverse("games-create") + "?game=karnoffel", _lobby_form("karnoffel"))
    assert response.status_code == 302 and Match.objects.count() == 1


@pytest.mark.parametrize(("field", "value"), [("seat_1_level", "grandmaster"), ("seat_2_kind", "robot")])
def test_a_lobby_form_refused_for_a_seat_says_why(creator: Client, field: str, value: str) -> None:
    """A crafted seat kind or level was refused without a word: the page did not render those fields' errors."""
    data = _lobby_form("karnoffel") | {field: value}
    response = creator.post(reverse("games-create") + "?game=karnoffel", data)
    assert response.status_code == 200 and not Match.objects.exists()
    errors = [str(m) for m in response.context["form"].errors[field]]
    assert errors and all(escape(m) in response.content.decode() for m in errors)


@pytest.mark.parametrize("game", [g for g in game_names() if any(e["type"] == "json" for e in get_game(g).OPTIONS)])
@pytest.mark.parametrize("nested", ["[" * 100_000 + "]" * 100_000, '{"a":' * 3000 + "1" + "}" * 3000])
def test_the_known_crasher_deeply_nested_options_gets_a_form_error(creator: Client, game: str, nested: str) -> None:
    module = get_game(game)
    data: dict[str, Any] = {"players": module.MIN_PLAYERS}
    data |= {f"seat_{n}_kind": "bot" for n in range(1, module.MAX_PLAYERS)}
    data |= {f"opt_{e['name']}": nested for e in module.OPTIONS if e["type"] == "json"}
    response = creator.post(reverse("games-create") + f"?game={game}", data)
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not Match.objects.exists()


def _query(**params: str) -> str:
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in params.items())


# --- invitations ----------------------------------------------------------------------------------


@pytest.fixture
def invitation() -> tuple[Seat, Client]:
    """A waiting match's open seat for someone with an account, and a stranger who tries the links."""
    invitee = UserFactory()
    host = UserFactory()
    match = match_create(
        game="karnoffel",
        players=4,
        options=None,
        created_by=host,
        seats=[SeatSpec(user=host), SeatSpec(email=invitee.email), SeatSpec(bot="random"), SeatSpec(bot="random")],
    )
    return match.seats.get(number=1), fuzz_client(UserFactory())


@FUZZ
@given(token=st.one_of(RANDOM_TEXT.filter(bool), st.just("their token")), post=st.booleans())
def test_a_fuzzed_invitation_link_never_crashes_and_only_the_link_seats_anyone(
    invitation: tuple[Seat, Client], token: str, post: bool
) -> None:
    seat, stranger = invitation
    # From the database, which the last example's savepoint restored: the object kept what that example read
    # (an accepted seat's token is cleared), and "/invite//" is no invitation.
    seat.refresh_from_db()
    live = token == "their token"
    token = seat.invite_token if live else token
    url = "/invite/" + quote(token, safe="") + "/"
    with transaction.atomic():  # taking the seat is rolled back: every example meets the open invitation
        response = stranger.post(url) if post else stranger.get(url)
        assert response.status_code < 500
        seat.refresh_from_db()
        # The link is the invitation, bound to no account: whoever holds it may take the seat.
        assert seat.joined == (live and post)
        if live:
            assert response.status_code == (302 if post else 200)
        elif response.status_code != 404:  # a token with a slash is no invitation URL at all
            assert _told(response, htmx=False)
        transaction.set_rollback(True)


# --- query strings --------------------------------------------------------------------------------

ODD_PARAMS = st.one_of(RANDOM_TEXT, NUMBERS.map(str), st.sampled_from(["--1", "-", "1.5", "1e3", "\x00", "-7"]))


@pytest.fixture
def finished() -> tuple[Match, Match, Client]:
    """A match that is over (abandoned after a few moves: as good as finished for the replay and the poll, and
    far cheaper to make), an active one with the same player in seat 1, and that player's client."""
    match = make_match("rentz")
    play_engine_moves(match, 6)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABANDONED)
    match.refresh_from_db()
    assert match.is_over and match.moves.count() >= 6, "precondition: a match over, with moves to replay"
    player = match.seats.get(number=0).user
    active = make_match("karnoffel", users=[player], bots=3)
    return match, active, fuzz_client(player)


@FUZZ
@given(after=ODD_PARAMS)
@example(after="²")  # /next/?after=%C2%B2 was a 500: str.isdigit takes '²', int() does not
@example(after="--1")
def test_next_takes_any_after(finished: tuple[Match, Match, Client], after: str) -> None:
    _over, _active, client = finished
    response = client.get("/next/?" + _query(after=after))
    assert response.status_code == 302, response.status_code


@FUZZ
@given(ply=ODD_PARAMS)
@example(ply="--1")  # /m/N/replay/?ply=--1 was a 500
@example(ply="²")  # so was ?ply=%C2%B2
def test_the_replay_takes_any_ply(finished: tuple[Match, Match, Client], ply: str) -> None:
    match, _active, client = finished
    response = client.get(reverse("games-replay", args=[match.pk]) + "?" + _query(ply=ply))
    assert response.status_code == 200, response.status_code


@FUZZ
@given(v=ODD_PARAMS, c=ODD_PARAMS, over=st.booleans())
@example(v="²", c="²", over=False)
def test_the_poll_takes_any_version_and_chat_mark(
    finished: tuple[Match, Match, Client], v: str, c: str, over: bool
) -> None:
    over_match, active, client = finished
    match = over_match if over else active
    response = client.get(reverse("games-poll", args=[match.pk]) + "?" + _query(v=v, c=c), **HTMX)
    unchanged = v == str(match.version) and c == str(match.chat_mark)
    expected = 286 if over else 204 if unchanged else 200  # 204: "nothing new since the version you hold"
    assert response.status_code == expected, response.status_code


@QUICK
@given(game=st.one_of(st.sampled_from(game_names()), ODD_PARAMS), htmx=st.booleans())
@example(game="\x00", htmx=True)
def test_the_lobby_takes_any_game_in_the_query(creator: Client, game: str, htmx: bool) -> None:
    """The lobby names its game in the address (htmx swaps a game's options in): anything else is the first game."""
    response = creator.get(reverse("games-create") + "?" + _query(game=game), **(HTMX if htmx else {}))
    assert response.status_code == 200, response.status_code
    shown = game if game in game_names() else game_names()[0]
    assert shown == response.context["game"].NAME


@QUICK
@given(values=ODD_PARAMS, other=ODD_PARAMS, htmx=st.booleans(), over=st.booleans())
def test_the_table_takes_any_query_string(
    finished: tuple[Match, Match, Client], values: str, other: str, htmx: bool, over: bool
) -> None:
    """``?values=1`` asks for the game's reference table; any other query is the table as usual."""
    over_match, active, client = finished
    match = over_match if over else active
    url = reverse("games-match", args=[match.pk]) + "?" + _query(values=values, v=other, ply=other)
    assert client.get(url, **(HTMX if htmx else {})).status_code == 200


SENTENCE = re.compile(r"[A-Z][^<>.!?]{3,}[.!?]")


@QUICK
@given(name=st.one_of(st.sampled_from(game_names()), ODD_PARAMS.filter(bool), st.sampled_from(["..", ".", "%00"])))
@example(name="\x00")
@example(name="../../config/settings")
def test_the_rules_take_any_game_name(name: str) -> None:
    response = Client(raise_request_exception=False).get("/rules/" + quote(name, safe="") + "/")
    if name in game_names():
        assert response.status_code == 200
    else:  # not a game (or, with a slash, not a rules address at all): not found, in a sentence
        assert response.status_code == 404, response.status_code
        assert SENTENCE.search(re.sub(r"<[^>]+>", " ", response.content.decode()))


# --- taking a seat back ---------------------------------------------------------------------------


@pytest.fixture
def reclaim_tables() -> tuple[Match, Match, Client, Client]:
    """A match of four people, seat 1's player (whose seat a bot may be playing) and someone with no seat;
    and a private match of others."""
    match = make_match("karnoffel", players=4)
    theirs = make_match("karnoffel", private=True)
    return match, theirs, fuzz_client(match.seats.get(number=0).user), fuzz_client(UserFactory())


def _seat_rows() -> list[tuple[Any, ...]]:
    fields = ("match_id", "number", "absent", "timeouts_in_row", "bank", "deadline", "user_id", "bot_level")
    return list(Seat.objects.order_by("pk").values_list(*fields))


@QUICK
@given(
    who=st.sampled_from(["seated", "seated", "stranger"]),
    target=st.sampled_from(["mine", "mine", "theirs", "none"]),
    absent=st.booleans(),
    data=st.dictionaries(st.text(max_size=10), RANDOM_TEXT, max_size=3),
    htmx=st.booleans(),
)
def test_a_fuzzed_reclaim_never_crashes_and_changes_only_an_absent_seat(
    reclaim_tables: tuple[Match, Match, Client, Client],
    who: str,
    target: str,
    absent: bool,
    data: dict[str, str],
    htmx: bool,
) -> None:
    match, theirs, seated, stranger = reclaim_tables
    match_id = {"mine": match.pk, "theirs": theirs.pk, "none": 10**17}[target]
    cache.clear()
    with transaction.atomic():  # every example meets the same tables: the seat taken back is rolled back
        Seat.objects.filter(match=match, number=0).update(absent=absent, timeouts_in_row=3 if absent else 0)
        before = _seat_rows()
        client = seated if who == "seated" else stranger
        response = client.post(reverse("games-reclaim", args=[match_id]), data, **(HTMX if htmx else {}))
        assert response.status_code < 500, response.status_code
        after = _seat_rows()
        if who == "seated" and target == "mine":
            assert response.status_code == (200 if htmx else 302)
            changed = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
            assert [(a[0], a[1], a[2], a[3]) for _b, a in changed] == ([(match.pk, 0, False, 0)] if absent else [])
        else:  # not their seat: watching a public table is no seat at it, and a private one is not found
            assert response.status_code == (403 if target == "mine" else 404), response.status_code
            assert after == before
        transaction.set_rollback(True)
