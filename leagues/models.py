"""Clubs, their leagues and seasons, the fixtures of a season and the standings they add up to.

A fixture points at the match it is played as; ``games`` knows nothing of leagues. Results
reach the standings once per fixture (``Fixture.counted_at`` is the claim), and every
``Standing`` row is kept up to date by adding each counted result's contribution
(``Fixture.result``), so a correction subtracts the old contribution and adds the new one.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.models import Seat


class Club(models.Model):
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    public = models.BooleanField(default=True, help_text="Anyone may read its leagues and join it.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANIZER = "organizer", "Organizer"
        PLAYER = "player", "Player"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class ClubInvitation(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=16, choices=Membership.Role.choices, default=Membership.Role.PLAYER)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [
            # The invitation limits count an organizer's invitations of the last day (leagues.clubs).
            models.Index(fields=["invited_by", "created_at"], name="clubinvite_inviter_created"),
        ]

    def __str__(self) -> str:
        return f"{self.email} to {self.club}"

    def is_open(self) -> bool:
        """Whether its link still makes someone a member: neither accepted, nor expired, nor cancelled."""
        return self.accepted_at is None and self.expires_at > timezone.now()


class League(models.Model):
    class Scoring(models.TextChoices):
        PLACES = "places", "Points per place"
        GAME_SCORE = "game_score", "The game's own score"

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"
        KNOCKOUT = "knockout", "Knockout heats"
        LADDER = "ladder", "Ladder"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80)
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField()
    # games.clocks.TimeControl.to_json(); None: turns have no time limit.
    time_control = models.JSONField(null=True, blank=True)
    timeout_bot_level = models.CharField(max_length=16, choices=Seat.BotLevel.choices, default=Seat.BotLevel.BASIC)
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.PLACES)
    place_points = models.JSONField(default=list, blank=True, help_text="Points for 1st, 2nd, ... place.")
    tiebreaks = models.JSONField(default=list, blank=True, help_text="Keys of leagues.tiebreaks.TIEBREAKS, in order.")
    rated = models.BooleanField(default=True)
    # The league's cadence: a season without an end date gives each round this many days, and the season
    # made at a finish (leagues.rollover) starts the day after and lasts its rounds times this.
    round_days = models.PositiveSmallIntegerField(default=7, help_text="Days each round lasts.")
    # Round robin: every round drawn at the start. Swiss: round 1 at the start, each next one from the standings.
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.ROUND_ROBIN)
    # Knockout heats: how many of each table go through to the next round (leagues.knockout).
    advance = models.PositiveSmallIntegerField(default=2, help_text="Knockout: players of each table who go through.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["club", "slug"], name="league_unique_slug")]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"

    @property
    def is_swiss(self) -> bool:
        """Each round after the first is drawn from the standings as it opens, so rounds open one after another."""
        return self.format == self.Format.SWISS

    @property
    def is_knockout(self) -> bool:
        return self.format == self.Format.KNOCKOUT

    @property
    def is_ladder(self) -> bool:
        return self.format == self.Format.LADDER

    @property
    def draws_each_round(self) -> bool:
        """Swiss, knockout and ladder rounds are drawn as they open, from what the round before left."""
        return self.format != self.Format.ROUND_ROBIN


class Season(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration open"
        CLOSED = "closed", "Registration closed"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class RoundMode(models.TextChoices):
        ALL = "all", "All rounds at once"
        SEQUENTIAL = "sequential", "One round after another"

    class Fill(models.TextChoices):
        BOTS = "bots", "Bots fill the empty seats"
        BYES = "byes", "Byes for those left over"

    class Settle(models.TextChoices):
        BOTS = "bots", "Bots play the match out"
        AS_STANDS = "as_stands", "Scored as it stands"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    number = models.PositiveIntegerField()
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    divisions = models.PositiveSmallIntegerField(default=1)
    promote = models.PositiveSmallIntegerField(default=0, help_text="Moved up a division at the end.")
    relegate = models.PositiveSmallIntegerField(default=0, help_text="Moved down a division at the end.")
    rounds = models.PositiveSmallIntegerField(default=1)
    round_mode = models.CharField(max_length=16, choices=RoundMode.choices, default=RoundMode.ALL)
    fill = models.CharField(max_length=8, choices=Fill.choices, default=Fill.BOTS)
    settle = models.CharField(max_length=16, choices=Settle.choices, default=Settle.BOTS)
    seed = models.BigIntegerField(default=0, help_text="The fixtures' draw; a new one each time they are generated.")
    entrants_max = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        verbose_name="Most players",
        help_text="Those who register after it is full wait for a place; empty: no limit.",
    )
    previous = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next")
    # Set by season_finish: from then on only an organizer's adjustment changes the standings.
    frozen_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="season_unique_number")]

    def __str__(self) -> str:
        return f"{self.league.name}: {self.name}"

    @property
    def is_frozen(self) -> bool:
        return self.frozen_at is not None

    def places_taken(self, registered: int) -> int:
        """How many of ``registered`` players have a place; the rest are on the waiting list."""
        return registered if self.entrants_max is None else min(registered, self.entrants_max)


class Entrant(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries")
    division = models.PositiveSmallIntegerField(default=1, help_text="1 is the top division.")
    seed_rank = models.PositiveIntegerField(null=True, blank=True, help_text="Final rank in the previous season.")
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["division", "seed_rank", "pk"]
        constraints = [models.UniqueConstraint(fields=["season", "user"], name="entrant_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.season}"


class Round(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    division = models.PositiveSmallIntegerField(default=1)
    # Sequential seasons: the round opens when the one before it ends, or on this date, whichever comes first.
    opens_at = models.DateTimeField(null=True, blank=True)
    play_by = models.DateTimeField(null=True, blank=True)
    byes = models.JSONField(default=list, blank=True, help_text="Entrant ids who sit this round out.")
    opened_at = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["season", "division", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "division", "number"], name="round_unique_number"),
        ]
        indexes = [
            # The round sweep: open rounds past their date, unsettled rounds past "play by".
            models.Index(fields=["play_by"], condition=Q(settled_at__isnull=True), name="round_unsettled"),
            models.Index(fields=["opens_at"], condition=Q(opened_at__isnull=True), name="round_unopened"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.season}"


class Fixture(models.Model):
    class How(models.TextChoices):
        PLAYED = "played", "Played"
        AS_STANDS = "as_stands", "Scored as it stood"
        FORFEIT = "forfeit", "Forfeit"
        ADJUSTED = "adjusted", "Adjusted"
        # The match ended without a result (abandoned, or gone) or never started: it counts for nobody.
        VOID = "void", "Void"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="fixtures")
    table_number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="fixture"
    )
    seats = models.JSONField(help_text="Entrant ids in seat order; null for a bot seat.")
    # The claim: set once, by whoever adds the result to the standings first.
    counted_at = models.DateTimeField(null=True, blank=True)
    # What was added to the standings, per seat: places, scores, points, bot_moves, opponents_rating.
    result = models.JSONField(null=True, blank=True)
    how = models.CharField(max_length=16, choices=How.choices, blank=True)
    # Entrant ids who forfeited while the match was still played: a bot plays their seats on, and the
    # result places them last when the match ends (leagues.results.result_forfeit).
    forfeited = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["round", "table_number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table_number"], name="fixture_unique_table"),
        ]
        indexes = [
            # The results sweep looks only at uncounted fixtures with a match.
            models.Index(fields=["match"], condition=Q(counted_at__isnull=True), name="fixture_uncounted"),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_number} of {self.round}"

    @property
    def season_id(self) -> int:
        return self.round.season_id


class Standing(models.Model):
    """One entrant's line in the table, kept current by adding each counted result's contribution."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="standing")
    division = models.PositiveSmallIntegerField(default=1)
    played = models.PositiveIntegerField(default=0)
    points = models.FloatField(default=0)
    wins = models.PositiveIntegerField(default=0)
    game_score = models.FloatField(default=0)
    bot_moves = models.PositiveIntegerField(default=0)
    # Reliability, apart from skill: the timeouts at this entrant's seats and all the moves made there
    # (the player's, their bot's, the forced ones), so that bot_moves / moves is the share a bot played.
    timeouts = models.PositiveIntegerField(default=0)
    moves = models.PositiveIntegerField(default=0)
    # The average opponents' rating is their sum over the opponents met, divided by how many.
    opponents_rating_total = models.FloatField(default=0)
    opponents_met = models.PositiveIntegerField(default=0)
    # The last five results, oldest first: [{"fixture": id, "place": n, "of": table size}].
    form = models.JSONField(default=list, blank=True)
    # Points per round number, as {"1": 4.0, "2": 1.5}.
    points_by_round = models.JSONField(default=dict, blank=True)
    # Head-to-head: how this entrant fared against each opponent met, by the opponent's entrant id:
    # {"12": 1.5} is one point for each table where it finished ahead of 12, half a point for level.
    # Kept on the row (not a table of pairs) so the standings read it with the lines, in the same query.
    meetings = models.JSONField(default=dict, blank=True)
    # One more each time a result, a division or the player's rename changes the line (leagues.results, seasons,
    # revisions): with the line's id it names what the line shows, so the standings page's cached tables are
    # keyed by it (selectors.STANDINGS_DIGEST), never by time.
    revision = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["season", "division"], name="standing_table")]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.points:g}"

    @property
    def opponents_rating(self) -> float:
        return self.opponents_rating_total / self.opponents_met if self.opponents_met else 0.0

    @property
    def bot_share(self) -> float | None:
        """The share of the moves at this entrant's seats that a bot made (None before any move)."""
        return self.bot_moves / self.moves if self.moves else None


class AuditEntry(models.Model):
    class Kind(models.TextChoices):
        RESULT = "result", "Result"
        FORFEIT = "forfeit", "Forfeit"
        ADJUST = "adjust", "Adjustment"
        SETTLE = "settle", "Settled"
        ROUND = "round", "Round"
        SEASON = "season", "Season"
        PROMOTION = "promotion", "Promotion and relegation"
        # A club's own record (no season): invitations sent, resent, cancelled, accepted; members joined, changed, left.
        INVITATION = "invitation", "Invitation"
        MEMBER = "member", "Member"

    # A season's entry has its season; a club's entry has its club and no season (leagues.record).
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE, related_name="audit")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="audit")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    text = models.CharField(max_length=500)
    fixture = models.ForeignKey(Fixture, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit")
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [
            models.Index(fields=["season", "-at"], name="audit_season_at"),
            models.Index(fields=["club", "-at"], name="audit_club_at"),
        ]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return self.text[:60]

    def club_of(self) -> Club | None:
        """The club the entry is about: its own for a club's entry, its season's league's for a season's."""
        if self.club_id is not None:
            return self.club
        return self.season.league.club if self.season is not None else None


class Rating(models.Model):
    """A player's rating in one game, across every rated league."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="The rating shown: leagues.ratings.ordinal(mu, sigma).")
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_unique_game")]

    def __str__(self) -> str:
        return f"{self.user} in {self.game}: {self.ordinal:.0f}"


class RatingChange(models.Model):
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    fixture = models.ForeignKey(Fixture, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    delta = models.FloatField(default=0, help_text="The change of the shown rating.")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rating", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.rating}: {self.delta:+.1f}"


class Unavailability(models.Model):
    """An entrant cannot play this round of the season (by number, so it can be said before the draw)."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="unavailable")
    round_number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entrant", "round_number"]
        constraints = [
            models.UniqueConstraint(fields=["entrant", "round_number"], name="unavailability_unique_round"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} cannot play round {self.round_number}"


class Substitute(models.Model):
    """A club member willing to take a seat in this season when its player cannot play."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="substitutes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="substitutions")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "added_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["season", "user"], name="substitute_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} substitutes in {self.season}"


class SeatOffer(models.Model):
    """An entrant's seat at a table offered to the season's substitutes; the first to accept plays it on.

    Once taken it is the record of the stint: the entrant (or their bot) played the moves before ``from_move``,
    ``taken_by`` the moves from it. The result still counts for the entrant (leagues.results): a substitute
    earns no standings points.
    """

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="offers")
    seat = models.PositiveSmallIntegerField()
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="offers")
    created_at = models.DateTimeField(auto_now_add=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    taken_at = models.DateTimeField(null=True, blank=True)
    from_move = models.PositiveIntegerField(null=True, blank=True, help_text="The first move the substitute made.")

    class Meta:
        ordering = ["fixture", "seat"]
        constraints = [models.UniqueConstraint(fields=["fixture", "seat"], name="seatoffer_unique_seat")]

    def __str__(self) -> str:
        return f"Seat {self.seat} of {self.fixture}"

    @property
    def is_taken(self) -> bool:
        return self.taken_at is not None

    def stint_text(self) -> str:
        """Who played the seat from when: "Ann's seat at table 2 of round 1 was played by Bob from move 14"."""
        assert self.taken_by is not None
        table = f"table {self.fixture.table_number} of round {self.fixture.round.number}"
        return (
            f"{self.entrant.user.name}'s seat at {table} was played by {self.taken_by.name} from move {self.from_move}"
        )
