"""The Celery app finds the project's tasks, and a task makes the round trip through a real broker and worker."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.apps import apps

from config.celery import app as project_app

ROOT = Path(__file__).resolve().parent.parent


def project_task_names() -> set[str]:
    """Every Celery task defined in a ``tasks.py`` of one of our own apps, found by importing it directly."""
    names = set()
    for config in apps.get_app_configs():
        if not Path(config.path).is_relative_to(ROOT) or not (Path(config.path) / "tasks.py").exists():
            continue
        module = importlib.import_module(f"{config.name}.tasks")
        names |= {obj.name for obj in vars(module).values() if hasattr(obj, "delay") and hasattr(obj, "name")}
    return names


@pytest.mark.django_db  # Celery's Django fixup runs the model checks, which ask the database.
def test_it_finds_the_project_tasks() -> None:
    project_app.loader.import_default_modules()
    expected = project_task_names()
    assert "accounts.tasks.ping" in expected
    assert expected <= set(project_app.tasks)


@pytest.mark.django_db
def test_it_schedules_only_tasks_that_exist() -> None:
    from django.conf import settings

    project_app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled - set(project_app.tasks) == set()


def test_it_configures_the_app_from_django_settings() -> None:
    from django.conf import settings

    assert project_app.main == "parlour"
    assert project_app.conf.broker_url == settings.CELERY_BROKER_URL
    assert project_app.conf.task_acks_late is True


@pytest.fixture(params=["embedded", pytest.param("redis", marks=pytest.mark.redis)])
def broker(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    if request.param == "embedded":
        urls = (f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}", f"db+sqlite:///{tmp_path / 'results.sqlite3'}")
    else:
        urls = (os.environ["REDIS_URL"], os.environ["REDIS_URL"])
    return {"broker": urls[0], "backend": urls[1], "queue": f"roundtrip-{uuid.uuid4().hex[:12]}"}


@contextmanager
def worker_process(broker: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    """A real `celery worker` in its own process, as `make run` starts it; stopped (warm shutdown) afterwards."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env |= {
        "ROUNDTRIP_BROKER_URL": broker["broker"],
        "ROUNDTRIP_RESULT_BACKEND": broker["backend"],
        "ROUNDTRIP_QUEUE": broker["queue"],
    }
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "tests.celery_roundtrip",
        "worker",
        "--pool=solo",
        "--loglevel=INFO",
        "--without-heartbeat",
        "--without-mingle",
        "--without-gossip",
    ]
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


def test_it_round_trips_a_task_through_a_real_worker(broker: dict[str, str]) -> None:
    from tests.celery_roundtrip import make_app

    ping = make_app(**broker).tasks["accounts.tasks.ping"]
    with worker_process(broker) as worker:
        try:
            now = ping.delay("hello").get(timeout=90)
            later = ping.apply_async(("later",), countdown=1).get(timeout=90)
        except Exception as error:
            worker.terminate()
            output = worker.communicate(timeout=30)[0]
            pytest.fail(f"The task did not come back ({error!r}). Worker output:\n{output}")
    assert (now, later) == ("hello", "later")


def test_a_web_process_finds_the_tasks_the_services_queue_by_name() -> None:
    """The services never import the task modules; the app imports them the first time it is used."""
    code = (
        "import sys, django; django.setup()\n"
        "assert 'games.tasks' not in sys.modules\n"
        "from celery import current_app\n"
        "print(current_app.tasks['games.tasks.mail_send'].name, current_app.tasks['games.tasks.bot_move'].name)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["games.tasks.mail_send", "games.tasks.bot_move"]
