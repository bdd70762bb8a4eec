"""Rogue Kingdom: the rows of a kingdom whose player is out (Player Issues > Rogue Kingdom). The
organizer's marking out (orders.services.rogue) and the turn's writer (Loss of the Capitol,
kingdoms.services.world_write) share them."""

from __future__ import annotations

from django.db.models import Q

from rulebook.allies.chart import BreakKind

from ..models import Alliance, Army, Character, Kingdom
from .world import world_changed


def rogue_rows_write(*, kingdom: Kingdom, turn_number: int) -> tuple[int, int]:
    """The kingdom is a Rogue Kingdom from `turn_number`: its players lose it, its armies and Elite
    Defense Forces leave the map with their characters, its fortifications and its alliance end (no gold
    back). Returns how many armies and alliances ended. The marking out and the resolution (Loss of the
    Capitol) share it."""
    kingdom.rogue_turn = turn_number
    # Loss of the Capitol: "A player who loses their capitol has 3 turns": the countdown is the
    # player's, and ends with them (as when the countdown itself puts them out); a new player given
    # the kingdom never inherits it (decision 602).
    kingdom.capitol_lost_turn = None
    kingdom.save(update_fields=["rogue_turn", "capitol_lost_turn"])
    kingdom.players.clear()
    armies = list(Army.objects.filter(kingdom=kingdom, status=Army.Status.ACTIVE))
    for army in armies:
        army.status = Army.Status.DISBANDED
        army.fortified_in = None
    Army.objects.bulk_update(armies, ["status", "fortified_in"])
    # Their characters leave with them, as with every army that leaves the map (decision 594): a Warlord
    # left living in a disbanded army would stand in the way of the one a new player's list names (one
    # living Warlord a kingdom: Character's constraint).
    Character.objects.filter(unit__army__in=armies, alive=True).update(alive=False)
    kingdom.campaign.provinces.filter(controller=kingdom, fortified=True).update(fortified=False)
    ended = list(
        Alliance.objects.filter(
            Q(first=kingdom) | Q(second=kingdom), campaign=kingdom.campaign, ended_turn__isnull=True
        )
    )
    for alliance in ended:
        alliance.ended_turn = turn_number
        alliance.ended_how = BreakKind.CANCELLED.value
        alliance.save(update_fields=["ended_turn", "ended_how"])
    world_changed(kingdom.campaign_id)  # mid-week too: the order sheets' kept worlds are stale
    return len(armies), len(ended)


def new_leader_rows_write(*, kingdom: Kingdom) -> bool:
    """New Player Option: the kingdom's rows as its new leader takes it. Characters a kingdom that went
    Rogue before decision 594 left living in its disbanded armies leave with them now (idempotent: one
    marked out since has none). With no living Warlord left, the new leader creates one as at Setup, in
    the first army the kingdom raises (decision 603). Returns whether that Warlord is to be created."""
    Character.objects.filter(kingdom=kingdom, alive=True).exclude(unit__army__status=Army.Status.ACTIVE).update(
        alive=False
    )
    due = not Character.objects.filter(kingdom=kingdom, role=Character.Role.WARLORD, alive=True).exists()
    kingdom.warlord_to_create = due and not kingdom.is_ancient_dead
    kingdom.save(update_fields=["warlord_to_create"])
    return kingdom.warlord_to_create
