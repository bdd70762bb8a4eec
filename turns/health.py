"""The health endpoint a load balancer or monitor polls: the database, the broker, the time of
the deadline sweep's last run, and how many turns wait on a phase that failed (a monitor alerts on
it; which turns, and why, only their organizers read, on the game master's desk). 200 when the site
can serve and queue work, 503 otherwise: a failed phase is the organizer's to put right, not a site
that cannot serve."""

from __future__ import annotations

from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .models import SweepRecord, Turn

# A sweep older than this many intervals means beat or the worker has stopped.
SWEEP_OVERDUE_INTERVALS = 3
# When this process started: before any sweep has run, the sweep is overdue only once the process
# has been up for SWEEP_OVERDUE_INTERVALS (a first start is not a stopped beat).
_STARTED = timezone.now()


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


def _phases_failed() -> int:
    """How many turns wait on a phase whose last try failed (counted, never named: this page is public)."""
    waiting = Turn.objects.filter(
        phase_failed_at__isnull=False, status__in=[Turn.Status.ORDERS_OPEN, Turn.Status.BATTLES]
    ).only("status", "phase_failed_at", "orders_requested_at", "aftermath_requested_at")
    return sum(1 for turn in waiting if turn.phase_failed)


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Public and cheap: no data of any campaign, only whether the parts answer."""
    database = _database()
    broker = _broker()
    record = SweepRecord.objects.order_by("-ran_at").first() if database == "ok" else None
    interval = timedelta(seconds=settings.DEADLINE_SWEEP_SECONDS)
    last = record.ran_at if record is not None else _STARTED
    overdue = timezone.now() - last > SWEEP_OVERDUE_INTERVALS * interval
    healthy = database == "ok" and broker in {"ok", "in-process"}
    body = {
        "status": "ok" if healthy else "error",
        "database": database,
        "broker": broker,
        "last_sweep": record.ran_at.isoformat() if record else None,
        "sweep_overdue": overdue and not current_app.conf.task_always_eager,
        "phase_failed": _phases_failed() if database == "ok" else None,
    }
    return JsonResponse(body, status=200 if healthy else 503)
