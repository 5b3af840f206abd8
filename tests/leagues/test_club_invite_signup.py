"""A club invitation followed before having an account survives sign-up, the address check and the login.

The way of a newcomer without a browser: the link in the club invitation mail the app wrote, sign-up, the
confirmation link from allauth's mail, the login; they are then a member without following the link again.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.models import Mail
from leagues.clubs import club_invitation_cancel, club_invite
from leagues.invitations import SESSION_KEY
from leagues.models import Club, Membership
from tests.accounts.factories import UserFactory
from tests.games.factories import PASSWORD
from tests.leagues.factories import make_club

pytestmark = pytest.mark.django_db

NEWCOMER = "nell.newcomer@example.com"
CLUB_LINK = re.compile(r"https?://\S+?(/leagues/invite/[^/\s]+/)")
CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)")


def _invited(role: str = Membership.Role.PLAYER) -> tuple[Club, str]:
    """A private club and the path of the link in the invitation mail it sent to the newcomer."""
    organizer = UserFactory(display_name="Olive")
    club = make_club(organizer=organizer, public=False, name="Thursday Club")
    club_invite(club=club, actor=organizer, email=NEWCOMER, role=role)
    body = Mail.objects.get(recipient=NEWCOMER, dedupe_key__startswith="club-invite:").body
    found = CLUB_LINK.search(body)
    assert found, body
    return club, found.group(1)


def _confirmation_link() -> str:
    found = CONFIRM_LINK.search(mail.outbox[-1].body)
    assert found, mail.outbox[-1].body
    return found.group(1)


def _is_member(club: Club, email: str = NEWCOMER) -> bool:
    return Membership.objects.filter(club=club, user__email=email).exists()


def _sign_up(browser: Client, page_url: str) -> None:
    signup = {"email": NEWCOMER, "password1": PASSWORD, "password2": PASSWORD, "display_name": "Nell"}
    assert browser.post(page_url, signup).status_code == 302


def test_it_makes_a_newcomer_a_member_after_sign_up_confirmation_and_login() -> None:
    club, link = _invited()
    browser = Client()
    page = browser.get(link)
    assert page.status_code == 200 and "Join Thursday Club" in page.content.decode()
    assert browser.session[SESSION_KEY] == urlsplit(link).path.rstrip("/").rsplit("/", 1)[1]
    _sign_up(browser, f"{reverse('account_signup')}?next={link}")
    assert not _is_member(club), "nobody joins before the address is confirmed"

    confirmed = browser.get(_confirmation_link())
    assert confirmed.status_code == 302
    answer = confirmed
    if urlsplit(confirmed["Location"]).path == reverse("account_login"):  # mandatory verification asks once
        assert browser.get(confirmed["Location"]).context["form"]["login"].value() == NEWCOMER
        answer = browser.post(confirmed["Location"], {"login": NEWCOMER, "password": PASSWORD})
    assert _is_member(club), "the newcomer must be a member without following the link again"
    landed = browser.get(answer["Location"], follow=True)
    assert landed.redirect_chain[-1][0] == reverse("leagues-club", args=[club.slug])
    assert "Welcome to Thursday Club" in landed.content.decode()
    assert SESSION_KEY not in browser.session


def test_it_leads_the_confirmation_opened_on_another_device_to_the_club() -> None:
    club, _link = _invited()
    Client().get(_link)
    signing_up = Client()
    _sign_up(signing_up, reverse("account_signup"))
    phone = Client()  # the mail is read elsewhere: no session, the confirmed address finds the invitation
    confirmed = phone.get(_confirmation_link())
    assert _link in confirmed["Location"].replace("%2F", "/")
    phone.post(confirmed["Location"], {"login": NEWCOMER, "password": PASSWORD})
    assert _is_member(club)


def test_it_makes_a_newcomer_a_member_at_sign_up_when_no_address_check_is_asked(settings) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    club, link = _invited()
    browser = Client()
    browser.get(link)
    signup = {"email": NEWCOMER, "password1": PASSWORD, "password2": PASSWORD}
    answer = browser.post(reverse("account_signup"), signup)
    assert _is_member(club)
    assert answer["Location"] == reverse("leagues-club", args=[club.slug])


def test_it_joins_an_existing_player_at_login_with_the_invited_role() -> None:
    club, link = _invited(role=Membership.Role.ORGANIZER)
    UserFactory(email=NEWCOMER)
    browser = Client()
    browser.get(link)
    answer = browser.post(reverse("account_login"), {"login": NEWCOMER, "password": PASSWORD})
    assert answer["Location"] == reverse("leagues-club", args=[club.slug])
    assert Membership.objects.get(club=club, user__email=NEWCOMER).role == Membership.Role.ORGANIZER


def test_it_joins_nobody_from_a_link_cancelled_before_the_login() -> None:
    club, link = _invited()
    UserFactory(email=NEWCOMER)
    browser = Client()
    browser.get(link)
    club_invitation_cancel(invitation=club.invitations.get(), actor=club.memberships.get().user)
    answer = browser.post(reverse("account_login"), {"login": NEWCOMER, "password": PASSWORD}, follow=True)
    assert not _is_member(club)
    assert "expired" in answer.content.decode()


def test_it_keeps_no_made_up_token_in_the_session() -> None:
    browser = Client()
    browser.get("/leagues/invite/not-a-real-token/")
    browser.post("/leagues/invite/not-a-real-token/")
    assert SESSION_KEY not in browser.session
