"""The command line: play whole matches with bots, and verify a recorded log."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import GAMES, get_game
from engine.__main__ import main, play_match
from engine.replay import make_log, seed_hash, verify

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_it_plays_a_whole_match_and_verifies_its_log(name: str, tmp_path: Path, capsys) -> None:
    players = get_game(name).MIN_PLAYERS
    log_path = tmp_path / "match.json"
    assert (
        main(["play", name, "--players", str(players), "--seed", "3", "--bots", "basic", "--log", str(log_path)]) == 0
    )
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["seed"] == 3 and 1 in lines[0]["places"]
    assert lines[-1]["matches"] == 1
    assert main(["verify", str(log_path)]) == 0
    assert capsys.readouterr().out.startswith("OK")


def test_it_detects_a_tampered_log(tmp_path: Path) -> None:
    name = sorted(GAMES)[0]
    players = get_game(name).MIN_PLAYERS
    state, actions = play_match(name, players, 11, ["random"])
    log = make_log(name, players, 11, None, actions, state)
    assert verify(log)[0]
    assert log["seed_hash"] == seed_hash(11)
    assert not verify({**log, "seed": 12})[0]
    assert not verify({**log, "actions": actions[:-1]})[0]
    swapped = [dict(a) for a in actions]
    swapped[0] = {"seat": (swapped[0]["seat"] + 1) % players, "action": swapped[0]["action"]}
    ok, message = verify({**log, "actions": swapped})
    assert not ok and "Step 1" in message


def test_it_runs_as_a_module_and_refuses_bad_input() -> None:
    name = sorted(GAMES)[0]
    players = get_game(name).MIN_PLAYERS
    done = subprocess.run(
        [sys.executable, "-m", "engine", "play", name, "--players", str(players), "--count", "2", "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["matches"] == 2 and summary["actions"] > 0
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "play", name, "--players", "99"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "error:" in bad.stderr


def test_it_checks_the_state_hash_of_a_log_of_the_current_format_only(tmp_path: Path) -> None:
    """A log exported before a game's state changed shape still verifies on its seed, actions and outcome."""
    name = "rentz"
    state, actions = play_match(name, 4, 5, ["random"])
    log = make_log(name, 4, 5, None, actions, state)
    tampered = {**log, "state_hash": "0" * 64}
    assert not verify(tampered)[0]
    older = {k: v for k, v in tampered.items() if k != "format"}
    assert verify(older)[0]
    assert not verify({**older, "outcome": {"scores": [0, 0, 0, 0], "places": [1, 1, 1, 1]}})[0]
