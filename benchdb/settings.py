"""Django settings for benchdb. Every setting comes from an environment variable.

DATABASE_URL      PostgreSQL URL (postgres://user@127.0.0.1:5432/benchdb); unset: an
                  embedded SQLite file (the quick start only; tests and CI use PostgreSQL)
SECRET_KEY        or SECRET_KEY_FILE; unset: a random key per process (debug only)
DEBUG             "1" to turn debug on
ALLOWED_HOSTS     comma-separated, default "127.0.0.1,localhost"
MLPERF_DATA       folder of MLPerf results repositories, default ../shared/mlperf
VENDOR_DATA       folder of vendor pages, default ../shared/vendor
MLPERF_INFERENCE_DATA  folder of MLPerf Inference results, default ../shared/mlperf-inference
BENCHDB_CACHE     where git sources are cloned, default ./var/cache
BENCHDB_DATA_NOTE the home page's words on the data loaded (make demo: "a small real subset")
CELERY_BROKER_URL e.g. redis://127.0.0.1:6379/0; unset: tasks run in-process
CONN_MAX_AGE      seconds a database connection is kept, default 0
STATIC_ROOT       collectstatic target (make demo/serve: var/static): compressed,
                  fingerprinted static files; unset: served from their folders by WhiteNoise
INGEST_FANOUT     "1": an MLPerf source's sync runs one Celery task per submitter folder
INGEST_JOB_STALE_SECONDS  a running ingest job without heartbeat for this long is
                  interrupted, default 120
CHECK_FACTS_REFRESH_SECONDS  how often each gunicorn worker's keeper thread looks for a
                  data change and builds the check API's facts (ingest/claims/warm.py),
                  default 10; 0: no keeper (the first check after a change builds them)

Serving over HTTPS (``manage.py check --deploy`` is clean with DEBUG=0, SECRET_KEY,
ALLOWED_HOSTS and BENCHDB_HTTPS=1):
BENCHDB_HTTPS     "1": redirect http to https, Secure session and CSRF cookies, HSTS
SECURE_HSTS_SECONDS             HSTS max-age, default 31536000 with BENCHDB_HTTPS, else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS  default 1 with BENCHDB_HTTPS
SECURE_HSTS_PRELOAD             default 1 with BENCHDB_HTTPS
BENCHDB_PROXY_SSL_HEADER  "1" behind a proxy that terminates TLS and sets
                  X-Forwarded-Proto (never without such a proxy: clients could set it)
CACHE_URL         Redis URL of the cache (redis://127.0.0.1:6379/1): the check API's rate
                  limit counts requests per client IP there; unset: a per-process memory
                  cache (the quick start: each process counts on its own)
PAGE_CACHE_MAX_BYTES  largest page or export kept in the pages cache, default 8 MiB
CLAIMS_CHECK_RATE requests per client IP to the check-this-text form and API, default "20/m"
                  (django-ratelimit's rate syntax: N/s, N/m, N/h)
BENCHDB_TRUSTED_PROXIES  reverse proxies in front of the site that append to
                  X-Forwarded-For, default 0 (REMOTE_ADDR is the client); the login
                  throttle and the check API's rate limit key clients by the address
                  the first trusted proxy saw (benchdb/client_ip.py)
BENCHDB_CLIENT_IP_HEADER  the header they write, default X-Forwarded-For (X-Real-IP...)
Login throttle (django-axes, admin login included):
AXES_FAILURE_LIMIT  failed logins per username and IP before a lockout, default 5
AXES_COOLOFF_MINUTES  how long a lockout lasts, default 15
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str = "0") -> bool:
    value = os.environ.get(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be 0 or 1, got {value!r}")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number >= 0, got {value!r}")
    return int(value)


def envsecret(name: str) -> str | None:
    if os.environ.get(name):
        return os.environ[name]
    path = os.environ.get(f"{name}_FILE")
    if path:
        return Path(path).read_text().strip()
    return None


DEBUG = envbool("DEBUG")
SECRET_KEY = envsecret("SECRET_KEY") or ""
SECRET_KEY_IS_EPHEMERAL = False
if not SECRET_KEY:
    # No secret default in code: an unset key is random per process, so sessions
    # do not survive a restart and several web processes would not agree on it.
    # Commands and tests do not care; benchdb/wsgi.py refuses to serve without
    # a key unless DEBUG is on.
    SECRET_KEY = secrets.token_urlsafe(50)
    SECRET_KEY_IS_EPHEMERAL = True
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if h.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # WhiteNoise serves static files under runserver too (compressed, as in production).
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_celery_beat",
    "axes",
    "csp",
    "django_ratelimit",
    "benchdb",
    "ingest",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A control character in the path or query: a 400 before any view (issue 21).
    "benchdb.middleware.RefuseControlCharactersMiddleware",
    # Static files (CSS, JS, plotly.js) from the app itself, with or without DEBUG.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into a 429 page.
    "axes.middleware.AxesMiddleware",
    # Read pages cached by the data version, with ETag / Last-Modified (its docstring).
    "benchdb.page_cache.PageCacheMiddleware",
]
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# HTTPS deployment (see the module docstring).
HTTPS = envbool("BENCHDB_HTTPS")
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "1" if HTTPS else "0")
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "1" if HTTPS else "0")
if envbool("BENCHDB_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy (django-csp): scripts and stylesheets only from this site's
# static files (plotly.js included: WhiteNoise serves it); no inline script, no eval, no
# inline <style> but one (plotly.js's own rules are static/plotly.css). Figures travel as JSON
# data blocks (json_script), which CSP does not execute. Only style *attributes* may be
# inline: plotly.js sets them while it draws (style-src-attr; a browser without CSP3
# falls back to style-src and draws charts unstyled). benchdb.mlperf.training.views.run_log sets
# its own stricter policy (sandbox), which the middleware leaves in place.
# The one <style> plotly.js inserts whatever is drawn (maplibre's CSS, at load), allowed
# by its hash; tests/benchdb/test_plotly_css.py checks it against the installed plotly.js.
PLOTLY_MAPLIBRE_CSS = "'sha256-ji27qzEtxXZW+7dun6UwjHXJ18e6WAin1VvNtkzIE/o='"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-elem": ["'self'", PLOTLY_MAPLIBRE_CSS],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Login throttle (django-axes): AXES_FAILURE_LIMIT failed logins for one username from
# one IP address lock that pair out for AXES_COOLOFF_MINUTES, the admin login included;
# a success resets the count. Attempts are kept in the database (axes' tables).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Who "one IP address" is, for axes and the check API's rate limit alike: REMOTE_ADDR,
# or behind trusted proxies the address the first of them saw (benchdb/client_ip.py).
BENCHDB_TRUSTED_PROXIES = envint("BENCHDB_TRUSTED_PROXIES", 0)
BENCHDB_CLIENT_IP_HEADER = os.environ.get("BENCHDB_CLIENT_IP_HEADER", "X-Forwarded-For")
AXES_CLIENT_IP_CALLABLE = "benchdb.client_ip.client_ip"
RATELIMIT_IP_META_KEY = "benchdb.client_ip.client_ip"
# After a login whose ``next`` is refused (another host, an unsafe scheme): the home
# page, not Django's default /accounts/profile/, which is no page here (a 404).
LOGIN_REDIRECT_URL = "/"

# The check-this-text API's rate limit (django-ratelimit, ingest/claims/views_check.py): requests
# per client IP (benchdb/client_ip.py; IPv6 by /64) counted in the default cache. Django's own
# RedisCache increments atomically (Redis INCR), which django-ratelimit's list of supported
# backends predates (its W001). Without CACHE_URL the cache is per-process memory, which
# django-ratelimit reports as not shared (E003): right for the quick start, not for
# several web processes, which must set CACHE_URL.
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES: dict[str, dict[str, Any]]
if CACHE_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    }
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
# Read pages cached by the data version (benchdb/page_cache.py): in Redis beside the rate
# limit with CACHE_URL (every web process shares them), else in each process's memory.
_PAGES_OPTIONS: dict[str, Any] = {} if CACHE_URL else {"MAX_ENTRIES": 256}
CACHES["pages"] = {**CACHES["default"], "KEY_PREFIX": "pages", "OPTIONS": _PAGES_OPTIONS}
PAGE_CACHE_MAX_BYTES = int(os.environ.get("PAGE_CACHE_MAX_BYTES", str(8 << 20)))
CLAIMS_CHECK_RATE = os.environ.get("CLAIMS_CHECK_RATE", "20/m")

ROOT_URLCONF = "benchdb.urls"
WSGI_APPLICATION = "benchdb.wsgi.application"
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
            ]
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'var' / 'benchdb.sqlite3'}",
        # Persistent connections suit a process-per-worker server (gunicorn); the
        # threaded dev server would keep one per thread, so the default is 0.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # SQLite (the quick start only) cannot hold IngestProblem's unique constraint with
    # NULLS NOT DISTINCT; the ingest does not rely on it (ingest/store.py stores only new
    # problems), PostgreSQL keeps it. README "Quick start" says so.
    SILENCED_SYSTEM_CHECKS.append("models.W047")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
# plotly.js is plotly.js-basic-dist-min (scatter and bar, every trace benchdb draws; 1.2 MB,
# 0.4 MB gzipped, against 4.8 / 1.5 MB for the full bundle) of the version the plotly Python
# package bundles, vendored in static/vendor/ (tests/benchdb/test_plotly_css.py checks both).
STATICFILES_DIRS = [BASE_DIR / "static"]
# STATIC_ROOT set (``make demo``/``make serve`` and deployments run collectstatic into it):
# fingerprinted, pre-compressed files (gzip; plotly-basic.min.js 1.2 MB -> 0.4 MB) that WhiteNoise
# serves with a year's max-age, immutable. Unset (tests, ``manage.py runserver``): served
# straight from STATICFILES_DIRS, uncompressed, no collectstatic step needed.
STATIC_ROOT = os.environ.get("STATIC_ROOT") or None
if STATIC_ROOT:
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
WHITENOISE_USE_FINDERS = envbool("WHITENOISE_USE_FINDERS", "0" if STATIC_ROOT else "1")
LOGIN_URL = "/admin/login/"

MLPERF_DATA = Path(os.environ.get("MLPERF_DATA", BASE_DIR.parent / "shared" / "mlperf"))
VENDOR_DATA = Path(os.environ.get("VENDOR_DATA", BASE_DIR.parent / "shared" / "vendor"))
MLPERF_INFERENCE_DATA = Path(
    os.environ.get("MLPERF_INFERENCE_DATA", BASE_DIR.parent / "shared" / "mlperf-inference")
)
BENCHDB_CACHE = Path(os.environ.get("BENCHDB_CACHE", BASE_DIR / "var" / "cache"))
# The home page's words on what is loaded ("a small real subset: ..."; make demo sets it).
BENCHDB_DATA_NOTE = os.environ.get("BENCHDB_DATA_NOTE", "")

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
# Without a broker (the quick start) tasks run in-process, nothing else changes.
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL or None)
CELERY_TASK_TIME_LIMIT = 60 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 55 * 60
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis re-delivers an unacknowledged task after the visibility timeout: keep it above
# the longest task time limit (ingest.jobs.tasks: 4 h) so a long sync is not started twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 5 * 3600}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = TIME_ZONE

# Ingest jobs (ingest/jobs/run.py): a running job whose heartbeat is older than this, or
# whose worker process is gone, is marked interrupted.
INGEST_JOB_STALE_SECONDS = int(os.environ.get("INGEST_JOB_STALE_SECONDS", "120"))
# "1": a whole-round sync of an MLPerf source runs as one Celery task per submitter folder
# (any worker, any machine, same PostgreSQL and broker), joined when all have run.
INGEST_FANOUT = envbool("INGEST_FANOUT", "0")
# The check API's facts keeper (ingest/claims/warm.py, started by gunicorn.conf.py).
CHECK_FACTS_REFRESH_SECONDS = envint("CHECK_FACTS_REFRESH_SECONDS", 10)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
