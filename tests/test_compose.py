"""docker-compose.yml cannot run here, so its promises are checked by reading it."""

from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ["migrate", "web", "worker", "beat"]


def command(service: str) -> list[str]:
    value = SERVICES[service]["command"]
    return shlex.split(value) if isinstance(value, str) else list(value)


def env(service: str) -> dict[str, str]:
    return {k: str(v) for k, v in SERVICES[service]["environment"].items()}


def test_it_has_every_service() -> None:
    assert set(SERVICES) == {"postgres", "redis", "mailpit", "migrate", "web", "worker", "beat"}


@pytest.mark.parametrize(
    "service, image", [("postgres", "postgres:"), ("redis", "redis:"), ("mailpit", "axllent/mailpit")]
)
def test_it_uses_official_images_for_the_backing_services(service: str, image: str) -> None:
    assert SERVICES[service]["image"].startswith(image)


@pytest.mark.parametrize("service", APP_SERVICES)
def test_it_builds_the_app_services_from_our_dockerfile(service: str) -> None:
    assert SERVICES[service]["build"] == "."
    assert (ROOT / "Dockerfile").exists()


def test_it_health_checks_postgres_and_redis() -> None:
    assert "pg_isready" in " ".join(SERVICES["postgres"]["healthcheck"]["test"])
    assert "ping" in SERVICES["redis"]["healthcheck"]["test"]


def test_it_migrates_once_before_web_and_worker_start() -> None:
    assert command("migrate")[:3] == ["python", "manage.py", "migrate"]
    assert SERVICES["migrate"]["restart"] == "no"
    assert SERVICES["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for service in ["web", "worker", "beat"]:
        assert SERVICES[service]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    for service in ["web", "worker"]:
        assert SERVICES[service]["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_it_names_only_manage_py_commands_that_exist() -> None:
    managed = [service for service in APP_SERVICES if "manage.py" in command(service)]
    assert managed, "no service runs manage.py: the compose file is not the one this test was written for"
    for service in managed:
        argv = command(service)
        assert argv[argv.index("manage.py") + 1] in get_commands(), service


def test_it_serves_the_wsgi_app_with_gunicorn() -> None:
    argv = command("web")
    assert argv[0] == "gunicorn"
    module, attribute = argv[1].split(":")
    assert callable(getattr(importlib.import_module(module), attribute))
    assert "0.0.0.0:8000" in argv and "8000:8000" in SERVICES["web"]["ports"]


@pytest.mark.parametrize("service, role", [("worker", "worker"), ("beat", "beat")])
def test_it_runs_the_project_celery_app(service: str, role: str) -> None:
    argv = command(service)
    assert argv[:4] == ["celery", "-A", "config", role]
    from config import celery_app  # what `celery -A config` loads

    assert celery_app.main == "parlour"


@pytest.mark.parametrize("service", APP_SERVICES)
def test_it_points_the_app_at_the_compose_services(service: str) -> None:
    values, postgres = env(service), env("postgres")
    database = urlparse(values["DATABASE_URL"])
    assert (database.scheme, database.hostname, database.port) == ("postgres", "postgres", 5432)
    assert (database.username, database.password, database.path.lstrip("/")) == (
        postgres["POSTGRES_USER"],
        postgres["POSTGRES_PASSWORD"],
        postgres["POSTGRES_DB"],
    )
    for name in ["REDIS_URL", "CELERY_BROKER_URL"]:
        assert urlparse(values[name]).hostname == "redis"
    assert (values["EMAIL_HOST"], values["EMAIL_PORT"]) == ("mailpit", "1025")
    assert values["DJANGO_ENV"] == "production" and values["SECRET_KEY"]


def test_it_shows_the_mailpit_web_ui() -> None:
    assert "8025:8025" in SERVICES["mailpit"]["ports"]


def test_it_keeps_local_state_out_of_the_image() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".venv", "var", ".git"} <= set(ignored)
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "config.wsgi:application" in dockerfile and "collectstatic" in dockerfile


@pytest.mark.parametrize("service", APP_SERVICES)
def test_it_requires_a_secret_key_of_your_own(service: str) -> None:
    # `${SECRET_KEY:?message}`: compose stops with the message when the variable is unset or empty.
    value = env(service)["SECRET_KEY"]
    assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]+\}", value), value


def test_it_documents_no_built_in_secret_key() -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    assert "SECRET_KEY:-" not in text and "${SECRET_KEY}" not in text
