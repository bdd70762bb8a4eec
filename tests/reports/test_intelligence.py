"""What a Reconnaissance learned, everywhere a player looks (issue 32): the aftermath of a Treasury Info
skirmish through the site delivers the target's treasury and the turn's spending to the spy's report (its
PDF's "Intelligence"), its intelligence page and API; the target's report says raiders came and how the
skirmish went, never what was learned; a third kingdom reads nothing; the pages answer 404 to anyone but
the spy's players and the organizer. A Theft moves the gold in both ledgers.
Rulebook: Reconnaissance, Sabotage. Rule cases RS1 and RS3; decisions 450, 470-479.

The skirmish's Battle row is built as the scheduling posts it (a skirmish, mission "reconnaissance" or
"sabotage", no armies, `mission_detail` as sent), and its result settled by the organizer's ruling (the
spy's sheet reads the same way on the ladder, decision 470): the seam the other parts write."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.db.models import Sum
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from battles.models import Battle
from briternia.pdf import pdf_render
from kernel.event_codes import EventCode
from kingdoms.models import Kingdom, MissionEffect, TreasuryEntry
from orders.entries import sheet_to_json
from orders.models import OrderSheet, OrderSubmission
from reports.services.intelligence import intelligence_item
from reports.services.reports import bulletin_context, kingdom_report_context
from rulebook.turn.write_orders.records import SheetEntries, TombRaiderMission
from tests.clients import user_named
from turns.models import Turn, TurnEvent
from turns.services.cycle import aftermath_phase_run

pytestmark = pytest.mark.django_db


def flat(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


def report_text(turn: Turn, kingdom: Kingdom) -> str:
    return flat(pdf_render("reports/kingdom_report.html", kingdom_report_context(turn=turn, kingdom=kingdom)))


def _gold(kingdom: Kingdom) -> int:
    return TreasuryEntry.objects.filter(kingdom=kingdom).aggregate(total=Sum("amount"))["total"] or 0


def _mission(turn: Turn, spy: Kingdom, target: Kingdom, kind: str, desired: str, result: str, **detail) -> Battle:
    """The skirmish of `spy`'s raiders in `target`'s capitol, settled at `result` (read from the spy's side)."""
    Turn.objects.filter(pk=turn.pk).update(
        status=Turn.Status.BATTLES, results_deadline=timezone.now() + dt.timedelta(days=3)
    )
    return Battle.objects.create(
        turn=turn,
        province=target.capitol,
        attacker_kingdom=spy,
        defender_kingdom=target,
        skirmish=True,
        mission=kind,
        mission_detail={"desired": desired, "defender": "guard", **detail},
        garrison_points=150,
        ruling_result=result,
    )


def test_case_RS1_treasury_info_reaches_the_spys_report_and_pages_only(turn, k, api_client_for) -> None:
    """Reconnaissance, 2. Treasury Info: "The current funds in the Treasury and the money spent and on what
    this last turn." Ostland's raiders succeed against Karak Dumn, who spent 340 gold this turn on an
    upgrade: Ostland's report shows Karak Dumn's treasury and that spending; Karak Dumn's report says
    raiders came, not what they learned; Da Red Fang's report, and the bulletin, say nothing."""
    ostland, karak, fang = k["Ostland"], k["Karak Dumn"], k["Da Red Fang"]
    TreasuryEntry.objects.create(kingdom=karak, turn=turn.number, amount=-340, reason="army-upgraded", note="Hold")
    treasury = _gold(karak)
    mission = TombRaiderMission("reconnaissance", target_kingdom=karak.pk, desired="treasury-info")
    entries = sheet_to_json(SheetEntries(missions=(mission,)))
    sheet = OrderSheet.objects.create(turn=turn, kingdom=ostland, status=OrderSheet.Status.SUBMITTED, entries=entries)
    OrderSubmission.objects.create(sheet=sheet, submitted_by=user_named("alice"), entries=entries)
    _mission(turn, ostland, karak, "reconnaissance", "treasury-info", "minor-victory")

    assert aftermath_phase_run(turn_id=turn.pk).resolved

    (intel,) = TurnEvent.objects.filter(turn=turn, code=EventCode.INTELLIGENCE)
    assert intel.kingdom_id == ostland.pk and intel.data["info"]["treasury"] == treasury
    spy = report_text(turn, ostland)
    assert "Intelligence" in spy and "Treasury Info: Karak Dumn" in spy
    assert f"Treasury: {treasury:,} gold." in spy and "Army upgraded Hold 340" in spy
    (line,) = kingdom_report_context(turn=turn, kingdom=ostland)["missions"]
    assert line["outcome"].startswith("Success: what it earned is under What happened")
    target = report_text(turn, karak)
    assert "Ostland's Tomb Raiders came to" in target and "they won the skirmish and got away" in target
    assert "Intelligence" not in target and "Treasury Info" not in target
    third = report_text(turn, fang)
    assert "Intelligence" not in third and "Karak Dumn" not in third.split("Battles")[0]
    # The bulletin tells nothing of it: no battle, and no "ruins raided" line for a won skirmish.
    bulletin = bulletin_context(turn=turn)
    assert not [line for line in bulletin["changes"] if "raided" in line]
    assert all(not b["battle"].mission for b in bulletin["battles"])
    assert "Treasury Info" not in flat(pdf_render("reports/bulletin.html", bulletin))

    # The spy's page and API list it; the target's players and another kingdom's get 404 on the spy's.
    alice, carol, bob = user_named("alice"), user_named("carol"), user_named("bob")
    client = Client()
    client.force_login(alice)
    page = client.get(f"/kingdoms/{ostland.pk}/intelligence/").content.decode()
    assert "Treasury Info: Karak Dumn" in page and f"Treasury: {treasury:,} gold." in page
    got = api_client_for(alice).get(f"/api/kingdoms/{ostland.pk}/intelligence/").json()
    assert got["learned"][0]["mission"] == "treasury-info" and got["learned"][0]["info"]["treasury"] == treasury
    for user in (carol, bob):
        assert api_client_for(user).get(f"/api/kingdoms/{ostland.pk}/intelligence/").status_code == 404
        other = Client()
        other.force_login(user)
        assert other.get(f"/kingdoms/{ostland.pk}/intelligence/").status_code == 404
    # The target's own page has learned nothing of it.
    assert api_client_for(carol).get(f"/api/kingdoms/{karak.pk}/intelligence/").json()["learned"] == []


def test_case_RS3_theft_moves_the_gold_in_both_ledgers(turn, k) -> None:
    """Sabotage, 1. Theft: 150, 200 or 250 gold out of the target's treasury into the saboteur's, a THEFT row
    in each ledger (the aftermath's seeded die decides which)."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    before = _gold(ostland), _gold(karak)
    _mission(turn, ostland, karak, "sabotage", "theft", "minor-victory")

    assert aftermath_phase_run(turn_id=turn.pk).resolved

    stolen = TreasuryEntry.objects.get(kingdom=ostland, reason="theft").amount
    assert stolen in (150, 200, 250)
    assert TreasuryEntry.objects.get(kingdom=karak, reason="theft").amount == -stolen
    assert (_gold(ostland), _gold(karak)) == (before[0] + stolen, before[1] - stolen)
    assert "Theft" in report_text(turn, karak)


def test_a_pending_effect_is_written_and_listed_on_the_spys_page(turn, k, api_client_for) -> None:
    """Decision 450: a Misdirection earned is kept pending, the army named, on the saboteur's page only."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    army = karak.armies.order_by("id").first()
    _mission(turn, ostland, karak, "sabotage", "misdirection", "minor-victory", target_army=army.pk)

    assert aftermath_phase_run(turn_id=turn.pk).resolved

    (effect,) = MissionEffect.objects.all()
    assert (effect.kingdom, effect.target, effect.mission, effect.target_army_id, effect.status) == (
        ostland, karak, "misdirection", army.pk, "pending",
    )  # fmt: skip
    (pending,) = api_client_for(user_named("alice")).get(f"/api/kingdoms/{ostland.pk}/intelligence/").json()["pending"]
    assert pending["label"] == "Misdirection" and "revert to Hold" in pending["when"]
    assert api_client_for(user_named("carol")).get(f"/api/kingdoms/{karak.pk}/intelligence/").json()["pending"] == []


def test_army_orders_intelligence_prints_the_order_and_no_mage_count() -> None:
    """Reconnaissance, Army Orders: "The orders given to any one army" (decision 482): what the spy reads is
    the army and its order, as the event says it; no table of another mission's (it was printed as a
    Magic College Raid: "0 mages.")."""
    text = "Army Orders of Da Red Fang: Boyz in 60 Greymoor is ordered to move into 61 Ashfen (Reconnaissance)."
    event = TurnEvent(
        code=EventCode.INTELLIGENCE,
        text=text,
        data={
            "mission": "army-orders",
            "effect": 1,
            "target_army": 7,
            "info": {"army_name": "Boyz", "province": 60, "order": "move", "to": 61, "path": [], "supports": None},
        },
    )
    item = intelligence_item(event)
    assert item["label"] == "Army Orders"
    assert item["text"] == text
    assert (item["lines"], item["tables"]) == ([], [])


def test_the_report_s_pointers_name_the_section_that_tells_it_above_or_below(turn, k) -> None:
    """Reconnaissance: the spy's report points at where the mission's result is told: its order (For the
    kingdom) at What happened and Your Tomb Raiders, both below it; the mission's row (Your Tomb Raiders)
    at What happened, above it, and at Intelligence, below it. No pointer names a section that is not in
    the report (there is no "3. Create / Upgrade Armies" step this turn)."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    mission = TombRaiderMission("reconnaissance", target_kingdom=karak.pk, desired="treasury-info")
    entries = sheet_to_json(SheetEntries(missions=(mission,)))
    sheet = OrderSheet.objects.create(turn=turn, kingdom=ostland, status=OrderSheet.Status.SUBMITTED, entries=entries)
    OrderSubmission.objects.create(sheet=sheet, submitted_by=user_named("alice"), entries=entries)
    _mission(turn, ostland, karak, "reconnaissance", "treasury-info", "minor-victory")
    assert aftermath_phase_run(turn_id=turn.pk).resolved

    text = report_text(turn, ostland)
    orders_pointer = text.index(
        "What came of these is under What happened below, in the step of the turn that carried each out; of a "
        "Tomb Raiders' mission, under Your Tomb Raiders below."
    )
    mission_pointer = text.index(
        "Success: what it earned is under What happened above; what your Tomb Raiders learned is under "
        "Intelligence below."
    )
    happened, raiders, intelligence = (
        text.index(f" {heading} ") for heading in ("What happened", "Your Tomb Raiders", "Intelligence What")
    )
    assert orders_pointer < happened < raiders < intelligence
    assert happened < mission_pointer < intelligence
    assert "3. Create / Upgrade Armies below" not in text
