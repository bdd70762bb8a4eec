"""Reads of the reports and the turn's results, with their visibility: a kingdom's report by its
players, the bulletin by everyone in the campaign, a scenario sheet by the battle's kingdoms; the
organizer reads everything. Anything else is not found."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from battles.models import Battle
from kernel.event_codes import EventCode
from kingdoms.models import Campaign, Kingdom
from kingdoms.selectors import AnyUser, campaigns_visible, is_organizer, kingdom_of
from outbox.models import Email
from turns.models import DiceRoll, Turn, TurnEvent

from .models import ReportEmail, TurnReport

# What a list of emails loads: never the bodies or the attachment.
_EMAIL_LIST_DEFERRED = ("text", "html", "attachment")


def delivery_failures(turn: Turn) -> dict[str, int]:
    """For the organizer: the turn's reports that failed to render and emails (of every kind) that
    failed to go."""
    return {
        "reports": TurnReport.objects.filter(turn=turn, status=TurnReport.Status.FAILED).count(),
        "emails": Email.objects.filter(turn=turn, status=Email.Status.FAILED).count(),
    }


def campaign_email_failures(campaign: Campaign) -> int:
    """For the organizer's campaign page: the campaign's emails that failed to go."""
    return Email.objects.filter(campaign=campaign, status=Email.Status.FAILED).count()


def turn_deliveries(*, user: AnyUser, turn: Turn) -> dict[str, QuerySet]:  # type: ignore[type-arg]
    """The organizer's view of a turn: its reports, their emails, and the turn's other emails
    (receipts, announcements, reminders). Anyone else: not found."""
    if not is_organizer(user, turn.campaign):
        raise Http404("No such page.")
    reports = (
        TurnReport.objects.filter(turn=turn)
        .select_related("kingdom", "battle__province")
        .defer("pdf", "snapshot")
        .order_by("kind", "kingdom__name", "battle__province__number")
    )
    report_emails = (
        ReportEmail.objects.filter(report__turn=turn)
        .select_related("report__kingdom", "report__battle__province")
        .defer(*_EMAIL_LIST_DEFERRED, "report__pdf", "report__snapshot")
        .order_by("status", "report__kind", "to")
    )
    other_emails = (
        Email.objects.filter(turn=turn, reportemail__isnull=True)
        .defer(*_EMAIL_LIST_DEFERRED)
        .order_by("status", "kind", "-created_at")
    )
    return {"reports": reports, "emails": report_emails, "other_emails": other_emails}


def campaign_emails(*, user: AnyUser, campaign: Campaign) -> dict[str, QuerySet]:  # type: ignore[type-arg]
    """The organizer's view of every email of the campaign: the failed ones (each can be resent),
    then the latest of all. Anyone else: not found."""
    if not is_organizer(user, campaign):
        raise Http404("No such page.")
    emails = Email.objects.filter(campaign=campaign).select_related("turn").defer(*_EMAIL_LIST_DEFERRED)
    return {
        "failed": emails.filter(status=Email.Status.FAILED).order_by("-created_at", "-id"),
        "latest": emails.order_by("-created_at", "-id")[:200],
    }


def email_for_organizer(*, user: AnyUser, email_id: int) -> Email:
    """An email of a campaign the user organizes; anything else is not found."""
    email = Email.objects.select_related("campaign").defer(*_EMAIL_LIST_DEFERRED).filter(pk=email_id).first()
    if email is None or email.campaign is None or not is_organizer(user, email.campaign):
        raise Http404("No such email.")
    return email


def _may_read(report: TurnReport, *, organizer: bool, own: Kingdom | None) -> bool:
    """The bulletin: everyone in the campaign. A kingdom's report: its players. A scenario sheet:
    the players of the kingdoms in the battle (supports too). The organizer: all."""
    if organizer or report.is_bulletin:
        return True
    if own is None:
        return False
    if report.is_scenario:
        return report.battle.involves(own.pk)
    return report.kingdom_id == own.pk


def report_get(*, user: AnyUser, report_id: int) -> TurnReport:
    """A report the user may read (see _may_read); anything else is not found."""
    report = (
        TurnReport.objects.select_related("turn__campaign", "kingdom", "battle__province")
        .filter(pk=report_id, turn__campaign__in=campaigns_visible(user))
        .first()
    )
    if report is None or report.status != TurnReport.Status.READY:
        raise Http404("No such report.")
    campaign = report.turn.campaign
    if not _may_read(report, organizer=is_organizer(user, campaign), own=kingdom_of(user=user, campaign=campaign)):
        raise Http404("No such report.")
    return report


def campaign_history(*, user: AnyUser, campaign) -> list[dict]:  # type: ignore[no-untyped-def]
    """Turn by turn: the public map, the bulletin, the reports the user may read (their
    kingdom's reports and the scenario sheets of its battles; the organizer: all), and the
    organizer's restores of the turn (public: every player was emailed about them)."""
    organizer = is_organizer(user, campaign)
    own = kingdom_of(user=user, campaign=campaign)
    turns = list(campaign.turns.order_by("-number").select_related("public_map"))
    reports: dict[int, list[TurnReport]] = {}
    for report in (
        TurnReport.objects.filter(turn__campaign=campaign, status=TurnReport.Status.READY)
        .select_related("kingdom", "battle__province")
        .prefetch_related("battle__supports")
        .defer("pdf", "snapshot")
        .order_by("kind", "kingdom__name", "battle__province__number")
    ):
        if _may_read(report, organizer=organizer, own=own):
            reports.setdefault(report.turn_id, []).append(report)
    restores: dict[int, list[TurnEvent]] = {}
    for event in TurnEvent.objects.filter(turn__campaign=campaign, code=EventCode.TURN_RESTORED):
        restores.setdefault(event.turn_id, []).append(event)
    return [
        {
            "turn": turn,
            "map": getattr(turn, "public_map", None),
            "bulletin": next((r for r in reports.get(turn.pk, []) if r.is_bulletin), None),
            "reports": [r for r in reports.get(turn.pk, []) if not r.is_bulletin],
            "restores": restores.get(turn.pk, []),
        }
        for turn in turns
    ]


def turn_results(*, user: AnyUser, turn: Turn) -> dict:
    """What the user may see of a resolved turn: their own kingdom's events, the rolls that
    concerned it and the battles it fights (the organizer: everything)."""
    organizer = is_organizer(user, turn.campaign)
    own = kingdom_of(user=user, campaign=turn.campaign)
    events = TurnEvent.objects.filter(turn=turn).select_related("kingdom")
    battles = (
        Battle.objects.filter(turn=turn)
        .select_related("province", "attacker_kingdom", "attacker_army", "defender_kingdom", "defender_army")
        .prefetch_related("supports__army", "supports__kingdom")
    )
    rolls = DiceRoll.objects.filter(campaign=turn.campaign, turn=turn.number).order_by("sequence")
    if not organizer:
        if own is None:
            raise Http404("No such page.")
        events = events.filter(kingdom=own)
        battles = [b for b in battles if b.involves(own.id)]
        rolls = [r for r in rolls if own.id in r.kingdoms]
    return {
        "events": list(events),
        "battles": list(battles),
        "rolls": list(rolls),
        "own": own,
        "organizer": organizer,
        "failed_deliveries": delivery_failures(turn) if organizer else {},
    }
