"""A club keeps a record of what its organizers change outside any season, shown to them on the members page.

Resending or cancelling an invitation, changing a member's role and removing a member (or a member
leaving) each write one entry that says who did what; a season's record stays apart.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.clubs import club_invitation_cancel, club_invitation_resend, club_invite, member_remove, member_set_role
from leagues.models import AuditEntry, Club, Membership
from tests.accounts.factories import UserFactory
from tests.leagues.factories import make_club, member

pytestmark = pytest.mark.django_db


def _club() -> tuple[Club, User]:
    organizer = UserFactory(display_name="Olive")
    return make_club(organizer=organizer, name="Record Club"), organizer


def _texts(club: Club) -> list[str]:
    return list(AuditEntry.objects.filter(club=club, season=None).order_by("pk").values_list("text", flat=True))


def _members_page(club: Club, organizer: User) -> str:
    client = Client()
    client.force_login(organizer)
    page = client.get(reverse("leagues-members", args=[club.slug]))
    assert page.status_code == 200
    return page.content.decode()


def test_it_records_an_invitation_resent_and_one_cancelled() -> None:
    club, organizer = _club()
    first = club_invite(club=club, actor=organizer, email="ann@example.com")
    club_invitation_resend(invitation=first, actor=organizer)
    second = club_invite(club=club, actor=organizer, email="bob@example.com")
    club_invitation_cancel(invitation=second, actor=organizer)
    assert _texts(club) == [
        "Olive sent the invitation to ann@example.com again; the old link no longer works.",
        "Olive cancelled the invitation to bob@example.com.",
    ]
    assert set(AuditEntry.objects.filter(club=club).values_list("actor", flat=True)) == {organizer.pk}


def test_it_records_a_role_change_but_not_a_role_kept() -> None:
    club, organizer = _club()
    ann = member(club, UserFactory(display_name="Ann"))
    member_set_role(club=club, actor=organizer, user=ann, role=Membership.Role.ORGANIZER)
    member_set_role(club=club, actor=organizer, user=ann, role=Membership.Role.ORGANIZER)
    member_set_role(club=club, actor=organizer, user=ann, role=Membership.Role.PLAYER)
    assert _texts(club) == ["Olive made Ann organizer (was player).", "Olive made Ann player (was organizer)."]


def test_it_records_a_member_removed_and_one_who_left() -> None:
    club, organizer = _club()
    ann = member(club, UserFactory(display_name="Ann"))
    bob = member(club, UserFactory(display_name="Bob"))
    member_remove(club=club, actor=organizer, user=ann)
    member_remove(club=club, actor=bob, user=bob)
    assert _texts(club) == ["Olive removed Ann.", "Bob left the club."]


def test_it_records_nothing_for_a_refused_change() -> None:
    club, organizer = _club()
    with pytest.raises(Exception, match="at least one organizer"):
        member_set_role(club=club, actor=organizer, user=organizer, role=Membership.Role.PLAYER)
    assert _texts(club) == []


def test_it_shows_the_record_to_organizers_on_the_members_page() -> None:
    club, organizer = _club()
    ann = member(club, UserFactory(display_name="Ann"))
    member_set_role(club=club, actor=organizer, user=ann, role=Membership.Role.ORGANIZER)
    page = _members_page(club, organizer)
    assert "record</h2>" in page
    assert "Olive made Ann organizer (was player)." in page
    player = member(club)
    client = Client()
    client.force_login(player)
    assert client.get(reverse("leagues-members", args=[club.slug])).status_code == 403


def test_it_reads_the_members_page_in_the_same_queries_however_long_the_record(django_assert_max_num_queries) -> None:
    club, organizer = _club()
    for n in range(8):
        user = member(club, UserFactory(display_name=f"Member {n}"))
        member_set_role(club=club, actor=organizer, user=user, role=Membership.Role.ORGANIZER)
        invitation = club_invite(club=club, actor=organizer, email=f"guest{n}@example.com")
        club_invitation_cancel(invitation=invitation, actor=organizer)
    client = Client()
    client.force_login(organizer)
    with django_assert_max_num_queries(8):
        assert client.get(reverse("leagues-members", args=[club.slug])).status_code == 200
