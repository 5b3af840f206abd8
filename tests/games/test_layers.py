"""The games modules import each other in one direction only, and no private name leaves its module.

Read from the source by ``tests/layers.py``, imports inside function bodies included: an import moved into
a function to dodge a circle is still a circle (it only fails later, at the first call). No database.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.layers import cycles, function_imports, import_graph, private_imports

ROOT = Path(__file__).resolve().parents[2]
# Where a private name must stay in its module.
APPS = ("games", "leagues", "accounts", "config")
# ``from X import _name`` across modules, as (file, module, name), each a known exception: none.
PRIVATE_IMPORTS_ALLOWED: frozenset[tuple[str, str, str]] = frozenset()
# Imports inside a function in games/, as (file, module), each with the reason it cannot be at the top.
FUNCTION_IMPORTS_ALLOWED: dict[tuple[str, str], str] = {}


# --- the project -------------------------------------------------------------------


def test_no_games_modules_import_each_other_in_a_circle() -> None:
    graph = import_graph(ROOT, "games")
    assert {"games.services", "games.outbox", "games.notify", "games.presenters.base"} <= set(graph)
    assert "games.outbox" in graph["games.services"]  # the graph sees the imports it is about
    assert cycles(graph) == []


def test_no_private_name_is_imported_from_another_module() -> None:
    assert private_imports(ROOT, APPS) - PRIVATE_IMPORTS_ALLOWED == set()


def test_games_imports_nothing_inside_a_function_but_the_listed_few() -> None:
    assert function_imports(ROOT, "games") - set(FUNCTION_IMPORTS_ALLOWED) == set()


def test_the_allow_lists_hold_only_what_is_still_there() -> None:
    """An entry whose import is gone comes off its list, so that the lists only ever shrink."""
    assert PRIVATE_IMPORTS_ALLOWED - private_imports(ROOT, APPS) == set()
    assert set(FUNCTION_IMPORTS_ALLOWED) - function_imports(ROOT, "games") == set()


# --- the checks themselves ----------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small package with a circle closed by an import in a function body, and a private name imported."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def f():\n    from pkg.sub.c import _hidden\n")
    (package / "sub" / "c.py").write_text("from ..a import thing\n_hidden = 1\n")
    (package / "d.py").write_text("import pkg.a\n")
    return tmp_path


def test_the_checks_find_a_circle_through_a_function_body_and_a_relative_import(tree: Path) -> None:
    graph = import_graph(tree, "pkg")
    assert graph["pkg.sub.c"] == {"pkg.a"} and graph["pkg.d"] == {"pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    assert private_imports(tree, ("pkg",)) == {("pkg/b.py", "pkg.sub.c", "_hidden")}
    assert function_imports(tree, "pkg") == {("pkg/b.py", "pkg.sub.c._hidden")}
