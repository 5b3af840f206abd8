"""The project's own plumbing: migrations are complete, and the two commands are wired as the README says."""

from __future__ import annotations

import re
import subprocess
import tomllib
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
def test_the_demos_mails_link_to_the_site_url(settings) -> None:  # noqa: ANN001 - pytest-django's fixture
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
