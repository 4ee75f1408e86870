"""Settings for the backgammon service: one module, driven by environment variables.

Every variable has a default that suits local development; a bad value fails loudly
at start-up (see ``backgammon.env``). The variables:

DJANGO_ENV     ``development`` (default) or ``production``
DEBUG          defaults to true, except when DJANGO_ENV=production
SECRET_KEY     required unless DEBUG
ALLOWED_HOSTS  comma-separated; defaults to localhost and the host of SITE_URL
SITE_URL       base URL for links in e-mails (default http://127.0.0.1:$PORT)
PORT           the port ``dev.py run`` serves on (default 8000), which SITE_URL follows
               when it is not set
DATABASE_URL   default: SQLite file db.sqlite3 in the project root
DATABASE_CONN_MAX_AGE  seconds a connection is kept between requests (default 0: under
               ASGI, as the site is served, each request runs its sync code on a new thread;
               a WSGI server such as gunicorn may keep them, e.g. 60)
REDIS_URL      unset: Celery tasks run eagerly in-process, local-memory cache;
               set: Celery broker/results and the cache use Redis
EMAIL_URL      default console: (one line per e-mail; console:?full=1 prints them whole),
               or smtp://user:pass@host:port (see parse_email_url)
DEFAULT_FROM_EMAIL
TRUSTED_PROXY_COUNT  reverse proxies in front that append to X-Forwarded-For (default 0)
BOT_MATCHES_RATED    whether matches against the GNU Backgammon bots are rated (default false)
BOT_SEEK_WAIT  seconds a live seek waits for a person before a bot may take it (default 20)
GNUBG          the gnubg program (default: found on PATH or in /usr/games)
GNUBG_REMOTE   true when the analysis and bots queues are consumed on other machines
               that have gnubg: the site then offers both without gnubg of its own
"""

from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from backgammon.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_optional,
    env_str,
    parse_email_url,
    parse_redis_url,
    parse_site_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
# templates/, static/ and locale/ sit beside the packages in a checkout; an installed
# wheel carries them inside this package (pyproject.toml's package-dir), rather than as
# directories named templates, static and locale at the top of site-packages.
_PACKAGED = Path(__file__).resolve().parent
ASSETS_DIR = _PACKAGED if (_PACKAGED / "templates").is_dir() else BASE_DIR

# --- Environment -------------------------------------------------------------

DJANGO_ENV = env_choice("DJANGO_ENV", "development", {"development", "production"})
DEBUG = env_bool("DEBUG", DJANGO_ENV != "production")

_secret_key = env_optional("SECRET_KEY")
if _secret_key is None:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    _secret_key = "django-insecure-dev-only-key-do-not-use-in-production"
SECRET_KEY = _secret_key

# Unset, links in e-mails reach the site ``dev.py run`` serves, on whatever PORT it has.
_site_url = env_optional("SITE_URL")
if _site_url is None:
    _site_url = f"http://127.0.0.1:{env_int('PORT', 8000, minimum=1, maximum=65535)}"
SITE_URL = parse_site_url("SITE_URL", _site_url)
_site = urlsplit(SITE_URL)
ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", sorted({"localhost", "127.0.0.1", "[::1]", _site.hostname or ""} - {""})
)
CSRF_TRUSTED_ORIGINS = [f"{_site.scheme}://{_site.netloc}"]
# A form refused for its token: the site's page, in the player's language.
CSRF_FAILURE_VIEW = "backgammon.csrf.csrf_failure"

# --- Applications --------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "allauth",
    "allauth.account",
    "accounts",
    "matches",
    "challenges",
    "chouettes",
    "notifications",
    "stats",
    "bots",
    "analysis",
    "tournaments",
    "live",
    # After the apps it moderates: its admin.py replaces their User, Match and GameMessage
    # admins with subclasses that add the moderators' actions.
    "moderation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    # The signed-in player is on the site (User.seen_at): their notices wait (notifications).
    "accounts.middleware.ActivityMiddleware",
    # A NUL in the URL: 404/400 in the user's language, before any lookup (PostgreSQL
    # cannot compare one).
    "backgammon.middleware.RejectNulMiddleware",
    # A form refused by a view that answers it with 200 (allauth's, the admin's log-in): 400.
    "backgammon.middleware.RefusedFormStatusMiddleware",
    # A page refused for a limit reached (429) says when to try again (Retry-After).
    "backgammon.middleware.RetryAfterMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A suspended player's session ends here, with a page naming the reason and the end.
    "moderation.middleware.SuspensionMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "backgammon.urls"
WSGI_APPLICATION = "backgammon.wsgi.application"
ASGI_APPLICATION = "backgammon.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [ASSETS_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ------------------------------------------------------------------

try:
    DATABASES = {
        "default": dj_database_url.parse(
            env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
            # Under ASGI (uvicorn, how the site is served) each request's sync code runs on
            # a thread of its own, whose kept connection outlives it: PostgreSQL ran out of
            # clients under load (bench/live.py). So none is kept unless a WSGI server asks.
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0),
            conn_health_checks=True,
        )
    }
except ValueError as exc:
    raise ImproperlyConfigured(f"DATABASE_URL is invalid: {exc}") from exc
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Server-side parameters, and psycopg prepares a statement after its fifth use on a
    # connection (Django leaves that off unless asked): PostgreSQL stops parsing and
    # planning every move's few statements again (bench/README.md), and no parameter is
    # quoted into the SQL in Python. Behind a transaction-mode pooler (PgBouncer), whose
    # server connections change under a client, set DATABASE_PREPARED_STATEMENTS=false.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True,
        prepare_threshold=5 if env_bool("DATABASE_PREPARED_STATEMENTS", True) else None,
    )

elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A transaction takes the write lock when it begins (BEGIN IMMEDIATE) and a writer
    # waits up to 20 s for it: two moves sent at the same instant queue, and the second
    # gets the same 409 as on PostgreSQL. With SQLite's default (DEFERRED) both read,
    # then the second to write failed at once with "database is locked" (a 500).
    DATABASES["default"].setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=20)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: cache and Celery ---------------------------------------------------

_redis_url = env_optional("REDIS_URL")
REDIS_URL = parse_redis_url("REDIS_URL", _redis_url) if _redis_url else None

if REDIS_URL:
    # While Redis is unreachable every cache call answers as an empty cache, after a
    # connection attempt of at most a second: pages work from the database, rate limits
    # fail open, and a warning is logged (backgammon/cache.py).
    CACHES = {
        "default": {
            "BACKEND": "backgammon.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "bg",
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # Kombu's Redis transport, with an ack that Redis did not answer still freeing the
    # worker's prefetch slot (without it a one-task worker stops after a Redis blip).
    CELERY_BROKER_TRANSPORT = "backgammon.broker:Transport"
    CELERY_RESULT_BACKEND: str | None = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # No broker: tasks run in-process, at once (transaction.on_commit(task.delay) works).
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_ALWAYS_EAGER = True

# The live layer (the ``live`` app's sockets): Channels' Redis pub/sub layer, so that an
# event pushed by one web process, or a worker, reaches a socket on any other; in-memory
# (one process, the development server) without Redis. The socket timeouts bound a push
# while Redis is unreachable: it is dropped and logged, the pages poll (live/push.py).
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_connect_timeout": 1.0,
                        "socket_timeout": 1.0,
                    }
                ],
                "prefix": "bg-live",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
ASGI_APPLICATION = "backgammon.asgi.application"

CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 120
CELERY_RESULT_EXPIRES = 3600
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# With acks_late a task that is not acked within the visibility timeout is delivered
# again, to another worker, while the first may still run it: it is set below the
# analysis settings, from the longest task they allow.
# Publishing fails fast when Redis is down (one quick retry, not ~6 s of back-off): a
# move must not wait for the broker. The outbox sweeper sends what could not be enqueued.
# The socket timeouts bound a Redis that accepts connections but does not answer
# (without them a publish waits forever); the worker's BRPOP polls every second, within it.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
}
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Queues by task name: `<app>.tasks.email_*` sends e-mail, `<app>.tasks.clock_*` is
# time control (expiry, reminders). Or pass queue= to @shared_task.
CELERY_TASK_ROUTES = {
    "*.tasks.email_*": {"queue": "email"},
    "*.tasks.clock_*": {"queue": "clock"},
    # gnubg's decisions for the bots' turns: workers with gnubg installed consume it.
    "bots.tasks.*": {"queue": "bots"},
    # gnubg's analysis of finished matches: workers with gnubg installed consume it.
    "analysis.tasks.*": {"queue": "analysis"},
}
# Periodic tasks, declared in code: {"name": {"task": "...", "schedule": seconds}}.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Time control (matches/clock.py), old challenges and the notification outbox (notifications/).
    "expire-overdue-games": {"task": "matches.tasks.clock_expire_overdue", "schedule": 60.0},
    "expire-challenges": {"task": "challenges.tasks.clock_expire_challenges", "schedule": 60.0},
    # Tournaments: scheduled editions, starts, and any match end left unrecorded.
    "run-tournaments": {"task": "tournaments.tasks.clock_tournaments", "schedule": 60.0},
    # A chouette member's vote or answer past its deadline (chouettes/).
    "expire-chouette-decisions": {
        "task": "chouettes.tasks.clock_expire_decisions",
        "schedule": 60.0,
    },
    "remind-players": {"task": "notifications.tasks.clock_remind_players", "schedule": 300.0},
    "sweep-email-outbox": {"task": "notifications.tasks.email_sweep", "schedule": 60.0},
    "send-digests": {"task": "notifications.tasks.email_digests", "schedule": 600.0},
    # The dice thrown, counted from the record for the dice page (stats/dice.py).
    "count-dice": {"task": "stats.tasks.clock_count_dice", "schedule": 60.0},
    # A bot's turn whose task was lost (the broker was down) is queued again (bots/).
    "sweep-bot-turns": {"task": "bots.tasks.bot_sweep", "schedule": 60.0},
    # An analysis whose worker died or whose task was lost is queued again (analysis/).
    "sweep-analyses": {"task": "analysis.tasks.analysis_sweep", "schedule": 300.0},
}

# --- Limits on what one player can make the site do ----------------------------
# (backgammon/limits.py; a limit reached is a 429 that says why, and when to retry.)
# Counts of things in play, read from the database by the service that would add one:
# open challenges a player has made, and of those to one player (also: invitations to
# one player pending in the player's open chouettes); invitations pending in the
# player's open chouettes; matches in play against the computer.
LIMIT_OPEN_CHALLENGES = env_int("LIMIT_OPEN_CHALLENGES", 20, minimum=1)
LIMIT_TO_ONE_PLAYER = env_int("LIMIT_TO_ONE_PLAYER", 3, minimum=1)
LIMIT_CHOUETTE_INVITATIONS = env_int("LIMIT_CHOUETTE_INVITATIONS", 20, minimum=1)
LIMIT_BOT_MATCHES = env_int("LIMIT_BOT_MATCHES", 10, minimum=1)
# Rates per player, counted in the cache (not enforced while Redis is down, like the
# log-in limits): challenges and chouette invitations sent (each may e-mail someone),
# messages (game and chouette chat), analyses asked for, and the API's changing requests.
LIMIT_INVITATIONS_PER_HOUR = env_int("LIMIT_INVITATIONS_PER_HOUR", 30, minimum=1)
LIMIT_MESSAGES_PER_MINUTE = env_int("LIMIT_MESSAGES_PER_MINUTE", 10, minimum=1)
LIMIT_ANALYSES_PER_DAY = env_int("LIMIT_ANALYSES_PER_DAY", 20, minimum=1)
LIMIT_API_ACTIONS_PER_MINUTE = env_int("LIMIT_API_ACTIONS_PER_MINUTE", 60, minimum=1)
# django-ratelimit: a count the cache lost midway lets the action through.
RATELIMIT_FAIL_OPEN = True

# --- Tournaments -----------------------------------------------------------------

#: Whether players (not only the moderators) may create tournaments.
TOURNAMENTS_BY_PLAYERS = env_bool("TOURNAMENTS_BY_PLAYERS", False)

# --- GNU Backgammon ---------------------------------------------------------------

# The analysis and the bots run where gnubg is: by default this machine (whether its
# gnubg is installed decides whether the site offers them). With workers of the
# `analysis` and `bots` queues on other machines, set GNUBG_REMOTE on the web machines.
GNUBG_REMOTE = env_bool("GNUBG_REMOTE", False)

# --- Bots ----------------------------------------------------------------------

# Matches against the bots (bots/) count for the ratings, and the bots appear on the
# leaderboard, only when this is on.
BOT_MATCHES_RATED = env_bool("BOT_MATCHES_RATED", False)
# A live seek of the lobby that no person has taken after this many seconds is taken by
# a bot, unless its seeker said no (bots/services.py, bot_take_seek).
BOT_SEEK_WAIT = env_int("BOT_SEEK_WAIT", 20, minimum=0, maximum=1800)

# --- Analysis ------------------------------------------------------------------

# GNU Backgammon's level for the analysis of finished matches (analysis/), the same for
# chequer play and cube decisions: 0-ply (gnubg's quick analysis) up to 2-ply (its
# "world class"). Each step costs about ten times the one before.
ANALYSIS_PLIES = env_int("ANALYSIS_PLIES", 0, minimum=0, maximum=2)
# Whether a match is analysed when it ends; players may still ask for it when off.
ANALYSIS_AUTOMATIC = env_bool("ANALYSIS_AUTOMATIC", True)
# Seconds one match's analysis may take before gnubg is stopped (and the task retried).
ANALYSIS_TIMEOUT = env_int("ANALYSIS_TIMEOUT", 3600, minimum=10)
# A running analysis whose worker has not reported a game for this long is queued again.
ANALYSIS_STALL_SECONDS = env_int("ANALYSIS_STALL_SECONDS", 900, minimum=10)
# The sweep that finds them runs as often as a stall can be told (every 5 minutes at
# most): a task lost with Redis waits one stall, not one stall and five minutes.
CELERY_BEAT_SCHEDULE["sweep-analyses"]["schedule"] = float(min(300, ANALYSIS_STALL_SECONDS))
# Runs started for one analysis before the sweeper gives it up as failed (a match whose
# run always dies, or always outlasts ANALYSIS_TIMEOUT, is not run for ever).
ANALYSIS_MAX_ATTEMPTS = env_int("ANALYSIS_MAX_ATTEMPTS", 3, minimum=1)
# The analysis task's hard time limit (analysis/tasks.py): gnubg's timeout and a minute.
ANALYSIS_TASK_TIME_LIMIT = ANALYSIS_TIMEOUT + 60
# The broker delivers a task again when its worker has not acknowledged it within this
# many seconds (acks_late): it must outlast the longest task, the analysis at the
# longest ANALYSIS_TIMEOUT set (README suggests more at 2-ply), and the wait of a task
# held for its countdown (a retry's), or a run still under way is delivered again.
# Never below an hour; a worker that died is found out sooner by the sweepers.
CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] = max(3600, ANALYSIS_TASK_TIME_LIMIT + 600)

# --- E-mail --------------------------------------------------------------------

_email = parse_email_url(env_str("EMAIL_URL", "console:"))
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _email.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
if "EMAIL_FILE_PATH" in _email:
    EMAIL_FILE_PATH = _email["EMAIL_FILE_PATH"]
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Backgammon <backgammon@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
#: Seconds before a refused e-mail is tried again (doubling per attempt); the worker
#: tests set it low so that they do not wait out a real retry.
NOTIFICATION_RETRY_BASE_SECONDS = env_int("NOTIFICATION_RETRY_BASE_SECONDS", 30, minimum=1)
#: A player counts as away from the site this many seconds after their last request
#: (User.seen_at). Until then the notices of a game they play (its turns, a double, a draw
#: offer, its end, a message) wait in the outbox, and go out only if still unread and, for
#: a turn, still theirs (notifications.outbox.HELD_KINDS). 0: e-mail at once.
NOTIFY_AWAY_AFTER_SECONDS = env_int("NOTIFY_AWAY_AFTER_SECONDS", 300, minimum=0)
EMAIL_TIMEOUT = 20

# --- Authentication (django.contrib.auth + allauth) ----------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "dashboard"

ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Backgammon] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = _site.scheme
# Refuses a suspended player at log-in, telling them why and until when; reads the
# client's address and limits failed log-ins per account and address (accounts/adapters.py).
ACCOUNT_ADAPTER = "moderation.adapters.AccountAdapter"
# Failed log-ins: 5 in 5 minutes per account and address, 300 an hour per address (why:
# accounts.adapters.AccountAdapter). A successful log-in does not count.
ACCOUNT_RATE_LIMITS = {"login_failed": "5/5m/key,300/h/ip"}
# How many reverse proxies of ours append to X-Forwarded-For in front of the site; the
# client's address is then read from that header (accounts.adapters.client_ip). 0: the
# header is ignored and the address is REMOTE_ADDR.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)
# The log-in form with a length limit on the login (accounts/forms.py).
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm"}
# Adds the browser's time zone (a hidden field) to allauth's sign-up form.
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.signup.SignupForm"

# --- API -----------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: a bad token then gets 401 with a WWW-Authenticate header.
        # Both refuse a suspended player (moderation/authentication.py).
        "moderation.authentication.TokenAuthentication",
        "moderation.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON only, and one error shape everywhere (backgammon/api/).
    "DEFAULT_PARSER_CLASSES": ["backgammon.api.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "backgammon.api.errors.exception_handler",
    # A player's changing requests a minute (LIMIT_API_ACTIONS_PER_MINUTE, above).
    "DEFAULT_THROTTLE_CLASSES": ["backgammon.api.throttles.ApiActionsThrottle"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Backgammon API",
    "DESCRIPTION": """Correspondence backgammon: challenges, matches and moves.

**Authentication.** Send `Authorization: Token <key>` (a browser session works too). A
bot is a player like any other: sign up on the website (`/accounts/signup/`) and confirm
the e-mail address, then create the token on the profile page (`/accounts/profile/`),
where it can also be replaced or revoked. There is no API call to sign up or to trade a
password for a token: an account needs a confirmed e-mail address, and passwords are
checked only by the site's log-in, under its rate limits.

**Playing.** A game's `awaiting` says who must answer and what; `actions` and `plays`
list what the caller may send. Send the `ply` you saw with every action.

**Errors.** Every error is JSON `{"code", "detail"}` (plus `fields` for a malformed
body): `code` is stable, `detail` is in the user's language. A body must be JSON (else
415) and not too large (else 413, whose `detail` gives the limit).

**Limits.** A player's changing requests (every method but GET) are limited per minute,
and so are some actions (challenges, invitations and messages sent, analyses asked for,
matches against the computer in play). A limit reached is 429 with a `code` naming it
(`too_many_…`) and, when a time is known, `Retry-After` in seconds.""",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Descriptions are written for the API's users (extend_schema / extend_schema_serializer);
    # our docstrings are notes for developers and stay out of the schema.
    "DISABLE_DOCSTRING_DESCRIPTIONS": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "backgammon.api.schema.document_errors",
    ],
    # One name per choice set that several fields share (matches/serializers.py).
    "ENUM_NAME_OVERRIDES": {
        "Color": ["white", "black"],
        "ChallengeStatus": "challenges.models.Challenge.Status",
        "MatchStatus": "matches.models.Match.Status",
        "TournamentStatus": "tournaments.models.Tournament.Status",
        "TournamentListStatus": ["upcoming", "registering", "running", "finished", "cancelled"],
        "ChouetteAction": [
            "move",
            "box_answer",
            "vote",
            "answer",
            "propose",
            "box_double",
            "suggest",
        ],
    },
}

# --- Internationalisation ------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("es", _("Spanish")), ("ca", _("Catalan"))]
LOCALE_PATHS = [ASSETS_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True
# Corrections to Django's formats of a language (backgammon/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["backgammon.formats"]

# --- Static files --------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [ASSETS_DIR / "static"]
# In development (and tests) serve straight from the app and static/ directories.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- Security (only strict when served over https) -----------------------------

_https = _site.scheme == "https"
SESSION_COOKIE_SECURE = _https
CSRF_COOKIE_SECURE = _https
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)

# --- Content-Security-Policy and Permissions-Policy (issue 12) ------------------
# Sent in every environment (development and tests too, so the browser tests see the
# policy production sends). The site's own pages use no inline script, style or event
# handler; Swagger UI is served from our static files (drf-spectacular-sidecar) and its
# start-up script from a URL of its own (SpectacularSwaggerSplitView), so 'self' holds.
# A page that needs an inline element gives it nonce="{{ request.csp_nonce }}" and adds
# csp.constants.NONCE to the directive.
INSTALLED_APPS += ["csp", "drf_spectacular_sidecar"]
MIDDLEWARE[MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1 : 0] = [
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
]
_SELF, _NONE = "'self'", "'none'"  # as csp.constants spells them
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [_SELF],
        "script-src": [_SELF],
        "style-src": [_SELF],
        # Swagger UI's stylesheet draws its icons as data: SVGs.
        "img-src": [_SELF, "data:"],
        "font-src": [_SELF],
        "connect-src": [_SELF],
        "object-src": [_NONE],
        "base-uri": [_SELF],
        "form-action": [_SELF],
        "frame-ancestors": [_NONE],
    },
}
# Powerful browser features the site never uses, off for it and anything it embeds.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "browsing-topics",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "hid",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "serial",
        "usb",
    )
}
SPECTACULAR_SETTINGS.update(
    SWAGGER_UI_DIST="SIDECAR", SWAGGER_UI_FAVICON_HREF="SIDECAR", REDOC_DIST="SIDECAR"
)

# --- Logging -------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
