"""The Campaign Turn Sequence, phases 1 to 6, over a copy of the state (pure Python)."""

from __future__ import annotations

from dataclasses import dataclass

from kernel.dice import Dice
from kernel.events import Event
from rulebook.allies.declarations import send_gold, settle_alliances
from rulebook.ancient_dead.deserts_turned import reverse_deserts
from rulebook.ancient_dead.turn_steps import ancient_dead_rise, recite_incantations
from rulebook.loss_of_the_capitol import coronations, move_capitols, players_out
from rulebook.player_issues.land_sales import civil_unrest, settle_land_deals
from rulebook.player_issues.transfer_of_gold import send_items
from rulebook.ruins_and_tomb_raiders.captives import settle_captives
from rulebook.ruins_and_tomb_raiders.missions_sent import send_tomb_raiders
from rulebook.turn.army_construction_spied import spy_on_construction
from rulebook.turn.army_lists_spied import spied_lists_delivered
from rulebook.turn.create_upgrade_armies import create_and_upgrade_armies
from rulebook.turn.executing_orders.army_orders_spied import spy_on_orders
from rulebook.turn.executing_orders.misdirection import misdirect_armies
from rulebook.turn.executing_orders.normalise import normalise_orders
from rulebook.turn.executing_orders.run import execute_orders
from rulebook.turn.fight_battles.destroy_communication import communication_expired
from rulebook.turn.fight_battles.sabotage_effects import sabotage_battles
from rulebook.turn.fight_battles.scheduling import build_battles
from rulebook.turn.maintain_armies import maintain_armies
from rulebook.turn.spending import spend_experience
from rulebook.turn.state import BattleS, Contact, TurnState
from rulebook.turn.tally_gold import tally_gold


@dataclass(frozen=True)
class Resolution:
    state: TurnState  # the state after the turn's orders
    events: list[Event]
    contacts: list[Contact]
    battles: list[BattleS]


def resolve_orders(state: TurnState, dice: Dice, ancient_dice: Dice | None = None) -> Resolution:
    """Run 1. Tally Gold, the alliances the sheets declare or end (Allies), 2. Maintain Armies,
    3. Create / Upgrade Armies (gold, then experience; the Ancient Dead's armies rise, with
    `ancient_dice`, their own stream: none rise without it), 4-5. the orders (the Tomb Raiders' missions
    sent once the orders are normalised, before the armies move) and 6. the scheduling
    of battles, in the rulebook's order, then the deserts turned back with a Scarab Amulet and the
    Ancient Dead's incantations. The given state is
    not changed."""
    work = state.working_copy()
    events: list[Event] = []
    # Reconnaissance (decisions 488, 562): the lists awaited, as their players wrote them since the last turn
    spied_lists_delivered(work.world, events)
    players_out(work, events)  # Loss of the Capitol: three turns without a coronation
    tally_gold(work, events)
    settle_alliances(work, events)  # Allies: declared (and announced over) with the orders
    settle_land_deals(work, events)  # Land Sales: agreed on both sheets, at the beginning of the turn
    move_capitols(work, events)  # Loss of the Capitol: the Warlord moves it (1,000 gold)
    send_gold(work, events)  # Transfer of Gold: the gold and its fee leave now, arrive in two turns
    send_items(work, events)  # ... and the items, 10% of double their points
    maintain_armies(work, dice, events)
    create_and_upgrade_armies(work, events)
    spy_on_construction(work, events)  # Reconnaissance, Army Construction Info: the target's next army raised
    spend_experience(work, dice, events)  # Spending Experience: after the gold, in the same phase
    if ancient_dice is not None:
        ancient_dead_rise(work, ancient_dice, events)
    normalise_orders(work, events)
    misdirect_armies(work, events)  # Sabotage, Misdirection: the army's order reverts to Hold
    spy_on_orders(work, events)  # Reconnaissance, Army Orders: the order as carried out, the spy's response
    send_tomb_raiders(work, events)  # Using Tomb Raiders: checked again and paid, before any army moves
    settle_captives(work, events)  # Reconnaissance, Sabotage: the captor's fate for a captured Tomb Raider
    contacts = execute_orders(work, dice, events)
    coronations(work, events)  # Loss of the Capitol: the Warlord crowned in a city, or the countdown
    civil_unrest(work, dice, events)  # Land Sales: last turn's new provinces without their owner's army
    battles = build_battles(work, contacts, dice, events)
    sabotage_battles(work, battles, dice, events)  # Poison Well, Assassinate Spiritual Leader, Sappers
    communication_expired(work, events)  # Destroy Communication: unused within its two turns
    reverse_deserts(work, battles, dice, events)  # Deserts: a Scarab Amulet where no battle is fought
    recite_incantations(work, battles, events)
    return Resolution(state=work, events=events, contacts=contacts, battles=battles)
