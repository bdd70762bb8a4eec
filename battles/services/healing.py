"""Using a Healing Potion (Treasure from the Ruins: "A healing potion removes all injuries a
character has suffered"). The potion is found in the ruins and carried like any item; the player
uses it from the kingdom's page or the API on a character of the army that carries it (rules
decision 435): every injury of the character is gone, and so is the potion."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kingdoms.models import ArmoryItem, Character
from rulebook.ruins_and_tomb_raiders.treasure import HEALING_POTION

from .retirement import events_append

PHASE = "healing-potion"
RULE = "Treasure from the Ruins"


@dataclass(frozen=True)
class Healed:
    character: Character
    injuries_removed: list[str]
    potion_bearer: str  # the character who carried the potion


@transaction.atomic
def healing_potion_use(*, character: Character) -> Healed:
    """Give the character a Healing Potion carried in his own army: all his injuries are removed and
    the potion is used up. Refused whole (nothing changes) when he is gone, has no injury, or no
    character of his army carries a potion."""
    character = (
        Character.objects.select_for_update().select_related("unit__army", "kingdom__campaign").get(pk=character.pk)
    )
    name, army = character.unit.name, character.unit.army
    if not character.alive:
        raise DomainError(
            f"{name} is no longer with {character.kingdom.name}'s armies: no potion can heal him ({RULE})."
        )
    if not character.injuries:
        raise DomainError(f"{name} ({army.name}) has no injuries: a healing potion would do nothing ({RULE}).")
    potion = (
        ArmoryItem.objects.select_for_update()
        .select_related("bearer")
        .filter(
            kingdom=character.kingdom,
            name__iexact=HEALING_POTION,
            destroyed=False,
            bearer__army=army,
        )
        .order_by("bearer_id", "id")
        .first()
    )
    if potion is None:
        raise DomainError(
            f"No character of {army.name} carries a Healing Potion: {name} can drink one only where his army carries "
            f"it (found in the ruins, {RULE}; decision 435)."
        )
    removed = [str(i.get("label") or i.get("code") or i) if isinstance(i, dict) else str(i) for i in character.injuries]
    character.injuries = []
    character.save(update_fields=["injuries"])
    bearer = potion.bearer.name if potion.bearer is not None else ""
    potion.delete()  # drunk: gone from the armory for good
    events_append(
        character.kingdom,
        [
            {
                "code": EventCode.HEALING_POTION_USED,
                "text": f"{name} ({army.name}) drinks a Healing Potion carried by {bearer}: every injury is gone "
                f"({', '.join(removed)}; {RULE}).",
                "army": army,
                "data": {"character": name, "injuries": removed, "bearer": bearer},
            }
        ],
        phase=PHASE,
    )
    return Healed(character=character, injuries_removed=removed, potion_bearer=bearer)
