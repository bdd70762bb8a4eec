"""WSGI entry point (gunicorn briternia.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "briternia.settings")
application = get_wsgi_application()
