"""Production mode passes Django's deployment checklist with no warnings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECRET_KEY", "DEBUG", "EMAIL_", "SECURE_"))
    }
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


def test_it_passes_check_deploy_in_production(tmp_path: Path) -> None:
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ENV="production",
        SECRET_KEY="k3J9-production-like-secret-with-enough-entropy-0f2b7c1d9e8a4b6c5d3e2f1a",
        ALLOWED_HOSTS="parlour.example.com",
        EMAIL_HOST="smtp.example.com",
        PARLOUR_VAR_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_it_warns_when_production_settings_are_missing(tmp_path: Path) -> None:
    # The check above would be worthless if --deploy could never fail: development settings must.
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
        PARLOUR_VAR_DIR=str(tmp_path),
    )
    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr  # DEBUG on
