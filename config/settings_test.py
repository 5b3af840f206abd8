"""Test settings: the real settings with the slow and outward-facing parts swapped out.

The database still comes from ``DATABASE_URL`` so CI exercises PostgreSQL.
Celery publishes to an in-memory broker so a test can never feed a worker
started by ``make run``; the round-trip tests build their own app against a
real broker.
"""

from config.settings import *  # noqa: F403

# Hashing with PBKDF2 dominates the run time of account tests; strength is irrelevant here.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND = "cache+memory://"
# Many sign-ups and logins from one "IP" in a few seconds are expected in tests.
ACCOUNT_RATE_LIMITS = False
# Nothing is collected into STATIC_ROOT for tests: look files up as they are asked for (no folder needed).
WHITENOISE_AUTOREFRESH = True
# Each test process has its own cache; tests that need limits clear it and turn them on themselves.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "parlour-tests"}}
# The page cache is on in tests (tests/conftest.py empties it before each test): the leak scans read pages
# through it. Its own tests put Redis behind it (tests/games/test_page_cache.py).
CACHES["template_fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "parlour-tests-pages",
    "KEY_PREFIX": f"parlour-page-{RELEASE}",  # noqa: F405
}
# Tests post many moves in a few milliseconds; tests/test_security.py turns the limits on where it checks them.
PARLOUR_RATE_LIMITS = {}
# Test databases on SQLite live in memory and need no folder; pytest-django (xdist) also recognises only
# Django's own engine name as SQLite, and would otherwise give each worker a file database.
if DATABASES["default"]["ENGINE"] == "config.sqlite3":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "django.db.backends.sqlite3"  # noqa: F405
# Database sessions, whatever REDIS_URL says: the query-count tests count the session's read, and
# tests/accounts/test_sessions.py turns the cached store (accounts/sessions.py) on where it tests it.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
