"""The experience ledger (kingdoms/services/experience.py): every change of an army's experience
is a row with its reason and turn, and the army's balance is what its rows add up to.
Rulebook: Experience Points, Spending Experience."""

import pytest
from django.db.models import Sum

from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kernel.events import Event
from kingdoms.models import Army, ExperienceEntry
from kingdoms.services.experience import experience_adjust, experience_rows_write
from turns.models import TurnEvent


def test_a_played_turn_leaves_every_army_s_experience_equal_to_its_ledger(demo_campaign, demo_turn_played):
    # The turn's scenario sheets and reports are queued, not rendered: the ledger is what is checked.
    armies = Army.objects.filter(kingdom__campaign=demo_campaign)
    earned = [a for a in armies if a.experience]
    assert earned, "the demo's battles earn experience"
    for army in armies:
        assert army.experience == (army.experience_ledger.aggregate(t=Sum("amount"))["t"] or 0), army.name
    # Each row is the event that moved it: its reason the event's code, its note the event's words.
    for event in TurnEvent.objects.filter(turn__campaign=demo_campaign, code=EventCode.EXPERIENCE):
        row = ExperienceEntry.objects.get(army=event.army, reason=EventCode.EXPERIENCE, turn=1)
        assert (row.amount, row.note) == (event.data["experience"], event.text)


def test_a_balance_the_events_do_not_explain_writes_nothing(demo_campaign):
    army = Army.objects.filter(kingdom__campaign=demo_campaign).first()
    gain = Event("aftermath", EventCode.EXPERIENCE, "It gains 50 experience.", army=army.id, experience=50)
    with pytest.raises(ValueError, match="its ledger rows move it by 50"):
        experience_rows_write(turn=1, events=[gain], before={army.id: 0}, after={army.id: 75})
    assert not ExperienceEntry.objects.filter(army=army).exists()


def test_the_organizer_s_correction_is_a_row_with_its_reason(demo_campaign):
    army = Army.objects.filter(kingdom__campaign=demo_campaign).first()
    with pytest.raises(DomainError, match="Say why"):
        experience_adjust(army=army, turn=1, amount=10, reason="  ")
    with pytest.raises(DomainError, match="cannot lose 5"):
        experience_adjust(army=army, turn=1, amount=-5, reason="Typo in the last sheet")
    entry = experience_adjust(army=army, turn=1, amount=10, reason="A story posted on the forum")
    army.refresh_from_db()
    assert army.experience == 10
    assert (entry.reason, entry.note, entry.amount) == ("adjustment", "A story posted on the forum", 10)
