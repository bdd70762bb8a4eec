"""The Celery application: configured from Django settings (the CELERY_ namespace)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "briternia.settings")

app = Celery("briternia")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
