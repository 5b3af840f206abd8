"""Results into the standings: a finished match counted once, voids, forfeits, adjustments, the ratings.

Results reach the standings once per fixture: whoever claims the fixture (``fixtures_claim``, a
conditional UPDATE on ``counted_at``) adds, in the same transaction, the result's contribution to the
players' ``Standing`` rows (``leagues.standings`` does the arithmetic) and their ratings. A forfeit or
an adjustment replaces a fixture's stored result, and the standings get the difference between the new
contribution and the old one: nothing is recomputed from scratch unless an organizer asks for
``standings_rebuild``.

A round past its "play by" date is settled here too (``round_settle``): its late tables are played out
by bots or scored as they stand, which is a result; ``leagues.rounds`` opens the next round once a
round is all counted.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from accounts.models import User
from engine.cards import places_from_scores
from games.followups import enqueue
from games.models import Match, Move, Seat
from leagues import ratings
from leagues.clubs import check_organizer
from leagues.errors import LeagueRefused
from leagues.models import AuditEntry, Entrant, Fixture, League, Rating, RatingChange, Round, Season, Standing
from leagues.record import audit
from leagues.rounds import round_next
from leagues.seasons import PARTNER_GAMES, season_locked, standings_ensure
from leagues.selectors import MATCH_HEAVY
from leagues.standings import LINE_COLUMNS, line_apply, place_points
from leagues.wording import result_text, round_name, table_name

# --- claiming a table ------------------------------------------------------------


def fixtures_claim(*, ids: Collection[int], void: bool = False) -> int:
    """Claim tables for their result: ``counted_at`` set by one conditional UPDATE (``WHERE counted_at IS NULL``).

    Returns how many rows this call changed. Whoever changes a row owns that table's result; a table
    claimed first by someone else (a second run of the task, the sweep, an organizer's correction) is
    left alone, so a result is never counted twice. ``void`` records the tables as void (no result) in
    the same statement.
    """
    fields: dict[str, Any] = {"how": Fixture.How.VOID, "result": None} if void else {}
    return Fixture.objects.filter(pk__in=ids, counted_at=None).update(counted_at=timezone.now(), **fields)


# --- counting a match -------------------------------------------------------------


def fixture_count(*, match_id: int) -> bool:
    """Add a finished match's result to its season's standings, once; True if this call did it.

    A match that ended abandoned (stopped by the games app, not finished) makes its table void:
    recorded as such and counted for nobody (see ``fixture_void``).
    """
    with transaction.atomic():
        fixture = next(
            iter(
                Fixture.objects.select_related("round__season__league", "match")
                .defer(*MATCH_HEAVY)
                .filter(match_id=match_id, counted_at=None)
            ),
            None,
        )
        if fixture is None or fixture.match is None:
            return False
        return fixture_count_ended(fixture, fixture.round.season, follow=True)


def fixture_count_ended(fixture: Fixture, season: Season, *, follow: bool) -> bool:
    """Claim the fixture and add its ended match's result (or make it void); ``follow`` opens the next round."""
    assert fixture.match is not None  # the callers selected fixtures with a match
    if fixture.match.status not in (Match.Status.FINISHED, Match.Status.ABANDONED):
        return False
    if not fixtures_claim(ids=[fixture.pk]):
        return False  # someone else counted it first
    if fixture.match.status == Match.Status.ABANDONED:
        fixture_void(fixture, season, "its match was abandoned before it finished")
    elif season.is_frozen:
        audit(season, AuditEntry.Kind.RESULT, f"{table_name(fixture)} finished after the season was frozen.")
        return True
    else:
        _fixture_result(fixture, season)
    if follow:
        round_next(fixture.round, season)
    return True


def fixture_void(fixture: Fixture, season: Season, why: str, *, actor: User | None = None) -> None:
    """The table counts for nobody: no points, no game played, no rating change; the record says why.

    The fixture is already claimed (``counted_at``). A club cannot tell from an abandoned match who
    was at fault, so nobody wins or loses it; an organizer who knows better records a forfeit or
    adjusts the result, which replaces the void like any other result.
    """
    Fixture.objects.filter(pk=fixture.pk).update(how=Fixture.How.VOID, result=None)
    fixture.how, fixture.result = Fixture.How.VOID, None
    audit(
        season,
        AuditEntry.Kind.RESULT,
        f"{table_name(fixture)} is void: {why}. It counts for nobody.",
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
    audit(
        season,
        AuditEntry.Kind.RESULT,
        f"{table_name(fixture)}: {result_text(fixture, result, names)}.",
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
        points = [place_points(place, places, league.place_points) for place in places]
    return {
        "places": places,
        "scores": scores,
        "points": points,
        "bot_moves": bot_moves if bot_moves is not None else [0] * n,
    }


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
            line_apply(lines[entrant], fixture, seat, old, new, round_key)
    for row in lines.values():
        Standing.objects.filter(pk=row.pk).update(**{name: getattr(row, name) for name in LINE_COLUMNS})


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


# --- corrections ------------------------------------------------------------------


def _fixture_for_change(fixture: Fixture, actor: User, reason: str) -> tuple[Fixture, Season, str]:
    reason = (reason or "").strip()
    locked = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("round__season__league", "match")
        .get(pk=fixture.pk)
    )
    season = locked.round.season
    check_organizer(season.league.club_id, actor)
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
        if fixture.counted_at is None:  # locked above: the claim is this call's, and a late count finds it taken
            fixtures_claim(ids=[fixture.pk])
        new = _result(fixture, season.league, places=places, bot_moves=(old or {}).get("bot_moves"))
        names = _fixture_store(fixture, old, new, how=Fixture.How.FORFEIT)
        who = ", ".join(sorted(names[e] for e in losers))
        audit(
            season,
            AuditEntry.Kind.FORFEIT,
            f"{table_name(fixture)}: {who} forfeited ({reason}). {result_text(fixture, new, names)}.",
            actor=actor,
            fixture=fixture,
            data={"reason": reason, "before": old, "after": new},
        )
        round_next(fixture.round, season)
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
            fixtures_claim(ids=[fixture.pk])
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
        audit(
            season,
            AuditEntry.Kind.ADJUST,
            f"{table_name(fixture)} adjusted ({reason}): {result_text(fixture, new, names)}.",
            actor=actor,
            fixture=fixture,
            data={"reason": reason, "before": old, "after": new},
        )
        round_next(fixture.round, season)
    return fixture


def standings_rebuild(*, season: Season, actor: User | None) -> None:
    """Recompute every Standing of the season from the fixtures' stored results, in playing order.

    Never needed in normal running: results are added one by one. This is the explicit repair.
    """
    with transaction.atomic():
        season = season_locked(season)
        if actor is not None:
            check_organizer(season.league.club_id, actor)
        Standing.objects.filter(season=season).delete()
        standings_ensure(season)
        counted = (
            Fixture.objects.filter(round__season=season, result__isnull=False)
            .select_related("round__season__league")
            .order_by("counted_at", "pk")
        )
        for fixture in counted:
            _standings_apply(fixture, _lines_locked(fixture), None, fixture.result)
        audit(season, AuditEntry.Kind.SEASON, "Standings recomputed from the results.", actor=actor)


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
        if not fixtures_claim(ids=[fixture.pk]):
            return False
        fixture_void(fixture, fixture.round.season, "its match no longer exists")
        round_next(fixture.round, fixture.round.season)
    return True


# --- a round past its "play by" date ----------------------------------------------


def round_settle(*, round: Round, actor: User | None = None) -> Round:
    """Past "play by": the unfinished matches are played out by bots or scored as they stand, as the season says."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        season = Season.objects.select_related("league__club").get(pk=locked.season_id)
        if actor is not None:
            check_organizer(season.league.club_id, actor)
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
        name = round_name(locked, season)
        one = len(tables) == 1
        which = f"the unfinished {'table' if one else 'tables'} {', '.join(map(str, tables))}"
        if not tables:
            text = f"{name} passed its play-by date with every table finished."
        elif season.settle == Season.Settle.BOTS:
            text = f"{name} passed its play-by date: bots play out {which}."
        else:
            stood = "was scored as it stood" if one else "were scored as they stood"
            text = f"{name} passed its play-by date: {which} {stood}."
        audit(season, AuditEntry.Kind.SETTLE, text, actor=actor, data={"tables": tables, "settle": season.settle})
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
        transaction.on_commit(partial(enqueue, "games.tasks.bot_move", match.pk, number, version))


def _score_as_it_stands(fixture: Fixture, season: Season, actor: User | None) -> None:
    assert fixture.match_id is not None  # the query selected fixtures with an active match
    match = Match.objects.select_for_update().get(pk=fixture.match_id)
    scores = [float(s) for s in match.engine.view(match.state, None)["scores"]]
    _match_abandon(match)
    claimed = fixtures_claim(ids=[fixture.pk])
    if claimed:
        fixture.round.season = season
        result = _result(
            fixture, season.league, places=places_from_scores(scores), scores=scores, bot_moves=_bot_moves(match)
        )
        names = _fixture_store(fixture, None, result, how=Fixture.How.AS_STANDS)
        text = f"{table_name(fixture)} scored as it stood: {result_text(fixture, result, names)}."
        audit(season, AuditEntry.Kind.SETTLE, text, actor=actor, fixture=fixture)


def _match_abandon(match: Match) -> None:
    """The match stops where it is: nobody is awaited any more and no deadline runs."""
    now = timezone.now()
    Match.objects.filter(pk=match.pk, status=Match.Status.ACTIVE).update(
        status=Match.Status.ABANDONED, finished_at=now, updated_at=now
    )
    Seat.objects.filter(match=match).update(awaiting=False, deadline=None)
