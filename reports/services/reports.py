"""Turn reports: a private PDF per kingdom and the public bulletin, rendered from the stored state
and events (never by re-running rules), and the public map of every turn kept for the history.

Appendix, Campaign Schedule: "Turn results and map will be posted via email".
"""

from __future__ import annotations

import base64
import datetime as dt
import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet, Sum
from django.utils import timezone

from battles.models import Battle
from battles.services.scenarios import scenario_sheet_pdf
from battles.services.summaries import final_result_text, ruling_line, side_name, stand_ins_text
from briternia.errors import DomainError
from briternia.pdf import pdf_render, svg_to_png
from briternia.queue import task_enqueue_after_commit
from kernel.event_codes import PUBLIC_EVENT_CODES, EventCode
from kingdoms.models import Army, Character, ExperienceEntry, Kingdom, TreasuryEntry
from kingdoms.people import display_name
from kingdoms.selectors import army_counted_points, army_list_is_due, campaign_army_overlays, campaign_map_svg
from kingdoms.services.bulk_rows import records_insert
from orders.entries import sheet_from_json
from orders.models import OrderSheet
from orders.services.describe import describe_orders
from orders.services.sheets import standing_submission
from rulebook.allies.chart import TrustLevel
from rulebook.archetypes.character_record import character_record
from rulebook.campaign_schedule import deadline_text, moment_text
from turns.models import DiceRoll, Turn, TurnEvent

from ..models import TurnMap, TurnReport
from ..turn_map import turn_battle_markers, turn_move_arrows
from .intelligence import report_intelligence
from .tomb_raiders import mission_lines, ruins_raided_lines, tomb_raider_rows

# A queued report older than this lost its task; one rendering longer than this lost its worker.
REPORT_LOST_AFTER = dt.timedelta(minutes=5)
REPORT_STUCK_AFTER = dt.timedelta(minutes=10)
ORDER_OUTCOME_PHASES = ("orders", "battles")
ALLIANCE_CODES = (EventCode.ALLIANCE_FORMED, EventCode.ALLIANCE_BROKEN, EventCode.ALLIANCE_CANCELLED)
HOW_BROKEN = {
    "announcement": "by announcement",
    "invasion": "by invasion",
    "raze": "by razing an allied province",
    "withdrawal": "by withdrawing its support in battle",
}
PHASE_TITLES = {
    "tally-gold": "1. Tally Gold",
    "alliances": "Allies",
    "independence": "Joint kingdoms",
    "transfers": "Transfer of Gold",
    "deliveries": "Arrivals",
    "maintain-armies": "2. Maintain Armies",
    "create-upgrade-armies": "3. Create / Upgrade Armies",
    "orders": "4-5. Orders",
    "battles": "6. Battles",
    "aftermath": "7. Aftermath",
    "capitol": "Loss of the Capitol",
    "tomb-raiders": "Tomb Raiders",
    "land": "Land Sales",
    "ancient-dead": "The Ancient Dead",
    "retirement": "Retired characters (Character Injury Chart)",
    "organizer": "The organizer",
}


def phase_title(phase: str) -> str:
    """A phase of the turn as the report heads it: its rulebook title ("ancient-dead" never shows)."""
    return PHASE_TITLES.get(phase) or phase.replace("-", " ").capitalize()


def _active_armies() -> QuerySet[Army]:
    return (
        Army.objects.filter(status=Army.Status.ACTIVE)
        .select_related("province")
        .prefetch_related("units__items")
        .order_by("kind", "id")
    )


def _army_row(army: Army) -> dict[str, Any]:
    """An army as the report lists it (and keeps it, in the report's snapshot)."""
    return {
        "id": army.id,
        "name": army.name,
        "garrison": army.kind == Army.Kind.GARRISON,
        "province": str(army.province) if army.province else "",
        # What it counts as: its list's points, or while its list is due the points paid for it.
        "points": army_counted_points(army),
        "experience": army.experience,
        "list_due": army.kind == Army.Kind.FIELD and army_list_is_due(army),
    }


def _living_characters() -> QuerySet[Character]:
    return Character.objects.filter(alive=True).select_related("unit__army").order_by("unit__army_id", "id")


def _character_rows(characters: Iterable[Character]) -> list[dict[str, Any]]:
    """A kingdom's living characters as its private report lists them (and keeps them, in the
    report's snapshot): name, role, archetype, abilities and injuries (Characters; Injuries)."""
    return [
        {
            "name": c.unit.name,
            "army": c.unit.army.name,
            # "Warlord (Lord)", "General (Hero)"; a Hero once ("Hero", never "Hero (Hero)").
            "role": c.get_role_display()
            if c.get_role_display() == c.get_rank_display()
            else f"{c.get_role_display()} ({c.get_rank_display()})",
            "archetype": c.get_archetype_display(),
            "abilities": list(c.abilities),
            "battles_survived": c.battles_survived,
            # His injuries in words (the army page's record), then what they mean for his next battle.
            "injuries": [*(record := character_record(c.injuries)).injuries, *record.standing],
        }
        for c in characters
    ]


def _with_experience_of_the_turn(armies: list[dict[str, Any]], *, turn: int) -> list[dict[str, Any]]:
    """Each army's experience earned and spent this turn, from its ledger rows of the turn (battles,
    stories, purchases, corrections), beside the balance the turn left it with."""
    earned: dict[int, int] = defaultdict(int)
    spent: dict[int, int] = defaultdict(int)
    for army_id, amount in ExperienceEntry.objects.filter(army_id__in=[a["id"] for a in armies], turn=turn).values_list(
        "army_id", "amount"
    ):
        if amount > 0:
            earned[army_id] += amount
        else:
            spent[army_id] -= amount
    return [{**a, "experience_earned": earned[a["id"]], "experience_spent": spent[a["id"]]} for a in armies]


def turn_reports_create(*, turn: Turn) -> None:
    """The turn is over (called in the aftermath's transaction, so nothing of the next turn is
    in yet): keep the turn's public map with its battles, and queue a report per kingdom, holding
    what the next turn will change (the kingdom's armies and its moves of the turn, listed and
    drawn: rules decision 340), and the bulletin. Made once."""
    campaign = turn.campaign
    if not TurnMap.objects.filter(turn=turn).exists():
        # The picture for the PDFs is drawn after the commit (turn_reports_start): it takes seconds.
        svg = campaign_map_svg(campaign=campaign, turn=turn.number, battles=turn_battle_markers(turn))
        TurnMap.objects.create(turn=turn, svg=svg)
    existing = set(TurnReport.objects.filter(turn=turn).values_list("kind", "kingdom_id"))
    overlays = campaign_army_overlays(campaign=campaign, turn=turn.number, arrows=turn_move_arrows(turn, kingdom=None))
    armies: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for army in _active_armies().filter(kingdom__campaign=campaign):
        armies[army.kingdom_id].append(_army_row(army))
    characters: dict[int, list[Character]] = defaultdict(list)
    for character in _living_characters().filter(kingdom__campaign=campaign):
        characters[character.kingdom_id].append(character)
    rows = []
    if (TurnReport.Kind.BULLETIN, None) not in existing:
        rows.append(TurnReport(turn=turn, kind=TurnReport.Kind.BULLETIN))
    for kingdom in campaign.kingdoms.order_by("id"):
        if (TurnReport.Kind.KINGDOM, kingdom.id) not in existing:
            snapshot = {
                "armies": armies[kingdom.id],
                "armies_svg": overlays[kingdom.id],
                "characters": _character_rows(characters[kingdom.id]),
                # The force as the turn left it (the aftermath's Recovery changed it): the next turn's
                # changes are not this report's.
                "tomb_raiders": tomb_raider_rows(kingdom),
            }
            rows.append(TurnReport(turn=turn, kind=TurnReport.Kind.KINGDOM, kingdom=kingdom, snapshot=snapshot))
    TurnReport.objects.bulk_create(rows)


def battle_scenario_reports_create(*, turn: Turn, battles: list[Battle]) -> None:
    """The battles are posted (called in the resolution's transaction): a queued scenario sheet
    per battle, delivered like every report."""
    # One statement, no model instance per sheet (bulk_rows.records_insert); a battle's sheet queued
    # already stays as it is.
    records_insert(
        TurnReport,
        [{"turn_id": turn.pk, "kind": TurnReport.Kind.SCENARIO, "battle_id": battle.pk} for battle in battles],
        ignore_conflicts=True,
    )


def turn_map_picture_draw(*, turn: Turn) -> None:
    """Draw the turn's public map as a picture, once (WeasyPrint and PDFium: seconds for a big map,
    so never inside a transaction and never once per report)."""
    turn_map = TurnMap.objects.filter(turn=turn, png__isnull=True).first()
    if turn_map is not None:
        TurnMap.objects.filter(pk=turn_map.pk, png__isnull=True).update(png=svg_to_png(turn_map.svg))


def reports_to_render(*, turn: Turn) -> list[int]:
    return list(
        TurnReport.objects.filter(turn=turn, status=TurnReport.Status.QUEUED)
        .order_by("kind", "kingdom_id", "battle_id")
        .values_list("id", flat=True)
    )


def _map_picture(turn: Turn) -> str:
    """The turn's public map as a base64 PNG: drawn once per turn (turn_map_picture_draw, here
    too if a render comes first), never once per report."""
    turn_map_picture_draw(turn=turn)
    turn_map = TurnMap.objects.filter(turn=turn).first()
    if turn_map is not None and turn_map.png:
        png = bytes(turn_map.png)
    else:  # a turn without a stored map (one that has not ended): the map as it stands
        # No battle markers: before the bulletin a turn's battles are their own kingdoms' business.
        png = svg_to_png(campaign_map_svg(campaign=turn.campaign, turn=turn.number))
    return base64.b64encode(png).decode("ascii")


def _next_turn(turn: Turn) -> Turn | None:
    return Turn.objects.filter(campaign=turn.campaign, number=turn.number + 1).first()


def _battle_rows(battles: list[Battle], *, public: bool = False) -> list[dict[str, Any]]:
    """The battles in a table; in public (the bulletin) the sides are kingdoms, not armies."""

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
                "result": final_result_text(b) or "not reported",
                "victor": {"attacker": name(b, "attacker"), "defender": name(b, "defender")}.get(b.victor, "nobody"),
                # The Campaign Must Go On: who played it for an absent player (decision 223); and the
                # organizer's ruling with its note, when the sheets did not settle it (issue 37).
                "stand_ins": stand_ins_text(b) + ([ruling_line(b)] if b.ruling_result else []),
            }
        )
    return rows


def kingdom_report_context(*, turn: Turn, kingdom: Kingdom, snapshot: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the kingdom's private report shows, read from the stored rows of the turn.
    `snapshot`: the kingdom's armies as the turn left them (kept on the report when the turn
    ended); without it, the armies as they stand now."""

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
    phases = [(phase_title(p), rows) for p, rows in by_phase.items()]
    sheet = OrderSheet.objects.filter(turn=turn, kingdom=kingdom, status=OrderSheet.Status.SUBMITTED).first()
    # The orders that resolved: the standing submission, never a draft saved after it.
    submission = standing_submission(sheet) if sheet else None
    # Where each army stood when the orders were given: before it moved, or retreated.
    positions: dict[int, int] = {}
    for e in events:
        if (
            e.army_id
            and e.code in (EventCode.MOVED, EventCode.RETREATED)
            and e.army_id not in positions
            and "from" in e.data
        ):
            positions[e.army_id] = int(e.data["from"])
    described = describe_orders(
        kingdom=kingdom,
        entries=submission.entries if submission else {},
        positions=positions,
        # The armies of the turn: those it ended with, and those with events (disbanded ones too).
        armies_of_the_turn=None
        if snapshot is None
        else {a["id"] for a in snapshot["armies"]} | {e.army_id for e in events if e.army_id},
    )
    # What became of each army's order: its events of 4-5. Orders and 6. Battles (a failed
    # order's event says why).
    outcomes: dict[int, list[str]] = defaultdict(list)
    for e in events:
        if e.army_id and e.phase in ORDER_OUTCOME_PHASES:
            outcomes[e.army_id].append(e.text)
    orders = [
        {"order": line, "outcome": outcomes.get(army_id) or ["Carried out: nothing stood in its way."]}
        for army_id, line in described["orders"]
    ]
    battles = [
        b
        for b in Battle.objects.filter(turn=turn)
        .select_related("province", "attacker_kingdom", "attacker_army", "defender_kingdom", "defender_army")
        .prefetch_related("supports", "summary_sheets")
        if b.involves(kingdom.id)
    ]
    if snapshot is None:
        armies = [_army_row(a) for a in _active_armies().filter(kingdom=kingdom)]
        armies_svg = campaign_map_svg(
            campaign=campaign,
            viewer=kingdom,
            only_armies=True,
            turn=turn.number,
            arrows=turn_move_arrows(turn, kingdom=kingdom),
        )
    else:
        armies, armies_svg = snapshot["armies"], snapshot["armies_svg"]
    armies = _with_experience_of_the_turn(armies, turn=turn.number)
    # The roster as the turn left it; a report kept before the roster was (no "characters" key)
    # lists it as it stands now.
    characters = (
        snapshot["characters"]
        if snapshot and "characters" in snapshot
        else _character_rows(_living_characters().filter(kingdom=kingdom))
    )
    # Tomb Raiders: the force (kept with the report; one kept before the force was: as it stands now)
    # and its mission on the sheet that resolved. Only this kingdom's: never another's (Tomb Raiders:
    # "stealth and secrecy").
    tomb_raiders = snapshot["tomb_raiders"] if snapshot and "tomb_raiders" in snapshot else tomb_raider_rows(kingdom)
    missions = mission_lines(
        sheet_from_json(submission.entries).missions if submission else (),
        provinces={p.number: str(p) for p in campaign.provinces.filter(settlement="ruins")},
        raids=[b for b in battles if b.mission],
        kingdom=kingdom,
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
        "armies_svg": armies_svg,
        "opening": opening,
        "closing": balance,
        "ledger": ledger,
        "orders": orders,
        "kingdom_orders": described["kingdom"],
        "missed_orders": sheet is None and not kingdom.is_ancient_dead,
        "orders_received": moment_text(submission.submitted_at, campaign.time_zone) if submission else "",
        # The name the players see, never a login that may be an address (issue 18, point 2).
        "orders_received_by": display_name(submission.submitted_by) if submission and submission.submitted_by else "",
        "phases": phases,
        "battles": _battle_rows(battles),
        "armies": armies,
        "characters": characters,
        "tomb_raiders": tomb_raiders,
        "missions": missions,
        # Reconnaissance: what this kingdom's raiders learned this turn, its own events only.
        "intelligence": report_intelligence(turn=turn, kingdom=kingdom),
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
    public = [
        e
        for e in TurnEvent.objects.filter(turn=turn, code__in=PUBLIC_EVENT_CODES).order_by("sequence")
        # An alliance's events come one per ally: the bulletin tells it once (the first kingdom's).
        if e.code not in ALLIANCE_CODES or (e.kingdom_id or 0) < int(e.data.get("ally") or 0)
        # A land deal's events come one per side too: told once, from the first kingdom's.
        if e.code != EventCode.LAND_DEAL or (e.kingdom_id or 0) < int(e.data.get("with") or 0)
    ]
    ancient = {k for k, v in kingdoms.items() if v.is_ancient_dead}
    every_battle = list(
        Battle.objects.filter(turn=turn)
        .select_related("province", "attacker_kingdom", "attacker_army", "defender_kingdom", "defender_army")
        .prefetch_related("summary_sheets")
    )
    # A Tomb Raiders' mission is secret (decision 442): not a battle of the bulletin; a ruin raided
    # successfully is told, not by whom nor what was found.
    battles = [b for b in every_battle if not b.mission]
    raided = ruins_raided_lines(every_battle)
    next_turn = _next_turn(turn)
    provinces = {p.number: f"{p.number} {p.name}" for p in campaign.provinces.all()}
    news = [_public_line(e, kingdoms, provinces) for e in public if e.code != EventCode.MISSED_ORDERS]
    return {
        "campaign": campaign,
        "turn": turn,
        "map_png": _map_picture(turn),
        "changes": [
            line
            for e, line in zip([e for e in public if e.code != EventCode.MISSED_ORDERS], news, strict=True)
            if e.kingdom_id not in ancient
        ]
        + raided,
        "missed": sorted(
            kingdoms[e.kingdom_id].name for e in public if e.code == EventCode.MISSED_ORDERS and e.kingdom_id
        ),
        "ancient_dead": [
            line
            for e, line in zip([e for e in public if e.code != EventCode.MISSED_ORDERS], news, strict=True)
            if e.kingdom_id in ancient
        ]
        + [
            f"The Ancient Dead fought in {b.province}."
            for b in battles
            if ancient & {b.attacker_kingdom_id, b.defender_kingdom_id}
        ],
        "battles": _battle_rows(battles, public=True),
        "stories": bulletin_stories(every_battle, kingdoms),
        "next_orders_deadline": deadline_text(next_turn.orders_deadline, campaign.time_zone) if next_turn else "",
    }


def bulletin_stories(battles: list[Battle], kingdoms: dict[int, Kingdom]) -> list[dict[str, str]]:
    """Stories Are Nice: the battle reports the players wrote on their submitted turn summary
    sheets, for every player, except those the player kept private (their kingdom and the
    organizer read them on the sheet)."""
    stories = []
    for battle in sorted(battles, key=lambda b: (b.province.number, b.id)):
        for sheet in sorted(battle.summary_sheets.all(), key=lambda s: s.kingdom_id):
            if sheet.status != sheet.Status.SUBMITTED or sheet.story_private or not sheet.story.strip():
                continue
            stories.append(
                {
                    "kingdom": kingdoms[sheet.kingdom_id].name,
                    "province": str(battle.province),
                    "text": sheet.story.strip(),
                }
            )
    return stories


def _public_line(event: TurnEvent, kingdoms: dict[int, Kingdom], provinces: dict[int, str]) -> str:
    """An event in words every player may read: kingdoms and provinces, never armies or gold."""
    who = kingdoms[event.kingdom_id].name if event.kingdom_id in kingdoms else "A kingdom"
    where = provinces.get(event.province or 0, "a province")
    ally = kingdoms[int(event.data["ally"])].name if int(event.data.get("ally") or 0) in kingdoms else "a kingdom"
    if event.code == EventCode.LAND_DEAL:
        other = kingdoms[int(event.data["with"])].name if int(event.data.get("with") or 0) in kingdoms else "a kingdom"
        return f"{who} and {other} make a land deal: provinces change hands (Land Sales)."
    if event.code == EventCode.ALLIANCE_FORMED:
        return f"{who} and {ally} are allies ({TrustLevel(event.data['trust']).label})."
    if event.code == EventCode.ALLIANCE_CANCELLED:
        return f"{who} and {ally} cancel their alliance."
    if event.code == EventCode.KINGDOM_INDEPENDENT:
        parent = kingdoms.get(int(event.data.get("from_kingdom") or 0))
        return f"{who} declares independence from {parent.name if parent else 'its parent kingdom'} (Joint kingdoms)."
    if event.code == EventCode.ALLIANCE_BROKEN:
        breaker = kingdoms.get(int(event.data.get("broken_by") or 0))
        betrayed = ally if breaker is not None and breaker.id == event.kingdom_id else who
        how = HOW_BROKEN.get(event.data.get("how", ""), "")
        return f"{breaker.name if breaker else who} breaks its alliance with {betrayed} {how}.".replace("  ", " ")
    return {
        EventCode.PROVINCE_CLAIMED: f"{who} claims {where}.",
        EventCode.PROVINCE_CONQUERED: f"{who} takes {where} in battle.",
        EventCode.SACKED: f"{who} sacks {where}: the settlement is destroyed.",
        EventCode.LOOTED: f"{who} loots {where}.",
        EventCode.CAPITOL_LOST: f"{who} has lost its capitol {where}.",
        EventCode.WIPED_OUT: f"An army of {who} is wiped out near {where}.",
        EventCode.DISBANDED: f"An army of {who} is disbanded.",
        EventCode.ARMY_DISBANDED: f"An army of {who} is disbanded.",
        EventCode.WARLORD_SUCCESSION: f"{who} has a new Warlord.",
        EventCode.ANCIENT_DEAD_RISEN: f"An army of the Ancient Dead rises from the desert of {where}.",
        EventCode.INCANTATION: f"The Liche Priests turn {where} to plains: it will be desert next turn if they stay.",
        EventCode.DESERT_SPREAD: f"The Ancient Dead turn {where} to desert.",
        EventCode.DESERT_RUINS: f"The settlement of {where} is swallowed by the desert: sacked, it is now ruins.",
        EventCode.DESERT_REVERSED: f"{who} turns the desert of {where} back to plains with a Scarab Amulet.",
        EventCode.ROGUE_KINGDOM: f"{who} has lost its leader: it is now a Rogue Kingdom, wracked by civil war.",
        EventCode.NEW_PLAYER: f"{who} has a new leader: the civil war is over and it is a kingdom again.",
        EventCode.CIVIL_UNREST: f"Civil Unrest in {where}, newly acquired by {who}.",
        EventCode.CAPITOL_MOVED: f"{who} moves its capitol to {where}.",
        EventCode.CORONATION: f"The Warlord of {who} is crowned in {where}: its new capitol.",
        EventCode.PLAYER_OUT: f"{who} did not crown its Warlord within three turns of losing its capitol: its "
        "player is out and it is now a Rogue Kingdom.",
        EventCode.RETURN_TO_THE_TOMB: f"The pyramid {where} has fallen and the Warlord of the Ancient Dead is laid "
        "to rest: the Ancient Dead return to the tomb and advance no more. The campaign goes on.",
    }.get(event.code, f"{who}: {event.code}.")


def report_pdf(report: TurnReport) -> bytes:
    if report.is_scenario:
        return scenario_sheet_pdf(report.battle)
    if report.is_bulletin:
        return pdf_render("reports/bulletin.html", bulletin_context(turn=report.turn))
    return pdf_render(
        "reports/kingdom_report.html",
        kingdom_report_context(turn=report.turn, kingdom=report.kingdom, snapshot=report.snapshot or None),
    )


def report_render(*, report_id: int) -> bool:
    """Render one report once: claimed (queued -> rendering), rendered, stored READY (or FAILED
    with the error, for the organizer). A report rendering or ready is left alone. Returns
    whether it was rendered."""
    claimed = TurnReport.objects.filter(pk=report_id, status=TurnReport.Status.QUEUED).update(
        status=TurnReport.Status.RENDERING, render_started_at=timezone.now()
    )
    if not claimed:
        return False
    report = TurnReport.objects.select_related("turn__campaign", "kingdom", "battle").get(pk=report_id)
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


def report_render_again(*, report: TurnReport, now: dt.datetime) -> None:
    """The organizer's one click: a report that failed (or is stuck rendering) is queued again."""
    from ..tasks import report_render_task

    stuck = (
        report.status == TurnReport.Status.RENDERING
        and report.render_started_at is not None
        and now - report.render_started_at > REPORT_STUCK_AFTER
    )
    if report.status != TurnReport.Status.FAILED and not stuck:
        raise DomainError(f"{report.title} is {report.get_status_display().lower()}: there is nothing to render again.")
    TurnReport.objects.filter(pk=report.pk, status=report.status).update(status=TurnReport.Status.QUEUED, error="")
    report_id = report.pk
    task_enqueue_after_commit(report_render_task, report_id=report_id)  # broker down: the sweep takes it up


def reports_lost(*, now: dt.datetime) -> dict[str, list[int]]:
    """What the deadline sweep picks up again after a crash: reports queued whose task was lost,
    reports stuck rendering (their worker died: queued again), and reports rendered whose
    emails were never queued."""
    stuck = TurnReport.objects.filter(
        status=TurnReport.Status.RENDERING, render_started_at__lte=now - REPORT_STUCK_AFTER
    )
    stuck_ids = list(stuck.values_list("id", flat=True))
    TurnReport.objects.filter(pk__in=stuck_ids, status=TurnReport.Status.RENDERING).update(
        status=TurnReport.Status.QUEUED
    )
    queued = TurnReport.objects.filter(status=TurnReport.Status.QUEUED, created_at__lte=now - REPORT_LOST_AFTER)
    unsent = TurnReport.objects.filter(
        status=TurnReport.Status.READY, emails_queued_at__isnull=True, rendered_at__lte=now - REPORT_LOST_AFTER
    )
    return {
        "render": sorted(set(queued.values_list("id", flat=True)) | set(stuck_ids)),
        "email": list(unsent.values_list("id", flat=True)),
    }
