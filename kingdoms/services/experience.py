"""The experience ledger: every change of an army's experience is a row, and the army's balance
(`Army.experience`) moves only with its rows (Experience Points, Spending Experience)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

from django.db import transaction
from django.db.models import F, Sum

from briternia.errors import DomainError
from kernel.events import Event

from ..models import Army, ExperienceEntry


def experience_rows_write(
    *,
    turn: int,
    events: Iterable[Event],
    before: Mapping[int, int],
    after: Mapping[int, int],
    army_id: Callable[[int], int] = lambda a: a,
) -> None:
    """The ledger rows of a phase: one for each event that moved an army's experience. `before`
    and `after` are the armies' balances as the phase found and left them (rules ids); a balance
    the events do not explain is a bug in the rules, and stops the phase (nothing is written)."""
    moved: dict[int, int] = defaultdict(int)
    rows = []
    for event in events:
        if not event.experience:
            continue
        if event.army is None:
            raise ValueError(f"An event that moves experience names no army: {event.text}")
        moved[event.army] += event.experience
        rows.append(
            ExperienceEntry(
                army_id=army_id(event.army),
                turn=turn,
                amount=event.experience,
                reason=str(event.code),
                note=event.text[:300],
            )
        )
    for army, balance in after.items():
        if before.get(army, 0) + moved.get(army, 0) != balance:
            raise ValueError(
                f"Army {army}: its experience went from {before.get(army, 0)} to {balance}, but its ledger rows "
                f"move it by {moved.get(army, 0)}"
            )
    ExperienceEntry.objects.bulk_create(rows)


@transaction.atomic
def experience_award(*, turn: int, event: Event) -> ExperienceEntry:
    """Experience that arrives outside a phase (the organizer's bonus for a story): one ledger row
    with the event's code as its reason and its words as the note, and the balance moved by the
    same amount in the same transaction. The caller records the event itself (its turn's log)."""
    if event.army is None or not event.experience:
        raise ValueError(f"An award names an army and an amount of experience: {event.text}")
    army = Army.objects.select_for_update().get(pk=event.army)
    if army.experience + event.experience < 0:
        raise DomainError(f"{army.name} has {army.experience} experience; it cannot lose {-event.experience}.")
    entry = ExperienceEntry.objects.create(
        army=army, turn=turn, amount=event.experience, reason=str(event.code), note=event.text[:300]
    )
    Army.objects.filter(pk=army.pk).update(experience=F("experience") + event.experience)
    return entry


REASON_LENGTH = ExperienceEntry._meta.get_field("note").max_length
MAX_EXPERIENCE = 2**31 - 1  # the balance's column (Army.experience, an integer on every database)


@transaction.atomic
def experience_adjust(*, army: Army, turn: int, amount: int, reason: str) -> ExperienceEntry:
    """The organizer's correction of an army's experience: a row with its reason, never below 0."""
    reason = reason.strip()
    if not reason:
        raise DomainError(f"Say why the experience of {army.name} is corrected: the reason goes into its ledger.")
    if len(reason) > REASON_LENGTH:
        raise DomainError(f"{army.name}: the reason is {len(reason)} characters; {REASON_LENGTH} at most.")
    if amount == 0:
        raise DomainError(f"{army.name}: a correction of 0 experience changes nothing.")
    army = Army.objects.select_for_update().get(pk=army.pk)
    if army.experience + amount < 0:
        raise DomainError(f"{army.name} has {army.experience} experience; it cannot lose {-amount}.")
    if army.experience + amount > MAX_EXPERIENCE:
        raise DomainError(f"{army.name} has {army.experience} experience; it cannot hold more than {MAX_EXPERIENCE}.")
    entry = ExperienceEntry.objects.create(
        army=army, turn=turn, amount=amount, reason=ExperienceEntry.ADJUSTMENT, note=reason
    )
    Army.objects.filter(pk=army.pk).update(experience=F("experience") + amount)
    return entry


def experience_ledger_total(army: Army) -> int:
    """What the army's ledger adds up to (its balance must be the same)."""
    return army.experience_ledger.aggregate(total=Sum("amount"))["total"] or 0
