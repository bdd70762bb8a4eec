"""The characters a spy may name for a Character Bio, read beside the world the order sheet's check
sees (rules decision 455).

The order sheet's world is loaded without characters (the orders phase's and the aftermath's have them,
read with the armies' lists, and read them there): a Reconnaissance's Character Bio names a rival's
Warlord or the General of an army of theirs the spy may name, so those two roles are read, in one query,
for the armies that may hold them, and kept beside the world (SheetContext.rival_characters): the world
stays the one every phase reads.
"""

from __future__ import annotations

from kingdoms.models import Character
from rulebook.turn.write_orders.missions import known_armies
from rulebook.world import CharacterState, World


def spied_characters_load(world: World, *, spy: int | None = None) -> dict[int, CharacterState]:
    """The living Warlords and Generals of the armies a spy may name and of the Warlords'
    armies (KingdomState.warlord_army), other than `spy`'s own (None: every kingdom's): one query."""
    armies = set(known_armies(world)) | {k.warlord_army for k in world.kingdoms.values() if k.warlord_army}
    armies = {a for a in armies if a in world.armies and world.armies[a].kingdom != spy}
    if not armies:
        return {}
    rows = (
        Character.objects.filter(
            unit__army_id__in=sorted(armies),
            alive=True,
            role__in=[Character.Role.WARLORD, Character.Role.GENERAL],
        )
        .order_by("id")
        .values_list("id", "kingdom_id", "unit_id", "unit__name", "role")
    )
    return {i: CharacterState(id=i, kingdom=k, unit=u, name=n, role=r) for i, k, u, n, r in rows}
