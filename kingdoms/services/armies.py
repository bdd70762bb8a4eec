"""Army lists: saving a list under the Army Restrictions, and the Warlord's free roll."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from briternia.errors import DomainError
from rulebook.armies.army_lists import (
    ArmyListDraft,
    CharacterEntry,
    EarnedUnit,
    ItemEntry,
    KingdomRoster,
    UnitEntry,
    army_list_errors,
)
from rulebook.experience.spending import advancement_roll, delivery_turn, list_additions, useless_abilities
from rulebook.tables import (
    ARCHETYPE_ADVANCEMENT,
    STARTING_ABILITIES,
    Archetype,
    Settlement,
)
from rulebook.turn.tables import DEFAULT_SETTLEMENT_CREATION_DISCOUNT, SETTLEMENT_CREATION_DISCOUNT

from ..models import ArmoryItem, Army, Campaign, Character, DraftedArmyList, Kingdom, RosterAdjustment, Unit
from .dice import campaign_dice, dice_rolls_save


def army_entries(army: Army) -> tuple[list[UnitEntry], list[ItemEntry]]:
    """The stored list of `army` as rule entries (what the edit form starts from)."""
    units = list(army.units.select_related("character").prefetch_related("items"))
    unit_entries = [
        UnitEntry(
            key=u.id,
            name=u.name,
            category=u.category,
            models=u.models_count,
            points_per_model=u.points_per_model,
            equipment_points=u.equipment_points,
            veteran_level=u.veteran_level,
            one_use=u.one_use,
            living=u.living,
            dogs_of_war=u.dogs_of_war,
            special_character=u.special_character,
            champion_points=u.champion_points,
            standard_points=u.standard_points,
            musician_points=u.musician_points,
            character=_character_entry(u),
        )
        for u in units
    ]
    item_entries = [
        ItemEntry(name=i.name, points=i.points, common=i.common, bearer=u.name)
        for u in units
        for i in u.items.all()
        if not i.destroyed
    ]
    return unit_entries, item_entries


def _character_entry(unit: Unit) -> CharacterEntry | None:
    character = getattr(unit, "character", None)
    if character is None:
        return None
    return CharacterEntry(
        rank=character.rank,
        role=character.role,
        archetype=character.archetype or None,
        monstrous_mount=character.monstrous_mount,
        wizard=character.wizard,
        magic_level=character.magic_level,
        rune_smith=character.rune_smith,
        immune_to_psychology=character.immune_to_psychology,
    )


def _roster(army: Army) -> KingdomRoster:
    """What the kingdom holds outside `army`, for the kingdom-wide restrictions."""
    others = Character.objects.filter(kingdom=army.kingdom, alive=True, unit__army__status=Army.Status.ACTIVE).exclude(
        unit__army=army
    )
    # The armory's own items (no bearer) are the kingdom's to give to any army: not "elsewhere"
    # (decision 443); an item destroyed with its army stays counted (Armory: "does not get another one").
    items = (
        ArmoryItem.objects.filter(kingdom=army.kingdom, common=False)
        .exclude(bearer__army=army, destroyed=False)
        .exclude(bearer__isnull=True, destroyed=False)
    )
    locked = Character.objects.filter(unit__army=army).exclude(archetype="")
    return KingdomRoster(
        monstrous_mounts_elsewhere=others.filter(monstrous_mount=True).count(),
        items_elsewhere=frozenset(n.lower() for n in items.values_list("name", flat=True)),
        warlord_elsewhere=others.filter(role=Character.Role.WARLORD).exists(),
        archetypes_locked=dict(locked.values_list("unit_id", "archetype")),
    )


def _is_elite_defense_force(army: Army) -> bool:
    """A garrison's army row is an Elite Defense Force, except the Ancient Dead's Capitol Garrison
    (The Ancient Dead: Setup: their capitol's garrison holds the Warlord and takes no Elite Defense Force)."""
    capitol_garrison = army.kingdom.is_ancient_dead and army.province_id == army.kingdom.capitol_id
    return army.kind == Army.Kind.GARRISON and not capitol_garrison


def _refuse_a_fixed_list(army: Army, *, entered: bool) -> None:
    """A list nobody may change (nor draft): a disbanded army's, or an Elite Defense Force's once
    `entered` (army_list_locked)."""
    if army.status != Army.Status.ACTIVE:
        raise DomainError(f"{army.name} is disbanded; its list cannot change.")
    if entered and _is_elite_defense_force(army):
        # Battle for Towns, Cities, and Capitols: "The composition of the Elite Defense Force cannot
        # change". Its list is entered once; casualties, recovery and injuries are the aftermath's.
        raise DomainError(
            f"{army.name}: the composition of an Elite Defense Force cannot change once its list is entered; "
            "only its battles change it (Battle for Towns, Cities, and Capitols)."
        )


def army_list_locked(army: Army) -> bool:
    """Battle for Towns, Cities, and Capitols: an Elite Defense Force whose list is entered cannot
    change its composition."""
    return _is_elite_defense_force(army) and army.units.exists()


def army_origin(army: Army, *, starting_army: bool) -> tuple[bool, str]:
    """Where the army was created, for Shrine Cultists and Temple Dwellers: (in a town or city, in
    words). Its province at creation is step 0 of its movements in its creation turn; a capitol
    counts as a city; the province's settlement is read as it stands now (rules decision 66). The
    starting army with the Warlord is exempt."""
    if starting_army:
        return True, "as the starting army with the Warlord"
    first = army.movements.filter(turn=army.created_turn, step=0).select_related("province").first()
    province = first.province if first is not None else army.province
    if province is None:
        return True, "nowhere recorded"
    capitol = Kingdom.objects.filter(capitol=province).exists()
    in_settlement = capitol or province.settlement in (Settlement.TOWN, Settlement.CITY)
    words = "a capitol" if capitol else (province.settlement if in_settlement else "no town or city")
    return in_settlement, f"in {province.number} {province.name} ({words})"


def _draft(army: Army, units: list[UnitEntry], items: list[ItemEntry]) -> ArmyListDraft:
    kingdom = army.kingdom
    is_capitol_garrison = army.kind == Army.Kind.GARRISON and not _is_elite_defense_force(army)
    starting_army = not kingdom.is_ancient_dead and army.kind == Army.Kind.FIELD and army.created_turn == 0
    # The list is entered for the points paid while it is due (raised or upgraded, or never entered);
    # later, troops lost may leave it smaller than an army is raised at.
    entering = army.list_due or not army.units.exists()
    from_settlement, origin = army_origin(army, starting_army=starting_army)
    running = kingdom.campaign.status == Campaign.Status.RUNNING
    # Warlord: once the campaign runs, the living Warlord of this army stays its Warlord (decision 614).
    warlord = (
        Character.objects.filter(unit__army=army, role=Character.Role.WARLORD, alive=True)
        .values_list("unit_id", "unit__name")
        .first()
        if running
        else None
    )
    # New Player Option: a kingdom given to a new player with no living Warlord takes the one its new
    # leader creates in the first army it raises (decision 603): its oldest field army still standing.
    new_warlord = (
        kingdom.warlord_to_create
        and army.kind == Army.Kind.FIELD
        and not _living_warlord(kingdom)  # a successor came meanwhile: no Warlord to create
        and army.pk
        == Army.objects.filter(kingdom=kingdom, kind=Army.Kind.FIELD, status=Army.Status.ACTIVE)
        .order_by("created_turn", "pk")
        .values_list("pk", flat=True)
        .first()
    )
    return ArmyListDraft(
        label=army.name,
        army_type=kingdom.army_type_enum,
        size=army.size,
        units=tuple(units),
        items=tuple(items),
        garrison=_is_elite_defense_force(army),
        # The Warlord leads the starting army (Setup: "a 2,000 point army that must include the Warlord"),
        # until the campaign starts; then he leaves it only by death or retirement, and a new General may
        # lead it (decision 614). The Ancient Dead's stays with the capitol garrison.
        must_include_warlord=is_capitol_garrison or (starting_army and not running),
        warlord_key=warlord[0] if warlord else None,
        warlord_name=warlord[1] if warlord else "",
        new_warlord=new_warlord,
        # Setup: "a 2,000 point army", until the campaign starts.
        starting=starting_army and not running,
        entering=entering,
        lost_before_list=army.losses_before_list if entering else 0,
        from_settlement=from_settlement,
        origin=origin,
        earned=None if army_list_paid(army) else _earned(army),
        # Perfectionists: an upgrade is made in a town or city ("move it into a town or city"); a new
        # army's list is fitted where it was raised.
        fitted_in_settlement=from_settlement or army.upgraded_turn is not None,
        special_characters_allowed=kingdom.campaign.special_characters,
        creation_discount_percent=_creation_discount(army, starting_army=starting_army, in_settlement=from_settlement),
    )


def _living_warlord(kingdom: Kingdom) -> bool:
    return Character.objects.filter(kingdom=kingdom, role=Character.Role.WARLORD, alive=True).exists()


def _creation_discount(army: Army, *, starting_army: bool, in_settlement: bool) -> int:
    """The town or city discount (percent) the army's creation was given: none for the starting
    army (no gold bought it), an army raised outside a town or city, or one upgraded since (the
    upgrade's gold has no discount; decision 388)."""
    if starting_army or not in_settlement or army.upgraded_turn is not None or army.kind != Army.Kind.FIELD:
        return 0
    return SETTLEMENT_CREATION_DISCOUNT.get(army.kingdom.army_type_enum, DEFAULT_SETTLEMENT_CREATION_DISCOUNT)


def _earned(army: Army) -> dict[int, EarnedUnit]:
    """What each stored unit of `army` earned and was bought (Veteran Status): its level, its models."""
    rows = army.units.values_list("id", "veteran_level", "models_count")
    return {key: EarnedUnit(veteran_level=level, models=models) for key, level, models in rows}


def army_list_problems(army: Army) -> list[str]:
    """Why the stored list of `army` breaks the rules (an empty list has no General)."""
    units, items = army_entries(army)
    return army_list_errors(_draft(army, units, items), _roster(army))


@dataclass(frozen=True)
class ArmyListStanding:
    """One army's list at setup, as the organizer sees it before pressing Start."""

    army: Army
    problems: list[str]  # empty: the list is valid


def army_lists_standing(campaign: Campaign) -> list[ArmyListStanding]:
    """Every active army's list while the players enter them (none at any other time): the lists
    that Start checks, each valid or with what is wrong."""
    if campaign.status != Campaign.Status.ARMY_LISTS:
        return []
    armies = Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE).select_related("kingdom")
    return [
        ArmyListStanding(army=army, problems=army_list_problems(army))
        for army in armies.order_by("kingdom__name", "pk")
    ]


def army_list_check(army: Army, units: list[UnitEntry], items: list[ItemEntry]) -> list[str]:
    """Why the list `units` and `items` would be refused for `army` by the rules (nothing is saved):
    the editor's "what is wrong" while a list is written."""
    return army_list_errors(_draft(army, units, items), _roster(army))


DRAFT_PREFIXES = ("units-", "items-")
DRAFT_MAX_CHARS = 100_000  # far more than the longest list; a post beyond it is no list


def army_list_draft_save(*, army: Army, rows: dict[str, str]) -> DraftedArmyList:
    """Keep the editor's rows of `army` as they are, valid or not (only the list fields are kept).
    The army's list does not change: a draft never counts (for the campaign's Start or a battle)."""
    _refuse_a_fixed_list(army, entered=army.units.exists())
    kept = {k: str(v) for k, v in rows.items() if k.startswith(DRAFT_PREFIXES)}
    if sum(len(k) + len(v) for k, v in kept.items()) > DRAFT_MAX_CHARS:
        raise DomainError(f"{army.name}: the draft is too long to keep ({DRAFT_MAX_CHARS:,} characters at most).")
    draft, _ = DraftedArmyList.objects.update_or_create(army=army, defaults={"rows": kept})
    return draft


def army_list_draft_discard(*, army: Army) -> None:
    DraftedArmyList.objects.filter(army=army).delete()


def army_list_paid(army: Army) -> bool:
    """The list is entered and the campaign runs: from now on it changes only by what is paid
    (gold for a creation or upgrade, experience on the order sheet) and by the rules (XP7)."""
    running = army.kingdom.campaign.status == Campaign.Status.RUNNING
    return running and not army.list_due and army.units.exists()


@transaction.atomic
def army_list_save(
    *,
    army: Army,
    units: list[UnitEntry],
    items: list[ItemEntry],
    correction: str = "",
    corrected_by: AbstractBaseUser | None = None,
) -> Army:
    """Replace the army's list by `units` and `items`, all or nothing.

    Units that carry the key of a stored unit are updated in place, so a character keeps
    its abilities, battles and injuries; others are created; stored units left out are removed.
    Once the list is entered and the campaign runs, an edit that adds anything (models, units,
    equipment, items, Veteran levels, points) is refused with what it would cost on the order
    sheet (XP7); the organizer may save it with a reason (`correction`), kept as a RosterAdjustment.
    """
    army = Army.objects.select_for_update().select_related("kingdom__campaign").get(pk=army.pk)
    stored = {u.id: u for u in army.units.select_related("character")}
    _refuse_a_fixed_list(army, entered=bool(stored))
    keys = [u.key for u in units if u.key is not None]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        # Each stored unit is kept once: a second entry with its id would overwrite the first after
        # the check passed, and the list saved would not be the list checked.
        names = ", ".join(f"{stored[k].name} (unit {k})" if k in stored else f"unit {k}" for k in twice)
        raise DomainError(f"{army.name}: {names} is listed twice; each stored unit appears once in the list.")
    foreign = [u.key for u in units if u.key is not None and u.key not in stored]
    if foreign:
        raise DomainError(f"{army.name}: unit {foreign[0]} is not part of this army.")
    errors = army_list_check(army, units, items)
    if errors:
        raise DomainError(errors)
    # New Player Option: the Warlord this list creates is the new leader's, with Setup's free roll
    # (decision 603); a successor who came meanwhile has none.
    new_leader = army.kingdom.warlord_to_create and not _living_warlord(army.kingdom)
    taken = _taken_from_the_armory(army, items)
    if army_list_paid(army):
        _free_additions_refuse(army, units, items, correction.strip(), corrected_by, taken)

    kept = {u.key for u in units if u.key is not None}
    Unit.objects.filter(pk__in=set(stored) - kept).delete()
    saved: dict[str, Unit] = {}
    for position, entry in enumerate(units):
        unit = stored.get(entry.key) if entry.key is not None else None
        unit = unit or Unit(army=army)
        unit.position = position
        unit.name = entry.name.strip()
        unit.category = entry.category
        unit.models_count = entry.models
        unit.points_per_model = entry.points_per_model
        unit.equipment_points = entry.equipment_points
        unit.veteran_level = entry.veteran_level
        unit.one_use = entry.one_use
        unit.living = entry.living
        unit.dogs_of_war = entry.dogs_of_war
        unit.special_character = entry.special_character
        unit.champion_points = entry.champion_points
        unit.standard_points = entry.standard_points
        unit.musician_points = entry.musician_points
        unit.save()
        _character_save(unit, entry.character)
        saved[unit.name.lower()] = unit

    ArmoryItem.objects.filter(bearer__army=army, destroyed=False).delete()
    # Items taken from the armory leave it for the army's list (one of each armory item, Armory).
    ArmoryItem.objects.filter(pk__in=[i.pk for i in taken]).delete()
    ArmoryItem.objects.bulk_create(
        ArmoryItem(
            kingdom=army.kingdom,
            name=item.name.strip(),
            points=item.points,
            common=item.common,
            bearer=saved[item.bearer.strip().lower()],
        )
        for item in items
    )
    # The list is entered: from now on it is what the army counts (its losses since were left out).
    if army.list_due or army.losses_before_list:
        army.list_due = False
        army.losses_before_list = 0
        army.save(update_fields=["list_due", "losses_before_list"])
    _free_rolls(army, new_leader=new_leader)
    DraftedArmyList.objects.filter(army=army).delete()  # the list entered is the one kept now
    return army


def _taken_from_the_armory(army: Army, items: list[ItemEntry]) -> list[ArmoryItem]:
    """The kingdom's armory items (no bearer: arrived by Transfer of Gold, kept from a retired hero,
    left by a bearer gone) that the new list puts on the army: those its items name beyond what the
    army carries already, one armory row for each (decision 443)."""
    carried = Counter(i.name.strip().lower() for i in army_entries(army)[1])
    wanted = Counter(i.name.strip().lower() for i in items)
    extra = wanted - carried
    if not extra:
        return []
    taken: list[ArmoryItem] = []
    for row in ArmoryItem.objects.filter(kingdom=army.kingdom, bearer__isnull=True, destroyed=False).order_by("id"):
        key = row.name.strip().lower()
        if extra[key] > 0:
            extra[key] -= 1
            taken.append(row)
    return taken


def _free_additions_refuse(
    army: Army,
    units: list[UnitEntry],
    items: list[ItemEntry],
    correction: str,
    corrected_by: AbstractBaseUser | None,
    taken: list[ArmoryItem],
) -> None:
    """XP7: refuse what the edit would add without paying; the organizer's correction with a reason
    is recorded instead. An item taken from the kingdom's armory is held, not bought (decision 443)."""
    campaign = army.kingdom.campaign
    before_units, before_items = army_entries(army)
    before_items = [
        *before_items,
        *(ItemEntry(name=i.name, points=i.points, common=i.common, bearer="") for i in taken),
    ]
    added = list_additions(
        before_units,
        before_items,
        units,
        items,
        label=army.name,
        arrives_turn=delivery_turn(campaign.current_turn),
    )
    if not added:
        return
    organizer = corrected_by is not None and corrected_by.pk == campaign.organizer_id
    if not (organizer and correction):
        if organizer:
            added.append("As the organizer you may correct the list beyond this: say why (the reason is recorded).")
        raise DomainError(added)
    RosterAdjustment.objects.create(
        army=army,
        turn=campaign.current_turn,
        reason=correction[:300],
        points_before=sum(u.points for u in before_units) + sum(i.points for i in before_items),
        points_after=sum(u.points for u in units) + sum(i.points for i in items),
        changes=added,
        made_by=corrected_by,
    )


def _character_save(unit: Unit, entry: CharacterEntry | None) -> None:
    character = getattr(unit, "character", None)
    if entry is None:
        if character is not None:
            character.delete()
        return
    character = character or Character(unit=unit, kingdom=unit.army.kingdom)
    character.rank = entry.rank
    character.role = entry.role
    character.monstrous_mount = entry.monstrous_mount
    character.wizard = entry.wizard
    character.magic_level = entry.magic_level
    character.rune_smith = entry.rune_smith
    character.immune_to_psychology = entry.immune_to_psychology
    if entry.archetype and not character.archetype:
        character.archetype = entry.archetype
        character.abilities = [STARTING_ABILITIES[Archetype(entry.archetype)]]
    character.save()


def _free_rolls(army: Army, *, new_leader: bool = False) -> None:
    """The Warlord's free roll on the advancement table, made once, when the archetype is chosen
    (Warlord). A 6 (Choose) leaves the choice to the player. `new_leader`: the list creates the new
    leader's Warlord, as at Setup, with his free roll (New Player Option, decision 603); the kingdom's
    stream, rolled for the former leader's, goes on for him."""
    campaign = army.kingdom.campaign
    warlords = Character.objects.filter(unit__army=army, role=Character.Role.WARLORD, alive=True).exclude(archetype="")
    if army.kingdom.warlord_to_create and _living_warlord(army.kingdom):
        Kingdom.objects.filter(pk=army.kingdom_id).update(warlord_to_create=False)  # he is created (or succeeded)
    new_leader = new_leader and warlords.exists()
    for warlord in warlords:
        if len(warlord.abilities) != 1 or warlord.ability_choice_pending:
            continue
        dice = campaign_dice(campaign=campaign, stream=f"warlord-free-roll:{army.kingdom_id}")
        if not new_leader and (dice.rolls or campaign.dice_rolls.filter(stream=dice.stream).exists()):
            continue  # rolled before (the Warlord's list was saved again; a successor has no extra roll)
        # An ability that cannot work for him (Immune to Psychology, undead) is rolled again (decision 392).
        useless = useless_abilities(
            army_type=army.kingdom.army_type_enum,
            immune_to_psychology=warlord.immune_to_psychology,
            living=warlord.unit.living,
        )
        roll = advancement_roll(
            Archetype(warlord.archetype),
            tuple(warlord.abilities),
            dice,
            who=warlord.unit.name,
            kingdom=army.kingdom_id,
            army=army.id,
            useless=useless,
            purpose=f"free roll on the {warlord.get_archetype_display()} table",
        )
        if roll.choose:
            warlord.ability_choice_pending = True
        elif roll.ability:
            warlord.abilities = [*warlord.abilities, roll.ability]
        warlord.save(update_fields=["abilities", "ability_choice_pending"])
        dice_rolls_save(campaign=campaign, turn=0, dice=dice)


@transaction.atomic
def ability_choose(*, character: Character, ability: str) -> Character:
    """Settle a 6 (Choose) on the advancement table: the player picks one of the table's abilities."""
    character = Character.objects.select_for_update().get(pk=character.pk)
    if not character.ability_choice_pending:
        raise DomainError(f"{character.unit.name} has no ability to choose.")
    table = ARCHETYPE_ADVANCEMENT[Archetype(character.archetype)]
    if ability not in table:
        raise DomainError(f"{ability} is not on the {character.get_archetype_display()} advancement table.")
    if ability in character.abilities:
        raise DomainError(f"{character.unit.name} already has {ability}.")
    character.abilities = [*character.abilities, ability]
    character.ability_choice_pending = False
    character.save(update_fields=["abilities", "ability_choice_pending"])
    return character
