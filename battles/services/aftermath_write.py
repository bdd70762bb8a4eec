"""Writing the aftermath back (inside the aftermath's transaction): the world through the one
writer (kingdoms.services.world_write: armies, units, items, provinces, capitols, alliances,
ledgers), and the aftermath's own: the retreats' movements, the characters, the events, the dice
and the battles' results."""

from __future__ import annotations

from dataclasses import replace

from django.db.models import Max

from kernel.dice import SeededDice
from kernel.event_codes import EventCode
from kingdoms.models import ArmyMovement, Character
from kingdoms.services.dice import dice_rolls_save
from kingdoms.services.world_write import ItemLine, UnitLine, world_write
from orders.services.events import turn_events_append
from rulebook.turn.aftermath.state import AftermathResult, AftermathState
from rulebook.world import World
from turns.models import Turn

from ..models import Battle

# The army and province columns the aftermath decides (the others it leaves as stored).
# Supply Depot: a depot captured (the army forages from now on), a captured cart on the roster.
AFTERMATH_ARMY_FIELDS = ("experience", "province", "status", "fortified_in", "supply_depot", "spare_carts")
AFTERMATH_PROVINCE_FIELDS = ("controller", "settlement", "looted_turn", "fortified", "rogue", "land_sale_turn")


def _unit_lines(state: AftermathState) -> dict[int, UnitLine]:
    return {
        u.id: UnitLine(
            models=u.models_count,
            veteran_level=u.veteran_level,
            veteran_eligible=u.veteran_eligible,
            # Robbed: a character's mundane equipment is lost; Casualty Recovery: a command model lost.
            equipment_points=u.equipment_points,
            command_points=(u.champion_points, u.standard_points, u.musician_points),
        )
        for u in state.units.values()
    }


def _item_lines(state: AftermathState) -> dict[int, ItemLine]:
    return {i.id: ItemLine(bearer=i.bearer, destroyed=i.destroyed) for i in state.items.values()}


def _world_after(turn: Turn, result: AftermathResult) -> World:
    """The world as the aftermath leaves it. Loss of the Capitol: a kingdom whose capitol is lost
    (its event) has no capitol from now on, and three turns to crown its Warlord."""
    world = result.state.world
    lost = {e.kingdom for e in result.events if e.code == EventCode.CAPITOL_LOST and e.kingdom is not None}
    kingdoms = {
        k: replace(record, capitol=None, capitol_lost_turn=turn.number) if k in lost else record
        for k, record in world.kingdoms.items()
    }
    return replace(world, kingdoms=kingdoms)


def aftermath_write(turn: Turn, before: AftermathState, result: AftermathResult, dice: SeededDice) -> None:
    state = result.state
    campaign = turn.campaign
    written = world_write(
        turn=turn.number,
        campaign=campaign,
        before=before.world,
        after=_world_after(turn, result),
        events=result.events,
        army_fields=AFTERMATH_ARMY_FIELDS,
        province_fields=AFTERMATH_PROVINCE_FIELDS,
        units=(_unit_lines(before), _unit_lines(state)),
        items=(_item_lines(before), _item_lines(state)),
    )

    # The retreats: one more step of the turn's movements, to the province the army fell back to.
    retreats = {
        army.id: army.province
        for army in (*state.armies.values(), *state.garrisons.values())
        if army.province != before.world.army(army.id).province
    }
    last_step = dict(
        ArmyMovement.objects.filter(army__in=list(retreats), turn=turn.number)
        .values_list("army")
        .annotate(step=Max("step"))
    )
    ArmyMovement.objects.bulk_create(
        ArmyMovement(
            army_id=army, turn=turn.number, step=(last_step.get(army) or 0) + 1, province=written.provinces[number]
        )
        for army, number in retreats.items()
    )

    # Characters one by one, the dead first: a kingdom has one living Warlord at every moment.
    characters = {c.id: c for c in Character.objects.filter(pk__in=list(state.characters))}
    ordered = sorted(state.characters.values(), key=lambda c: (c.alive, c.id))
    for after in ordered:
        was = before.characters[after.id]
        now = (after.alive, after.role, after.injuries, after.battles_survived)
        if now == (was.alive, was.role, was.injuries, was.battles_survived):
            continue
        row = characters[after.id]
        row.alive, row.role, row.injuries, row.battles_survived = now
        row.save(update_fields=["alive", "role", "injuries", "battles_survived"])

    turn_events_append(turn, result.events)
    dice_rolls_save(campaign=campaign, turn=turn.number, dice=dice)
    rows = {b.id: b for b in Battle.objects.filter(turn=turn)}
    for settled in result.battles:
        row = rows[settled.battle]
        row.result = settled.result.value
        row.defender_result = settled.defender_result.value
        row.victor = settled.victor or ""
        row.status = Battle.Status.RESOLVED
    Battle.objects.bulk_update(list(rows.values()), ["result", "defender_result", "victor", "status"])
