"""A running season's rounds: their dates, and opening them (the round's tables get their matches).

A round opens on the organizer's word, at the season's start (every round, or the first of a
sequential season), when its date comes (``leagues.tasks.rounds_sweep``) or, in a sequential season,
once every table of the round before is counted (``round_next``, which ``leagues.results`` calls).
Settling a round past its "play by" date gives its late tables their results, so it lives with them
(``leagues.results.round_settle``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.clocks import TimeControl
from games.models import SeatSpec
from games.services import match_create
from leagues.clubs import check_organizer
from leagues.errors import LeagueRefused
from leagues.models import AuditEntry, Entrant, Fixture, League, Round, Season
from leagues.record import audit
from leagues.substitutes import seat_offers_make, unavailable_entrants
from leagues.wording import plural, round_name


def round_update(
    *, round: Round, actor: User, play_by: datetime | None = None, opens_at: datetime | None = None
) -> Round:
    with transaction.atomic():
        locked = Round.objects.select_for_update().select_related("season__league").get(pk=round.pk)
        check_organizer(locked.season.league.club_id, actor)
        if locked.settled_at is not None:
            raise LeagueRefused("This round has been settled; its dates cannot change.")
        if play_by is not None:
            locked.play_by = play_by
        if opens_at is not None:
            if locked.opened_at is not None:
                raise LeagueRefused("This round is already open.")
            locked.opens_at = opens_at
        check_round_dates(opens_at=locked.opens_at, play_by=locked.play_by)
        locked.save(update_fields=["play_by", "opens_at"])
    return locked


def check_round_dates(*, opens_at: datetime | None, play_by: datetime | None) -> None:
    """A round is played after it opens: its play-by date comes later than its opening date (the schedule's; a
    round opened early keeps its dates)."""
    if opens_at is not None and play_by is not None and play_by <= opens_at:
        raise LeagueRefused("A round's play-by date must come after the day it opens.")


def round_open(*, round: Round, actor: User | None = None) -> Round:
    """Create the round's matches (idempotent); an organizer may open a round before its date."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        season = Season.objects.select_related("league__club").get(pk=locked.season_id)
        if actor is not None:
            check_organizer(season.league.club_id, actor)
        if season.status != Season.Status.RUNNING:
            raise LeagueRefused("Rounds open once the season has started.")
        if actor is not None and locked.opened_at is not None:
            raise LeagueRefused(f"{round_name(locked, season)} is already open.")
        round_matches_create(locked, season, actor)
        round_next(locked, season)  # a round of byes only is over as soon as it opens
    return locked


def round_matches_create(round_: Round, season: Season, actor: User | None) -> None:
    """Open the round: a match for each of its tables, once. The caller has locked the round and checked who asks."""
    if round_.opened_at is not None:
        return
    league = season.league
    fixtures = list(round_.fixtures.filter(match=None))
    ids = {e for f in fixtures for e in f.seats if e is not None}
    users = {e.pk: e.user for e in Entrant.objects.filter(pk__in=ids).select_related("user")}
    # Those who said they cannot play this round: a bot takes their seat, and the pool is offered it below.
    away = unavailable_entrants(entrant_ids=ids, round_number=round_.number)
    extra = _match_extras(league)
    for fixture in fixtures:
        specs = [
            SeatSpec(bot=league.timeout_bot_level) if e is None or e in away else SeatSpec(user=users[e])
            for e in fixture.seats
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
    for fixture in fixtures:
        seats = [n for n, e in enumerate(fixture.seats) if e is not None and e in away]
        if seats:
            seat_offers_make(fixture=fixture, seats=seats)
    audit(
        season,
        AuditEntry.Kind.ROUND,
        f"{round_name(round_, season)} opened: {plural(len(fixtures), 'table')}.",
        actor=actor,
    )


def _match_extras(league: League) -> dict[str, Any]:
    """The league's clock and the bot that plays a timed-out turn, for ``match_create``."""
    return {"time_control": TimeControl.from_json(league.time_control), "timeout_bot_level": league.timeout_bot_level}


def round_next(round_: Round, season: Season) -> None:
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
        round_matches_create(following, season, None)
        round_next(following, season)  # a round with no table to play (byes only) leads straight on
