"""Delivering the turn reports by email: one row per report and address, claimed before sending
(nothing goes out twice), retried with backoff on temporary SMTP errors, FAILED after the last try
(the organizer sees it and resends with one click). Nothing is lost: a queued row left behind by a
crash is picked up again by the deadline sweep."""

from __future__ import annotations

import datetime as dt
import smtplib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from battles.models import Battle
from battles.services.scenarios import scenario_sheet_context
from briternia.emails import email_send
from briternia.errors import DomainError
from kingdoms.models import ReportPreferences
from orders.models import Turn
from orders.rules.schedule import deadline_text

from ..models import ReportEmail, TurnReport

REPORT_EMAIL_TRIES = 5
# Waits after the 1st, 2nd, 3rd and 4th failed try, scaled by settings.REPORT_EMAIL_BACKOFF_SCALE
# (tests run them at once).
RETRY_BACKOFF_SECONDS = (30, 120, 600, 1800)
STALE_QUEUED_AFTER = dt.timedelta(minutes=5)  # a queued row older than this lost its task


def _preferences(users: list) -> dict[int, ReportPreferences]:  # type: ignore[type-arg]
    return {p.user_id: p for p in ReportPreferences.objects.filter(user__in=users)}


def _readers(report: TurnReport) -> list[Any]:
    """Who receives the report: a kingdom's report its players (the organizer for a kingdom
    without players: the Ancient Dead); a scenario sheet the players of every kingdom in the
    battle (supports too) and the organizer; the bulletin every player and the organizer."""
    campaign = report.turn.campaign
    if report.is_scenario:
        battle = report.battle
        kingdoms = {battle.attacker_kingdom_id, battle.defender_kingdom_id}
        kingdoms |= {support.kingdom_id for support in battle.supports.all()}
        users = list(get_user_model().objects.filter(kingdoms__in=kingdoms - {None}).distinct())
    elif report.kingdom_id is not None:
        return list(report.kingdom.players.all()) or [campaign.organizer]
    else:
        users = list(get_user_model().objects.filter(kingdoms__campaign=campaign).distinct())
    if campaign.organizer not in users:
        users.append(campaign.organizer)
    return users


def report_recipients(report: TurnReport) -> list[tuple[Any, str, bool]]:
    """(user, address, attach the PDF) for each reader, by the reader's report preferences."""
    users = _readers(report)
    preferences = _preferences(users)
    recipients = []
    for user in sorted(users, key=lambda u: u.pk):
        preference = preferences.get(user.pk)
        address = (preference.report_email if preference and preference.report_email else user.email) or ""
        if address:
            recipients.append((user, address, preference.attach_pdf if preference else True))
    return recipients


def report_emails_queue(*, report: TurnReport) -> list[int]:
    """Make the report's email rows (once per address) and return the ids still queued."""
    with transaction.atomic():
        for user, address, attach in report_recipients(report):
            ReportEmail.objects.get_or_create(report=report, to=address, defaults={"user": user, "attach_pdf": attach})
        now = timezone.now()
        TurnReport.objects.filter(pk=report.pk, emails_queued_at__isnull=True).update(emails_queued_at=now)
        if report.is_scenario:
            Battle.objects.filter(pk=report.battle_id, scenario_sent_at__isnull=True).update(scenario_sent_at=now)
    return list(report.emails.filter(status=ReportEmail.Status.QUEUED).values_list("id", flat=True))


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
    retry: bool = False  # a temporary error: try again later
    attempts: int = 0


def report_email_deliver(*, email_id: int) -> Delivery:
    """Send one report email once. The row is locked and claimed (queued -> sending) in its own
    transaction before the SMTP conversation, so a concurrent or repeated task finds it in flight
    or sent and does nothing."""
    with transaction.atomic():
        # order_by("pk"): the default ordering would join the report's nullable kingdom, which
        # PostgreSQL refuses to lock.
        row = ReportEmail.objects.select_for_update().filter(pk=email_id).order_by("pk").first()
        if row is None or row.status != ReportEmail.Status.QUEUED:
            return Delivery(sent=False)
        row.status = ReportEmail.Status.SENDING
        row.attempts += 1
        row.claimed_at = timezone.now()
        row.save(update_fields=["status", "attempts", "claimed_at"])
    row = ReportEmail.objects.select_related(
        "report__turn__campaign", "report__kingdom", "report__battle__province"
    ).get(pk=email_id)
    report = row.report
    try:
        _send(row, report)
    except Exception as exc:
        temporary = is_temporary(exc)
        last = row.attempts >= REPORT_EMAIL_TRIES
        status = ReportEmail.Status.QUEUED if temporary and not last else ReportEmail.Status.FAILED
        ReportEmail.objects.filter(pk=email_id).update(status=status, last_error=f"{type(exc).__name__}: {exc}"[:2000])
        if status == ReportEmail.Status.FAILED and not temporary:
            return Delivery(sent=False, attempts=row.attempts)
        return Delivery(sent=False, retry=status == ReportEmail.Status.QUEUED, attempts=row.attempts)
    ReportEmail.objects.filter(pk=email_id).update(
        status=ReportEmail.Status.SENT, sent_at=timezone.now(), last_error=""
    )
    return Delivery(sent=True, attempts=row.attempts)


def _send(row: ReportEmail, report: TurnReport) -> None:
    turn = report.turn
    campaign = turn.campaign

    attachments = [(report.filename, bytes(report.pdf), "application/pdf")] if row.attach_pdf and report.pdf else []
    context: dict[str, Any] = {"report": report, "turn": turn, "campaign": campaign, "attached": bool(attachments)}
    if report.is_scenario:
        name = "battle-scenario"
        context |= scenario_sheet_context(report.battle)
        context["results_deadline"] = deadline_text(turn.results_deadline, campaign.time_zone)
    else:
        name = "turn-bulletin" if report.is_bulletin else "turn-report"
        next_turn = Turn.objects.filter(campaign=campaign, number=turn.number + 1).first()
        context["kingdom"] = report.kingdom
        context["next_orders_deadline"] = (
            deadline_text(next_turn.orders_deadline, campaign.time_zone) if next_turn else ""
        )
    email_send(name, to=[row.to], context=context, attachments=attachments)


def report_email_retry_delay(attempts: int) -> float:
    scale = float(getattr(settings, "REPORT_EMAIL_BACKOFF_SCALE", 1.0))
    return scale * RETRY_BACKOFF_SECONDS[min(max(attempts, 1), len(RETRY_BACKOFF_SECONDS)) - 1]


def report_email_resend(*, email: ReportEmail) -> None:
    """The organizer's one click: a failed email (or one stuck in flight) is queued again."""
    from ..tasks import report_email_send

    stuck = (
        email.status == ReportEmail.Status.SENDING
        and email.claimed_at
        and (timezone.now() - email.claimed_at > STALE_QUEUED_AFTER)
    )
    if email.status != ReportEmail.Status.FAILED and not stuck:
        raise DomainError(
            f"The email to {email.to} is {email.get_status_display().lower()}: there is nothing to resend."
        )
    ReportEmail.objects.filter(pk=email.pk).update(status=ReportEmail.Status.QUEUED, attempts=0, last_error="")
    transaction.on_commit(lambda: report_email_send.delay(email_id=email.pk))


def stale_report_emails(*, now: dt.datetime) -> list[int]:
    """Queued rows nobody is working on (their task was lost in a crash): sent again by the sweep."""
    never_tried = Q(claimed_at__isnull=True, created_at__lte=now - STALE_QUEUED_AFTER)
    retry_lost = Q(claimed_at__lte=now - STALE_QUEUED_AFTER - dt.timedelta(seconds=max(RETRY_BACKOFF_SECONDS)))
    return list(
        ReportEmail.objects.filter(never_tried | retry_lost, status=ReportEmail.Status.QUEUED)
        .filter(report__status=TurnReport.Status.READY)
        .values_list("id", flat=True)
    )
