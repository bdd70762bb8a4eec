"""The ids an event's data holds come back naming the copy's rows (document version 6): a land deal's
other kingdom, the Rogue Kingdom an army entered, the armies waiting on a Tomb Raid, an Intelligence's
effect and what it names, a purchase's army; the ids nothing reads (a delivery, the aftermath's Battle
id, in an event and in an effect's data) are written null. A version 5 document (a snapshot taken
before) holds its site's ids there, and they are read as written.

The rows are built directly, as the resolution leaves them (transfer/references.py names where each is
written): playing them is other parts' work."""

import copy

import pytest

from battles.models import Battle
from kingdoms.models import Army, Campaign, Character, Delivery, Kingdom, MissionEffect
from reports.services.reports import bulletin_context
from tests.transfer.documents import round_trip
from transfer.export import campaign_export
from transfer.importer import campaign_import
from turns.models import TurnEvent


@pytest.fixture
def dealt_campaign(eventful_campaign: Campaign) -> Campaign:
    """eventful_campaign's turn 1 with the events of a land deal between Ostland and Da Red Fang,
    Ostland's army entering a Rogue Kingdom's province and waiting on a Tomb Raid, an Intelligence on
    Da Red Fang's Warlord, a purchase and a delivery; and an effect earned in a skirmish."""
    campaign = eventful_campaign
    turn = campaign.turns.get(number=1)
    ostland, red_fang = campaign.kingdoms.get(name="Ostland"), campaign.kingdoms.get(name="Da Red Fang")
    first = ostland.armies.get(name="1st Army")
    army = red_fang.armies.get()
    warlord = Character.objects.get(kingdom=red_fang, role=Character.Role.WARLORD)
    battle = Battle.objects.create(
        turn=turn, province=red_fang.capitol, attacker_kingdom=ostland, defender_kingdom=red_fang, skirmish=True
    )
    effect = MissionEffect.objects.create(
        campaign=campaign,
        kingdom=ostland,
        target=red_fang,
        mission="army-orders",
        earned_turn=1,
        target_army=army,
        data={"battle": battle.id, "how": "a success"},
    )
    delivery = Delivery.objects.create(
        army=first, kind="equipment", what="Shields", cost=2, ordered_turn=1, arrives_turn=3
    )
    last = turn.events.order_by("-sequence").values_list("sequence", flat=True).first() or 0
    TurnEvent.objects.bulk_create(
        TurnEvent(turn=turn, sequence=last + n, phase="orders", code=code, text=code, kingdom=kingdom, data=data)
        for n, (code, kingdom, data) in enumerate(
            [
                ("land-deal", ostland, {"with": red_fang.id, "given": 3, "received": None, "gold": 100}),
                ("land-deal", red_fang, {"with": ostland.id, "given": None, "received": 3, "gold": 0}),
                (
                    "rogue-kingdom-roll",
                    ostland,
                    {"roll": 1, "force": "empty", "points": 0, "rogue_kingdom": red_fang.id},
                ),
                ("ruins-waiting", ostland, {"ruin": 12, "with_army": first.id}),
                ("tomb-raid-sent", ostland, {"mission": "tomb-raid", "gold": 100, "fee": 0, "armies": [first.id]}),
                (
                    "intelligence",
                    ostland,
                    {
                        "mission": "character-bio",
                        "target": red_fang.id,
                        "effect": effect.id,
                        "battle": battle.id,
                        "info": {"found": True, "character": warlord.id, "where": {"army": army.id, "province": 4}},
                    },
                ),
                ("purchase-ordered", ostland, {"purchase": {"army": first.id, "kind": "equipment"}, "cost": 2}),
                ("delivery-arrived", ostland, {"delivery": delivery.id, "kind": "equipment", "ordered_turn": 1}),
            ],
            start=1,
        )
    )
    return campaign


# The keys of these events version 6 declared (transfer/references.py Since).
V6_KEYS = {
    "land-deal": ("with",),
    "rogue-kingdom-roll": ("rogue_kingdom",),
    "ruins-waiting": ("with_army",),
    "tomb-raid-sent": ("armies",),
    "intelligence": ("effect", "battle", "info"),
    "purchase-ordered": ("purchase",),
    "delivery-arrived": ("delivery",),
}


def _data(campaign: Campaign) -> dict[tuple[str, str], dict]:
    return {
        (e.code, e.kingdom.name): e.data
        for e in TurnEvent.objects.filter(turn__campaign=campaign, turn__number=1, sequence__gt=0).select_related(
            "kingdom"
        )
        if e.code in V6_KEYS
    }


def test_an_event_s_ids_come_back_naming_the_copy_s_rows(dealt_campaign):
    document = campaign_export(campaign=dealt_campaign)
    events = {(e["code"], e["kingdom"]): e["data"] for e in document["turns"][0]["events"]}
    assert events["land-deal", "Ostland"]["with"] == "Da Red Fang"
    assert events["rogue-kingdom-roll", "Ostland"]["rogue_kingdom"] == "Da Red Fang"
    assert events["ruins-waiting", "Ostland"]["with_army"] == ["Ostland", "1st Army"]
    assert events["tomb-raid-sent", "Ostland"]["armies"] == [["Ostland", "1st Army"]]
    intelligence = events["intelligence", "Ostland"]
    assert (intelligence["effect"], intelligence["battle"]) == (0, None)
    assert intelligence["info"]["where"] == {"army": ["Da Red Fang", "1st Army"], "province": 4}
    assert intelligence["info"]["character"]["kingdom"] == "Da Red Fang"
    assert events["purchase-ordered", "Ostland"]["purchase"] == {"army": ["Ostland", "1st Army"], "kind": "equipment"}
    assert events["delivery-arrived", "Ostland"]["delivery"] is None
    assert document["mission_effects"][0]["data"] == {"battle": None, "how": "a success"}

    imported = round_trip(dealt_campaign)
    assert campaign_export(campaign=imported) == document
    kingdoms = {k.name: k.id for k in Kingdom.objects.filter(campaign=imported)}
    first = Army.objects.get(kingdom__campaign=imported, kingdom__name="Ostland", name="1st Army")
    army = Army.objects.get(kingdom__campaign=imported, kingdom__name="Da Red Fang")
    warlord = Character.objects.get(kingdom__campaign=imported, kingdom__name="Da Red Fang", role="warlord")
    effect = MissionEffect.objects.get(campaign=imported)
    copied = _data(imported)
    assert copied["land-deal", "Ostland"]["with"] == kingdoms["Da Red Fang"]
    assert copied["land-deal", "Da Red Fang"]["with"] == kingdoms["Ostland"]
    assert copied["rogue-kingdom-roll", "Ostland"]["rogue_kingdom"] == kingdoms["Da Red Fang"]
    assert copied["ruins-waiting", "Ostland"]["with_army"] == first.id
    assert copied["tomb-raid-sent", "Ostland"]["armies"] == [first.id]
    assert copied["intelligence", "Ostland"] == {
        "mission": "character-bio",
        "target": kingdoms["Da Red Fang"],
        "effect": effect.id,
        "battle": None,
        "info": {"found": True, "character": warlord.id, "where": {"army": army.id, "province": 4}},
    }
    assert copied["purchase-ordered", "Ostland"]["purchase"] == {"army": first.id, "kind": "equipment"}
    assert copied["delivery-arrived", "Ostland"]["delivery"] is None
    assert effect.data == {"battle": None, "how": "a success"}
    # The copy's bulletin tells the land deal once, naming both kingdoms (it reads "with").
    bulletin = bulletin_context(turn=imported.turns.get(number=1))
    assert "Ostland and Da Red Fang make a land deal: provinces change hands (Land Sales)." in bulletin["changes"]


def test_a_version_5_document_keeps_those_ids_as_written(dealt_campaign):
    """Before version 6 the document held these ids as its site wrote them: read as they are (a snapshot
    restores into its own database, where its kingdoms' and armies' still name their rows); those version
    5 named already (an Intelligence's target) are read by name as before. An id so kept that names no
    row of the campaign is written null by its export, rather than refusing to export it."""
    document = campaign_export(campaign=dealt_campaign)
    older = copy.deepcopy(document)
    older["version"] = 5
    originals = _data(dealt_campaign)
    for event in older["turns"][0]["events"]:
        for key in V6_KEYS.get(event["code"], ()):
            event["data"][key] = originals[event["code"], event["kingdom"]][key]
    older["mission_effects"][0]["data"] = MissionEffect.objects.get(campaign=dealt_campaign).data

    imported = campaign_import(document=older)

    copied = _data(imported)
    for (code, kingdom), data in originals.items():
        assert {k: copied[code, kingdom][k] for k in V6_KEYS[code]} == {k: data[k] for k in V6_KEYS[code]}
    red_fang = imported.kingdoms.get(name="Da Red Fang")
    assert copied["intelligence", "Ostland"]["target"] == red_fang.id
    assert MissionEffect.objects.get(campaign=imported).data == older["mission_effects"][0]["data"]
    # Those ids name the original's rows, none of the copy's: the copy's export writes null there.
    again = {(e["code"], e["kingdom"]): e["data"] for e in campaign_export(campaign=imported)["turns"][0]["events"]}
    assert again["land-deal", "Ostland"]["with"] is None
    assert again["tomb-raid-sent", "Ostland"]["armies"] == [None]
    assert again["intelligence", "Ostland"]["info"]["character"] is None
    assert again["intelligence", "Ostland"]["target"] == "Da Red Fang"
