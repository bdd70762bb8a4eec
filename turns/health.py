"""The health endpoint a load balancer or monitor polls: the database, the broker, and the time of
the deadline sweep's last run. 200 when the site can serve and queue work, 503 otherwise."""

from __future__ import annotations

from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .models import SweepRecord

# A sweep older than this many intervals means beat or the worker has stopped.
SWEEP_OVERDUE_INTERVALS = 3


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # the health check reports any failure, it never raises
        return f"error: {exc.__class__.__name__}"
    return "ok"


def _broker() -> str:
    if current_app.conf.task_always_eager:
        return "in-process"
    try:
        # A connection of its own (not the app's pool), each time: to the broker tasks are sent to.
        with current_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # an unreachable broker is an answer, not an error page
        return f"error: {exc.__class__.__name__}"
    return "ok"


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Public and cheap: no data of any campaign, only whether the parts answer."""
    database = _database()
    broker = _broker()
    record = SweepRecord.objects.order_by("-ran_at").first() if database == "ok" else None
    interval = timedelta(seconds=settings.DEADLINE_SWEEP_SECONDS)
    overdue = record is None or timezone.now() - record.ran_at > SWEEP_OVERDUE_INTERVALS * interval
    healthy = database == "ok" and broker in {"ok", "in-process"}
    body = {
        "status": "ok" if healthy else "error",
        "database": database,
        "broker": broker,
        "last_sweep": record.ran_at.isoformat() if record else None,
        "sweep_overdue": overdue and not current_app.conf.task_always_eager,
    }
    return JsonResponse(body, status=200 if healthy else 503)
