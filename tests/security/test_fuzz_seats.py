"""Fuzzed seat management and invitation links: never a 500, and a refused post changes no seat.

The views the other fuzz file leaves out: the creator's seat controls (``games-seat-manage``: cancel,
resend, bot, invite) with odd seat numbers, actions, levels and addresses, the same posts by someone
who is not the creator, and invitation links (accept, decline) with made-up tokens.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games.models import Match, Seat
from games.services import SeatSpec, match_create
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ODD_TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["", "basic", "strong", "STRONG", "random ", "²", "x" * 5000, "a@b", "@", "<script>@x.test"]),
    st.emails(),
)
SEAT_NUMBERS = st.one_of(st.integers(min_value=0, max_value=10**18 - 1), st.sampled_from([0, 1, 2, 3, 9]))
ACTIONS = st.sampled_from(["cancel", "resend", "bot", "invite", "kick", "CANCEL", "0", "-"])


def a_player() -> User:
    user: User = UserFactory.create()
    return user


def waiting_match(creator: User) -> Match:
    """A match waiting for an invited player in seat 1, with seat 2 open to a bot or an invitation."""
    # Fresh addresses: hypothesis's examples share the test's transaction, and an address gets three invitations a day.
    tag = uuid.uuid4().hex[:12]
    seats = [
        SeatSpec(user=creator),
        SeatSpec(email=f"invited-{tag}@fuzz.test"),
        SeatSpec(email=f"other-{tag}@fuzz.test"),
    ]
    return match_create(game="renfield", players=3, options={}, created_by=creator, seats=seats)


def seats_of(match: Match) -> list[tuple[Any, ...]]:
    fields = ("number", "user_id", "bot_level", "joined", "invite_email", "invite_token")
    return list(Seat.objects.filter(match=match).order_by("number").values_list(*fields))


def client_for(user: User) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_it_never_fails_on_seat_controls_and_refuses_with_a_message() -> None:
    reached = {"answered": 0, "refused": 0}  # the examples reached a control that answers, and one that refuses

    @FUZZ
    @given(number=SEAT_NUMBERS, action=ACTIONS, level=ODD_TEXT, email=ODD_TEXT)
    def check(number: int, action: str, level: str, email: str) -> None:
        creator = a_player()
        match = waiting_match(creator)
        before = seats_of(match)
        url = reverse("games-seat-manage", args=[match.pk, number, action])
        response = client_for(creator).post(url, {"level": level, "email": email})
        assert response.status_code in (302, 404), response.status_code
        if response.status_code == 404:
            return
        told = [str(m) for m in get_messages(response.wsgi_request)]
        assert told, "a seat control answered without a word"
        reached["answered"] += 1
        if seats_of(match) == before and action != "resend":
            assert any("." in m for m in told)  # a sentence, not a code
            reached["refused"] += 1

    check()
    assert all(reached.values()), f"the examples never reached a case: {reached}"


@FUZZ
@given(number=SEAT_NUMBERS, action=ACTIONS, level=ODD_TEXT, email=ODD_TEXT)
def test_it_changes_no_seat_for_someone_who_did_not_create_the_match(
    number: int, action: str, level: str, email: str
) -> None:
    match = waiting_match(a_player())
    before = seats_of(match)
    url = reverse("games-seat-manage", args=[match.pk, number, action])
    response = client_for(a_player()).post(url, {"level": level, "email": email})
    assert response.status_code in (302, 403, 404), response.status_code
    assert seats_of(match) == before


@FUZZ
@given(token=st.one_of(st.text(min_size=1, max_size=80).filter(lambda t: "/" not in t), st.sampled_from(["x" * 500])))
def test_it_never_fails_on_a_made_up_invitation_link(token: str) -> None:
    match = waiting_match(a_player())
    before = seats_of(match)
    for name in ("games-invite", "games-invite-decline"):
        url = reverse(name, args=[token])
        for client in (Client(raise_request_exception=False), client_for(a_player())):
            response = client.post(url)
            assert response.status_code in (302, 404), (name, response.status_code)
    assert seats_of(match) == before
