"""The sanity check after each phase, inside the phase's transaction: a failure raises, so
`phase_run` rolls the whole phase back (its claim included) and records why for the organizer."""

from __future__ import annotations

from django.db.models import Sum

from battles.models import Battle
from briternia.errors import DomainError
from kernel.records import record_made
from kingdoms.models import Alliance, Army, Kingdom, Province, TreasuryEntry
from rulebook.allies.chart import ENDED_AFTER_THE_BATTLES, AllianceState, TrustLevel
from rulebook.sanity import world_problems
from rulebook.tables import ArmyType, Terrain
from rulebook.world import ArmyState, KingdomState, ProvinceState, World
from turns.models import Turn

from .log_references import log_references_dangling

_TERRAIN = {t.value: t for t in Terrain}


def phase_sanity_check(*, turn: Turn, phase_name: str, battles_waiting: bool) -> None:
    """Refuse the state `phase_name` left: rulebook.sanity's problems of the world as stored
    (`sanity_world_load`), and any army of the campaign left active with no province (the world's
    loader would not see it). `battles_waiting`: the turn's battles are posted and not yet fought
    (after the orders phase); and any of the turn's events or movements naming a kingdom, army or
    province outside the campaign (`log_references_dangling`)."""
    world = sanity_world_load(turn=turn)
    battle_provinces = (
        frozenset(Battle.objects.filter(turn=turn).values_list("province__number", flat=True))
        if battles_waiting
        else frozenset()
    )
    # Decision 570: allies whose alliance the aftermath ended may stand together until the next turn's orders.
    ended = (
        set()
        if battles_waiting
        else {
            frozenset(pair)
            for pair in Alliance.objects.filter(
                campaign=turn.campaign, ended_turn=turn.number, ended_how__in=list(ENDED_AFTER_THE_BATTLES)
            ).values_list("first_id", "second_id")
        }
    )
    problems = world_problems(world, battle_provinces=battle_provinces, ended_after_the_battles=ended)
    problems += [
        f"{army.name} of {army.kingdom.name} is active but stands in no province."
        for army in Army.objects.filter(
            kingdom__campaign=turn.campaign, status=Army.Status.ACTIVE, province__isnull=True
        ).select_related("kingdom")
    ]
    # What the logs' dropped foreign-key constraints checked at commit (turns/services/log_references.py).
    problems += log_references_dangling(turn=turn)
    if problems:
        raise DomainError([f"the {phase_name} was rolled back, its result fails the sanity check", *problems])


def sanity_world_load(*, turn: Turn) -> World:
    """The campaign's world as stored, in what `world_problems` reads of it and nothing more: the
    kingdoms with their treasuries, the active field armies standing on the map (where they stand,
    as world_load places them), the names of the provinces they stand in and the alliances in force,
    in five queries of plain rows. The rest is left out or at its default (no army lists, so every
    army's points are 0; no adjacency, no garrisons, no missions; no province without a field army
    of the campaign in it, which no check reads): the whole world
    (kingdoms.services.world.world_load) costs more than the rest of the check together on a large
    campaign, and the phase has read it once already. The check still reads what the phase wrote,
    not what it meant to write."""
    campaign = turn.campaign
    armies = (
        Army.objects.filter(
            kingdom__campaign=campaign, status=Army.Status.ACTIVE, kind=Army.Kind.FIELD, province__isnull=False
        )
        .order_by()
        .values_list("id", "kingdom_id", "name", "province_id")
    )
    # Of the campaign's provinces (an army standing in another's is no province of this map).
    provinces = {
        row_id: record_made(ProvinceState, {"number": number, "name": name, "terrain": _TERRAIN[terrain]})
        for row_id, number, name, terrain in Province.objects.filter(
            campaign=campaign, id__in=armies.values("province_id")
        )
        .order_by()
        .values_list("id", "number", "name", "terrain")
    }
    treasury = dict(
        TreasuryEntry.objects.filter(kingdom__campaign=campaign).values_list("kingdom").annotate(total=Sum("amount"))
    )
    return World(
        turn=turn.number,
        player_count=campaign.player_count,
        provinces={p.number: p for p in provinces.values()},
        adjacency={},
        kingdoms={
            k: KingdomState(id=k, name=name, army_type=ArmyType(army_type), treasury=treasury.get(k, 0))
            for k, name, army_type in Kingdom.objects.filter(campaign=campaign)
            .order_by()
            .values_list("id", "name", "army_type")
        },
        armies={
            a: record_made(
                ArmyState,
                {
                    "id": a,
                    "kingdom": kingdom,
                    "name": name,
                    "province": provinces[province].number,
                    "size": 0,
                    "points": 0,
                },
            )
            for a, kingdom, name, province in armies
        },
        garrisons={},
        alliances={
            a: AllianceState(id=a, first=first, second=second, trust=TrustLevel(trust), formed_turn=formed)
            for a, first, second, trust, formed in Alliance.objects.filter(
                campaign=campaign, ended_turn__isnull=True
            ).values_list("id", "first_id", "second_id", "trust", "formed_turn")
        },
    )
