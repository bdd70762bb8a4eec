"""The Tomb Raiders everywhere a player looks (issue 31): the kingdom's private PDF report lists its
force (entries, points, Captain, Lieutenant, models out of action) and its mission of the turn with
what came of it; no other kingdom's report, nor the bulletin, says anything of it; the bulletin and
the turn's public map tell only that a ruin was raided (rules decisions 441, 442). Built on the demo
campaign's turn 1 with the rows the raid leaves (the mission on the sheet that resolved, the raid's
Battle with mission="tomb-raid" and its result): the seam the other parts write."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from battles.models import Battle
from briternia.pdf import pdf_render
from kingdoms.models import Army, Kingdom, Province, TombRaiderEntry
from kingdoms.services.tomb_raiders import tomb_raider_force_save
from orders.entries import sheet_to_json
from orders.models import OrderSheet, OrderSubmission
from reports.services.reports import bulletin_context, kingdom_report_context
from reports.turn_map import turn_battle_markers
from rulebook.ruins_and_tomb_raiders.force import RaiderEntry as E
from rulebook.ruins_and_tomb_raiders.force import Role, TroopCategory
from rulebook.turn.write_orders.records import SheetEntries, TombRaiderMission
from tests.battle_setup import raid_posted
from tests.clients import user_named
from turns.models import Turn

pytestmark = pytest.mark.django_db

CAPTAIN = E("Captain Ulric", 1, 20, role=Role.CAPTAIN, command="champion", unit_type="Swordsmen", leadership=7)
LIEUTENANT = E("Huntsman Lieutenant", 1, 14, category=TroopCategory.SPECIAL, role=Role.LIEUTENANT)
FORCE = [CAPTAIN, LIEUTENANT, E("Swordsmen", 8, 10)]  # 20 + 14 + 80 = 114 points


def flat(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


def report_text(turn: Turn, kingdom: Kingdom) -> str:
    return flat(pdf_render("reports/kingdom_report.html", kingdom_report_context(turn=turn, kingdom=kingdom)))


@pytest.fixture
def ruin(demo_campaign) -> Province:
    """A ruin of the map, next to nobody in particular (its settlement made ruins if the map has none)."""
    province = demo_campaign.provinces.filter(settlement="ruins").order_by("number").first()
    if province is None:
        province = demo_campaign.provinces.filter(settlement="none", pyramid=False).order_by("number").first()
        province.settlement = "ruins"
        province.save(update_fields=["settlement"])
    return province


@pytest.fixture
def raid(turn, k, ruin) -> Battle:
    """Ostland's force (one Swordsman out of action), its Tomb Raid on the sheet that resolved, and the
    raid's skirmish won: the ruin raided once."""
    ostland = k["Ostland"]
    tomb_raider_force_save(kingdom=ostland, entries=FORCE, saved_by=user_named("alice"))
    TombRaiderEntry.objects.filter(force__kingdom=ostland, name="Swordsmen").update(out_of_action=1)
    entries = sheet_to_json(SheetEntries(missions=(TombRaiderMission("tomb-raid", ruin.number, pay_change_fee=True),)))
    sheet = OrderSheet.objects.create(turn=turn, kingdom=ostland, status=OrderSheet.Status.SUBMITTED, entries=entries)
    OrderSubmission.objects.create(sheet=sheet, submitted_by=user_named("alice"), entries=entries)
    army = Army.objects.filter(kingdom=ostland, kind=Army.Kind.FIELD).order_by("id").first()
    Province.objects.filter(pk=ruin.pk).update(ruin_raids=1)
    return raid_posted(
        turn,
        ruin,
        ostland,
        army,
        status=Battle.Status.RESOLVED,
        result="minor-victory",
        defender_result="minor-loss",
        victor="attacker",
    )


def test_the_kingdom_s_report_lists_its_force_and_its_raid_and_no_other_report_does(turn, k, ruin, raid) -> None:
    """The PDF read back: Ostland's report has the force's entries, its points, its Captain as he fights
    (+1 Ld, +1 W), its Lieutenant, the Swordsman out of action, and the Tomb Raid on the ruin with its
    fee and its success. Karak Dumn's report has none of it: neither the entries nor the raid."""
    text = report_text(turn, k["Ostland"])
    section = text[text.index("Your Tomb Raiders") : text.index("Dice")]
    assert f"Tomb Raid on the ruins of {ruin} (100 gold and the change fee, 5 gold a point added this turn)" in section
    assert "Minor victory: a success, the ruin is raided (Tomb Raid)." in section
    assert "114 of 150 points; Captain: Captain Ulric (fights at Ld 8, W 2); Lieutenant: Huntsman Lieutenant" in section
    assert "9 models able to go on a mission" in section
    assert "Captain Ulric Captain 1 20" in section and "Huntsman Lieutenant Lieutenant 1 14" in section
    assert "Swordsmen - 8 80 1" in section  # one of the eight out of action

    other = report_text(turn, k["Karak Dumn"])
    assert "Karak Dumn has entered no Tomb Raider force." in other and "No mission this turn." in other
    for secret in ("Captain Ulric", "Huntsman", "Tomb Raid on", str(ruin)):
        assert secret not in other


def test_a_draw_is_not_a_success_in_the_report(turn, k, raid) -> None:
    """Decision 407 in the report's words: the raid drawn, the army may not move in this turn."""
    Battle.objects.filter(pk=raid.pk).update(result="draw", defender_result="draw", victor="")
    missions = kingdom_report_context(turn=turn, kingdom=k["Ostland"])["missions"]
    assert [m["outcome"] for m in missions] == [
        "Draw: not a success; the army may not move into the province this turn (Tomb Raid)."
    ]


def test_the_report_keeps_the_force_as_the_turn_left_it(turn, k, raid) -> None:
    """The report's snapshot, kept when the turn ended: a change of the next turn is not this report's."""
    from reports.models import TurnReport
    from reports.services.reports import turn_reports_create

    turn_reports_create(turn=turn)
    snapshot = TurnReport.objects.get(turn=turn, kingdom=k["Ostland"]).snapshot
    tomb_raider_force_save(kingdom=k["Ostland"], entries=[CAPTAIN], saved_by=user_named("alice"))
    context = kingdom_report_context(turn=turn, kingdom=k["Ostland"], snapshot=snapshot)
    kept = [e["name"] for e in context["tomb_raiders"]["entries"]]
    assert kept == ["Captain Ulric", "Huntsman Lieutenant", "Swordsmen"]


def test_the_bulletin_and_the_public_map_tell_the_ruin_raided_not_by_whom(turn, k, ruin, raid) -> None:
    """Decision 442: the bulletin says the ruin was raided, with no kingdom, army or treasure, and
    leaves the raid out of its battles; the turn's public map has no crossed swords for it. A failed
    raid is not told at all."""
    bulletin = bulletin_context(turn=turn)
    assert f"The ruins of {ruin} were raided (Tomb Raid)." in bulletin["changes"]
    assert not any("Ostland" in line for line in bulletin["changes"])
    assert all(row["battle"].pk != raid.pk for row in bulletin["battles"])
    assert all(marker.province != ruin.number for marker in turn_battle_markers(turn))

    Battle.objects.filter(pk=raid.pk).update(result="minor-loss", defender_result="minor-victory", victor="defender")
    assert not any(str(ruin) in line for line in bulletin_context(turn=turn)["changes"])


def test_another_kingdom_s_player_reaches_neither_the_report_nor_the_sheet_nor_the_raid(turn, k, ruin, raid) -> None:
    """Decision 441, endpoint by endpoint: Karak Dumn's player gets 404 for Ostland's report, its sheet
    (page and API, where the mission is) and the raid's battle page; the turn's results page and API
    show her nothing of the raid or the force."""
    from reports.models import TurnReport
    from reports.services.reports import turn_reports_create
    from tests.clients import api_as, pages_as

    turn_reports_create(turn=turn)
    report = TurnReport.objects.get(turn=turn, kingdom=k["Ostland"])
    carol, carol_api = pages_as("carol"), api_as("carol")
    assert carol.get(f"/reports/{report.pk}/").status_code == 404
    assert carol.get(f"/turns/{turn.pk}/orders/{k['Ostland'].pk}/").status_code == 404
    own_sheet = carol_api.get(f"/api/turns/{turn.pk}/sheet/?kingdom={k['Ostland'].pk}")
    assert own_sheet.status_code == 404  # her kingdom filed nothing; never Ostland's sheet
    assert carol.get(f"/battles/{raid.pk}/").status_code == 404
    for response in (carol.get(f"/turns/{turn.pk}/results/"), carol_api.get(f"/api/turns/{turn.pk}/results/")):
        assert response.status_code == 200
        text = response.content.decode()
        assert "Captain Ulric" not in text and "Tomb Raid on" not in text and f"battles/{raid.pk}/" not in text
