"""The Ancient Dead at setup: the armies of their Army Table (The Ancient Dead: Setup, Armies)."""

from __future__ import annotations

from django.db import transaction

from rulebook.ancient_dead.armies import ancient_dead_rise

from ..models import Army, ArmyMovement, Campaign, Province
from .dice import campaign_dice, dice_rolls_save
from .world import world_load

SETUP_STREAM = "ancient-dead-setup"


@transaction.atomic
def ancient_dead_setup(*, campaign: Campaign) -> list[Army]:
    """Raise the Ancient Dead's armies beyond their starting army, as their Army Table allows for
    the number of players and the provinces they hold, when the campaign starts (the number of
    players is then known). Each stands in a random desert province next to a non-desert one,
    the roll recorded on the setup dice; they move from turn 1. Their lists are not wanted: an
    army of the Ancient Dead fights at 250 points less than its opponent (rules decision 101).
    Safe twice: the armies already there count."""
    world = world_load(campaign=campaign, turn_number=0).working_copy()
    dice = campaign_dice(campaign=campaign, stream=SETUP_STREAM)
    ancient_dead_rise(world, dice, "setup")
    provinces = {p.number: p for p in Province.objects.filter(campaign=campaign)}
    rows = [
        Army.objects.create(
            kingdom_id=a.kingdom,
            name=a.name,
            province=provinces[a.province],
            size=a.size,
            created_turn=0,
            list_due=True,
        )
        for a in sorted((a for a in world.armies.values() if a.id < 0), key=lambda a: -a.id)
    ]
    ArmyMovement.objects.bulk_create(ArmyMovement(army=row, turn=0, step=0, province=row.province) for row in rows)
    dice_rolls_save(campaign=campaign, turn=0, dice=dice)
    return rows
