"""The export reads each table a fixed number of times however many kingdoms the campaign has (the
snapshot before each phase is an export: transfer/snapshots.py), and grouping a table's rows by
kingdom in Python keeps each kingdom's lists in the order a read of that kingdom alone gives. The
campaigns are `make bench`'s generated ones (demo/management/commands/bench.py)."""

from __future__ import annotations

from collections import Counter

from django.db import connection
from django.test.utils import CaptureQueriesContext

from demo.management.commands.bench import campaign_generate
from kingdoms.models import ArmoryItem, Campaign, TreasuryEntry
from transfer.export import campaign_export

# Created round the kingdoms, name by name: each table's ids alternate between the kingdoms, and a
# kingdom's armory (by name) and ledger (by turn) are in neither creation nor id order. The common
# potions share a name, so the id breaks their tie (the first made is worth 15).
ITEMS = [
    ("Wizarding Hat", 40, False),
    ("Healing Potion", 15, True),
    ("Dragon Bow", 50, False),
    ("Healing Potion", 5, True),
]
LEDGER = [(2, -40, "Wizarding Hat"), (1, 25, "Dragon Bow"), (2, 10, "Taxes"), (1, -5, "Upkeep")]


def _campaign(kingdoms: int, size: int) -> Campaign:
    campaign = campaign_generate(kingdoms=kingdoms, columns=size, rows=size, armies_per_kingdom=3, seed=1)
    realms = list(campaign.kingdoms.order_by("id"))
    for (name, points, common), (turn, amount, note) in zip(ITEMS, LEDGER, strict=True):
        for kingdom in realms:
            ArmoryItem.objects.create(kingdom=kingdom, name=name, points=points, common=common)
            TreasuryEntry.objects.create(
                kingdom=kingdom, turn=turn, amount=amount, reason=TreasuryEntry.Reason.ADJUSTMENT, note=note
            )
    return campaign


def _export_queries(campaign: Campaign) -> int:
    with CaptureQueriesContext(connection) as queries:
        campaign_export(campaign=campaign)
    return len(queries.captured_queries)


def test_the_export_takes_the_same_queries_for_4_and_8_kingdoms(db):
    small = _campaign(4, 8)
    large = _campaign(8, 10)
    assert _export_queries(large) == _export_queries(small)


def test_each_kingdom_s_treasury_and_armory_are_its_own_rows_in_its_own_order(db):
    campaign = _campaign(4, 8)
    document = campaign_export(campaign=campaign)
    kingdoms = list(campaign.kingdoms.order_by("id"))
    assert [k["name"] for k in document["kingdoms"]] == [k.name for k in kingdoms]
    for kingdom, row in zip(kingdoms, document["kingdoms"], strict=True):
        # What reading this kingdom's rows alone gives (the export's reading before issue 35).
        ledger = kingdom.ledger.order_by("turn", "id")
        items = kingdom.items.order_by("name", "id")
        assert [(e["turn"], e["amount"], e["reason"], e["note"]) for e in row["treasury"]] == [
            (e.turn, e.amount, e.reason, e.note) for e in ledger
        ]
        assert [(i["name"], i["points"], i["common"]) for i in row["armory"]] == [
            (i.name, i.points, i.common) for i in items
        ]
        assert [e["note"] for e in row["treasury"]] == ["", "Dragon Bow", "Upkeep", "Wizarding Hat", "Taxes"]
        assert [i["points"] for i in row["armory"]] == [50, 15, 5, 40]


def test_the_export_reads_nothing_twice(db):
    """Each read of the export is made once: a table read again the same way is time the snapshot
    before every phase pays for nothing (as when a model's rows were read both by the engine,
    transfer/layout.py, and again by a section that did not need them)."""
    campaign = _campaign(4, 8)
    with CaptureQueriesContext(connection) as queries:
        campaign_export(campaign=campaign)
    statements = Counter(query["sql"] for query in queries.captured_queries)
    assert [sql for sql, count in statements.items() if count > 1] == []
