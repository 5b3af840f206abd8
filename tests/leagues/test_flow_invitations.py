"""An organizer sends a club invitation again (a new link, the old one stops working) or cancels it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Mail
from leagues.clubs import club_invite, club_join
from leagues.errors import LeagueRefused
from leagues.models import ClubInvitation, Membership
from tests.accounts.factories import UserFactory
from tests.leagues.factories import make_club, member, organizer_of
from tests.leagues.flow_world import login, page

pytestmark = pytest.mark.django_db


def _invited() -> tuple[Any, ClubInvitation]:
    club = make_club()
    return club, club_invite(club=club, actor=organizer_of(club), email="new@example.com")


def _url(name: str, invitation: ClubInvitation) -> str:
    return reverse(name, args=[invitation.club.slug, invitation.pk])


def test_sending_again_mails_a_new_link_and_the_old_one_stops_working() -> None:
    club, old = _invited()
    client = login(organizer_of(club))
    html = page(client.get(reverse("leagues-members", args=[club.slug])))
    assert _url("leagues-invitation-resend", old) in html and _url("leagues-invitation-cancel", old) in html
    html = page(client.post(_url("leagues-invitation-resend", old), follow=True))
    assert "A new invitation is on its way to new@example.com" in html
    new = ClubInvitation.objects.exclude(pk=old.pk).get(club=club)
    assert new.email == "new@example.com" and new.token != old.token
    assert Mail.objects.filter(dedupe_key=f"club-invite:{new.pk}").exists()
    user = UserFactory(email="new@example.com")
    with pytest.raises(LeagueRefused, match="expired"):
        club_join(user=user, token=old.token)
    assert club_join(user=user, token=new.token).club == club


def test_a_cancelled_invitation_no_longer_lets_anyone_in_and_leaves_the_list() -> None:
    club, invitation = _invited()
    client = login(organizer_of(club))
    client.post(_url("leagues-invitation-cancel", invitation))
    listed = page(client.get(reverse("leagues-members", args=[club.slug])))
    assert "The invitation is cancelled for new@example.com" in listed  # the message, once
    assert _url("leagues-invitation-cancel", invitation) not in listed
    again = page(client.get(reverse("leagues-members", args=[club.slug])))
    listed_part, record = again.split('<ol class="audit">')  # the club's record below the list names it
    assert "new@example.com" not in listed_part and "cancelled the invitation to new@example.com" in record
    outsider = login(UserFactory())
    html = page(outsider.post(reverse("leagues-invite", args=[invitation.token]), follow=True))
    assert "This invitation has expired" in html
    assert Membership.objects.filter(club=club).count() == 1
    html = page(client.post(_url("leagues-invitation-cancel", invitation), follow=True))
    assert "has expired or was cancelled already" in html


def test_an_accepted_invitation_cannot_be_sent_again() -> None:
    club, invitation = _invited()
    club_join(user=UserFactory(email="new@example.com"), token=invitation.token)
    html = page(login(organizer_of(club)).post(_url("leagues-invitation-resend", invitation), follow=True))
    assert "has accepted this invitation already" in html
    assert ClubInvitation.objects.filter(club=club).count() == 1


def test_a_player_can_neither_resend_nor_cancel() -> None:
    club, invitation = _invited()
    player = login(member(club))
    for name in ("leagues-invitation-resend", "leagues-invitation-cancel"):
        assert player.post(_url(name, invitation)).status_code == 403
    invitation.refresh_from_db()
    assert ClubInvitation.objects.filter(club=club).count() == 1
    assert club_join(user=UserFactory(), token=invitation.token).club == club


def test_the_members_page_with_its_invitations_keeps_its_query_count(django_assert_max_num_queries: Any) -> None:
    club, _invitation = _invited()
    boss = organizer_of(club)
    for n in range(5):
        club_invite(club=club, actor=boss, email=f"more{n}@example.com")
    client = login(boss)
    # 8: the club's record (tests/leagues/test_club_record.py) is one query, however long it is.
    with django_assert_max_num_queries(8):
        assert client.get(reverse("leagues-members", args=[club.slug])).status_code == 200
