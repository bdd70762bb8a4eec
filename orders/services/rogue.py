"""Rogue Kingdom: the organizer marks a player out, and the kingdom becomes a Rogue Kingdom.

Rulebook: Player Issues > Rogue Kingdom ("If a player drops out of the Campaign mid-way, their
kingdom becomes a Rogue Kingdom. A Rogue Kingdom is wracked by civil war as it lacks a leader to
control it"). What a foreign army finds there is the Rogue Kingdom (D6) table, rolled by the
turn's resolution (rulebook/turn/executing_orders/contacts.py); this module writes the change of hands.
"""

from __future__ import annotations

from django.db import transaction

from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kernel.events import Event
from kingdoms.models import Kingdom
from kingdoms.services.campaigns import player_user_invite
from kingdoms.services.rogue import new_leader_rows_write, rogue_rows_write
from kingdoms.services.world import world_changed
from rulebook.campaign_schedule import moment_text
from turns.models import Turn

from ..models import OrderSheet, OrdersReminder
from .events import turn_event_record
from .sheets import turn_row_hold
from .turns import current_turn

PHASE = "organizer"


def _open_turn(kingdom: Kingdom, what: str) -> Turn:
    """The campaign's turn, open for orders, its row held until the change commits: a kingdom
    changes hands only then (decision 150), never under a running orders phase (read without the
    lock, the turn looks open while the phase resolves it: `turn_row_hold`)."""
    turn = current_turn(kingdom.campaign)
    if turn is None:
        raise DomainError(f"{kingdom.name} cannot {what} before the campaign has started (Rogue Kingdom).")
    turn = turn_row_hold(
        turn,
        running=lambda since: (
            f"Turn {turn.number} is being resolved (since {moment_text(since, kingdom.campaign.time_zone)}): "
            f"{kingdom.name} cannot {what} now; do it when the next turn opens for orders (Rogue Kingdom)."
        ),
    )
    if turn.status != Turn.Status.ORDERS_OPEN:
        raise DomainError(
            f"{kingdom.name} cannot {what} while turn {turn.number} is {turn.get_status_display().lower()}: "
            "do it when the next turn opens for orders, once its battles are settled (Rogue Kingdom)."
        )
    return turn


@transaction.atomic
def kingdom_rogue_declare(*, kingdom: Kingdom, why: str = "") -> Kingdom:
    """The kingdom's player is out: it becomes a Rogue Kingdom from the turn open now. Its players
    lose it, its armies and Elite Defense Forces leave the map (the Rogue Kingdom table stands for
    whatever holds its provinces, decision 152), its alliance ends with no gold paid back (decision
    154), and from now on it files no orders and never misses them. Its provinces, towns, cities,
    capitol and treasury stay as they are, for a new player (New Player Option). Refused while the
    turn is being resolved or its battles are open (decision 150), and for the Ancient Dead."""
    kingdom = Kingdom.objects.select_for_update().select_related("campaign").get(pk=kingdom.pk)
    if kingdom.is_ancient_dead:
        raise DomainError("The Ancient Dead are the organizer's: they cannot become a Rogue Kingdom (Rogue Kingdom).")
    if kingdom.is_rogue:
        raise DomainError(f"{kingdom.name} is a Rogue Kingdom already, since turn {kingdom.rogue_turn}.")
    turn = _open_turn(kingdom, "become a Rogue Kingdom")
    armies, ended = rogue_rows_write(kingdom=kingdom, turn_number=turn.number)
    reason = f" ({why.strip()})" if why.strip() else ""
    turn_event_record(
        turn,
        Event(
            phase=PHASE,
            code=EventCode.ROGUE_KINGDOM,
            text=f"The player of {kingdom.name} is out of the campaign{reason}: {kingdom.name} becomes a Rogue "
            f"Kingdom, wracked by civil war; its armies are gone and a foreign army entering its provinces rolls "
            "on the Rogue Kingdom table (Rogue Kingdom).",
            kingdom=kingdom.id,
            data={"armies": armies, "alliances_ended": ended},
        ),
    )
    return kingdom


@transaction.atomic
def rogue_kingdom_give(*, kingdom: Kingdom, email: str) -> Kingdom:
    """New Player Option: the organizer gives the Rogue Kingdom to a new player, or to one who lost
    their kingdom, invited by email (the setup's invitation). "The civil war is over and the lands
    return as they were with towns, cities, and treasury restored (but not the armies)": the
    provinces, towns and cities it still holds and its treasury (which collected nothing meanwhile,
    decision 155) are the new player's; its armies stay gone. It files orders from the turn open now,
    starting from no sheet (decision 601). Characters left living by a kingdom that went Rogue before
    decision 594 leave the map now; with no living Warlord the new leader creates one, as at Setup, in
    the first army the kingdom raises (decision 603)."""
    kingdom = Kingdom.objects.select_for_update().select_related("campaign").get(pk=kingdom.pk)
    email = email.strip().lower()
    errors = []
    if not kingdom.is_rogue:
        errors.append(f"{kingdom.name} is not a Rogue Kingdom: only a Rogue Kingdom is given to a new player.")
    if "@" not in email:
        errors.append(f"'{email}' is not an email address.")
    elif kingdom.campaign.kingdoms.filter(players__email__iexact=email).exists():
        errors.append(f"{email} already plays a kingdom in this campaign.")
    if errors:
        raise DomainError(errors)
    turn = _open_turn(kingdom, "be given to a new player")
    since = kingdom.rogue_turn
    kingdom.rogue_turn = None
    # The former leader's coronation countdown is not the new leader's (decision 602; a kingdom marked
    # out before the countdown ended with its player may still hold one).
    kingdom.capitol_lost_turn = None
    kingdom.save(update_fields=["rogue_turn", "capitol_lost_turn"])
    # Setup's Warlord for the new leader, in the first army the kingdom raises (decision 603).
    warlord_due = new_leader_rows_write(kingdom=kingdom)
    # The sheet the former leader filed for the open turn before being marked out is not the new
    # leader's orders (decision 150: it is not resolved; decision 601): were it kept it would stand
    # once the kingdom is no longer rogue, counted as orders in and resolved (its gold, land and
    # alliances spent in the new leader's name). The new leader starts the turn with no sheet, and is
    # reminded of the deadline as any kingdom whose orders are not in.
    OrderSheet.objects.filter(turn=turn, kingdom=kingdom).delete()
    OrdersReminder.objects.filter(turn=turn, kingdom=kingdom).delete()
    world_changed(kingdom.campaign_id)
    player_user_invite(email=email, kingdom=kingdom)
    turn_event_record(
        turn,
        Event(
            phase=PHASE,
            code=EventCode.NEW_PLAYER,
            text=f"{kingdom.name} has a new leader: the civil war is over, its lands, towns, cities and treasury "
            "return as they were, without armies (New Player Option)."
            + (
                " The new leader creates a Warlord (a Lord level character) in the first army the kingdom raises "
                "(Warlord, Setup)."
                if warlord_due
                else ""
            ),
            kingdom=kingdom.id,
            data={"rogue_since": since, "warlord_to_create": warlord_due},
        ),
    )
    return kingdom
