"""A demo campaign whose turn 1 is resolved into battles: a field battle with a support
detachment, and a battle for a city against its garrison."""

from __future__ import annotations

import pytest

from kingdoms.models import Province
from tests.battle_setup import file_battle_orders
from turns.services.cycle import orders_phase_run


@pytest.fixture
def province(demo_campaign):
    return lambda number: Province.objects.get(campaign=demo_campaign, number=number)


@pytest.fixture
def battles_filed(demo_campaign, turn):
    return file_battle_orders(demo_campaign, turn)


@pytest.fixture
def battles_posted(turn, battles_filed, django_capture_on_commit_callbacks):
    """Turn 1 resolved: its battles scheduled, their scenarios rolled and emailed."""
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    turn.refresh_from_db()
    return battles_filed
