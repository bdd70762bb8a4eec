"""A phase whose result fails the sanity check is rolled back and the organizer told (issue 17)."""

from __future__ import annotations

import pytest

from briternia.errors import DomainError
from demo.campaign import demo_campaign_create
from kingdoms.models import Kingdom, TreasuryEntry
from tests.clients import pages_as
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run

pytestmark = pytest.mark.django_db


def test_an_orders_phase_leaving_a_treasury_below_zero_is_rolled_back_and_shown_to_the_organizer() -> None:
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    # An organizer's mistaken adjustment no income of the turn can make up for.
    TreasuryEntry.objects.create(
        kingdom=ostland, turn=1, amount=-1_000_000, reason=TreasuryEntry.Reason.ADJUSTMENT, note="typo"
    )
    rows_before = TreasuryEntry.objects.filter(kingdom__campaign=campaign).count()

    with pytest.raises(DomainError):
        orders_phase_run(turn_id=turn.pk)

    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN  # the claim rolled back with the rest
    assert not TurnEvent.objects.filter(turn=turn).exists()
    assert TreasuryEntry.objects.filter(kingdom__campaign=campaign).count() == rows_before
    assert "fails the sanity check" in turn.resolution_error
    assert "Ostland's treasury is" in turn.resolution_error and "below zero" in turn.resolution_error
    page = pages_as("organizer").get(f"/turns/{turn.pk}/results/").content.decode()
    assert "Ostland&#x27;s treasury is" in page or "Ostland's treasury is" in page

    # The organizer corrects the mistake; the turn resolves.
    TreasuryEntry.objects.create(
        kingdom=ostland, turn=1, amount=1_000_000, reason=TreasuryEntry.Reason.ADJUSTMENT, note="typo undone"
    )
    assert orders_phase_run(turn_id=turn.pk).resolved
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.resolution_error == ""
