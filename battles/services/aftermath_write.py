"""Writing the aftermath back (inside the aftermath's transaction): the world through the one
writer (kingdoms.services.world_write: armies, units, characters, items, provinces, capitols,
alliances, ledgers), and the aftermath's own: the retreats' movements, the Tomb Raider forces
(kingdoms.services.tomb_raiders), the events, the dice and the battles' results."""

from __future__ import annotations

from django.db.models import Max

from kernel.dice import SeededDice
from kingdoms.models import ArmyMovement
from kingdoms.services.dice import dice_rolls_save
from kingdoms.services.tomb_raiders import tomb_raiders_write
from kingdoms.services.world_write import world_write
from orders.services.events import turn_events_append
from rulebook.turn.aftermath.state import AftermathResult, AftermathState
from turns.models import Turn

from ..models import Battle

# The army and province columns the aftermath decides (the others it leaves as stored).
# Supply Depot: a depot captured (the army forages from now on), a captured cart on the roster.
AFTERMATH_ARMY_FIELDS = ("experience", "province", "status", "fortified_in", "supply_depot", "spare_carts")
AFTERMATH_PROVINCE_FIELDS = (
    "controller", "settlement", "looted_turn", "fortified", "rogue", "land_sale_turn", "ruin_raids",
)  # fmt: skip


def aftermath_write(turn: Turn, before: AftermathState, result: AftermathResult, dice: SeededDice) -> None:
    state = result.state
    campaign = turn.campaign
    written = world_write(
        turn=turn.number,
        campaign=campaign,
        before=before.world,
        after=state.world,
        events=result.events,
        army_fields=AFTERMATH_ARMY_FIELDS,
        province_fields=AFTERMATH_PROVINCE_FIELDS,
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
            army_id=army,
            turn=turn.number,
            step=(last_step.get(army) or 0) + 1,
            province_id=written.province_ids[number],
        )
        for army, number in retreats.items()
    )

    # Tomb Raiders: the skirmishes' losses, the Recovery and a promotion (Maintaining / Changing).
    tomb_raiders_write(before=before.tomb_raiders, after=state.tomb_raiders)
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
