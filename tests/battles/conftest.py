"""A demo campaign whose turn 1 is resolved into battles: a field battle with a support
detachment, and a battle for a city against its garrison."""

from __future__ import annotations

import pytest

from kingdoms.models import Army, Campaign, Province
from tests.battle_setup import file_battle_orders
from tests.conftest import DEMO
from tests.shared_rows import Layer
from turns.models import Turn
from turns.services.cycle import orders_phase_run


@pytest.fixture
def province(demo_campaign):
    return lambda number: Province.objects.get(campaign=demo_campaign, number=number)


def _battles_filed_build(campaign: Campaign, capture) -> dict[str, Army]:
    return file_battle_orders(campaign, campaign.turns.get(number=1))


def _battles_posted_build(filed: dict[str, Army], capture) -> dict[str, Army]:
    """Turn 1 resolved: its battles scheduled, their scenarios rolled and emailed."""
    campaign_id = next(iter(filed.values())).kingdom.campaign_id
    turn = Turn.objects.get(campaign_id=campaign_id, number=1)
    with capture(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    return filed


BATTLES_FILED = Layer("demo campaign, turn 1's battle orders filed", _battles_filed_build, parent=DEMO)
BATTLES_POSTED = Layer("demo campaign, turn 1's battles posted", _battles_posted_build, parent=BATTLES_FILED)


@pytest.fixture
def battles_filed(demo_campaign, turn, shared_layers):
    """Turn 1's orders that make the battles, filed (built once per run: tests/shared_rows.py)."""
    return shared_layers.take(BATTLES_FILED)


@pytest.fixture
def battles_posted(turn, battles_filed, shared_layers):
    """Turn 1 resolved: its battles scheduled, their scenarios rolled and emailed (built once for
    the tests that follow one another and ask for it)."""
    filed = shared_layers.take(BATTLES_POSTED)
    turn.refresh_from_db()
    return filed
