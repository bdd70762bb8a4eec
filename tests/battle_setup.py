"""The battles the tests fight: the demo's own staging (kingdoms/demo/turn.py), so the tests and
`make demo` play the same turn."""

from battles.services.summaries import summary_sheet_save
from demo.turn import army_with_list, battle_orders_file

file_battle_orders = battle_orders_file

__all__ = ["army_with_list", "file_battle_orders", "sheet_filed"]


def sheet_filed(battle, kingdom, **data) -> None:  # type: ignore[no-untyped-def]
    """The kingdom's player files its Turn Summary Sheet for the battle."""
    summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first())
