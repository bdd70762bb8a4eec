"""Turn resolution phase 1: Tally Gold (Tax Table, Imperial Taxation, Deserts).
Pure rules: no database; the state is built by hand and the dice are scripted."""

from __future__ import annotations

from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.tables import ArmyType
from rulebook.turn.tally_gold import IMPERIAL_TAXATION, TAXES, tally_gold
from tests.rulebook.turn.economy_scene import OTHER, K, build, ledger, province

# ---------------------------------------------------------------------------------------------
# 1. Tally Gold


def test_tax_tables_are_the_rulebooks():
    assert TAXES == {"city": 300, "town": 150, "province": 30}
    assert IMPERIAL_TAXATION == {"city": 50, "town": 25, "province": 5}


def test_case_G1_a_settlement_yields_its_tax_only_and_a_razed_province_nothing():
    state = build(
        provinces=[
            province(1, settlement="city"),  # the capitol
            province(2, settlement="town"),
            province(3),
            province(4),
            province(5, razed=True),
            province(6, controller=OTHER),
        ],
        treasury=1000,
    )
    events: list[Event] = []

    tally_gold(state, events)

    assert state.kingdoms[K].treasury == 1510
    assert ledger([e for e in events if e.kingdom == K]) == [("taxes", 510, LedgerReason.TAXES)]
    assert events[0].phase == "tally-gold"
    assert events[0].text == "Taxes: 1 city (300), 1 town (150), 2 provinces (60)."
    # OTHER's single plain province gives it 30, in its own event.
    assert state.kingdoms[OTHER].treasury == 30
    assert [(e.kingdom, e.gold) for e in events] == [(K, 510), (OTHER, 30)]


def test_ruins_are_taxed_as_a_plain_province():
    state = build(provinces=[province(1, settlement="ruins"), province(2, settlement="ruins")])
    events: list[Event] = []

    tally_gold(state, events)

    assert state.kingdoms[K].treasury == 60
    assert events[0].text == "Taxes: 2 provinces (60)."


def test_case_G2_empire_collects_then_pays_imperial_taxation():
    state = build(
        provinces=[province(1, settlement="city"), province(2, settlement="town"), province(3), province(4)],
        treasury=100,
        army_type=ArmyType.EMPIRE,
    )
    events: list[Event] = []

    tally_gold(state, events)

    assert ledger(events) == [
        ("taxes", 510, LedgerReason.TAXES),
        ("imperial-taxation", -85, LedgerReason.IMPERIAL_TAXATION),
    ]
    assert state.kingdoms[K].treasury == 100 + 425
    assert "1 city (50), 1 town (25), 2 provinces (10)" in events[1].text


def test_imperial_taxation_spares_razed_and_desert_provinces():
    state = build(
        provinces=[province(1, settlement="city"), province(2, razed=True), province(3, terrain="desert")],
        army_type=ArmyType.EMPIRE,
    )
    events: list[Event] = []

    tally_gold(state, events)

    assert ledger(events) == [
        ("taxes", 300, LedgerReason.TAXES),
        ("imperial-taxation", -50, LedgerReason.IMPERIAL_TAXATION),
    ]
    assert state.kingdoms[K].treasury == 250


def test_case_G3_desert_and_razed_provinces_yield_nothing_whoever_controls_them():
    state = build(
        provinces=[
            province(1, terrain="desert"),
            province(2, settlement="ruins", terrain="desert"),
            province(3, settlement="town", razed=True),
            province(4, settlement="city", razed=True),
            province(5, terrain="desert", controller=OTHER),
        ],
        treasury=40,
        other_type=ArmyType.ANCIENT_DEAD,
    )
    events: list[Event] = []

    tally_gold(state, events)

    assert events == []  # no income, no event
    assert state.kingdoms[K].treasury == 40
    assert state.kingdoms[OTHER].treasury == 0
