"""Writing what the turn's purchases with experience did (Spending Experience): the Veteran level,
the Archetype roll, the promotion at once; the deliveries on their way."""

from __future__ import annotations

from collections.abc import Iterable

from kernel.event_codes import EventCode
from kernel.events import Event
from kingdoms.models import Character, Delivery, Unit


def _unit(army: int, name: str) -> Unit | None:
    return Unit.objects.filter(army_id=army, name__iexact=name.strip()).first()


def purchases_write(*, turn: int, events: Iterable[Event]) -> None:
    """Apply each purchase event of the orders phase (their experience is the ledger's, written
    by experience_rows_write). New armies never buy, so every army id is a row's."""
    deliveries = []
    for event in events:
        data = event.data
        if event.code == EventCode.PURCHASE_ORDERED:
            purchase = data["purchase"]
            deliveries.append(
                Delivery(
                    army_id=event.army,
                    kind=purchase["kind"],
                    what=data["what"][:200],
                    unit=purchase["unit"].strip(),
                    models_count=max(purchase["models"], 0),
                    points=max(data["points"], 0),
                    points_per_model=data.get("points_per_model") or max(purchase["points"], 0),
                    name=purchase["name"].strip(),
                    category=purchase["category"],
                    common=purchase["common"],
                    cost=-event.experience,
                    ordered_turn=turn,
                    arrives_turn=data["arrives_turn"],
                )
            )
        elif event.code == EventCode.VETERAN_STATUS:
            # Veteran Status: one level for the battle that made it eligible; the next battle may again.
            Unit.objects.filter(army_id=event.army, name__iexact=data["unit"]).update(
                veteran_level=data["level"], veteran_eligible=False
            )
        elif event.code == EventCode.ARCHETYPE_ROLL:
            character = Character.objects.select_for_update().get(unit=_unit(event.army, data["unit"]))
            if data["choose"]:
                character.ability_choice_pending = True  # the player chooses (kingdoms.services.armies.ability_choose)
            elif data["ability"]:
                character.abilities = [*character.abilities, data["ability"]]
            # "he must survive three more battles before he is eligible for another roll"
            character.battles_at_last_ability = character.battles_survived
            character.save(update_fields=["abilities", "ability_choice_pending", "battles_at_last_ability"])
        elif event.code == EventCode.POTENTIAL:
            Character.objects.filter(unit=_unit(event.army, data["unit"])).update(
                magic_level=data["level"], potential_used=True
            )
        elif event.code == EventCode.PROMOTION:
            unit = _unit(event.army, data["unit"])
            if unit is not None:
                Character.objects.filter(unit=unit).update(rank=Character.Rank.LORD)
                unit.points_per_model = data["points"]  # he now costs the Lord's base points
                unit.save(update_fields=["points_per_model"])
    Delivery.objects.bulk_create(deliveries)
