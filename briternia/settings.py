"""Settings for the Briternia campaign organizer.

Everything comes from the environment. With no configuration at all the site runs on its
embedded default: a SQLite file under var/, Celery tasks executed eagerly in-process and
every email written as one .eml file under var/outbox/. See README.md for the variables.
"""

import datetime as dt
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("BRITERNIA_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY")
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DJANGO_DEBUG off the site refuses to start without one: "
            "set SECRET_KEY to a long random string (python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    # Only ever used with DEBUG on, on a developer's machine.
    SECRET_KEY = "insecure-development-key-only-used-with-debug-on"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "briternia",
    "outbox",
    "kingdoms",
    "orders",
    "battles",
    "reports",
    "turns",
    "demo",
    "transfer",
]

MIDDLEWARE = [
    # First: the time a request arrived, taken once before anything can wait (briternia/arrival.py).
    "briternia.arrival.ArrivalMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "briternia.middleware.RefuseNulBytesMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "briternia.middleware.PermissionsPolicyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its 429 answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "briternia.urls"

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
            ],
            # {{ user|display_name }} in every template: a person is never named by their address.
            "builtins": ["kingdoms.templatetags.people"],
        },
    },
]

WSGI_APPLICATION = "briternia.wsgi.application"

# Database: SQLite under var/ unless DATABASE_URL says otherwise (postgres://...).
DATABASES = {
    "default": environ.Env.db_url_config(env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'briternia.sqlite3'}"))
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"].setdefault("TEST", {})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Logins: after AXES_FAILURE_LIMIT wrong passwords for one username from one address, that pair is
# locked out for AXES_COOLOFF_MINUTES (429 on the pages; the API's Basic auth refuses it with 401).
# django-axes: maintained (Jazzband), the usual answer for Django; a success resets the count.
AUTHENTICATION_BACKENDS = ["briternia.auth.LoginGuardBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = dt.timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

# Content-Security-Policy (django-csp 4): the site's own scripts and styles only, nothing inline;
# images may be data: URLs (the map). Permissions-Policy: no browser feature is used.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), midi=(), payment=(), usb=(), interest-cohort=()"
)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise looks there at start-up, even before collectstatic
STATICFILES_DIRS = [BASE_DIR / "static"]

# Email: SMTP when EMAIL_HOST is set, otherwise one .eml file per message under var/outbox/.
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    # A server that stops answering fails the try (and it is retried) instead of holding the
    # email "sending" until the task's time limit.
    EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30)
else:
    EMAIL_BACKEND = "briternia.mail.EmlFileBackend"
EMAIL_BACKEND = env_str("EMAIL_BACKEND", EMAIL_BACKEND)
EMAIL_OUTBOX_DIR = Path(env_str("EMAIL_OUTBOX_DIR", str(VAR_DIR / "outbox")))
# Waits between tries of an email are scaled by this (0 in tests: retry at once). Its name before
# every email went through the outbox, REPORT_EMAIL_BACKOFF_SCALE, is still read.
EMAIL_BACKOFF_SCALE = float(env_str("EMAIL_BACKOFF_SCALE", env_str("REPORT_EMAIL_BACKOFF_SCALE")) or "1")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Briternia <organizer@briternia.local>")

# Celery: eager in-process unless a broker is configured.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or env_str("REDIS_URL")
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
if CELERY_TASK_ALWAYS_EAGER:
    CELERY_BROKER_URL = "memory://localhost/"  # never used: tasks run in-process
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A task is acknowledged only once it finished, so a worker that dies mid-task hands it to another;
# every task is written to be safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 300)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 360)
CELERY_TIMEZONE = "UTC"
# Redis hands a task taken by a worker that died to another worker once the visibility timeout
# passes (the default is one hour): here a minute after the hard time limit, so a lost task is
# redelivered within minutes. An email's retry waits longer (up to 30 minutes, a countdown): such a
# message may be redelivered while it waits, which is harmless (the send claims its row under a lock,
# nothing goes out twice). The deadline sweep takes up a requested phase from the database anyway.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 60,
    "socket_connect_timeout": env_int("CELERY_BROKER_CONNECT_TIMEOUT", 1),
    "socket_timeout": 5,
}
# A web request enqueues after its write has committed: with the broker down it must fail fast (a
# short connect timeout, one retry) and leave the work recorded in the database for the sweep
# (briternia/queue.py), never keep the user waiting ~20 s and answer 500.
CELERY_BROKER_CONNECTION_TIMEOUT = env_int("CELERY_BROKER_CONNECT_TIMEOUT", 1)
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# Nobody reads a task's result: not storing them spares the request a second connection to Redis
# (the result backend's, with its own 20 retries) when it enqueues.
CELERY_TASK_IGNORE_RESULT = True
# A request for a phase (the organizer's Resolve) whose task has not run after this long is taken up
# by the deadline sweep; a sweep claims a turn whose orders deadline passed this long ago, so sheets
# that arrived in time and are still being checked are in (orders/services/sheets.py).
PHASE_REQUEST_TAKE_UP_SECONDS = env_int("PHASE_REQUEST_TAKE_UP_SECONDS", 60)
ORDERS_DEADLINE_GRACE_SECONDS = env_int("ORDERS_DEADLINE_GRACE_SECONDS", 5)
# The deadline sweep: every minute, resolve whatever turn is due (the task comes with the orders issue).
CELERY_BEAT_SCHEDULE = {
    "deadline-sweep": {
        "task": "turns.tasks.deadline_sweep",
        "schedule": 60.0,
    },
}

REST_FRAMEWORK = {
    # Basic first: its WWW-Authenticate header makes a missing or wrong credential a 401 (a
    # session's is 403 with no header); a logged-in browser's session still authenticates.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.BasicAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON only: a form or multipart body parses nested lists as empty (an empty order sheet would
    # replace a player's submission), so any other body is refused with 415.
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "briternia.api.AutoSchema",
    "EXCEPTION_HANDLER": "briternia.api.exception_handler",
    # Per client: an anonymous one by address, a logged-in one by account (429 with Retry-After).
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "60/minute"),
        "user": env_str("API_THROTTLE_USER", "1200/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Briternia campaign organizer API",
    "DESCRIPTION": "Campaigns, the map, your kingdom, its armies and army lists.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "BattleResultEnum": "battles.models.RESULT_CHOICES",
        "BattleResultValueEnum": "battles.api.RESULT_VALUES",
        "SheetStatusEnum": "orders.models.OrderSheet.Status",
    },
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # WeasyPrint logs every layout step at INFO; its warnings (a missing font, a bad CSS rule) stay.
    # django-axes logs every login at INFO; its warnings (a lockout) stay.
    "loggers": {"weasyprint": {"level": "WARNING"}, "fontTools": {"level": "WARNING"}, "axes": {"level": "WARNING"}},
}
