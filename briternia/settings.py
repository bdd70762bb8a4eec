"""Settings for the Briternia campaign organizer.

Everything comes from the environment. With no configuration at all the site runs on its
embedded default: a SQLite file under var/, Celery tasks executed eagerly in-process and
every email written as one .eml file under var/outbox/. See README.md for the variables.
"""

import datetime as dt
from pathlib import Path

import environ
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue
from whitenoise.compress import Compressor

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("BRITERNIA_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Off unless asked for: a server started without configuration never shows tracebacks. `make run`
# (and the Makefile's other developer targets) turn it on.
DEBUG = env_bool("DJANGO_DEBUG", False)

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
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "drf_standardized_errors",
    "axes",
    "briternia",
    "outbox",
    "kingdoms",
    "diplomacy",
    "orders",
    "battles",
    "reports",
    "inbox",
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
    # The links of the emails a request queues point at the address it came to (briternia/site.py).
    "briternia.site.SiteUrlMiddleware",
    "briternia.middleware.BoundBodyMiddleware",
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
DATABASE_PREPARED_STATEMENTS = env_bool("DATABASE_PREPARED_STATEMENTS", True)  # PostgreSQL's (below)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default has a web process and a worker writing the same file: a writer takes the
    # lock when its transaction begins (not half-way, where SQLite cannot wait for it), waits up to
    # 20 s for the other, and readers do not block writers (WAL).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }
else:
    # Persistent connections (Django's CONN_MAX_AGE): each thread of a gunicorn worker keeps its
    # PostgreSQL connection (Django's are per thread) from one request to the next instead of opening
    # one per request, which costs the server a new backend process and a cold catalogue cache each
    # time (docs/performance.md). The health check before a request drops a connection the server
    # has closed.
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 600)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Django's backend, its health check sending no `SELECT 1` while the connection is quiet
        # (nothing from the server on its socket): a round trip less at every request (issue 35).
        DATABASES["default"]["ENGINE"] = "briternia.postgresql"
    # The weekly rush's hot statements kept prepared on each persistent connection (briternia/
    # prepared.py): PostgreSQL plans them once per connection, not at every submission. Off behind a
    # connection pooler in transaction mode (PgBouncer's default), where a statement prepared on one
    # server connection is not there on the next.
    if DATABASE_PREPARED_STATEMENTS:
        # Prepared at their first run: only the server-bound cursors prepare (Django's own bind on
        # the client and never do).
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 0
    # In the web process (briternia/wsgi.py says so) no request waits longer than this for a lock
    # (PostgreSQL's `lock_timeout`, on every connection, at no cost per query): a click or a sheet that
    # meets a running phase is answered at once by its mark, and any other wait is cut short with a
    # clear answer rather than a worker stuck until gunicorn's timeout (briternia/locks.py). The
    # Celery workers' phases wait as long as their claims need.
    REQUEST_LOCK_TIMEOUT_MS = env_int("REQUEST_LOCK_TIMEOUT_MS", 1000)
    if env_bool("BRITERNIA_WEB_PROCESS", False) and REQUEST_LOCK_TIMEOUT_MS > 0:
        DATABASES["default"].setdefault("OPTIONS", {})["options"] = f"-c lock_timeout={REQUEST_LOCK_TIMEOUT_MS}"
DATABASES["default"].setdefault("TEST", {})
# The order sheets' kept worlds (kingdoms/services/world.py): how many campaigns' maps a process
# keeps between requests. Size it to the campaigns a web process serves: a campaign whose world is
# not kept costs its next sheet the whole map's read (about 10 queries and 50 ms; issue 35).
WORLD_KEPT_CAMPAIGNS = env_int("WORLD_KEPT_CAMPAIGNS", 32)
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
# The username it records is cut to its 255-character column (a longer one was a 500).
AXES_USERNAME_CALLABLE = "briternia.auth.audited_username"

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
# The apps' static files less ReDoc's bundle, which the site never serves (briternia/staticfiles.py).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "briternia.staticfiles.AppDirectoriesFinder",
]
# Hashed, compressed files served by WhiteNoise; `collectstatic` runs at every start-up of the
# production stack (Procfile). With DEBUG on the files are served from the source folders.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Only the hashed copies are kept, and source maps (a developer's, most of the bytes of the API docs'
# bundles) are not compressed: the start-up's collectstatic takes seconds, not a minute.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]

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
# Waits between tries of an email (outbox.services.RETRY_BACKOFF_SECONDS: over a day) are scaled by
# this (0 in tests: retry at once). Its name before every email went through the outbox,
# REPORT_EMAIL_BACKOFF_SCALE, is still read.
EMAIL_BACKOFF_SCALE = float(env_str("EMAIL_BACKOFF_SCALE", env_str("REPORT_EMAIL_BACKOFF_SCALE")) or "1")
# A wait up to this long is the retry's countdown on the broker; a longer one is left to the deadline
# sweep, which hands the email to a worker once it is due: Redis would hand a message held past its
# visibility timeout (below) to a second worker.
EMAIL_RETRY_COUNTDOWN_MAX_SECONDS = env_int("EMAIL_RETRY_COUNTDOWN_MAX_SECONDS", 300)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Briternia <organizer@briternia.local>")

# Orders by email (issue 36; README, "Orders by email"). Players send their sheets to this address
# with their own secret as its plus part (orders+<secret>@...: kingdoms/services/mail_addresses.py).
ORDERS_EMAIL_ADDRESS = env_str("ORDERS_EMAIL_ADDRESS", "orders@localhost")
# A mail bigger than this is refused with a short answer, unread (bytes, the whole message).
INBOX_MAX_BYTES = env_int("INBOX_MAX_BYTES", 512 * 1024)
# More mails than this from one sender (or for one account) within a minute are recorded, neither
# filed nor answered.
INBOX_THROTTLE_PER_MINUTE = env_int("INBOX_THROTTLE_PER_MINUTE", 20)
# The mailbox read over IMAP by the worker's beat every INBOX_POLL_SECONDS (no host: not read).
INBOX_IMAP_HOST = env_str("INBOX_IMAP_HOST", "")
INBOX_IMAP_SSL = env_bool("INBOX_IMAP_SSL", True)
INBOX_IMAP_PORT = env_int("INBOX_IMAP_PORT", 993 if INBOX_IMAP_SSL else 143)
INBOX_IMAP_USER = env_str("INBOX_IMAP_USER", "")
INBOX_IMAP_PASSWORD = env_str("INBOX_IMAP_PASSWORD", "")
INBOX_IMAP_FOLDER = env_str("INBOX_IMAP_FOLDER", "INBOX")
INBOX_POLL_SECONDS = env_int("INBOX_POLL_SECONDS", 30)
# The local mail drop (a Maildir; the embedded default's orders address, and `make stack`'s SMTP
# receiver delivers there): each file in its new/ is read by the beat and moved to cur/. Empty: none.
INBOX_MAILDROP_DIR = env_str("INBOX_MAILDROP_DIR") or str(VAR_DIR / "maildrop")
if str(VAR_DIR / "maildrop") == INBOX_MAILDROP_DIR:
    for _folder in ("new", "cur", "tmp"):  # the embedded default's: ready for a .eml saved by hand
        (VAR_DIR / "maildrop" / _folder).mkdir(parents=True, exist_ok=True)
# An email provider's inbound webhook (django-anymail, Postmark's format) at /anymail/postmark/inbound/,
# guarded by HTTP basic auth: the provider's webhook URL is https://<user:password>@<site>/anymail/postmark/inbound/.
ANYMAIL = {"WEBHOOK_SECRET": env_str("ANYMAIL_WEBHOOK_SECRET", "")}

# Celery: eager in-process unless a broker is configured. `filesystem://` is the broker `make run`
# uses: a real worker and beat with no server, the messages as files under var/broker/.
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
# redelivered within minutes. An email's retry waits at most EMAIL_RETRY_COUNTDOWN_MAX_SECONDS on the
# broker (longer waits are the sweep's); a message redelivered anyway is harmless (the send claims
# its row under a lock and refuses a try before its time: nothing goes out twice, no wait is cut
# short). The deadline sweep takes up a requested phase from the database anyway.
# "priority": a worker takes from its queues in the order it lists them (-Q transactional,celery),
# not in turn, so a receipt never waits behind the PDFs queued before it.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 60,
    "socket_connect_timeout": env_int("CELERY_BROKER_CONNECT_TIMEOUT", 1),
    "socket_timeout": 5,
    "queue_order_strategy": "priority",
}
# Two queues. `transactional`: the emails a person is waiting for (a receipt, an invitation and its
# password link, a reminder, a deadline change; outbox/tasks.py). `celery` (the default): everything
# else, the bulk of a turn (its reports' PDFs and their emails, the phases, the sweep). Every worker
# takes `transactional` first; the Procfile adds a `mailer` worker for it alone (README, "Queues").
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Each queue is bound by its own name: a queue declared without a routing key is bound by the
# default one ("celery"), and the broker would copy every task of the default queue into it.
CELERY_TASK_QUEUES = tuple(Queue(name, routing_key=name) for name in ("transactional", CELERY_TASK_DEFAULT_QUEUE))
CELERY_TASK_ROUTES = {
    "outbox.tasks.email_send": {"queue": "transactional"},
    "outbox.tasks.emails_send": {"queue": "transactional"},  # several at once: a web worker's publisher
}
# A web request enqueues after its write has committed: with the broker down it must fail fast (a
# short connect timeout, one retry) and leave the work recorded in the database for the sweep
# (briternia/queue.py), never keep the user waiting ~20 s and answer 500.
CELERY_BROKER_CONNECTION_TIMEOUT = env_int("CELERY_BROKER_CONNECT_TIMEOUT", 1)
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
if CELERY_BROKER_URL.startswith("filesystem://"):
    # `make run`'s broker: the messages are files (no timeouts to set, no visibility timeout).
    BROKER_DIR = VAR_DIR / "broker"
    for _folder in ("processed", "control"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR),
        "data_folder_out": str(BROKER_DIR),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
    # No task's return value is ever read; a file broker keeps none.
    CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND")
# Nobody reads a task's result: not storing them spares the request a second connection to Redis
# (the result backend's, with its own 20 retries) when it enqueues.
CELERY_TASK_IGNORE_RESULT = True
# A request for a phase (the organizer's Resolve) whose task has not run after this long is taken up
# by the deadline sweep; a sweep claims a turn whose orders deadline passed this long ago, so sheets
# that arrived in time and are still being checked are in (orders/services/sheets.py).
PHASE_REQUEST_TAKE_UP_SECONDS = env_int("PHASE_REQUEST_TAKE_UP_SECONDS", 60)
ORDERS_DEADLINE_GRACE_SECONDS = env_int("ORDERS_DEADLINE_GRACE_SECONDS", 5)
# A request's arrival (briternia/arrival.py): the proxies whose `X-Request-Start` stamp is believed
# (addresses or networks, comma-separated; none by default: a proxy that does not set the header
# passes the client's own on), and how far that stamp may stand from this server's clock: up to
# MAX_AGE before it (a request queued at the proxy during the rush) and MAX_SKEW after (clocks).
TRUSTED_PROXY_IPS = env_list("TRUSTED_PROXY_IPS", [])
ARRIVAL_PROXY_MAX_AGE_SECONDS = env_int("ARRIVAL_PROXY_MAX_AGE_SECONDS", 60)
ARRIVAL_PROXY_MAX_SKEW_SECONDS = env_int("ARRIVAL_PROXY_MAX_SKEW_SECONDS", 1)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The deadline sweep: every minute, resolve whatever turn is due.
DEADLINE_SWEEP_SECONDS = env_int("DEADLINE_SWEEP_SECONDS", 60)
CELERY_BEAT_SCHEDULE = {
    "deadline-sweep": {
        "task": "turns.tasks.deadline_sweep",
        "schedule": float(DEADLINE_SWEEP_SECONDS),
    },
    # Orders by email: the mailbox (when INBOX_IMAP_HOST is set) and the local mail drop.
    "inbox-poll": {
        "task": "inbox.tasks.inbox_poll",
        "schedule": float(INBOX_POLL_SECONDS),
    },
    # Diplomacy: the day's digest of messages, for the players who chose it (diplomacy/tasks.py).
    "message-digests": {
        "task": "diplomacy.tasks.message_digests",
        "schedule": crontab(hour=7, minute=0),
    },
}

REST_FRAMEWORK = {
    # Basic first: its WWW-Authenticate header makes a missing or wrong credential a 401 (a
    # session's is 403 with no header); a logged-in browser's session still authenticates.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Basic first: its WWW-Authenticate header makes a missing or wrong credential a 401.
        # Scripts: `Authorization: Token <key>` (kingdoms/tokens.py); the browser: its session.
        "rest_framework.authentication.BasicAuthentication",
        "briternia.auth.TokenAuthentication",  # REST framework's, its query built once (issue 35)
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON only: a form or multipart body parses nested lists as empty (an empty order sheet would
    # replace a player's submission), so any other body is refused with 415.
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "briternia.api.AutoSchema",
    # One error shape for every 4xx (drf-standardized-errors; briternia/api.py maps our DomainError).
    "EXCEPTION_HANDLER": "drf_standardized_errors.handler.exception_handler",
    # Per client: an anonymous one by address, a logged-in one by account (429 with Retry-After).
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "60/minute"),
        "user": env_str("API_THROTTLE_USER", "1200/minute"),
        # POST /api/token/ (a password exchanged for the token): as slow to guess as the login.
        "login": env_str("LOGIN_THROTTLE_RATE", "10/min"),
    },
}
DRF_STANDARDIZED_ERRORS = {
    "EXCEPTION_HANDLER_CLASS": "briternia.api.ErrorHandler",
    "EXCEPTION_FORMATTER_CLASS": "briternia.api.ErrorFormatter",
    "ALLOWED_ERROR_STATUS_CODES": ["400", "401", "403", "404", "405", "406", "415", "429", "500"],
}
_ERROR_ENUMS = "drf_standardized_errors.openapi_serializers."
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
        # The error shape's enums, named once (drf-standardized-errors' documented settings).
        **{
            name: f"{_ERROR_ENUMS}{name}.choices"
            for name in (
                "ValidationErrorEnum",
                "ClientErrorEnum",
                "ServerErrorEnum",
                "ParseErrorCodeEnum",
                "ErrorCode401Enum",
                "ErrorCode403Enum",
                "ErrorCode404Enum",
                "ErrorCode405Enum",
                "ErrorCode406Enum",
                "ErrorCode415Enum",
                "ErrorCode429Enum",
                "ErrorCode500Enum",
            )
        },
    },
    "POSTPROCESSING_HOOKS": ["drf_standardized_errors.openapi_hooks.postprocess_schema_enums"],
}

# HTTPS: on by default when DEBUG is off. Behind a proxy that ends TLS, SECURE_PROXY_SSL_HEADER
# names the header it sets (`HTTP_X_FORWARDED_PROTO`, value `https`). README.md lists the variables
# that make `manage.py check --deploy` clean; docs/deploy.env.example holds them.
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
_PROXY_HEADER = env_str("SECURE_PROXY_SSL_HEADER")
if _PROXY_HEADER:
    SECURE_PROXY_SSL_HEADER = (_PROXY_HEADER, "https")
# The health endpoint answers the load balancer over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]

# Error tracking: Sentry when a DSN is given (the web processes and the workers alike).
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
    )

# Logs: one JSON object per line in production (a log shipper reads fields, not prose); plain
# lines with DEBUG on. LOG_FORMAT=json|plain overrides.
LOG_FORMAT = env_str("LOG_FORMAT", "plain" if DEBUG else "json")
if LOG_FORMAT not in {"json", "plain"}:
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r}: use json or plain.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # WeasyPrint logs every layout step at INFO; its warnings (a missing font, a bad CSS rule) stay.
    "loggers": {
        # Django's own console handler would print each of its lines a second time (with DEBUG on).
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}
