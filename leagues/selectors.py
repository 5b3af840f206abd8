"""Reads: standings with every tie-break, a player's season, the fixtures on a dashboard, who may see what,
the rows each league page names, and what the sweeps find left undone.

``standings_for`` reads the season's ``Standing`` rows (kept current as results come in) with
the players' ratings and, when head-to-head is reached with players still tied who have met,
their meetings: one or two queries, however big the season. The pages' reads return None where the
page answers 404, and querysets where the template reads them (so a page reads no more than it shows).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from types import SimpleNamespace
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import (
    Count,
    Exists,
    JSONField,
    Max,
    Model,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    TextField,
)
from django.db.models.functions import MD5, Cast, JSONObject
from django.utils import timezone

from accounts.models import User
from games.invitations import TOKEN as INVITE_TOKEN
from games.models import Match
from leagues import tiebreaks
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
    SeatOffer,
    Standing,
    Substitute,
    Unavailability,
)

# The tie-break keys and the Line attribute each compares (head-to-head compares meetings instead).
LINE_FIELDS = {
    "points": "points",
    "wins": "wins",
    "game_score": "game_score",
    "opponents_rating": "opponents_rating",
    "fewest_bot_moves": "bot_moves",
    "fewest_timeouts": "timeouts",
    "lowest_bot_share": "bot_share",
}
HEAD_TO_HEAD = "head_to_head"
# What a league reads of a match: never the state, the log or the chat.
MATCH_HEAVY = tuple(f"match__{name}" for name in ("state", "recent_moves", "recent_chat", "options"))


@dataclass
class StandingRow:
    """One line of the standings table, ready for a template."""

    rank: int
    entrant_id: int
    user_id: int
    name: str
    division: int
    played: int
    points: float
    wins: int
    game_score: float
    bot_moves: int
    opponents_rating: float
    rating: float | None
    # The form and the points by round as the database's JSON text, read when asked for: a page shows a
    # hundred rows' form and a chart of five players' rounds, and decoding all of them was most of its time.
    form_json: str
    by_round_json: str
    rounds: int
    # Head-to-head points among those tied with this player when it was reached; None when not tied.
    head_to_head: float | None = None
    shared: bool = False  # the rank is shared with the line above or below
    # How many people this player has met at the tables: with none, the opponents' rating is not a number.
    opponents_met: int = 0
    # Reliability (leagues.results counts them with each result): timeouts, and all moves at their seats.
    timeouts: int = 0
    moves: int = 0

    @property
    def bot_share(self) -> float | None:
        """The share of the moves at the player's seats that a bot made; None before any move."""
        return self.bot_moves / self.moves if self.moves else None

    @cached_property
    def form(self) -> list[dict[str, Any]]:
        """The last five results, oldest first: ``{"fixture", "place", "of"}``."""
        return json.loads(self.form_json) if self.form_json else []

    @cached_property
    def points_by_round(self) -> list[float]:
        """League points in each round of the season, 1 to ``rounds``."""
        by_round = json.loads(self.by_round_json) if self.by_round_json else {}
        return [by_round.get(str(n), 0.0) for n in range(1, self.rounds + 1)]

    @cached_property
    def last_round(self) -> int:
        """The last round with a result for this player (0 before the first)."""
        return max(map(int, json.loads(self.by_round_json or "{}")), default=0)

    @property
    def cumulative(self) -> list[float]:
        total, out = 0.0, []
        for points in self.points_by_round:
            total += points
            out.append(total)
        return out

    def value(self, key: str) -> float | None:
        """The row's value for a tie-break key, for a column per tie-break."""
        if key == HEAD_TO_HEAD:
            return self.head_to_head
        return getattr(self, LINE_FIELDS.get(key, key), None)


STANDING_VALUES = (
    *("entrant_id", "division", "played", "points", "wins", "game_score", "bot_moves", "timeouts", "moves"),
    *("opponents_rating_total", "opponents_met", "form_json", "by_round_json", "rating"),
    *("entrant__user_id", "entrant__user__display_name", "entrant__user__email"),
)
# The JSON columns as text, decoded by the row when used (see StandingRow).
STANDING_TEXT = {
    "form_json": Cast("form", output_field=TextField()),
    "by_round_json": Cast("points_by_round", output_field=TextField()),
}
# Where head-to-head is a tie-break: a digest of each line's meetings, which tells whether the cached
# head-to-head points still hold (see _meetings). The database digests every line's meetings for it.
MEETINGS_DIGEST = {"meetings_digest": MD5(Cast("meetings", output_field=TextField()))}
MEETINGS_CACHE_SECONDS = 3600
# The digest of a line that has met nobody yet (``{}``): a tied group of such lines has no meetings to read.
NO_MEETINGS_DIGEST = hashlib.md5(b"{}").hexdigest()


def standings_for(*, season: Season, division: int | None = None) -> list[StandingRow]:
    """The season's standings (one division, or all ranked together), best first, with shared ranks.

    One query (the lines with the players' ratings) and a second for the meetings of those tied when
    head-to-head is reached and they have met; one more for ``season.league`` unless it was selected with
    the season. The lines are read as plain values: a season of hundreds builds no model instances.
    """
    league = season.league
    query = Standing.objects.filter(season=season)
    if division is not None:
        query = query.filter(division=division)
    order = list(league.tiebreaks) or ["points"]
    # The rating in the lines' query (one per player and game): a second query cost more than the subquery.
    rating = Subquery(Rating.objects.filter(game=league.game, user=OuterRef("entrant__user")).values("ordinal"))
    digest = MEETINGS_DIGEST if HEAD_TO_HEAD in order else {}
    lines_query = query.annotate(**STANDING_TEXT, **digest, rating=rating).values(*STANDING_VALUES, *digest)
    standings = {v["entrant_id"]: v for v in lines_query}
    lines = [_line(v) for v in standings.values()]
    groups = _tied_groups(lines, order)  # none without head-to-head, and then no digests either
    meetings = _meetings(season, groups, {p: v["meetings_digest"] for p, v in standings.items()}) if groups else {}
    # Where the tied have met nobody, head-to-head is nothing for all of them and splits no tie: left out.
    ranked = tiebreaks.rank(lines, order if meetings else [k for k in order if k != HEAD_TO_HEAD], meetings)
    h2h = _head_to_head(groups, meetings)
    ranks = [rank for rank, _ in ranked]
    rows = []
    for i, (rank, line) in enumerate(ranked):
        v = standings[line.player]
        user_id = v["entrant__user_id"]
        rows.append(
            StandingRow(
                rank=rank,
                entrant_id=line.player,
                user_id=user_id,
                name=_name(user_id, v["entrant__user__display_name"], v["entrant__user__email"]),
                division=v["division"],
                played=v["played"],
                points=v["points"],
                wins=v["wins"],
                game_score=v["game_score"],
                bot_moves=v["bot_moves"],
                opponents_rating=line.opponents_rating,
                rating=v["rating"],
                form_json=v["form_json"],
                by_round_json=v["by_round_json"],
                rounds=season.rounds,
                head_to_head=h2h.get(line.player),
                shared=_shared(ranks, i),
                opponents_met=v["opponents_met"],
                timeouts=v["timeouts"],
                moves=v["moves"],
            )
        )
    return rows


def _name(pk: int, display_name: str, email: str) -> str:
    """The player's name as ``User.name`` gives it, without building a User for each line."""
    return User.name.fget(SimpleNamespace(pk=pk, display_name=display_name, email=email))  # type: ignore[attr-defined]


def _shared(ranks: list[int], i: int) -> bool:
    return (i > 0 and ranks[i - 1] == ranks[i]) or (i + 1 < len(ranks) and ranks[i + 1] == ranks[i])


def _line(v: dict[str, Any]) -> tiebreaks.Line:
    met = v["opponents_met"]
    return tiebreaks.Line(
        player=v["entrant_id"],
        points=v["points"],
        wins=v["wins"],
        game_score=v["game_score"],
        opponents_rating=v["opponents_rating_total"] / met if met else 0.0,
        bot_moves=v["bot_moves"],
        played=v["played"],
        timeouts=v["timeouts"],
        moves=v["moves"],
    )


def _key(line: tiebreaks.Line, keys: Sequence[str]) -> tuple[Any, ...]:
    # Rounded as tiebreaks.rank rounds, so that both see the same ties.
    return tuple(round(getattr(line, LINE_FIELDS.get(k, k)), 9) for k in keys)


def _tied_groups(lines: list[tiebreaks.Line], order: Sequence[str]) -> list[list[int]]:
    """Players equal on every key that tiebreaks.rank compares before head-to-head (points always first)."""
    if HEAD_TO_HEAD not in order:
        return []
    keys = ["points", *(k for k in order if k != "points")]
    before = keys[: keys.index(HEAD_TO_HEAD)]
    groups: dict[tuple[Any, ...], list[int]] = {}
    for line in lines:
        groups.setdefault(_key(line, before), []).append(line.player)
    return [g for g in groups.values() if len(g) > 1]


def _meetings(season: Season, groups: list[list[int]], digests: dict[int, str]) -> dict[tuple[int, int], float]:
    """Head-to-head points between players of the same tied group: one query, for the tied players only.

    Decoding the tied players' meetings is most of the work of a big table (each holds every opponent
    met), and they change only when a result is counted: the pairs are cached under the groups and a
    digest of each member's meetings that the database computes with the lines, so a changed result,
    a new tie or another tie-break order is a new key, never a stale answer.
    """
    if not groups:
        return {}
    # Before the tied have met anyone (a season's first round) every pair is nothing: no cache, no query.
    group_of = {player: group for group in groups for player in group if digests.get(player) != NO_MEETINGS_DIGEST}
    if not group_of:
        return {}
    fingerprint = "|".join(f"{p}:{digests.get(p)}:{','.join(map(str, group_of[p]))}" for p in sorted(group_of))
    key = f"leagues:meetings:{season.pk}:{hashlib.sha256(fingerprint.encode()).hexdigest()}"
    found: dict[tuple[int, int], float] | None = cache.get(key)
    if found is not None:
        return found
    rows = Standing.objects.filter(season=season, entrant_id__in=list(group_of)).values_list("entrant_id", "meetings")
    found = {}
    for a, against in rows:
        found.update({(a, b): against.get(str(b), 0.0) for b in group_of[a] if b != a})
    cache.set(key, found, MEETINGS_CACHE_SECONDS)
    return found


def _head_to_head(groups: list[list[int]], meetings: dict[tuple[int, int], float]) -> dict[int, float]:
    return {a: points for group in groups for a, points in tiebreaks.head_to_head(group, meetings).items()}


# --- a player's season --------------------------------------------------------


@dataclass
class PlayerFixture:
    fixture: Fixture
    round: Round
    seat: int
    names: list[str]  # everyone at the table in seat order; bots as "Bot"
    place: int | None
    points: float | None
    # How the table counts when it was not simply played out: "forfeit", "adjusted", "as it stood", "void".
    tag: str = ""


# The player page's tags, by how a table was decided (a table played to its end has none).
FIXTURE_TAGS: dict[str, str] = {
    Fixture.How.FORFEIT: "forfeit",
    Fixture.How.ADJUSTED: "adjusted",
    Fixture.How.AS_STANDS: "as it stood",
    Fixture.How.VOID: "void",
}


def fixture_tag(fixture: Fixture) -> str:
    """The tag of a table on the player page; a forfeit recorded while the match plays on is one already."""
    if fixture.how in FIXTURE_TAGS:
        return FIXTURE_TAGS[fixture.how]
    return FIXTURE_TAGS[Fixture.How.FORFEIT] if fixture.forfeited else ""


@dataclass
class PlayerSeason:
    season: Season
    entrant: Entrant
    row: StandingRow | None
    fixtures: list[PlayerFixture] = field(default_factory=list)
    rating_changes: list[RatingChange] = field(default_factory=list)


def player_season(*, season: Season, user: User) -> PlayerSeason | None:
    """A player's line, tables and rating changes in one season; None if they did not enter it."""
    entrant = Entrant.objects.filter(season=season, user=user).select_related("user").first()
    if entrant is None:
        return None
    rows = standings_for(season=season, division=entrant.division)
    row = next((r for r in rows if r.entrant_id == entrant.pk), None)
    fixtures = [
        f
        for f in Fixture.objects.filter(round__season=season)
        .select_related("round", "match")
        .defer(*MATCH_HEAVY)
        .order_by("round__number", "table_number")
        if entrant.pk in f.seats
    ]
    ids = {e for f in fixtures for e in f.seats if e is not None}
    names = {e.pk: e.user.name for e in Entrant.objects.filter(pk__in=ids).select_related("user")}
    mine = []
    for f in fixtures:
        seat = f.seats.index(entrant.pk)
        result = f.result or {}
        mine.append(
            PlayerFixture(
                fixture=f,
                round=f.round,
                seat=seat,
                names=[names.get(e, "?") if e is not None else "Bot" for e in f.seats],
                place=result["places"][seat] if result else None,
                points=result["points"][seat] if result else None,
                tag=fixture_tag(f),
            )
        )
    changes = list(
        RatingChange.objects.filter(rating__user=user, fixture__round__season=season)
        .select_related("fixture__round")
        .order_by("at", "pk")
    )
    return PlayerSeason(season=season, entrant=entrant, row=row, fixtures=mine, rating_changes=changes)


# --- every result of a season, for its export ------------------------------------------


@dataclass
class SeasonResults:
    """The season's counted tables in playing order, with the names of everyone who sat at them."""

    fixtures: list[Fixture]
    names: dict[int, str]  # entrant id -> the player's name


def season_results(*, season: Season) -> SeasonResults:
    """Every table whose result is in (or that was made void), in playing order: two queries, however big.

    A table counted after the season was frozen has no result and no way it was decided: it is left out,
    as the standings leave it out.
    """
    fixtures = list(
        Fixture.objects.filter(round__season=season, counted_at__isnull=False)
        .exclude(how="")
        .select_related("round")
        .only("id", "table_number", "seats", "result", "how", "round__id", "round__number", "round__division")
        .order_by("round__number", "round__division", "table_number")
    )
    return SeasonResults(fixtures=fixtures, names=entrant_names(season=season))


# --- dashboard, clubs, access ---------------------------------------------------


def fixtures_for_user(*, user: User) -> list[Fixture]:
    """League matches the player is still playing, for the dashboard beside casual matches."""
    return list(
        Fixture.objects.filter(
            match__seats__user=user,
            match__status__in=[Match.Status.WAITING, Match.Status.ACTIVE],
            round__season__status=Season.Status.RUNNING,
        )
        .select_related("round__season__league__club")
        .only(*FIXTURE_ROW_FIELDS)
        .order_by("round__play_by", "pk")
    )


# What the dashboard's row of a league match shows: the table, the round and its date, the league and season
# names and the standings' address (the match itself is linked by its id).
FIXTURE_ROW_FIELDS = (
    *("id", "match", "table_number", "round", "round__id", "round__number", "round__play_by", "round__season"),
    *("round__season__id", "round__season__name", "round__season__number", "round__season__league"),
    *("round__season__league__id", "round__season__league__name", "round__season__league__slug"),
    *("round__season__league__club", "round__season__league__club__id", "round__season__league__club__slug"),
)


def club_role(*, club: Club, user: User | None) -> str | None:
    """``"organizer"``, ``"player"`` or None for someone outside the club (or not logged in)."""
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def club_role_subquery(*, user: User, club: OuterRef) -> Subquery:
    """``club_role`` as a subquery, for a page that reads the role with the club in one query."""
    return Subquery(Membership.objects.filter(club=club, user=user).order_by().values("role"))


def clubs_for(*, user: User | None) -> QuerySet[Club]:
    """Public clubs and the user's own."""
    if user is None or not user.is_authenticated:
        return Club.objects.filter(public=True)
    return Club.objects.filter(Q(public=True) | Q(memberships__user=user)).distinct()


def season_audit(*, season: Season, limit: int = 200) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(season=season).select_related("actor", "fixture")[:limit])


def void_fixtures(*, season: Season) -> list[Fixture]:
    """The season's void tables (abandoned, vanished or never played), in playing order, with their rounds."""
    return list(
        Fixture.objects.filter(round__season=season, how=Fixture.How.VOID)
        .select_related("round")
        .order_by("round__division", "round__number", "table_number")
    )


def division_sizes(*, season: Season) -> dict[int, int]:
    """Players per division, as the season's end counts them (its standings lines)."""
    counted = Standing.objects.filter(season=season).values_list("division").annotate(n=Count("pk")).order_by()
    return dict(counted)


def overdue_fixtures(*, season: Season) -> QuerySet[Fixture]:
    """Tables still playing in rounds past their "play by" date, and those bots play out, for the organizer."""
    return (
        Fixture.objects.filter(round__season=season, counted_at=None, match__status=Match.Status.ACTIVE)
        .filter(Q(round__play_by__lt=timezone.now()) | Q(round__settled_at__isnull=False))
        .select_related("round", "match")
        .order_by("round__number", "table_number")
    )


def bot_played_fixtures(*, season: Season) -> QuerySet[Fixture]:
    """Tables where a bot played for a person: turns that timed out, an absent player, or a seat handed over at "play by"."""
    for_person = Q(match__seats__bot_moves__gt=0) | (
        Q(match__seats__user__isnull=False) & ~Q(match__seats__bot_level="")
    )
    return (
        Fixture.objects.filter(for_person, round__season=season)
        .distinct()
        .select_related("round", "match")
        .order_by("round__number", "table_number")
    )


# --- the pages' reads: a row each page names, or None for its 404 ---------------------


def club_get(*, slug: str) -> Club | None:
    return _one(Club.objects.filter(slug=slug))


def league_get(*, club_slug: str, league_slug: str) -> League | None:
    """The league with its club."""
    return _one(League.objects.select_related("club").filter(club__slug=club_slug, slug=league_slug))


# What a season's standings tables show, digested for a Season query: the key of its cached tables
# (``leagues.standings_page``). One subquery with the season, over its lines and their players' ratings.
#
# - The lines: how many, the sum of their revisions and the newest id. A result, an adjustment, a rebuild's
#   replay, a division set and a player's rename (``leagues.revisions``) raise a line's revision; a line
#   made (a registration, the start, a rebuild) is a newer id and one more; a line gone (an entrant
#   withdrawn or removed, by cascade) is one fewer.
# - Their players' ratings, which results in other leagues move too: how many, and the sum of their matches
#   (every rating change counts one more). Ratings of every game, not only the league's: a result in another
#   game makes the tables be rendered again once (a miss, never a stale page), and the subquery needs no
#   second join to the league. The join repeats a line per rating, so the lines are counted distinct; a sum
#   over the repeated rows still grows with every revision.
#
# Built once, here: resolving and compiling the old digest (names concatenated in SQL, two
# subqueries) took ~5 ms of Python a request. Why not a counter on the season raised by every writer:
# results would lock the season's row, and two tables of a season are counted at once (their round opens
# once, under the round's lock: ``tests/leagues/test_swiss_race.py``); a result in another league would lock
# the row of every season its players entered, in no order (a deadlock between two such results).
STANDINGS_DIGEST = Subquery(
    Standing.objects.filter(season=OuterRef("pk"))
    .order_by()
    .values("season")
    .annotate(
        key=JSONObject(
            lines=Count("pk", distinct=True),
            revisions=Sum("revision"),
            newest=Max("pk"),
            ratings=Count("entrant__user__ratings", distinct=True),
            matches=Sum("entrant__user__ratings__matches"),
        )
    )
    .values("key"),
    output_field=JSONField(),
)
# The standings page's read of its season, with the digest resolved once here: only the filter changes.
_SEASONS_WITH_STANDINGS = Season.objects.select_related("league__club").annotate(standings_digest=STANDINGS_DIGEST)


def season_get(
    *,
    club_slug: str,
    league_slug: str,
    number: int,
    reader: User | None,
    with_void: bool = False,
    with_standings: bool = False,
) -> Season | None:
    """The season with its league and club from one query, annotated with the reader's role in the club
    (``reader_role``, a subquery; ``reader_substitute``, whether they are in its substitute pool), ``with_void``,
    whether any of its tables is void (``has_void``), and ``with_standings``, the key of its standings tables
    (``STANDINGS_DIGEST``) and whether the reader plays in it (``reader_entrant``)."""
    annotations: dict[str, Any] = {}
    if with_standings and reader is not None:
        annotations["reader_entrant"] = Exists(Entrant.objects.filter(season=OuterRef("pk"), user=reader))
    if with_void:
        annotations["has_void"] = Exists(Fixture.objects.filter(round__season=OuterRef("pk"), how=Fixture.How.VOID))
        # And whether a substitute played any seat (the standings page then says who played what).
        taken = SeatOffer.objects.filter(fixture__round__season=OuterRef("pk"), taken_at__isnull=False)
        annotations["has_stints"] = Exists(taken)
    if reader is not None:
        annotations["reader_role"] = club_role_subquery(user=reader, club=OuterRef("league__club"))
        # Whether the reader is in the season's substitute pool (the season page's volunteer button).
        annotations["reader_substitute"] = Exists(Substitute.objects.filter(season=OuterRef("pk"), user=reader))
    seasons = _SEASONS_WITH_STANDINGS if with_standings else Season.objects.select_related("league__club")
    return _one(
        seasons.annotate(**annotations).filter(league__club__slug=club_slug, league__slug=league_slug, number=number)
    )


def club_ids_for(*, user: User) -> set[int]:
    """The clubs the user is a member of."""
    return set(user.memberships.values_list("club_id", flat=True))


def memberships_of(*, club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user")


def member_get(*, club: Club, user_id: int) -> User | None:
    return _one(User.objects.filter(pk=user_id, memberships__club=club))


def member_entries(*, club: Club, user: User) -> list[tuple[Entrant, int]]:
    """The member's entries in the club's seasons not yet finished, each with their tables not yet counted
    (what a bot takes over if they leave). Two queries."""
    entries = list(
        Entrant.objects.filter(user=user, season__league__club=club)
        .exclude(season__status=Season.Status.FINISHED)
        .select_related("season__league")
        .order_by("season__league__name", "season__number")
    )
    seats = Fixture.objects.filter(round__season__in=[e.season_id for e in entries], counted_at=None)
    tables = list(seats.values_list("round__season_id", "seats"))
    return [(e, sum(1 for season, at in tables if season == e.season_id and e.pk in at)) for e in entries]


def invitations_pending(*, club: Club) -> QuerySet[ClubInvitation]:
    """Invitations neither accepted nor expired (a cancelled one has expired), newest first."""
    return club.invitations.filter(accepted_at=None, expires_at__gt=timezone.now()).order_by("-created_at")


def club_record(*, club: Club, limit: int = 100) -> list[AuditEntry]:
    """The club's own record (invitations sent, resent, cancelled, accepted; members joined, changed, removed), newest first."""
    return list(AuditEntry.objects.filter(club=club, season=None).select_related("actor")[:limit])


def invitation_get(*, club: Club, invitation_id: int) -> ClubInvitation | None:
    return _one(ClubInvitation.objects.filter(pk=invitation_id, club=club))


def invitation_for(*, token: str) -> ClubInvitation | None:
    """The invitation an invitation link names, with its club and who sent it."""
    found = ClubInvitation.objects.select_related("club", "invited_by").filter(token=token)
    return found.first() if INVITE_TOKEN.fullmatch(token) else None  # a made-up link: not found


def player_get(*, user_id: int) -> User | None:
    return _one(User.objects.filter(pk=user_id))


def entrants_of(*, season: Season) -> QuerySet[Entrant]:
    return season.entrants.select_related("user")


def waiting_list(*, season: Season) -> list[Entrant]:
    """The registrants past the season's limit, in the order they registered (the first moves up first)."""
    if season.entrants_max is None:
        return []
    return list(season.entrants.select_related("user").order_by("registered_at", "pk")[season.entrants_max :])


def waiting_place(*, season: Season, user: User) -> int | None:
    """The user's place on the season's waiting list (1 is next to get a place), or None: they have a place."""
    for place, entrant in enumerate(waiting_list(season=season), start=1):
        if entrant.user_id == user.pk:
            return place
    return None


def entrant_names(*, season: Season) -> dict[int, str]:
    return {e.pk: e.user.name for e in Entrant.objects.filter(season=season).select_related("user")}


def entrant_get(*, season: Season, entrant_id: int) -> Entrant | None:
    return _one(Entrant.objects.filter(pk=entrant_id, season=season))


def rounds_with_tables(*, season: Season) -> list[Round]:
    """The season's rounds with their tables, in two queries."""
    return list(season.round_set.prefetch_related("fixtures"))


def round_get(*, season: Season, round_id: int) -> Round | None:
    return _one(Round.objects.filter(pk=round_id, season=season))


def fixture_get(*, season: Season, fixture_id: int) -> Fixture | None:
    """A table of the season with its round and match."""
    return _one(Fixture.objects.select_related("round", "match").filter(pk=fixture_id, round__season=season))


def _one[M: Model](query: QuerySet[M]) -> M | None:
    """The row the query names, or None: ``get`` as ``get_object_or_404`` asks it, without the exception."""
    try:
        return query.get()
    except ObjectDoesNotExist:
        return None


# --- the sweeps: what a lost message left undone ------------------------------------


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


# --- who cannot play, and who would play instead (leagues.substitutes) ------------------------------------


@dataclass(frozen=True)
class RoundAvailability:
    number: int
    unavailable: bool
    opened: bool  # the round has opened: its availability is fixed


def availability_of(*, season: Season, entrant: Entrant) -> list[RoundAvailability]:
    """Each round number of the season, for the entrant: whether they said they cannot play it, and whether it
    has opened (one query, and one more once the season runs: no round opens before)."""
    unavailable = set(Unavailability.objects.filter(entrant=entrant).order_by().values_list("round_number", flat=True))
    opened: set[int] = set()
    if season.status == Season.Status.RUNNING:
        opened_rounds = Round.objects.filter(season=season, division=entrant.division, opened_at__isnull=False)
        opened = set(opened_rounds.order_by().values_list("number", flat=True))
    return [RoundAvailability(n, n in unavailable, n in opened) for n in range(1, season.rounds + 1)]


def substitute_pool(*, season: Season) -> tuple[list[User], list[User]]:
    """The club's members in the season's substitute pool, and those who are not (the organizer's picker), from
    one query."""
    pool = Exists(Substitute.objects.filter(season=season, user=OuterRef("user_id")))
    members = (
        Membership.objects.filter(club_id=season.league.club_id)
        .annotate(substitute=pool)
        .select_related("user")
        .order_by("user__display_name", "user__email")
    )
    found = list(members)
    return [m.user for m in found if m.substitute], [m.user for m in found if not m.substitute]


def stints_of(*, season: Season) -> list[SeatOffer]:
    """The seats a substitute played on, with who and from which move, in table order."""
    taken = SeatOffer.objects.filter(fixture__round__season=season, taken_at__isnull=False)
    related = taken.select_related("fixture__round", "entrant__user", "taken_by")
    return list(related.order_by("fixture__round__number", "fixture__table_number", "seat"))
