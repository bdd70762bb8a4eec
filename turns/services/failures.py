"""A phase that failed, said out loud: the organizer is emailed once per run of failures (the first
failed try; the tries after it, backed off by the deadline sweep, are counted on the turn and shown on
the game master's desk, never emailed again), through the outbox as a transactional email."""

from __future__ import annotations

from django.urls import reverse

from briternia.site import site_url
from outbox.models import Email
from outbox.services import email_queue
from rulebook.campaign_schedule import moment_text
from turns.models import Turn


def phase_failure_email_key(turn: Turn) -> str:
    """One email per run of failures of the turn's phase: named by the run's first failed try."""
    since = turn.phase_failed_since or turn.phase_failed_at
    return f"phase-failed:{turn.pk}:{turn.status}:{since.isoformat() if since else ''}"


def phase_failure_announce(turn: Turn) -> None:
    """Tell the organizer that the phase waiting on `turn` failed: why, when, and what to do (Retry
    on the desk, or restore the last snapshot). Queued once per run of failures (its key)."""
    campaign = turn.campaign
    organizer = campaign.organizer
    tz = campaign.time_zone
    email_queue(
        template="phase-failed",
        kind=Email.Kind.ORGANIZER_ALERT,
        to=[organizer.email] if organizer and organizer.email else [],
        context={
            "campaign": campaign,
            "turn": turn,
            "phase": turn.phase_failed_name,
            "error": turn.resolution_error,
            "failed_at": moment_text(turn.phase_failed_at, tz) if turn.phase_failed_at else "",
            "retry_at": moment_text(turn.phase_retry_at, tz) if turn.phase_retry_at else "",
            "desk_url": site_url() + reverse("campaign-desk", args=[campaign.pk]),
            "snapshots_url": site_url() + reverse("turn-snapshots", args=[turn.pk]),
        },
        campaign_id=campaign.pk,
        turn_id=turn.pk,
        key=phase_failure_email_key(turn),
    )
