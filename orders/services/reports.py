"""Turn reports: a private PDF per kingdom and the public bulletin, rendered from the stored state
and events (never by re-running rules), and the public map of every turn kept for the history.

Appendix, Campaign Schedule: "Turn results and map will be posted via email".
"""

from __future__ import annotations

import base64
import time
from collections import defaultdict
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from battles.models import Battle
from briternia.pdf import pdf_render, svg_to_png
from kingdoms.models import Army, DiceRoll, Kingdom, TreasuryEntry
from kingdoms.selectors import army_points, campaign_map_svg

from ..models import OrderSheet, Turn, TurnEvent, TurnMap, TurnReport
from ..rules.schedule import deadline_text

# Events every player may read in the bulletin: who holds what, and who missed the orders.
PUBLIC_EVENT_CODES = frozenset(
    {
        "province-claimed",
        "province-conquered",
        "sacked",
        "looted",
        "capitol-lost",
        "missed-orders",
        "wiped-out",
        "disbanded",
        "warlord-succession",
    }
)
PHASE_TITLES = {
    "tally-gold": "1. Tally Gold",
    "maintain-armies": "2. Maintain Armies",
    "create-upgrade-armies": "3. Create / Upgrade Armies",
    "orders": "4-5. Orders",
    "battles": "6. Battles",
    "aftermath": "7. Aftermath",
}


def turn_reports_prepare(*, turn: Turn) -> list[int]:
    """Keep the turn's public map and queue its reports (a private one per kingdom and the
    bulletin). Safe to call twice: rows are made once. Returns the reports still to render."""
    campaign = turn.campaign
    with transaction.atomic():
        if not TurnMap.objects.filter(turn=turn).exists():
            svg = campaign_map_svg(campaign=campaign)
            TurnMap.objects.create(turn=turn, svg=svg, png=svg_to_png(svg))
        TurnReport.objects.get_or_create(turn=turn, kingdom=None)
        for kingdom in campaign.kingdoms.all():
            TurnReport.objects.get_or_create(turn=turn, kingdom=kingdom)
    return list(
        TurnReport.objects.filter(turn=turn)
        .exclude(status=TurnReport.Status.READY)
        .order_by("kingdom_id")
        .values_list("id", flat=True)
    )


def _map_picture(turn: Turn) -> str:
    """The turn's public map as a base64 PNG (drawn once per turn, see briternia.pdf.svg_to_png)."""
    turn_map = TurnMap.objects.filter(turn=turn).first()
    png = bytes(turn_map.png) if turn_map and turn_map.png else svg_to_png(campaign_map_svg(campaign=turn.campaign))
    return base64.b64encode(png).decode("ascii")


def _next_turn(turn: Turn) -> Turn | None:
    return Turn.objects.filter(campaign=turn.campaign, number=turn.number + 1).first()


def _battle_rows(battles: list[Battle], *, public: bool = False) -> list[dict[str, Any]]:
    """The battles in a table; in public (the bulletin) the sides are kingdoms, not armies."""
    from battles.services.summaries import side_name

    def name(b: Battle, side: str) -> str:
        if not public:
            return side_name(b, side)
        kingdom = b.attacker_kingdom if side == "attacker" else b.defender_kingdom
        return kingdom.name if kingdom else "the neutral garrison"

    rows = []
    for b in battles:
        scenario = b.scenario or {}
        rows.append(
            {
                "battle": b,
                "attacker": name(b, "attacker"),
                "defender": name(b, "defender"),
                "engagement": (scenario.get("engagement") or {}).get("name", "-"),
                "objective": (scenario.get("objective") or {}).get("name", "-"),
                "result": b.get_result_display() or "not reported",
                "victor": {"attacker": name(b, "attacker"), "defender": name(b, "defender")}.get(b.victor, "nobody"),
            }
        )
    return rows


def kingdom_report_context(*, turn: Turn, kingdom: Kingdom) -> dict[str, Any]:
    """Everything the kingdom's private report shows, read from the stored rows of the turn."""
    from orders.services.describe import describe_entries

    campaign = turn.campaign
    opening = (
        TreasuryEntry.objects.filter(kingdom=kingdom, turn__lt=turn.number).aggregate(total=Sum("amount"))["total"] or 0
    )
    ledger = []
    balance = opening
    for entry in TreasuryEntry.objects.filter(kingdom=kingdom, turn=turn.number).order_by("id"):
        balance += entry.amount
        ledger.append((entry, balance))
    events = list(TurnEvent.objects.filter(turn=turn, kingdom=kingdom).select_related("army").order_by("sequence"))
    by_phase: dict[str, list[TurnEvent]] = defaultdict(list)
    for e in events:
        by_phase[e.phase].append(e)
    phases = [(PHASE_TITLES.get(p, p), rows) for p, rows in by_phase.items()]
    sheet = OrderSheet.objects.filter(turn=turn, kingdom=kingdom, status=OrderSheet.Status.SUBMITTED).first()
    # Where each army stood when the orders were given: before it moved, or retreated.
    positions: dict[int, int] = {}
    for e in events:
        if e.army_id and e.code in ("moved", "retreated") and e.army_id not in positions and "from" in e.data:
            positions[e.army_id] = int(e.data["from"])
    orders = (
        describe_entries(kingdom=kingdom, entries=sheet.entries, positions=positions)
        if sheet
        else {"orders": [], "kingdom": []}
    )
    battles = [
        b
        for b in Battle.objects.filter(turn=turn)
        .select_related("province", "attacker_kingdom", "attacker_army", "defender_kingdom", "defender_army")
        .prefetch_related("supports")
        if b.involves(kingdom.id)
    ]
    armies = list(
        Army.objects.filter(kingdom=kingdom, status=Army.Status.ACTIVE)
        .select_related("province")
        .prefetch_related("units__items")
        .order_by("kind", "id")
    )
    rolls = [
        r
        for r in DiceRoll.objects.filter(campaign=campaign, turn=turn.number).order_by("stream", "sequence")
        if kingdom.id in r.kingdoms
    ]
    next_turn = _next_turn(turn)
    return {
        "campaign": campaign,
        "turn": turn,
        "kingdom": kingdom,
        "map_png": _map_picture(turn),
        # The kingdom's own armies, drawn over the picture of the public map.
        "armies_svg": campaign_map_svg(campaign=campaign, viewer=kingdom, only_armies=True),
        "opening": opening,
        "closing": balance,
        "ledger": ledger,
        "orders": orders,
        "missed_orders": sheet is None and not kingdom.is_ancient_dead,
        "phases": phases,
        "battles": _battle_rows(battles),
        "armies": [(a, army_points(a)) for a in armies],
        "rolls": rolls,
        "next_turn": next_turn,
        "next_orders_deadline": deadline_text(next_turn.orders_deadline, campaign.time_zone) if next_turn else "",
        "next_results_deadline": deadline_text(next_turn.results_deadline, campaign.time_zone) if next_turn else "",
    }


def bulletin_context(*, turn: Turn) -> dict[str, Any]:
    """The public bulletin: the public map, provinces that changed hands, battles and results,
    kingdoms that missed their orders, news of the Ancient Dead. Nothing private."""
    campaign = turn.campaign
    kingdoms = {k.id: k for k in campaign.kingdoms.all()}
    public = list(TurnEvent.objects.filter(turn=turn, code__in=PUBLIC_EVENT_CODES).order_by("sequence"))
    ancient = {k for k, v in kingdoms.items() if v.is_ancient_dead}
    battles = list(
        Battle.objects.filter(turn=turn).select_related(
            "province", "attacker_kingdom", "attacker_army", "defender_kingdom", "defender_army"
        )
    )
    next_turn = _next_turn(turn)
    provinces = {p.number: f"{p.number} {p.name}" for p in campaign.provinces.all()}
    news = [_public_line(e, kingdoms, provinces) for e in public if e.code != "missed-orders"]
    return {
        "campaign": campaign,
        "turn": turn,
        "map_png": _map_picture(turn),
        "changes": [
            line
            for e, line in zip([e for e in public if e.code != "missed-orders"], news, strict=True)
            if e.kingdom_id not in ancient
        ],
        "missed": sorted(kingdoms[e.kingdom_id].name for e in public if e.code == "missed-orders" and e.kingdom_id),
        "ancient_dead": [
            line
            for e, line in zip([e for e in public if e.code != "missed-orders"], news, strict=True)
            if e.kingdom_id in ancient
        ]
        + [
            f"The Ancient Dead fought in {b.province}."
            for b in battles
            if ancient & {b.attacker_kingdom_id, b.defender_kingdom_id}
        ],
        "battles": _battle_rows(battles, public=True),
        "next_orders_deadline": deadline_text(next_turn.orders_deadline, campaign.time_zone) if next_turn else "",
    }


def _public_line(event: TurnEvent, kingdoms: dict[int, Kingdom], provinces: dict[int, str]) -> str:
    """An event in words every player may read: kingdoms and provinces, never armies or gold."""
    who = kingdoms[event.kingdom_id].name if event.kingdom_id in kingdoms else "A kingdom"
    where = provinces.get(event.province or 0, "a province")
    return {
        "province-claimed": f"{who} claims {where}.",
        "province-conquered": f"{who} takes {where} in battle.",
        "sacked": f"{who} sacks {where}: the settlement is destroyed.",
        "looted": f"{who} loots {where}.",
        "capitol-lost": f"{who} has lost its capitol {where}.",
        "wiped-out": f"An army of {who} is wiped out near {where}.",
        "disbanded": f"An army of {who} is disbanded.",
        "warlord-succession": f"{who} has a new Warlord.",
    }.get(event.code, f"{who}: {event.code}.")


def report_pdf(report: TurnReport) -> bytes:
    if report.kingdom_id is None:
        return pdf_render("reports/bulletin.html", bulletin_context(turn=report.turn))
    return pdf_render("reports/kingdom_report.html", kingdom_report_context(turn=report.turn, kingdom=report.kingdom))


def report_render(*, report_id: int) -> bool:
    """Render one report once: claimed (queued or failed -> rendering), rendered, stored READY.
    A report already rendering or ready is left alone. Returns whether it was rendered."""
    claimed = TurnReport.objects.filter(
        pk=report_id, status__in=[TurnReport.Status.QUEUED, TurnReport.Status.FAILED]
    ).update(status=TurnReport.Status.RENDERING)
    if not claimed:
        return False
    report = TurnReport.objects.select_related("turn__campaign", "kingdom").get(pk=report_id)
    started = time.perf_counter()
    try:
        pdf = report_pdf(report)
    except Exception as exc:
        TurnReport.objects.filter(pk=report_id).update(status=TurnReport.Status.FAILED, error=repr(exc)[:2000])
        raise
    TurnReport.objects.filter(pk=report_id).update(
        status=TurnReport.Status.READY,
        pdf=pdf,
        rendered_at=timezone.now(),
        render_seconds=time.perf_counter() - started,
        error="",
    )
    return True
