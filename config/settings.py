"""Settings from environment variables, with safe local defaults.

Locally nothing needs to be set: SQLite and the Celery broker live under
``var/``, mail is written to files under ``var/mail/``. Set ``DATABASE_URL``
(PostgreSQL), ``CELERY_BROKER_URL``/``REDIS_URL`` (Redis) and the ``EMAIL_*``
SMTP settings in production; ``DJANGO_ENV=production`` turns on the secure
defaults that ``manage.py check --deploy`` asks for.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import dj_database_url
from celery.schedules import crontab
from django.utils.csp import CSP

from config.cache import release_digest

BASE_DIR = Path(__file__).resolve().parent.parent
# Importing settings creates nothing: the SQLite backend (config/sqlite3), the mail file backend and the
# Makefile create the folders under VAR_DIR when something is first written there.
VAR_DIR = Path(os.environ.get("PARLOUR_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DJANGO_ENV = os.environ.get("DJANGO_ENV", "development")
PRODUCTION = DJANGO_ENV == "production"

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise RuntimeError("Set SECRET_KEY in production.")
    SECRET_KEY = "django-insecure-local-development-key-change-me-in-production-0123456789"
DEBUG = env_bool("DEBUG", not PRODUCTION)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "django_htmx",
    "accounts",
    "games",
    "leagues",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.TimezoneMiddleware",
    # A lost database connection answers 503 with a sentence (config/middleware.py).
    "config.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.your_turn",
                "config.context_processors.site_links",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'parlour.sqlite3'}",
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = env_bool("DATABASE_POOL", True)
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The same backend, except that it creates the database file's folder on first connection.
    DATABASES["default"]["ENGINE"] = "config.sqlite3"
    # WAL and a busy timeout let the web server and the Celery worker share the file.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "games-dashboard"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Locally nothing is collected into STATIC_ROOT: with DEBUG on WhiteNoise looks files up as they are asked
# for and does not need the folder, so settings do not create it.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Accounts (django-allauth): sign-up by email, verified before play.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = True
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if PRODUCTION else "http"
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
# An invitation followed while logged out survives sign-up, confirmation and login, and lands on the seat.
# Club invitations likewise: the leagues adapter extends the games one (games knows nothing of clubs).
ACCOUNT_ADAPTER = "leagues.account_adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "leagues.account_adapter.InvitedLoginForm"}
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Parlour] "
ACCOUNT_LOGOUT_REDIRECT_URL = "/"

# Mail: SMTP when EMAIL_HOST is set, else files under var/mail/ (Django 6.1's MAILERS replaces EMAIL_BACKEND).
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Parlour <parlour@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
MAIL_DIR = VAR_DIR / "mail"
if os.environ.get("EMAIL_HOST"):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["EMAIL_HOST"],
                "port": int(os.environ.get("EMAIL_PORT", "25")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", False),
                "use_ssl": env_bool("EMAIL_USE_SSL", False),
                "timeout": int(os.environ.get("EMAIL_TIMEOUT", "30")),
            },
        }
    }
elif PRODUCTION:
    # A file-based mailer in production would lose every turn notification without a word.
    raise RuntimeError("Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD) in production.")
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": str(MAIL_DIR)},
        }
    }

REDIS_URL = os.environ.get("REDIS_URL", "")

# One cache shared by every process, so that allauth's login limits and our burst limits count across
# gunicorn workers: Redis when configured, else a table in the database (made by accounts' migration 0002).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "parlour",
        }
    }
    # Every signed-in request reads its session: from Redis, with the database as the truth (accounts/sessions.py).
    SESSION_ENGINE = "accounts.sessions"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "parlour_cache"}}

# Rendered parts of hot pages (config/cache.py): keyed by what they show, so never stale; the release in
# the prefix keeps a deploy from serving what older code rendered; the timeout only bounds memory.
RELEASE = os.environ.get("PARLOUR_RELEASE") or release_digest(BASE_DIR)
PAGE_CACHE_SECONDS = 7 * 24 * 3600
PAGE_CACHE: dict[str, Any] = {
    **(
        {
            "BACKEND": "config.cache.PageCache",
            "LOCATION": REDIS_URL,
            # A Redis that does not answer at once is a miss: the page renders from the database.
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "parlour_cache"}
    ),
    "KEY_PREFIX": f"parlour-page-{RELEASE}",
    "TIMEOUT": PAGE_CACHE_SECONDS,
}
CACHES["template_fragments"] = PAGE_CACHE

# Burst limits per player (games/ratelimit.py): at most COUNT posts of a kind in any fixed window of SECONDS.
# A player moving once a second stays far below the move limit; a script does not.
# PARLOUR_RATE_LIMIT_SCALE multiplies every COUNT (rounded down, at least 1): 100 for a load test, 0 for no limits.
RATE_LIMIT_SCALE = float(os.environ.get("PARLOUR_RATE_LIMIT_SCALE", "1"))
if not 0 <= RATE_LIMIT_SCALE < float("inf"):  # also refuses nan
    raise RuntimeError("PARLOUR_RATE_LIMIT_SCALE is a number, 0 or more (0 turns the burst limits off).")
PARLOUR_RATE_LIMITS: dict[str, list[tuple[int, int]]] = {
    kind: [(max(1, int(count * RATE_LIMIT_SCALE)), seconds) for count, seconds in windows]
    for kind, windows in {
        "move": [(30, 10), (600, 600)],
        "chat": [(10, 30), (60, 600)],
        "match-create": [(5, 60), (30, 3600)],
        "club-create": [(3, 60), (10, 3600)],
    }.items()
    if RATE_LIMIT_SCALE > 0
}

# Content-Security-Policy (Django's own middleware): scripts and styles from our origin only, no inline
# script, no eval, no framing. htmx is configured in base.html to need neither eval nor inline styles.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

# Celery: Redis when configured, else Kombu's SQLAlchemy transport on SQLite.
CELERY_BROKER_URL = (
    os.environ.get("CELERY_BROKER_URL") or REDIS_URL or f"sqla+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
)
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE: dict = {}


def _refusal_without_traceback(record: logging.LogRecord) -> bool:
    """A refused request (403, 404) is the visitor's mistake: one warning line, no traceback."""
    if 400 <= getattr(record, "status_code", 500) < 500:
        record.exc_info = None
        record.exc_text = None
    return True


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusal_without_traceback": {"()": lambda: _refusal_without_traceback}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.request": {"filters": ["refusal_without_traceback"]}},
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Health checks come from inside the network over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    # SECURE_COOKIES=false only for a production-like stack on plain http://localhost (docker compose).
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

# games: re-send mails a lost message left pending, wake bots, and the daily turn digest.
CELERY_BEAT_SCHEDULE.update(
    {
        # Held turn mails whose grace period is over go out within half a minute of it.
        "games-mail-due": {"task": "games.tasks.mail_due", "schedule": 30.0},
        "games-mail-sweep": {"task": "games.tasks.mail_sweep", "schedule": 300.0},
        "games-bot-sweep": {"task": "games.tasks.bot_sweep", "schedule": 120.0},
        # Hourly: each player's digest goes at the hour they chose, on their own clock (once per local date).
        "games-digest": {"task": "games.tasks.digest_send", "schedule": crontab(minute=0)},
        # Reminders before deadlines, held through each player's quiet hours.
        "games-reminder-sweep": {"task": "games.tasks.reminder_sweep", "schedule": 60.0},
        # Vacations that ran out: the player's clocks start again.
        "games-vacation-sweep": {"task": "games.tasks.vacation_sweep", "schedule": 60.0},
        # Waiting matches whose invitations were never all accepted are abandoned.
        "games-waiting-expire": {"task": "games.tasks.waiting_expire", "schedule": 3600.0},
        # Deadlines a lost message missed (the database is the truth; each task claims before it acts).
        "games-deadline-sweep": {"task": "games.tasks.deadline_sweep", "schedule": 60.0},
        # leagues: finished matches whose fixture is not yet counted; rounds whose play-by date passed.
        "leagues-results-sweep": {"task": "leagues.tasks.results_sweep", "schedule": 300.0},
        "leagues-rounds-sweep": {"task": "leagues.tasks.rounds_sweep", "schedule": 600.0},
    }
)

# Invitations by email are limited (counted in the database) and waiting matches expire.
GAMES_INVITATIONS_PENDING_MAX = int(os.environ.get("GAMES_INVITATIONS_PENDING_MAX", "20"))
GAMES_INVITATIONS_PER_DAY = int(os.environ.get("GAMES_INVITATIONS_PER_DAY", "30"))
GAMES_INVITATIONS_PER_ADDRESS_PER_DAY = int(os.environ.get("GAMES_INVITATIONS_PER_ADDRESS_PER_DAY", "3"))
GAMES_WAITING_EXPIRE_DAYS = int(os.environ.get("GAMES_WAITING_EXPIRE_DAYS", "7"))
# Club invitations likewise (leagues.clubs.club_invite): per organizer and per address in the last day,
# and unanswered, unexpired invitations per club.
LEAGUES_CLUB_INVITATIONS_PER_DAY = int(os.environ.get("LEAGUES_CLUB_INVITATIONS_PER_DAY", "30"))
LEAGUES_CLUB_INVITATIONS_PER_ADDRESS_PER_DAY = int(os.environ.get("LEAGUES_CLUB_INVITATIONS_PER_ADDRESS_PER_DAY", "3"))
LEAGUES_CLUB_INVITATIONS_PENDING_MAX = int(os.environ.get("LEAGUES_CLUB_INVITATIONS_PENDING_MAX", "50"))

# Moves from the mail (signed links) and browser push. Push is off unless both VAPID keys are set
# (base64url: the private key's 32 raw bytes, the public key's uncompressed point).
WEBPUSH_ENABLED = env_bool("WEBPUSH_ENABLED", True)
WEBPUSH_VAPID_PUBLIC_KEY = os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY", "")
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "")
WEBPUSH_VAPID_SUBJECT = os.environ.get("WEBPUSH_VAPID_SUBJECT", "mailto:parlour@localhost")
GAMES_MAIL_LINK_MAX_AGE_DAYS = int(os.environ.get("GAMES_MAIL_LINK_MAX_AGE_DAYS", "7"))
GAMES_TEST_NOTICE_EVERY_SECONDS = int(os.environ.get("GAMES_TEST_NOTICE_EVERY_SECONDS", "300"))

# Clocks and absence.
GAMES_TURN_MAIL_GRACE_SECONDS = int(os.environ.get("GAMES_TURN_MAIL_GRACE_SECONDS", "600"))
GAMES_PRESENCE_WINDOW_SECONDS = 300  # a player seen at the table this recently gets no turn mail
GAMES_REMINDER_HORIZON_HOURS = 48
GAMES_REMINDER_SWEEP_LIMIT = 5000
BOT_MOVE_DELAY_SECONDS = float(os.environ.get("BOT_MOVE_DELAY_SECONDS", "2"))
GAMES_TIMEOUTS_BEFORE_ABSENT = int(os.environ.get("GAMES_TIMEOUTS_BEFORE_ABSENT", "3"))
GAMES_DEADLINE_ETA_HORIZON_SECONDS = (
    1800  # a scheduled task only for deadlines this near: below Redis' 1 h visibility timeout
)
# Matches per sweep batch, one transaction each (games.services.timeouts_batch): 10 took the bench 14.9 s, 25 11.8 s.
GAMES_DEADLINE_SWEEP_BATCH = 25
GAMES_DEADLINE_SWEEP_LIMIT = 20_000
# A timeout lost in a database crash keeps its deadline, so the sweep plays it again: no need to wait for the disk.
GAMES_TIMEOUT_SYNCHRONOUS_COMMIT = False
ACCOUNTS_VACATION_DAYS_PER_YEAR = int(os.environ.get("ACCOUNTS_VACATION_DAYS_PER_YEAR", "14"))
