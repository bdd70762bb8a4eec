"""Enqueueing a task once the caller's write has committed, without ever turning that saved write
into an error: the work is recorded in the database before (a queued email or report row, a
requested phase on the turn), so a broker that is down only delays it. The publish fails fast
(settings: a one-second connect timeout, one retry, no result backend), is logged, and `on_failure`
may record it for the deadline sweep, which takes the work up on its next run."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def task_enqueue(
    task: Any,
    *,
    on_failure: Callable[[Exception], None] | None = None,
    countdown: float | None = None,
    **kwargs: Any,
) -> bool:
    """Send `task` with `kwargs` now (or to run `countdown` seconds from now); False (logged,
    `on_failure` called) if the broker cannot take it. Only the broker's errors are caught: a task
    run in-process (tests, the embedded default) raises as it would."""
    try:
        if countdown is None:
            task.delay(**kwargs)
        else:
            task.apply_async(kwargs=kwargs, countdown=countdown)
    except (OperationalError, OSError) as exc:  # the broker is down or unreachable: the sweep takes it up
        logger.warning("Could not enqueue %s(%s): %r; the deadline sweep will take it up", task.name, kwargs, exc)
        if on_failure is not None:
            try:
                on_failure(exc)
            except Exception:
                logger.exception("Could not record that %s was not enqueued", task.name)
        return False
    return True


def task_enqueue_after_commit(
    task: Any, *, on_failure: Callable[[Exception], None] | None = None, **kwargs: Any
) -> None:
    """`task_enqueue` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: task_enqueue(task, on_failure=on_failure, **kwargs))
