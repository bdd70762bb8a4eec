"""A phase whose result fails the sanity check is rolled back and the organizer told (issue 17)."""

from __future__ import annotations

import pytest

from briternia.errors import DomainError
from demo.campaign import demo_campaign_create
from kingdoms.models import Alliance, Army, Kingdom, TreasuryEntry
from kingdoms.services.world import world_load
from rulebook.sanity import world_problems
from tests.clients import pages_as
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run
from turns.services.sanity import sanity_world_load

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


def test_the_check_reads_the_stored_world_as_the_whole_loader_does_for_every_problem() -> None:
    """The check reads only what it needs of the stored world (`sanity_world_load`): it finds the
    same problems, in the same words, as it would in the world the phases load (world_load)."""
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    names = ("Ostland", "Da Red Fang", "Karak Dumn")
    ostland, red_fang, karak = (Kingdom.objects.get(campaign=campaign, name=n) for n in names)
    TreasuryEntry.objects.create(kingdom=ostland, turn=1, amount=-1_000_000, reason=TreasuryEntry.Reason.ADJUSTMENT)
    # Armies of two unallied kingdoms in one province with no battle; allies sharing one are fine.
    meeting = Army.objects.filter(kingdom=ostland, status=Army.Status.ACTIVE).first().province
    Army.objects.filter(kingdom=red_fang, kind=Army.Kind.FIELD).update(province=meeting)
    Alliance.objects.create(campaign=campaign, first=ostland, second=karak, trust="T", formed_turn=0)
    Army.objects.filter(kingdom=karak, kind=Army.Kind.FIELD).update(province=meeting)

    problems = world_problems(sanity_world_load(turn=turn))
    assert any("Ostland's treasury is" in p for p in problems)
    assert any("Armies of " in p and "Da Red Fang" in p for p in problems)
    assert problems == world_problems(world_load(campaign=campaign, turn_number=1))
    battles = frozenset({meeting.number})
    assert world_problems(sanity_world_load(turn=turn), battle_provinces=battles) == world_problems(
        world_load(campaign=campaign, turn_number=1), battle_provinces=battles
    )
