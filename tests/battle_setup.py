"""The battles the tests fight: the demo's own staging (kingdoms/demo/turn.py), so the tests and
`make demo` play the same turn."""

from demo.turn import army_with_list, battle_orders_file

file_battle_orders = battle_orders_file

__all__ = ["army_with_list", "file_battle_orders"]
