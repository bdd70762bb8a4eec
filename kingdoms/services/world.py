"""Loading the campaign's world state (kingdoms.rules.world) from the database: the one loader the
order-sheet check, the turn's resolution and the aftermath share."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Sum

from ..models import Alliance, ArmoryItem, Army, Campaign, Kingdom, Province, TreasuryEntry, Unit
from ..rules.alliances import AllianceState, TrustLevel
from ..rules.tables import ArmyKind, ArmyType, Settlement, Terrain
from ..rules.world import ArmyState, KingdomState, ProvinceState, UnitState, World, counted_points
from ..selectors import campaign_adjacency


def world_load(*, campaign: Campaign, turn_number: int) -> World:
    """The campaign's provinces, kingdoms (with their treasuries) and active armies with their
    lists as they stand in turn `turn_number`, in a fixed number of queries whatever the size of
    the map or the number of armies. Armies without a province (none stands on the map) are left
    out. An army counts at its list's points, or while its list is due at the points paid for it
    (`counted_points`)."""
    provinces = list(Province.objects.filter(campaign=campaign))
    number_of = {p.id: p.number for p in provinces}
    kingdoms = list(Kingdom.objects.filter(campaign=campaign))
    treasury = dict(
        TreasuryEntry.objects.filter(kingdom__campaign=campaign).values_list("kingdom").annotate(total=Sum("amount"))
    )
    armies = [a for a in Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE) if a.province_id]
    army_ids = [a.id for a in armies]
    units: dict[int, list[UnitState]] = defaultdict(list)
    for row in Unit.objects.filter(army__in=army_ids).order_by("army", "position", "id"):
        units[row.army_id].append(
            UnitState(
                id=row.id,
                army=row.army_id,
                name=row.name,
                category=row.category,
                models=row.models_count,
                points_per_model=row.points_per_model,
                equipment_points=row.equipment_points,
                one_use=row.one_use,
            )
        )
    item_points = dict(
        ArmoryItem.objects.filter(bearer__army__in=army_ids, destroyed=False)
        .values_list("bearer__army")
        .annotate(total=Sum("points"))
    )
    garrisoned = {a.province_id for a in armies if a.kind == Army.Kind.GARRISON}

    def army_state(army: Army) -> ArmyState:
        listed = sum(u.points for u in units.get(army.id, ())) + (item_points.get(army.id) or 0)
        # A field army without a list has its list due, whatever the flag says (a new army's rows
        # are made without units); an Elite Defense Force counts its 500 points in the garrison.
        due = army.list_due or (army.kind == Army.Kind.FIELD and not units.get(army.id))
        return ArmyState(
            id=army.id,
            kingdom=army.kingdom_id,
            name=army.name,
            province=number_of[army.province_id],
            size=army.size,
            points=counted_points(
                size=army.size, list_points=listed, list_due=due, losses_before_list=army.losses_before_list
            ),
            kind=ArmyKind(army.kind),
            supply_depot=army.supply_depot,
            experience=army.experience,
            list_due=due,
            losses_before_list=army.losses_before_list,
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
                incantation=p.incantation,
                col=p.col,
                row=p.row,
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
        units={army: tuple(rows) for army, rows in units.items()},
        alliances={
            a.id: AllianceState(
                id=a.id, first=a.first_id, second=a.second_id, trust=TrustLevel(a.trust), formed_turn=a.formed_turn
            )
            for a in Alliance.objects.filter(campaign=campaign, ended_turn__isnull=True)
        },
    )
