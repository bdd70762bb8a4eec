"""The Tomb Raid through the site (decisions 408, 420, 424): Ostland's 1st Army moves into a
province with ruins. Without a raid the turn leaves it outside, saying so; with the kingdom's raid
on its submitted sheet (the "missions" part, sent and paid when the turn resolves) the raid is
posted as a battle of the turn with its mission, its scenario sheet states the Tomb Raider Scenario
& Terrain rules and the generic 150-point warband, and the sheet is emailed like the others.
Rulebook: Ruins; Tomb Raiders > Using Tomb Raiders > Tomb Raid; Generic Opponents; Tomb Raider
Scenario & Terrain."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from django.test import Client
from pypdf import PdfReader

from battles.models import Battle
from battles.services.summary_text import summary_sheet_text
from kernel.event_codes import EventCode
from kingdoms.models import Army, Kingdom
from kingdoms.services.world import world_load
from orders.entries import sheet_from_json
from orders.services.sheets import order_sheet_save
from outbox.models import Email
from reports.models import ReportEmail
from rulebook.turn.write_orders.missions import rival_choices
from tests.kingdoms.builders import raiders_force_built
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
    # Ostland's Tomb Raiders: the rulebook's sample list, kept since setup (nothing added this turn).
    raiders_force_built(ostland)

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


def test_a_tomb_raid_is_posted_as_a_battle_of_the_turn_with_its_scenario_sheet(
    turn, to_the_ruins, django_capture_on_commit_callbacks
):
    """Posting carries the mission into the Battle row; the scenario is the Tomb Raiders' (a 4x4
    table, no Old Battle Wounds), its PDF says "Tomb Raid" with the warband it is played against,
    and it is emailed like every scenario sheet."""
    ostland, army, start, ruin, sheet = to_the_ruins
    sheet(raid=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved

    battle = Battle.objects.get(turn=turn, province=ruin)
    assert (battle.attacker_army, battle.defender_kingdom, battle.defender_army) == (army, None, None)
    assert (battle.mission, battle.skirmish, battle.garrison_points, battle.assault) == ("tomb-raid", True, 150, False)
    assert battle.old_wounds == []
    assert battle.scenario["skirmish"] is True and battle.scenario["mission"] == "tomb-raid"
    # Decision 613: the warband, attacked where it stands, has the defender's +1 to choose sides; in
    # Assault 1 and 3 (the turn's seed is random) it chooses its edge with no roll at all (decision 628).
    assert not battle.both_moved
    sides, scenario = battle.scenario["sides"], battle.scenario
    if scenario["engagement"]["name"] == "Assault" and scenario["deployment"]["roll"] in (1, 3):
        assert sides["roll_off"] is None and sides["winner"] == "The warband of the ruins"
    else:
        assert sides["roll_off"]["defender_modifier"] == 1
        assert "The warband of the ruins did not move and is attacked: +1 to choose sides." in sides["text"]
    army.refresh_from_db()
    ruin.refresh_from_db()
    assert army.province == ruin and ruin.controller is None  # it stands there and waits on the raid
    (scheduled,) = TurnEvent.objects.filter(turn=turn, code=EventCode.BATTLE_SCHEDULED, army=army)
    waits = f"1st Army waits on the Tomb Raid at {ruin}: it moves in if the raiders succeed (Tomb Raid)."
    assert scheduled.text == waits
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

    # Emailed like the others: the subject and the words say it is a Tomb Raid; the battle is marked sent.
    emails = list(Email.objects.filter(kind=Email.Kind.SCENARIO_SHEET, subject__contains="Tomb Raid on the ruins of"))
    # Ostland's players, and the organizer, who may play the warband or appoint a guest (decision 152).
    assert {a for e in emails for a in e.to} >= {u.email for u in ostland.players.all()}
    assert all(f"A Tomb Raid is to be played on the ruins of {ruin}" in e.text for e in emails)
    warband = "the warband of the ruins (150 points, played by any non-allied player or a guest)"
    assert all(warband in e.text for e in emails)
    battle.refresh_from_db()
    assert battle.scenario_sent_at is not None


def test_the_scenario_sheet_its_email_and_the_summary_sheet_name_the_tomb_raiders_and_the_warband_not_the_army(
    turn, to_the_ruins, django_capture_on_commit_callbacks
):
    """Using Tomb Raiders, Tomb Raid: "the Tomb Raiders can set off safely ... Play a game against a
    generic warband, of 150 points"; the army does not fight, it waits on the raid. The sheet's steps
    (choosing sides, deployment), the email's forces and the turn summary sheet by email name the
    Tomb Raiders and the warband of the ruins, never the army (1954 points) nor a garrison."""
    ostland, army, start, ruin, sheet = to_the_ruins
    sheet(raid=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    battle = Battle.objects.get(turn=turn, province=ruin)

    client = Client()
    client.force_login(ostland.players.first())
    pdf = " ".join(_pdf_text(client.get(f"/battles/{battle.pk}/scenario.pdf").content).split())
    email = ReportEmail.objects.filter(report__battle=battle, user__in=ostland.players.all()).first()
    text = summary_sheet_text(battle=battle, kingdom=ostland)
    for words in (pdf, email.text):
        assert "Ostland: Tomb Raiders" in words and "Garrison of" not in words and "garrison of" not in words
    assert "Attacker: Ostland: Tomb Raiders (1st Army does not fight: it waits on the raid)" in email.text
    assert "against the warband of the ruins (any non-allied player or a guest)" in email.text
    assert "Ostland: 1st Army" not in email.text
    help_words = " ".join(line.removeprefix("# ") for line in text.splitlines() if line.startswith("#"))
    assert f"Ostland: Tomb Raiders against The warband of the ruins in {ruin}." in help_words


def test_the_army_waiting_on_a_raid_fought_no_battle_so_no_spy_may_name_it(
    turn, to_the_ruins, django_capture_on_commit_callbacks
):
    """Decision 408: the army that moved into the ruin waits on its Tomb Raiders' skirmish and does
    not fight; the raid is secret (decision 442: not among the bulletin's battles). So the turn does
    not mark it as having fought a battle: a rival's order sheet never offers it to a spy, who may name
    only an army that fought a battle of an earlier turn (decision 455), and it is not barred from
    Fortify next turn as an army "in a battle the previous turn" (Fortify; decision 619)."""
    ostland, army, start, ruin, sheet = to_the_ruins
    sheet(raid=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    assert Battle.objects.filter(turn=turn, province=ruin, mission="tomb-raid", skirmish=True).exists()

    army.refresh_from_db()
    assert army.last_battle_turn is None
    # The next turn's sheet of a rival: the spy's drop-downs name no army of Ostland.
    karak = Kingdom.objects.get(campaign=turn.campaign, name="Karak Dumn")
    next_turn = replace(world_load(campaign=turn.campaign, turn_number=turn.number), turn=turn.number + 1)
    offered = rival_choices(next_turn, karak.pk)
    assert not [label for _, label in offered.armies if label.startswith("Ostland:")], offered.armies
