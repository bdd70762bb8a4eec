"""Fixtures the order tests share: the demo campaign's first turn and Alice's kingdom."""

from __future__ import annotations

import pytest

from kingdoms.models import Kingdom


@pytest.fixture
def turn(demo_campaign):
    return demo_campaign.turns.get(number=1)


@pytest.fixture
def ostland(demo_campaign):
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
