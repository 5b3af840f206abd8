"""Clubs, their members and invitations: only a club's organizers manage it.

A club is made by its first organizer (``club_create``); people join a public club directly or any club
from an invitation's link (``club_join``), which an organizer mails within limits (``club_invite``).
Every league service asks ``check_organizer`` first: what a person may not do is refused with a
``leagues.errors`` refusal whose message is for that person.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from games.followups import enqueue
from games.invitations import TOKEN as INVITE_TOKEN
from games.models import Mail, Match, Seat
from games.outbox import absolute_url, mail_queue, mail_safe
from leagues.errors import LeagueRefused, NotOrganizer
from leagues.models import AuditEntry, Club, ClubInvitation, Entrant, Fixture, Membership, Season
from leagues.record import audit, club_audit
from leagues.wording import plural

INVITATION_DAYS = 14
ORGANIZER = Membership.Role.ORGANIZER


# --- who may ----------------------------------------------------------------------


def is_organizer(*, club: Club, user: User | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(club=club, user=user, role=ORGANIZER).exists()


def check_organizer(club: Club | int, user: User | None) -> None:
    """Refuse (``NotOrganizer``) anyone but the club's organizers: every managing service asks this first."""
    club_id = club if isinstance(club, int) else club.pk
    if user is None or not Membership.objects.filter(club_id=club_id, user=user, role=ORGANIZER).exists():
        raise NotOrganizer("Only the club's organizers can do that.")


def unique_slug(existing: QuerySet[Any], name: str, *, fallback: str) -> str:
    """An address from ``name`` that none of ``existing`` has (a club among all, a league in its club)."""
    base = slugify(name)[:70] or fallback
    taken = set(existing.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


# --- clubs ------------------------------------------------------------------------


def club_create(*, name: str, created_by: User, description: str = "", public: bool = True) -> Club:
    """A new club; whoever creates it is its first organizer."""
    name = (name or "").strip()
    if not name:
        raise LeagueRefused("Give the club a name.")
    if len(name) > 80:
        raise LeagueRefused("A club's name can be at most 80 characters long.")
    with transaction.atomic():
        club = Club.objects.create(
            name=name,
            slug=unique_slug(Club.objects.all(), name, fallback="club"),
            description=description.strip(),
            public=public,
            created_by=created_by,
        )
        Membership.objects.create(club=club, user=created_by, role=ORGANIZER)
    return club


def club_invite(*, club: Club, actor: User, email: str, role: str = Membership.Role.PLAYER) -> ClubInvitation:
    """An invitation mailed as a link; whoever follows it while it is valid joins the club. The club's record
    says who invited whom."""
    with transaction.atomic():
        invitation = _invitation_send(club=club, actor=actor, email=email, role=role)
        text = f"{actor.name} invited {invitation.email} as {_role_word(invitation.role)}."
        club_audit(club, AuditEntry.Kind.INVITATION, text, actor=actor, data={"invitation": invitation.pk})
    return invitation


def _role_word(role: str) -> str:
    return f"an {Membership.Role(role).label.lower()}" if role == ORGANIZER else "a player"


def _invitation_send(*, club: Club, actor: User, email: str, role: str) -> ClubInvitation:
    """A new invitation made and mailed, within the limits (``club_invite``'s and a resend's work)."""
    check_organizer(club, actor)
    email = (email or "").strip().lower()
    if "@" not in email:
        raise LeagueRefused("Give the email address of the person to invite.")
    if role not in Membership.Role.values:
        raise LeagueRefused("A member is either an organizer or a player.")
    if Membership.objects.filter(club=club, user__email__iexact=email).exists():
        raise LeagueRefused(f"{email} is already a member of {club.name}.")
    with transaction.atomic():
        _check_club_invitation_limits(club=club, inviter=actor, email=email)
        invitation = ClubInvitation.objects.create(
            club=club,
            email=email,
            role=role,
            token=secrets.token_urlsafe(24),
            invited_by=actor,
            expires_at=timezone.now() + timedelta(days=INVITATION_DAYS),
        )
        _invitation_mail(invitation)
    return invitation


def club_invitation_resend(*, invitation: ClubInvitation, actor: User) -> ClubInvitation:
    """A fresh invitation to the same address (and role), mailed within the limits; the old link stops working."""
    with transaction.atomic():
        old = _invitation_open(invitation, actor)
        old.expires_at = timezone.now()
        old.save(update_fields=["expires_at"])
        fresh = _invitation_send(club=old.club, actor=actor, email=old.email, role=old.role)
        text = f"{actor.name} sent the invitation to {old.email} again; the old link no longer works."
        club_audit(old.club, AuditEntry.Kind.INVITATION, text, actor=actor, data={"old": old.pk, "new": fresh.pk})
        return fresh


def club_invitation_cancel(*, invitation: ClubInvitation, actor: User) -> ClubInvitation:
    """The invitation's link stops working at once: whoever follows it is told it has expired."""
    with transaction.atomic():
        old = _invitation_open(invitation, actor)
        old.expires_at = timezone.now()
        old.save(update_fields=["expires_at"])
        text = f"{actor.name} cancelled the invitation to {old.email}."
        club_audit(old.club, AuditEntry.Kind.INVITATION, text, actor=actor, data={"invitation": old.pk})
    return old


def _invitation_open(invitation: ClubInvitation, actor: User) -> ClubInvitation:
    """The invitation locked, once it is sure the actor organizes its club and nobody has used it yet."""
    check_organizer(invitation.club_id, actor)
    locked = ClubInvitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    if locked.accepted_at is not None:
        raise LeagueRefused(f"{locked.email} has accepted this invitation already.")
    if locked.expires_at <= timezone.now():
        raise LeagueRefused(f"The invitation to {locked.email} has expired or was cancelled already.")
    return locked


def _check_club_invitation_limits(*, club: Club, inviter: User, email: str) -> None:
    """Refuse an invitation past the limits, before anything is written: a club is not a way to mail anyone.

    Counted from the database, so the limits hold across processes: the club's open invitations, the
    organizer's invitations of the last day (from any of their clubs), and the club invitation mails the
    address was sent in the last day by every club together (the outbox keeps them even if a club is
    deleted). The inviter's and the club's rows are locked so that two requests count one after the
    other. The sentences are the same whether or not the address has an account.
    """
    User.objects.select_for_update().filter(pk=inviter.pk).first()
    Club.objects.select_for_update().filter(pk=club.pk).first()
    now = timezone.now()
    since = now - timedelta(days=1)
    most = settings.LEAGUES_CLUB_INVITATIONS_PENDING_MAX
    pending = ClubInvitation.objects.filter(club=club, accepted_at=None, expires_at__gt=now).count()
    if pending >= most:
        raise LeagueRefused(
            f"This club already has {plural(pending, 'invitation')} waiting for an answer, the most a club can "
            f"have. Wait until some are accepted or expire (after {INVITATION_DAYS} days)."
        )
    most = settings.LEAGUES_CLUB_INVITATIONS_PER_DAY
    sent = ClubInvitation.objects.filter(invited_by=inviter, created_at__gte=since).count()
    if sent >= most:
        raise LeagueRefused(
            f"You can send at most {plural(most, 'club invitation')} a day; you have sent {sent} since this "
            "time yesterday. Try again tomorrow."
        )
    most = settings.LEAGUES_CLUB_INVITATIONS_PER_ADDRESS_PER_DAY
    mailed = Mail.objects.filter(recipient=email, dedupe_key__startswith="club-invite:", created_at__gte=since)
    if mailed.count() >= most:
        raise LeagueRefused(
            f"{email} has had {plural(most, 'club invitation')} in the last day, the most one address gets "
            "from all clubs together; invite it again tomorrow."
        )


def invitation_url(token: str) -> str:
    try:
        return reverse("leagues-invite", args=[token])
    except NoReverseMatch:  # the pages come with the views; the link is still the token's address
        return f"/leagues/invitations/{token}/"


def _invitation_mail(invitation: ClubInvitation) -> None:
    inviter = invitation.invited_by
    # Chosen by the organizer: quoted in the body, never in the subject, without control characters.
    context = {
        "club_name": mail_safe(invitation.club.name),
        "inviter_name": mail_safe(inviter.name) if inviter is not None else "",
        "url": absolute_url(invitation_url(invitation.token)),
        "days": INVITATION_DAYS,
    }
    # No ``inviter``: the outbox counts a player's match invitation mails by it, and a club invitation is
    # held to the club's own limits (``_check_club_invitation_limits``).
    mail_queue(
        key=f"club-invite:{invitation.pk}",
        recipient=invitation.email,
        user=User.objects.filter(email__iexact=invitation.email).first(),
        template="leagues/mail/club_invite",
        context=context,
    )


def club_join(*, user: User, token: str | None = None, club: Club | None = None) -> Membership:
    """Join from an invitation's link, or join a public club directly; the club's record says which."""
    with transaction.atomic():
        role: str = Membership.Role.PLAYER
        accepted: ClubInvitation | None = None
        if token:
            # A made-up link (any text, a NUL byte even) is an unknown invitation, never a database error.
            well_formed = INVITE_TOKEN.fullmatch(token) is not None
            found = ClubInvitation.objects.select_for_update().select_related("club").filter(token=token)
            invitation = found.first() if well_formed else None
            if invitation is None or invitation.accepted_at is not None:
                raise LeagueRefused("This invitation has already been used or does not exist.")
            if invitation.expires_at < timezone.now():
                raise LeagueRefused("This invitation has expired; ask the club's organizer for a new one.")
            club, role = invitation.club, invitation.role
            invitation.accepted_at, invitation.accepted_by = timezone.now(), user
            invitation.save(update_fields=["accepted_at", "accepted_by"])
            accepted = invitation
        elif club is None:
            raise LeagueRefused("Which club do you want to join?")
        elif not club.public:
            raise LeagueRefused("This club is private: you need an invitation to join it.")
        membership, created = Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
        if not created and not token:
            raise LeagueRefused(f"You are already a member of {club.name}.")
        promoted = not created and role == ORGANIZER and membership.role != ORGANIZER
        if promoted:
            membership.role = ORGANIZER
            membership.save(update_fields=["role"])
        if accepted is not None:
            _accepted_record(accepted, user, joined=created, promoted=promoted)
        else:
            club_audit(
                club, AuditEntry.Kind.MEMBER, f"{user.name} joined the club.", actor=user, data={"user": user.pk}
            )
    return membership


def _accepted_record(invitation: ClubInvitation, user: User, *, joined: bool, promoted: bool) -> None:
    """The club's record of an accepted invitation: who accepted the one sent by whom to which address, and
    what it made them (the link is the credential: the person who follows it may use another address)."""
    inviter = invitation.invited_by.name if invitation.invited_by is not None else "a former organizer"
    if joined:
        then = f"joined as {_role_word(invitation.role)}"
    elif promoted:
        then = "became an organizer (a member already)"
    else:
        then = "was a member already"
    text = f"{user.name} accepted the invitation {inviter} sent to {invitation.email} and {then}."
    data = {"invitation": invitation.pk, "user": user.pk, "invited_by": invitation.invited_by_id}
    club_audit(invitation.club, AuditEntry.Kind.INVITATION, text, actor=user, data=data)


def member_set_role(*, club: Club, actor: User, user: User, role: str) -> Membership:
    if role not in Membership.Role.values:
        raise LeagueRefused("A member is either an organizer or a player.")
    with transaction.atomic():
        check_organizer(club, actor)
        memberships = list(Membership.objects.select_for_update().filter(club=club))
        membership = next((m for m in memberships if m.user_id == user.pk), None)
        if membership is None:
            raise LeagueRefused("That person is not a member of this club.")
        organizers = [m for m in memberships if m.role == ORGANIZER]
        if role != ORGANIZER and organizers == [membership]:
            raise LeagueRefused("A club needs at least one organizer: make someone else an organizer first.")
        if membership.role != role:
            was = Membership.Role(membership.role).label.lower()
            membership.role = role
            membership.save(update_fields=["role"])
            text = f"{actor.name} made {user.name} {Membership.Role(role).label.lower()} (was {was})."
            club_audit(club, AuditEntry.Kind.MEMBER, text, actor=actor, data={"user": user.pk, "role": role})
    return membership


# What happens to a removed member's seat, as the confirmation page and the season's record say it.
SEAT_TO_BOT = (
    "a bot of the league's level takes their seat: it plays out their matches in progress and sits at their "
    "tables still to come, for nobody's standings; what they scored so far stays"
)
REGISTRATION_WITHDRAWN = "their registration is withdrawn"


def member_remove(*, club: Club, actor: User, user: User) -> None:
    """An organizer removes a member, or a member leaves; the last organizer cannot go.

    Their entries go with them (``_entries_leave``): withdrawn from seasons not yet started, and in a running
    season their seat goes to a bot (``SEAT_TO_BOT``), so the other players' matches go on.
    """
    with transaction.atomic():
        if actor.pk != user.pk:
            check_organizer(club, actor)
        memberships = list(Membership.objects.select_for_update().filter(club=club))
        membership = next((m for m in memberships if m.user_id == user.pk), None)
        if membership is None:
            raise LeagueRefused("That person is not a member of this club.")
        if [m for m in memberships if m.role == ORGANIZER] == [membership]:
            raise LeagueRefused("A club needs at least one organizer: make someone else an organizer first.")
        membership.delete()
        text = f"{user.name} left the club." if actor.pk == user.pk else f"{actor.name} removed {user.name}."
        club_audit(club, AuditEntry.Kind.MEMBER, text, actor=actor, data={"user": user.pk})
        _entries_leave(club, user, actor)


def _entries_leave(club: Club, user: User, actor: User) -> None:
    before_start = (Season.Status.DRAFT, Season.Status.REGISTRATION, Season.Status.CLOSED)
    entries = Entrant.objects.filter(user=user, season__league__club=club).exclude(
        season__status=Season.Status.FINISHED
    )
    for entrant in entries.select_related("season__league"):
        season = entrant.season
        if season.status in before_start:
            drawn = season.round_set.exists()
            season.round_set.all().delete()  # the draw seated them: it is made again without them
            entrant.delete()
            again = " (the fixtures must be drawn again)" if drawn else ""
            text = f"{user.name} left {club.name}: {REGISTRATION_WITHDRAWN}{again}."
        else:
            tables = _seats_to_bot(entrant, season)
            text = f"{user.name} left {club.name}: at {plural(tables, 'table')} still to play, {SEAT_TO_BOT}."
        audit(season, AuditEntry.Kind.SEASON, text, actor=actor)


def _seats_to_bot(entrant: Entrant, season: Season) -> int:
    """The entrant's uncounted tables become bot seats; a bot plays on in their matches in progress."""
    level = season.league.timeout_bot_level
    fixtures = [
        f
        for f in Fixture.objects.filter(round__season=season, counted_at=None).select_related("match")
        if entrant.pk in f.seats
    ]
    for fixture in fixtures:
        fixture.seats = [None if e == entrant.pk else e for e in fixture.seats]
        match = fixture.match
        if match is not None and match.status == Match.Status.ACTIVE:
            Match.objects.select_for_update().filter(pk=match.pk).first()  # no move slips in between
            Seat.objects.filter(match=match, user_id=entrant.user_id).update(
                bot_level=level, notified_at=None, deadline=None
            )
            awaiting = Seat.objects.filter(match=match, user_id=entrant.user_id, awaiting=True)
            version = Match.objects.filter(pk=match.pk).values_list("version", flat=True).get()
            for number in awaiting.values_list("number", flat=True):
                transaction.on_commit(partial(enqueue, "games.tasks.bot_move", match.pk, number, version))
    Fixture.objects.bulk_update(fixtures, ["seats"])
    return len(fixtures)
