"""What a kingdom's Reconnaissance learned, as its players read it: the "Intelligence" section of its private
turn report (the turn's INTELLIGENCE events), and its intelligence page (everything learned over the
campaign, and the mission effects it holds pending). Rules decisions 450 and 471-479.

Secrecy: everything here is read from the kingdom's own events and effects (`kingdom=` the spy's): the
target's report and pages, and the bulletin, never read them; the page and its API answer the kingdom's
players and the organizer only (kingdoms.selectors.tomb_raiders_private_get), 404 to anyone else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kernel.event_codes import EventCode
from kingdoms.models import Kingdom, MissionEffect, TreasuryEntry
from rulebook.ruins_and_tomb_raiders.mission_effects import LIST_AWAITED, list_awaited_when
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.turn.aftermath.rival_missions import LISTED, effect_when
from turns.models import Turn, TurnEvent

REASONS: dict[str, str] = dict(TreasuryEntry.Reason.choices)


def _where(row: Mapping[str, Any]) -> str:
    return f"{row.get('army_name', '')}, {row.get('province', '')} {row.get('province_name', '')}".strip(", ")


def _tables(mission: str, info: Mapping[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """The information as short lines and tables ({"columns": [...], "rows": [[...]]}) to print."""
    if mission == Reconnaissance.TREASURY_INFO:
        rows = [[REASONS.get(r["reason"], r["reason"]), r["note"], r["amount"]] for r in info.get("spent", [])]
        return [f"Treasury: {info.get('treasury', 0):,} gold."], [
            {"title": "Spent this turn", "columns": ["On what", "Note", "Gold"], "rows": rows}
        ]
    if mission == Reconnaissance.CHARACTER_BIO:
        if not info.get("found"):
            return ["The character is no longer on the map."], []
        where = _where(info["where"]) if info.get("where") else "not with an army"
        lines = [
            f"{info['name']}: {info['role']}{', ' + info['rank'] if info.get('rank') else ''}"
            f"{', ' + info['archetype'] if info.get('archetype') else ''}; {where}.",
            f"Items: {', '.join(info.get('items', [])) or 'none'}.",
            f"Abilities: {', '.join(info.get('abilities', [])) or 'none'}.",
            f"Injuries: {'; '.join(i['label'] for i in info.get('injuries', [])) or 'none'}.",
        ]
        if info.get("wizard_level"):
            lines.insert(1, f"Wizard, level {info['wizard_level']}.")
        return lines, []
    if mission in (Reconnaissance.ARMY_STATISTICS, Reconnaissance.ARMY_CONSTRUCTION_INFO):
        return _army_tables(info)
    if mission == Reconnaissance.ARTILLERY_INFO:
        rows = [[m["type"], m["number"], _where(m)] for m in info.get("machines", [])]
        return [f"{info.get('total', 0)} artillery pieces and war machines."], [
            {"title": "Artillery and war machines", "columns": ["Type", "Number", "Where"], "rows": rows}
        ]
    if mission == Reconnaissance.MAGIC_COLLEGE_RAID:
        rows = [[m["name"], m["level"], _where(m)] for m in info.get("mages", [])]
        return [f"{info.get('count', 0)} mage{'s' if info.get('count') != 1 else ''}."], [
            {"title": "Mages", "columns": ["Mage", "Level", "Where"], "rows": rows}
        ]
    # Army Orders: the event's own words say the army, where it stands and its order (decision 482).
    return [], []


def _army_tables(info: Mapping[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """Army Statistics and Army Construction Info: where the army stands and its list, no character info;
    while its list is due, its points and that the list follows once written (decisions 488, 562)."""
    if not info.get("found"):
        return ["The army is no longer on the map; there is no list to deliver."], []
    lines = [f"{_where(info)}: {info['points']:,} points (no character info)."]
    if info.get("list_due"):
        return [*lines, "Its list is not entered yet: it follows at the first resolution after it is written."], []
    rows = [
        [
            u["name"],
            u["category"],
            u["models"],
            u.get("points_per_model", ""),
            u.get("equipment_points", ""),
            u.get("veteran_level", ""),
            ", ".join(f"{i['name']} ({i['points']})" for i in u.get("items", [])) or "-",
            u["points"],
        ]
        for u in info.get("units", [])
    ]
    columns = [
        "Unit", "Category", "Models", "Points a model", "Command and equipment", "Veteran level", "Magic items",
        "Points",
    ]  # fmt: skip
    return lines, [{"title": "Army list", "columns": columns, "rows": rows}]


def intelligence_item(event: TurnEvent) -> dict[str, Any]:
    """One INTELLIGENCE event as the report and the page print it."""
    data = event.data or {}
    mission = str(data.get("mission", ""))
    lines, tables = _tables(mission, data.get("info") or {})
    return {
        "turn": data.get("turn"),
        "mission": mission,
        "label": data.get("label") or (LISTED[mission].label if mission in LISTED else mission),
        "target": data.get("target"),
        "target_name": data.get("target_name", ""),
        "text": event.text,
        "lines": lines,
        "tables": tables,
        "info": data.get("info") or {},
    }


def _items(events: Iterable[TurnEvent]) -> list[dict[str, Any]]:
    return [intelligence_item(e) for e in events]


def report_intelligence(*, turn: Turn, kingdom: Kingdom) -> list[dict[str, Any]]:
    """The "Intelligence" section of the kingdom's report of `turn`: what its Reconnaissance learned in it."""
    events = TurnEvent.objects.filter(turn=turn, kingdom=kingdom, code=EventCode.INTELLIGENCE).order_by("sequence")
    return _items(events)


def pending_effects(kingdom: Kingdom) -> list[dict[str, Any]]:
    """The kingdom's mission effects still pending (decision 450), each with when it takes effect."""
    rows = (
        MissionEffect.objects.filter(kingdom=kingdom, status=MissionEffect.Status.PENDING)
        .select_related("target", "target_army")
        .order_by("earned_turn", "id")
    )
    return [
        {
            "id": row.id,
            "mission": row.mission,
            "label": LISTED[row.mission].label if row.mission in LISTED else row.mission,
            "target": row.target_id,
            "target_name": row.target.name,
            "target_army": row.target_army.name if row.target_army else "",
            "earned_turn": row.earned_turn,
            "expires_turn": row.expires_turn,
            "when": (
                list_awaited_when(row.target.name)
                if row.data.get(LIST_AWAITED)
                else effect_when(row.mission, row.target.name, row.earned_turn)
            ),
        }
        for row in rows
    ]


def intelligence_page(kingdom: Kingdom) -> dict[str, Any]:
    """Everything the kingdom learned over the campaign, newest first, and its pending effects."""
    events = TurnEvent.objects.filter(
        turn__campaign=kingdom.campaign, kingdom=kingdom, code=EventCode.INTELLIGENCE
    ).order_by("-turn__number", "sequence")
    return {"learned": _items(events), "pending": pending_effects(kingdom)}
