"""Results into the standings: a finished match counted once, voids, forfeits, adjustments, the ratings.

Results reach the standings once per fixture: whoever claims the fixture (``fixtures_claim``, a
conditional UPDATE on ``counted_at``) adds, in the same transaction, the result's contribution to the
players' ``Standing`` rows (``leagues.standings`` does the arithmetic) and their ratings. A forfeit or
an adjustment replaces a fixture's stored result, and the standings get the difference between the new
contribution and the old one: nothing is recomputed from scratch unless an organizer asks for
``standings_rebuild``.

How places become points is ``leagues.standings`` (the policy players read is
``templates/leagues/_scoring_policy.html``): places are among the seats, partners share their team's; a
forfeit recorded while a match is played hands the seat to a bot and the table plays on, the forfeiter
placed last at the end; a table nobody played for is nobody's win. Each result also carries, per seat,
the bot moves, timeouts and moves of the match's log (the reliability columns), counted once.

A round past its "play by" date is settled here too (``round_settle``): its late tables are played out
by bots or scored as they stand, which is a result; ``leagues.rounds`` opens the next round once a
round is all counted.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Count, F
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from engine.cards import places_from_scores
from games.followups import enqueue
from games.models import Match, Move, Seat
from games.outbox import absolute_url, mail_queue, mail_safe
from games.presenters.base import ordinal
from leagues import ratings
from leagues.clubs import check_organizer
from leagues.errors import LeagueRefused
from leagues.models import AuditEntry, Entrant, Fixture, League, Rating, RatingChange, Round, Season, Standing
from leagues.record import audit
from leagues.rounds import round_next
from leagues.seasons import PARTNER_GAMES, season_locked, standings_ensure
from leagues.selectors import MATCH_HEAVY
from leagues.standings import (
    LINE_COLUMNS,
    check_ranking,
    forfeit_scores,
    line_apply,
    nobody_places,
    result_places,
    result_points,
    seat_groups,
)
from leagues.substitutes import seat_offers_make, seats_never_played
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
    old = fixture.result
    Fixture.objects.filter(pk=fixture.pk).update(how=Fixture.How.VOID, result=None)
    fixture.how, fixture.result = Fixture.How.VOID, None
    entry = audit(
        season,
        AuditEntry.Kind.RESULT,
        f"{table_name(fixture)} is void: {why}. It counts for nobody.",
        actor=actor,
        fixture=fixture,
        data={"void": why, **({"match": fixture.match_id} if fixture.match_id else {})},
    )
    if actor is not None:  # an organizer's doing: the players hear of it (the sweep's voids are in the record)
        _result_mails(fixture, season, entry, old, None, what="The table was made void", reason=why)


def _fixture_result(fixture: Fixture, season: Season) -> None:
    """The finished match's places and scores into the standings and the ratings, with a line in the record.

    Who forfeited while the match went on (``Fixture.forfeited``) is placed after everyone who played
    on, whatever their bot did; the others keep their places by play.
    """
    assert fixture.match is not None
    match_id = fixture.match.pk
    outcome = fixture.match.outcome or {}
    scores = [float(s) for s in outcome.get("scores", [])]
    behind = _forfeit_seats(fixture, fixture.forfeited)
    tallies, _ = _tallies(fixture, fixture.match)
    places = result_places(
        list(outcome["places"]), _groups(fixture, season.league), behind=behind, people=_people(fixture)
    )
    result = _result(fixture, season.league, places=places, scores=scores, tallies=tallies, behind=behind)
    lines = _lines_locked(fixture)
    held = _ratings_locked(season.league.game, lines) if season.league.rated else None
    how = Fixture.How.FORFEIT if behind else Fixture.How.PLAYED
    names = _fixture_store(fixture, None, result, how=how, lines=lines, held=held)
    if held is not None:  # a forfeiter is rated last, even one who never moved: the forfeit was theirs
        _rate(fixture, season.league, result, lines, held, unplayed=seats_never_played(fixture=fixture) - set(behind))
    quit_ = (
        f" {_names_of(fixture, behind, names)} forfeited and {'is' if len(behind) == 1 else 'are'} placed last."
        if behind
        else ""
    )
    audit(
        season,
        AuditEntry.Kind.RESULT,
        f"{table_name(fixture)}:{quit_} {result_text(fixture, result, names)}.",
        fixture=fixture,
        data={"match": match_id, **({"forfeited": fixture.forfeited} if behind else {})},
    )


def _groups(fixture: Fixture, league: League) -> list[tuple[int, ...]]:
    """The table's sides: the partnerships of a team game, else each seat alone."""
    return seat_groups(len(fixture.seats), PARTNER_GAMES.get(league.game))


def _people(fixture: Fixture) -> list[int]:
    """The seats of people (the standings count them; a bot filling a seat is not in them)."""
    return [i for i, e in enumerate(fixture.seats) if e is not None]


def _forfeit_seats(fixture: Fixture, entrants: Collection[int]) -> list[int]:
    return [i for i, e in enumerate(fixture.seats) if e is not None and e in entrants]


def _names_of(fixture: Fixture, seats: Collection[int], names: dict[int, str]) -> str:
    return ", ".join(sorted(names.get(e, "?") for i, e in enumerate(fixture.seats) if i in seats and e is not None))


def _tallies(fixture: Fixture, match: Match) -> tuple[dict[str, list[int]], set[int]]:
    """Per seat of a person, from the match's log: the moves a bot made for them (timeouts, absence, a seat
    handed to a bot), their timeouts and all moves at the seat; and the seats whose player made a move of
    their own. Two queries.

    The bot moves are the log's, or the seat's counter (``Seat.bot_moves``) where it has more (a match whose
    moves are not all in this log); never the two added up: the counter stops at a seat handed to a bot,
    while the log has every move, so adding both counted the moves of an absent player twice.
    """
    n = len(fixture.seats)
    tallies = {"bot_moves": [0] * n, "timeouts": [0] * n, "moves": [0] * n}
    moved: set[int] = set()
    counts = Move.objects.filter(match=match).values("seat", "kind").annotate(n=Count("pk")).order_by()
    for row in counts:
        seat, kind, k = row["seat"], row["kind"], row["n"]
        if not 0 <= seat < n or fixture.seats[seat] is None:
            continue
        tallies["moves"][seat] += k
        if kind in (Move.Kind.BOT, Move.Kind.TIMEOUT):
            tallies["bot_moves"][seat] += k
        if kind == Move.Kind.TIMEOUT:
            tallies["timeouts"][seat] += k
        if kind == Move.Kind.PLAYER:
            moved.add(seat)
    for number, counted in Seat.objects.filter(match=match, user__isnull=False).values_list("number", "bot_moves"):
        if 0 <= number < n and fixture.seats[number] is not None and counted > tallies["bot_moves"][number]:
            tallies["bot_moves"][number] = counted
            tallies["moves"][number] = max(tallies["moves"][number], counted)
    return tallies, moved


def _result(
    fixture: Fixture,
    league: League,
    *,
    places: list[int] | None,
    scores: list[float] | None = None,
    tallies: dict[str, Any] | None = None,
    behind: Collection[int] = (),
) -> dict[str, Any]:
    """What a result adds to the standings, per seat: places, game scores, league points, bot moves,
    timeouts and moves.

    ``places`` among the seats (``leagues.standings.result_places``); None: nobody earned a result, and
    everyone is last with the last place's points (no win). ``behind``: the seats that forfeited.
    """
    n = len(fixture.seats)
    scores = scores if scores is not None and len(scores) == n else [0.0] * n
    nobody = places is None
    places = nobody_places(n) if places is None else places
    if league.scoring == League.Scoring.GAME_SCORE:
        points = [0.0] * n if nobody else forfeit_scores(scores, behind)
    else:
        points = result_points(places, league.place_points, nobody=nobody)
    tallies = tallies or {}
    return {
        "places": places,
        "scores": scores,
        "points": points,
        **{key: list(tallies.get(key) or [0] * n) for key in ("bot_moves", "timeouts", "moves")},
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
    that ``bulk_update`` builds. Each row's ``revision`` goes up by one: the page's cached tables change key.
    """
    round_key = str(fixture.round.number)
    for seat, entrant in enumerate(fixture.seats):
        if entrant is not None:
            line_apply(lines[entrant], fixture, seat, old, new, round_key)
    for row in lines.values():
        changed = {name: getattr(row, name) for name in LINE_COLUMNS}
        Standing.objects.filter(pk=row.pk).update(**changed, revision=F("revision") + 1)


def _rate(
    fixture: Fixture,
    league: League,
    result: dict[str, Any],
    lines: dict[int, Standing],
    held: dict[int, Rating],
    *,
    unplayed: Collection[int] = (),
) -> None:
    """Ratings move with the placings of the people at the table; bots are not rated, nor are their seats, nor
    the entrants of the ``unplayed`` seats (a bot or a substitute made every move there): no play of theirs."""
    seats = fixture.seats
    groups = PARTNER_GAMES.get(league.game, tuple((i,) for i in range(len(seats))))
    teams = [[seats[i] for i in group if seats[i] is not None and i not in unplayed] for group in groups]
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
    """The players named forfeit the table.

    A match still being played goes on: each forfeiting seat is handed to a bot of the league's level,
    the others play on, and when the match ends the forfeiters are placed after everyone who played on
    (whatever their bot did), the others by their play; everyone at the table is told by mail. A table
    already over (or without a match) has its result replaced: those who stayed share the first places,
    the forfeiters the last (the standings get the difference). In a team game a partner's forfeit is
    their team's. When nobody is left who did not forfeit, nobody wins: everyone gets the last place's
    points. With the game's own score as points, a forfeiter keeps at most the lowest score of the others.
    """
    with transaction.atomic():
        fixture, season, reason = _fixture_for_change(fixture, actor, reason)
        if season.is_frozen:
            raise LeagueRefused("The season's standings are final; adjust the result instead.")
        losers = {e if isinstance(e, int) else e.pk for e in entrants}
        if not losers or not losers <= {e for e in fixture.seats if e is not None}:
            raise LeagueRefused("Choose who forfeits among the players at this table.")
        forfeited = sorted(set(fixture.forfeited) | losers)
        behind = _forfeit_seats(fixture, forfeited)
        groups, people = _groups(fixture, season.league), _people(fixture)
        places = result_places([1] * len(fixture.seats), groups, behind=behind, people=people)
        playing = fixture.match is not None and fixture.match.status == Match.Status.ACTIVE
        if playing and fixture.counted_at is None and places is not None:
            return _forfeit_play_on(fixture, season, actor, losers, forfeited, reason)
        if playing:
            assert fixture.match is not None
            _match_abandon(fixture.match)  # nobody is left to play for: the table ends here
        old = fixture.result
        if fixture.counted_at is None:  # locked above: the claim is this call's, and a late count finds it taken
            fixtures_claim(ids=[fixture.pk])
        # Who forfeited is kept with the table, as when it plays on: a knockout never sends a forfeiter through.
        Fixture.objects.filter(pk=fixture.pk).update(forfeited=forfeited)
        fixture.forfeited = forfeited
        new = _result(fixture, season.league, places=places, tallies=_tallies_kept(fixture, old), behind=behind)
        names = _fixture_store(fixture, old, new, how=Fixture.How.FORFEIT)
        who = _names_of(fixture, _forfeit_seats(fixture, losers), names)
        entry = audit(
            season,
            AuditEntry.Kind.FORFEIT,
            f"{table_name(fixture)}: {who} forfeited ({reason}). {result_text(fixture, new, names)}.",
            actor=actor,
            fixture=fixture,
            data={"reason": reason, "before": old, "after": new},
        )
        _result_mails(fixture, season, entry, old, new, what=f"{who} forfeited", reason=reason)
        round_next(fixture.round, season)
    return fixture


def _tallies_kept(fixture: Fixture, old: dict[str, Any] | None) -> dict[str, Any] | None:
    """The bot moves, timeouts and moves a replaced result had; from the match's log for a table never counted."""
    if old is not None:
        return old
    return _tallies(fixture, fixture.match)[0] if fixture.match is not None else None


def _forfeit_play_on(
    fixture: Fixture, season: Season, actor: User, losers: set[int], forfeited: list[int], reason: str
) -> Fixture:
    """The forfeiting seats go to bots of the league's level and the match goes on; the result waits for its end."""
    Fixture.objects.filter(pk=fixture.pk).update(forfeited=forfeited)
    fixture.forfeited = forfeited
    seats = _forfeit_seats(fixture, losers)
    _bots_take_over(fixture, season.league, seats=seats)
    seat_offers_make(fixture=fixture, seats=seats)  # a substitute from the pool may play the seat on instead
    entrants = _entrants_at(fixture)
    names = {pk: e.user.name for pk, e in entrants.items()}
    who = _names_of(fixture, seats, names)
    entry = audit(
        season,
        AuditEntry.Kind.FORFEIT,
        f"{table_name(fixture)}: {who} forfeited ({reason}). A bot plays on in their place and they are placed "
        "last when the match ends; the others play on.",
        actor=actor,
        fixture=fixture,
        data={"reason": reason, "forfeited": forfeited, "playing_on": True},
    )
    url = absolute_url(reverse("games-match", args=[fixture.match_id])) if fixture.match_id else ""
    for entrant in entrants.values():
        mail_queue(
            key=f"forfeit:{entry.pk}:{entrant.user_id}",
            recipient=entrant.user.email,
            user=entrant.user,
            template="leagues/mail/forfeit_play_on",
            context={
                **_mail_about(fixture, season, entrant),
                "who": mail_safe(who),
                "you_forfeited": entrant.pk in losers,
                "reason": mail_safe(reason),
                "match_url": url,
            },
        )
    return fixture


def _entrants_at(fixture: Fixture) -> dict[int, Entrant]:
    """The table's entrants with their players, by entrant id: the people a result mail goes to."""
    seated = [e for e in fixture.seats if e is not None]
    return {e.pk: e for e in Entrant.objects.filter(pk__in=seated).select_related("user")}


def _mail_about(fixture: Fixture, season: Season, entrant: Entrant) -> dict[str, Any]:
    """What every result mail names: the player, the table, the season and its page."""
    league = season.league
    return {
        "name": mail_safe(entrant.user.name),
        "table": table_name(fixture),
        "season_name": mail_safe(season.name),
        "league_name": mail_safe(league.name),
        "url": absolute_url(reverse("leagues-season", args=[league.club.slug, league.slug, season.number])),
    }


def _result_mails(
    fixture: Fixture,
    season: Season,
    entry: AuditEntry,
    old: dict[str, Any] | None,
    new: dict[str, Any] | None,
    *,
    what: str,
    reason: str,
) -> None:
    """One mail to each player at the table whose result an organizer changed: before, after and why.

    Keyed by the record's entry: a change mails once, and a second change mails again.
    """
    by_pk = _entrants_at(fixture)
    for seat, pk in enumerate(fixture.seats):
        entrant = by_pk.get(pk) if pk is not None else None
        if entrant is None:
            continue
        mail_queue(
            key=f"result-change:{entry.pk}:{entrant.user_id}",
            recipient=entrant.user.email,
            user=entrant.user,
            template="leagues/mail/result_changed",
            context={
                **_mail_about(fixture, season, entrant),
                "what": mail_safe(what),
                "reason": mail_safe(reason),
                "before": _mail_line(old, seat),
                "after": _mail_line(new, seat),
            },
        )


def _mail_line(result: dict[str, Any] | None, seat: int) -> str:
    """A seat's result in words for a mail ("2nd, 1.5 points"), or that it counts for nobody."""
    if result is None:
        return "no result"
    return f"{ordinal(result['places'][seat])} of {len(result['places'])}, {result['points'][seat]:g} points"


def result_adjust(
    *, fixture: Fixture, actor: User, places: Sequence[int], reason: str, scores: Sequence[float] | None = None
) -> Fixture:
    """An organizer's correction of a table's places (and scores); the only change once a season is frozen.

    The places must be a ranking (``leagues.standings.check_ranking``: 1, 1, 3; partners share theirs).
    Ratings stay as they were: they move once per match played, in the order matches end. Every player
    at the table gets a mail saying what changed and why.
    """
    with transaction.atomic():
        fixture, season, reason = _fixture_for_change(fixture, actor, reason)
        n = len(fixture.seats)
        places = check_ranking(list(places), _groups(fixture, season.league))
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
            places=places,
            scores=None if scores is None else [float(s) for s in scores],
            tallies=_tallies_kept(fixture, old),
        )
        names = _fixture_store(fixture, old, new, how=Fixture.How.ADJUSTED)
        entry = audit(
            season,
            AuditEntry.Kind.ADJUST,
            f"{table_name(fixture)} adjusted ({reason}): {result_text(fixture, new, names)}.",
            actor=actor,
            fixture=fixture,
            data={"reason": reason, "before": old, "after": new},
        )
        _result_mails(fixture, season, entry, old, new, what="An organizer adjusted the result", reason=reason)
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
                _bots_take_over(fixture, season.league, seats=None)
        else:
            for fixture in open_fixtures:
                _score_as_it_stands(fixture, season, actor)
        locked.settled_at = timezone.now()
        locked.save(update_fields=["settled_at"])
        name = round_name(locked, season)
        # An organizer may settle a round before its play-by date: the record says so rather than "passed".
        early = actor is not None and (locked.play_by is None or locked.play_by > locked.settled_at)
        ended = "was settled early by an organizer" if early else "passed its play-by date"
        one = len(tables) == 1
        which = f"the unfinished {'table' if one else 'tables'} {', '.join(map(str, tables))}"
        if not tables:
            text = f"{name} {ended} with every table finished."
        elif season.settle == Season.Settle.BOTS:
            text = f"{name} {ended}: bots play out {which}."
        else:
            stood = "was scored as it stood" if one else "were scored as they stood"
            text = f"{name} {ended}: {which} {stood}."
        audit(season, AuditEntry.Kind.SETTLE, text, actor=actor, data={"tables": tables, "settle": season.settle})
    return locked


def _bots_take_over(fixture: Fixture, league: League, *, seats: Collection[int] | None) -> None:
    """The people at the table (only those in ``seats``, when given) hand their seats to bots of the
    league's level; games' bot tasks do the rest."""
    match = fixture.match
    assert match is not None  # the callers selected fixtures with an active match
    Match.objects.select_for_update().filter(pk=match.pk).first()  # no move slips in between
    taken = Seat.objects.filter(match=match, bot_level="")
    if seats is not None:
        taken = taken.filter(number__in=list(seats))
    taken.update(bot_level=league.timeout_bot_level, notified_at=None, deadline=None)
    awaiting = list(
        Seat.objects.filter(match=match, awaiting=True).exclude(bot_level="").values_list("number", flat=True)
    )
    version = Match.objects.filter(pk=match.pk).values_list("version", flat=True).get()
    for number in awaiting:
        transaction.on_commit(partial(enqueue, "games.tasks.bot_move", match.pk, number, version))


def _score_as_it_stands(fixture: Fixture, season: Season, actor: User | None) -> None:
    """The table's result from the scores as they stand: the players who made a move of their own ahead of
    those who never did, a forfeiter last; nobody's win when no player played."""
    assert fixture.match_id is not None  # the query selected fixtures with an active match
    match = Match.objects.select_for_update().get(pk=fixture.match_id)
    # On the result's scale, which each game knows (Renfield's table shows money held, its result money won).
    scores = match.engine.running_scores(match.engine.view(match.state, None))
    _match_abandon(match)
    claimed = fixtures_claim(ids=[fixture.pk])
    if claimed:
        fixture.round.season = season
        tallies, moved = _tallies(fixture, match)
        people = _people(fixture)
        behind = _forfeit_seats(fixture, fixture.forfeited)
        absent = [i for i in people if i not in moved]
        groups = _groups(fixture, season.league)
        places = result_places(places_from_scores(scores), groups, behind=behind, absent=absent, people=people)
        result = _result(fixture, season.league, places=places, scores=scores, tallies=tallies, behind=behind)
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
