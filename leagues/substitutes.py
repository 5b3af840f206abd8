"""Who cannot play a round, and who plays in their place: an entrant's unavailable rounds, the season's pool of
substitutes, and the seats offered to them.

An entrant says which rounds of a season they cannot play, by round number (so it can be said before the draw
exists), and may change it until that round opens. A season's substitutes are club members willing to take a
seat: an organizer adds or removes anyone of the club, a member volunteers or steps down themselves.

When a round opens (``leagues.rounds``) a bot takes the seat of an entrant who cannot play it, and when an
organizer records a forfeit at a table still playing (``leagues.results``) a bot plays the seat on; either way
the seat is offered by mail to the pool's substitutes who are not at a table of that round, each with a signed
link. The first to accept plays the seat on from the next move (``games.services.seat_substitute``); the
``SeatOffer`` row records from which move. The result still counts for the entrant, and the substitute earns no
standings points. Nobody accepts: the bot plays on, as it would have.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.core import signing
from django.db import transaction
from django.db.models import Count, Min, Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.errors import Refused
from games.models import Match, Move
from games.outbox import absolute_url, mail_queue, mail_safe
from games.services import seat_substitute
from leagues.clubs import check_organizer
from leagues.errors import LeagueRefused
from leagues.models import (
    AuditEntry,
    Entrant,
    Fixture,
    Membership,
    Round,
    Season,
    SeatOffer,
    Substitute,
    Unavailability,
)
from leagues.record import audit
from leagues.wording import table_name

# Seasons whose rounds are still to be played: availability and the pool can change only in these.
UPCOMING = (Season.Status.REGISTRATION, Season.Status.CLOSED, Season.Status.RUNNING)
OFFER_SALT = "leagues.seat-offer"
OFFER_MAX_AGE = timedelta(days=14)
OFFER_INVALID = "This link is not valid: it may have been copied incompletely."
OFFER_EXPIRED = "This offer has expired."


def season_locked(season: Season) -> Season:
    """The season again, locked with its league and club (as ``leagues.seasons`` locks it)."""
    return Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)


def opened_round_numbers(*, season: Season, division: int) -> set[int]:
    """The round numbers of the division that have opened: their availability is fixed."""
    opened = Round.objects.filter(season=season, division=division, opened_at__isnull=False)
    return set(opened.values_list("number", flat=True))


def unavailable_entrants(*, entrant_ids: Collection[int], round_number: int) -> set[int]:
    """Which of these entrants said they cannot play this round."""
    rows = Unavailability.objects.filter(entrant_id__in=list(entrant_ids), round_number=round_number)
    return set(rows.values_list("entrant_id", flat=True))


def availability_set(*, season: Season, user: User, unavailable: Iterable[int]) -> set[int]:
    """The rounds ``user`` cannot play in ``season`` become ``unavailable`` (the ones not yet open); returns them."""
    wanted = set(unavailable)
    with transaction.atomic():
        season = season_locked(season)
        if season.status not in UPCOMING:
            raise LeagueRefused("Availability can be changed only before or during the season.")
        entrant = Entrant.objects.filter(season=season, user=user).first()
        if entrant is None:
            raise LeagueRefused("Only the season's players say which rounds they cannot play.")
        outside = sorted(n for n in wanted if not 1 <= n <= season.rounds)
        if outside:
            raise LeagueRefused(f"This season has rounds 1 to {season.rounds}.")
        opened = opened_round_numbers(season=season, division=entrant.division)
        before = set(entrant.unavailable.values_list("round_number", flat=True))
        changed = sorted((wanted ^ before) & opened)
        if changed:
            raise LeagueRefused(f"Round {changed[0]} has opened: whether you play it can no longer change.")
        entrant.unavailable.filter(round_number__in=before - wanted).delete()
        Unavailability.objects.bulk_create(
            [Unavailability(entrant=entrant, round_number=n) for n in sorted(wanted - before)]
        )
    return wanted


def substitute_add(*, season: Season, actor: User, user: User) -> Substitute:
    """An organizer puts a club member into the season's substitute pool, or a member volunteers (``actor`` is
    ``user``)."""
    with transaction.atomic():
        season = season_locked(season)
        if actor.pk != user.pk:
            check_organizer(season.league.club_id, actor)
        if season.status not in UPCOMING:
            raise LeagueRefused("Substitutes are kept only for a season still to be played.")
        club = season.league.club
        if not Membership.objects.filter(club=club, user=user).exists():
            raise LeagueRefused(f"Only members of {club.name} can substitute in its leagues.")
        if Substitute.objects.filter(season=season, user=user).exists():
            who = "You are" if actor.pk == user.pk else f"{user.name} is"
            raise LeagueRefused(f"{who} already in this season's substitute pool.")
        substitute = Substitute.objects.create(season=season, user=user, added_by=actor)
        audit(season, AuditEntry.Kind.SEASON, f"{user.name} joined the substitute pool.", actor=actor)
    return substitute


def substitute_remove(*, season: Season, actor: User, user: User) -> None:
    """An organizer takes a member out of the pool, or a member steps down (``actor`` is ``user``)."""
    with transaction.atomic():
        season = season_locked(season)
        if actor.pk != user.pk:
            check_organizer(season.league.club_id, actor)
        deleted, _ = Substitute.objects.filter(season=season, user=user).delete()
        if not deleted:
            who = "You are" if actor.pk == user.pk else f"{user.name} is"
            raise LeagueRefused(f"{who} not in this season's substitute pool.")
        audit(season, AuditEntry.Kind.SEASON, f"{user.name} left the substitute pool.", actor=actor)


# --- a seat offered to the pool -----------------------------------------------------------------------------


def seated_in_round(round_: Round) -> set[int]:
    """The users who play at a table of the round: its entrants with a seat, and the substitutes who took one."""
    entrant_ids = {e for f in Fixture.objects.filter(round=round_) for e in f.seats if e is not None}
    users = set(Entrant.objects.filter(pk__in=entrant_ids).values_list("user_id", flat=True))
    taken = SeatOffer.objects.filter(fixture__round=round_, taken_by__isnull=False)
    return users | set(taken.values_list("taken_by_id", flat=True))


def offer_token(*, offer: SeatOffer, user: User) -> str:
    return signing.dumps({"o": offer.pk, "u": user.pk}, salt=OFFER_SALT)


def seat_offers_make(*, fixture: Fixture, seats: Collection[int]) -> list[SeatOffer]:
    """Offer these seats of the fixture (bots play them now) to the season's substitutes not at a table of the
    round, by mail; once per seat. The caller holds the round's or the match's lock."""
    fixture = Fixture.objects.select_related("round__season__league__club").get(pk=fixture.pk)
    season = fixture.round.season
    if season.status != Season.Status.RUNNING or fixture.match_id is None:
        return []
    busy = seated_in_round(fixture.round)
    # Only those still in the club: a member removed from it keeps no claim on its seats.
    members = Substitute.objects.filter(season=season, user__memberships__club_id=season.league.club_id)
    pool = [s.user for s in members.select_related("user") if s.user_id not in busy]
    made = []
    for number in sorted(seats):
        entrant_id = fixture.seats[number] if 0 <= number < len(fixture.seats) else None
        if entrant_id is None:
            continue
        offer, created = SeatOffer.objects.get_or_create(fixture=fixture, seat=number, entrant_id=entrant_id)
        if not created:
            continue
        made.append(offer)
        entrant = Entrant.objects.select_related("user").get(pk=entrant_id)
        for user in pool:
            url = absolute_url(reverse("leagues-seat-offer", args=[offer_token(offer=offer, user=user)]))
            mail_queue(
                key=f"seat-offer:{offer.pk}:{user.pk}",
                recipient=user.email,
                user=user,
                template="leagues/mail/seat_offer",
                context={
                    "name": mail_safe(user.name),
                    "player": mail_safe(entrant.user.name),
                    "table": table_name(fixture),
                    "season_name": mail_safe(season.name),
                    "league_name": mail_safe(season.league.name),
                    "accept_url": url,
                },
            )
    return made


@dataclass(frozen=True)
class OfferLink:
    offer: SeatOffer
    user_id: int


def offer_read(token: str) -> OfferLink:
    """The offer a link stands for; ``LeagueRefused`` with a sentence for a link altered, too old or gone."""
    try:
        data = signing.loads(token, salt=OFFER_SALT, max_age=OFFER_MAX_AGE)
    except signing.SignatureExpired:
        raise LeagueRefused(OFFER_EXPIRED) from None
    except signing.BadSignature:
        raise LeagueRefused(OFFER_INVALID) from None
    found = [data.get(k) for k in ("o", "u")] if isinstance(data, dict) else []
    ids = [n for n in found if type(n) is int and 0 < n < 2**63]
    if len(ids) != 2:
        raise LeagueRefused(OFFER_INVALID)
    offer = (
        SeatOffer.objects.select_related("fixture__round__season__league__club", "entrant__user", "taken_by")
        .filter(pk=ids[0])
        .first()
    )
    if offer is None:
        raise LeagueRefused("This seat is no longer offered.")
    return OfferLink(offer, ids[1])


def offer_problem(link: OfferLink, user: User | None) -> str | None:
    """Why this reader cannot take the offered seat now, in a sentence; None: they can."""
    offer = link.offer
    if user is not None and offer.taken_by_id == user.pk:
        return "You have already taken this seat: it is yours to play."
    if offer.is_taken:
        return "This seat has been taken by another substitute."
    if user is not None and user.pk != link.user_id:
        return "This offer was sent to another member: open it while logged in as them."
    match_id = offer.fixture.match_id
    status = None if match_id is None else Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    if status != Match.Status.ACTIVE:
        return "This table has finished: the seat is no longer offered."
    return None


def seat_offer_accept(*, token: str, user: User) -> SeatOffer:
    """The first substitute to accept takes the seat; everyone after is told it is taken, and nothing changes."""
    link = offer_read(token)
    with transaction.atomic():
        offer = (
            SeatOffer.objects.select_for_update(of=("self",))
            .select_related("fixture__round__season__league__club", "entrant__user", "taken_by")
            .get(pk=link.offer.pk)
        )
        link = OfferLink(offer, link.user_id)
        problem = offer_problem(link, user)
        if problem is not None:
            raise LeagueRefused(problem)
        season = offer.fixture.round.season
        still = Substitute.objects.filter(season=season, user=user, user__memberships__club_id=season.league.club_id)
        if not still.exists():
            raise LeagueRefused("You are no longer in this season's substitute pool.")
        if user.pk in seated_in_round(offer.fixture.round):
            raise LeagueRefused("You already play at a table in this round: the seat stays offered to the others.")
        match = offer.fixture.match
        assert match is not None  # offer_problem refused a table without an active match
        try:
            first = seat_substitute(match=match, number=offer.seat, user=user)
        except Refused as exc:
            raise LeagueRefused(str(exc)) from None
        offer.taken_by, offer.taken_at, offer.from_move = user, timezone.now(), first
        offer.save(update_fields=["taken_by", "taken_at", "from_move"])
        audit(
            season,
            AuditEntry.Kind.RESULT,
            f"{offer.stint_text()}.",
            actor=user,
            fixture=offer.fixture,
            data={"seat": offer.seat, "entrant": offer.entrant_id, "substitute": user.pk, "from_move": first},
        )
    return offer


def seats_never_played(*, fixture: Fixture) -> set[int]:
    """The seats at the table whose entrant made no move of their own: a bot (they were away, or timed out from
    the start) or a substitute played every move the log has there. Such an entrant is not rated on the table
    (``leagues.results``); one who made a single move of their own played part of it and is rated.

    Their own moves are the seat's player moves before a substitute's first (``SeatOffer.from_move``, counted
    from 1, is ply ``from_move - 1``). A seat the log has no move for at all (a match whose log is not all
    here) tells nothing, and is rated by its result as before. Two queries.
    """
    if fixture.match_id is None:
        return set()
    taken = dict(
        SeatOffer.objects.filter(fixture=fixture, taken_at__isnull=False, from_move__isnull=False).values_list(
            "seat", "from_move"
        )
    )
    rows = (
        Move.objects.filter(match_id=fixture.match_id)
        .values("seat")
        .annotate(n=Count("pk"), first=Min("ply", filter=Q(kind=Move.Kind.PLAYER)))
        .order_by()
    )
    logged = {row["seat"]: row["first"] for row in rows if row["n"]}
    people = [n for n, e in enumerate(fixture.seats) if e is not None]
    never: set[int] = set()
    for seat in people:
        if seat not in logged:
            continue
        first, substitute_from = logged[seat], taken.get(seat)
        if first is None or (substitute_from is not None and first >= substitute_from - 1):
            never.add(seat)
    return never
