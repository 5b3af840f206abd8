"""A running season's rounds: their dates, and opening them (the round's tables get their matches).

A round opens on the organizer's word, at the season's start (every round, or the first of a
sequential season), when its date comes (``leagues.tasks.rounds_sweep``) or, in a sequential season,
once every table of the round before is counted (``round_next``, which ``leagues.results`` calls).
Settling a round past its "play by" date gives its late tables their results, so it lives with them
(``leagues.results.round_settle``).

A Swiss league's round gets its tables as it opens (``round_matches_create``, under the round's lock, so once):
round 1 by the seeds at the draw, each later one from the standings once the round before is all counted.
Knockout and ladder rounds are drawn the same way, by their own rules (``leagues.formats``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from itertools import combinations
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.clocks import TimeControl
from games.models import SeatSpec
from games.services import match_create
from leagues import fixtures as schedules
from leagues import formats, ratings
from leagues.clubs import check_organizer
from leagues.errors import LeagueRefused
from leagues.models import AuditEntry, Entrant, Fixture, League, Rating, Round, Season
from leagues.record import audit
from leagues.selectors import standings_for
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
    if league.is_swiss and not round_.fixtures.exists():
        swiss_draw(round_=round_, season=season, order=swiss_order(round_=round_, season=season))
    elif (
        league.draws_each_round
        and not round_.fixtures.exists()
        and not formats.round_draw(round_=round_, season=season)
    ):
        return  # a knockout decided before this round: it is dropped (leagues.formats)
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
    # Two tables of the round counted at once each see the other uncounted until it commits: under the round's
    # lock the last to take it (after the others' commits) sees every table counted, so the next round opens.
    Round.objects.select_for_update().filter(pk=round_.pk).first()
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


# --- Swiss rounds: each drawn from the standings once the round before is settled ----------------


def seed_order(season: Season, entrants: list[Entrant], by: str) -> list[Entrant]:
    """The entrants best first, as ``leagues.seasons.divisions_seed`` cuts them (and a Swiss round 1 seats them)."""
    users = [e.user_id for e in entrants]
    rated = dict(Rating.objects.filter(game=season.league.game, user_id__in=users).values_list("user_id", "ordinal"))
    default = ratings.ordinal(*ratings.DEFAULT)
    by_rating = {e.user_id: -rated.get(e.user_id, default) for e in entrants}
    if by == "rating":
        return sorted(entrants, key=lambda e: (by_rating[e.user_id], e.pk))
    previous = season.previous
    if previous is None:
        raise LeagueRefused("This is the league's first season: there are no standings to seed from. Seed by rating.")
    place: dict[int, int] = {}
    for division in range(1, previous.divisions + 1):
        for row in standings_for(season=previous, division=division):
            place.setdefault(row.user_id, len(place))
    return sorted(entrants, key=lambda e: (e.user_id not in place, place.get(e.user_id, 0), by_rating[e.user_id], e.pk))


def swiss_seeds(season: Season, division: int) -> list[int]:
    """A division's entrant ids best first at the start: the divisions' seeding where it was made, else by rating
    (then registration). It also breaks ties in the standings when a later round is drawn."""
    entrants = list(season.entrants.filter(division=division))
    by_rating = {e.pk: n for n, e in enumerate(seed_order(season, entrants, "rating"))}
    seeded = sorted(entrants, key=lambda e: (e.seed_rank is None, e.seed_rank or 0, by_rating[e.pk]))
    return [e.pk for e in seeded]


def swiss_order(*, round_: Round, season: Season) -> list[int]:
    """Who sits where in a Swiss round, best first: the seeds for round 1, later the standings (points, then the
    league's tie-breaks, then the seeds), once every table of the round before is counted."""
    seeds = swiss_seeds(season, round_.division)
    if round_.number == 1:
        return seeds
    if Fixture.objects.filter(
        round__season=season, round__division=round_.division, round__number__lt=round_.number, counted_at=None
    ).exists():
        raise LeagueRefused(
            f"{round_name(round_, season)} of a Swiss season is drawn from the standings: "
            "it opens once every table of the round before is settled."
        )
    place = {pk: n for n, pk in enumerate(seeds)}
    rows = standings_for(season=season, division=round_.division)
    return [r.entrant_id for r in sorted(rows, key=lambda r: (r.rank, place.get(r.entrant_id, len(place))))]


def swiss_draw(*, round_: Round, season: Season, order: Sequence[int]) -> None:
    """The round's tables from ``order`` (best first), avoiding old opponents (``fixtures.swiss_round``); with
    byes, those lowest in the order who sat out least sit out. The caller holds the round's lock."""
    size = season.league.table_size
    met: Counter[tuple[int, int]] = Counter()
    earlier = Fixture.objects.filter(
        round__season=season, round__division=round_.division, round__number__lt=round_.number
    )
    for seats in earlier.values_list("seats", flat=True):
        met.update(combinations(sorted(e for e in seats if e is not None), 2))
    byes: list[int] = []
    if season.fill == Season.Fill.BYES:
        before = Round.objects.filter(season=season, division=round_.division, number__lt=round_.number)
        sat_out = Counter(e for out in before.values_list("byes", flat=True) for e in out)
        out = set(sorted(order, key=lambda e: (sat_out[e], -order.index(e)))[: len(order) % size])
        byes = [e for e in order if e in out]
    playing = [e for e in order if e not in byes]
    try:
        tables = schedules.swiss_round(playing, table_size=size, met=met)
    except ValueError as exc:  # the draw's sentence says what cannot be drawn
        raise LeagueRefused(str(exc)) from exc
    Fixture.objects.bulk_create(
        Fixture(round=round_, table_number=n, seats=list(t.seats)) for n, t in enumerate(tables, start=1)
    )
    round_.byes = byes
    round_.save(update_fields=["byes"])
