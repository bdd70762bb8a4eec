"""What the sheet check reads: the world as the kingdom finds it, with its own armies, the names
they have used and its roster (`SheetContext`, made by `order_sheet_context`) (pure Python).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from rulebook.experience.spending import SpendingRoster
from rulebook.ruins_and_tomb_raiders.force import TombRaiders
from rulebook.ruins_and_tomb_raiders.tomb_raid import Ruin
from rulebook.tables import ArmyType, Settlement
from rulebook.turn.tally_gold import tax_tally
from rulebook.world import ArmyState, CharacterState, ProvinceState, World


@dataclass(frozen=True)
class SheetContext:
    """What the check needs to know: the world as the kingdom finds it (the public map, its own
    treasury and capitol) with the kingdom's own field armies and every name it has given an army.
    Made by `order_sheet_context`, so the form, the API and the turn's normalisation see the same state."""

    world: World
    kingdom: int
    armies: dict[int, ArmyState]  # the kingdom's own field armies
    army_names: frozenset[str] = frozenset()  # every army name the kingdom has used (names stay unique)
    roster: SpendingRoster = field(default_factory=SpendingRoster)  # its lists, characters, items, on the way
    # Using Tomb Raiders: the kingdom's force (None: it keeps none) and the points added to it since the
    # turn opened (Maintaining / Changing Tomb Raiders: 5 gold a point to send it this turn)
    raiders: TombRaiders | None = None
    raiders_points_added: int = 0
    # Reconnaissance, Character Bio: the rivals' Warlords and Generals a spy may name (decision 455), read
    # beside the world, which holds no characters here
    rival_characters: dict[int, CharacterState] = field(default_factory=dict)

    @property
    def army_type(self) -> ArmyType:
        return self.world.kingdoms[self.kingdom].army_type

    @property
    def turn(self) -> int:
        return self.world.turn

    @property
    def treasury(self) -> int:
        return self.world.kingdoms[self.kingdom].treasury

    @property
    def player_count(self) -> int:
        return self.world.player_count

    @property
    def capitol(self) -> int | None:
        return self.world.kingdoms[self.kingdom].capitol

    @property
    def provinces(self) -> dict[int, ProvinceState]:
        return self.world.provinces

    def adjacent(self, a: int, b: int) -> bool:
        return self.world.adjacent(a, b)

    def province(self, number: int) -> ProvinceState | None:
        return self.world.provinces.get(number)

    @cached_property
    def elite_defense_forces(self) -> dict[int, ArmyState]:
        """The kingdom's own Elite Defense Forces (Battle for Towns, Cities, and Capitols: "treated as an
        army in the field in all manners except for the fact it cannot leave the town / city"): they
        spend the experience they earn, on what does not change their composition (decision 620)."""
        return {g.id: g for g in self.world.garrisons.values() if g.kingdom == self.kingdom and not g.disbanded}

    def spender(self, army_id: int) -> ArmyState | None:
        """The kingdom's army or Elite Defense Force that may spend its experience (Spending Experience)."""
        return self.armies.get(army_id) or self.elite_defense_forces.get(army_id)

    @cached_property
    def ruins(self) -> dict[int, Ruin]:
        return ruins_of(self.world)

    @cached_property
    def taxes(self) -> int:
        """What this turn's 1. Tally Gold will bring the kingdom (net of Imperial Taxation), which
        its sheet may spend: reckoned once per context (the turn's normalisation checks each order
        on its own against one context)."""
        return tax_tally(self.world, self.kingdom).net

    @property
    def lists_due(self) -> list[ArmyState]:
        """The kingdom's armies whose list is due (raised or upgraded, not entered since): each
        counts at the points paid for it until it is."""
        return sorted((a for a in self.armies.values() if a.list_due), key=lambda a: a.id)


def order_sheet_context(
    world: World,
    kingdom: int,
    *,
    army_names: frozenset[str] = frozenset(),
    roster: SpendingRoster | None = None,
    raiders: TombRaiders | None = None,
    raiders_points_added: int = 0,
    rival_characters: dict[int, CharacterState] | None = None,
) -> SheetContext:
    """The sheet check's view of `world` for `kingdom`. Its armies are the kingdom's field armies in
    the world; a turn's working copy may hold some disbanded this turn, whose orders are then checked
    as written."""
    return SheetContext(
        world=world,
        kingdom=kingdom,
        armies={a.id: a for a in world.armies.values() if a.kingdom == kingdom},
        army_names=army_names,
        roster=roster or SpendingRoster(),
        raiders=raiders,
        raiders_points_added=raiders_points_added,
        rival_characters=rival_characters or {},
    )


def ruins_of(world: World) -> dict[int, Ruin]:
    """The provinces with ruins (Ruins): the map's, sacked by the desert or not, with how many times
    each was raided successfully."""
    return {
        p.number: Ruin(p.number, str(p), sacked=p.ruin_sacked, successful_raids=p.ruin_raids)
        for p in world.provinces.values()
        if p.settlement == Settlement.RUINS
    }


def where(ctx: SheetContext, number: int | None) -> str:
    """A province as the problems name it: the map's words for it, or its number when the map has none."""
    province = ctx.province(number) if number is not None else None
    return str(province) if province else f"province {number}"
