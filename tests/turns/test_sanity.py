"""A phase whose result fails the sanity check is rolled back and the organizer told (issue 17)."""

from __future__ import annotations

import pytest

from briternia.errors import DomainError
from demo.campaign import demo_campaign_create
from kingdoms.models import Alliance, Army, ArmyMovement, Campaign, Kingdom, Province, TreasuryEntry
from kingdoms.services.world import world_load
from rulebook.sanity import world_problems
from tests.clients import pages_as
from turns.models import Turn, TurnEvent
from turns.services import cycle
from turns.services.cycle import orders_phase_run
from turns.services.log_references import log_references_dangling
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


def test_an_orders_phase_writing_an_event_of_an_army_that_does_not_exist_is_rolled_back(monkeypatch) -> None:
    """A turn's events keep their keys without a database constraint (turns/models.py): the sanity
    check is what refuses a writer that names an army no longer there, as the constraint did at commit."""
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    gone = Army.objects.order_by("-id").values_list("id", flat=True)[0] + 1000
    real_write = cycle.resolution_write

    def write_naming_a_gone_army(**arguments):  # the writer with a bug: an id the world does not have
        army_ids = real_write(**arguments)
        TurnEvent.objects.create(turn=turn, sequence=99_999, phase="orders", code="moved", text="?", army_id=gone)
        return army_ids

    monkeypatch.setattr(cycle, "resolution_write", write_naming_a_gone_army)
    with pytest.raises(DomainError):
        orders_phase_run(turn_id=turn.pk)

    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN and not TurnEvent.objects.filter(turn=turn).exists()
    assert "fails the sanity check" in turn.resolution_error
    assert f"Event #99999 (moved) of the turn names a kingdom (None) or an army ({gone})" in turn.resolution_error
    monkeypatch.undo()
    assert orders_phase_run(turn_id=turn.pk).resolved  # the writer mended, the turn resolves


def test_the_turns_events_and_movements_must_name_rows_of_their_own_campaign() -> None:
    """Stricter than the dropped constraints: a row of another campaign exists, and is refused too."""
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    assert log_references_dangling(turn=turn) == []
    elsewhere = Campaign.objects.create(name="Elsewhere", organizer=campaign.organizer, player_count=2)
    stranger = Kingdom.objects.create(campaign=elsewhere, name="Stranger", army_type="empire")
    far = Province.objects.create(campaign=elsewhere, number=1, name="Far", col=0, row=0, terrain="plains")
    own_army = Army.objects.filter(kingdom__campaign=campaign).first()
    TurnEvent.objects.create(turn=turn, sequence=99_998, phase="orders", code="gold", text="?", kingdom=stranger)
    ArmyMovement.objects.create(army=own_army, turn=turn.number, step=9, province=far)
    # Another turn's movement is not this turn's to check.
    ArmyMovement.objects.create(army=own_army, turn=turn.number + 5, step=9, province=far)

    problems = log_references_dangling(turn=turn)
    assert len(problems) == 2
    assert f"Event #99998 (gold) of the turn names a kingdom ({stranger.pk})" in problems[0] + problems[1]
    assert f"Step 9 of army {own_army.pk}'s movement this turn is in a province ({far.pk})" in problems[0] + problems[1]
