"""The Ancient Dead's order sheet, computed when a turn opens (The Ancient Dead: Movement)."""

from __future__ import annotations

from kingdoms.models import Kingdom
from kingdoms.services.world import world_load
from rulebook.ancient_dead.movement import ancient_dead_orders
from rulebook.tables import ArmyType
from rulebook.turn.write_orders.records import SheetEntries
from turns.models import Turn

from ..entries import sheet_to_json
from ..models import OrderSheet


def ancient_dead_sheet_draft(*, turn: Turn) -> OrderSheet | None:
    """Write the Ancient Dead's computed orders for `turn` as their draft order sheet, which the
    organizer may read and change on their order sheet page before the deadline; the turn resolves
    it as it then stands (orders.services.resolution.turn_state_load). A sheet already there is
    left alone. None when there is nothing to order (no Ancient Dead, no army, or they have
    returned to the tomb)."""
    kingdom = Kingdom.objects.filter(campaign=turn.campaign, army_type=ArmyType.ANCIENT_DEAD).first()
    if kingdom is None:
        return None
    orders = ancient_dead_orders(world_load(campaign=turn.campaign, turn_number=turn.number))
    if not orders:
        return None
    sheet, _ = OrderSheet.objects.get_or_create(
        turn=turn, kingdom=kingdom, defaults={"entries": sheet_to_json(SheetEntries(orders=orders))}
    )
    return sheet
