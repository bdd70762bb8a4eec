"""The test suite's settings: the production settings (DEBUG off), served over plain HTTP.

Only what a test server on http://127.0.0.1 needs differs from production: a fixed secret key,
the local host names, no redirect to HTTPS and cookies sent without TLS. Static files come from
the source folders, so the tests need no `collectstatic` (a test of its own runs it, as the
production start-up does: tests/briternia/test_production.py).
"""

import os

for _name, _value in {
    "SECRET_KEY": "tests-only-secret-key-never-used-by-a-real-site-0123456789abcdef",
    "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
    "SECURE_SSL_REDIRECT": "0",
    "SESSION_COOKIE_SECURE": "0",
    "CSRF_COOKIE_SECURE": "0",
    "LOG_FORMAT": "plain",
}.items():
    os.environ.setdefault(_name, _value)
os.environ["DJANGO_DEBUG"] = "0"

from briternia.settings import *  # noqa: E402,F403
from briternia.settings import STORAGES  # noqa: E402

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}

# A fast password hash: the demo campaign's fixture makes five accounts and hundreds of tests build
# it, and PBKDF2's deliberate slowness cost about 4 s each time. Tests never need a strong hash; the
# production settings keep Django's default (docs/architecture.md, "Test speed").
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A new database connection for each request, as Django's default: the suite's live servers and
# in-process Celery workers run in threads that end, and a connection kept open by a finished thread
# would stop the test database from being dropped. Production keeps its connections
# (briternia/settings.py, DATABASE_CONN_MAX_AGE; tests/briternia/test_settings.py checks it).
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

# Under pytest-xdist (`make test` runs a worker per core: the Makefile) each worker process has a test
# database of its own (pytest-django adds the worker's id to its name), but the Redis broker is
# shared: a Celery worker started by one process's test (the celery_worker tests, and the fault
# tests' worker processes, which inherit PYTEST_XDIST_WORKER) would take the tasks another process's
# test sent, and run them against the wrong database. Each xdist worker's broker keys get a prefix of
# their own.
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _XDIST_WORKER and str(CELERY_BROKER_URL).startswith("redis"):  # noqa: F405
    CELERY_BROKER_TRANSPORT_OPTIONS = {  # noqa: F405
        **CELERY_BROKER_TRANSPORT_OPTIONS,  # noqa: F405
        "global_keyprefix": f"xdist-{_XDIST_WORKER}:",
    }

# No test reads the developer's mail drop (var/maildrop/): the deadline sweep reads the mail before it
# resolves a due turn (turns/services/sweep.py). A folder that does not exist is read as empty; the
# inbox's tests give each test a drop of its own (tests/inbox/conftest.py).
INBOX_MAILDROP_DIR = str(BASE_DIR / "var" / "tests-no-maildrop")  # noqa: F405
