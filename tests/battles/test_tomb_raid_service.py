"""The Tomb Raid through the site (decisions 408, 420, 424): Ostland's 1st Army moves into a
province with ruins. Without a raid the turn leaves it outside, saying so; with the kingdom's raid
sent (the sheet's "missions" part; the mission's own resolution step is another part of issue 31,
so the test sets TurnState.raids as that step will) the raid is posted as a battle of the turn with
its mission, its scenario sheet states the Tomb Raider Scenario & Terrain rules and the generic
150-point warband, and the sheet is emailed like the others.
Rulebook: Ruins; Tomb Raiders > Using Tomb Raiders > Tomb Raid; Generic Opponents; Tomb Raider
Scenario & Terrain."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from battles.models import Battle
from battles.services.posting import battles_post
from battles.services.scenarios import battle_scenarios_generate
from kernel.dice import SeededDice
from kernel.event_codes import EventCode
from kingdoms.models import Army, Kingdom
from orders.entries import sheet_from_json
from orders.services.resolution import DICE_STREAM, ancient_dead_dice, resolution_write, turn_state_load
from orders.services.sheets import order_sheet_save
from outbox.models import Email
from reports.models import TurnReport
from reports.services.deliveries import report_emails_queue
from reports.services.reports import battle_scenario_reports_create, report_render
from rulebook.turn.pipeline import resolve_orders
from turns.models import TurnEvent
from turns.services.cycle import orders_phase_run


def _pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


@pytest.fixture
def to_the_ruins(demo_campaign, turn):
    """Ostland's 1st Army and an empty province next to it, made ruins; Ostland's sheet moves the
    army there and sends the Tomb Raiders on a Tomb Raid to it (the JSON the sheet stores)."""
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    ruin = (
        army.province.neighbours.filter(controller__isnull=True, armies__isnull=True, terrain="plains")
        .order_by("number")
        .first()
    )
    ruin.settlement = "ruins"
    ruin.save(update_fields=["settlement"])
    start = army.province

    def sheet(*, raid: bool) -> None:
        entries = {"orders": [{"army": army.pk, "kind": "move", "target": ruin.number}]}
        if raid:
            entries["missions"] = [{"kind": "tomb-raid", "province": ruin.number}]
        saved = order_sheet_save(
            turn=turn,
            kingdom=ostland,
            entries=sheet_from_json(entries),
            submitted_by=ostland.players.first(),
            submit=True,
        )
        assert saved.check.errors == []

    return ostland, army, start, ruin, sheet


def test_ruins_without_a_raid_the_turn_leaves_the_army_outside_and_says_so(
    turn, to_the_ruins, django_capture_on_commit_callbacks
):
    ostland, army, start, ruin, sheet = to_the_ruins
    sheet(raid=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved

    army.refresh_from_db()
    ruin.refresh_from_db()
    assert army.province == start and ruin.controller is None
    assert not Battle.objects.filter(turn=turn, province=ruin).exists()
    (waits,) = TurnEvent.objects.filter(turn=turn, code=EventCode.RUINS_NO_RAID)
    assert (waits.kingdom, waits.army) == (ostland, army)
    assert waits.text == f"1st Army waits outside the ruins of {ruin}: no Tomb Raid was sent (Ruins)."


def test_a_tomb_raid_is_posted_as_a_battle_of_the_turn_with_its_scenario_sheet(turn, to_the_ruins):
    """Posting carries the mission into the Battle row; the scenario is the Tomb Raiders' (a 4x4
    table, no Old Battle Wounds), and its PDF says "Tomb Raid" with the warband it is played against."""
    ostland, army, start, ruin, sheet = to_the_ruins
    sheet(raid=True)
    before = turn_state_load(turn)
    assert [(m.kind, m.province) for m in before.sheets[ostland.pk].missions] == [("tomb-raid", ruin.number)]
    before.raids = {ostland.pk: ruin.number}  # the mission sent and paid (the mission step's, issue 31)
    dice = SeededDice(seed=turn.seed, stream=DICE_STREAM)
    ancient = ancient_dead_dice(turn)
    resolution = resolve_orders(before, dice, ancient)
    army_ids = resolution_write(turn=turn, before=before, resolution=resolution, dice=dice, ancient_dice=ancient)
    battles_post(turn=turn, resolution=resolution, army_ids=army_ids)
    battle_scenarios_generate(turn=turn)

    battle = Battle.objects.get(turn=turn, province=ruin)
    assert (battle.attacker_army, battle.defender_kingdom, battle.defender_army) == (army, None, None)
    assert (battle.mission, battle.skirmish, battle.garrison_points, battle.assault) == ("tomb-raid", True, 150, False)
    assert battle.old_wounds == []
    assert battle.scenario["skirmish"] is True and battle.scenario["mission"] == "tomb-raid"
    army.refresh_from_db()
    ruin.refresh_from_db()
    assert army.province == ruin and ruin.controller is None  # it stands there and waits on the raid
    (scheduled,) = TurnEvent.objects.filter(turn=turn, code=EventCode.BATTLE_SCHEDULED, army=army)
    assert (
        scheduled.text == f"1st Army waits on the Tomb Raid at {ruin}: it moves in if the raiders succeed (Tomb Raid)."
    )
    assert scheduled.data["mission"] == "tomb-raid"

    client = Client()
    client.force_login(ostland.players.first())
    text = _pdf_text(client.get(f"/battles/{battle.pk}/scenario.pdf").content)
    assert f"Tomb Raid on the ruins of {ruin}" in text
    assert "Tomb Raider Scenario & Terrain" in text
    assert "1. Play on a 4x4 table, with a generous amount of terrain." in text
    assert "3. The Tomb Raider Captain counts as the Army General for scenario objective purposes." in text
    assert "4. Games last until one side withdraws or until the Game Length ends." in text
    assert "a generic warband of 150 points, typically undead or another denizen" in text
    assert "no Lieutenant is selected and all models come from 2 Core troop types at most (Generic Opponents)" in text
    assert "Any non-allied player or a guest plays the warband" in text
    assert "A draw or a failure: the army may not move into the province this turn" in text


def test_a_tomb_raid_s_scenario_sheet_is_emailed_like_the_others(turn, to_the_ruins):
    """The raid's battle gets its scenario report, rendered and emailed as every battle's is: the
    subject and the words say it is a Tomb Raid, and the battle is marked sent."""
    ostland, army, start, ruin, sheet = to_the_ruins
    sheet(raid=True)
    before = turn_state_load(turn)
    before.raids = {ostland.pk: ruin.number}
    dice = SeededDice(seed=turn.seed, stream=DICE_STREAM)
    resolution = resolve_orders(before, dice, ancient_dead_dice(turn))
    army_ids = resolution_write(turn=turn, before=before, resolution=resolution, dice=dice)
    battles_post(turn=turn, resolution=resolution, army_ids=army_ids)
    battle_scenario_reports_create(turn=turn, battles=battle_scenarios_generate(turn=turn))

    battle = Battle.objects.get(turn=turn, province=ruin)
    report = TurnReport.objects.get(turn=turn, battle=battle)
    assert report_render(report_id=report.pk)
    report.refresh_from_db()
    assert report_emails_queue(report=report)

    emails = list(Email.objects.filter(kind=Email.Kind.SCENARIO_SHEET, subject__contains="Tomb Raid on the ruins of"))
    assert emails and {e.to[0] for e in emails} >= {u.email for u in ostland.players.all() if u.email}
    assert all(f"A Tomb Raid is to be played on the ruins of {ruin}" in e.text for e in emails)
    assert all(
        "the warband of the ruins (150 points, played by any non-allied player or a guest)" in e.text for e in emails
    )
    battle.refresh_from_db()
    assert battle.scenario_sent_at is not None
