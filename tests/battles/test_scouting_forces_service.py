"""Rogue Kingdom, scouting forces, through the site (decision 231): Ostland's 1st Army enters a
province of Tor Anlec, a Rogue Kingdom, and rolls Scouting forces; the battle is posted as the Tomb
Raiders' skirmish (ruins terrain, no Old Battle Wounds, a 150-point warband), its sheets are filed
(Ostland's by alice, the warband's by the organizer), and the aftermath leaves the army whole.
Rulebook: Player Issues > Rogue Kingdom; Ruins; Tomb Raider Scenario & Terrain.

The turn's dice are seeded: SEED is a seed under which the Rogue Kingdom roll is a 2 (the test
checks it, so a change to the dice streams fails here, saying so, rather than testing another row)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from battles.rules.scenario_tables import RUINS_TEXT
from battles.services.summaries import summary_sheet_save
from kernel.event_codes import EventCode
from kingdoms.models import Army, Kingdom, Province, Unit
from orders.models import TurnEvent
from orders.rules.sheets import ArmyOrder, OrderKind, SheetEntries
from orders.services.rogue import kingdom_rogue_declare
from orders.services.sheets import order_sheet_save
from turns.services.cycle import aftermath_phase_run, orders_phase_run

SEED = "scouting-5"


@pytest.fixture
def skirmish(demo_campaign, django_capture_on_commit_callbacks):
    k = {x.name: x for x in Kingdom.objects.filter(campaign=demo_campaign)}
    ostland, tor = k["Ostland"], k["Tor Anlec"]
    turn = demo_campaign.turns.get(number=1)
    kingdom_rogue_declare(kingdom=tor, why="moved abroad")
    target = next(
        p
        for p in Province.objects.filter(campaign=demo_campaign, controller=tor).order_by("number")
        if p.neighbours.filter(controller__isnull=True, armies__isnull=True).exists()
    )
    start = target.neighbours.filter(controller__isnull=True, armies__isnull=True).order_by("number").first()
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    army.province = start
    army.save(update_fields=["province"])
    turn.seed = SEED
    turn.save(update_fields=["seed"])
    saved = order_sheet_save(
        turn=turn,
        kingdom=ostland,
        entries=SheetEntries(orders=(ArmyOrder(army.pk, OrderKind.MOVE, target=target.number),)),
        submitted_by=ostland.players.first(),
        submit=True,
    )
    assert saved.check.errors == []
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    (roll,) = TurnEvent.objects.filter(turn=turn, code=EventCode.ROGUE_KINGDOM_ROLL)
    assert roll.data["roll"] == 2, f"SEED no longer rolls Scouting forces: {roll.text}"
    return turn, ostland, tor, army, start, target


def test_scouting_forces_are_posted_as_a_tomb_raiders_skirmish_and_the_army_stays_whole(
    skirmish, django_capture_on_commit_callbacks
):
    turn, ostland, tor, army, start, target = skirmish
    battle = Battle.objects.get(turn=turn)
    assert (battle.province, battle.skirmish, battle.garrison_points) == (target, True, 150)
    assert (battle.defender_kingdom, battle.defender_army, battle.old_wounds) == (tor, None, [])
    assert battle.scenario["settlement"] == "ruins" and RUINS_TEXT in battle.scenario["terrain_pieces"]["notes"]
    assert any("Tomb Raiders (150 points)" in note for note in battle.notes)

    models = dict(Unit.objects.filter(army=army).values_list("id", "models_count"))
    swordsmen = Unit.objects.get(army=army, name="Swordsmen")
    summary_sheet_save(
        battle=battle,
        kingdom=ostland,
        data={"result": "minor-loss", "casualties": [{"unit": swordsmen.pk, "models_lost": 5}]},
        entered_by=ostland.players.first(),
    )
    organizer = get_user_model().objects.get(username="organizer")
    summary_sheet_save(
        battle=battle, kingdom=tor, data={"result": "minor-victory"}, entered_by=organizer, by_organizer=True
    )
    experience = Army.objects.get(pk=army.pk).experience
    with django_capture_on_commit_callbacks(execute=True):
        aftermath_phase_run(turn_id=turn.pk)

    army.refresh_from_db()
    target.refresh_from_db()
    assert (army.province, army.status, army.experience) == (start, Army.Status.ACTIVE, experience)
    assert target.controller == tor
    assert dict(Unit.objects.filter(army=army).values_list("id", "models_count")) == models
    (lost,) = TurnEvent.objects.filter(turn=turn, code=EventCode.SKIRMISH_LOST)
    assert lost.kingdom == ostland and "may not move into it this turn" in lost.text
