"""Spending Experience: what each purchase costs and what the rules refuse (pure Python).

Rulebook sections: Spending Experience, Veteran Status, Character Archetypes and Advancement,
Warlord, Armory, Army Restrictions, Supply Depot, Army-Specific Rules (Perfectionists, Vain and
Overconfident, Curse of the Dead). The tables are data named after the rulebook's; the order
sheet's check (rulebook.turn.write_orders.check) and the turn's spending (rulebook.turn.spending)
both ask these functions, so a purchase costs the same wherever it is reckoned.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernel.dice import Dice
from rulebook.ancient_dead.deserts import is_scarab_amulet
from rulebook.armies.army_lists import MAX_VETERAN_LEVEL, ItemEntry, UnitEntry
from rulebook.army_specific.origins import perfectionists_cost
from rulebook.tables import ADVANCEMENT_CHOOSE, ARCHETYPE_ADVANCEMENT, MAX_ABILITIES, Archetype, ArmyType

# Spending Experience: "1 Experience Point = 10 points to be spent on recruits".
RECRUIT_POINTS_PER_EXPERIENCE = 10
# "1 Experience Point = 1 point to be spent on new equipment, magic items, and abilities".
EQUIPMENT_POINTS_PER_EXPERIENCE = 1
VETERAN_LEVEL_EXPERIENCE = 10  # each level, +1 to +3
SUPPLY_DEPOT_EXPERIENCE = 20  # Supply Depot: "purchased for 20 experience points"
# "troops purchased in Turn 2 will arrive at the beginning of Turn 4"
DELIVERY_DELAY_TURNS = 2
# Character Archetypes and Advancement: a roll costs 25, every three battles survived.
ADVANCEMENT_EXPERIENCE = 25
BATTLES_BETWEEN_ABILITIES = 3
# Magician, Potential: "If the controlling player spends an additional 75 Experience Points, the
# character gains one magic level ... This ability may be used once per magician per campaign."
POTENTIAL = "Potential"
POTENTIAL_EXPERIENCE = 75
# Army-Specific Rules: Vain and Overconfident (the Elves), Curse of the Dead (the undead).
VAIN_AND_OVERCONFIDENT = frozenset({ArmyType.DARK_ELVES, ArmyType.HIGH_ELVES, ArmyType.WOOD_ELVES})
CURSE_OF_THE_DEAD = frozenset({ArmyType.TOMB_KINGS, ArmyType.VAMPIRE_COUNTS, ArmyType.ANCIENT_DEAD})
ADVANCEMENT_EXPERIENCE_BY_ARMY_TYPE: dict[ArmyType, int] = {
    **{t: 35 for t in VAIN_AND_OVERCONFIDENT},
    **{t: 40 for t in CURSE_OF_THE_DEAD},
}


class PurchaseKind:
    """The kinds of purchase an order sheet may make with an army's experience."""

    RECRUITS = "recruits"
    EQUIPMENT = "equipment"
    ITEM = "item"
    SUPPLY_DEPOT = "supply-depot"
    VETERAN = "veteran"
    ADVANCEMENT = "advancement"
    PROMOTION = "promotion"
    POTENTIAL = "potential"  # Magician, Potential: one more magic level

    ALL = (RECRUITS, EQUIPMENT, ITEM, SUPPLY_DEPOT, VETERAN, ADVANCEMENT, PROMOTION, POTENTIAL)
    # Those that arrive at the beginning of the turn after next (a delivery); the others act at once.
    DELIVERED = frozenset({RECRUITS, EQUIPMENT, ITEM, SUPPLY_DEPOT})


PURCHASE_LABELS = {
    PurchaseKind.RECRUITS: "Recruits",
    PurchaseKind.EQUIPMENT: "Equipment",
    PurchaseKind.ITEM: "Magic item",
    PurchaseKind.SUPPLY_DEPOT: "Supply depot",
    PurchaseKind.VETERAN: "Veteran Status",
    PurchaseKind.ADVANCEMENT: "Archetype roll",
    PurchaseKind.PROMOTION: "Promotion to Lord",
    PurchaseKind.POTENTIAL: "Magician's Potential (+1 magic level)",
}


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def recruits_cost(points: int) -> int:
    """Spending Experience: 1 experience for each 10 points of recruits, a part of 10 paid whole."""
    return ceil_div(max(points, 0), RECRUIT_POINTS_PER_EXPERIENCE)


def equipment_cost(points: int) -> int:
    return max(points, 0) // EQUIPMENT_POINTS_PER_EXPERIENCE


def item_cost(points: int, *, runic: bool, army_type: ArmyType, in_town_or_city: bool) -> int:
    """A magic item, 1 experience a point; Perfectionists: a runic item fitted away from a town or
    city costs 20% more (rounded up). `runic`: the sheet says so; an item whose name carries a rune
    is runic whatever the sheet says (decision 387)."""
    return perfectionists_cost(
        equipment_cost(points), runic=runic, army_type=army_type, in_town_or_city=in_town_or_city
    )


def advancement_cost(army_type: ArmyType) -> int:
    """A roll on the Archetype Advancement Table: 25, Vain and Overconfident 35, Curse of the Dead 40."""
    return ADVANCEMENT_EXPERIENCE_BY_ARMY_TYPE.get(army_type, ADVANCEMENT_EXPERIENCE)


def delivery_turn(ordered_turn: int) -> int:
    """The turn at whose beginning a delayed purchase arrives (One Turn Delay)."""
    return ordered_turn + DELIVERY_DELAY_TURNS


def delivered_item_kept(name: str, *, common: bool, held: frozenset[str]) -> bool:
    """Whether a magic item arriving as a delivery (bought with experience, or found in the field and
    delayed by a Mislabeled goods) is the kingdom's. Armory: "your kingdom has only one of that item
    ... If the army containing that item is destroyed, your kingdom does not get another one"; common
    items are plentiful. One the kingdom came to hold while it was on its way (a transfer, a raid's
    find: `held`, the lower-case names of the non-common items it holds or lost) is lost, as a found
    item or a transfer's that it cannot hold (decisions 143, 431, 600)."""
    return common or name.strip().lower() not in held


@dataclass(frozen=True)
class UnitRecord:
    """A unit of an army's list as spending sees it."""

    army: int
    name: str
    category: str
    models: int
    points_per_model: int
    veteran_level: int = 0
    veteran_eligible: bool = False
    living: bool = False  # a living unit of an undead army (Curse of the Dead)


@dataclass(frozen=True)
class CharacterRecord:
    """A living character: the General or Warlord who may roll, the Warlord who may be promoted."""

    army: int
    name: str
    role: str  # warlord, general, hero
    rank: str  # lord, hero
    points: int  # his base points (the unit's points per model)
    archetype: str = ""
    abilities: tuple[str, ...] = ()
    battles_survived: int = 0
    battles_at_last_ability: int = 0
    ability_choice_pending: bool = False
    wizard: bool = False
    magic_level: int = 0  # as entered (0: not entered, read as 1)
    potential_used: bool = False  # Magician, Potential: bought once per campaign
    immune_to_psychology: bool = False  # by his army book (the list says so)
    living: bool = False  # his unit is marked living in an undead army (Curse of the Dead)
    amnesia: bool = False  # Character Injury Chart, Amnesia: he can use no Archetype Ability (decision 621)


@dataclass(frozen=True)
class ItemRecord:
    """A magic item the kingdom holds (Armory): carried by a unit of `army`, or in its armory (None)."""

    id: int
    name: str
    points: int
    common: bool = False
    army: int | None = None


@dataclass(frozen=True)
class SpendingRoster:
    """What a kingdom's purchases are checked against, beyond the world: its lists, its characters,
    the non-common items it holds (any army, the armory, on the way), and what is on the way."""

    units: tuple[UnitRecord, ...] = ()
    characters: tuple[CharacterRecord, ...] = ()
    items: frozenset[str] = frozenset()  # lower-case names of non-common items in the kingdom or on the way
    on_the_way_points: dict[int, int] = field(default_factory=dict)  # army -> points of troops/items on the way
    depots_on_the_way: frozenset[int] = frozenset()  # armies with a supply depot on the way
    armory: tuple[ItemRecord, ...] = ()  # every item it holds, the armory's first, then by army

    def held_items(self, name: str) -> list[ItemRecord]:
        """The items of that name it holds, in the order a transfer takes them (decision 143)."""
        key = name.strip().lower()
        return [i for i in self.armory if i.name.strip().lower() == key]

    def unit(self, army: int, name: str) -> UnitRecord | None:
        key = name.strip().lower()
        return next((u for u in self.units if u.army == army and u.name.strip().lower() == key), None)

    def character(self, army: int, name: str) -> CharacterRecord | None:
        key = name.strip().lower()
        return next((c for c in self.characters if c.army == army and c.name.strip().lower() == key), None)


def veteran_refusal(unit: UnitRecord, army_type: ArmyType) -> str:
    """Why `unit` cannot buy its next Veteran level ("" when it can). Veteran Status: only a unit
    eligible by its last battle, one level per battle, +3 at most; Curse of the Dead: no undead unit
    (every unit of a Tomb Kings or Vampire Counts army but one its list marks living)."""
    if army_type in CURSE_OF_THE_DEAD and not unit.living:
        return (
            f"{unit.name} cannot become a Veteran: the undead units of {army_type.label} cannot spend experience "
            "on Veteran Status (Curse of the Dead)."
        )
    if unit.category == "character":
        return f"{unit.name} is a character; Veteran Status is for units (Veteran Status)."
    if unit.veteran_level >= MAX_VETERAN_LEVEL:
        return f"{unit.name} is already +{MAX_VETERAN_LEVEL} Veteran, the highest level (Veteran Status)."
    if not unit.veteran_eligible:
        return (
            f"{unit.name} is not eligible for +{unit.veteran_level + 1} Veteran: a unit goes up one level for each "
            "battle it survives with more than 50% of its models (Veteran Status)."
        )
    return ""


def advancement_refusal(character: CharacterRecord) -> str:
    """Why `character` cannot roll on his Archetype Advancement Table ("" when he can)."""
    if character.role not in ("warlord", "general") or not character.archetype:
        return f"{character.name} is not a General with an Archetype (Character Archetypes and Advancement)."
    if len(character.abilities) >= MAX_ABILITIES:
        return (
            f"{character.name} has {len(character.abilities)} abilities; a character may never have more than six "
            "(Character Archetypes and Advancement)."
        )
    if character.ability_choice_pending:
        return f"{character.name} has an ability to choose first (Character Archetypes and Advancement)."
    if character.amnesia:
        return _amnesia(character, "a roll on his Advancement Table")
    since = character.battles_survived - character.battles_at_last_ability
    if since < BATTLES_BETWEEN_ABILITIES:
        return (
            f"{character.name} has survived {since} battle(s) since his last ability; he rolls again after "
            f"{BATTLES_BETWEEN_ABILITIES} (Character Archetypes and Advancement)."
        )
    return ""


def potential_refusal(character: CharacterRecord) -> str:
    """Why `character` cannot buy his Magician's Potential, one more magic level ("" when he can):
    a Magician with the Potential ability, a Wizard, once per campaign."""
    if character.archetype != Archetype.MAGICIAN.value or POTENTIAL not in character.abilities:
        return (
            f"{character.name} does not have the Magician's Potential ability (Character Archetypes and "
            "Advancement, Magician)."
        )
    if character.potential_used:
        return (
            f"{character.name} has already used his Potential; it may be used once per magician per campaign "
            "(Character Archetypes and Advancement, Magician)."
        )
    if not character.wizard:
        return f"{character.name} is not a Wizard; only a Wizard has a magic level (Character Archetypes)."
    if character.amnesia:
        return _amnesia(character, "his Potential")
    return ""


def _amnesia(character: CharacterRecord, what: str) -> str:
    """Character Injury Chart, Amnesia: "no longer can take advantage of any Archetype Abilities
    including Starting Abilities": an ability bought would be one he cannot use (decision 621)."""
    return (
        f"{character.name} suffers from Amnesia and no longer can take advantage of any Archetype Abilities: "
        f"{what} would buy nothing he can use (Character Injury Chart)."
    )


def promotion_refusal(character: CharacterRecord, lord_points: int) -> str:
    """Why the Warlord `character` cannot be promoted to a Lord of `lord_points` ("" when he can)."""
    if character.role != "warlord":
        return f"{character.name} is not the kingdom's Warlord; only the Warlord is promoted to Lord level (Warlord)."
    if character.rank == "lord":
        return f"{character.name} is already a Lord level character (Warlord)."
    if lord_points <= character.points:
        return (
            f"a Lord of {lord_points} points is no promotion for {character.name}, who costs {character.points} "
            "(Warlord)."
        )
    return ""


def promotion_cost(character: CharacterRecord, lord_points: int) -> int:
    """Warlord: promotion to Lord level costs the point difference in experience (Tomb Prince to Tomb King: 70)."""
    return max(lord_points - character.points, 0)


# Character Archetypes and Advancement: "some of the Archetype Abilities affect a character's or
# unit's Psychology or ability to pass Leadership Tests. Characters that are Immune to Psychology or
# would otherwise be unaffected by such Abilities (i.e. undead characters for whom such an Ability
# would be useless) may reroll the skill in question" (decision 392). The psychology tests Immune to
# Psychology passes (Panic, Fear, Terror); the undead are immune too and take no Break Tests.
PSYCHOLOGY_ABILITIES = frozenset({"Bravado", "Fearless", "Unflinching"})
BREAK_TEST_ABILITIES = frozenset({"Hold Fast", "Dauntless"})


def useless_abilities(*, army_type: ArmyType, immune_to_psychology: bool, living: bool) -> frozenset[str]:
    """The Archetype Abilities that cannot work for the character, which he rolls again: psychology
    ones for one Immune to Psychology, those and the Break Test ones for an undead character (of a
    Curse of the Dead army, his unit not marked living). Never his Starting Ability."""
    if army_type in CURSE_OF_THE_DEAD and not living:
        return PSYCHOLOGY_ABILITIES | BREAK_TEST_ABILITIES
    if immune_to_psychology:
        return PSYCHOLOGY_ABILITIES
    return frozenset()


@dataclass(frozen=True)
class AdvancementRoll:
    faces: tuple[int, ...]  # every D6 rolled, rerolls of abilities already held included
    ability: str = ""  # the ability gained ("" when he chooses)
    choose: bool = False  # a 6: the player chooses one of the table's abilities


def advancement_roll(
    archetype: Archetype,
    held: tuple[str, ...],
    dice: Dice,
    *,
    who: str,
    kingdom: int,
    army: int,
    useless: frozenset[str] = frozenset(),
    purpose: str = "",
) -> AdvancementRoll:
    """A roll on the Archetype Advancement Table: a 6 is Choose; an ability he already holds, or one
    that cannot work for him (`useless`, decision 392), is rolled again (docs/rules-decisions.md), so
    a roll gives him something new he can use."""
    table = ARCHETYPE_ADVANCEMENT[archetype]
    faces: list[int] = []
    held = (*held, *useless)
    if all(a in held for a in table):
        return AdvancementRoll(())  # nothing new on his table (a character with six abilities never rolls)
    while True:
        face = dice.d6(
            purpose=purpose or f"{who}: roll on the {archetype.label} Advancement Table",
            kingdoms=[kingdom],
            armies=[army],
        )
        faces.append(face)
        if face == ADVANCEMENT_CHOOSE:
            return AdvancementRoll(tuple(faces), choose=True)
        ability = table[face - 1]
        if ability not in held:
            return AdvancementRoll(tuple(faces), ability=ability)


# --- XP7: the list editor cannot add for free ------------------------------------------------


def list_additions(
    before_units: list[UnitEntry],
    before_items: list[ItemEntry],
    after_units: list[UnitEntry],
    after_items: list[ItemEntry],
    *,
    label: str,
    arrives_turn: int,
) -> list[str]:
    """What an edit of an entered list would add for nothing (Spending Experience): new units or
    models, equipment points, dearer models, Veteran levels, magic items, or a larger total. Each in
    words with what buying it costs and how; removing, renaming, reordering, and moving an item
    between characters add nothing. Empty: the edit is free to save."""
    stored = {u.key: u for u in before_units if u.key is not None}
    how = (
        f"bought with experience on the order sheet: {{cost}} experience, arriving at the start of turn {arrives_turn}"
    )
    found: list[str] = []
    for unit in after_units:
        old = stored.get(unit.key) if unit.key is not None else None
        name = unit.name.strip() or "a unit"
        if old is None:
            cost = recruits_cost(unit.points)
            found.append(f"{label}: {unit.models} {name} ({unit.points} points) are {how.format(cost=cost)}")
            continue
        if unit.models > old.models:
            added = unit.models - old.models
            points = added * unit.points_per_model
            found.append(f"{label}: {added} {name} ({points} points) are {how.format(cost=recruits_cost(points))}")
        if unit.points_per_model > old.points_per_model:
            points = (unit.points_per_model - old.points_per_model) * unit.models
            found.append(
                f"{label}: {name}'s models at {unit.points_per_model} points instead of {old.points_per_model} "
                f"({points} points more) are new equipment, {how.format(cost=equipment_cost(points))}"
            )
        if unit.equipment_points > old.equipment_points:
            points = unit.equipment_points - old.equipment_points
            found.append(
                f"{label}: {points} points of equipment for {name} are {how.format(cost=equipment_cost(points))}"
            )
        if unit.veteran_level > old.veteran_level:
            found.append(
                f"{label}: {name} at +{unit.veteran_level} Veteran instead of +{old.veteran_level}: Veteran Status "
                f"is bought with experience on the order sheet, {VETERAN_LEVEL_EXPERIENCE} a level, by a unit "
                "eligible by its last battle"
            )
        old_level = old.character.magic_level if old.character else 0
        if unit.character and unit.character.magic_level > max(old_level, 1):
            # A Wizard's level is his army book's when the list is entered; later only the Magician's
            # Potential raises it (Character Archetypes), bought on the order sheet (decision 391).
            found.append(
                f"{label}: {name} at magic level {unit.character.magic_level} instead of {max(old_level, 1)}: a "
                f"Wizard gains a level only by the Magician's Potential, {POTENTIAL_EXPERIENCE} experience bought "
                "on the order sheet (Character Archetypes)"
            )
    held: dict[str, int] = {}
    for item in before_items:
        key = item.name.strip().lower()
        held[key] = max(held.get(key, 0), item.points)
    for item in after_items:
        key = item.name.strip().lower()
        if key not in held and is_scarab_amulet(item.name):
            # Not for sale: found in the ruins (Ruins; Tomb Raiders: Tomb Raid), so the organizer adds
            # it, saying which raid found it (decision 110).
            found.append(
                f"{label}: a Scarab Amulet is not bought; it is found in ruins (Ruins: Treasure from the Ruins; "
                "Tomb Raiders), and the organizer adds it to the list with the raid that found it"
            )
        elif key not in held:
            found.append(
                f"{label}: {item.name.strip()} ({item.points} points) is a magic item "
                f"{how.format(cost=equipment_cost(item.points))}"
            )
        elif item.points > held[key]:
            found.append(f"{label}: {item.name.strip()} cannot cost more than the {held[key]} points it was bought at")
        held.pop(key, None)  # one item of that name was there: a second one is new
    before = sum(u.points for u in before_units) + sum(i.points for i in before_items)
    after = sum(u.points for u in after_units) + sum(i.points for i in after_items)
    if after > before and not found:
        found.append(f"{label}: the list would grow from {before} to {after} points without paying for it")
    return [f"{f} (Spending Experience)." for f in found]
