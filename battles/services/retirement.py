"""Retiring a character (Character Injury Chart: "the character may be retired"): he counts as dead
and takes his items with him, unless the kingdom pays "2x the value of the items" in gold to keep
them, in its armory, for another character. A retiring Warlord is succeeded as a dead one is
(Warlord; rulebook.warlord.succession). The player does it from the kingdom's page or the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kingdoms.models import ArmoryItem, Army, Character, Kingdom, TreasuryEntry
from orders.services.events import turn_event_sequence_next
from rulebook.warlord.succession import HeirCandidate, succession_text, warlord_heir
from turns.models import Turn, TurnEvent

PHASE = "retirement"
KEEP_ITEMS_FACTOR = 2  # "pay double the cost of the magic items" in gold


@dataclass(frozen=True)
class Retirement:
    character: Character
    items_kept: list[str]
    items_gone: list[str]
    gold: int  # paid to keep the items (0 if none kept)
    heir: Character | None  # who became Warlord, if the Warlord retired


def events_append(kingdom: Kingdom, events: list[dict], *, phase: str = PHASE) -> None:
    """Write the events of a player's act on a character (retiring him, healing him) into the
    campaign's current turn, after those already there."""
    turn = Turn.objects.filter(campaign_id=kingdom.campaign_id, number=kingdom.campaign.current_turn).first()
    if turn is None:
        return  # the campaign is still being set up: no turn to tell it in
    start = turn_event_sequence_next(turn)
    TurnEvent.objects.bulk_create(
        TurnEvent(turn=turn, sequence=start + i, phase=phase, kingdom=kingdom, **e) for i, e in enumerate(events)
    )


@dataclass(frozen=True)
class RetirementPreview:
    """What a retirement would do, for the page that asks before it is done."""

    character: Character
    items: list[ArmoryItem]
    keep_cost: int  # the gold to keep every item (twice their points)
    treasury: int
    is_warlord: bool


def _items_borne(character: Character) -> list[ArmoryItem]:
    return list(ArmoryItem.objects.filter(bearer=character.unit, destroyed=False).order_by("name"))


def retirement_preview(character: Character) -> RetirementPreview:
    """What retiring the character would cost and take, read without changing anything."""
    items = _items_borne(character)
    return RetirementPreview(
        character=character,
        items=items,
        keep_cost=KEEP_ITEMS_FACTOR * sum(i.points for i in items),
        treasury=character.kingdom.treasury_balance(),
        is_warlord=character.role == Character.Role.WARLORD,
    )


@transaction.atomic
def character_retire(*, character: Character, keep_items: bool, heir_choice: int | None = None) -> Retirement:
    """Retire the character. Refused whole if he is already gone, or if the treasury cannot pay to
    keep his items. `heir_choice`: the General to succeed a retiring Warlord on a tie."""
    character = (
        Character.objects.select_for_update().select_related("unit__army", "kingdom__campaign").get(pk=character.pk)
    )
    kingdom = character.kingdom
    name = character.unit.name
    if not character.alive:
        raise DomainError(f"{name} is no longer with {kingdom.name}'s armies: he cannot retire.")
    items = _items_borne(character)
    cost = KEEP_ITEMS_FACTOR * sum(i.points for i in items) if keep_items else 0
    balance = kingdom.treasury_balance()
    if cost > balance:
        raise DomainError(
            f"Retiring {name} ({character.unit.army.name}): keeping {', '.join(i.name for i in items)} costs "
            f"{cost:,} gold, twice their points, and {kingdom.name}'s treasury holds {balance:,} (Character Injury "
            "Chart: a retired character takes his items with him unless paid)."
        )
    turn = kingdom.campaign.current_turn
    if cost:
        TreasuryEntry.objects.create(
            kingdom=kingdom,
            turn=turn,
            amount=-cost,
            reason=TreasuryEntry.Reason.RETIREMENT,
            note=f"{name} retires; {', '.join(i.name for i in items)} kept in the armory",
        )
    for item in items:
        if keep_items:
            item.bearer = None  # in the kingdom's armory, for another character
        else:
            item.destroyed = True  # "a gift for service": gone from the armory
    ArmoryItem.objects.bulk_update(items, ["bearer", "destroyed"])
    unit = character.unit
    unit.models_lost += unit.models_count
    unit.models_count = 0
    unit.save(update_fields=["models_count", "models_lost"])
    was_warlord = character.role == Character.Role.WARLORD
    character.alive = False
    character.save(update_fields=["alive"])
    kept = [i.name for i in items] if keep_items else []
    gone = [] if keep_items else [i.name for i in items]
    what = (
        f"{', '.join(kept)} stay in the armory for {cost:,} gold"
        if kept
        else (f"he takes {', '.join(gone)} with him" if gone else "he had no magic items")
    )
    events = [
        {
            "code": EventCode.CHARACTER_RETIRED,
            "text": f"{name} ({unit.army.name}) retires and counts as dead; {what} (Character Injury Chart).",
            "army": unit.army,
            "gold": -cost,
            "data": {"character": name, "items_kept": kept, "items_gone": gone},
        }
    ]
    heir = _succession(character, kingdom, heir_choice, events) if was_warlord else None
    events_append(kingdom, events)
    return Retirement(character=character, items_kept=kept, items_gone=gone, gold=cost, heir=heir)


def warlord_heirs(kingdom: Kingdom) -> list[Character]:
    """The Generals of the kingdom's active armies, from whom a Warlord's heir is chosen."""
    return list(
        Character.objects.filter(
            kingdom=kingdom, alive=True, role=Character.Role.GENERAL, unit__army__status=Army.Status.ACTIVE
        ).select_related("unit__army")
    )


def _succession(gone: Character, kingdom: Kingdom, choice: int | None, events: list[dict]) -> Character | None:
    generals = {c.id: c for c in warlord_heirs(kingdom)}
    heir = warlord_heir(
        (
            HeirCandidate(c.id, c.unit.name, c.unit.army_id, c.unit.army.name, c.unit.army.experience)
            for c in generals.values()
        ),
        choice,
    )
    if heir is None:
        events.append(
            {
                "code": EventCode.NO_WARLORD,
                "text": f"{kingdom.name}'s Warlord {gone.unit.name} retired and no General can succeed him.",
                "data": {},
            }
        )
        return None
    new = generals[heir.candidate.character]
    new.role = Character.Role.WARLORD
    new.save(update_fields=["role"])
    events.append(
        {
            "code": EventCode.WARLORD_SUCCESSION,
            "text": succession_text(kingdom.name, gone.unit.name, heir, retired=True),
            "army": new.unit.army,
            "data": {"character": new.unit.name, "how": heir.how, "tied": list(heir.tied)},
        }
    )
    return new
