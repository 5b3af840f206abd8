"""The project's own plumbing: migrations are complete, the two commands are wired as the README says, the
apps import only downwards (leagues -> games -> accounts, the engine below all), and each test module stands
alone (it imports no other test module, and no fixture: fixtures reach their tests through a conftest.py)."""

from __future__ import annotations

import ast
import re
import subprocess
import tomllib
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_it_has_a_migration_for_every_model_change() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out)
    except SystemExit as exit:
        pytest.fail(f"Missing migrations (exit {exit.code}):\n{out.getvalue()}")


def make_dry_run(target: str) -> str:
    result = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_it_runs_the_suite_with_make_test() -> None:
    assert "pytest" in make_dry_run("test")


def test_it_migrates_loads_demo_data_and_starts_everything_with_make_run() -> None:
    steps = make_dry_run("run")
    assert steps.index("manage.py migrate") < steps.index("manage.py demo") < steps.index("honcho")
    processes = dict(line.split(":", 1) for line in (ROOT / "Procfile.dev").read_text().splitlines() if line.strip())
    assert set(processes) == {"web", "worker", "beat"}
    assert "runserver" in processes["web"]
    assert "-A config worker" in processes["worker"] and "-A config beat" in processes["beat"]


def test_the_demo_and_every_process_of_make_run_get_the_sites_address() -> None:
    """Mails the demo itself writes (a season's start) link to where `make run` serves, not a default."""
    result = subprocess.run(
        ["make", "-n", "run", "HOST=0.0.0.0", "PORT=8123"], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    demo = next(line for line in result.stdout.splitlines() if "manage.py demo" in line)
    honcho = next(line for line in result.stdout.splitlines() if "honcho" in line)
    assert "SITE_URL='http://localhost:8123'" in demo
    assert "SITE_URL='http://localhost:8123'" in honcho


@pytest.mark.django_db
def test_the_demos_mails_link_to_the_site_url(settings) -> None:
    from games.models import Mail

    settings.SITE_URL = "http://demo.example:8123"
    call_command("demo", stdout=StringIO())
    links = [link for mail in Mail.objects.all() for link in re.findall(r"https?://[^\s\"<>]+", mail.body + mail.html)]
    assert links, "the demo wrote no mail with a link"
    assert all(link.startswith("http://demo.example:8123/") for link in links), sorted(set(links))[:5]


def test_it_declares_the_packages_and_the_test_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    dependencies = " ".join(project["project"]["dependencies"]).lower()
    for name in ["django", "django-htmx", "celery", "psycopg", "django-allauth", "whitenoise", "gunicorn"]:
        assert name in dependencies, name
    assert any(dep.startswith("pytest-django") for dep in project["project"]["optional-dependencies"]["dev"])
    included = project["tool"]["setuptools"]["packages"]["find"]["include"]
    assert {"config*", "engine*", "games*", "leagues*", "accounts*"} <= set(included)


def test_it_has_a_ci_script_that_is_valid_bash() -> None:
    script = ROOT / ".ci" / "run"
    assert script.stat().st_mode & 0o111, ".ci/run must be executable"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    text = script.read_text()
    assert "set -euo pipefail" in text and "make test" in text


def test_it_opens_the_readme_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    first_section = readme.split("\n## ")[1]
    assert first_section.startswith("Two commands")
    assert "make run" in first_section and "make test" in first_section
    assert readme.index("## Configuration") < readme.index("## Layout") < readme.index("## Architecture")


def test_it_documents_every_environment_variable_the_settings_read() -> None:
    import re

    settings_source = (ROOT / "config" / "settings.py").read_text()
    names = set(
        re.findall(r"""(?:environ(?:\.get)?\(|environ\[|env_bool\(|env_list\()\s*["']([A-Z_]+)["']""", settings_source)
    )
    assert {"SECRET_KEY", "EMAIL_HOST"} <= names
    names.add("DATABASE_URL")  # read by dj_database_url.config()
    readme = (ROOT / "README.md").read_text()
    assert [name for name in sorted(names) if f"`{name}`" not in readme] == []


# --- the layers: leagues -> games -> accounts, the engine below all, none back -------------------------------

# What each app must never name. A page of a lower app shows a higher app's part through a template tag
# library its template loads (the profile's match sections, ``games_account``), which is no Python import.
NEVER_IMPORTS = {
    "accounts": ("games", "leagues"),
    "games": ("leagues",),
    "engine": ("accounts", "games", "leagues", "config", "django"),
}
# A whole string that is a dotted path names a module as surely as an import: a setting, a task name.
DOTTED_PATH = re.compile(r"[a-z_]+(\.[A-Za-z_]\w*)+")


def modules_named(source: str) -> set[str]:
    """Every module a file names: its imports anywhere (inside functions too), import_module and dotted paths."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
            "import_module",
            "__import__",
        ):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                names.add(first.value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED_PATH.fullmatch(node.value):
            names.add(node.value)
    return names


def test_the_layer_check_sees_imports_inside_functions_and_dotted_paths() -> None:
    source = (
        "import accounts.models\n"
        "def f():\n    from games.models import Match\n    import leagues\n"
        "ADAPTER = 'games.account_adapter.AccountAdapter'\n"
        "importlib.import_module('leagues')\n"
        "TEXT = 'Not a path.'\n"
    )
    assert modules_named(source) == {
        "accounts.models",
        "games.models",
        "leagues",
        "games.account_adapter.AccountAdapter",
    }


@pytest.mark.parametrize("app", sorted(NEVER_IMPORTS))
def test_an_app_imports_no_app_above_it(app: str) -> None:
    banned = NEVER_IMPORTS[app]
    files = sorted((ROOT / app).rglob("*.py"))
    assert files, app
    wrong = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in files
        for name in sorted(modules_named(path.read_text()))
        if name.split(".")[0] in banned
    ]
    assert wrong == [], f"{app} must not import {', '.join(banned)}"


# --- the tests: each test module stands alone ---------------------------------------------------------------


def module_name(path: Path, root: Path) -> str:
    """The dotted name of a module under ``root`` (a package by its own name)."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_in(path: Path, root: Path) -> Iterator[tuple[int, str, str | None]]:
    """Every import in a file, inside functions too, as (line, module, name): ``import a.b`` is (line, "a.b", None).

    A relative import is read from the file's own package.
    """
    package = module_name(path, root) if path.name == "__init__.py" else module_name(path, root).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = package.split(".")
                base = ".".join([*here[: len(here) - node.level + 1], *([base] if base else [])])
            for alias in node.names:
                yield node.lineno, base, alias.name


def imports_of_test_modules(root: Path) -> list[str]:
    """Imports of a module whose name starts with ``test_``, from any file of ``root/tests``.

    ``from tests.a import test_b`` counts when ``tests/a/test_b.py`` is a module (not a function named so).
    """
    found = []
    for path in sorted((root / "tests").rglob("*.py")):
        for line, module, name in imports_in(path, root):
            targets = [module]
            if name is not None and (root.joinpath(*module.split(".")) / f"{name}.py").exists():
                targets.append(f"{module}.{name}")
            found += [
                f"{path.relative_to(root)}:{line} imports {target}"
                for target in targets
                if target.rpartition(".")[2].startswith("test_")
            ]
    return list(dict.fromkeys(found))  # once per statement, however many names it imports


def _is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Attribute) and target.attr == "fixture") or (
        isinstance(target, ast.Name) and target.id == "fixture"
    )


def fixtures_defined(path: Path) -> set[str]:
    """The fixtures a module defines at its top level."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(map(_is_fixture, node.decorator_list))
    }


def fixture_imports(root: Path) -> list[str]:
    """Imports of a fixture from any module of ``root/tests``: a test module's, a conftest's or a helper's."""
    files = sorted((root / "tests").rglob("*.py"))
    fixtures = {module_name(path, root): fixtures_defined(path) for path in files}
    return [
        f"{path.relative_to(root)}:{line} imports the fixture {module}.{name}"
        for path in files
        for line, module, name in imports_in(path, root)
        if name in fixtures.get(module, set())
    ]


def test_no_module_of_the_tests_imports_a_test_module_or_a_fixture() -> None:
    """What two test modules share lives beside them: helpers in a module of their own (tests/games/world.py,
    tests/layers.py), fixtures in their nearest conftest.py, which pytest reads for them."""
    assert imports_of_test_modules(ROOT) == []
    assert fixture_imports(ROOT) == []
    # The checks read the real tree: the imports of the helper modules and the fixtures of the conftests.
    files = list((ROOT / "tests").rglob("*.py"))
    imported = {(module, name) for path in files for _line, module, name in imports_in(path, ROOT)}
    assert len(files) > 100 and {("tests.games.world", "World"), ("tests.layers", "import_graph")} <= imported
    assert {"eager", "browser", "site"} <= fixtures_defined(ROOT / "tests" / "conftest.py")
    assert "world" in fixtures_defined(ROOT / "tests" / "games" / "conftest.py")


def test_the_tests_checks_find_a_test_module_or_a_fixture_imported(tmp_path: Path) -> None:
    """A control: a test module imported at the top, in a function, relatively or as a name, and a fixture
    imported from a test module and from a conftest are each found; a helper module, and a function whose name
    starts with ``test_``, are not."""
    package = tmp_path / "tests" / "app"
    package.mkdir(parents=True)
    (tmp_path / "tests" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("def test_url():\n    return ''\n")
    (package / "conftest.py").write_text("import pytest\n\n@pytest.fixture\ndef shared():\n    return 1\n")
    (package / "helpers.py").write_text("from tests.app.conftest import shared\n\nHELP = 1\n")
    (package / "test_one.py").write_text("from pytest import fixture\n\n@fixture\ndef thing():\n    return 1\n")
    (package / "test_two.py").write_text(
        "from tests.app.test_one import thing\n"
        "from tests.app.helpers import HELP\n"
        "from tests.app import test_url\n"
        "def test_it():\n    from .test_one import thing\n"
    )
    (package / "test_three.py").write_text("from tests.app import test_one\nimport tests.app.test_one\n")
    assert imports_of_test_modules(tmp_path) == [
        "tests/app/test_three.py:1 imports tests.app.test_one",
        "tests/app/test_three.py:2 imports tests.app.test_one",
        "tests/app/test_two.py:1 imports tests.app.test_one",
        "tests/app/test_two.py:5 imports tests.app.test_one",
    ]
    assert sorted(fixture_imports(tmp_path)) == [
        "tests/app/helpers.py:1 imports the fixture tests.app.conftest.shared",
        "tests/app/test_two.py:1 imports the fixture tests.app.test_one.thing",
        "tests/app/test_two.py:5 imports the fixture tests.app.test_one.thing",
    ]
