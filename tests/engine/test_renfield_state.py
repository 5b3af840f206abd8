"""The shape of a Renfield state: every key declared public or private, views
built from an allow-list, and ``state_from_view`` rebuilding a state exactly
(which is how the strong bot samples)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest

from engine import renfield as game
from engine.bots import renfield as policy
from tests.engine.helpers_renfield import COMBOS, VARIANTS, allowed

DERIVED = {
    "to_act",
    "scores",
    "hand_sizes",
    "laid_down_counts",
    "deck_count",
    "pack_count",
    "draw_pile_count",
    "seat",
    "hand",
    "outcome",
}
CASES = [(next(p for p in (3, 5, 4) if allowed(p, o)), o) for o in VARIANTS + COMBOS]


def private_of(state: dict) -> dict:
    return {key: state[key] for key in game.PRIVATE_FIELDS}


def playout(players: int, options: dict, seed: int) -> Iterator[dict]:
    """Every state of a seeded random match of two hands, the last one over."""
    rng = random.Random(seed)
    state = game.new_match(players, {**options, "hands": 2}, seed=seed)
    yield state
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        yield state


def test_it_declares_every_state_key_public_or_private_once() -> None:
    declared = set(game.State.__required_keys__) | set(game.State.__optional_keys__)
    public, private = set(game.PUBLIC_FIELDS), set(game.PRIVATE_FIELDS)
    assert not public & private
    assert len(public) == len(game.PUBLIC_FIELDS) and len(private) == len(game.PRIVATE_FIELDS)
    assert public | private == declared
    assert not declared & DERIVED  # a view's own keys never shadow a state key


@pytest.mark.parametrize(("players", "options"), CASES, ids=["+".join(o) or "base" for _, o in CASES])
def test_it_makes_every_state_of_a_match_have_exactly_the_declared_keys(players: int, options: dict) -> None:
    declared = set(game.PUBLIC_FIELDS) | set(game.PRIVATE_FIELDS)
    for state in playout(players, options, seed=3):
        assert set(state) == declared


def test_it_keeps_a_key_out_of_the_views_until_it_is_declared_public(monkeypatch: pytest.MonkeyPatch) -> None:
    state = {**game.new_match(4, seed=1), "secret": ["T5"]}
    for seat in (None, 0, 1):
        assert "secret" not in game.view(state, seat)
    monkeypatch.setattr(game, "PUBLIC_FIELDS", (*game.PUBLIC_FIELDS, "secret"))
    assert game.view(state, 0)["secret"] == ["T5"]


def test_it_shows_every_public_field_and_no_private_one() -> None:
    state = game.new_match(5, {"auction": True, "death_card": True, "wild_cards": True}, seed=4)
    seen = game.view(state, 2)
    assert set(seen) == set(game.PUBLIC_FIELDS) | DERIVED - {"outcome"}
    assert seen["options"]["death_cards"] == ["Stones 7"] and seen["options"]["wilds"][0] == "Tools 1"
    assert state["options"]["death_cards"] == ["S7"]  # the state keeps codes


@pytest.mark.parametrize(("players", "options"), CASES, ids=["+".join(o) or "base" for _, o in CASES])
def test_it_rebuilds_every_state_from_any_seats_view_and_the_private_fields(players: int, options: dict) -> None:
    checked = 0
    for seed in range(2):
        for state in playout(players, options, seed):
            for seat in [None, *range(players)]:
                rebuilt = game.state_from_view(game.view(state, seat), private_of(state))
                assert rebuilt == state
                checked += 1
    assert checked > 50


def test_it_refuses_to_rebuild_from_a_private_part_with_other_keys() -> None:
    state = game.new_match(3, seed=1)
    private = private_of(state)
    with pytest.raises(KeyError, match="must be exactly"):
        game.state_from_view(game.view(state, 0), {k: v for k, v in private.items() if k != "seed"})
    with pytest.raises(KeyError, match="must be exactly"):
        game.state_from_view(game.view(state, 0), {**private, "extra": 1})


def test_it_lets_a_new_public_key_reach_the_bots_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    state = {**game.new_match(4, seed=2), "mood": "calm"}
    monkeypatch.setattr(game, "PUBLIC_FIELDS", (*game.PUBLIC_FIELDS, "mood"))
    sample = policy.determinize(game.view(state, 1), random.Random(0))
    assert sample["mood"] == "calm"
    assert set(sample) == set(state)


def test_it_makes_a_new_private_key_stop_the_bots_sampling_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    state = {**game.new_match(4, seed=2), "secret": 7}
    monkeypatch.setattr(game, "PRIVATE_FIELDS", (*game.PRIVATE_FIELDS, "secret"))
    with pytest.raises(KeyError, match="must be exactly"):
        policy.determinize(game.view(state, 1), random.Random(0))


def test_it_never_changes_the_state_it_is_given() -> None:
    for players, options in CASES[::2]:
        rng = random.Random(9)
        for state in playout(players, options, seed=9):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            before = copy.deepcopy(state)
            for action in rng.sample(game.legal_actions(state, seat), k=min(3, len(game.legal_actions(state, seat)))):
                game.apply(state, seat, action)
                game.view(state, seat)
                assert state == before
