"""The project package: settings, urls, the Celery app and the adapters shared by the apps.

It does not load the Celery app on import (a pure module that imports from here must not pull
Celery in): `briternia.apps.BriterniaConfig.ready` loads it whenever Django starts, so every
@shared_task binds to it, and `celery -A briternia` finds `briternia.celery.app` itself.
"""
