"""The one delivery machinery of every email: queued as a row holding what was rendered (inside the
caller's transaction, so the email and what it announces commit together), sent by a task after
commit (on the transactional queue, or the bulk one for a turn's reports: outbox.tasks), claimed
under a row lock before SMTP (nothing goes out twice), retried with backoff on temporary errors for
a day (RETRY_BACKOFF_SECONDS), FAILED after the last try or on a permanent refusal (the organizer
sees it and resends it with one click). A row whose task was lost in a crash, or whose next try is
due after a wait too long for the broker to hold, is taken up by the deadline sweep.
"""

from __future__ import annotations

import atexit
import datetime as dt
import logging
import os
import queue
import smtplib
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils import timezone

from briternia.errors import DomainError
from briternia.queue import task_enqueue
from briternia.site import site_url

from .models import STALE_AFTER, Email

logger = logging.getLogger(__name__)

# The waits after each failed try (seconds, scaled by settings.EMAIL_BACKOFF_SCALE: tests run them
# at once or fast): quick at first (a server restarting), then hourly for a day. A mail server down
# for up to 24 hours loses nothing, and once it is back every email goes within the hour; only then
# is an email FAILED for the organizer to resend. The sum is asserted in tests/outbox/test_outage.py.
RETRY_BACKOFF_SECONDS: tuple[int, ...] = (30, 120, 600, 1800) + (3600,) * 24
EMAIL_TRIES = len(RETRY_BACKOFF_SECONDS) + 1

# (file name, content, MIME type), as EmailMessage.attach takes them.
Attachment = tuple[str, bytes, str]
AnEmail = TypeVar("AnEmail", bound=Email)


@dataclass(frozen=True)
class Rendered:
    subject: str
    text: str
    html: str


def email_render(*, template: str, context: dict[str, Any]) -> Rendered:
    """emails/<template>-subject.txt, -body.txt and -body.html rendered with `context` (and the site's
    address for the links: the request's while one is served, briternia.site). The subject and the
    text part are plain text, never HTML-escaped ("Tom's" stays "Tom's"); only the HTML part is."""
    context = {"site_url": site_url(), **context}
    return Rendered(
        subject=" ".join(_render_plain(f"emails/{template}-subject.txt", context).split()),
        text=_render_plain(f"emails/{template}-body.txt", context),
        html=render_to_string(f"emails/{template}-body.html", context),
    )


def _render_plain(name: str, context: dict[str, Any]) -> str:
    # The backend's template wraps Django's own, which renders with autoescaping off when asked.
    return get_template(name).template.render(Context(context, autoescape=False))  # type: ignore[attr-defined]


# Emails rendered by the worker, not by the request that queues them (a submission's receipt, issue
# 35): the request stores one row holding what the email is about (its key) and the address its
# links point at, and the worker renders it before its first try (`email_deliver`). The app that
# queues such an email registers, by kind, how its addresses and text are made (the outbox imports
# no app above it).
WorkerRender = Callable[[Email], tuple[list[str], Rendered] | None]
_worker_renders: dict[str, WorkerRender] = {}


def email_worker_render_register(kind: str, render: WorkerRender) -> None:
    """The worker renders the emails of `kind` queued by `email_queue_for_worker` with `render`: from
    the row, its addresses and what it says, or None when there is nobody to write to (or nothing
    the key names any more): the row is then dropped, as `email_queue` queues nothing."""
    _worker_renders[kind] = render


def email_queue_for_worker(*, kind: str, key: str, campaign_id: int | None, turn_id: int | None = None) -> Email:
    """Queue an email the worker renders (its kind registered, `email_worker_render_register`): one
    insert, no read, inside the caller's transaction; its send task is enqueued once it commits.
    `key` names what the email is about and must be new (a row made for this email only, such as
    "orders-receipt:<submission id>"). Until it is rendered the row has no subject and its text
    holds the address its links point at (the request's, briternia.site)."""
    email = Email.objects.create(kind=kind, campaign_id=campaign_id, turn_id=turn_id, key=key, text=site_url())
    emails_send_after_commit([email])
    return email


def _render_for_worker(row: Email) -> bool:
    """Render a row queued by `email_queue_for_worker` (locked by the caller): False when it has
    no renderer (a report's email carried over from before the outbox: its report renders it) or
    nobody to write to (the row is dropped)."""
    render = _worker_renders.get(row.kind)
    if render is None:
        return False
    made = render(row)
    if made is None or not (to := list(dict.fromkeys(a for a in made[0] if a))):
        row.delete()
        return False
    rendered = made[1]
    row.to, row.subject, row.text, row.html = to, rendered.subject, rendered.text, rendered.html
    row.save(update_fields=["to", "subject", "text", "html"])
    return True


def email_queue(
    *,
    template: str,
    kind: str,
    to: Sequence[str],
    context: dict[str, Any],
    campaign_id: int | None,
    turn_id: int | None = None,
    attachment: Attachment | None = None,
    key: str = "",
    model: type[AnEmail] = Email,
    after_commit: bool = True,
    reply_to: str = "",
    **link: Any,
) -> AnEmail | None:
    """Render emails/<template>-* now and queue the email to `to` (one message to all of them).

    With a `key`, an email queued before under the same key is returned as it is: queuing twice sends
    once. `model` is Email or a model that extends it (reports.ReportEmail, with `link`: the report).
    `reply_to`: where replies go (blank: the campaign's organizer).
    The send task is enqueued once the caller's transaction commits; with `after_commit=False` the
    caller enqueues it (a task outside any transaction). Nobody to write to: nothing, and None."""
    addresses = list(dict.fromkeys(address for address in to if address))
    if not addresses:
        return None
    if key and (existing := model.objects.filter(key=key).first()) is not None:
        return existing
    rendered = email_render(template=template, context=context)
    filename, content, mimetype = attachment or ("", None, "")
    try:
        with transaction.atomic():
            email = model.objects.create(
                kind=kind,
                campaign_id=campaign_id,
                turn_id=turn_id,
                key=key,
                to=addresses,
                reply_to=reply_to,
                subject=rendered.subject,
                text=rendered.text,
                html=rendered.html,
                attachment_name=filename,
                attachment_type=mimetype,
                attachment=content,
                **link,
            )
    except IntegrityError:
        if not key:
            raise
        return model.objects.get(key=key)  # another task queued it in the meantime
    if after_commit:
        emails_send_after_commit([email])
    return email


# The mark a queued email gets when its send task could not be enqueued (the broker down): the
# deadline sweep sends it on its next run instead of waiting STALE_AFTER.
NOT_ENQUEUED = "Not yet handed to a worker (the task queue was unreachable)"


def emails_send_after_commit(emails: Iterable[Email]) -> None:
    """Enqueue the send task of each email (on its queue: outbox.tasks.email_send_task) once the
    transaction commits; in a web worker, handed to its publisher instead (`EmailPublisher`: one
    task for the emails its requests committed meanwhile). A broker that is down fails fast and
    loses nothing: the row stays queued, marked NOT_ENQUEUED and due at once, and the deadline sweep
    sends it on its next run; the request whose transaction has committed answers as saved."""
    from .tasks import email_send_task

    def enqueue(email_id: int, bulk: bool) -> None:
        if email_publisher.take(email_id, bulk=bulk):
            return
        task_enqueue(
            email_send_task(bulk=bulk), on_failure=lambda exc: _not_enqueued_record([email_id], exc), email_id=email_id
        )

    for email in emails:
        transaction.on_commit(lambda email_id=email.pk, bulk=email.bulk: enqueue(email_id, bulk), robust=True)


def _not_enqueued_record(email_ids: list[int], exc: Exception) -> None:
    """The send task of these emails could not be enqueued: each still queued and never tried is
    marked so, and due at once for the deadline sweep."""
    Email.objects.filter(pk__in=email_ids, status=Email.Status.QUEUED, attempts=0).update(
        last_error=f"{NOT_ENQUEUED}: {type(exc).__name__}: {exc}"[:2000], take_up_at=timezone.now()
    )


_STOP = object()
# How long a web worker's publisher gathers the emails its requests commit before it enqueues one
# task for them: a receipt goes this much later, and under the weekly rush (about 35 submissions a
# second in each worker) one message carries a few of them. Without a wait the publisher, woken at
# each commit, sent one message a receipt as before (1.2 on average in `make loadtest`'s rush).
PUBLISH_GATHER_SECONDS = 0.2


class EmailPublisher:
    """A web worker's one publisher of send tasks (issue 35): its requests hand it the emails they
    have committed (a receipt per submission) and it enqueues one task for all those waiting
    (outbox.tasks.emails_send_task, on the emails' queue), from a thread of its own, at once: under
    the weekly rush a request no longer pays a broker message (about 1 ms of CPU, and Redis's part),
    and the worker one message for each few sheets. The thread gathers what comes within
    PUBLISH_GATHER_SECONDS of the first it is handed.

    Started by a web worker before its first request (`email_publisher_start`, briternia.warm);
    elsewhere (tests, the Celery worker, commands) it does not run and each email's task is
    enqueued as before. Stopped (what it holds published) when the process exits. An email it
    holds when the process dies without exiting (killed) stays a queued row, which the deadline
    sweep hands to a worker STALE_AFTER after it was made, as a send task lost on the way would be.
    """

    def __init__(self, gather_seconds: float = PUBLISH_GATHER_SECONDS) -> None:
        self.gather_seconds = gather_seconds
        self._waiting: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._lock = threading.Lock()
        self._stop_at_exit = False

    @property
    def running(self) -> bool:
        return self._thread is not None and self._pid == os.getpid() and self._thread.is_alive()

    def start(self) -> None:
        """Run in this process (once; a forked child starts its own)."""
        with self._lock:
            if self.running:
                return
            self._waiting = queue.SimpleQueue()
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._run, name="email-publisher", daemon=True)
            self._thread.start()
            if not self._stop_at_exit:
                atexit.register(self.stop)
                self._stop_at_exit = True

    def take(self, email_id: int, *, bulk: bool) -> bool:
        """Have the publisher enqueue this email's send task; False if it is not running here (the
        caller enqueues it)."""
        if not self.running:
            return False
        self._waiting.put((email_id, bulk))
        return True

    def stop(self, timeout: float = 10.0) -> None:
        """Publish what is waiting and end the thread (within `timeout` seconds)."""
        with self._lock:
            thread = self._thread
            if thread is None or self._pid != os.getpid():
                return
            self._thread = None
        self._waiting.put(_STOP)
        thread.join(timeout)

    def _run(self) -> None:
        from celery import current_app

        current_app.backend  # noqa: B018  (built per thread at its first publish: here, not then)
        stopping = False
        while not stopping:
            waiting = [self._waiting.get()]
            until = time.monotonic() + self.gather_seconds
            while waiting[-1] is not _STOP and (left := until - time.monotonic()) > 0:
                try:
                    waiting.append(self._waiting.get(timeout=left))
                except queue.Empty:
                    break
            stopping = _STOP in waiting
            emails = [item for item in waiting if item is not _STOP]
            try:
                emails_publish(emails)
            except Exception:  # never ends the thread: the rows are queued, the sweep has them
                logger.exception("Could not hand %s emails to a worker; the deadline sweep will", len(emails))
            finally:
                # A connection this thread opened (marking emails the broker refused; tasks run
                # in-process) is not kept: this thread seldom needs one.
                connection.close()


def emails_publish(emails: Sequence[tuple[int, bool]]) -> None:
    """One send task for the emails (id, bulk) of each queue; a broker that cannot take it has them
    marked for the deadline sweep (`emails_send_after_commit`)."""
    from .tasks import emails_send_task

    for bulk in (False, True):
        ids = [email_id for email_id, is_bulk in emails if is_bulk is bulk]
        if ids:
            task_enqueue(
                emails_send_task(bulk=bulk),
                on_failure=lambda exc, ids=ids: _not_enqueued_record(ids, exc),
                email_ids=ids,
            )


email_publisher = EmailPublisher()


def email_publisher_start() -> None:
    """The web worker's publisher started (briternia.warm runs it before the first request), unless
    tasks run in-process (CELERY_TASK_ALWAYS_EAGER: the request runs its task as before)."""
    from celery import current_app

    if not current_app.conf.task_always_eager:
        email_publisher.start()


def is_temporary(exc: BaseException) -> bool:
    """4xx SMTP replies, dropped connections and network errors are worth another try."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(400 <= code < 500 for code, _ in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500
    return isinstance(
        exc, (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, ConnectionError, TimeoutError, OSError)
    )


@dataclass(frozen=True)
class Delivery:
    sent: bool
    retry: bool = False  # a temporary error and a short wait: the task retries itself after `wait`
    attempts: int = 0
    wait: float = 0.0  # seconds before the next try (a long one is the deadline sweep's)


def email_deliver(*, email_id: int) -> Delivery:
    """Send one queued email once. The row is locked and claimed (queued -> sending) in its own
    transaction before the SMTP conversation, so a concurrent or repeated task finds it in flight or
    sent and does nothing; a task that comes before the email's retry_at (a duplicate message, the
    sweep's) finds it not due and leaves it: the backoff is never cut short.

    A temporary error queues the email again with its next wait (email_retry_delay): a short one
    (up to email_retry_countdown_max) is the task's own countdown on the broker, a longer one is left
    to the deadline sweep, which hands the email to a worker once it is due (take_up_at)."""
    with transaction.atomic():
        row = Email.objects.select_for_update().filter(pk=email_id).order_by("pk").first()
        if row is None or row.status != Email.Status.QUEUED:
            return Delivery(sent=False)
        if not row.rendered and not _render_for_worker(row):
            return Delivery(sent=False)
        now = timezone.now()
        if row.retry_at is not None and row.retry_at > now:
            return Delivery(sent=False, attempts=row.attempts)
        row.status = Email.Status.SENDING
        row.attempts += 1
        row.claimed_at = now
        row.save(update_fields=["status", "attempts", "claimed_at"])
    try:
        _smtp_send(row)
    except Exception as exc:  # every failure is recorded on the row: retried, or shown to the organizer
        error = f"{type(exc).__name__}: {exc}"[:2000]
        logger.warning("Email %s (%s), try %s of %s: %r", email_id, row.kind, row.attempts, EMAIL_TRIES, exc)
        if not is_temporary(exc) or row.attempts >= EMAIL_TRIES:
            Email.objects.filter(pk=email_id).update(
                status=Email.Status.FAILED, last_error=error, retry_at=None, take_up_at=None
            )
            return Delivery(sent=False, attempts=row.attempts)
        wait = email_retry_delay(row.attempts)
        retry_at = timezone.now() + dt.timedelta(seconds=wait)
        countdown = wait <= email_retry_countdown_max()
        # A countdown's message may be lost (a broker restart): the sweep takes the email up
        # STALE_AFTER after it was due. A longer wait is the sweep's from the start.
        take_up_at = retry_at + STALE_AFTER if countdown else retry_at
        Email.objects.filter(pk=email_id).update(
            status=Email.Status.QUEUED, last_error=error, retry_at=retry_at, take_up_at=take_up_at
        )
        return Delivery(sent=False, retry=countdown, attempts=row.attempts, wait=wait)
    # The attachment's bytes are not kept once sent: the PDF stays on the site, as its report.
    Email.objects.filter(pk=email_id).update(
        status=Email.Status.SENT, sent_at=timezone.now(), last_error="", attachment=None, retry_at=None, take_up_at=None
    )
    return Delivery(sent=True, attempts=row.attempts)


def _smtp_send(row: Email) -> None:
    """One message per address, over one connection: a player never sees the others' addresses
    (an announcement goes to every player of the campaign). A campaign's email answers to its
    organizer (Reply-To), who runs it, unless it carries a player's message (its sender); the site's
    own address takes no replies."""
    reply_to = row.reply_to or _organizer_address(row)
    messages = []
    for address in row.to:
        message = EmailMultiAlternatives(
            subject=row.subject,
            body=row.text,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[address],
            reply_to=[reply_to] if reply_to else None,
        )
        message.attach_alternative(row.html, "text/html")
        if row.attachment_name and row.attachment is not None:
            message.attach(row.attachment_name, bytes(row.attachment), row.attachment_type)
        messages.append(message)
    with get_connection() as connection:
        connection.send_messages(messages)


def _organizer_address(row: Email) -> str:
    campaign = row.campaign  # named by a lazy reference: the outbox sits below the kingdoms (layers)
    return campaign.organizer.email if campaign is not None else ""  # type: ignore[attr-defined]


def email_retry_delay(attempts: int) -> float:
    """Seconds to wait after the `attempts`-th failed try: 30 s, 2 min, 10 min, 30 min, then every
    hour (RETRY_BACKOFF_SECONDS, scaled by settings.EMAIL_BACKOFF_SCALE)."""
    scale = float(getattr(settings, "EMAIL_BACKOFF_SCALE", 1.0))
    return scale * RETRY_BACKOFF_SECONDS[min(max(attempts, 1), len(RETRY_BACKOFF_SECONDS)) - 1]


def email_retry_countdown_max() -> float:
    """The longest wait a retry spends as a countdown on the broker (settings): Redis hands a
    message a worker holds for longer than its visibility timeout to another worker, so a longer
    wait is not held there but left to the deadline sweep."""
    return float(getattr(settings, "EMAIL_RETRY_COUNTDOWN_MAX_SECONDS", 300))


@transaction.atomic
def email_resend(*, email: Email) -> None:
    """The organizer's one click: a failed email (or one stuck in flight) is queued again, as it was
    rendered."""
    stuck = (
        email.status == Email.Status.SENDING
        and email.claimed_at is not None
        and timezone.now() - email.claimed_at > STALE_AFTER
    )
    if email.status != Email.Status.FAILED and not stuck:
        raise DomainError(
            f"The email to {email.to_line} is {email.get_status_display().lower()}: there is nothing to resend."
        )
    Email.objects.filter(pk=email.pk).update(
        status=Email.Status.QUEUED, attempts=0, last_error="", retry_at=None, take_up_at=timezone.now() + STALE_AFTER
    )
    emails_send_after_commit([email])


def emails_stale(*, now: dt.datetime) -> list[Email]:
    """Queued rows the sweep hands to a worker now (only id, kind): their task was lost (a crash, a
    broker that was down), or their next try is due after a wait left to the sweep. Each is given
    STALE_AFTER before the sweep hands it on again, so a busy queue does not fill with copies (and a
    copy would find the row taken or not due: nothing goes twice, no wait is cut short)."""
    take_up = Q(take_up_at__lte=now) | Q(take_up_at__isnull=True, created_at__lte=now - STALE_AFTER)
    due = take_up & (Q(retry_at__isnull=True) | Q(retry_at__lte=now))
    with transaction.atomic():
        stale = list(
            Email.objects.select_for_update(skip_locked=True)
            .filter(due, status=Email.Status.QUEUED)
            # Not rendered yet and not the worker's to render (carried over from before the outbox):
            # its report renders it.
            .exclude(Q(subject="") & ~Q(kind__in=list(_worker_renders)))
            .order_by("pk")
            .only("id", "kind")
        )
        Email.objects.filter(pk__in=[email.pk for email in stale]).update(take_up_at=now + STALE_AFTER)
    return stale
