"""Posting the battles the orders phase scheduled: one row per battle, with its supports.

A battle is built first (`battles_build`: its row unsaved, with the province, kingdoms and armies
it names attached as the phase left them), its scenario rolled on it (battles.services.scenarios),
and only then written (`battles_insert`): the row goes in once with its scenario, where reading the
posted battles back and updating each with its scenario cost a read of every battle with five
related rows and an update of a few hundred kilobytes of JSON on the largest campaign (issue 35)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kingdoms.models import Army, Kingdom, Province
from kingdoms.services.bulk_rows import records_insert, rows_insert_with_ids
from rulebook.turn.pipeline import Resolution
from rulebook.turn.state import with_real_army_ids
from turns.models import Turn

from ..models import Battle, BattleSupport

# The battle's foreign keys that battles_build fills with the rows the phase read.
_RELATED = {
    name: Battle._meta.get_field(name)
    for name in ("turn", "province", "attacker_kingdom", "attacker_army", "defender_kingdom", "defender_army")
}


@dataclass(frozen=True)
class BattleToPost:
    """A battle of the resolution as it will be stored: its row (unsaved until `battles_insert`,
    its province, kingdoms and armies attached) and its supports (the row's, once it has an id)."""

    row: Battle
    supports: tuple[BattleSupport, ...]

    @property
    def supported_sides(self) -> frozenset[str]:
        return frozenset(s.side for s in self.supports)


def battles_build(*, turn: Turn, resolution: Resolution, army_ids: dict[int, int]) -> list[BattleToPost]:
    """The battles of `resolution` (`army_ids`: the real ids of armies raised this turn) as rows to
    store, in the resolution's order, with the rows they name read in three queries (the battles'
    provinces, the campaign's kingdoms, the fighting armies), as the phase's writes left them."""

    def army_id(value: int | None) -> int | None:
        return army_ids.get(value, value) if value is not None else None

    if not resolution.battles:
        return []
    provinces = {
        p.number: p
        for p in Province.objects.filter(
            campaign_id=turn.campaign_id, number__in={b.province for b in resolution.battles}
        )
    }
    kingdoms = {k.id: k for k in Kingdom.objects.filter(campaign_id=turn.campaign_id)}
    fighting = {army_id(a) for b in resolution.battles for a in (b.attacker_army, b.defender_army) if a is not None}
    armies = {a.id: a for a in Army.objects.filter(id__in=fighting)}
    for army in armies.values():
        army.kingdom = kingdoms[army.kingdom_id]  # its name on the scenario, without a query each
    both_moved = {c.province for c in resolution.contacts if c.both_moved}
    built = []
    for b in resolution.battles:
        attacker, defender = army_id(b.attacker_army), army_id(b.defender_army)
        related = {
            "turn": turn,
            "province": provinces[b.province],
            "attacker_kingdom": kingdoms[b.attacker_kingdom],
            "attacker_army": armies[attacker] if attacker is not None else None,
            "defender_kingdom": kingdoms[b.defender_kingdom] if b.defender_kingdom is not None else None,
            "defender_army": armies[defender] if defender is not None else None,
        }
        row = Battle(
            **{_RELATED[name].attname: None if value is None else value.pk for name, value in related.items()},
            assault=b.assault,
            skirmish=b.skirmish,
            mission=b.mission,
            mission_detail=with_real_army_ids(b.mission_detail, army_ids) or {},
            garrison_points=b.garrison_points,
            garrison_kingdom_id=b.garrison_kingdom,
            garrison_defenses=b.garrison_defenses,
            fortified_points=b.fortified_points,
            ancient_dead_points=b.ancient_dead_points,
            defended_obstacles=b.defended_obstacles,
            guerrilla=with_real_army_ids(b.guerrilla, army_ids),
            notes=b.notes,
            both_moved=b.province in both_moved,
        )
        # The rows it names, as a row read with select_related holds them: given by id and attached
        # to the row's cache, the related rows' checks (type, database router) are not run again for
        # each of a turn's hundreds of battles.
        for name, value in related.items():
            _RELATED[name].set_cached_value(row, value)
        supports = tuple(
            BattleSupport(
                army_id=army_id(s.army), kingdom_id=s.kingdom, side=s.side, points=s.points, arrival=s.arrival
            )
            for s in b.supports
        )
        built.append(BattleToPost(row, supports))
    return built


def battles_insert(battles: Sequence[BattleToPost]) -> list[Battle]:
    """Store the built battles (their scenarios rolled) and their supports, in their order: the rows
    get their ids. Returns the rows."""
    rows = [b.row for b in battles]
    rows_insert_with_ids(Battle, rows)
    records_insert(
        BattleSupport,
        [
            {
                "battle_id": b.row.pk,
                "army_id": s.army_id,
                "kingdom_id": s.kingdom_id,
                "side": s.side,
                "points": s.points,
                "arrival": s.arrival,
            }
            for b in battles
            for s in b.supports
        ],
    )
    return rows
