"""Loading the campaign's world state (kingdoms.rules.world) from the database: the one loader the
order-sheet check, the turn's resolution and the aftermath share."""

from __future__ import annotations

from django.db.models import F, Sum

from ..models import ArmoryItem, Army, Campaign, Kingdom, Province, TreasuryEntry, Unit
from ..rules.tables import ArmyKind, ArmyType, Settlement, Terrain
from ..rules.world import ArmyState, KingdomState, ProvinceState, World
from ..selectors import campaign_adjacency


def world_load(*, campaign: Campaign, turn_number: int) -> World:
    """The campaign's provinces, kingdoms (with their treasuries) and active armies as they stand
    in turn `turn_number`, in a fixed number of queries whatever the size of the map or the
    number of armies. Armies without a province (none stands on the map) are left out."""
    provinces = list(Province.objects.filter(campaign=campaign))
    number_of = {p.id: p.number for p in provinces}
    kingdoms = list(Kingdom.objects.filter(campaign=campaign))
    treasury = dict(
        TreasuryEntry.objects.filter(kingdom__campaign=campaign).values_list("kingdom").annotate(total=Sum("amount"))
    )
    armies = [a for a in Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE) if a.province_id]
    army_ids = [a.id for a in armies]
    unit_points = dict(
        Unit.objects.filter(army__in=army_ids)
        .values_list("army")
        .annotate(total=Sum(F("models_count") * F("points_per_model") + F("equipment_points")))
    )
    item_points = dict(
        ArmoryItem.objects.filter(bearer__army__in=army_ids, destroyed=False)
        .values_list("bearer__army")
        .annotate(total=Sum("points"))
    )
    garrisoned = {a.province_id for a in armies if a.kind == Army.Kind.GARRISON}

    def army_state(army: Army) -> ArmyState:
        listed = (unit_points.get(army.id) or 0) + (item_points.get(army.id) or 0)
        return ArmyState(
            id=army.id,
            kingdom=army.kingdom_id,
            name=army.name,
            province=number_of[army.province_id],
            size=army.size,
            points=max(0, listed - army.pending_losses),
            kind=ArmyKind(army.kind),
            supply_depot=army.supply_depot,
            experience=army.experience,
            pending_losses=army.pending_losses,
            created_turn=army.created_turn,
            upgraded_turn=army.upgraded_turn,
            last_battle_turn=army.last_battle_turn,
            recover_streak=army.recover_streak,
            co_occupying=army.co_occupying,
            fortified_in=number_of.get(army.fortified_in_id) if army.fortified_in_id else None,
        )

    states = [army_state(a) for a in armies]
    return World(
        turn=turn_number,
        player_count=campaign.player_count,
        provinces={
            p.number: ProvinceState(
                number=p.number,
                name=p.name,
                terrain=Terrain(p.terrain),
                settlement=Settlement(p.settlement),
                razed=p.razed,
                fortified=p.fortified,
                controller=p.controller_id,
                pyramid=p.pyramid,
                elite_defense=p.id in garrisoned,
                looted_turn=p.looted_turn,
            )
            for p in provinces
        },
        adjacency=campaign_adjacency(campaign),
        kingdoms={
            k.id: KingdomState(
                id=k.id,
                name=k.name,
                army_type=ArmyType(k.army_type),
                treasury=treasury.get(k.id, 0),
                capitol=number_of.get(k.capitol_id) if k.capitol_id else None,
            )
            for k in kingdoms
        },
        armies={a.id: a for a in states if a.kind is ArmyKind.FIELD},
        garrisons={a.id: a for a in states if a.kind is ArmyKind.GARRISON},
    )
