"""Fixtures the order tests share: the demo campaign's first turn, Alice's kingdom, the demo's
kingdoms by name and its turn 1 played through (the reports' and the league table's tests)."""

from __future__ import annotations

import pytest
from django.core import mail

from battles.models import Battle
from kingdoms.models import Campaign, Kingdom, Unit
from tests.battle_setup import file_battle_orders, sheet_filed
from tests.conftest import DEMO
from tests.shared_rows import Layer
from turns.models import Turn
from turns.services.cycle import aftermath_phase_run, orders_phase_run


@pytest.fixture
def ostland(demo_campaign):
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland")


def _reported_build(campaign: Campaign, capture) -> Turn:
    """Turn 1 of the demo campaign played through: orders, battles, sheets, the aftermath; the
    reports are rendered and sent when the aftermath commits."""
    k = {x.name: x for x in Kingdom.objects.filter(campaign=campaign)}
    turn = campaign.turns.get(number=1)
    file_battle_orders(campaign, turn)
    with capture(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    battles = {b.province.number: b for b in Battle.objects.filter(turn=turn)}
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    sheet_filed(battles[62], k["Tor Anlec"], result="minor-victory")
    losses = [{"unit": halberdiers.id, "models_lost": 10}]
    sheet_filed(battles[62], k["Ostland"], result="minor-loss", casualties=losses)
    sheet_filed(battles[61], k["Da Red Fang"], result="minor-loss")
    sheet_filed(battles[61], k["Ostland"], result="minor-victory")
    mail.outbox.clear()
    with capture(execute=True):
        assert aftermath_phase_run(turn_id=turn.pk).resolved
    return turn


REPORTED = Layer("demo campaign, turn 1 reported", _reported_build, parent=DEMO, clears_outbox=True)


@pytest.fixture
def reported(demo_campaign, k, shared_layers) -> Turn:
    """Turn 1 of the demo campaign played through: orders, battles, sheets, the aftermath; the
    reports are rendered and sent when the aftermath commits (built once per run:
    tests/shared_rows.py). Its outbox holds the aftermath's emails."""
    return shared_layers.take(REPORTED)
