"""Leagues and their seasons, from the first settings to the start: registration, divisions, the fixtures.

A league holds a game and its scoring; each season of it is made as a draft, opens registration,
closes it, gets its draw (``fixtures_generate``: rounds and tables without matches, made again until
the start) and starts (``season_start``: the first round's matches, or every round's). What follows
is elsewhere: rounds opening (``leagues.rounds``), results (``leagues.results``), the end and the
next season (``leagues.rollover``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Required, TypedDict, Unpack

from django.db import transaction
from django.db.models import Count, F
from django.urls import reverse

from accounts.models import User
from engine import get_game
from engine.bots import LEVELS
from games.clocks import TimeControl
from games.models import Seat
from games.outbox import absolute_url, mail_queue, mail_safe
from leagues import fixtures as schedules
from leagues import formats, tiebreaks
from leagues.clubs import check_organizer, unique_slug
from leagues.errors import LeagueRefused
from leagues.models import AuditEntry, Club, Entrant, Fixture, League, Membership, Round, Season, Standing
from leagues.record import audit
from leagues.rounds import check_round_dates, round_matches_create, seed_order, swiss_draw, swiss_seeds
from leagues.selectors import waiting_list
from leagues.wording import plural

DEFAULT_ROUND_DAYS = 7
# The most points a place can earn: any league's scale fits, and the standings' sums stay plain numbers.
PLACE_POINTS_MAX = 1000
# Karnoffel is played by two teams: seats 0 and 2 against 1 and 3.
PARTNER_GAMES = {"karnoffel": ((0, 2), (1, 3))}
DEFAULT_TIEBREAKS = ("points", "wins", "head_to_head", "game_score", "opponents_rating", "fewest_bot_moves")
ENTRANTS_MOST = 10_000
BEFORE_START = (Season.Status.DRAFT, Season.Status.REGISTRATION, Season.Status.CLOSED)
# How ``divisions_seed`` orders the registrants, best first.
SEED_BY = {"rating": "rating", "standings": "the last season's standings"}


def season_locked(season: Season) -> Season:
    """The season again, locked with its league and club: its changes (and its standings') go one at a time."""
    return Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)


# --- leagues ----------------------------------------------------------------------


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
    round_days: int | None
    format: str | None
    advance: int | None


def league_create(*, club: Club, actor: User, **settings: Unpack[LeagueSettings]) -> League:
    check_organizer(club, actor)
    fields = _league_fields(**settings)
    fields.setdefault("advance", max(1, min(2, fields["table_size"] - 1)))
    _check_league_advance(fields.get("format", League.Format.ROUND_ROBIN), fields["advance"], fields["table_size"])
    slug = unique_slug(League.objects.filter(club=club), fields["name"], fallback="league")
    return League.objects.create(club=club, slug=slug, **fields)


def league_update(*, league: League, actor: User, **settings: Unpack[LeagueSettings]) -> League:
    """Change a league's settings; its address (slug) stays.

    The game and table size are fixed once a season has started (its fixtures and standings are built
    on them), and the scoring while a season is running (its points so far were counted that way).
    Tie-breaks may change at any time: the order is worked out when the standings are read.
    """
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        check_organizer(league.club_id, actor)
        statuses = set(league.seasons.values_list("status", flat=True))
        started = statuses & {Season.Status.RUNNING, Season.Status.FINISHED}
        if started and (settings["game"], settings["table_size"]) != (league.game, league.table_size):
            raise LeagueRefused("The game and the table size cannot change once a season has started.")
        fields = _league_fields(**settings)
        scored = (fields["scoring"], fields["place_points"]) != (league.scoring, list(league.place_points))
        if Season.Status.RUNNING in statuses and scored:
            raise LeagueRefused("The scoring cannot change while a season is running: finish it first.")
        if Season.Status.RUNNING in statuses and fields.get("format", league.format) != league.format:
            raise LeagueRefused("The format cannot change while a season is running: finish it first.")
        changes = _league_changes(league, fields)
        for key, value in fields.items():
            setattr(league, key, value)
        _check_league_advance(league.format, league.advance, league.table_size)
        league.save(update_fields=list(fields))
        if changes:
            _league_changes_audit(league, actor, changes)
    return league


# What a season's players are told when the league's ordering or scoring changes under them.
AUDITED_SETTINGS = {"tiebreaks": "tie-breaks", "scoring": "scoring", "place_points": "points per place"}


def _league_changes(league: League, fields: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """The audited settings that change, as (before, after)."""
    before = {"tiebreaks": list(league.tiebreaks), "scoring": league.scoring, "place_points": list(league.place_points)}
    return {key: (before[key], fields[key]) for key in AUDITED_SETTINGS if before[key] != fields[key]}


def _setting_words(key: str, value: Any) -> str:
    if key == "tiebreaks":
        return ", ".join(tiebreaks.TIEBREAKS.get(k, k) for k in value) or "none"
    if key == "scoring":
        return str(League.Scoring(value).label) if value in League.Scoring.values else str(value)
    return ", ".join(f"{p:g}" for p in value)


def _league_changes_audit(league: League, actor: User, changes: dict[str, tuple[Any, Any]]) -> None:
    """Every season not yet finished records the change, before and after, on its page."""
    words = "; ".join(
        f"the {AUDITED_SETTINGS[key]} changed from ({_setting_words(key, old)}) to ({_setting_words(key, new)})"
        for key, (old, new) in changes.items()
    )
    data = {
        "before": {k: old for k, (old, _new) in changes.items()},
        "after": {k: new for k, (_old, new) in changes.items()},
    }
    for season in league.seasons.exclude(status=Season.Status.FINISHED):
        audit(season, AuditEntry.Kind.SEASON, f"{league.name}: {words}.", actor=actor, data=data)


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
    round_days: int | None = None,
    format: str | None = None,
    advance: int | None = None,
) -> dict[str, Any]:
    """A league's settings checked, as model fields (``round_days``, ``format`` and ``advance`` only when given:
    None keeps it)."""
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
    if round_days is not None and (isinstance(round_days, bool) or not 1 <= round_days <= 365):
        raise LeagueRefused("A round lasts from 1 to 365 days.")
    if format is not None and format not in League.Format.values:
        raise LeagueRefused("Choose a round robin, Swiss, knockout or ladder format.")
    cadence: dict[str, Any] = {} if round_days is None else {"round_days": round_days}
    if format is not None:
        cadence["format"] = format
    if advance is not None and format == League.Format.KNOCKOUT:
        cadence["advance"] = formats.check_advance(advance=advance, table_size=table_size)
    elif isinstance(advance, int) and not isinstance(advance, bool) and 0 < advance < table_size:
        cadence["advance"] = advance  # kept for when the league turns to a knockout; another format reads nothing
    return {
        **cadence,
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


def _check_league_advance(format: str, advance: int, table_size: int) -> None:
    """A knockout league sends fewer through than sit at a table (a table size changed since is refused too)."""
    if format == League.Format.KNOCKOUT:
        formats.check_advance(advance=advance, table_size=table_size)


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
    # NaN fails every comparison and infinity is past the most: JSON stores neither (they were a 500).
    if any(isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= PLACE_POINTS_MAX for p in points):
        raise LeagueRefused(f"Points per place are numbers of zero or more, at most {PLACE_POINTS_MAX}.")
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


# --- seasons and registration -----------------------------------------------------


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
    entrants_max: int | None = None,
) -> Season:
    check_organizer(league.club_id, actor)
    check_season_numbers(rounds=rounds, divisions=divisions, promote=promote, relegate=relegate)
    if entrants_max is not None and not 2 <= entrants_max <= ENTRANTS_MOST:
        raise LeagueRefused(f"A season's limit is from 2 to {ENTRANTS_MOST} players, or none.")
    if starts_on and ends_on and ends_on < starts_on:
        raise LeagueRefused("A season cannot end before it starts.")
    if (
        round_mode not in Season.RoundMode.values
        or fill not in Season.Fill.values
        or settle not in Season.Settle.values
    ):
        raise LeagueRefused("Choose how rounds open, how empty seats are filled and how late matches are settled.")
    check_swiss_rounds(league, round_mode, fill)
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
            entrants_max=entrants_max,
            previous=last,
        )


def season_update(
    *, season: Season, actor: User, name: str, starts_on: date | None = None, ends_on: date | None = None
) -> Season:
    """Rename a season and move its dates; before the start, the rounds not yet open share the new dates.

    Refused with a sentence: an end before the start, a start moved once the season is running, an end
    before a round already open must be played by, any change once it is finished.
    """
    with transaction.atomic():
        season = season_locked(season)
        check_organizer(season.league.club_id, actor)
        name = (name or "").strip() or season.name
        if season.status == Season.Status.FINISHED:
            raise LeagueRefused("A finished season cannot change.")
        if starts_on and ends_on and ends_on < starts_on:
            raise LeagueRefused("A season cannot end before it starts.")
        if season.status == Season.Status.RUNNING and starts_on != season.starts_on:
            raise LeagueRefused("The season has started: its start date cannot move.")
        before = (season.name, season.starts_on, season.ends_on)
        season.name, season.starts_on, season.ends_on = name[:80], starts_on, ends_on
        season.save(update_fields=["name", "starts_on", "ends_on"])
        moved = _round_dates_follow(season) if season.status in BEFORE_START else 0
        if before != (season.name, season.starts_on, season.ends_on):
            text = f"The season is now {season.name}, {_season_dates(season)}."
            if moved:
                text += f" {plural(moved, 'round')} moved with it."
            audit(season, AuditEntry.Kind.SEASON, text, actor=actor)
    return season


def _season_dates(season: Season) -> str:
    if season.starts_on is None:
        return "with no dates set"
    end = f" to {season.ends_on:%-d %B %Y}" if season.ends_on else ""
    return f"from {season.starts_on:%-d %B %Y}{end}"


def _round_dates_follow(season: Season) -> int:
    """The drawn rounds get the season's new dates, shared as at the draw; returns how many there are."""
    drawn = list(season.round_set.filter(opened_at=None))
    for round_ in drawn:
        round_.opens_at, round_.play_by = _round_dates(season, round_.number)
        check_round_dates(opens_at=round_.opens_at, play_by=round_.play_by)
    Round.objects.bulk_update(drawn, ["opens_at", "play_by"])
    return len(drawn)


def check_season_numbers(*, rounds: int, divisions: int, promote: int, relegate: int) -> None:
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
        season = season_locked(season)
        check_organizer(season.league.club_id, actor)
        if season.status not in (Season.Status.DRAFT, Season.Status.CLOSED):
            raise LeagueRefused("Registration can only open before the season starts.")
        if season.status == Season.Status.CLOSED and season.round_set.exists():
            # New entrants would not be in the draw: it is made again once registration closes.
            season.round_set.all().delete()
        season.status = Season.Status.REGISTRATION
        season.save(update_fields=["status"])
        audit(season, AuditEntry.Kind.SEASON, "Registration opened.", actor=actor)
    return season


def season_close_registration(*, season: Season, actor: User) -> Season:
    with transaction.atomic():
        season = season_locked(season)
        check_organizer(season.league.club_id, actor)
        if season.status != Season.Status.REGISTRATION:
            raise LeagueRefused("Registration is not open.")
        season.status = Season.Status.CLOSED
        season.save(update_fields=["status"])
        left_out = _waiting_drop(season)
        count = season.entrants.count()
        text = f"Registration closed with {plural(count, 'player')}."
        if left_out:
            text += f" Still waiting, without a place: {', '.join(left_out)}."
        audit(season, AuditEntry.Kind.SEASON, text, actor=actor)
    return season


def _waiting_drop(season: Season) -> list[str]:
    """At the close, those still on the waiting list leave the season; their names, in the order they waited."""
    waiting = waiting_list(season=season)
    Entrant.objects.filter(pk__in=[e.pk for e in waiting]).delete()
    return [e.user.name for e in waiting]


def season_register(*, season: Season, user: User) -> Entrant:
    """A club member enters an open season; newcomers start in the bottom division."""
    with transaction.atomic():
        season = season_locked(season)
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
        season = season_locked(season)
        if season.status != Season.Status.REGISTRATION:
            raise LeagueRefused("You can withdraw only while registration is open.")
        before = {e.pk for e in waiting_list(season=season)}
        deleted, _ = Entrant.objects.filter(season=season, user=user).delete()
        if not deleted:
            raise LeagueRefused("You are not registered for this season.")
        still = {e.pk for e in waiting_list(season=season)}
        moved = Entrant.objects.filter(pk__in=before - still).select_related("user")
        for entrant in moved:  # a place came free: the first on the waiting list has it
            audit(season, AuditEntry.Kind.SEASON, f"{entrant.user.name} moved up from the waiting list.")


def entrant_set_division(*, entrant: Entrant, actor: User, division: int) -> Entrant:
    with transaction.atomic():
        season = season_locked(entrant.season)
        check_organizer(season.league.club_id, actor)
        if season.status not in (Season.Status.DRAFT, Season.Status.REGISTRATION, Season.Status.CLOSED):
            raise LeagueRefused("Divisions are fixed once the season has started.")
        if not 1 <= division <= season.divisions:
            raise LeagueRefused(f"This season has divisions 1 to {season.divisions}.")
        entrant.division = division
        entrant.save(update_fields=["division"])
        Standing.objects.filter(entrant=entrant).update(division=division, revision=F("revision") + 1)
        season.round_set.all().delete()  # the draw was for the old divisions
    return entrant


def divisions_seed(*, season: Season, actor: User, by: str) -> list[Entrant]:
    """Every registrant into a division in one step, the best in division 1: ordered by ``by`` (their rating in
    the game, or the last season's final standings, division by division, then newcomers by rating), then cut
    into divisions of nearly equal size (the upper ones take one more when it does not divide evenly).

    The organizer may move anyone afterwards (``entrant_set_division``); a draw made before is dropped.
    """
    with transaction.atomic():
        season = season_locked(season)
        check_organizer(season.league.club_id, actor)
        if season.status not in BEFORE_START:
            raise LeagueRefused("Divisions are fixed once the season has started.")
        if by not in SEED_BY:
            raise LeagueRefused("Seed the divisions by rating or by the last season's standings.")
        entrants = list(season.entrants.all())
        if len(entrants) < season.divisions:
            raise LeagueRefused(
                f"{plural(len(entrants), 'player')} cannot fill {plural(season.divisions, 'division')}: "
                "wait for more registrations, or have fewer divisions."
            )
        order = seed_order(season, entrants, by)
        cut, extra = divmod(len(order), season.divisions)
        start = 0
        for division in range(1, season.divisions + 1):
            size = cut + (1 if division <= extra else 0)
            for rank, entrant in enumerate(order[start : start + size], start=start + 1):
                entrant.division, entrant.seed_rank = division, rank
            ids = [e.pk for e in order[start : start + size]]
            Standing.objects.filter(entrant_id__in=ids).update(division=division, revision=F("revision") + 1)
            start += size
        Entrant.objects.bulk_update(order, ["division", "seed_rank"])
        season.round_set.all().delete()  # the draw was for the old divisions
        sizes = ", ".join(str(cut + (1 if d <= extra else 0)) for d in range(1, season.divisions + 1))
        audit(
            season,
            AuditEntry.Kind.SEASON,
            f"Divisions seeded by {SEED_BY[by]}: {sizes} players from division 1 down.",
            actor=actor,
            data={"by": by},
        )
    return order


# --- the draw and the start -------------------------------------------------------


def fixtures_generate(*, season: Season, actor: User, seed: int | None = None) -> list[Round]:
    """The draw for every division, stored as rounds and tables without matches; it may be made again until the start."""
    with transaction.atomic():
        season = season_locked(season)
        league = season.league
        check_organizer(league.club_id, actor)
        if season.status != Season.Status.CLOSED:
            raise LeagueRefused("Close registration before making the fixtures; they cannot change once it starts.")
        check_swiss_rounds(league, season.round_mode, season.fill)
        season.seed = secrets.randbits(31) if seed is None else seed
        season.save(update_fields=["seed"])
        season.round_set.all().delete()
        by_division: dict[int, list[int]] = {}
        for entrant_id, division in season.entrants.order_by("seed_rank", "pk").values_list("pk", "division"):
            by_division.setdefault(division, []).append(entrant_id)
        if not by_division:
            raise LeagueRefused("Nobody has registered for this season.")
        needed: dict[int, int] = {}
        if league.is_knockout:  # as many rounds as the largest division needs to reach its final
            needed = formats.knockout_rounds(league, {d: len(ids) for d, ids in by_division.items()})
            season.rounds = max(needed.values())
            season.save(update_fields=["rounds"])
        made: list[Round] = []
        for division, ids in sorted(by_division.items()):
            made += _division_fixtures(season, league, division, ids, needed.get(division, season.rounds))
        tables = Fixture.objects.filter(round__season=season).count()
        audit(
            season,
            AuditEntry.Kind.ROUND,
            f"Fixtures made: {plural(season.rounds, 'round')}, {plural(tables, 'table')}.",
            actor=actor,
            data={"seed": season.seed},
        )
    return made


FORMAT_NAMES: dict[str, str] = {
    League.Format.SWISS: "Swiss",
    League.Format.KNOCKOUT: "knockout",
    League.Format.LADDER: "ladder",
}


def check_swiss_rounds(league: League, round_mode: str, fill: str = Season.Fill.BOTS) -> None:
    """A Swiss, knockout or ladder round is drawn from the round before: its rounds cannot all open at once. A
    knockout or a ladder seats everyone every round: bots fill its short tables, nobody sits out."""
    name = FORMAT_NAMES.get(league.format, league.format)
    if league.draws_each_round and round_mode != Season.RoundMode.SEQUENTIAL:
        raise LeagueRefused(
            f"This league plays a {name} format: each round is drawn from the "
            "round before, so its rounds open one after another, not all at once."
        )
    if (league.is_knockout or league.is_ladder) and fill != Season.Fill.BOTS:
        raise LeagueRefused(
            f"A {name} season seats everyone every round: "
            "bots fill the empty seats of a short table, nobody sits out with a bye."
        )


def _division_fixtures(season: Season, league: League, division: int, ids: list[int], rounds: int) -> list[Round]:
    size = league.table_size
    if len(ids) < 2:
        raise LeagueRefused(f"Division {division} needs at least two players.")
    if season.fill == Season.Fill.BYES and len(ids) < size:
        raise LeagueRefused(f"Division {division} has {len(ids)} players, too few for tables of {size} without bots.")
    if league.draws_each_round:
        return _swiss_fixtures(season, division, rounds)
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


def _swiss_fixtures(season: Season, division: int, rounds: int) -> list[Round]:
    """A Swiss (knockout, ladder) season's rounds, with only the first drawn (by the seeds); the others are drawn
    as they open."""
    made = []
    for number in range(1, rounds + 1):
        opens_at, play_by = _round_dates(season, number)
        made.append(
            Round.objects.create(season=season, number=number, division=division, opens_at=opens_at, play_by=play_by)
        )
    order = swiss_seeds(season, division)
    # The seeds break ties in the standings all season: those without one (newcomers) get theirs now, after the
    # seeded, so that ratings changing during the season leave them as they were.
    entrants = {e.pk: e for e in season.entrants.filter(division=division)}
    last = max((e.seed_rank or 0 for e in entrants.values()), default=0)
    unseeded = [entrants[pk] for pk in order if entrants[pk].seed_rank is None]
    for n, entrant in enumerate(unseeded, start=last + 1):
        entrant.seed_rank = n
    Entrant.objects.bulk_update(unseeded, ["seed_rank"])
    if season.league.is_swiss:
        swiss_draw(round_=made[0], season=season, order=order)
    else:
        formats.round_draw(round_=made[0], season=season, seeds=order)
    return made


def _round_dates(season: Season, number: int) -> tuple[datetime | None, datetime | None]:
    """Rounds share the season's dates evenly (the league's ``round_days`` each when it has no end); the organizer
    may change them."""
    if season.starts_on is None:
        return None, None
    start = datetime.combine(season.starts_on, time(0, 0), tzinfo=UTC)
    if season.ends_on is not None:
        span = (datetime.combine(season.ends_on, time(23, 59), tzinfo=UTC) - start) / season.rounds
    else:
        span = timedelta(days=season.league.round_days or DEFAULT_ROUND_DAYS)
    return start + span * (number - 1), start + span * number


def season_start(*, season: Season, actor: User) -> Season:
    """The matches of the first round (or of every round) are made; the players see them on their dashboard."""
    with transaction.atomic():
        season = season_locked(season)
        check_organizer(season.league.club_id, actor)
        if season.status != Season.Status.CLOSED:
            raise LeagueRefused("Close registration and make the fixtures before starting the season.")
        check_divisions_filled(season)
        rounds = list(season.round_set.order_by("division", "number"))
        if not rounds:
            raise LeagueRefused("Make the fixtures before starting the season.")
        season.status = Season.Status.RUNNING
        season.save(update_fields=["status"])
        standings_ensure(season)
        audit(season, AuditEntry.Kind.SEASON, "The season started.", actor=actor)
        for round_ in rounds:
            if season.round_mode == Season.RoundMode.ALL or round_.number == 1:
                round_matches_create(round_, season, actor)
        _season_start_mail(season)
    return season


def check_divisions_filled(season: Season) -> None:
    """A season never starts with a division nobody plays in."""
    counted = dict(season.entrants.values_list("division").annotate(n=Count("pk")).order_by())
    empty = [d for d in range(1, season.divisions + 1) if not counted.get(d)]
    if empty:
        if len(empty) == 1:
            which, it = f"Division {empty[0]} has", "it"
        else:
            which, it = f"Divisions {', '.join(map(str, empty))} have", "them"
        raise LeagueRefused(
            f"{which} nobody in {it}: seed the divisions or move players into {it}, then draw the fixtures again."
        )


def _season_start_mail(season: Season) -> None:
    """Every entrant hears that the season started and where their matches are (once: the mails are deduplicated)."""
    league = season.league
    url = absolute_url(reverse("leagues-season", args=[league.club.slug, league.slug, season.number]))
    for entrant in season.entrants.select_related("user"):
        # Chosen by the organizer (and the player's own name): quoted in the body, never in the subject.
        context = {
            "season_name": mail_safe(season.name),
            "league_name": mail_safe(league.name),
            "club_name": mail_safe(league.club.name),
            "name": mail_safe(entrant.user.name),
            "url": url,
        }
        # A key written before (the same season and player) writes nothing: the outbox returns None.
        mail_queue(
            key=f"season-start:{season.pk}:{entrant.user_id}",
            recipient=entrant.user.email,
            user=entrant.user,
            template="leagues/mail/season_started",
            context=context,
        )


def standings_ensure(season: Season) -> None:
    """A standings line for every entrant without one (at the start; after a rebuild emptied them), in one INSERT."""
    have = set(Standing.objects.filter(season=season).values_list("entrant_id", flat=True))
    Standing.objects.bulk_create(
        Standing(season=season, entrant_id=pk, division=division)
        for pk, division in season.entrants.values_list("pk", "division")
        if pk not in have
    )
