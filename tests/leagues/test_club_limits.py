"""Club invitations and new clubs have the limits matches have: a club is not a way to mail anyone.

Invitations are counted in the database (per organizer and per address over the last day, open ones per
club), new clubs by the burst limits in the cache. A refusal is a sentence and leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config import settings as base_settings
from games.models import Mail
from leagues.clubs import club_invite, club_join
from leagues.errors import LeagueRefused
from leagues.models import Club, ClubInvitation, Membership
from tests.leagues.factories import UserFactory, make_club, make_league, make_season, member, organizer_of

pytestmark = pytest.mark.django_db


def _invite(club: Club, email: str) -> ClubInvitation:
    return club_invite(club=club, actor=organizer_of(club), email=email)


def _sent() -> tuple[int, int]:
    return ClubInvitation.objects.count(), Mail.objects.filter(dedupe_key__startswith="club-invite:").count()


def _a_day_passes() -> None:
    ClubInvitation.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    Mail.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))


# --- invitations ----------------------------------------------------------------------------------


def test_it_refuses_an_organizers_invitation_past_the_days_limit_across_their_clubs(settings: Any) -> None:
    settings.LEAGUES_CLUB_INVITATIONS_PER_DAY = 3
    boss = UserFactory()
    first, second = make_club(organizer=boss, name="First"), make_club(organizer=boss, name="Second")
    for n, club in enumerate([first, first, second]):
        club_invite(club=club, actor=boss, email=f"friend{n}@example.com")
    before = _sent()
    with pytest.raises(LeagueRefused, match=r"at most 3 club invitations a day; you have sent 3 since this time"):
        club_invite(club=second, actor=boss, email="one-more@example.com")
    assert _sent() == before
    # Another organizer of the same club has a day's invitations of their own.
    other = member(second, role=Membership.Role.ORGANIZER)
    club_invite(club=second, actor=other, email="one-more@example.com")
    _a_day_passes()
    club_invite(club=first, actor=boss, email="tomorrow@example.com")


def test_it_refuses_the_fourth_invitation_to_one_address_in_a_day_from_every_club_together() -> None:
    first, second = make_club(name="First"), make_club(name="Second")
    _invite(first, "dora@example.com")
    _invite(first, "dora@example.com")
    _invite(second, "Dora@Example.com ")
    before = _sent()
    with pytest.raises(LeagueRefused, match=r"dora@example.com has had 3 club invitations in the last day"):
        _invite(second, " DORA@example.com")
    assert _sent() == before
    _invite(second, "someone-else@example.com")
    _a_day_passes()
    _invite(second, "dora@example.com")


def test_the_address_limit_reads_the_same_whether_or_not_the_address_has_an_account() -> None:
    club = make_club()
    UserFactory(email="has-account@example.com")
    sentences = []
    for email in ("has-account@example.com", "no-account@example.com"):
        for _ in range(3):
            _invite(club, email)
        with pytest.raises(LeagueRefused) as refused:
            _invite(club, email)
        sentences.append(str(refused.value).replace(email, "ADDRESS"))
    assert sentences[0] == sentences[1]


def test_a_club_has_at_most_so_many_invitations_waiting_for_an_answer(settings: Any) -> None:
    settings.LEAGUES_CLUB_INVITATIONS_PENDING_MAX = 2
    club, elsewhere = make_club(), make_club(name="Elsewhere")
    accepted, expired = _invite(club, "a@example.com"), _invite(club, "b@example.com")
    before = _sent()
    with pytest.raises(LeagueRefused, match=r"already has 2 invitations waiting for an answer"):
        _invite(club, "c@example.com")
    assert _sent() == before
    _invite(elsewhere, "c@example.com")  # the limit is the club's own
    # An accepted invitation or an expired one is no longer waiting.
    club_join(user=UserFactory(email="a@example.com"), token=accepted.token)
    _invite(club, "c@example.com")
    ClubInvitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    _invite(club, "d@example.com")
    with pytest.raises(LeagueRefused, match="waiting for an answer"):
        _invite(club, "e@example.com")


def test_a_refused_invitation_on_the_page_is_a_sentence_and_sends_nothing(settings: Any) -> None:
    settings.LEAGUES_CLUB_INVITATIONS_PER_DAY = 1
    club = make_club()
    client = Client()
    client.force_login(organizer_of(club))
    address = reverse("leagues-club-invite", args=[club.slug])
    assert client.post(address, {"email": "a@example.com", "role": "player"}).status_code == 302
    before = _sent()
    response = client.post(address, {"email": "b@example.com", "role": "player"})
    assert response.status_code == 200
    assert "You can send at most 1 club invitation a day" in response.content.decode()
    assert _sent() == before


def test_the_limits_have_their_defaults() -> None:
    assert base_settings.LEAGUES_CLUB_INVITATIONS_PER_DAY == 30
    assert base_settings.LEAGUES_CLUB_INVITATIONS_PER_ADDRESS_PER_DAY == 3
    assert base_settings.LEAGUES_CLUB_INVITATIONS_PENDING_MAX == 50


# --- what the mails say ---------------------------------------------------------------------------

PHISHING = "URGENT: reset your password"


def test_the_invitation_subject_carries_nothing_the_organizer_chose() -> None:
    boss = UserFactory(display_name="Parlour Security Team")  # the validators refuse it; an old row may not
    club = make_club(organizer=boss, name=PHISHING)
    invitation = club_invite(club=club, actor=boss, email="dora@example.com")
    mail = Mail.objects.get(dedupe_key=f"club-invite:{invitation.pk}")
    assert mail.subject == "You are invited to join a club on Parlour"
    assert "URGENT" not in mail.subject and "Security" not in mail.subject
    # The names are in the body, quoted, as what someone calls themselves and their club.
    assert '"Parlour Security Team"' in mail.body and f'"{PHISHING}"' in mail.body
    assert invitation.token in mail.body


def test_the_season_mail_subject_carries_nothing_the_organizer_chose() -> None:
    club = make_club(name=PHISHING)
    league = make_league(club=club)
    season = make_season(league=league, players=4, rounds=1)
    mail = Mail.objects.filter(dedupe_key__startswith=f"season-start:{season.pk}:").first()
    assert mail is not None
    assert mail.subject == "A season you entered has started on Parlour"
    assert f'"{season.name}"' in mail.body and f'"{league.name}"' in mail.body and f'"{PHISHING}"' in mail.body


# --- new clubs ------------------------------------------------------------------------------------


@pytest.fixture
def limits(settings: Any) -> Iterator[Any]:
    """Burst limits on, with a fresh count (the test settings turn them off)."""
    cache.clear()
    settings.PARLOUR_RATE_LIMITS = dict(base_settings.PARLOUR_RATE_LIMITS)
    yield settings
    cache.clear()


def test_creating_many_clubs_at_once_is_limited_and_the_refused_one_is_not_made(limits: Any) -> None:
    # The shipped limit (on today's code there was none, and every post made a club).
    count, _seconds = base_settings.PARLOUR_RATE_LIMITS.get("club-create", [(3, 60)])[0]
    client = Client()
    client.force_login(UserFactory())
    address = reverse("leagues-club-create")
    assert client.get(address).status_code == 200  # reading the form is not counted
    codes = [client.post(address, {"name": f"Club {n}", "public": "on"}).status_code for n in range(count + 2)]
    assert codes == [302] * count + [429, 429]
    assert Club.objects.count() == count
    response = client.post(address, {"name": "One more"})
    assert response.status_code == 429 and response["Content-Type"].startswith("text/plain")
    assert "started many clubs in a short time" in response.content.decode() and int(response["Retry-After"]) >= 1
    assert not Club.objects.filter(name="One more").exists()
    # The limit is the player's own.
    other = Client()
    other.force_login(UserFactory())
    assert other.post(address, {"name": "Someone else's"}).status_code == 302
