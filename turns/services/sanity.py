"""The sanity check after each phase, inside the phase's transaction: a failure raises, so
`phase_run` rolls the whole phase back (its claim included) and records why for the organizer."""

from __future__ import annotations

from battles.models import Battle
from briternia.errors import DomainError
from kingdoms.models import Army
from kingdoms.services.world import world_load
from rulebook.sanity import world_problems
from turns.models import Turn


def phase_sanity_check(*, turn: Turn, phase_name: str, battles_waiting: bool) -> None:
    """Refuse the state `phase_name` left: rulebook.sanity's problems of the world, and any
    army of the campaign left active with no province (the world's loader would not see it).
    `battles_waiting`: the turn's battles are posted and not yet fought (after the orders phase)."""
    world = world_load(campaign=turn.campaign, turn_number=turn.number)
    battle_provinces = (
        frozenset(Battle.objects.filter(turn=turn).values_list("province__number", flat=True))
        if battles_waiting
        else frozenset()
    )
    problems = world_problems(world, battle_provinces=battle_provinces)
    problems += [
        f"{army.name} of {army.kingdom.name} is active but stands in no province."
        for army in Army.objects.filter(
            kingdom__campaign=turn.campaign, status=Army.Status.ACTIVE, province__isnull=True
        ).select_related("kingdom")
    ]
    if problems:
        raise DomainError([f"the {phase_name} was rolled back, its result fails the sanity check", *problems])
