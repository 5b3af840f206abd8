"""Fuzzed links from the mail and the other views reached without the table: never a 500, never a change
on a link that is not exactly a valid one, and always a sentence.

The move links (``games-mail-move``): made-up text, real tokens with a character changed, tokens signed
for another purpose, and tokens signed with our own key around odd payloads (other matches, seats and
players, stale versions, bools and floats as ids, actions that are not JSON, not legal or nested a
thousand deep): a signature is not a reason to crash. The private calendar address, the browser
push subscription (JSON of any shape, and other players' endpoints to unsubscribe) and the test notice.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.messages import get_messages
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, example, given, note, settings
from hypothesis import strategies as st

from accounts.models import User
from games.maillinks import SALT, canonical, link_token
from games.models import Mail, Match, Move, PushSubscription
from tests.games.factories import UserFactory, make_match
from tests.security.values import JSON_ESCAPES

pytestmark = pytest.mark.django_db
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

ODD_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from([0, 1, 2, -1, 1.0, "1", "²", 2**63, 10**18]),
)
ODD_JSON = st.recursive(
    ODD_SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=10,
)
NOT_JSON = st.sampled_from(
    ["", "{", "nul", "[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000, "\x00", *JSON_ESCAPES]
)
SENTENCE = re.compile(r"[A-Z][^<>.!?]{3,}[.!?]")


def _text(response: HttpResponse) -> str:
    return re.sub(r"<[^>]+>", " ", response.content.decode())


# --- the move links -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinkRecipe:
    """How to make a token, drawn without looking at the match (hypothesis replays draws on any state)."""

    kind: str
    pick: int
    field: str
    odd: Any
    text: str

    def token(self, match: Match, stranger: User) -> str:
        seats = {s.number: s.user_id for s in match.seats.all()}
        seat = match.engine.to_act(match.state)[0]
        legal = match.engine.legal_actions(match.state, seat)
        action = legal[self.pick % len(legal)]
        payload: dict[str, Any] = {"m": match.pk, "s": seat, "u": seats[seat], "v": match.version}
        payload["a"] = canonical(action)
        if self.kind == "text":
            return self.text
        if self.kind == "valid":
            return link_token(match_id=match.pk, seat=seat, user_id=seats[seat], version=match.version, action=action)
        if self.kind == "tampered":
            token = link_token(match_id=match.pk, seat=seat, user_id=seats[seat], version=match.version, action=action)
            at = self.pick % len(token)
            # Another character than the one there: the same one would leave the token valid.
            swap = next(c for c in (self.text[:1], "A", "B") if c and c != token[at])
            return token[:at] + swap + token[at + 1 :]
        if self.kind == "other salt":
            return signing.dumps(payload, salt="games.something-else")
        people = {"another seat's player": seats[(seat + 1) % match.players], "a stranger": stranger.pk}
        replacements: dict[str, Any] = {
            "m": [match.pk + 1, 10**18, 0],
            "s": [(seat + 1) % match.players, match.players, -1],
            "u": [*people.values(), 0],
            "v": [match.version - 1, match.version + 1, 10**9],
            "a": [json.dumps(self.odd), canonical({"type": "play", "card": "ZZ"}), self.text],
        }
        if self.kind == "signed odd":
            payload[self.field] = self.odd
        elif self.kind == "signed other":
            choices = replacements[self.field]
            payload[self.field] = choices[self.pick % len(choices)]
        elif self.kind == "signed not json":
            payload["a"] = self.text
        else:  # "signed shape": not even a dict with our keys
            return signing.dumps(self.odd, salt=SALT)
        return signing.dumps(payload, salt=SALT)


LINK_RECIPES = st.builds(
    LinkRecipe,
    kind=st.sampled_from(
        ["valid", "tampered", "text", "other salt", "signed odd", "signed other", "signed not json", "signed shape"]
    ),
    pick=st.integers(min_value=0, max_value=10_000),
    field=st.sampled_from(["m", "s", "u", "v", "a"]),
    odd=ODD_JSON,
    text=st.one_of(st.text(max_size=80), NOT_JSON),
)


@pytest.fixture
def linked() -> tuple[Match, User]:
    """A match of three people with a turn to take (the link's), and someone with no seat."""
    match = make_match("renfield", players=3)
    match.refresh_from_db()
    return match, UserFactory()


def _match_rows(match: Match) -> tuple[Any, ...]:
    match.refresh_from_db()
    return match.version, match.state, match.status, list(Move.objects.filter(match=match).values_list("pk"))


@FUZZ
@given(recipe=LINK_RECIPES, post=st.booleans())
@example(recipe=LinkRecipe("signed not json", 0, "a", None, "nul"), post=False)
@example(recipe=LinkRecipe("signed not json", 0, "a", None, "[" * 5000 + "]" * 5000), post=True)
@example(recipe=LinkRecipe("signed odd", 0, "a", {"type": "play"}, ""), post=False)
@example(recipe=LinkRecipe("signed odd", 0, "s", True, ""), post=True)
@example(recipe=LinkRecipe("valid", 0, "a", None, ""), post=True)
@example(recipe=LinkRecipe("signed odd", 0, "m", 2**63, ""), post=False)  # past a 64-bit id: SQLite overflowed
def test_a_fuzzed_move_link_never_crashes_and_only_a_valid_one_moves(
    linked: tuple[Match, User], recipe: LinkRecipe, post: bool
) -> None:
    match, stranger = linked
    with transaction.atomic():  # a move made is rolled back: every example meets the same turn
        token = recipe.token(match, stranger)
        note(f"token {token[:300]!r}")
        if "/" in token or not token:
            url = "/mail/move/" + quote(token, safe="") + "/"
        else:
            url = reverse("games-mail-move", args=[token])
        before = _match_rows(match)
        client = Client(raise_request_exception=False)
        response = client.post(url) if post else client.get(url)
        assert response.status_code < 500, response.status_code
        assert "sessionid" not in response.cookies, "a mail link logged someone in"
        moved = _match_rows(match) != before
        event(f"{'POST' if post else 'GET'} {response.status_code} {'moved' if moved else 'unchanged'}")
        if moved:
            assert post and recipe.kind == "valid" and response.status_code == 302
            player_moves = Move.objects.filter(match=match, kind=Move.Kind.PLAYER, ply=before[0])
            assert canonical(player_moves.get().action) == signing.loads(token, salt=SALT)["a"]
        elif response.status_code != 200 or post:
            # Refused: the link's page says why (a 404 from the URL patterns says it in Django's words).
            assert response.status_code in (404, 409), response.status_code
            assert SENTENCE.search(_text(response)), "refused without a sentence"
        transaction.set_rollback(True)


def test_the_valid_link_these_probes_bend_makes_its_move(linked: tuple[Match, User]) -> None:
    match, stranger = linked
    before = match.version
    token = LinkRecipe("valid", 0, "a", None, "").token(match, stranger)
    assert Client().post(reverse("games-mail-move", args=[token])).status_code == 302
    match.refresh_from_db()
    assert match.version > before


# --- the calendar address -------------------------------------------------------------------------


@pytest.fixture
def calendar_owner() -> tuple[User, User]:
    return UserFactory(), UserFactory()


@FUZZ
@given(
    kind=st.sampled_from(["mine", "their id, my secret", "my id, their secret", "cut", "text", "digits"]),
    text=st.one_of(st.text(max_size=80), NOT_JSON, st.text(alphabet="0123456789²٣-", max_size=30)),
)
def test_a_fuzzed_calendar_address_never_crashes_and_opens_only_its_own_calendar(
    calendar_owner: tuple[User, User], kind: str, text: str
) -> None:
    me, them = calendar_owner
    tokens = {
        "mine": f"{me.pk}-{me.calendar_token}",
        "their id, my secret": f"{them.pk}-{me.calendar_token}",
        "my id, their secret": f"{me.pk}-{them.calendar_token}",
        "cut": f"{me.pk}-{me.calendar_token[: len(text) % len(me.calendar_token)]}",
        "text": text,
        "digits": f"{text}-{me.calendar_token}",
    }
    token = tokens[kind]
    response = Client(raise_request_exception=False).get("/me/calendar/" + quote(token, safe="") + ".ics")
    assert response.status_code < 500, response.status_code
    user_id, _, secret = token.partition("-")
    if token == tokens["mine"]:
        assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    elif user_id.isascii() and user_id.isdigit() and int(user_id) == me.pk and secret == me.calendar_token:
        assert response.status_code in (200, 404)  # "01-<my secret>": my id with a leading zero, and my secret
    else:
        assert response.status_code == 404 and SENTENCE.search(_text(response))


# --- browser push ---------------------------------------------------------------------------------

KEY = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"


@pytest.fixture
def push_on(settings: Any) -> tuple[Client, User, PushSubscription]:
    settings.WEBPUSH_VAPID_PRIVATE_KEY, settings.WEBPUSH_VAPID_PUBLIC_KEY = "a" * 43, KEY
    settings.WEBPUSH_ENABLED = True
    me, them = UserFactory(), UserFactory()
    theirs = PushSubscription.objects.create(
        user=them, endpoint="https://fcm.googleapis.com/fcm/send/theirs", p256dh=KEY, auth=AUTH
    )
    client = Client(raise_request_exception=False)
    client.force_login(me)
    return client, me, theirs


ENDPOINTS = st.one_of(
    st.sampled_from(
        [
            "https://fcm.googleapis.com/fcm/send/mine",
            "https://updates.push.services.mozilla.com/wpush/v2/mine",
            "http://fcm.googleapis.com/fcm/send/mine",
            "https://evil.example/fcm.googleapis.com",
            "https://fcm.googleapis.com.evil.example/x",
            "https://" + "a" * 2000 + ".fcm.googleapis.com/",
            "javascript:alert(1)",
            "",
        ]
    ),
    st.text(max_size=60),
    ODD_SCALARS,
)
SUBSCRIPTIONS = st.one_of(
    st.fixed_dictionaries(
        {"endpoint": ENDPOINTS},
        optional={
            "keys": st.one_of(
                st.fixed_dictionaries(
                    {"p256dh": st.one_of(st.just(KEY), ODD_SCALARS), "auth": st.one_of(st.just(AUTH), ODD_SCALARS)}
                ),
                ODD_JSON,
            ),
            "unsubscribe": st.one_of(st.just(True), ODD_SCALARS),
        },
    ),
    ODD_JSON,
)


@FUZZ
@given(
    body=st.one_of(
        SUBSCRIPTIONS.map(json.dumps),
        st.sampled_from(["", "{", "\x00", "[" * 5000 + "]" * 5000, '{"unsubscribe": true}', "null"]),
        st.just("theirs"),
    )
)
@example(
    body=json.dumps({"endpoint": "https://fcm.googleapis.com/fcm/send/mine", "keys": {"p256dh": KEY, "auth": AUTH}})
)
@example(body="theirs")
def test_a_fuzzed_push_subscription_never_crashes_and_never_touches_another_players(
    push_on: tuple[Client, User, PushSubscription], body: str
) -> None:
    client, me, theirs = push_on
    if body == "theirs":  # unsubscribing someone else's browser
        body = json.dumps({"unsubscribe": True, "endpoint": theirs.endpoint})
    with transaction.atomic():
        mine_before = list(PushSubscription.objects.filter(user=me).values_list("endpoint", "p256dh", "auth"))
        response = client.post(reverse("games-push-subscription"), body, content_type="application/json")
        assert response.status_code in (200, 400), response.status_code
        answer = response.json()
        assert isinstance(answer.get("message"), str) and SENTENCE.search(answer["message"])
        mine = list(PushSubscription.objects.filter(user=me).values_list("endpoint", "p256dh", "auth"))
        assert PushSubscription.objects.filter(pk=theirs.pk, user=theirs.user_id).exists(), "another's browser went"
        event(f"{response.status_code} {'changed' if mine != mine_before else 'unchanged'}")
        if mine != mine_before:
            assert answer["ok"] is True and response.status_code == 200
            assert all(e.startswith("https://") and p == KEY and a == AUTH for e, p, a in mine)
        elif response.status_code == 400:
            assert answer["ok"] is False
        transaction.set_rollback(True)


# Bodies json.loads reads into text no database stores (a lone surrogate cannot be encoded in UTF-8, and
# PostgreSQL refuses NUL), and bytes that are not UTF-8 at all.
FCM = "https://fcm.googleapis.com/fcm/send/"
UNSTORABLE_SUBSCRIBE = [  # json.dumps writes a lone surrogate and NUL as the escapes a browser could send
    *(json.dumps({"endpoint": FCM + text, "keys": {"p256dh": KEY, "auth": AUTH}}) for text in ("\ud800", "\x00")),
    json.dumps({"endpoint": FCM + "x", "keys": {"p256dh": "\ud800" + KEY, "auth": AUTH}}),
    json.dumps({"endpoint": FCM + "x", "keys": {"p256dh": KEY, "auth": "\x00"}}),
    json.dumps({"endpoint": "https://\ud800.fcm.googleapis.com/x", "keys": {"p256dh": KEY, "auth": AUTH}}),
    '{"\\ud800": 1}',
    '{"endpoint": 1e400, "keys": {"p256dh": NaN, "auth": Infinity}}',
    '"\\ud800"',
]
UNSTORABLE_BYTES = [
    b"\xff\xfe{}",
    b'{"endpoint": "\xed\xa0\x80"}',
    b"\xc3",
    b'{"a": "\xff"}',
    b"\x00\x00\x00{",
    b"\xef\xbb\xbf{}",
]
# An endpoint that is not printable ASCII cannot be a stored one (every stored endpoint passed
# ``endpoint_allowed``): unsubscribing it deletes nothing, without handing the database text it cannot store
# (a lone surrogate was a UnicodeEncodeError on either database, NUL a DataError on PostgreSQL).
UNSTORABLE_UNSUBSCRIBE = [
    '{"unsubscribe": true, "endpoint": "\\ud800"}',
    '{"unsubscribe": true, "endpoint": "https://fcm.googleapis.com/fcm/send/\\udfff"}',
    '{"unsubscribe": true, "endpoint": "https://fcm.googleapis.com/fcm/send/\\u0000"}',
]


def _push_answer(response: HttpResponse) -> dict[str, Any]:
    assert response.status_code in (200, 400), response.status_code
    answer: dict[str, Any] = response.json()
    assert isinstance(answer.get("message"), str) and SENTENCE.search(answer["message"])
    return answer


@pytest.mark.parametrize("body", [*UNSTORABLE_SUBSCRIBE, *UNSTORABLE_BYTES])
def test_a_subscription_no_database_could_store_is_refused_with_a_sentence(
    push_on: tuple[Client, User, PushSubscription], body: str | bytes
) -> None:
    client, me, _theirs = push_on
    response = client.post(reverse("games-push-subscription"), body, content_type="application/json")
    assert _push_answer(response)["ok"] is False
    assert not PushSubscription.objects.filter(user=me).exists()


@pytest.mark.parametrize("body", UNSTORABLE_UNSUBSCRIBE)
def test_unsubscribing_an_endpoint_no_database_could_store_answers_with_a_sentence(
    push_on: tuple[Client, User, PushSubscription], body: str
) -> None:
    client, _me, theirs = push_on
    response = client.post(reverse("games-push-subscription"), body, content_type="application/json")
    assert _push_answer(response)["ok"] is True
    assert PushSubscription.objects.filter(pk=theirs.pk).exists()


# --- the test notice ------------------------------------------------------------------------------


@pytest.fixture
def notice_player() -> tuple[User, Client]:
    user = UserFactory()
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return user, client


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.dictionaries(st.text(max_size=12), st.one_of(st.text(max_size=40), NOT_JSON), max_size=3),
    twice=st.booleans(),
)
def test_a_fuzzed_test_notice_never_crashes_and_says_what_it_sent(
    notice_player: tuple[User, Client], data: dict[str, str], twice: bool
) -> None:
    """The post carries nothing the view reads: one notice, then a sentence saying when to try again."""
    user, client = notice_player
    cache.clear()  # the notice's own limit counts in the cache
    with transaction.atomic():
        before = Mail.objects.filter(recipient=user.email).count()
        for _ in range(2 if twice else 1):
            client.cookies.pop("messages", None)
            response = client.post(reverse("games-notice-test"), data)
            assert response.status_code == 302 and response["Location"] == reverse("accounts-profile")
            said = [str(m) for m in get_messages(response.wsgi_request)]
            assert said and all(SENTENCE.search(m) for m in said), said
        assert Mail.objects.filter(recipient=user.email).count() == before + 1
        transaction.set_rollback(True)
