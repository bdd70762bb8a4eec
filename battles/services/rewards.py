"""The organizer's rewards between the phases: Painting Counts (an army marked painted) and Stories
Are Nice (one or two more experience for a good story). Each is an event of the campaign's current
turn, so the turn's log and its reports tell it; experience moves only with its ledger row."""

from __future__ import annotations

from django.db import transaction

from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kernel.events import Event
from kingdoms.models import Army
from kingdoms.services.experience import experience_award
from orders.services.events import turn_event_record
from orders.services.turns import current_turn
from turns.models import TurnEvent

from ..models import TurnSummarySheet

PHASE = "organizer"  # what the organizer did between the phases
STORY_EXTRA_MOST = 2  # Stories Are Nice: "possibly one or two additional bonus Experience Points"


@transaction.atomic
def army_painted_set(*, army: Army, painted: bool) -> Army:
    """Painting Counts: the organizer marks the army painted (or takes the mark back). From its next
    scenario on, it adds +1 to its rolls for first turn and for picking table sides."""
    army = Army.objects.select_for_update().select_related("kingdom__campaign").get(pk=army.pk)
    if army.status != Army.Status.ACTIVE:
        raise DomainError(f"{army.name} is disbanded; it fights no more battles to be painted for.")
    if army.painted == painted:
        return army
    army.painted = painted
    army.save(update_fields=["painted"])
    turn = current_turn(army.kingdom.campaign)
    if turn is not None:  # during setup there is no turn's log yet; the mark is on the army
        words = (
            "is marked a painted army: +1 to its rolls for first turn and table sides (Painting Counts)"
            if painted
            else "is no longer marked a painted army (Painting Counts)"
        )
        turn_event_record(
            turn,
            Event(
                phase=PHASE,
                code=EventCode.ARMY_PAINTED,
                text=f"{army.name} {words}.",
                kingdom=army.kingdom_id,
                army=army.id,
                data={"painted": painted},
            ),
        )
    return army


def story_army(sheet: TurnSummarySheet) -> Army | None:
    """The army the kingdom's story experience of the sheet's turn went to (the aftermath's STORY
    event), or None before the aftermath or when it gave none."""
    event = (
        TurnEvent.objects.filter(turn=sheet.battle.turn, code=EventCode.STORY, kingdom=sheet.kingdom)
        .select_related("army")
        .first()
    )
    return event.army if event is not None else None


def story_bonus_given(sheet: TurnSummarySheet) -> bool:
    """Whether the organizer already gave the kingdom its extra for this turn's story (once per turn)."""
    turn = sheet.battle.turn
    return TurnEvent.objects.filter(
        turn__campaign=turn.campaign,
        code=EventCode.STORY_BONUS,
        kingdom=sheet.kingdom,
        data__story_turn=turn.number,
    ).exists()


@transaction.atomic
def story_bonus_award(*, sheet: TurnSummarySheet, amount: int) -> Event:
    """Stories Are Nice: the organizer, the story in front of him, adds 1 or 2 experience for a good
    one, to the army that got the story's 3 (the player's choice); once per kingdom and turn. The
    award is an event of the campaign's current turn, and a row of the army's ledger."""
    battle = sheet.battle
    kingdom = sheet.kingdom
    if not 1 <= amount <= STORY_EXTRA_MOST:
        raise DomainError(
            f"{kingdom.name}: the organizer may add 1 or 2 experience for a good story (Stories Are Nice); "
            f"not {amount}."
        )
    if not sheet.story.strip():
        raise DomainError(f"{kingdom.name}: this turn summary sheet has no story to reward (Stories Are Nice).")
    army = story_army(sheet)
    if army is None:
        raise DomainError(
            f"{kingdom.name}: the story's 3 experience come with the turn's aftermath, to the army the player "
            "chose; give the extra after it (Stories Are Nice)."
        )
    if army.status != Army.Status.ACTIVE:
        raise DomainError(f"{army.name} is disbanded; its experience can no longer grow (Stories Are Nice).")
    if story_bonus_given(sheet):
        raise DomainError(
            f"{kingdom.name} already has its extra experience for the stories of turn {battle.turn.number}: "
            "once per turn (Stories Are Nice)."
        )
    turn = current_turn(kingdom.campaign) or battle.turn
    event = Event(
        phase=PHASE,
        code=EventCode.STORY_BONUS,
        text=(
            f"{army.name} gains {amount} more experience for a good story of turn {battle.turn.number} "
            "(Stories Are Nice)."
        ),
        kingdom=kingdom.id,
        army=army.id,
        experience=amount,
        data={"experience": amount, "story_turn": battle.turn.number, "sheet": sheet.id},
    )
    experience_award(turn=turn.number, event=event)
    turn_event_record(turn, event)
    return event
