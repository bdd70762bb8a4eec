"""The order sheet's one codec (orders/entries.py): the JSON every channel stores and exchanges for
the sheet of 4. Write Orders and the Appendix's Order Sheet, read back into the same records, and
the API, the page's form and the export writing the same JSON for the same sheet."""

from __future__ import annotations

import copy
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from briternia.errors import DomainError
from kingdoms.models import Army, CapturedRaider, Kingdom, MissionEffect
from orders.entries import SECTIONS, SheetCodecError, sheet_from_json, sheet_json_checked, sheet_to_json
from orders.models import OrderSheet
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    BuySupplyDepot,
    CaptiveOrder,
    CreateArmy,
    DeclareAlliance,
    EndAlliance,
    LandDeal,
    LossesFrom,
    MissionUse,
    MoveCapitol,
    OrderKind,
    Purchase,
    ReinforceGarrison,
    SheetEntries,
    TombRaiderMission,
    TransferGold,
    TransferItem,
    UpgradeArmy,
)
from transfer.export import CAPTIVE_ORDER, EFFECT_ORDER, campaign_export

# A handful of sheets that together hold every kind of entry and every kind of order, each value
# away from its default somewhere.
SHEETS = {
    "empty": SheetEntries(),
    "every order": SheetEntries(
        orders=(
            ArmyOrder(1),
            ArmyOrder(2, OrderKind.RAZE_HOLD, disaster_choice="disband"),
            ArmyOrder(3, OrderKind.RAZE_MOVE, target=12, pay_for_depot=False, take_control=True),
            ArmyOrder(4, OrderKind.MOVE, target=13, support=14, defend_with="garrison"),
            ArmyOrder(5, OrderKind.SUPPORT, support=15),
            ArmyOrder(6, OrderKind.FORCED_MARCH, path=(16, 17), take_control=True),
            ArmyOrder(7, OrderKind.FORTIFY),
            ArmyOrder(8, OrderKind.RECOVER),
            ArmyOrder(9, OrderKind.SCARAB_AMULET),
        ),
    ),
    "the kingdom's entries": SheetEntries(
        creations=(CreateArmy("Reserve", 1000, 21), CreateArmy("Levy", 500, 22)),
        upgrades=(UpgradeArmy(1, 2000),),
        depots=(BuySupplyDepot(1),),
        garrisons=(ReinforceGarrison(21), ReinforceGarrison(23)),
        losses=(LossesFrom(1, "Halberdiers"),),
    ),
    "purchases": SheetEntries(
        purchases=(
            Purchase(1, "recruits", unit="Halberdiers", models=5),
            Purchase(1, "recruits", name="Crossbowmen", category="special", models=10, points=8),
            Purchase(2, "equipment", unit="Knights", points=20),
            Purchase(2, "item", unit="Captain", name="Runic Axe", points=25, common=True, runic=True),
            Purchase(3, "supply-depot"),
            Purchase(3, "veteran", unit="Spearmen"),
            Purchase(4, "advancement", unit="General"),
            Purchase(4, "promotion", unit="Warlord", points=150),
        ),
    ),
    "dealings with other kingdoms": SheetEntries(
        alliances=(DeclareAlliance(31),),
        alliance_ends=(EndAlliance(32),),
        gold_transfers=(TransferGold(31, 250),),
        item_transfers=(TransferItem(33, "Enchanted Shield"),),
        land_deals=(LandDeal(31, 41, 100), LandDeal(32), LandDeal(33, None, 300)),
        capitol_moves=(MoveCapitol(42),),
    ),
    "the Tomb Raiders' mission": SheetEntries(missions=(TombRaiderMission("tomb-raid", 43, pay_change_fee=True),)),
    "a captive's fate": SheetEntries(captive_orders=(CaptiveOrder(51, "released"), CaptiveOrder(52, "executed"))),
    "an effect the Tomb Raiders earned, used": SheetEntries(mission_uses=(MissionUse(61, 9), MissionUse(62))),
}


def test_the_sheets_cover_every_kind_of_entry_and_order():
    """Appendix: Order Sheet and 4. Write Orders: every part of the sheet and every order is tried."""
    parts = {name for sheet in SHEETS.values() for name in SECTIONS if getattr(sheet, name)}
    assert parts == set(SECTIONS)
    assert {o.kind for sheet in SHEETS.values() for o in sheet.orders} == set(OrderKind)


@pytest.mark.parametrize("name", SHEETS)
def test_write_orders_json_to_entries_to_json_is_the_identity(name):
    """4. Write Orders: a sheet's JSON read into its records and written again is the same JSON,
    and the records written and read again are the same records."""
    entries = SHEETS[name]
    data = sheet_to_json(entries)
    assert sheet_from_json(data) == entries
    assert sheet_to_json(sheet_from_json(copy.deepcopy(data))) == data
    assert list(data) == list(SECTIONS)  # every part, even an empty one
    # The export's reading (no records between) writes the same JSON, in lists and dicts of its own.
    checked = sheet_json_checked(data)
    assert checked == data and list(checked) == list(SECTIONS)
    assert all(a is not b for part in SECTIONS for a, b in zip(checked[part], data[part], strict=True))


def test_write_orders_an_older_sheet_reads_with_the_records_defaults():
    """Battle for Towns, Cities, and Capitols and Allies, Invasion: an order filed before
    `defend_with` and `take_control` existed means the army fights and takes nothing; a part the
    sheet has not got (filed before it existed, or {}) holds no entries."""
    old = {"orders": [{"army": 1, "kind": "move", "target": 12, "support": None, "path": []}]}
    assert sheet_from_json(old) == SheetEntries(orders=(ArmyOrder(1, OrderKind.MOVE, target=12),))
    assert sheet_from_json({}) == SheetEntries()
    # The export writes an older sheet as a sheet saved today would be: every part, every key.
    for data in (old, {}):
        assert sheet_json_checked(copy.deepcopy(data)) == sheet_to_json(sheet_from_json(data))
    assert sheet_json_checked(old)["orders"][0]["defend_with"] == ArmyOrder(1).defend_with


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "the sheet"),
        ({"bribes": []}, "bribes"),
        ({"orders": {}}, "orders"),
        ({"orders": [7]}, "orders[0]"),
        ({"orders": [{"kind": "move"}]}, "orders[0].army"),
        ({"orders": [{"army": 1, "kind": "teleport"}]}, "orders[0].kind"),
        ({"orders": [{"army": 1, "target": "north"}]}, "orders[0].target"),
        ({"orders": [{"army": 1, "path": [1, "2"]}]}, "orders[0].path"),
        ({"orders": [{"army": 1, "defend_with": "everyone"}]}, "orders[0].defend_with"),
        ({"orders": [{"army": True}]}, "orders[0].army"),
        ({"orders": [{"army": 1, "speed": 3}]}, "orders[0].speed"),
        ({"purchases": [{"army": 1, "kind": "mercenaries"}]}, "purchases[0].kind"),
        ({"land_deals": [{"kingdom": 2, "gold": "lots"}]}, "land_deals[0].gold"),
        ({"creations": [{"name": "Reserve", "points": 1000}]}, "creations[0].province"),
    ],
)
@pytest.mark.parametrize("read", [sheet_from_json, sheet_json_checked], ids=["records", "export"])
def test_write_orders_malformed_entries_are_refused_naming_the_field(data, field, read):
    """4. Write Orders: JSON that is no order sheet raises the codec's one error, naming where, read
    into records or for the export."""
    with pytest.raises(SheetCodecError) as refused:
        read(data)
    assert refused.value.field == field
    assert refused.value.messages == [f"Order sheet entries, {field}: {refused.value.problem}"]


# -- the channels: the API, the page's form and the export write the same JSON -----------------------


class _FormValues(HTMLParser):
    """What a browser posts for the page's form as drawn: each field's value, checked boxes and
    selected options only."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[tuple[str, str]] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.values.append((name, a.get("value") or "on"))
            else:
                self.values.append((name, a.get("value") or ""))
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.values.append((self._select, a.get("value") or ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def _posted(page: str) -> dict[str, list[str]]:
    parser = _FormValues()
    parser.feed(page)
    posted: dict[str, list[str]] = {}
    for name, value in parser.values:
        posted.setdefault(name, []).append(value)
    return posted


def _with_ids(document_entries: dict[str, Any], campaign) -> dict[str, Any]:
    """The export's entries with the ids again for its [kingdom, army] and kingdom names."""
    armies = {(a.kingdom.name, a.name): a.id for a in Army.objects.filter(kingdom__campaign=campaign)}
    kingdoms = {k.name: k.id for k in Kingdom.objects.filter(campaign=campaign)}
    # An effect used and a captive's fate name their row by its place in the document's lists.
    effects = list(MissionEffect.objects.filter(campaign=campaign).order_by(*EFFECT_ORDER).values_list("id", flat=True))
    captives = list(
        CapturedRaider.objects.filter(campaign=campaign).order_by(*CAPTIVE_ORDER).values_list("id", flat=True)
    )
    return {
        section: [
            {
                **item,
                **({"army": armies[tuple(item["army"])] if item["army"] else None} if "army" in item else {}),
                **({"kingdom": kingdoms[item["kingdom"]]} if "kingdom" in item else {}),
                **({"effect": effects[item["effect"]]} if "effect" in item else {}),
                **({"captive": captives[item["captive"]]} if "captive" in item else {}),
            }
            for item in items
        ]
        for section, items in document_entries.items()
    }


def test_write_orders_the_api_the_form_and_the_export_store_the_same_json(api_client_for, turn, k):
    """Appendix: Order Sheet: one sheet with an entry of every part the page shows, saved through
    the API, opened on the page and saved again as the browser posts it, and exported: the same
    JSON each time, the codec's."""
    ostland, dumn, anlec = k["Ostland"], k["Karak Dumn"], k["Tor Anlec"]
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    # Without a depot, so the page shows its depot's and the Foraging Table's choices.
    Army.objects.filter(pk=army.pk).update(supply_depot=False)
    target = army.province.neighbours.exclude(terrain="desert").order_by("number").first()
    unit = army.units.exclude(category="character").order_by("id").first()
    given = ostland.provinces.filter(settlement="none").exclude(pk=ostland.capitol_id).order_by("number").first()
    city = ostland.provinces.filter(settlement="city").exclude(pk=ostland.capitol_id).order_by("number").first()
    town = ostland.provinces.filter(settlement__in=("town", "city")).order_by("number").first()
    # A Tomb Raider of Tor Anlec's Ostland holds (Reconnaissance, Sabotage), whose fate the page offers.
    held = CapturedRaider.objects.create(
        campaign=turn.campaign, captor=ostland, owner=anlec, entry="Spearmen", captured_turn=0
    )
    # A Destroy Communication Ostland earned against Tor Anlec, which the page offers to use.
    earned = MissionEffect.objects.create(
        campaign=turn.campaign,
        kingdom=ostland,
        target=anlec,
        mission="destroy-communication",
        earned_turn=turn.number - 1,
        expires_turn=turn.number + 1,
    )
    sheet = SheetEntries(
        orders=(ArmyOrder(army.id, OrderKind.MOVE, target=target.number, disaster_choice="disband"),),
        creations=(CreateArmy("Reserve", 1000, given.number),),
        upgrades=(UpgradeArmy(army.id, 3000),),
        depots=(BuySupplyDepot(army.id),),
        garrisons=(ReinforceGarrison(town.number),),
        losses=(LossesFrom(army.id, unit.name),),
        purchases=(Purchase(army.id, "recruits", unit=unit.name, models=5),),
        alliances=(DeclareAlliance(dumn.id),),
        gold_transfers=(TransferGold(anlec.id, 250),),
        item_transfers=(TransferItem(dumn.id, "Enchanted Shield"),),
        land_deals=(LandDeal(dumn.id, given.number, 100),),
        capitol_moves=(MoveCapitol(city.number),),
        captive_orders=(CaptiveOrder(held.pk, "released"),),
        mission_uses=(MissionUse(earned.pk),),
    )
    data = sheet_to_json(sheet)
    # Every part but the end of an alliance, which the page offers only to a kingdom with an ally, and
    # the Tomb Raiders' mission, which it offers only to a kingdom with a force and an army moving into ruins.
    assert [part for part, entries in data.items() if not entries] == ["alliance_ends", "missions"]
    alice = get_user_model().objects.get(username="alice")

    response = api_client_for(alice).put(f"/api/turns/{turn.pk}/sheet/", {**data, "submit": False}, format="json")
    assert response.status_code == 200, response.json()
    through_the_api = OrderSheet.objects.get(turn=turn, kingdom=ostland).entries
    assert through_the_api == data

    browser = Client()
    browser.force_login(alice)
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = browser.get(url).content.decode()
    OrderSheet.objects.filter(turn=turn, kingdom=ostland).update(entries={})
    assert browser.post(url, {**_posted(page), "action": "draft"}).status_code == 302
    through_the_form = OrderSheet.objects.get(turn=turn, kingdom=ostland).entries
    assert through_the_form == data

    document = campaign_export(campaign=turn.campaign)
    (exported,) = [s for s in document["turns"][0]["sheets"] if s["kingdom"] == "Ostland"]
    assert _with_ids(exported["entries"], turn.campaign) == data


def test_an_unreadable_stored_sheet_stops_the_export_naming_it_and_the_field(turn, k):
    """The export writes the codec's JSON: a sheet it cannot read is named with its field, as an
    entry naming an army outside the campaign is, rather than written for the import to refuse."""
    OrderSheet.objects.create(turn=turn, kingdom=k["Ostland"], entries={"orders": [{"army": "1st"}]})
    with pytest.raises(DomainError, match=r"the order sheet of Ostland for turn 1 cannot be read: orders\[0\]\.army"):
        campaign_export(campaign=turn.campaign)
