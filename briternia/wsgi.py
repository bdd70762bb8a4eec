"""WSGI entry point (gunicorn briternia.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "briternia.settings")
# The web process: its requests wait at most REQUEST_LOCK_TIMEOUT_MS for a lock (briternia/settings.py).
os.environ.setdefault("BRITERNIA_WEB_PROCESS", "1")
application = get_wsgi_application()
