"""A club keeps a record of what its organizers change outside any season, shown to them on the members page.

Sending, resending, cancelling or accepting an invitation, joining a public club, changing a member's role
and removing a member (or a member leaving) each write one entry that says who did what; a season's record
stays apart.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.clubs import (
    club_invitation_cancel,
    club_invitation_resend,
    club_invite,
    club_join,
    member_remove,
    member_set_role,
)
from leagues.errors import LeagueRefused
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


def test_it_records_invitations_sent_one_resent_and_one_cancelled() -> None:
    club, organizer = _club()
    first = club_invite(club=club, actor=organizer, email="Ann@Example.com")
    club_invitation_resend(invitation=first, actor=organizer)  # one entry: sent again, not sent anew
    second = club_invite(club=club, actor=organizer, email="bob@example.com", role=Membership.Role.ORGANIZER)
    club_invitation_cancel(invitation=second, actor=organizer)
    assert _texts(club) == [
        "Olive invited ann@example.com as a player.",
        "Olive sent the invitation to ann@example.com again; the old link no longer works.",
        "Olive invited bob@example.com as an organizer.",
        "Olive cancelled the invitation to bob@example.com.",
    ]
    assert set(AuditEntry.objects.filter(club=club).values_list("actor", flat=True)) == {organizer.pk}


def test_it_records_who_accepted_whose_invitation_from_the_link() -> None:
    club, organizer = _club()
    invitation = club_invite(club=club, actor=organizer, email="ann@example.com")
    ann = UserFactory(display_name="Ann", email="ann.other@example.com")  # the link is the credential
    client = Client()
    client.force_login(ann)
    assert client.post(reverse("leagues-invite", args=[invitation.token])).status_code == 302
    assert Membership.objects.filter(club=club, user=ann, role=Membership.Role.PLAYER).exists()
    entry = AuditEntry.objects.filter(club=club).latest("pk")
    assert entry.text == "Ann accepted the invitation Olive sent to ann@example.com and joined as a player."
    assert entry.actor == ann and entry.data == {
        "invitation": invitation.pk,
        "user": ann.pk,
        "invited_by": organizer.pk,
    }
    assert entry.text in _members_page(club, organizer)


def test_it_records_a_member_made_organizer_by_an_invitation_and_a_public_join() -> None:
    club, organizer = _club()
    invitation = club_invite(club=club, actor=organizer, email="bob@example.com", role=Membership.Role.ORGANIZER)
    bob = member(club, UserFactory(display_name="Bob", email="bob@example.com"))  # joined before he followed it
    club_join(user=bob, token=invitation.token)
    assert Membership.objects.get(club=club, user=bob).role == Membership.Role.ORGANIZER
    club_join(user=UserFactory(display_name="Cat"), club=club)
    assert _texts(club)[1:] == [
        "Bob accepted the invitation Olive sent to bob@example.com and became an organizer (a member already).",
        "Cat joined the club.",
    ]


def test_it_records_nothing_for_an_invitation_refused_or_an_expired_link() -> None:
    club, organizer = _club()
    ann = member(club, UserFactory(display_name="Ann", email="ann@example.com"))
    with pytest.raises(LeagueRefused, match="already a member"):
        club_invite(club=club, actor=organizer, email="ann@example.com")
    with pytest.raises(LeagueRefused, match="organizers"):
        club_invite(club=club, actor=ann, email="dan@example.com")
    invitation = club_invite(club=club, actor=organizer, email="dan@example.com")
    club_invitation_cancel(invitation=invitation, actor=organizer)
    before = _texts(club)
    with pytest.raises(LeagueRefused, match="expired"):
        club_join(user=UserFactory(), token=invitation.token)
    assert (
        _texts(club)
        == before
        == [
            "Olive invited dan@example.com as a player.",
            "Olive cancelled the invitation to dan@example.com.",
        ]
    )


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
