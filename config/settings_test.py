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
