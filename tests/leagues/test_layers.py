"""The leagues modules import each other in one direction only, and each holds one job. No database.

The graph and its checks are ``tests/layers.py``'s, read from the source: an import moved into a function
to dodge a circle still counts.
"""

from __future__ import annotations

from pathlib import Path

from tests.layers import cycles, function_imports, import_graph

ROOT = Path(__file__).resolve().parents[2]
# Imports inside a function in leagues/, as (file, module), each with the reason it cannot be at the top.
FUNCTION_IMPORTS_ALLOWED = {
    ("leagues/apps.py", "leagues.signals"): "Django connects receivers in AppConfig.ready, once the models load",
}
# Past this a module holds more than one job (house style): split it by job.
MOST_LINES = 800


def test_no_leagues_modules_import_each_other_in_a_circle() -> None:
    graph = import_graph(ROOT, "leagues")
    assert {"leagues.results", "leagues.seasons"} <= graph["leagues.rollover"]  # the graph sees what it is about
    assert cycles(graph) == []


def test_leagues_imports_nothing_inside_a_function_but_the_listed_few() -> None:
    assert function_imports(ROOT, "leagues") == set(FUNCTION_IMPORTS_ALLOWED)


def test_no_leagues_module_grows_past_one_job() -> None:
    long = {
        path.relative_to(ROOT).as_posix(): lines
        for path in sorted((ROOT / "leagues").rglob("*.py"))
        if "migrations" not in path.parts and (lines := len(path.read_text().splitlines())) > MOST_LINES
    }
    assert long == {}
