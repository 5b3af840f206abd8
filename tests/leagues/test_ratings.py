"""Ratings (leagues.ratings, openskill's Plackett-Luce): pure, no database."""

from __future__ import annotations

import pytest

from leagues.ratings import DEFAULT, ordinal, rate


def test_in_a_multiplayer_match_the_winner_gains_and_the_last_loses() -> None:
    after = rate([[DEFAULT], [DEFAULT], [DEFAULT], [DEFAULT]], [1, 2, 3, 4])
    mus = [team[0][0] for team in after]
    assert mus[0] > DEFAULT[0] > mus[3]
    assert mus == sorted(mus, reverse=True), "a better place never rates lower"
    assert all(sigma < DEFAULT[1] for team in after for _, sigma in team), "every result makes us surer"


def test_a_team_win_moves_both_partners_up_and_both_opponents_down() -> None:
    (winners, losers) = rate([[DEFAULT, (30.0, 5.0)], [DEFAULT, DEFAULT]], [1, 2])
    assert winners[0][0] > DEFAULT[0] and winners[1][0] > 30.0
    assert losers[0][0] < DEFAULT[0] and losers[1][0] < DEFAULT[0]


def test_a_tie_between_equals_changes_no_mu() -> None:
    first, second = rate([[DEFAULT], [DEFAULT]], [1, 1])
    assert first[0][0] == pytest.approx(DEFAULT[0])
    assert second[0][0] == pytest.approx(DEFAULT[0])


def test_players_tied_for_a_place_move_alike() -> None:
    after = rate([[DEFAULT], [DEFAULT], [DEFAULT]], [1, 2, 2])
    assert after[1] == after[2]
    assert after[1][0][0] < DEFAULT[0] < after[0][0][0]


def test_beating_a_stronger_player_is_worth_more() -> None:
    upset = rate([[DEFAULT], [(35.0, 4.0)]], [1, 2])[0][0][0] - DEFAULT[0]
    expected = rate([[DEFAULT], [(15.0, 4.0)]], [1, 2])[0][0][0] - DEFAULT[0]
    assert upset > expected > 0


def test_it_is_deterministic() -> None:
    teams = [[(27.0, 6.0), (22.0, 7.0)], [(25.0, 8.0), (24.0, 3.0)]]
    assert rate(teams, [2, 1]) == rate(teams, [2, 1])


def test_it_refuses_a_match_without_places_for_every_team() -> None:
    with pytest.raises(ValueError, match="Every team needs a place"):
        rate([[DEFAULT], [DEFAULT]], [1])
    with pytest.raises(ValueError, match="at least two teams"):
        rate([[DEFAULT]], [1])


def test_ordinal_is_the_conservative_estimate_scaled() -> None:
    assert ordinal(*DEFAULT) == 0.0
    assert ordinal(30.0, 2.0) == 960.0
    assert ordinal(30.0, 1.0) > ordinal(30.0, 2.0)
