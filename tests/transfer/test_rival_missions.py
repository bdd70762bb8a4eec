"""Reconnaissance and Sabotage (issue 32) in the document: the effects earned and the Tomb Raiders
captured, a rival mission's battle (no attacker army, its mission_detail naming the target's army and
character, its scenario's stream naming no army) and the sheets' mission fields, uses and captive
orders travel by the transfer's keys, so the copy's rows name the copy's kingdoms, armies, characters,
effects and captives; a document written before them is still read, and a reference that names
nothing is refused where it stands.

The rows are built directly, as the aftermath's writer (kingdoms/services/rival_missions.py) and the
battles' posting (battles/services/posting.py) leave them: the missions' play is other parts' work."""

import copy

import pytest

from battles.models import Battle
from kingdoms.models import Army, Campaign, CapturedRaider, Character, MissionEffect
from orders.entries import sheet_to_json
from orders.models import OrderSheet
from rulebook.turn.write_orders.records import CaptiveOrder, MissionUse, SheetEntries, TombRaiderMission
from tests.transfer.documents import refused, round_trip
from transfer.export import campaign_export
from transfer.importer import campaign_import
from turns.models import DiceRoll, TurnEvent

MISSION_EVENTS = ("rival-mission-sent", "raiders-coming", "theft", "misdirection", "raider-captured")


@pytest.fixture
def spied_campaign(eventful_campaign: Campaign) -> Campaign:
    """eventful_campaign with Ostland's Tomb Raiders spying on Da Red Fang: a Reconnaissance's
    skirmish of turn 1 (no attacker army) naming Da Red Fang's army and its Warlord, an Army Orders
    effect pending and an Assassinate Spiritual Leader used, one of Ostland's raiders captured, and
    Ostland's sheet sending a Sabotage, using the effect and releasing a captive."""
    campaign = eventful_campaign
    turn = campaign.turns.get(number=1)
    ostland, red_fang = campaign.kingdoms.get(name="Ostland"), campaign.kingdoms.get(name="Da Red Fang")
    army = red_fang.armies.get()
    warlord = Character.objects.get(kingdom=red_fang, role=Character.Role.WARLORD)
    Battle.objects.create(
        turn=turn,
        province=red_fang.capitol,
        attacker_kingdom=ostland,
        attacker_army=None,
        defender_kingdom=red_fang,
        skirmish=True,
        mission="reconnaissance",
        mission_detail={
            "desired": "army-orders",
            "target_army": army.id,
            "target_character": warlord.id,
            "defender": "guard",
        },
    )
    # Its scenario, rolled on the battle's stream (battles/services/scenarios.py scenario_stream): no army.
    DiceRoll.objects.create(
        campaign=campaign,
        turn=1,
        stream=f"scenario:{red_fang.capitol.number}:None",
        sequence=0,
        expression="D6",
        faces=[4],
        total=4,
        purpose="Scenario",
    )
    effect, used = MissionEffect.objects.bulk_create(
        [
            MissionEffect(
                campaign=campaign,
                kingdom=ostland,
                target=red_fang,
                mission="army-orders",
                earned_turn=1,
                target_army=army,
            ),
            MissionEffect(
                campaign=campaign,
                kingdom=ostland,
                target=red_fang,
                mission="assassinate-spiritual-leader",
                earned_turn=1,
                target_character=warlord,
                data={"leadership": -1},
                status="used",
                used_turn=1,
            ),
        ]
    )
    captive = CapturedRaider.objects.create(
        campaign=campaign,
        captor=ostland,
        owner=red_fang,
        entry="Boyz",
        record={"name": "Boyz", "models_count": 1, "points_per_model": 6},
        captured_turn=1,
    )
    # The events of a mission name the two kingdoms, the army and the character (transfer/references.py).
    last = turn.events.order_by("-sequence").values_list("sequence", flat=True).first() or 0
    TurnEvent.objects.bulk_create(
        TurnEvent(turn=turn, sequence=last + n, phase="aftermath", code=code, text=code, kingdom=kingdom, data=data)
        for n, (code, kingdom, data) in enumerate(
            [
                (
                    "rival-mission-sent",
                    ostland,
                    {"target_kingdom": red_fang.id, "target_army": army.id, "target_character": warlord.id},
                ),
                ("raiders-coming", red_fang, {"spy": ostland.id}),
                ("theft", red_fang, {"saboteur": ostland.id, "target": red_fang.id, "gold": 200}),
                ("misdirection", red_fang, {"effect": effect.id, "target_army": army.id, "target": red_fang.id}),
                ("raider-captured", red_fang, {"captive": -1, "captor": red_fang.id, "owner": ostland.id}),
            ],
            start=1,
        )
    )
    first = ostland.armies.get(name="1st Army")
    OrderSheet.objects.filter(turn=turn, kingdom=ostland).update(
        entries=sheet_to_json(
            SheetEntries(
                missions=(
                    TombRaiderMission(
                        kind="sabotage",
                        target_kingdom=red_fang.id,
                        desired="assassinate-spiritual-leader",
                        target_army=army.id,
                        target_character=warlord.id,
                    ),
                ),
                mission_uses=(MissionUse(effect.id, army=first.id), MissionUse(used.id)),
                captive_orders=(CaptiveOrder(captive.id, "released"),),
            )
        )
    )
    return campaign


def test_effects_captives_and_a_rival_mission_come_back_naming_the_copy_s_rows(spied_campaign):
    document = campaign_export(campaign=spied_campaign)
    assert [(e["kingdom"], e["target"], e["mission"]) for e in document["mission_effects"]] == [
        ("Ostland", "Da Red Fang", "army-orders"),
        ("Ostland", "Da Red Fang", "assassinate-spiritual-leader"),
    ]
    assert document["mission_effects"][0]["target_army"] == ["Da Red Fang", "1st Army"]
    assert [(c["captor"], c["owner"], c["entry"]) for c in document["captives"]] == [("Ostland", "Da Red Fang", "Boyz")]
    (battle,) = [b for b in document["turns"][0]["battles"] if b["mission"] == "reconnaissance"]
    assert battle["attacker_army"] is None
    assert battle["mission_detail"]["target_army"] == ["Da Red Fang", "1st Army"]
    capitol = spied_campaign.kingdoms.get(name="Da Red Fang").capitol.number
    assert {"prefix": "scenario", "province": capitol, "army": None} in [r["stream"] for r in document["dice_rolls"]]
    (ostland_sheet,) = [s for s in document["turns"][0]["sheets"] if s["kingdom"] == "Ostland"]
    assert ostland_sheet["entries"]["mission_uses"] == [
        {"effect": 0, "army": ["Ostland", "1st Army"]},
        {"effect": 1, "army": None},
    ]
    assert ostland_sheet["entries"]["captive_orders"] == [{"captive": 0, "fate": "released"}]
    assert ostland_sheet["entries"]["missions"][0]["target_kingdom"] == "Da Red Fang"

    events = {e["code"]: e["data"] for e in document["turns"][0]["events"] if e["code"] in MISSION_EVENTS}
    assert events["rival-mission-sent"]["target_kingdom"] == "Da Red Fang"
    assert events["rival-mission-sent"]["target_army"] == ["Da Red Fang", "1st Army"]
    assert events["theft"] == {"saboteur": "Ostland", "target": "Da Red Fang", "gold": 200}
    assert events["raider-captured"] == {"captive": -1, "captor": "Da Red Fang", "owner": "Ostland"}
    # The effect by its place in the document's mission_effects (version 6), a new captive's temporary id as it is.
    assert events["misdirection"]["effect"] == 0

    imported = round_trip(spied_campaign)
    assert campaign_export(campaign=imported) == document
    copied = {e.code: e.data for e in TurnEvent.objects.filter(turn__campaign=imported, code__in=MISSION_EVENTS)}

    red_fang = imported.kingdoms.get(name="Da Red Fang")
    army = red_fang.armies.get()
    warlord = Character.objects.get(kingdom=red_fang, role=Character.Role.WARLORD)
    effects = list(MissionEffect.objects.filter(campaign=imported).order_by("earned_turn", "id"))
    assert [(e.kingdom.name, e.target_id, e.target_army_id) for e in effects] == [
        ("Ostland", red_fang.id, army.id),
        ("Ostland", red_fang.id, None),
    ]
    used = effects[1]
    assert (used.target_character_id, used.data, used.used_turn) == (warlord.id, {"leadership": -1}, 1)
    captive = CapturedRaider.objects.get(campaign=imported)
    assert (captive.captor.name, captive.owner_id, captive.record["name"]) == ("Ostland", red_fang.id, "Boyz")
    battle = Battle.objects.get(turn__campaign=imported, mission="reconnaissance")
    assert battle.attacker_army is None and battle.attacker_kingdom.name == "Ostland"
    assert battle.mission_detail == {
        "desired": "army-orders",
        "target_army": army.id,
        "target_character": warlord.id,
        "defender": "guard",
    }
    assert imported.dice_rolls.filter(stream=f"scenario:{red_fang.capitol.number}:None").exists()
    entries = OrderSheet.objects.get(turn__campaign=imported, kingdom__name="Ostland").entries
    first = Army.objects.get(kingdom__campaign=imported, kingdom__name="Ostland", name="1st Army")
    assert entries["mission_uses"] == [
        {"effect": effects[0].id, "army": first.id},
        {"effect": effects[1].id, "army": None},
    ]
    assert entries["captive_orders"] == [{"captive": captive.id, "fate": "released"}]
    assert copied["misdirection"] == {"effect": effects[0].id, "target_army": army.id, "target": red_fang.id}
    assert copied["raiders-coming"] == {"spy": imported.kingdoms.get(name="Ostland").id}
    mission = entries["missions"][0]
    assert (mission["target_kingdom"], mission["target_army"], mission["target_character"]) == (
        red_fang.id,
        army.id,
        warlord.id,
    )


def test_a_document_written_before_reconnaissance_and_sabotage_is_still_read(resolved_campaign):
    """Within version 5: no effects or captives, no battle's mission_detail, a Tomb Raid's sheet entry
    without a rival's fields, no mission uses or captive orders. Read with the models' defaults."""
    document = campaign_export(campaign=resolved_campaign)
    del document["mission_effects"], document["captives"]
    (turn,) = document["turns"]
    assert turn["battles"]
    for battle in turn["battles"]:
        del battle["mission_detail"]
    sheet = turn["sheets"][0]
    sheet["entries"]["missions"] = [{"kind": "tomb-raid", "province": 12, "pay_change_fee": False}]
    for written in (sheet, *sheet["submissions"]):
        written["entries"].pop("mission_uses"), written["entries"].pop("captive_orders")
    imported = campaign_import(document=document)
    assert not MissionEffect.objects.filter(campaign=imported).exists()
    assert not CapturedRaider.objects.filter(campaign=imported).exists()
    assert [b.mission_detail for b in Battle.objects.filter(turn__campaign=imported)] == [{}] * len(turn["battles"])
    entries = OrderSheet.objects.get(turn__campaign=imported, kingdom__name=sheet["kingdom"]).entries
    assert entries["missions"] == [{"kind": "tomb-raid", "province": 12, "pay_change_fee": False}]


def test_references_that_name_nothing_are_refused_where_they_stand(spied_campaign):
    document = campaign_export(campaign=spied_campaign)
    broken = copy.deepcopy(document)
    broken["mission_effects"][0]["target"] = "Nowhere"
    # A unit of the army, but no character.
    broken["mission_effects"][1]["target_character"] = {"kingdom": "Da Red Fang", "army": "1st Army", "unit": 5}
    broken["captives"][0]["fate"] = "eaten"
    place, sheet = next((i, s) for i, s in enumerate(broken["turns"][0]["sheets"]) if s["kingdom"] == "Ostland")
    sheet["entries"]["mission_uses"][0]["effect"] = 7
    sheet["entries"]["captive_orders"][0]["captive"] = 3
    (battle,) = [b for b in broken["turns"][0]["battles"] if b["mission"] == "reconnaissance"]
    battle["mission_detail"]["target_army"] = ["Da Red Fang", "9th Army"]

    messages = refused(broken)

    entries = f'turns[0] (number 1) / sheets[{place}] "Ostland" / entries'
    effect = 'mission_effects[1] "assassinate-spiritual-leader" / target_character'
    expected = [
        'mission_effects[0] "army-orders" / target: there is no kingdom called "Nowhere".',
        f"{effect}: the unit at place 5 of 1st Army is no character.",
        'captives[0] "Boyz": "fate": Value \'eaten\' is not a valid choice.',
        f"{entries} / mission_uses[0]: the document's mission_effects have no place 7 (they have 2).",
        f"{entries} / captive_orders[0]: the document's captives have no place 3 (they have 1).",
    ]
    assert [m for m in expected if m not in messages] == [], messages
    assert any("mission_detail / target_army: there is no army '9th Army'" in m for m in messages), messages
