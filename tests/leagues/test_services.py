"""Clubs, leagues and seasons through their services: who may do what, and what each step leaves behind."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.clocks import TimeControl
from games.errors import Refused
from games.models import Mail, Match
from leagues.clubs import club_create, club_invite, club_join, member_remove, member_set_role
from leagues.errors import LeagueRefused, NotOrganizer
from leagues.models import AuditEntry, ClubInvitation, Entrant, Fixture, Membership, Round, Season, Standing
from leagues.results import fixture_count, result_adjust, result_forfeit, round_settle, standings_rebuild
from leagues.rollover import season_finish
from leagues.rounds import round_open, round_update
from leagues.seasons import (
    fixtures_generate,
    league_create,
    league_update,
    season_close_registration,
    season_create,
    season_open_registration,
    season_register,
    season_start,
    season_withdraw,
)
from leagues.wording import plural
from tests.leagues.factories import (
    UserFactory,
    finish,
    fixtures_of,
    make_club,
    make_league,
    make_season,
    member,
    organizer_of,
    two_divisions_started,
)

pytestmark = pytest.mark.django_db


# --- clubs ------------------------------------------------------------------


def test_it_makes_the_creator_the_first_organizer_with_a_unique_slug() -> None:
    alice = UserFactory()
    first = club_create(name="The Parlour", created_by=alice)
    second = club_create(name="The Parlour", created_by=alice)
    assert (first.slug, second.slug) == ("the-parlour", "the-parlour-2")
    assert Membership.objects.get(club=first, user=alice).role == Membership.Role.ORGANIZER


def test_it_mails_an_invitation_that_joins_the_club_once() -> None:
    club = make_club()
    invitation = club_invite(club=club, actor=organizer_of(club), email=" Dora@Example.com ")
    mail = Mail.objects.get(dedupe_key=f"club-invite:{invitation.pk}")
    assert mail.recipient == "dora@example.com"
    # The club's name is the organizer's text: quoted in the body, never in the subject.
    assert invitation.token in mail.body and f'"{club.name}"' in mail.body and club.name not in mail.subject
    dora = UserFactory(email="dora@example.com")
    membership = club_join(user=dora, token=invitation.token)
    assert (membership.club, membership.role) == (club, Membership.Role.PLAYER)
    with pytest.raises(LeagueRefused, match="already been used"):
        club_join(user=UserFactory(), token=invitation.token)


def test_it_refuses_an_expired_invitation() -> None:
    club = make_club()
    invitation = club_invite(club=club, actor=organizer_of(club), email="late@example.com")
    ClubInvitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(LeagueRefused, match="expired"):
        club_join(user=UserFactory(), token=invitation.token)


def test_it_lets_anyone_join_a_public_club_but_a_private_one_only_by_invitation() -> None:
    public, private = make_club(public=True), make_club(public=False)
    club_join(user=UserFactory(), club=public)
    with pytest.raises(LeagueRefused, match="private"):
        club_join(user=UserFactory(), club=private)


def test_it_keeps_at_least_one_organizer() -> None:
    club = make_club()
    boss, player = organizer_of(club), member(club)
    with pytest.raises(LeagueRefused, match="at least one organizer"):
        member_set_role(club=club, actor=boss, user=boss, role=Membership.Role.PLAYER)
    with pytest.raises(LeagueRefused, match="at least one organizer"):
        member_remove(club=club, actor=boss, user=boss)
    member_set_role(club=club, actor=boss, user=player, role=Membership.Role.ORGANIZER)
    member_remove(club=club, actor=boss, user=boss)  # now someone else organizes
    assert list(club.memberships.values_list("user", flat=True)) == [player.pk]


def test_it_lets_a_player_leave_but_not_remove_others() -> None:
    club = make_club()
    a, b = member(club), member(club)
    with pytest.raises(NotOrganizer):
        member_remove(club=club, actor=a, user=b)
    member_remove(club=club, actor=a, user=a)
    assert not club.memberships.filter(user=a).exists()


# --- the permission matrix for every managing service ------------------------


def _managing_calls(season: Season, league: Any, club: Any) -> dict[str, Any]:
    fixture = Fixture.objects.filter(round__season=season).first()
    round_ = Round.objects.filter(season=season).first()
    return {
        "club_invite": lambda u: club_invite(club=club, actor=u, email="x@example.com"),
        "member_set_role": lambda u: member_set_role(club=club, actor=u, user=organizer_of(club), role="player"),
        "league_create": lambda u: league_create(club=club, actor=u, name="L", game="renfield", table_size=4),
        "season_create": lambda u: season_create(league=league, actor=u, rounds=2),
        "season_open_registration": lambda u: season_open_registration(season=season, actor=u),
        "season_close_registration": lambda u: season_close_registration(season=season, actor=u),
        "fixtures_generate": lambda u: fixtures_generate(season=season, actor=u),
        "season_start": lambda u: season_start(season=season, actor=u),
        "round_open": lambda u: round_open(round=round_, actor=u),
        "round_settle": lambda u: round_settle(round=round_, actor=u),
        "round_update": lambda u: round_update(round=round_, actor=u, play_by=timezone.now()),
        "result_forfeit": lambda u: result_forfeit(
            fixture=fixture, actor=u, entrants=[fixture.seats[0]], reason="No show."
        ),
        "result_adjust": lambda u: result_adjust(fixture=fixture, actor=u, places=[1, 2, 3, 4], reason="Misclick."),
        "season_finish": lambda u: season_finish(season=season, actor=u),
        "standings_rebuild": lambda u: standings_rebuild(season=season, actor=u),
    }


@pytest.mark.parametrize("who", ["player", "other_club_organizer", "outsider"])
@pytest.mark.parametrize(
    "call",
    [
        *("club_invite", "member_set_role", "league_create", "season_create", "season_open_registration"),
        *("season_close_registration", "fixtures_generate", "season_start", "round_open", "round_settle"),
        *("round_update", "result_forfeit", "result_adjust", "season_finish", "standings_rebuild"),
    ],
)
def test_only_the_clubs_organizers_manage_it(who: str, call: str) -> None:
    season = make_season(players=4, rounds=1)
    league = season.league
    club = league.club
    player = Entrant.objects.filter(season=season).first().user  # type: ignore[union-attr]
    people = {
        "player": player,
        "other_club_organizer": organizer_of(make_club(name="Rivals")),
        "outsider": UserFactory(),
    }
    before = (AuditEntry.objects.count(), Season.objects.count(), Match.objects.count())
    with pytest.raises(NotOrganizer):
        _managing_calls(season, league, club)[call](people[who])
    assert (AuditEntry.objects.count(), Season.objects.count(), Match.objects.count()) == before


# --- leagues and seasons ------------------------------------------------------


def test_it_checks_a_leagues_table_scoring_and_tiebreaks() -> None:
    club = make_club()
    boss = organizer_of(club)
    with pytest.raises(Refused, match="played by 4"):
        league_create(club=club, actor=boss, name="K", game="karnoffel", table_size=3)
    with pytest.raises(LeagueRefused, match="each of the 4 places"):
        league_create(club=club, actor=boss, name="R", game="rentz", table_size=4, place_points=[3, 1])
    with pytest.raises(LeagueRefused, match="fewer points"):
        league_create(club=club, actor=boss, name="R", game="rentz", table_size=4, place_points=[0, 1, 2, 3])
    with pytest.raises(LeagueRefused, match="Unknown tie-break"):
        league_create(club=club, actor=boss, name="R", game="rentz", table_size=4, tiebreaks=["luck"])
    league = league_create(
        club=club,
        actor=boss,
        name="Rentz",
        game="rentz",
        table_size=4,
        time_control=TimeControl(initial=timedelta(days=1), increment=timedelta(days=1), cap=timedelta(days=1)),
    )
    assert league.place_points == [4, 2, 1, 0]
    assert league.tiebreaks[0] == "points"
    assert league.time_control == {"initial": 86400, "increment": 86400, "cap": 86400}


def test_it_registers_only_members_while_registration_is_open() -> None:
    season = make_season(players=0, start=False)
    outsider, club_player = UserFactory(), member(season.league.club)
    with pytest.raises(LeagueRefused, match="not open"):
        season_register(season=season, user=club_player)
    season_open_registration(season=season, actor=organizer_of(season.league.club))
    with pytest.raises(LeagueRefused, match="Join"):
        season_register(season=season, user=outsider)
    entrant = season_register(season=season, user=club_player)
    assert Standing.objects.get(entrant=entrant).points == 0
    with pytest.raises(LeagueRefused, match="already registered"):
        season_register(season=season, user=club_player)
    season_withdraw(season=season, user=club_player)
    assert not Entrant.objects.filter(season=season).exists()


@pytest.mark.parametrize(("entrants", "fill"), [(8, "bots"), (10, "bots"), (10, "byes"), (5, "bots")])
def test_it_seats_every_entrant_once_per_round(entrants: int, fill: str) -> None:
    season = make_season(players=entrants, rounds=3, start=False, fill=fill)
    fixtures_generate(season=season, actor=organizer_of(season.league.club), seed=3)
    ids = set(season.entrants.values_list("pk", flat=True))
    for round_ in season.round_set.prefetch_related("fixtures"):
        seated = [e for f in round_.fixtures.all() for e in f.seats if e is not None]
        assert Counter(seated + round_.byes) == Counter(ids)
        assert all(len(f.seats) == 4 for f in round_.fixtures.all())
        if fill == "byes":
            assert all(None not in f.seats for f in round_.fixtures.all())


def test_it_spreads_the_rounds_over_the_season() -> None:
    season = make_season(players=4, rounds=2, start=False, starts_on=date(2026, 3, 1), ends_on=date(2026, 3, 14))
    fixtures_generate(season=season, actor=organizer_of(season.league.club))
    first, second = season.round_set.order_by("number")
    assert first.opens_at.date() == date(2026, 3, 1)  # type: ignore[union-attr]
    assert first.play_by == second.opens_at
    assert second.play_by.date() == date(2026, 3, 14)  # type: ignore[union-attr]


def test_starting_creates_the_matches_with_the_entrants_bots_and_clock() -> None:
    club = make_club(public=False)
    league = make_league(
        club=club,
        game="renfield",
        timeout_bot_level="strong",
        time_control={"initial": 86400, "increment": 3600, "cap": 172800},
    )
    season = make_season(league=league, players=6, rounds=2)
    fixtures = list(Fixture.objects.filter(round__season=season).select_related("match", "round"))
    assert all(f.match is not None for f in fixtures)  # round_mode "all": every round opened
    for fixture in fixtures:
        match = fixture.match
        assert match is not None and match.game == "renfield" and match.private
        assert match.time_control == league.time_control
        assert match.timeout_bot_level == "strong"
        seats = list(match.seats.order_by("number"))
        users = dict(Entrant.objects.values_list("pk", "user_id"))
        assert [s.user_id for s in seats] == [users.get(e) for e in fixture.seats]
        assert [s.bot_level for s in seats] == ["" if e else "strong" for e in fixture.seats]
    assert season.status == Season.Status.RUNNING


def test_a_sequential_season_opens_one_round_at_a_time() -> None:
    season = make_season(players=4, rounds=3, round_mode="sequential")
    opened = list(season.round_set.exclude(opened_at=None).values_list("number", flat=True))
    assert opened == [1]
    assert not Fixture.objects.filter(round__season=season, round__number=2).exclude(match=None).exists()


def test_it_refuses_to_regenerate_fixtures_once_the_season_runs() -> None:
    season = make_season(players=4, rounds=1)
    with pytest.raises(LeagueRefused, match="Close registration"):
        fixtures_generate(season=season, actor=organizer_of(season.league.club))


def test_the_rounds_sweep_opens_a_due_round_and_settles_a_late_one() -> None:
    from leagues.tasks import rounds_sweep

    season = make_season(players=4, rounds=2, round_mode="sequential", settle="as_stands")
    now = timezone.now()
    Round.objects.filter(season=season, number=1).update(play_by=now - timedelta(minutes=1))
    Round.objects.filter(season=season, number=2).update(opens_at=now - timedelta(minutes=1))
    assert rounds_sweep() == 2
    first, second = season.round_set.order_by("number")
    assert first.settled_at is not None and second.opened_at is not None
    assert AuditEntry.objects.filter(season=season, kind=AuditEntry.Kind.SETTLE).exists()


def test_the_demo_season_has_filled_standings_and_is_made_once() -> None:
    from leagues.demo import demo_league
    from leagues.selectors import standings_for

    users = [UserFactory() for _ in range(3)]
    season = demo_league(users=users)
    assert season is not None and season.status == Season.Status.RUNNING
    rows = standings_for(season=season)
    assert len(rows) == 8 and all(r.played >= 1 for r in rows)
    assert Fixture.objects.filter(round__season=season, counted_at=None).exclude(match=None).exists()  # in progress
    assert demo_league(users=users) is None
    assert Season.objects.count() == 1


# --- editing a league, finishing with new numbers, audit wording -----------------------


def test_an_organizer_edits_a_league_but_not_its_game_once_a_season_started() -> None:
    season = make_season(players=4, rounds=2)
    league, boss = season.league, organizer_of(season.league.club)
    base = {"name": "Renamed", "game": league.game, "table_size": league.table_size, "options": league.options}
    updated = league_update(league=league, actor=boss, **base, tiebreaks=["points", "game_score"])
    league.refresh_from_db()
    assert (updated.name, league.name, league.tiebreaks) == ("Renamed", "Renamed", ["points", "game_score"])
    assert league.slug == "renfield-league"  # the address stays
    with pytest.raises(LeagueRefused, match="table size cannot change"):
        league_update(league=league, actor=boss, **{**base, "table_size": 5})
    with pytest.raises(LeagueRefused, match="scoring cannot change while a season is running"):
        league_update(league=league, actor=boss, **base, place_points=[5, 3, 1, 0])
    with pytest.raises(NotOrganizer):
        league_update(league=league, actor=season.entrants.first().user, **base)  # type: ignore[union-attr]
    league.refresh_from_db()
    assert (league.table_size, league.place_points) == (4, [4, 2, 1, 0])


def test_a_league_without_a_started_season_may_change_its_game() -> None:
    league = make_league()
    boss = organizer_of(league.club)
    league_update(league=league, actor=boss, name=league.name, game="rentz", table_size=4)
    league.refresh_from_db()
    assert (league.game, league.place_points) == ("rentz", [4, 2, 1, 0])


def test_finishing_sets_the_promotion_and_relegation_numbers_given() -> None:
    season = two_divisions_started([UserFactory() for _ in range(8)])
    boss = organizer_of(season.league.club)
    seats = {}
    for division in (1, 2):
        fixture = fixtures_of(season, division=division)[0]
        fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
        seats[division] = fixture.seats
    with pytest.raises(LeagueRefused, match="zero or more"):
        season_finish(season=season, actor=boss, promote=-1)
    nxt = season_finish(season=season, actor=boss, promote=2, relegate=2)
    season.refresh_from_db()
    assert (season.promote, season.relegate) == (2, 2) and (nxt.promote, nxt.relegate) == (2, 2)
    user_of = dict(Entrant.objects.filter(season=season).values_list("pk", "user_id"))
    carried = dict(Entrant.objects.filter(season=nxt).values_list("user_id", "division"))
    # Two up and two down (one of each was set at creation), seat order being the finishing order.
    assert [carried[user_of[e]] for e in seats[1]] == [1, 1, 2, 2]
    assert [carried[user_of[e]] for e in seats[2]] == [1, 1, 2, 2]


def test_audit_texts_say_one_table_and_one_round() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    texts = list(AuditEntry.objects.filter(season=season).values_list("text", flat=True))
    assert "Fixtures made: 1 round, 1 table." in texts
    assert "Round 1 opened: 1 table." in texts
    assert "Registration closed with 4 players." in texts
    assert plural(1, "match is", "matches are") == "1 match is"
    assert plural(2, "player") == "2 players"


def test_starting_a_season_mails_every_entrant_once() -> None:
    season = make_season(players=4, rounds=1)
    mails = Mail.objects.filter(dedupe_key__startswith=f"season-start:{season.pk}:")
    assert sorted(mails.values_list("recipient", flat=True)) == sorted(
        season.entrants.values_list("user__email", flat=True)
    )
    mail = mails.first()
    assert mail is not None and season.name in mail.body and season.league.name in mail.body
    assert season.league.name not in mail.subject  # the organizer's text stays out of the subject
    assert f"/{season.number}/" in mail.body and "dashboard" in mail.body
