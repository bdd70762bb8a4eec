"""The order sheet as text (orders.sheet_text; Appendix: Order Sheet; 4. Write Orders): every part of
the sheet written and read back unchanged, names read whatever their case and spacing, and every line
that cannot be read named by its number. Pure: no database."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import pytest

from orders.entries import BOOL, INT, INT_LIST, INT_OR_NULL, SECTIONS, sheet_to_json
from orders.sheet_text import (
    PARTS,
    REFERENCES,
    SheetNames,
    SheetTextError,
    sheet_text_header,
    sheet_text_read,
    sheet_text_write,
)
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries

NAMES = SheetNames(
    armies={
        1: "First Army",
        2: "The Grey Host",
        3: "Third",
        4: "Fourth",
        5: "Fifth",
        6: "Sixth",
        7: "Seventh",
        8: "Eighth",
        9: "Ninth",
        40: "Red Raiders",
    },
    own_armies=frozenset(range(1, 10)),
    kingdoms={11: "Ostland", 12: "Bretonnia"},
    characters={21: "Ludwig the Bold"},
    positions={a: 100 + a for a in range(1, 10)},
)
HEADER = {"campaign": "Old World", "turn": 3, "kingdom": "Ostland", "draft": "no"}


def _value(section: str, name: str, kind: str, choices: tuple[str, ...], default: Any) -> Any:
    """A value of the field other than its default (so that a field the text forgets fails)."""
    if name in REFERENCES:
        return {"armies": 40 if name == "target_army" else 2, "kingdoms": 12, "characters": 21}[REFERENCES[name]]
    if choices:
        return next(c for c in reversed(choices) if c != default)
    if kind == BOOL:
        return not default
    if kind in (INT, INT_OR_NULL):
        return 7 if name != "gold" else 1_250
    if kind == INT_LIST:
        return (3, 4)
    return 'Swordsmen; the "old" ones' if section == "purchases" and name == "name" else "Swordsmen"


def every_part_sheet() -> SheetEntries:
    """A sheet with an entry in every part whose every field differs from its default, and an order of
    every kind; the parts and fields are read from the records, so a new one is in it."""
    parts: dict[str, tuple[Any, ...]] = {}
    for name, section in SECTIONS.items():
        if name == "orders":
            continue
        values = {f.name: _value(name, f.name, f.kind, f.choices, f.default) for f in section.fields}
        parts[name] = (section.record(**values),)
    orders = []
    for army, kind in enumerate(OrderKind, start=1):
        order = ArmyOrder(army=army, kind=kind)
        if kind in (OrderKind.MOVE, OrderKind.RAZE_MOVE):
            order = replace(order, target=200 + army)
        if kind is OrderKind.SUPPORT:
            order = replace(order, support=300)
        if kind is OrderKind.FORCED_MARCH:
            order = replace(order, path=(201, 202))
        orders.append(order)
    # The standing choices, none at its default, on the first army.
    orders[3] = replace(
        orders[3],
        support=301,
        disaster_choice="disband",
        pay_for_depot=False,
        defend_with="garrison",
        take_control=True,
    )
    parts["orders"] = tuple(orders)
    return SheetEntries(**parts)


def test_every_part_of_the_sheet_round_trips():
    sheet = every_part_sheet()
    # Every field of every part is off its default somewhere: the text must carry it.
    for name, section in SECTIONS.items():
        entries = getattr(sheet, name)
        assert entries, name
        for f in fields(section.record):
            if f.name != "kind" or name != "orders":
                assert any(getattr(e, f.name) != f.default for e in entries), (name, f.name)
    text = sheet_text_write(header=HEADER, entries=sheet, names=NAMES)
    read = sheet_text_read(text, NAMES)
    assert read.entries == sheet
    assert sheet_to_json(read.entries) == sheet_to_json(sheet)
    assert sheet_text_write(header=HEADER, entries=read.entries, names=NAMES) == text
    assert read.header["kingdom"] == "Ostland" and read.draft is False


def test_every_part_has_a_label_and_help():
    assert set(PARTS) == set(SECTIONS) - {"orders"}
    text = sheet_text_write(header=HEADER, entries=SheetEntries(), names=NAMES)
    # Help lines are wrapped short, so a mail client breaking long lines leaves them help.
    assert max(len(line) for line in text.splitlines() if line.startswith("#")) <= 72
    unwrapped = " ".join(
        line.removeprefix("# ") if line.startswith("# ") else "\n" + line for line in text.splitlines()
    )
    for part in PARTS.values():
        assert f"{part.label}: {part.help}." in unwrapped


def test_the_rulebooks_order_sheet_words():
    """Appendix: Order Sheet: "Army name / number", "Move into Province #", "Raze and Hold in Province #"."""
    sheet = SheetEntries(
        orders=(ArmyOrder(army=1, kind=OrderKind.MOVE, target=12), ArmyOrder(army=2, kind=OrderKind.RAZE_HOLD))
    )
    text = sheet_text_write(header=HEADER, entries=sheet, names=NAMES)
    assert "Army name / number: First Army\nOrder: Move into Province # 12\n" in text
    assert "Army name / number: The Grey Host\nOrder: Raze and Hold in Province # 102\n" in text


def test_names_and_orders_read_whatever_their_case_and_spacing():
    text = """
    Campaign:  Old World
    Turn: 3
    Kingdom played:   ostland
    army name / number:   the  GREY host
    order:  raze & move into province #14
    Pay for supply depot: NO
    Army name / number: #1
    Order: forced march through 5,6
    transfer gold:  kingdom = BRETONNIA ; gold = 1,000
    """
    read = sheet_text_read(text, NAMES)
    assert read.header == {"campaign": "Old World", "turn": "3", "kingdom": "ostland"}
    assert read.entries.orders == (
        ArmyOrder(army=2, kind=OrderKind.RAZE_MOVE, target=14, pay_for_depot=False),
        ArmyOrder(army=1, kind=OrderKind.FORCED_MARCH, path=(5, 6)),
    )
    assert read.entries.gold_transfers[0].kingdom == 12 and read.entries.gold_transfers[0].gold == 1000
    assert sheet_text_header(text)["kingdom"] == "ostland"


def test_draft_line():
    assert sheet_text_read("Draft: yes\n", NAMES).draft is True
    assert sheet_text_read("Draft: no\n", NAMES).draft is False


def test_every_garbage_line_is_named_by_its_number():
    text = (
        "Campaign: Old World\nHello organizer!\nArmy name / number: Nobody\nOrder: dance\nTransfer gold: gold = lots\n"
        "Transfer gold: kingdom = Ostland; gold = 99999999999999999999\n"
    )
    with pytest.raises(SheetTextError) as refused:
        sheet_text_read(text, NAMES)
    messages = refused.value.messages
    assert messages[0].startswith('Line 2: "Hello organizer!" is no line of an order sheet')
    assert messages[1].startswith('Line 3: no army of yours is named "Nobody"')
    assert messages[2].startswith('Line 4: "Order: dance" belongs in an army\'s block')
    assert messages[3].startswith('Line 5 (Transfer gold): gold: "lots": write a whole number')
    assert messages[4].startswith('Line 6 (Transfer gold): gold: "99999999999999999999": write a whole number (0 to')


def test_an_order_that_stays_is_given_where_the_army_stands():
    """4. Write Orders: Hold in Province # is where the army stands; another number is a mistake, said."""
    with pytest.raises(SheetTextError) as refused:
        sheet_text_read("Army name / number: First Army\nOrder: Hold in Province # 7\n", NAMES)
    assert "First Army stands in Province # 101" in refused.value.messages[0]


def test_a_codec_problem_is_placed_on_its_line():
    with pytest.raises(SheetTextError) as refused:
        sheet_text_read("\n\nTomb Raider mission: kind = treasure hunt\n", NAMES)
    assert refused.value.messages[0].startswith("Line 3 (Tomb Raider mission): kind should be one of")


def test_problems_of_the_check_find_their_lines():
    read = sheet_text_read(
        "Army name / number: First Army\nOrder: Move into Province # 9\n\n"
        "Transfer gold: kingdom = Bretonnia; gold = 5\n",
        NAMES,
    )
    assert read.line_of({"army": 1, "armies": [1]}) == 1
    assert read.line_of({"army": None, "armies": [], "part": "gold_transfers", "entry": 0}) == 4


def test_an_elite_defense_force_is_named_in_the_sheet_s_text_for_its_purchases():
    """Battle for Towns, Cities, and Capitols (decision 620): the Elite Defense Force spends its
    experience on the order sheet, so the sheet by email names it: a purchase written with its name is
    read back as its own (the text knew only the field armies)."""
    from orders.services.sheet_text import sheet_names
    from rulebook.tables import ArmyType
    from rulebook.turn.write_orders.context import order_sheet_context
    from rulebook.turn.write_orders.records import Purchase
    from tests import world_builders as wb

    world = wb.world(
        provinces=[wb.province(1, "plains", "town", controller=1)],
        kingdoms=[wb.kingdom(1, "Ostland", ArmyType.EMPIRE)],
        armies=[wb.army(10, 1, 1, name="1st Army")],
        garrisons=[wb.garrison(20, 1, 1, name="Elite Defense Force of Riverton")],
    )
    names = sheet_names(order_sheet_context(world, 1))
    sheet = SheetEntries(purchases=(Purchase(20, "veteran", unit="Town Guard"),))
    text = sheet_text_write(
        header={"campaign": "Briternia", "turn": "1", "kingdom": "Ostland"}, entries=sheet, names=names
    )
    assert "Elite Defense Force of Riverton" in text
    assert sheet_text_read(text, names).entries.purchases == sheet.purchases


def test_a_forced_march_that_also_supports_round_trips_and_the_help_says_how():
    """Decision 588 (4. Write Orders: "Move and / or Support"; a Forced March is how an army moves): a
    Forced March's support is written on the line "Also support battles in Province #" under it and
    read back, and the help above the army blocks tells the player the line exists."""
    sheet = SheetEntries(orders=(ArmyOrder(army=1, kind=OrderKind.FORCED_MARCH, path=(12, 13), support=14),))
    text = sheet_text_write(header=HEADER, entries=sheet, names=NAMES)
    said = [line for line in text.splitlines() if not line.startswith("#")]
    order = said.index("Order: Forced March through Province # 12, 13")
    assert said[order + 1] == "Also support battles in Province #: 14"
    assert sheet_text_read(text, NAMES).entries == sheet
    unwrapped = " ".join(line.removeprefix("# ") for line in text.splitlines() if line.startswith("# "))
    assert (
        'A Move or a Forced March may support a battle too: add the line "Also support battles in Province #: N"'
        in (unwrapped)
    )
