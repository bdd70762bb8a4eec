"""Reads of turns and order sheets, with visibility: a player sees only their own kingdom's
sheets; the organizer sees every sheet and who has not submitted. Anything else is 404."""

from __future__ import annotations

from django.http import Http404

from kingdoms.models import Kingdom
from kingdoms.selectors import AnyUser, campaigns_visible, is_organizer, kingdom_of

from .models import OrderSheet, Turn, TurnReport


def turn_get(*, user: AnyUser, turn_id: int) -> Turn:
    turn = Turn.objects.select_related("campaign").filter(pk=turn_id, campaign__in=campaigns_visible(user)).first()
    if turn is None:
        raise Http404("No such turn.")
    return turn


def sheet_kingdom_get(*, user: AnyUser, turn: Turn, kingdom_id: int | None = None) -> Kingdom:
    """The kingdom whose sheet the user asks for: their own, or any for the organizer."""
    if kingdom_id is None:
        kingdom = kingdom_of(user=user, campaign=turn.campaign)
    elif is_organizer(user, turn.campaign):
        kingdom = turn.campaign.kingdoms.filter(pk=kingdom_id).first()
    else:
        own = kingdom_of(user=user, campaign=turn.campaign)
        kingdom = own if own is not None and own.pk == kingdom_id else None
    if kingdom is None:
        raise Http404("No such order sheet.")
    return kingdom


def sheets_overview(*, user: AnyUser, turn: Turn) -> list[tuple[Kingdom, OrderSheet | None]]:
    """Organizer only: every kingdom with its sheet (None when it has filed nothing)."""
    if not is_organizer(user, turn.campaign):
        raise Http404("No such page.")
    sheets = {s.kingdom_id: s for s in OrderSheet.objects.filter(turn=turn)}
    return [(k, sheets.get(k.id)) for k in turn.campaign.kingdoms.order_by("id")]


def turn_results(*, user: AnyUser, turn: Turn) -> dict:
    """What the user may see of a resolved turn: their own kingdom's events, the rolls that
    concerned it and the battles it fights (the organizer: everything)."""
    from battles.models import Battle
    from kingdoms.models import DiceRoll

    from .models import TurnEvent

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


def delivery_failures(turn: Turn) -> dict[str, int]:
    """For the organizer: the turn's reports that failed to render and emails that failed to go."""
    from .models import ReportEmail

    return {
        "reports": TurnReport.objects.filter(turn=turn, status=TurnReport.Status.FAILED).count(),
        "emails": ReportEmail.objects.filter(report__turn=turn, status=ReportEmail.Status.FAILED).count(),
    }


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
    """Turn by turn: the public map, the bulletin, and the reports the user may read (their
    kingdom's reports and the scenario sheets of its battles; the organizer: all)."""
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
    return [
        {
            "turn": turn,
            "map": getattr(turn, "public_map", None),
            "bulletin": next((r for r in reports.get(turn.pk, []) if r.is_bulletin), None),
            "reports": [r for r in reports.get(turn.pk, []) if not r.is_bulletin],
        }
        for turn in turns
    ]
