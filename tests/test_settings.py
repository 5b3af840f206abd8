"""Settings read the environment: SQLite and the embedded broker locally, PostgreSQL and Redis when configured."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import pytest

SETTINGS_FILE = Path(__file__).resolve().parent.parent / "config" / "settings.py"
ENV_VARS = [
    "DATABASE_URL",
    "DATABASE_POOL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "DJANGO_ENV",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "PARLOUR_VAR_DIR",
    "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT",
    "PARLOUR_RATE_LIMIT_SCALE",
]


def load_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str) -> types.ModuleType:
    """Execute config/settings.py afresh under exactly ``env`` (plus a private var/ dir)."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PARLOUR_VAR_DIR", str(tmp_path / "var"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("settings_probe", SETTINGS_FILE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_it_defaults_to_sqlite_under_var(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(monkeypatch, tmp_path)
    db = settings.DATABASES["default"]
    assert Path(db["NAME"]) == tmp_path / "var" / "parlour.sqlite3"
    # Django's SQLite backend, wrapped to create the folder when it first connects (see below).
    assert db["ENGINE"] == "config.sqlite3"


def test_it_uses_postgresql_with_a_pool_from_database_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(monkeypatch, tmp_path, DATABASE_URL="postgres://play:secret@db.internal:5433/parlour")
    db = settings.DATABASES["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["HOST"], db["PORT"], db["NAME"], db["USER"]) == ("db.internal", 5433, "parlour", "play")
    assert db["OPTIONS"]["pool"] is True
    # Django refuses persistent connections together with a pool.
    assert db["CONN_MAX_AGE"] == 0


def test_it_can_turn_the_pool_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(monkeypatch, tmp_path, DATABASE_URL="postgres://db/parlour", DATABASE_POOL="false")
    assert settings.DATABASES["default"]["OPTIONS"]["pool"] is False


def test_it_uses_the_embedded_broker_without_redis(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(monkeypatch, tmp_path)
    assert f"sqla+sqlite:///{tmp_path / 'var' / 'celery-broker.sqlite3'}" == settings.CELERY_BROKER_URL


def test_it_uses_redis_as_broker_when_configured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(monkeypatch, tmp_path, REDIS_URL="redis://cache:6379/0")
    assert settings.CELERY_BROKER_URL == "redis://cache:6379/0"
    explicit = load_settings(
        monkeypatch, tmp_path, REDIS_URL="redis://cache:6379/0", CELERY_BROKER_URL="redis://other:6379/2"
    )
    assert explicit.CELERY_BROKER_URL == "redis://other:6379/2"


def test_it_writes_mail_to_files_without_smtp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(monkeypatch, tmp_path)
    mailer = settings.MAILERS["default"]
    assert mailer["BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert Path(mailer["OPTIONS"]["file_path"]) == tmp_path / "var" / "mail"


def test_it_sends_mail_by_smtp_when_a_host_is_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(monkeypatch, tmp_path, EMAIL_HOST="mailpit", EMAIL_PORT="1025")
    mailer = settings.MAILERS["default"]
    assert mailer["BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (mailer["OPTIONS"]["host"], mailer["OPTIONS"]["port"]) == ("mailpit", 1025)


def test_it_is_safe_for_development_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(monkeypatch, tmp_path)
    assert settings.DEBUG is True
    assert "localhost" in settings.ALLOWED_HOSTS
    assert not hasattr(settings, "SECURE_SSL_REDIRECT")


def test_it_refuses_production_without_a_secret_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="SECRET_KEY"):
        load_settings(monkeypatch, tmp_path, DJANGO_ENV="production", EMAIL_HOST="smtp.example.com")


def test_it_refuses_production_without_an_smtp_host(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="EMAIL_HOST"):
        load_settings(monkeypatch, tmp_path, DJANGO_ENV="production", SECRET_KEY="x" * 60)


def test_it_hardens_production(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(
        monkeypatch,
        tmp_path,
        DJANGO_ENV="production",
        SECRET_KEY="x" * 60,
        ALLOWED_HOSTS="parlour.example.com",
        EMAIL_HOST="smtp.example.com",
    )
    assert settings.DEBUG is False
    assert settings.ALLOWED_HOSTS == ["parlour.example.com"]
    assert settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE and settings.SECURE_SSL_REDIRECT
    assert settings.SECURE_HSTS_SECONDS >= 31536000
    assert "Manifest" in settings.STORAGES["staticfiles"]["BACKEND"]


@pytest.mark.postgres
@pytest.mark.django_db
def test_it_talks_to_postgresql_when_configured() -> None:
    from django.db import connection

    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('server_version_num')::int")
        (version,) = cursor.fetchone()
    assert version >= 130000


def test_it_delivers_local_mail_as_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from django.core.mail import send_mail
    from django.test import override_settings

    settings = load_settings(monkeypatch, tmp_path)
    with override_settings(MAILERS=settings.MAILERS):
        send_mail("Your turn", "Alice played the 7 of hearts.", "parlour@localhost", ["bob@example.com"])
    written = list((tmp_path / "var" / "mail").iterdir())
    assert len(written) == 1
    assert "Alice played the 7 of hearts." in written[0].read_text()


def test_it_creates_no_folder_when_imported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    load_settings(monkeypatch, tmp_path)
    assert not (tmp_path / "var").exists()
    assert "mkdir" not in SETTINGS_FILE.read_text()


def test_the_sqlite_backend_creates_its_folder_when_it_first_connects(tmp_path: Path) -> None:
    from django.db.utils import ConnectionHandler

    path = tmp_path / "var" / "deeper" / "parlour.sqlite3"
    wrapper = ConnectionHandler({"default": {"ENGINE": "config.sqlite3", "NAME": str(path)}})["default"]
    # The backend's own connect step, without the test database machinery around it.
    raw = wrapper.get_new_connection(wrapper.get_connection_params())
    try:
        raw.execute("CREATE TABLE probe (id integer)")
    finally:
        raw.close()
    assert path.is_file()


def test_it_caches_in_the_database_without_redis(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cache = load_settings(monkeypatch, tmp_path).CACHES["default"]
    # Shared by every worker, unlike the per-process default: allauth's login limits count across them.
    assert cache == {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "parlour_cache"}


@pytest.mark.django_db
def test_the_cache_table_is_made_by_the_migrations() -> None:
    from django.db import connection

    assert "parlour_cache" in connection.introspection.table_names()


def test_it_caches_in_redis_when_configured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cache = load_settings(monkeypatch, tmp_path, REDIS_URL="redis://cache:6379/1").CACHES["default"]
    assert cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert cache["LOCATION"] == "redis://cache:6379/1"


def test_it_limits_bursts_of_moves_chat_new_matches_and_new_clubs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    limits = load_settings(monkeypatch, tmp_path).PARLOUR_RATE_LIMITS
    assert set(limits) == {"move", "chat", "match-create", "club-create"}
    # One move a second is normal play: every window allows more than that.
    assert all(count >= seconds for count, seconds in limits["move"])


def test_it_scales_every_burst_limit_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    usual = load_settings(monkeypatch, tmp_path).PARLOUR_RATE_LIMITS
    doubled = load_settings(monkeypatch, tmp_path, PARLOUR_RATE_LIMIT_SCALE="2").PARLOUR_RATE_LIMITS
    assert doubled == {k: [(count * 2, seconds) for count, seconds in windows] for k, windows in usual.items()}
    tiny = load_settings(monkeypatch, tmp_path, PARLOUR_RATE_LIMIT_SCALE="0.01").PARLOUR_RATE_LIMITS
    assert tiny["move"] == [(1, 10), (6, 600)]  # rounded down, but never to 0, which would refuse every post
    assert load_settings(monkeypatch, tmp_path, PARLOUR_RATE_LIMIT_SCALE="0").PARLOUR_RATE_LIMITS == {}
    with pytest.raises(RuntimeError, match="PARLOUR_RATE_LIMIT_SCALE"):
        load_settings(monkeypatch, tmp_path, PARLOUR_RATE_LIMIT_SCALE="-1")


def test_it_sends_a_strict_content_security_policy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings(monkeypatch, tmp_path)
    assert "django.middleware.csp.ContentSecurityPolicyMiddleware" in settings.MIDDLEWARE
    csp = settings.SECURE_CSP
    assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"] and csp["default-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"]


def test_it_pins_the_django_release_whose_features_it_uses() -> None:
    import tomllib

    project = tomllib.loads((SETTINGS_FILE.parent.parent / "pyproject.toml").read_text())["project"]
    django = next(req for req in project["dependencies"] if req.lower().startswith("django>"))
    low = tuple(int(part) for part in django.split(">=")[1].split(",")[0].split("."))
    # MAILERS (the mail settings above) arrived in Django 6.1; with 6.0 mail would silently use defaults.
    assert "MAILERS" in SETTINGS_FILE.read_text()
    assert low >= (6, 1) and "<7" in django
