"""The end of a round or a season, and what follows it: the next round opened, or the next season made.

``round_settle_now`` settles a round (``leagues.results.round_settle``: on the organizer's word, or by the
rounds sweep at the play-by date) and, in a sequential season, opens the next round once every table of
this one is counted: a round scored as it stands is counted at once, and a season never waits for a sweep.

The end of a season: its standings frozen, its players carried into the next season, up or down a division.

``season_finish`` first accounts for every table (a result a lost message left uncounted is counted,
the rest is void), then freezes the standings and makes the next season as a draft the organizer
opens when ready. Who moves is ``leagues.standings.division_moves``; numbers that would empty a
division are refused before anything changes (``check_promotion_fits``).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.models import User
from games.models import Match
from leagues import formats
from leagues.clubs import check_organizer
from leagues.errors import LeagueRefused
from leagues.models import AuditEntry, Entrant, Fixture, Round, Season, Standing
from leagues.record import audit
from leagues.results import fixture_count_ended, fixture_void, fixtures_claim, round_settle
from leagues.rounds import round_next
from leagues.seasons import check_season_numbers, season_locked
from leagues.selectors import MATCH_HEAVY, division_sizes, standings_for
from leagues.standings import check_promotion_fits, division_moves
from leagues.wording import plural, round_name


def round_settle_now(*, round: Round, actor: User | None = None) -> Round:
    """Settle the round (its late tables to bots or scored as they stand) and open the next one if it is all counted.

    With an ``actor`` (the organizer's button) a round already settled is refused with a sentence; the sweep
    (no actor) finds it settled and moves on. The next round opens here as it would from a counted result.
    """
    with transaction.atomic():
        season = Season.objects.select_related("league__club").get(pk=round.season_id)
        if actor is not None:
            check_organizer(season.league.club_id, actor)
            if season.status != Season.Status.RUNNING:
                raise LeagueRefused("Rounds are settled while the season is running.")
            if Round.objects.filter(pk=round.pk, settled_at__isnull=False).exists():
                raise LeagueRefused(f"{round_name(round, season)} is already settled.")
        settled = round_settle(round=round, actor=actor)
        round_next(settled, season)
    return settled


def season_finish(*, season: Season, actor: User, promote: int | None = None, relegate: int | None = None) -> Season:
    """Freeze the final standings and carry everyone into a new season, moving players between divisions.

    ``promote`` and ``relegate`` (players per division) replace the numbers set at creation, when given;
    they are refused (``NumbersRefused``) when a division has too few players for them. Nothing goes
    missing silently: results a lost message left uncounted are counted first, and tables that ended
    without a result or never opened are recorded as void. Returns the new season (a draft the organizer
    opens when ready).
    """
    with transaction.atomic():
        season = season_locked(season)
        check_organizer(season.league.club_id, actor)
        if season.status != Season.Status.RUNNING:
            raise LeagueRefused("Only a running season can be finished.")
        playing = Fixture.objects.filter(round__season=season, counted_at=None, match__status=Match.Status.ACTIVE)
        if playing.exists():
            raise LeagueRefused(
                f"{plural(playing.count(), 'match is', 'matches are')} still being played: "
                "settle their rounds or adjust their results first."
            )
        season.promote = season.promote if promote is None else promote
        season.relegate = season.relegate if relegate is None else relegate
        check_season_numbers(
            rounds=season.rounds, divisions=season.divisions, promote=season.promote, relegate=season.relegate
        )
        sizes = division_sizes(season=season)
        check_promotion_fits(sizes=sizes, divisions=season.divisions, promote=season.promote, relegate=season.relegate)
        _season_catch_up(season, actor)
        season.status, season.frozen_at = Season.Status.FINISHED, timezone.now()
        season.save(update_fields=["status", "frozen_at", "promote", "relegate"])
        audit(season, AuditEntry.Kind.SEASON, "The season finished: these standings are final.", actor=actor)
        nxt = _season_next(season, actor)
        moves: list[str] = []
        entrants = []
        for division in range(1, season.divisions + 1):
            # A knockout's or a ladder's places, else the standings: who moves, and the next season's seeds.
            rows = formats.final_rows(season, division, standings_for(season=season, division=division))
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
        audit(season, AuditEntry.Kind.PROMOTION, text, actor=actor, data={"next": nxt.pk})
        carried = f"Carried over from {season.name}." + (" " + "; ".join(moves) + "." if moves else "")
        audit(nxt, AuditEntry.Kind.PROMOTION, carried, actor=actor)
    return nxt


def _season_catch_up(season: Season, actor: User | None) -> None:
    """Before the standings freeze, every table is accounted for: a result a lost message left uncounted is
    counted, an abandoned or vanished match is void, and so are the tables of rounds that never opened.

    ``season`` is locked and still running; no next round opens from here.
    """
    left = list(
        Fixture.objects.filter(round__season=season, counted_at=None)
        .select_related("round", "match")
        .defer(*MATCH_HEAVY)
        .order_by("round__division", "round__number", "table_number")
    )
    unopened: dict[int, list[Fixture]] = {}
    for fixture in left:
        fixture.round.season = season
        if fixture.match is not None and fixture_count_ended(fixture, season, follow=False):
            continue
        if fixture.round.opened_at is None:
            unopened.setdefault(fixture.round_id, []).append(fixture)
            continue
        if fixtures_claim(ids=[fixture.pk]):
            why = "its match no longer exists" if fixture.match is None else "its match never started"
            fixture_void(fixture, season, why, actor=actor)
    for fixtures in unopened.values():
        round_ = fixtures[0].round
        ids = [f.pk for f in fixtures]
        fixtures_claim(ids=ids, void=True)
        are = "is" if len(ids) == 1 else "are"
        audit(
            season,
            AuditEntry.Kind.ROUND,
            f"{round_name(round_, season)} never opened: its {plural(len(ids), 'table')} {are} void.",
            actor=actor,
            data={"void": "never opened", "fixtures": ids},
        )


def _season_next(season: Season, actor: User) -> Season:
    """The next season as a draft, dated by the league's cadence: from the day after this one ends (or after
    today, if it ended late or had no end date), its rounds of ``league.round_days`` each."""
    number = (Season.objects.filter(league_id=season.league_id).aggregate(n=Max("number"))["n"] or 0) + 1
    starts_on = max(timezone.localdate(), season.ends_on or timezone.localdate()) + timedelta(days=1)
    ends_on = starts_on + timedelta(days=season.rounds * season.league.round_days - 1)
    return Season.objects.create(
        league_id=season.league_id,
        name=f"Season {number}",
        number=number,
        starts_on=starts_on,
        ends_on=ends_on,
        rounds=season.rounds,
        divisions=season.divisions,
        promote=season.promote,
        relegate=season.relegate,
        round_mode=season.round_mode,
        fill=season.fill,
        settle=season.settle,
        previous=season,
    )
