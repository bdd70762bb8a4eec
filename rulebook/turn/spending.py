"""Spending Experience at 3. Create / Upgrade Armies, after the gold (pure Python).

Each purchase of a submitted sheet is an event that spends the army's experience
(`experience=-cost`; the state's balance moves by the same amount). Veteran Status, the Archetype
roll and the promotion act at once (the writer changes the unit or the character from the event's
data); recruits, equipment, items and supply depots become deliveries that arrive at the
beginning of the turn after next (orders.services.deliveries). A purchase the army can no longer
make (disbanded by foraging, its experience lost with an upgrade) is not made, with an event.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ancient_dead.deserts import MIN_WIZARD_LEVEL
from rulebook.experience.purchases import PricedPurchase, purchase_priced
from rulebook.experience.spending import (
    PurchaseKind,
    SpendingRoster,
    advancement_roll,
    delivery_turn,
    useless_abilities,
)
from rulebook.tables import Archetype, ArmyKind
from rulebook.turn.create_upgrade_armies import PHASE_CREATE_UPGRADE
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import Purchase

PHASE_SPENDING = PHASE_CREATE_UPGRADE  # Spending Experience is part of phase 3


def spend_experience(state: TurnState, dice: Dice, events: list[Event]) -> None:
    """Carry out the sheets' purchases with experience, kingdom by kingdom (ascending id), each
    sheet in its order."""
    for kingdom in sorted(state.kingdoms.values(), key=lambda k: k.id):
        sheet = state.sheets.get(kingdom.id)
        if sheet is None:
            continue
        roster = state.rosters.get(kingdom.id, SpendingRoster())
        for purchase in sheet.purchases:
            _buy(state, kingdom.id, purchase, roster, dice, events)


def _refused(kingdom: int, purchase: Purchase, text: str, events: list[Event], army: int | None = None) -> None:
    events.append(
        Event(
            PHASE_SPENDING,
            EventCode.PURCHASE_REFUSED,
            text,
            kingdom=kingdom,
            army=army,
            data={"purchase": asdict(purchase)},
        )
    )


def _buy(
    state: TurnState, kingdom: int, purchase: Purchase, roster: SpendingRoster, dice: Dice, events: list[Event]
) -> None:
    # An army, or an Elite Defense Force, which spends its experience too (decision 620).
    army = state.armies.get(purchase.army) or state.garrisons.get(purchase.army)
    if army is None or army.kingdom != kingdom or army.disbanded:
        _refused(kingdom, purchase, f"Army {purchase.army} is no longer active: its purchase is not made.", events)
        return
    army_type = state.kingdoms[kingdom].army_type
    priced = purchase_priced(purchase, army, army_type, state.world, roster)
    if priced.refusal:
        _refused(kingdom, purchase, f"{army.name}: {priced.words} is not bought: {priced.refusal}", events, army.id)
        return
    if priced.cost > army.experience:
        _refused(
            kingdom,
            purchase,
            f"{army.name}: {priced.words} is not bought: it costs {priced.cost} experience and the army has "
            f"{army.experience} (Spending Experience).",
            events,
            army.id,
        )
        return
    (state.garrisons if army.kind is ArmyKind.GARRISON else state.armies)[army.id] = replace(
        army, experience=army.experience - priced.cost
    )
    events.append(_event(state, kingdom, army.id, army.name, priced, roster, dice))


def _event(
    state: TurnState,
    kingdom: int,
    army: int,
    name: str,
    priced: PricedPurchase,
    roster: SpendingRoster,
    dice: Dice,
) -> Event:
    purchase = priced.purchase
    data: dict[str, Any] = {"purchase": asdict(purchase), "cost": priced.cost}
    spent = f"for {priced.cost} experience"
    if priced.delivered:
        arrives = delivery_turn(state.turn)
        data["arrives_turn"] = arrives
        data["what"] = priced.words
        data["points"] = priced.points
        if purchase.kind == PurchaseKind.RECRUITS and purchase.unit.strip():
            unit = roster.unit(army, purchase.unit)
            data["points_per_model"] = unit.points_per_model if unit else 0
        code = EventCode.PURCHASE_ORDERED
        text = f"{name} buys {priced.words} {spent}; it arrives at the start of turn {arrives} (Spending Experience)."
    elif purchase.kind == PurchaseKind.VETERAN:
        unit = roster.unit(army, purchase.unit)
        level = (unit.veteran_level if unit else 0) + 1
        data.update(unit=purchase.unit.strip(), level=level)
        code = EventCode.VETERAN_STATUS
        text = f"{name}: {purchase.unit.strip()} becomes +{level} Veteran {spent} (Veteran Status)."
    elif purchase.kind == PurchaseKind.ADVANCEMENT:
        character = roster.character(army, purchase.unit)
        assert character is not None  # purchase_priced refused it otherwise
        useless = useless_abilities(
            army_type=state.kingdoms[kingdom].army_type,
            immune_to_psychology=character.immune_to_psychology,
            living=character.living,
        )
        roll = advancement_roll(
            Archetype(character.archetype),
            character.abilities,
            dice,
            who=character.name,
            kingdom=kingdom,
            army=army,
            useless=useless,
        )
        data.update(unit=character.name, faces=list(roll.faces), ability=roll.ability, choose=roll.choose)
        code = EventCode.ARCHETYPE_ROLL
        rolled = ", ".join(str(f) for f in roll.faces)
        gained = f"he gains {roll.ability}"
        if roll.choose:
            gained = "a 6: the player chooses one of the table's abilities"
        again = " (an ability he holds or cannot use is rolled again)" if len(roll.faces) > 1 else ""
        text = (
            f"{name}: {character.name} rolls on the {Archetype(character.archetype).label} Advancement Table "
            f"{spent}: {rolled}{again}; {gained} (Character Archetypes and Advancement)."
        )
    elif purchase.kind == PurchaseKind.POTENTIAL:
        character = roster.character(army, purchase.unit)
        assert character is not None  # purchase_priced refused it otherwise
        level = max(character.magic_level, MIN_WIZARD_LEVEL) + 1
        data.update(unit=character.name, level=level)
        code = EventCode.POTENTIAL
        text = (
            f"{name}: the Magician {character.name} uses his Potential {spent}: he is now a level {level} Wizard "
            "(Character Archetypes and Advancement, Magician)."
        )
    else:  # promotion
        data.update(unit=purchase.unit.strip(), points=purchase.points)
        code = EventCode.PROMOTION
        text = f"{name}: the Warlord {purchase.unit.strip()} is promoted to Lord level {spent} (Warlord)."
    return Event(PHASE_SPENDING, code, text, kingdom=kingdom, army=army, experience=-priced.cost, data=data)
