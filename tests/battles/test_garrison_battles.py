"""Battles for towns, cities and capitols through the services, on the demo campaign: who defends
(the order sheet's choice of the garrison or the army, rule case R4), the Elite Defense Force as
an army in the field from the list editor through the aftermath, and the Ancient Dead's Capitol
Garrison with its Warlord at the Great Pyramid (R10). Rulebook: 6. Fight Battles, Battle for
Towns, Cities, and Capitols; The Ancient Dead: Setup; 7. Aftermath."""

from __future__ import annotations

import datetime as dt

import pytest

from battles.models import Battle
from battles.services.scenarios import general_abilities, scenario_setup
from battles.services.summaries import summary_sheet_form, summary_sheet_save
from kingdoms.models import Army, Character, Province, Unit
from kingdoms.services.armies import army_list_save
from kingdoms.services.experience import experience_adjust
from orders.services.sheets import order_sheet_save
from reports.models import TurnReport
from rulebook.armies.army_lists import CharacterEntry, UnitEntry
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.battle_setup import army_with_list
from turns.models import TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run


def _submit(turn, kingdom, *orders: ArmyOrder) -> None:
    order_sheet_save(
        kingdom=kingdom,
        turn=turn,
        entries=SheetEntries(orders=orders),
        submitted_by=kingdom.players.first() or turn.campaign.organizer,
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )


def _sheet(battle, kingdom, **data):
    return summary_sheet_save(
        battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first() or battle.turn.campaign.organizer
    )


@pytest.fixture
def elite_defense_force(k, province):
    """Ostland's city of Eldenhall (61) has an Elite Defense Force, its list entered: Captain Eda,
    its General, and 40 Guards (500 points)."""
    force = Army.objects.create(
        kingdom=k["Ostland"],
        name="Elite Defense Force of Eldenhall",
        kind=Army.Kind.GARRISON,
        province=province(61),
        size=500,
    )
    captain = UnitEntry("Captain Eda", "character", 1, 100, character=CharacterEntry("hero", "general", "veteran"))
    army_list_save(army=force, units=[captain, UnitEntry("Guards", "core", 40, 10)], items=[])
    return force


def test_case_R4_the_order_sheet_s_choice_of_the_garrison_builds_the_battle(turn, k, province, battles_filed):
    """Ostland's Keep stands in Eldenhall and its sheet chose the garrison: the 1,000-point city
    garrison is the defending side's main force, the Keep supports it with a 200-point detachment;
    the turn summary sheet lists the Keep's units for Ostland."""
    keep = army_with_list(k["Ostland"], "Keep", province(61), [("Spearmen", 100, 10), ("Crossbowmen", 40, 10)])
    first = k["Ostland"].armies.get(name="1st Army")
    wardens = battles_filed["wardens"]
    _submit(
        turn,
        k["Ostland"],
        ArmyOrder(wardens.id, OrderKind.HOLD),
        ArmyOrder(first.id, OrderKind.SUPPORT, support=62),
        ArmyOrder(keep.id, OrderKind.HOLD, defend_with="garrison"),
    )

    assert orders_phase_run(turn_id=turn.pk).resolved
    battle = Battle.objects.get(turn=turn, province__number=61)
    assert (battle.defender_kingdom, battle.defender_army, battle.garrison_points) == (k["Ostland"], None, 1000)
    assert [(s.army, s.side, s.points) for s in battle.supports.all()] == [(keep, "defender", 200)]
    assert battle.scenario["engagement"]["name"] == "Assault"
    form = summary_sheet_form(battle=battle, kingdom=k["Ostland"])
    assert {u.name for u in form.units} == {"Spearmen", "Crossbowmen"} and form.detachments == {keep.id: 200}


def test_the_elite_defense_force_defends_gains_experience_recovers_and_its_hero_rolls(
    turn, k, province, battles_filed, elite_defense_force, django_capture_on_commit_callbacks
):
    """Battle for Towns, Cities, and Capitols: the Elite Defense Force "is treated as an army in the
    field": it is the defending army at Eldenhall (Captain Eda its General), earns experience for
    the victory, rolls Casualty Recovery for its Guards, Captain Eda rolls on the Character Injury
    Chart; it holds its city, and the Boyz retreat."""
    force = elite_defense_force
    with django_capture_on_commit_callbacks(execute=True):  # the scenario sheets are rendered and sent
        assert orders_phase_run(turn_id=turn.pk).resolved
    battle = Battle.objects.get(turn=turn, province__number=61)
    assert (battle.defender_army, battle.garrison_points, battle.garrison_defenses) == (force, 1000, 2)
    assert battle.guerrilla is None  # a garrison never rolls for Guerrilla Tactics
    captain = Character.objects.get(unit__army=force)
    assert general_abilities([force.id])[force.id] == frozenset(captain.abilities)
    assert "Elite Defense Force of Eldenhall" in battle.scenario["defender"]
    for other in Battle.objects.filter(turn=turn).exclude(pk=battle.pk):
        _sheet(other, other.attacker_kingdom, result="draw")
        _sheet(other, other.defender_kingdom, result="draw")
    guards = Unit.objects.get(army=force, name="Guards")
    _sheet(battle, k["Da Red Fang"], result="major-loss")
    _sheet(
        battle,
        k["Ostland"],
        result="major-victory",
        casualties=[{"unit": guards.id, "models_lost": 12}],
        characters_lost=[captain.id],
    )

    with django_capture_on_commit_callbacks(execute=True):  # the turn's reports are rendered and sent
        assert aftermath_phase_run(turn_id=turn.pk).resolved
    assert not TurnReport.objects.filter(turn=turn).exclude(status=TurnReport.Status.READY).exists()
    force.refresh_from_db()
    guards.refresh_from_db()
    assert force.status == Army.Status.ACTIVE and force.province.number == 61
    assert force.experience >= 75  # a major victory (+15 if Captain Eda survives against the odds)
    assert 28 <= guards.models_count <= 40
    events = TurnEvent.objects.filter(turn=turn, phase="aftermath", army=force)
    codes = set(events.values_list("code", flat=True))
    assert {"experience", "casualty-recovery", "injury"} <= codes
    assert Province.objects.get(campaign=turn.campaign, number=61).controller == k["Ostland"]
    assert Army.objects.get(pk=battles_filed["boyz"].pk).province.number != 61


def test_an_elite_defense_force_whose_city_falls_perishes_without_rolls(
    turn, k, province, battles_filed, elite_defense_force
):
    """Battle for Towns, Cities, and Capitols: "Should the town / city be conquered, the Elite Defense Force
    it to be considered to have perished to the last man and no recovery rolls are to be made": Da Red Fang
    takes Eldenhall; the force is disbanded, and Captain Eda, its hero, is dead (decision 592)."""
    force = elite_defense_force
    assert orders_phase_run(turn_id=turn.pk).resolved
    for other in Battle.objects.filter(turn=turn).exclude(province__number=61):
        _sheet(other, other.attacker_kingdom, result="draw")
        _sheet(other, other.defender_kingdom, result="draw")
    battle = Battle.objects.get(turn=turn, province__number=61)
    guards = Unit.objects.get(army=force, name="Guards")
    captain = Character.objects.get(unit__army=force)
    _sheet(battle, k["Da Red Fang"], result="major-victory", loot_choice="loot")
    _sheet(
        battle,
        k["Ostland"],
        result="major-loss",
        casualties=[{"unit": guards.id, "models_lost": 12}],
        characters_lost=[captain.id],
    )

    assert aftermath_phase_run(turn_id=turn.pk).resolved
    force.refresh_from_db()
    assert force.status == Army.Status.DISBANDED and force.experience == 0
    codes = set(TurnEvent.objects.filter(turn=turn, phase="aftermath", army=force).values_list("code", flat=True))
    assert codes == {"battle-result", "elite-defense-force-perished", "character-dead"}
    # "perished to the last man": its hero with it, recorded dead, rolling no injury (decision 592).
    captain.refresh_from_db()
    assert not captain.alive and captain.injuries == []


def test_case_R10_an_army_attacking_the_great_pyramid_faces_the_capitol_garrison_and_its_warlord(
    demo_campaign, turn, k, province
):
    """The Ancient Dead: Setup: "The kingdom's Warlord must remain with the Capitol's garrison ...
    The Warlord's point cost is included in the garrison force." Karak Dumn's Ironbreakers march
    into the Great Pyramid (41): they meet the 2,000-point Capitol Garrison with the Warlord, its
    General, in an Assault; the First Host standing there does not support it (the armies of the
    Ancient Dead cannot support each other)."""
    dead = k["The Ancient Dead"]
    beside = province(41).neighbours.order_by("number").first()
    ironbreakers = army_with_list(k["Karak Dumn"], "Ironbreakers", beside, [("Ironbreakers", 100, 15)])
    _submit(turn, k["Karak Dumn"], ArmyOrder(ironbreakers.id, OrderKind.MOVE, target=41))
    # The organizer overrides the computed orders: the Ancient Dead's armies hold where they stand.
    _submit(turn, dead, *(ArmyOrder(a.id, OrderKind.HOLD) for a in dead.armies.filter(kind="field")))

    assert orders_phase_run(turn_id=turn.pk).resolved
    battle = Battle.objects.get(turn=turn, province__number=41)
    capitol_garrison = dead.armies.get(name="Capitol Garrison")
    assert (battle.defender_kingdom, battle.defender_army) == (dead, capitol_garrison)
    assert (battle.garrison_points, battle.garrison_defenses, battle.assault) == (0, 3, True)
    assert battle.scenario["engagement"]["name"] == "Assault"
    warlord = Character.objects.get(kingdom=dead, role=Character.Role.WARLORD)
    assert warlord.unit.army == capitol_garrison
    setup = scenario_setup(battle, general_abilities([ironbreakers.id, capitol_garrison.id]))
    assert setup.defender.general_abilities == frozenset(warlord.abilities) != frozenset()
    refused = TurnEvent.objects.get(turn=turn, code="support-refused", army__name="First Host")
    assert refused.data["reason"] == "ancient-dead"


def test_an_elite_defense_force_spends_its_experience_on_the_order_sheet(
    api_client_for, client, turn, k, elite_defense_force
):
    """Battle for Towns, Cities, and Capitols: the Elite Defense Force "is treated as an army in the
    field in all manners" but its composition "cannot change" (decision 620). Its experience buys its
    Guards' Veteran level and Captain Eda's Archetype roll (Spending Experience) through the API, and the
    order sheet page offers it among the armies that spend; recruits for it are refused. The sheet took
    it for no army of the kingdom's ("only an army spends its experience")."""
    force = elite_defense_force
    ostland = k["Ostland"]
    Unit.objects.filter(army=force, name="Guards").update(veteran_eligible=True)
    Character.objects.filter(unit__army=force).update(battles_survived=3)
    experience_adjust(army=force, turn=turn.number, amount=50, reason="Held Eldenhall (test setup)")
    client.force_login(ostland.players.first())
    page = client.get(f"/turns/{turn.pk}/orders/")
    assert f'<option value="{force.id}">Elite Defense Force of Eldenhall</option>' in page.content.decode()

    api = api_client_for(ostland.players.first())
    url = f"/api/turns/{turn.pk}/sheet/"
    refused = api.put(
        url,
        {"orders": [], "purchases": [{"army": force.id, "kind": "recruits", "unit": "Guards", "models": 2}]},
        format="json",
    )
    assert "the composition of an Elite Defense Force cannot change" in str(refused.json())
    purchases = [
        {"army": force.id, "kind": "veteran", "unit": "Guards"},
        {"army": force.id, "kind": "advancement", "unit": "Captain Eda"},
    ]
    response = api.put(url, {"orders": [], "purchases": purchases, "submit": True}, format="json")
    assert response.status_code == 200, response.json()
    assert orders_phase_run(turn_id=turn.pk).resolved
    force.refresh_from_db()
    assert force.experience == 50 - 10 - 25
    assert Unit.objects.get(army=force, name="Guards").veteran_level == 1
    captain = Character.objects.get(unit__army=force)
    assert captain.battles_at_last_ability == 3
    assert TurnEvent.objects.filter(turn=turn, army=force, code="archetype-roll").exists()
