"""Knockout heats and ladders in a season: their rounds drawn as they open, and what the standings page shows.

The rules are pure (``leagues.knockout``, ``leagues.ladder``); this module reads a division's tables into
them and writes the tables they draw. A round is drawn under its round's lock (``leagues.rounds`` holds it),
once the round before is all counted: round 1 at the draw (``leagues.seasons.fixtures_generate``), each later
one when it opens. A knockout's rounds are as many as its field needs to reach a final table
(``knockout_rounds``); the rounds left when it ends earlier (forfeits, void tables) are dropped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from games.presenters.base import ordinal
from leagues import knockout, ladder
from leagues.errors import LeagueRefused
from leagues.knockout import Heat
from leagues.models import AuditEntry, Entrant, Fixture, League, Round, Season
from leagues.record import audit
from leagues.selectors import StandingRow, standings_for
from leagues.wording import round_name


def check_advance(*, advance: Any, table_size: int) -> int:
    """How many of each table go through a knockout round: from 1 to one fewer than sit at a table."""
    if isinstance(advance, bool) or not isinstance(advance, int) or not 1 <= advance < table_size:
        raise LeagueRefused(
            f"In a knockout, 1 to {table_size - 1} players of each table of {table_size} go through to the next round."
        )
    return advance


def knockout_rounds(league: League, players: Mapping[int, int]) -> dict[int, int]:
    """Each division's rounds to its final, from its players (every one of them playing on)."""
    return {
        division: knockout.rounds_needed(n, table_size=league.table_size, advance=league.advance)
        for division, n in players.items()
    }


def round_draw(*, round_: Round, season: Season, seeds: Sequence[int] | None = None) -> bool:
    """The tables of a knockout or ladder round; the caller holds the round's lock. Round 1 seats ``seeds`` (best
    first); a later round is drawn from the rounds before, once all counted. False: the knockout is over (its
    rounds from this one on are dropped) and nothing is drawn."""
    league = season.league
    size = league.table_size
    if round_.number == 1:
        assert seeds is not None, "round 1 is drawn from the seeds"
        tables = knockout.heats(seeds, table_size=size) if league.is_knockout else ladder.blocks(seeds, table_size=size)
    else:
        before = heats_of(season, round_.division, below=round_.number)
        if any(not h.counted for tables in before for h in tables):
            raise LeagueRefused(
                f"{round_name(round_, season)} is drawn from the results of the round before: "
                "it opens once every table of that round is settled."
            )
        if league.is_knockout:
            rank = rank_of(season, round_.division)
            if knockout.is_over(before, advance=league.advance, rank=rank):
                _rounds_drop(round_, season)
                return False
            order = knockout.next_order(before[-1], advance=league.advance, rank=rank)
            tables = knockout.heats(order, table_size=size)
        else:
            rungs = ladder.ladder_after(_first_rungs(before), before)
            tables = ladder.blocks(rungs, table_size=size, turn=round_.number - 1)
    Fixture.objects.bulk_create(
        Fixture(round=round_, table_number=n, seats=list(seats)) for n, seats in enumerate(tables, start=1)
    )
    return True


def _rounds_drop(round_: Round, season: Season) -> None:
    """The knockout ended before this round: it and the rounds after it (not open) go, and the record says so."""
    later = Round.objects.filter(
        season=season, division=round_.division, number__gte=round_.number, opened_at=None, fixtures=None
    )
    dropped = sorted(later.values_list("number", flat=True))
    later.delete()
    # The season's rounds are its longest division's, as drawn at the start: a knockout that ended sooner in every
    # division has fewer, and the season's page and charts count those.
    left = Round.objects.filter(season=season).aggregate(most=Max("number"))["most"] or 1
    if left < season.rounds:
        season.rounds = left
        Season.objects.filter(pk=season.pk).update(rounds=left)
    if dropped:
        which = ", ".join(map(str, dropped))
        audit(
            season,
            AuditEntry.Kind.ROUND,
            f"The knockout{_division_words(season, round_.division)} is decided: round{'s' * (len(dropped) > 1)} "
            f"{which} will not be played.",
            data={"dropped": dropped, "division": round_.division},
        )


def _division_words(season: Season, division: int) -> str:
    return f" of division {division}" if season.divisions > 1 else ""


def heats_of(season: Season, division: int, *, below: int | None = None) -> list[list[Heat]]:
    """The division's rounds that have tables (before round ``below``, when given), as the rules read them."""
    found = Fixture.objects.filter(round__season=season, round__division=division)
    if below is not None:
        found = found.filter(round__number__lt=below)
    rows = found.order_by("round__number", "table_number").values_list(
        "round__number", "seats", "result", "forfeited", "counted_at"
    )
    rounds: dict[int, list[Heat]] = {}
    for number, seats, result, forfeited, counted_at in rows:
        rounds.setdefault(number, []).append(
            Heat(
                seats=tuple(seats),
                places=tuple(result["places"]) if result else None,
                points=tuple(result["points"]) if result else None,
                forfeited=frozenset(forfeited or ()),
                counted=counted_at is not None,
                absent=frozenset(seats[i] for i in knockout.absent_seats(result) if seats[i] is not None),
            )
        )
    return [rounds[n] for n in sorted(rounds)]


def rank_of(season: Season, division: int) -> dict[int, tuple[int, int, int]]:
    """Each entrant's place in the division's standings (points, then the league's tie-breaks), then their seed:
    what decides players level at a knockout's cut (lower is better)."""
    seeds = dict(Entrant.objects.filter(season=season, division=division).values_list("pk", "seed_rank"))
    ranked = {row.entrant_id: row.rank for row in standings_for(season=season, division=division)}
    last = len(seeds) + 1
    return {pk: (ranked.get(pk, last), seed if seed is not None else last, pk) for pk, seed in seeds.items()}


def _first_rungs(rounds: Sequence[Sequence[Heat]]) -> list[int]:
    """The ladder's first rungs: round 1's tables in order, each in seat order (as ``ladder.blocks`` seated them)."""
    return [e for heat in rounds[0] for e in heat.people] if rounds else []


def final_rows(season: Season, division: int, rows: list[StandingRow]) -> list[StandingRow]:
    """The division's standings lines in the season's places: a knockout's places or the ladder, top first; in the
    other formats (and for anyone never seated) the standings' order."""
    league = season.league
    if not (league.is_knockout or league.is_ladder):
        return rows
    rounds = heats_of(season, division)
    if league.is_knockout:
        order = [r.entrant for r in knockout.runs(rounds, advance=league.advance, rank=rank_of(season, division))]
    else:
        order = ladder.ladder_after(_first_rungs(rounds), rounds)
    at = {e: n for n, e in enumerate(order)}
    return sorted(rows, key=lambda row: at.get(row.entrant_id, len(at)))


# --- the standings page: who is still in, and the ladder -------------------------------------------------


@dataclass(frozen=True)
class FormatLine:
    """A line of the knockout's or the ladder's table on the standings page."""

    position: int
    name: str
    status: str  # knockout.PLAYING, THROUGH, OUT, FINALIST; "" on a ladder
    reached: int = 0  # knockout: the last round they sat in
    place: int | None = None  # knockout: their place at that table
    moved: int = 0  # ladder: rungs climbed (+) or dropped (-) in the last round played

    @property
    def where(self) -> str:
        """What the line says: how far a knockout player got, or how a ladder player moved."""
        if not self.status:
            return f"Up {self.moved}" if self.moved > 0 else f"Down {-self.moved}" if self.moved < 0 else "Held"
        if self.status == knockout.WINNER:
            return "Won the knockout"
        if self.status == knockout.FINALIST:
            if self.place is None:  # a final counted for nobody (void, or nobody played)
                return "In the final: no result"
            return "Won the final" if self.place == 1 else f"{ordinal(self.place)} in the final"
        if self.status == knockout.PLAYING:
            return f"Still in: playing round {self.reached}"
        if self.status == knockout.THROUGH:
            return f"Still in: through to round {self.reached + 1}"
        return f"Out in round {self.reached}"


@dataclass(frozen=True)
class FormatTable:
    division: int | None
    lines: list[FormatLine]
    rounds_played: int
    decided: bool = False  # knockout: nothing more is drawn (its final, or the round after which one or none is left)
    winners: tuple[str, ...] = ()  # knockout, once decided: who won (none when its last round had no result)


def format_standings(*, season: Season) -> list[FormatTable] | None:
    """A knockout's progress (who is still in, who went out in which round) or the ladder, per division; None for
    the other formats (nothing read)."""
    league = season.league
    if not (league.is_knockout or league.is_ladder):
        return None
    names = {e.pk: e.user.name for e in Entrant.objects.filter(season=season).select_related("user")}
    found = []
    for division in range(1, season.divisions + 1):
        rounds = heats_of(season, division)
        played = sum(1 for tables in rounds if all(h.counted for h in tables))
        shown = None if season.divisions <= 1 else division
        if league.is_knockout:
            rank = rank_of(season, division)
            runs = knockout.runs(rounds, advance=league.advance, rank=rank)
            lines = [
                FormatLine(n, names.get(r.entrant, "?"), r.status, r.reached, r.place) for n, r in enumerate(runs, 1)
            ]
            # Decided once its last round is all counted and nothing follows it: a final, or one or nobody left.
            decided = played == len(rounds) > 0 and knockout.is_over(rounds, advance=league.advance, rank=rank)
            won = tuple(
                names.get(r.entrant, "?")
                for r in runs
                if r.status == knockout.WINNER or (r.status == knockout.FINALIST and r.place == 1)
            )
            found.append(FormatTable(shown, lines, played, decided, won if decided else ()))
        else:
            start = _first_rungs(rounds)
            now = ladder.ladder_after(start, rounds)
            before = ladder.ladder_after(start, rounds[:-1]) if rounds else now
            was = {e: n for n, e in enumerate(before)}
            lines = [FormatLine(n + 1, names.get(e, "?"), "", moved=was.get(e, n) - n) for n, e in enumerate(now)]
            found.append(FormatTable(shown, lines, played))
    return found
