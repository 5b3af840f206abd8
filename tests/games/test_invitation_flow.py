"""An invitation survives sign-up, the address check and the login, and the waiting table's seats can be managed.

The whole way of a brand-new player, browser-free: the link in the mail, sign-up, the confirmation link from
the mail allauth sends, login, and the seat to accept.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from games.invitations import SESSION_KEY
from games.models import Mail, Match
from games.services import SeatSpec, match_create
from tests.games.conftest import login
from tests.games.factories import PASSWORD, UserFactory

pytestmark = [
    pytest.mark.django_db,
    # The settings the coordinator adds to config/settings.py; here so that the tests hold before and after.
    pytest.mark.usefixtures("invitation_settings"),
]


@pytest.fixture
def invitation_settings() -> Any:
    with override_settings(
        ACCOUNT_ADAPTER="games.account_adapter.AccountAdapter",
        ACCOUNT_FORMS={"login": "games.account_adapter.InvitedLoginForm"},
    ):
        yield


def _invite(email: str = "newcomer@example.com", *, game: str = "karnoffel") -> tuple[Match, str]:
    creator = UserFactory(display_name="Dora")
    seats = [SeatSpec(user=creator), SeatSpec(email=email), SeatSpec(bot="random"), SeatSpec(bot="random")]
    match = match_create(game=game, players=4, options=None, created_by=creator, seats=seats)
    return match, match.seats.get(number=1).invite_token


def _confirmation_link() -> str:
    body = mail.outbox[-1].body
    found = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", body)
    assert found, body
    return found.group(1)


def test_a_brand_new_player_signs_up_confirms_logs_in_and_lands_on_the_seat() -> None:
    match, token = _invite()
    link = reverse("games-invite", args=[token])
    browser = Client()
    page = browser.get(link)
    assert page.status_code == 200 and "“Dora”" in page.content.decode()
    assert browser.session[SESSION_KEY] == token

    # The sign-up page says who invites whom, and the link to it fills in the address.
    signup = browser.get(page.context["signup_url"])
    assert "“Dora”" in signup.content.decode() and "seat 2 of a 4-player match of Karnoffel" in signup.content.decode()
    assert signup.context["form"]["email"].value() == "newcomer@example.com"
    answer = browser.post(
        reverse("account_signup"),
        {"email": "newcomer@example.com", "password1": PASSWORD, "password2": PASSWORD, "display_name": "Nell"},
    )
    assert answer.status_code == 302
    sent = browser.get(answer["Location"])
    assert "“Dora”" in sent.content.decode()  # the page after sign-up still shows the invitation

    # The confirmation link leads to the login, which then leads to the seat.
    confirmed = browser.get(_confirmation_link())
    assert confirmed.status_code == 302
    login_url = confirmed["Location"]
    assert login_url.startswith(reverse("account_login")) and link in login_url.replace("%2F", "/")
    login_page = browser.get(login_url)
    assert login_page.context["form"]["login"].value() == "newcomer@example.com"
    assert "“Dora”" in login_page.content.decode()
    logged_in = browser.post(login_url, {"login": "newcomer@example.com", "password": PASSWORD})
    assert logged_in.status_code == 302 and logged_in["Location"] == link

    # The seat, to accept.
    assert browser.get(link).status_code == 200
    taken = browser.post(link)
    assert taken["Location"] == match.get_absolute_url()
    seat = match.seats.get(number=1)
    assert seat.joined and seat.user is not None and seat.user.email == "newcomer@example.com"
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert SESSION_KEY not in browser.session


def test_the_confirmation_opened_in_another_browser_still_leads_to_the_seat() -> None:
    _match, token = _invite()
    Client().get(reverse("games-invite", args=[token]))
    signup_browser = Client()
    signup_browser.post(
        reverse("account_signup"),
        {"email": "newcomer@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    phone = Client()  # the mail is read on another device: no session, the address finds the invitation
    confirmed = phone.get(_confirmation_link())
    assert reverse("games-invite", args=[token]) in confirmed["Location"].replace("%2F", "/")


def test_a_login_without_next_goes_to_the_invitation_the_browser_carries() -> None:
    _match, token = _invite()
    user = UserFactory(email="newcomer@example.com")
    browser = Client()
    browser.get(reverse("games-invite", args=[token]))
    answer = browser.post(reverse("account_login"), {"login": user.email, "password": PASSWORD})
    assert answer["Location"] == reverse("games-invite", args=[token])


def test_without_an_invitation_the_login_goes_to_the_dashboard() -> None:
    user = UserFactory()
    answer = Client().post(reverse("account_login"), {"login": user.email, "password": PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == "/"


# --- the waiting table ------------------------------------------------------------------------------------


def test_a_waiting_table_shows_no_hand_and_no_cards() -> None:
    match, _token = _invite()
    page = login(match.created_by).get(match.get_absolute_url())
    text = page.content.decode()
    assert page.context["turn"]["hand"] is None and page.context["board"] == {}
    assert 'class="card' not in text and "Your hand" not in text and "Face-up round" not in text
    assert "The cards are dealt when every seat is taken" in text
    assert not any(row["acting"] for row in page.context["seats"])


def test_the_invited_address_is_shown_to_the_creator_only() -> None:
    match, _token = _invite("secret-friend@example.com")
    assert "secret-friend@example.com" in login(match.created_by).get(match.get_absolute_url()).content.decode()
    assert "secret-friend@example.com" not in login(UserFactory()).get(match.get_absolute_url()).content.decode()


def _manage(client: Client, match: Match, action: str, **data: str) -> Any:
    url = reverse("games-seat-manage", args=[match.pk, 1, action])
    return client.post(url, data, follow=True)


def test_the_creator_cancels_an_invitation_and_its_link_stops_working() -> None:
    match, token = _invite()
    _manage(login(match.created_by), match, "cancel")
    seat = match.seats.get(number=1)
    assert not seat.invite_token and not seat.invite_email and not seat.joined
    answer = login(UserFactory()).post(reverse("games-invite", args=[token]), follow=True)
    assert "no longer valid" in str(list(answer.context["messages"])[0])


def test_the_creator_resends_an_invitation_a_limited_number_of_times() -> None:
    match, _token = _invite()
    creator = login(match.created_by)
    before = Mail.objects.filter(recipient="newcomer@example.com").count()
    _manage(creator, match, "resend")
    _manage(creator, match, "resend")
    refused = _manage(creator, match, "resend")
    assert Mail.objects.filter(recipient="newcomer@example.com").count() == before + 2
    assert "already been sent again 2 times" in str(list(refused.context["messages"])[-1])


def test_the_creator_puts_a_bot_in_the_seat_and_the_match_starts() -> None:
    match, token = _invite()
    _manage(login(match.created_by), match, "bot", level="strong")
    match.refresh_from_db()
    seat = match.seats.get(number=1)
    assert seat.bot_level == "strong" and seat.joined and not seat.invite_token
    assert match.status == Match.Status.ACTIVE


def test_the_creator_invites_another_address_to_an_open_seat() -> None:
    match, _token = _invite()
    creator = login(match.created_by)
    _manage(creator, match, "cancel")
    _manage(creator, match, "invite", email="Other@Example.com")
    seat = match.seats.get(number=1)
    assert seat.invite_email == "other@example.com" and seat.invite_token
    assert Mail.objects.filter(recipient="other@example.com").exists()


@pytest.mark.parametrize("action", ["cancel", "resend", "bot"])
def test_only_the_creator_manages_the_seats(action: str) -> None:
    match, token = _invite()
    answer = _manage(login(UserFactory()), match, action)
    assert "Only the player who created this match" in str(list(answer.context["messages"])[0])
    seat = match.seats.get(number=1)
    assert seat.invite_token == token and not seat.bot_level


def test_the_invitee_declines_without_an_account() -> None:
    match, token = _invite()
    answer = Client().post(reverse("games-invite-decline", args=[token]), follow=True)
    assert "You have declined" in str(list(answer.context["messages"])[0])
    seat = match.seats.get(number=1)
    assert not seat.invite_token and not seat.joined
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING
    # The creator sees the seat open, with a way to fill it.
    text = login(match.created_by).get(match.get_absolute_url()).content.decode()
    assert "Seat 2: open" in text and reverse("games-seat-manage", args=[match.pk, 1, "bot"]) in text


def test_a_declined_link_cannot_be_declined_or_taken_again() -> None:
    _match, token = _invite()
    Client().post(reverse("games-invite-decline", args=[token]))
    again = Client().post(reverse("games-invite-decline", args=[token]), follow=True)
    assert "no longer valid" in str(list(again.context["messages"])[0])
