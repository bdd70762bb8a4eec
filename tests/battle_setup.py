"""The battles the tests fight: the demo's own staging (kingdoms/demo/turn.py), so the tests and
`make demo` play the same turn."""

from battles.services.summaries import summary_sheet_save
from demo.turn import army_with_list, battle_orders_file

file_battle_orders = battle_orders_file

__all__ = ["army_with_list", "file_battle_orders", "raid_posted", "sheet_filed"]


def sheet_filed(battle, kingdom, **data) -> None:  # type: ignore[no-untyped-def]
    """The kingdom's player files its Turn Summary Sheet for the battle."""
    summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first())


def raid_posted(turn, ruin, kingdom, army, **fields):  # type: ignore[no-untyped-def]
    """A Tomb Raid posted as a battle of the turn (Using Tomb Raiders: Tomb Raid), as 6. Fight Battles
    posts it: the kingdom's army waits on its raiders' skirmish in the ruin, against a generic
    150-point warband. `fields`: anything else the test needs on the Battle row (a result, a status)."""
    from battles.models import Battle

    return Battle.objects.create(
        turn=turn,
        province=ruin,
        attacker_kingdom=kingdom,
        attacker_army=army,
        skirmish=True,
        mission="tomb-raid",
        garrison_points=150,
        **fields,
    )
