"""Posting the battles the orders phase scheduled: one row per battle, with its supports."""

from __future__ import annotations

from kingdoms.models import Province
from rulebook.turn.pipeline import Resolution
from rulebook.turn.state import with_real_army_ids
from turns.models import Turn

from ..models import Battle, BattleSupport


def battles_post(*, turn: Turn, resolution: Resolution, army_ids: dict[int, int]) -> list[Battle]:
    """Store the battles of `resolution` (`army_ids`: the real ids of armies raised this turn)."""

    def army_id(value: int | None) -> int | None:
        return army_ids.get(value, value) if value is not None else None

    # Ids by number, not rows (two thousand model instances on a large map).
    province_ids = dict(Province.objects.filter(campaign_id=turn.campaign_id).values_list("number", "id"))
    both_moved = {c.province for c in resolution.contacts if c.both_moved}
    rows = Battle.objects.bulk_create(
        Battle(
            turn=turn,
            province_id=province_ids[b.province],
            attacker_kingdom_id=b.attacker_kingdom,
            attacker_army_id=army_id(b.attacker_army),
            defender_kingdom_id=b.defender_kingdom,
            defender_army_id=army_id(b.defender_army),
            assault=b.assault,
            skirmish=b.skirmish,
            mission=b.mission,
            mission_detail=with_real_army_ids(b.mission_detail, army_ids) or {},
            garrison_points=b.garrison_points,
            garrison_defenses=b.garrison_defenses,
            fortified_points=b.fortified_points,
            ancient_dead_points=b.ancient_dead_points,
            defended_obstacles=b.defended_obstacles,
            guerrilla=with_real_army_ids(b.guerrilla, army_ids),
            notes=b.notes,
            both_moved=b.province in both_moved,
        )
        for b in resolution.battles
    )
    BattleSupport.objects.bulk_create(
        BattleSupport(
            battle=row, army_id=army_id(s.army), kingdom_id=s.kingdom, side=s.side, points=s.points, arrival=s.arrival
        )
        for battle, row in zip(resolution.battles, rows, strict=True)
        for s in battle.supports
    )
    return rows
