"""Writes for clubs, leagues and seasons: each service checks who asks, then changes rows in one transaction.

Only a club's organizers manage it: its members, leagues, seasons, fixtures and results. What a
person may not do is refused with a ``Refused`` subclass whose message is for that person.

Results reach the standings once per fixture: ``fixture_count`` claims the fixture with a
conditional UPDATE on ``counted_at`` and, in the same transaction, adds the result's
contribution to the players' ``Standing`` rows and their ratings.
A forfeit or an adjustment replaces a fixture's stored result, and the standings get the
difference between the new contribution and the old one: nothing is recomputed from scratch
unless an organizer asks for ``standings_rebuild``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import partial
from typing import Any, Required, TypedDict, Unpack

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max, QuerySet
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from engine import get_game
from engine.bots import LEVELS
from engine.cards import places_from_scores
from games.clocks import TimeControl
from games.errors import Refused
from games.invitations import TOKEN as INVITE_TOKEN
from games.models import Mail, Match, Move, Seat
from games.services import SeatSpec, match_create
from leagues import fixtures as schedules
from leagues import ratings, tiebreaks
from leagues.models import (
    AuditEntry,
    Club,
    ClubInvitation,
    Entrant,
    Fixture,
    League,
    Membership,
    Rating,
    RatingChange,
    Round,
    Season,
    Standing,
)

log = logging.getLogger(__name__)

INVITATION_DAYS = 14
DEFAULT_ROUND_DAYS = 7
FORM_LENGTH = 5
# Karnoffel is played by two teams: seats 0 and 2 against 1 and 3.
PARTNER_GAMES = {"karnoffel": ((0, 2), (1, 3))}
DEFAULT_TIEBREAKS = ("points", "wins", "head_to_head", "game_score", "opponents_rating", "fewest_bot_moves")
ORGANIZER = Membership.Role.ORGANIZER


class LeagueRefused(Refused):
    """Something a person asked of a club, league or season that cannot be done (the message says why)."""


class NotOrganizer(LeagueRefused):
    """Only the club's organizers may do this; views may answer 403."""


# --- helpers ----------------------------------------------------------------


def is_organizer(*, club: Club, user: User | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(club=club, user=user, role=ORGANIZER).exists()


def _organizer(club: Club | int, user: User | None) -> None:
    club_id = club if isinstance(club, int) else club.pk
    if user is None or not Membership.objects.filter(club_id=club_id, user=user, role=ORGANIZER).exists():
        raise NotOrganizer("Only the club's organizers can do that.")


def _audit(
    season: Season | int,
    kind: str,
    text: str,
    *,
    actor: User | None = None,
    fixture: Fixture | None = None,
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    season_id = season if isinstance(season, int) else season.pk
    return AuditEntry.objects.create(
        season_id=season_id, kind=kind, text=text[:500], actor=actor, fixture=fixture, data=data or {}
    )


def plural(count: int, word: str, words: str | None = None) -> str:
    """ "1 table", "2 tables": audit texts are shown as they are written."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def _unique_slug(existing: QuerySet[Any], name: str, *, fallback: str) -> str:
    base = slugify(name)[:70] or fallback
    taken = set(existing.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def _locked_season(season: Season) -> Season:
    return Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)


def _enqueue(task: str, *args: Any) -> None:
    """Queue a task by name after commit; a broker outage leaves the work to the sweeps."""
    try:
        current_app.tasks[task].apply_async(args, retry=False)
    except Exception:
        log.exception("Could not queue %s%r", task, args)


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


# --- clubs ------------------------------------------------------------------


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
            slug=_unique_slug(Club.objects.all(), name, fallback="club"),
            description=description.strip(),
            public=public,
            created_by=created_by,
        )
        Membership.objects.create(club=club, user=created_by, role=ORGANIZER)
    return club


def club_invite(*, club: Club, actor: User, email: str, role: str = Membership.Role.PLAYER) -> ClubInvitation:
    """An invitation mailed as a link; whoever follows it while it is valid joins the club."""
    _organizer(club, actor)
    email = (email or "").strip().lower()
    if "@" not in email:
        raise LeagueRefused("Give the email address of the person to invite.")
    if role not in Membership.Role.values:
        raise LeagueRefused("A member is either an organizer or a player.")
    if Membership.objects.filter(club=club, user__email__iexact=email).exists():
        raise LeagueRefused(f"{email} is already a member of {club.name}.")
    with transaction.atomic():
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


def invitation_url(token: str) -> str:
    try:
        return reverse("leagues-invite", args=[token])
    except NoReverseMatch:  # the pages come with the views; the link is still the token's address
        return f"/leagues/invitations/{token}/"


def _invitation_mail(invitation: ClubInvitation) -> None:
    context = {
        "club": invitation.club,
        "inviter": invitation.invited_by,
        "url": _absolute(invitation_url(invitation.token)),
        "days": INVITATION_DAYS,
    }
    mail = Mail.objects.create(
        recipient=invitation.email,
        user=User.objects.filter(email__iexact=invitation.email).first(),
        subject=render_to_string("leagues/mail/club_invite_subject.txt", context).strip(),
        body=render_to_string("leagues/mail/club_invite.txt", context),
        dedupe_key=f"club-invite:{invitation.pk}",
    )
    transaction.on_commit(partial(_enqueue, "games.tasks.mail_send", mail.pk))


def club_join(*, user: User, token: str | None = None, club: Club | None = None) -> Membership:
    """Join from an invitation's link, or join a public club directly."""
    with transaction.atomic():
        role: str = Membership.Role.PLAYER
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
        elif club is None:
            raise LeagueRefused("Which club do you want to join?")
        elif not club.public:
            raise LeagueRefused("This club is private: you need an invitation to join it.")
        membership, created = Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
        if not created and not token:
            raise LeagueRefused(f"You are already a member of {club.name}.")
        if not created and role == ORGANIZER and membership.role != ORGANIZER:
            membership.role = ORGANIZER
            membership.save(update_fields=["role"])
    return membership


def member_set_role(*, club: Club, actor: User, user: User, role: str) -> Membership:
    if role not in Membership.Role.values:
        raise LeagueRefused("A member is either an organizer or a player.")
    with transaction.atomic():
        _organizer(club, actor)
        memberships = list(Membership.objects.select_for_update().filter(club=club))
        membership = next((m for m in memberships if m.user_id == user.pk), None)
        if membership is None:
            raise LeagueRefused("That person is not a member of this club.")
        organizers = [m for m in memberships if m.role == ORGANIZER]
        if role != ORGANIZER and organizers == [membership]:
            raise LeagueRefused("A club needs at least one organizer: make someone else an organizer first.")
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def member_remove(*, club: Club, actor: User, user: User) -> None:
    """An organizer removes a member, or a member leaves; the last organizer cannot go."""
    with transaction.atomic():
        if actor.pk != user.pk:
            _organizer(club, actor)
        memberships = list(Membership.objects.select_for_update().filter(club=club))
        membership = next((m for m in memberships if m.user_id == user.pk), None)
        if membership is None:
            raise LeagueRefused("That person is not a member of this club.")
        if [m for m in memberships if m.role == ORGANIZER] == [membership]:
            raise LeagueRefused("A club needs at least one organizer: make someone else an organizer first.")
        membership.delete()


# --- leagues and seasons ----------------------------------------------------


def default_place_points(table_size: int) -> list[float]:
    """4-2-1-0 at a table of four; otherwise one point less for each place down to nothing."""
    if table_size == 4:
        return [4, 2, 1, 0]
    return [float(table_size - place) for place in range(1, table_size + 1)]


class LeagueSettings(TypedDict, total=False):
    """A league's settings as ``league_create`` and ``league_update`` take them (checked by ``_league_fields``)."""

    name: Required[str]
    game: Required[str]
    table_size: Required[int]
    options: dict[str, Any] | None
    time_control: TimeControl | dict[str, Any] | None
    timeout_bot_level: str
    scoring: str
    place_points: Sequence[float] | None
    tiebreaks: Sequence[str] | None
    rated: bool


def league_create(*, club: Club, actor: User, **settings: Unpack[LeagueSettings]) -> League:
    _organizer(club, actor)
    fields = _league_fields(**settings)
    slug = _unique_slug(League.objects.filter(club=club), fields["name"], fallback="league")
    return League.objects.create(club=club, slug=slug, **fields)


def league_update(*, league: League, actor: User, **settings: Unpack[LeagueSettings]) -> League:
    """Change a league's settings; its address (slug) stays.

    The game and table size are fixed once a season has started (its fixtures and standings are built
    on them), and the scoring while a season is running (its points so far were counted that way).
    Tie-breaks may change at any time: the order is worked out when the standings are read.
    """
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        _organizer(league.club_id, actor)
        statuses = set(league.seasons.values_list("status", flat=True))
        started = statuses & {Season.Status.RUNNING, Season.Status.FINISHED}
        if started and (settings["game"], settings["table_size"]) != (league.game, league.table_size):
            raise LeagueRefused("The game and the table size cannot change once a season has started.")
        fields = _league_fields(**settings)
        scored = (fields["scoring"], fields["place_points"]) != (league.scoring, list(league.place_points))
        if Season.Status.RUNNING in statuses and scored:
            raise LeagueRefused("The scoring cannot change while a season is running: finish it first.")
        for key, value in fields.items():
            setattr(league, key, value)
        league.save(update_fields=list(fields))
    return league


def _league_fields(
    *,
    name: str,
    game: str,
    table_size: int,
    options: dict[str, Any] | None = None,
    time_control: TimeControl | dict[str, Any] | None = None,
    timeout_bot_level: str = Seat.BotLevel.BASIC,
    scoring: str = League.Scoring.PLACES,
    place_points: Sequence[float] | None = None,
    tiebreaks: Sequence[str] | None = None,
    rated: bool = True,
) -> dict[str, Any]:
    """A league's settings checked, as model fields."""
    name = (name or "").strip()
    if not name:
        raise LeagueRefused("Give the league a name.")
    try:
        module = get_game(game)
    except KeyError:
        raise LeagueRefused(f"There is no game called {game!r}.") from None
    if not module.MIN_PLAYERS <= table_size <= module.MAX_PLAYERS:
        raise LeagueRefused(
            f"{module.TITLE} is played by {module.MIN_PLAYERS} to {module.MAX_PLAYERS} players, not {table_size}."
        )
    try:
        options = module.validate_options(table_size, options or {})
    except ValueError as exc:
        raise LeagueRefused(str(exc)) from exc
    if timeout_bot_level not in LEVELS:
        raise LeagueRefused(f"Unknown bot level {timeout_bot_level!r}; the levels are: {', '.join(LEVELS)}.")
    if scoring not in League.Scoring.values:
        raise LeagueRefused("Score by points per place or by the game's own score.")
    return {
        "name": name,
        "game": game,
        "options": options,
        "table_size": table_size,
        "time_control": _time_control_json(time_control),
        "timeout_bot_level": timeout_bot_level,
        "scoring": scoring,
        "place_points": _checked_place_points(place_points, table_size),
        "tiebreaks": _checked_tiebreaks(tiebreaks),
        "rated": rated,
    }


def _time_control_json(value: TimeControl | dict[str, Any] | None) -> dict[str, int] | None:
    if value is None or isinstance(value, TimeControl):
        return None if value is None else value.to_json()
    try:
        control = TimeControl.from_json(value)
    except ValueError as exc:
        raise LeagueRefused(str(exc)) from exc
    return None if control is None else control.to_json()


def _checked_place_points(points: Sequence[float] | None, table_size: int) -> list[float]:
    if points is None or len(points) == 0:
        return default_place_points(table_size)
    if len(points) != table_size:
        raise LeagueRefused(f"Give points for each of the {table_size} places.")
    if any(isinstance(p, bool) or not isinstance(p, int | float) or p < 0 for p in points):
        raise LeagueRefused("Points per place are numbers of zero or more.")
    if any(a < b for a, b in zip(points, points[1:], strict=False)):
        raise LeagueRefused("A better place cannot earn fewer points than a worse one.")
    return [float(p) for p in points]


def _checked_tiebreaks(keys: Sequence[str] | None) -> list[str]:
    if keys is None:
        return [k for k in DEFAULT_TIEBREAKS if k in tiebreaks.TIEBREAKS]
    unknown = [k for k in keys if k not in tiebreaks.TIEBREAKS]
    if unknown:
        raise LeagueRefused(f"Unknown tie-break {unknown[0]!r}.")
    if len(set(keys)) != len(keys):
        raise LeagueRefused("Each tie-break can be chosen once.")
    if not keys:
        raise LeagueRefused("Choose at least one way to order the standings.")
    return list(keys)


def season_create(
    *,
    league: League,
    actor: User,
    rounds: int,
    name: str = "",
    starts_on: date | None = None,
    ends_on: date | None = None,
    divisions: int = 1,
    promote: int = 0,
    relegate: int = 0,
    round_mode: str = Season.RoundMode.ALL,
    fill: str = Season.Fill.BOTS,
    settle: str = Season.Settle.BOTS,
) -> Season:
    _organizer(league.club_id, actor)
    _check_season_numbers(rounds=rounds, divisions=divisions, promote=promote, relegate=relegate)
    if starts_on and ends_on and ends_on < starts_on:
        raise LeagueRefused("A season cannot end before it starts.")
    if (
        round_mode not in Season.RoundMode.values
        or fill not in Season.Fill.values
        or settle not in Season.Settle.values
    ):
        raise LeagueRefused("Choose how rounds open, how empty seats are filled and how late matches are settled.")
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).first()  # numbers one season at a time
        last = Season.objects.filter(league=league).order_by("-number").first()
        number = last.number + 1 if last else 1
        return Season.objects.create(
            league=league,
            name=(name or "").strip() or f"Season {number}",
            number=number,
            starts_on=starts_on,
            ends_on=ends_on,
            rounds=rounds,
            divisions=divisions,
            promote=promote,
            relegate=relegate,
            round_mode=round_mode,
            fill=fill,
            settle=settle,
            previous=last,
        )


def _check_season_numbers(*, rounds: int, divisions: int, promote: int, relegate: int) -> None:
    if not 1 <= rounds <= 100:
        raise LeagueRefused("A season has from 1 to 100 rounds.")
    if not 1 <= divisions <= 20:
        raise LeagueRefused("A season has from 1 to 20 divisions.")
    if promote < 0 or relegate < 0:
        raise LeagueRefused("Promotion and relegation are numbers of players, zero or more.")
    if divisions == 1 and (promote or relegate):
        raise LeagueRefused("Promotion and relegation need at least two divisions.")


def season_open_registration(*, season: Season, actor: User) -> Season:
    with transaction.atomic():
        season = _locked_season(season)
        _organizer(season.league.club_id, actor)
        if season.status not in (Season.Status.DRAFT, Season.Status.CLOSED):
            raise LeagueRefused("Registration can only open before the season starts.")
        if season.status == Season.Status.CLOSED and season.round_set.exists():
            # New entrants would not be in the draw: it is made again once registration closes.
            season.round_set.all().delete()
        season.status = Season.Status.REGISTRATION
        season.save(update_fields=["status"])
        _audit(season, AuditEntry.Kind.SEASON, "Registration opened.", actor=actor)
    return season


def season_close_registration(*, season: Season, actor: User) -> Season:
    with transaction.atomic():
        season = _locked_season(season)
        _organizer(season.league.club_id, actor)
        if season.status != Season.Status.REGISTRATION:
            raise LeagueRefused("Registration is not open.")
        season.status = Season.Status.CLOSED
        season.save(update_fields=["status"])
        count = season.entrants.count()
        _audit(season, AuditEntry.Kind.SEASON, f"Registration closed with {plural(count, 'player')}.", actor=actor)
    return season


def season_register(*, season: Season, user: User) -> Entrant:
    """A club member enters an open season; newcomers start in the bottom division."""
    with transaction.atomic():
        season = _locked_season(season)
        if season.status != Season.Status.REGISTRATION:
            raise LeagueRefused("Registration for this season is not open.")
        if not Membership.objects.filter(club_id=season.league.club_id, user=user).exists():
            raise LeagueRefused(f"Join {season.league.club.name} first to play in its leagues.")
        if Entrant.objects.filter(season=season, user=user).exists():
            raise LeagueRefused("You are already registered for this season.")
        entrant = Entrant.objects.create(season=season, user=user, division=season.divisions)
        Standing.objects.create(season=season, entrant=entrant, division=entrant.division)
    return entrant


def season_withdraw(*, season: Season, user: User) -> None:
    with transaction.atomic():
        season = _locked_season(season)
        if season.status != Season.Status.REGISTRATION:
            raise LeagueRefused("You can withdraw only while registration is open.")
        deleted, _ = Entrant.objects.filter(season=season, user=user).delete()
        if not deleted:
            raise LeagueRefused("You are not registered for this season.")


def entrant_set_division(*, entrant: Entrant, actor: User, division: int) -> Entrant:
    with transaction.atomic():
        season = _locked_season(entrant.season)
        _organizer(season.league.club_id, actor)
        if season.status not in (Season.Status.DRAFT, Season.Status.REGISTRATION, Season.Status.CLOSED):
            raise LeagueRefused("Divisions are fixed once the season has started.")
        if not 1 <= division <= season.divisions:
            raise LeagueRefused(f"This season has divisions 1 to {season.divisions}.")
        entrant.division = division
        entrant.save(update_fields=["division"])
        Standing.objects.filter(entrant=entrant).update(division=division)
        season.round_set.all().delete()  # the draw was for the old divisions
    return entrant


# --- fixtures and rounds ----------------------------------------------------


def fixtures_generate(*, season: Season, actor: User, seed: int | None = None) -> list[Round]:
    """The draw for every division, stored as rounds and tables without matches; it may be made again until the start."""
    with transaction.atomic():
        season = _locked_season(season)
        league = season.league
        _organizer(league.club_id, actor)
        if season.status != Season.Status.CLOSED:
            raise LeagueRefused("Close registration before making the fixtures; they cannot change once it starts.")
        season.seed = secrets.randbits(31) if seed is None else seed
        season.save(update_fields=["seed"])
        season.round_set.all().delete()
        by_division: dict[int, list[int]] = {}
        for entrant_id, division in season.entrants.order_by("seed_rank", "pk").values_list("pk", "division"):
            by_division.setdefault(division, []).append(entrant_id)
        if not by_division:
            raise LeagueRefused("Nobody has registered for this season.")
        made: list[Round] = []
        for division, ids in sorted(by_division.items()):
            made += _division_fixtures(season, league, division, ids)
        tables = Fixture.objects.filter(round__season=season).count()
        _audit(
            season,
            AuditEntry.Kind.ROUND,
            f"Fixtures made: {plural(season.rounds, 'round')}, {plural(tables, 'table')}.",
            actor=actor,
            data={"seed": season.seed},
        )
    return made


def _division_fixtures(season: Season, league: League, division: int, ids: list[int]) -> list[Round]:
    size = league.table_size
    if len(ids) < 2:
        raise LeagueRefused(f"Division {division} needs at least two players.")
    if season.fill == Season.Fill.BYES and len(ids) < size:
        raise LeagueRefused(f"Division {division} has {len(ids)} players, too few for tables of {size} without bots.")
    try:
        draw = schedules.schedule(
            ids,
            table_size=size,
            rounds=season.rounds,
            fill=season.fill,  # type: ignore[arg-type]  # the model's choices are the schedule's literals
            seed=season.seed + division,
            partners=league.game in PARTNER_GAMES,
        )
    except ValueError as exc:  # the schedule's sentence says what cannot be drawn
        raise LeagueRefused(str(exc)) from exc
    made, fixtures = [], []
    for number, drawn in enumerate(draw, start=1):
        opens_at, play_by = _round_dates(season, number)
        round_ = Round.objects.create(
            season=season, number=number, division=division, opens_at=opens_at, play_by=play_by, byes=list(drawn.byes)
        )
        made.append(round_)
        fixtures += [
            Fixture(round=round_, table_number=n, seats=list(table.seats))
            for n, table in enumerate(drawn.tables, start=1)
        ]
    Fixture.objects.bulk_create(fixtures)
    return made


def _round_dates(season: Season, number: int) -> tuple[datetime | None, datetime | None]:
    """Rounds share the season's dates evenly (a week each when it has no end); the organizer may change them."""
    if season.starts_on is None:
        return None, None
    start = datetime.combine(season.starts_on, time(0, 0), tzinfo=UTC)
    if season.ends_on is not None:
        span = (datetime.combine(season.ends_on, time(23, 59), tzinfo=UTC) - start) / season.rounds
    else:
        span = timedelta(days=DEFAULT_ROUND_DAYS)
    return start + span * (number - 1), start + span * number


def round_update(
    *, round: Round, actor: User, play_by: datetime | None = None, opens_at: datetime | None = None
) -> Round:
    with transaction.atomic():
        locked = Round.objects.select_for_update().select_related("season__league").get(pk=round.pk)
        _organizer(locked.season.league.club_id, actor)
        if locked.settled_at is not None:
            raise LeagueRefused("This round has been settled; its dates cannot change.")
        if play_by is not None:
            locked.play_by = play_by
        if opens_at is not None:
            if locked.opened_at is not None:
                raise LeagueRefused("This round is already open.")
            locked.opens_at = opens_at
        locked.save(update_fields=["play_by", "opens_at"])
    return locked


def season_start(*, season: Season, actor: User) -> Season:
    """The matches of the first round (or of every round) are made; the players see them on their dashboard."""
    with transaction.atomic():
        season = _locked_season(season)
        _organizer(season.league.club_id, actor)
        if season.status != Season.Status.CLOSED:
            raise LeagueRefused("Close registration and make the fixtures before starting the season.")
        rounds = list(season.round_set.order_by("division", "number"))
        if not rounds:
            raise LeagueRefused("Make the fixtures before starting the season.")
        season.status = Season.Status.RUNNING
        season.save(update_fields=["status"])
        _standings_ensure(season)
        _audit(season, AuditEntry.Kind.SEASON, "The season started.", actor=actor)
        for round_ in rounds:
            if season.round_mode == Season.RoundMode.ALL or round_.number == 1:
                _round_open(round_, season, actor)
        _season_start_mail(season)
    return season


def _season_start_mail(season: Season) -> None:
    """Every entrant hears that the season started and where their matches are (once: the mails are deduplicated)."""
    league = season.league
    url = _absolute(reverse("leagues-season", args=[league.club.slug, league.slug, season.number]))
    for entrant in season.entrants.select_related("user"):
        context = {"season": season, "league": league, "club": league.club, "user": entrant.user, "url": url}
        mail, created = Mail.objects.get_or_create(
            dedupe_key=f"season-start:{season.pk}:{entrant.user_id}",
            defaults={
                "recipient": entrant.user.email,
                "user": entrant.user,
                "subject": render_to_string("leagues/mail/season_started_subject.txt", context).strip(),
                "body": render_to_string("leagues/mail/season_started.txt", context),
            },
        )
        if created:
            transaction.on_commit(partial(_enqueue, "games.tasks.mail_send", mail.pk))


def _standings_ensure(season: Season) -> None:
    have = set(Standing.objects.filter(season=season).values_list("entrant_id", flat=True))
    Standing.objects.bulk_create(
        Standing(season=season, entrant_id=pk, division=division)
        for pk, division in season.entrants.values_list("pk", "division")
        if pk not in have
    )


def round_open(*, round: Round, actor: User | None = None) -> Round:
    """Create the round's matches (idempotent); an organizer may open a round before its date."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        season = Season.objects.select_related("league__club").get(pk=locked.season_id)
        if actor is not None:
            _organizer(season.league.club_id, actor)
        if season.status != Season.Status.RUNNING:
            raise LeagueRefused("Rounds open once the season has started.")
        _round_open(locked, season, actor)
    return locked


def _round_open(round_: Round, season: Season, actor: User | None) -> None:
    if round_.opened_at is not None:
        return
    league = season.league
    fixtures = list(round_.fixtures.filter(match=None))
    ids = {e for f in fixtures for e in f.seats if e is not None}
    users = {e.pk: e.user for e in Entrant.objects.filter(pk__in=ids).select_related("user")}
    extra = _match_extras(league)
    for fixture in fixtures:
        specs = [
            SeatSpec(bot=league.timeout_bot_level) if e is None else SeatSpec(user=users[e]) for e in fixture.seats
        ]
        fixture.match = match_create(
            game=league.game,
            players=len(specs),
            options=league.options,
            created_by=actor,
            private=not league.club.public,
            seats=specs,
            **extra,
        )
    Fixture.objects.bulk_update(fixtures, ["match"])
    round_.opened_at = timezone.now()
    round_.save(update_fields=["opened_at"])
    _audit(
        season,
        AuditEntry.Kind.ROUND,
        f"{_round_name(round_, season)} opened: {plural(len(fixtures), 'table')}.",
        actor=actor,
    )


def _match_extras(league: League) -> dict[str, Any]:
    """The league's clock and the bot that plays a timed-out turn, for ``match_create``."""
    return {"time_control": TimeControl.from_json(league.time_control), "timeout_bot_level": league.timeout_bot_level}


def _round_name(round_: Round, season: Season) -> str:
    return f"Round {round_.number}" + (f" of division {round_.division}" if season.divisions > 1 else "")


def _round_next(round_: Round, season: Season) -> None:
    """Sequential seasons: the next round opens once every table of this one is counted."""
    if season.round_mode != Season.RoundMode.SEQUENTIAL or season.status != Season.Status.RUNNING:
        return
    if Fixture.objects.filter(round=round_, counted_at=None).exists():
        return
    following = (
        Round.objects.select_for_update()
        .filter(season=season, division=round_.division, number=round_.number + 1, opened_at=None)
        .first()
    )
    if following is not None:
        _round_open(following, season, None)


def round_settle(*, round: Round, actor: User | None = None) -> Round:
    """Past "play by": the unfinished matches are played out by bots or scored as they stand, as the season says."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        season = Season.objects.select_related("league__club").get(pk=locked.season_id)
        if actor is not None:
            _organizer(season.league.club_id, actor)
        if locked.settled_at is not None:
            return locked
        if locked.opened_at is None:
            raise LeagueRefused("This round has not opened yet.")
        open_fixtures = list(
            locked.fixtures.filter(counted_at=None, match__status=Match.Status.ACTIVE).select_related("match")
        )
        tables = [f.table_number for f in open_fixtures]
        if season.settle == Season.Settle.BOTS:
            for fixture in open_fixtures:
                _bots_take_over(fixture, season.league)
        else:
            for fixture in open_fixtures:
                _score_as_it_stands(fixture, season, actor)
        locked.settled_at = timezone.now()
        locked.save(update_fields=["settled_at"])
        name = _round_name(locked, season)
        one = len(tables) == 1
        which = f"the unfinished {'table' if one else 'tables'} {', '.join(map(str, tables))}"
        if not tables:
            text = f"{name} passed its play-by date with every table finished."
        elif season.settle == Season.Settle.BOTS:
            text = f"{name} passed its play-by date: bots play out {which}."
        else:
            stood = "was scored as it stood" if one else "were scored as they stood"
            text = f"{name} passed its play-by date: {which} {stood}."
        _audit(season, AuditEntry.Kind.SETTLE, text, actor=actor, data={"tables": tables, "settle": season.settle})
    return locked


def _bots_take_over(fixture: Fixture, league: League) -> None:
    """The people at the table hand their seats to bots of the league's level; games' bot tasks do the rest."""
    match = fixture.match
    assert match is not None  # the query selected fixtures with an active match
    Match.objects.select_for_update().filter(pk=match.pk).first()  # no move slips in between
    Seat.objects.filter(match=match, bot_level="").update(
        bot_level=league.timeout_bot_level, notified_at=None, deadline=None
    )
    awaiting = list(Seat.objects.filter(match=match, awaiting=True).values_list("number", flat=True))
    version = Match.objects.filter(pk=match.pk).values_list("version", flat=True).get()
    for number in awaiting:
        transaction.on_commit(partial(_enqueue, "games.tasks.bot_move", match.pk, number, version))


def _score_as_it_stands(fixture: Fixture, season: Season, actor: User | None) -> None:
    assert fixture.match_id is not None  # the query selected fixtures with an active match
    match = Match.objects.select_for_update().get(pk=fixture.match_id)
    scores = [float(s) for s in match.engine.view(match.state, None)["scores"]]
    _match_abandon(match)
    claimed = Fixture.objects.filter(pk=fixture.pk, counted_at=None).update(counted_at=timezone.now())
    if claimed:
        fixture.round.season = season
        result = _result(
            fixture, season.league, places=places_from_scores(scores), scores=scores, bot_moves=_bot_moves(match)
        )
        names = _fixture_store(fixture, None, result, how=Fixture.How.AS_STANDS)
        text = f"{_table_name(fixture)} scored as it stood: {_result_text(fixture, result, names)}."
        _audit(season, AuditEntry.Kind.SETTLE, text, actor=actor, fixture=fixture)


def _match_abandon(match: Match) -> None:
    """The match stops where it is: nobody is awaited any more and no deadline runs."""
    now = timezone.now()
    Match.objects.filter(pk=match.pk, status=Match.Status.ACTIVE).update(
        status=Match.Status.ABANDONED, finished_at=now, updated_at=now
    )
    Seat.objects.filter(match=match).update(awaiting=False, deadline=None)


# --- results ----------------------------------------------------------------


@dataclass(frozen=True)
class _Seat:
    entrant: int | None
    place: int


# What a league reads of a match: never the state, the log or the chat.
_MATCH_HEAVY = tuple(f"match__{name}" for name in ("state", "recent_moves", "recent_chat", "options"))


def fixture_count(*, match_id: int) -> bool:
    """Add a finished match's result to its season's standings, once; True if this call did it.

    A match that ended abandoned (stopped by the games app, not finished) makes its table void:
    recorded as such and counted for nobody (see ``_fixture_void``).
    """
    with transaction.atomic():
        fixture = next(
            iter(
                Fixture.objects.select_related("round__season__league", "match")
                .defer(*_MATCH_HEAVY)
                .filter(match_id=match_id, counted_at=None)
            ),
            None,
        )
        if fixture is None or fixture.match is None:
            return False
        return _fixture_count(fixture, fixture.round.season, follow=True)


def _fixture_count(fixture: Fixture, season: Season, *, follow: bool) -> bool:
    """Claim the fixture and add its ended match's result (or make it void); ``follow`` opens the next round."""
    assert fixture.match is not None  # the callers selected fixtures with a match
    if fixture.match.status not in (Match.Status.FINISHED, Match.Status.ABANDONED):
        return False
    if not Fixture.objects.filter(pk=fixture.pk, counted_at=None).update(counted_at=timezone.now()):
        return False  # someone else counted it first
    if fixture.match.status == Match.Status.ABANDONED:
        _fixture_void(fixture, season, "its match was abandoned before it finished")
    elif season.is_frozen:
        _audit(season, AuditEntry.Kind.RESULT, f"{_table_name(fixture)} finished after the season was frozen.")
        return True
    else:
        _fixture_result(fixture, season)
    if follow:
        _round_next(fixture.round, season)
    return True


def _fixture_void(fixture: Fixture, season: Season, why: str, *, actor: User | None = None) -> None:
    """The table counts for nobody: no points, no game played, no rating change; the record says why.

    The fixture is already claimed (``counted_at``). A club cannot tell from an abandoned match who
    was at fault, so nobody wins or loses it; an organizer who knows better records a forfeit or
    adjusts the result, which replaces the void like any other result.
    """
    Fixture.objects.filter(pk=fixture.pk).update(how=Fixture.How.VOID, result=None)
    fixture.how, fixture.result = Fixture.How.VOID, None
    _audit(
        season,
        AuditEntry.Kind.RESULT,
        f"{_table_name(fixture)} is void: {why}. It counts for nobody.",
        actor=actor,
        fixture=fixture,
        data={"void": why, **({"match": fixture.match_id} if fixture.match_id else {})},
    )


def _fixture_result(fixture: Fixture, season: Season) -> None:
    """The finished match's places and scores into the standings and the ratings, with a line in the record."""
    assert fixture.match is not None
    match_id = fixture.match.pk
    outcome = fixture.match.outcome or {}
    scores = [float(s) for s in outcome.get("scores", [])]
    result = _result(
        fixture, season.league, places=list(outcome["places"]), scores=scores, bot_moves=_bot_moves(fixture.match)
    )
    lines = _lines_locked(fixture)
    held = _ratings_locked(season.league.game, lines) if season.league.rated else None
    names = _fixture_store(fixture, None, result, how=Fixture.How.PLAYED, lines=lines, held=held)
    if held is not None:
        _rate(fixture, season.league, result, lines, held)
    _audit(
        season,
        AuditEntry.Kind.RESULT,
        f"{_table_name(fixture)}: {_result_text(fixture, result, names)}.",
        fixture=fixture,
        data={"match": match_id},
    )


def _bot_moves(match: Match) -> list[int]:
    """Moves a bot made for each seat's player: the seat's count (timeouts, absence), plus the moves of
    a seat handed to a bot when its round passed its play-by date."""
    counts = [0] * match.players
    taken = []
    for number, n, level, user_id in Seat.objects.filter(match=match).values_list(
        "number", "bot_moves", "bot_level", "user_id"
    ):
        counts[number] = n
        if level and user_id is not None:
            taken.append(number)
    if taken:
        moves = Move.objects.filter(match=match, seat__in=taken, kind=Move.Kind.BOT)
        for row in moves.values("seat").annotate(n=Count("pk")).order_by():
            counts[row["seat"]] += row["n"]
    return counts


def _result(
    fixture: Fixture,
    league: League,
    *,
    places: list[int],
    scores: list[float] | None = None,
    bot_moves: list[int] | None = None,
) -> dict[str, Any]:
    """What a result adds to the standings, per seat: places, game scores, league points, bot moves."""
    n = len(fixture.seats)
    scores = scores if scores is not None and len(scores) == n else [0.0] * n
    if league.scoring == League.Scoring.GAME_SCORE:
        points = list(scores)
    else:
        points = [_place_points(place, places, league.place_points) for place in places]
    return {
        "places": places,
        "scores": scores,
        "points": points,
        "bot_moves": bot_moves if bot_moves is not None else [0] * n,
    }


def _place_points(place: int, places: Sequence[int], scheme: Sequence[float]) -> float:
    """Players sharing a place share the points of the places they cover (1, 1, 3: both get (4 + 2) / 2)."""
    return tiebreaks.points_for_place(place, scheme, tied=sum(1 for p in places if p == place))


def _fixture_store(
    fixture: Fixture,
    old: dict[str, Any] | None,
    new: dict[str, Any] | None,
    *,
    how: str,
    lines: dict[int, Standing] | None = None,
    held: dict[int, Rating] | None = None,
) -> dict[int, str]:
    """Replace what the fixture added to the standings by ``new``; returns the entrants' names by id.

    ``lines`` are the table's Standing rows, already locked (read here when not given); ``held`` the
    players' ratings, if the caller has them.
    """
    lines = lines if lines is not None else _lines_locked(fixture)
    if new is not None and old is None:
        new = {**new, "opponents_rating": _opponents_rating(fixture, lines, held)}
    elif new is not None and old is not None:
        new = {**new, "opponents_rating": old.get("opponents_rating", [0.0] * len(fixture.seats))}
    _standings_apply(fixture, lines, old, new)
    fixture.result, fixture.how = new, how
    Fixture.objects.filter(pk=fixture.pk).update(result=new, how=how)
    return {pk: row.entrant.user.name for pk, row in lines.items()}


def _lines_locked(fixture: Fixture) -> dict[int, Standing]:
    """The table's Standing rows with their players, locked in one order (no deadlock between two tables)."""
    ids = sorted({e for e in fixture.seats if e is not None})
    rows = {
        s.entrant_id: s
        for s in Standing.objects.select_for_update(of=("self",))
        .select_related("entrant__user")
        .filter(entrant_id__in=ids)
        .order_by("pk")
    }
    for pk in ids:
        if pk not in rows:  # an entrant the admin added after the start
            rows[pk] = Standing.objects.create(season_id=fixture.round.season_id, entrant_id=pk)
            rows[pk].entrant = Entrant.objects.select_related("user").get(pk=pk)
    return rows


def _ratings_locked(game: str, lines: dict[int, Standing]) -> dict[int, Rating]:
    """The players' ratings in ``game`` by entrant id, locked for the update; a newcomer's is made at the default.

    Locked in id order: two tables of different leagues of the same game may share players.
    """
    users = {pk: row.entrant.user_id for pk, row in lines.items()}
    have = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(game=game, user_id__in=users.values()).order_by("pk")
    }
    missing = [u for u in users.values() if u not in have]
    if missing:
        mu0, sigma0 = ratings.DEFAULT
        Rating.objects.bulk_create(
            [Rating(user_id=u, game=game, mu=mu0, sigma=sigma0, ordinal=ratings.ordinal(mu0, sigma0)) for u in missing],
            ignore_conflicts=True,  # another table made it meanwhile: the lock below waits for that one
        )
        have = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(game=game, user_id__in=users.values()).order_by("pk")
        }
    return {pk: have[u] for pk, u in users.items()}


def _opponents_rating(fixture: Fixture, lines: dict[int, Standing], held: dict[int, Rating] | None) -> list[float]:
    """Per seat, the sum of the people's ratings at the table besides it (bots have none), as they are now."""
    ids = [e for e in fixture.seats if e is not None]
    if held is None:
        game = fixture.round.season.league.game
        users = {pk: row.entrant.user_id for pk, row in lines.items()}
        shown = dict(Rating.objects.filter(game=game, user_id__in=users.values()).values_list("user_id", "ordinal"))
        default = ratings.ordinal(*ratings.DEFAULT)
        value = {e: shown.get(users[e], default) for e in ids}
    else:
        value = {e: held[e].ordinal for e in ids}
    return [sum(value[o] for o in ids if o != e) if e is not None else 0.0 for e in fixture.seats]


LINE_FIELDS = (
    *("played", "points", "wins", "game_score", "bot_moves"),
    *("opponents_rating_total", "opponents_met", "form", "points_by_round", "meetings"),
)


def _standings_apply(
    fixture: Fixture, lines: dict[int, Standing], old: dict[str, Any] | None, new: dict[str, Any] | None
) -> None:
    """Add ``new`` and take away ``old`` on the table's locked Standing rows.

    One plain UPDATE per row: for the four rows of a table that is cheaper than the CASE per column
    that ``bulk_update`` builds.
    """
    round_key = str(fixture.round.number)
    for seat, entrant in enumerate(fixture.seats):
        if entrant is not None:
            _line_apply(lines[entrant], fixture, seat, old, new, round_key)
    for row in lines.values():
        Standing.objects.filter(pk=row.pk).update(**{name: getattr(row, name) for name in LINE_FIELDS})


def _line_apply(
    row: Standing, fixture: Fixture, seat: int, old: dict[str, Any] | None, new: dict[str, Any] | None, key: str
) -> None:
    others = sum(1 for i, e in enumerate(fixture.seats) if e is not None and i != seat)
    for result, sign in ((old, -1), (new, 1)):
        if result is None:
            continue
        points = result["points"][seat]
        row.played += sign
        row.points += sign * points
        row.wins += sign * (result["places"][seat] == 1)
        row.game_score += sign * result["scores"][seat]
        row.bot_moves += sign * result["bot_moves"][seat]
        row.opponents_rating_total += sign * result.get("opponents_rating", [0.0] * len(fixture.seats))[seat]
        row.opponents_met += sign * others
        row.points_by_round = {**row.points_by_round, key: row.points_by_round.get(key, 0.0) + sign * points}
        meetings = dict(row.meetings)
        for other, opponent in enumerate(fixture.seats):
            if opponent is not None and other != seat:
                versus = str(opponent)
                meetings[versus] = meetings.get(versus, 0.0) + sign * _against(result["places"], seat, other)
        # Only what was won is kept: an opponent never finished ahead of reads as 0, and the row stays small.
        row.meetings = {k: v for k, v in meetings.items() if v}
    row.form = _form(row.form, fixture, None if new is None else new["places"][seat], old is None)


def _form(form: list[dict[str, Any]], fixture: Fixture, place: int | None, fresh: bool) -> list[dict[str, Any]]:
    """The last five places, oldest first; a corrected result changes its entry where it stands."""
    entry = {"fixture": fixture.pk, "place": place, "of": len(fixture.seats)}
    if place is None:
        return [f for f in form if f["fixture"] != fixture.pk]
    if any(f["fixture"] == fixture.pk for f in form):
        return [entry if f["fixture"] == fixture.pk else f for f in form]
    return [*form, entry][-FORM_LENGTH:] if fresh else form


def _against(places: list[int], seat: int, other: int) -> float:
    """Head-to-head at one table: 1 for finishing ahead of the other, a half for level, 0 behind."""
    return 1.0 if places[seat] < places[other] else 0.5 if places[seat] == places[other] else 0.0


def _rate(
    fixture: Fixture, league: League, result: dict[str, Any], lines: dict[int, Standing], held: dict[int, Rating]
) -> None:
    """Ratings move with the placings of the people at the table; bots are not rated, nor are their seats."""
    seats = fixture.seats
    groups = PARTNER_GAMES.get(league.game, tuple((i,) for i in range(len(seats))))
    teams = [[seats[i] for i in group if seats[i] is not None] for group in groups]
    places = [min(result["places"][i] for i in group) for group in groups]
    kept = [(team, place) for team, place in zip(teams, places, strict=True) if team]
    if len(kept) < 2:
        return
    before = [[(held[e].mu, held[e].sigma) for e in team] for team, _ in kept]
    after = ratings.rate(before, [place for _, place in kept])
    changes, now = [], timezone.now()
    for (team, _), new_team in zip(kept, after, strict=True):
        for entrant, (mu, sigma) in zip(team, new_team, strict=True):
            rating = held[entrant]
            shown = ratings.ordinal(mu, sigma)
            changes.append(
                RatingChange(
                    rating=rating,
                    fixture=fixture,
                    match_id=fixture.match_id,
                    mu=mu,
                    sigma=sigma,
                    ordinal=shown,
                    delta=shown - rating.ordinal,
                )
            )
            rating.mu, rating.sigma, rating.ordinal, rating.matches = mu, sigma, shown, rating.matches + 1
            Rating.objects.filter(pk=rating.pk).update(
                mu=mu, sigma=sigma, ordinal=shown, matches=rating.matches, updated_at=now
            )
    RatingChange.objects.bulk_create(changes)


def _table_name(fixture: Fixture) -> str:
    return f"Table {fixture.table_number} of round {fixture.round.number}"


def _result_text(fixture: Fixture, result: dict[str, Any], names: dict[int, str]) -> str:
    order = sorted(range(len(fixture.seats)), key=lambda i: result["places"][i])
    parts = []
    for i in order:
        entrant = fixture.seats[i]
        who = names.get(entrant, "?") if entrant is not None else "a bot"
        parts.append(f"{who} {_ordinal(result['places'][i])} ({result['points'][i]:g})")
    return ", ".join(parts)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --- corrections ------------------------------------------------------------


def _fixture_for_change(fixture: Fixture, actor: User, reason: str) -> tuple[Fixture, Season, str]:
    reason = (reason or "").strip()
    locked = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("round__season__league", "match")
        .get(pk=fixture.pk)
    )
    season = locked.round.season
    _organizer(season.league.club_id, actor)
    if not reason:
        raise LeagueRefused("Say why: the reason is shown to everyone in the season's record.")
    if season.status not in (Season.Status.RUNNING, Season.Status.FINISHED):
        raise LeagueRefused("Results can be recorded once the season has started.")
    return locked, season, reason[:300]


def result_forfeit(*, fixture: Fixture, actor: User, entrants: Iterable[Entrant | int], reason: str) -> Fixture:
    """The players named forfeit the table: they share the last places, everyone else shares the first.

    An unfinished match stops; a result already counted is replaced (the standings get the difference).
    With the game's own score as points, everyone at a forfeited table scores nothing.
    """
    with transaction.atomic():
        fixture, season, reason = _fixture_for_change(fixture, actor, reason)
        if season.is_frozen:
            raise LeagueRefused("The season's standings are final; adjust the result instead.")
        losers = {e if isinstance(e, int) else e.pk for e in entrants}
        if not losers or not losers <= {e for e in fixture.seats if e is not None}:
            raise LeagueRefused("Choose who forfeits among the players at this table.")
        stayed = sum(1 for e in fixture.seats if e not in losers)
        places = [stayed + 1 if e in losers else 1 for e in fixture.seats]
        if fixture.match is not None and fixture.match.status == Match.Status.ACTIVE:
            _match_abandon(fixture.match)
        old = fixture.result
        if fixture.counted_at is None:
            Fixture.objects.filter(pk=fixture.pk).update(counted_at=timezone.now())
        new = _result(fixture, season.league, places=places, bot_moves=(old or {}).get("bot_moves"))
        names = _fixture_store(fixture, old, new, how=Fixture.How.FORFEIT)
        who = ", ".join(sorted(names[e] for e in losers))
        _audit(
            season,
            AuditEntry.Kind.FORFEIT,
            f"{_table_name(fixture)}: {who} forfeited ({reason}). {_result_text(fixture, new, names)}.",
            actor=actor,
            fixture=fixture,
            data={"reason": reason, "before": old, "after": new},
        )
        _round_next(fixture.round, season)
    return fixture


def result_adjust(
    *, fixture: Fixture, actor: User, places: Sequence[int], reason: str, scores: Sequence[float] | None = None
) -> Fixture:
    """An organizer's correction of a table's places (and scores); the only change once a season is frozen.

    Ratings stay as they were: they move once per match played, in the order matches end.
    """
    with transaction.atomic():
        fixture, season, reason = _fixture_for_change(fixture, actor, reason)
        n = len(fixture.seats)
        if len(places) != n or any(isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= n for p in places):
            raise LeagueRefused(f"Give a place from 1 to {n} for each seat at the table.")
        old = fixture.result
        if scores is None:
            scores = (old or {}).get("scores")
        elif len(scores) != n:
            raise LeagueRefused(f"Give a score for each of the {n} seats.")
        if fixture.counted_at is None:
            Fixture.objects.filter(pk=fixture.pk).update(counted_at=timezone.now())
            if fixture.match is not None and fixture.match.status == Match.Status.ACTIVE:
                _match_abandon(fixture.match)
        new = _result(
            fixture,
            season.league,
            places=list(places),
            scores=None if scores is None else [float(s) for s in scores],
            bot_moves=(old or {}).get("bot_moves"),
        )
        names = _fixture_store(fixture, old, new, how=Fixture.How.ADJUSTED)
        _audit(
            season,
            AuditEntry.Kind.ADJUST,
            f"{_table_name(fixture)} adjusted ({reason}): {_result_text(fixture, new, names)}.",
            actor=actor,
            fixture=fixture,
            data={"reason": reason, "before": old, "after": new},
        )
        _round_next(fixture.round, season)
    return fixture


def standings_rebuild(*, season: Season, actor: User | None) -> None:
    """Recompute every Standing of the season from the fixtures' stored results, in playing order.

    Never needed in normal running: results are added one by one. This is the explicit repair.
    """
    with transaction.atomic():
        season = _locked_season(season)
        if actor is not None:
            _organizer(season.league.club_id, actor)
        Standing.objects.filter(season=season).delete()
        _standings_ensure(season)
        counted = (
            Fixture.objects.filter(round__season=season, result__isnull=False)
            .select_related("round__season__league")
            .order_by("counted_at", "pk")
        )
        for fixture in counted:
            _standings_apply(fixture, _lines_locked(fixture), None, fixture.result)
        _audit(season, AuditEntry.Kind.SEASON, "Standings recomputed from the results.", actor=actor)


# --- the end of a season ----------------------------------------------------


def season_finish(*, season: Season, actor: User, promote: int | None = None, relegate: int | None = None) -> Season:
    """Freeze the final standings and carry everyone into a new season, moving players between divisions.

    ``promote`` and ``relegate`` (players per division) replace the numbers set at creation, when given;
    they are refused (``NumbersRefused``) when a division has too few players for them. Nothing goes
    missing silently: results a lost message left uncounted are counted first, and tables that ended
    without a result or never opened are recorded as void. Returns the new season (a draft the organizer
    opens when ready).
    """
    from leagues.selectors import standings_for

    with transaction.atomic():
        season = _locked_season(season)
        _organizer(season.league.club_id, actor)
        if season.status != Season.Status.RUNNING:
            raise LeagueRefused("Only a running season can be finished.")
        playing = Fixture.objects.filter(round__season=season, counted_at=None, match__status=Match.Status.ACTIVE)
        if playing.exists():
            raise LeagueRefused(
                f"{plural(playing.count(), 'match is', 'matches are')} still being played: "
                "settle their rounds or record forfeits first."
            )
        season.promote = season.promote if promote is None else promote
        season.relegate = season.relegate if relegate is None else relegate
        _check_season_numbers(
            rounds=season.rounds, divisions=season.divisions, promote=season.promote, relegate=season.relegate
        )
        sizes = dict(Standing.objects.filter(season=season).values_list("division").annotate(n=Count("pk")).order_by())
        check_promotion_fits(sizes=sizes, divisions=season.divisions, promote=season.promote, relegate=season.relegate)
        _season_catch_up(season, actor)
        season.status, season.frozen_at = Season.Status.FINISHED, timezone.now()
        season.save(update_fields=["status", "frozen_at", "promote", "relegate"])
        _audit(season, AuditEntry.Kind.SEASON, "The season finished: these standings are final.", actor=actor)
        nxt = _season_next(season, actor)
        moves: list[str] = []
        entrants = []
        for division in range(1, season.divisions + 1):
            rows = standings_for(season=season, division=division)
            up, down = division_moves(
                size=len(rows),
                division=division,
                divisions=season.divisions,
                promote=season.promote,
                relegate=season.relegate,
            )
            for position, row in enumerate(rows):
                target = division
                if position < up:
                    target = division - 1
                    moves.append(f"{row.name} up to division {target}")
                elif position >= len(rows) - down:
                    target = division + 1
                    moves.append(f"{row.name} down to division {target}")
                entrants.append(Entrant(season=nxt, user_id=row.user_id, division=target, seed_rank=position + 1))
        created = Entrant.objects.bulk_create(entrants)
        if any(e.pk is None for e in created):
            created = list(nxt.entrants.all())
        Standing.objects.bulk_create(Standing(season=nxt, entrant=e, division=e.division) for e in created)
        text = f"{plural(len(created), 'player')} carried into {nxt.name}."
        if moves:
            text += " " + "; ".join(moves) + "."
        _audit(season, AuditEntry.Kind.PROMOTION, text, actor=actor, data={"next": nxt.pk})
        carried = f"Carried over from {season.name}." + (" " + "; ".join(moves) + "." if moves else "")
        _audit(nxt, AuditEntry.Kind.PROMOTION, carried, actor=actor)
    return nxt


class NumbersRefused(LeagueRefused):
    """The promotion and relegation numbers do not fit the divisions: a form shows it beside the numbers."""


def division_moves(*, size: int, division: int, divisions: int, promote: int, relegate: int) -> tuple[int, int]:
    """How many of a division's ``size`` players go up and how many go down at the season's end.

    The top division promotes nobody and the bottom one relegates nobody; and never more move than
    there are, nor anyone twice: promotion is served first, relegation takes from those left.
    """
    up = min(promote, size) if division > 1 else 0
    down = min(relegate, size - up) if division < divisions else 0
    return up, down


def check_promotion_fits(*, sizes: dict[int, int], divisions: int, promote: int, relegate: int) -> None:
    """Refuse numbers that would move every player of a division, or more than it holds: at least one stays.

    ``sizes`` are the players per division (a division missing from it has none).
    """
    for division in range(1, divisions + 1):
        size = sizes.get(division, 0)
        up = promote if division > 1 else 0
        down = relegate if division < divisions else 0
        if up + down == 0 or up + down < size:
            continue
        moving = " and ".join(part for part in (up and f"{up} up", down and f"{down} down") if part)
        held = f"has only {plural(size, 'player')}" if size else "has no players"
        most = f"at most {size - 1} can move, so that one stays" if size > 1 else "nobody can move out of it"
        raise NumbersRefused(
            f"Division {division} {held}: it cannot send {moving} ({most}). Change the numbers of players "
            "promoted and relegated."
        )


def _season_catch_up(season: Season, actor: User | None) -> None:
    """Before the standings freeze, every table is accounted for: a result a lost message left uncounted is
    counted, an abandoned or vanished match is void, and so are the tables of rounds that never opened.

    ``season`` is locked and still running; no next round opens from here.
    """
    left = list(
        Fixture.objects.filter(round__season=season, counted_at=None)
        .select_related("round", "match")
        .defer(*_MATCH_HEAVY)
        .order_by("round__division", "round__number", "table_number")
    )
    unopened: dict[int, list[Fixture]] = {}
    for fixture in left:
        fixture.round.season = season
        if fixture.match is not None and _fixture_count(fixture, season, follow=False):
            continue
        if fixture.round.opened_at is None:
            unopened.setdefault(fixture.round_id, []).append(fixture)
            continue
        if Fixture.objects.filter(pk=fixture.pk, counted_at=None).update(counted_at=timezone.now()):
            why = "its match no longer exists" if fixture.match is None else "its match never started"
            _fixture_void(fixture, season, why, actor=actor)
    for fixtures in unopened.values():
        round_ = fixtures[0].round
        ids = [f.pk for f in fixtures]
        Fixture.objects.filter(pk__in=ids, counted_at=None).update(
            counted_at=timezone.now(), how=Fixture.How.VOID, result=None
        )
        are = "is" if len(ids) == 1 else "are"
        _audit(
            season,
            AuditEntry.Kind.ROUND,
            f"{_round_name(round_, season)} never opened: its {plural(len(ids), 'table')} {are} void.",
            actor=actor,
            data={"void": "never opened", "fixtures": ids},
        )


def _season_next(season: Season, actor: User) -> Season:
    number = (Season.objects.filter(league_id=season.league_id).aggregate(n=Max("number"))["n"] or 0) + 1
    return Season.objects.create(
        league_id=season.league_id,
        name=f"Season {number}",
        number=number,
        rounds=season.rounds,
        divisions=season.divisions,
        promote=season.promote,
        relegate=season.relegate,
        round_mode=season.round_mode,
        fill=season.fill,
        settle=season.settle,
        previous=season,
    )


# --- sweeps -----------------------------------------------------------------


def rounds_due(*, now: datetime | None = None) -> tuple[list[int], list[int]]:
    """Rounds to open (sequential seasons, past their date) and to settle (past "play by"): their ids."""
    now = now or timezone.now()
    running = Season.Status.RUNNING
    to_open = Round.objects.filter(
        season__status=running, season__round_mode=Season.RoundMode.SEQUENTIAL, opened_at=None, opens_at__lte=now
    )
    to_settle = Round.objects.filter(season__status=running, settled_at=None, play_by__lte=now).exclude(opened_at=None)
    return list(to_open.values_list("pk", flat=True)[:100]), list(to_settle.values_list("pk", flat=True)[:100])


def uncounted_matches(*, limit: int = 500) -> list[int]:
    """Ended matches whose fixture is not in the standings yet: what a lost message left behind, and the
    matches the games app abandoned (it tells nobody: their tables are made void here)."""
    found = Fixture.objects.filter(counted_at=None, match__status__in=[Match.Status.FINISHED, Match.Status.ABANDONED])
    return list(found.values_list("match_id", flat=True)[:limit])


def matchless_fixtures(*, limit: int = 500) -> list[int]:
    """Tables of opened rounds of running seasons whose match is gone (deleted): nothing will ever end them."""
    found = Fixture.objects.filter(
        counted_at=None, match=None, round__opened_at__isnull=False, round__season__status=Season.Status.RUNNING
    )
    return list(found.values_list("pk", flat=True)[:limit])


def fixture_void_matchless(*, fixture_id: int) -> bool:
    """Make void a table of an opened round whose match is gone; True if this call did it."""
    with transaction.atomic():
        fixture = (
            Fixture.objects.select_related("round__season__league")
            .filter(pk=fixture_id, counted_at=None, match=None, round__opened_at__isnull=False)
            .first()
        )
        if fixture is None or fixture.round.season.status != Season.Status.RUNNING:
            return False
        if not Fixture.objects.filter(pk=fixture.pk, counted_at=None).update(counted_at=timezone.now()):
            return False
        _fixture_void(fixture, fixture.round.season, "its match no longer exists")
        _round_next(fixture.round, fixture.round.season)
    return True
