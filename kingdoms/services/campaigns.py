"""Creating a campaign from a map, inviting players, and the setup sequence (Setup)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from briternia.errors import DomainError
from briternia.fields import address_problem
from kernel.dice import Dice, new_seed
from rulebook.setup import homes as setup_rules
from rulebook.setup.maps import MapSpec
from rulebook.tables import (
    PLAYER_ARMY_TYPES,
    STARTING_ARMY_POINTS,
    STARTING_GOLD,
    ArmyType,
)

from ..models import Army, ArmyMovement, Campaign, Kingdom, Province, TreasuryEntry
from ..people import DISPLAY_NAME_MAX, invited_display_name
from ..selectors import display_name_holder
from .dice import campaign_dice, dice_rolls_save
from .setup_emails import army_lists_announce, home_rolls_announce, next_pick_announce

User = get_user_model()

ANCIENT_DEAD_NAME = "The Ancient Dead"
STARTING_ARMY_NAME = "1st Army"


@transaction.atomic
def campaign_create(
    *,
    name: str,
    organizer: AbstractBaseUser,
    player_count: int,
    time_zone: str,
    map_spec: MapSpec,
    special_characters: bool = False,
) -> Campaign:
    """A new campaign on `map_spec`, with the organizer-run Ancient Dead in the central desert.
    `special_characters`: the organizer allows them (Army Restrictions; off by default)."""
    errors: list[str] = []
    if not name.strip():
        errors.append("Give the campaign a name.")
    if not 2 <= player_count <= 20:
        errors.append("A campaign has 2 to 20 player kingdoms.")
    sites = [p for p in map_spec.provinces if p.capitol_site]
    if len(sites) < player_count:
        errors.append(
            f"The map '{map_spec.name}' has {len(sites)} capitol sites; {player_count} players need {player_count}."
        )
    if errors:
        raise DomainError(errors)

    campaign = Campaign.objects.create(
        name=name.strip(),
        organizer=organizer,
        player_count=player_count,
        time_zone=time_zone,
        map_name=map_spec.name,
        setup_seed=new_seed(),
        special_characters=special_characters,
    )
    campaign.full_clean()
    provinces = Province.objects.bulk_create(
        Province(
            campaign=campaign,
            number=p.number,
            name=p.name,
            terrain=p.terrain,
            settlement=p.settlement,
            capitol_site=p.capitol_site,
            pyramid=p.pyramid,
            col=p.col,
            row=p.row,
        )
        for p in map_spec.provinces
    )
    by_number = {p.number: p for p in provinces}
    Through = Province.neighbours.through
    Through.objects.bulk_create(
        Through(from_province_id=by_number[a].id, to_province_id=by_number[b].id)
        for pair in map_spec.adjacency
        for a, b in (pair, pair[::-1])
    )
    _ancient_dead_create(campaign=campaign, organizer=organizer)
    return campaign


def _ancient_dead_create(*, campaign: Campaign, organizer: AbstractBaseUser) -> Kingdom:
    """The Ancient Dead begin in the centre: the pyramid is their capitol, and they hold the deserts
    (The Ancient Dead: Setup, Deserts). Their Warlord stays with the capitol's garrison; the
    starting army begins in the capitol."""
    pyramid = campaign.provinces.get(pyramid=True)
    kingdom = Kingdom.objects.create(
        campaign=campaign, name=ANCIENT_DEAD_NAME, army_type=ArmyType.ANCIENT_DEAD, capitol=pyramid
    )
    kingdom.players.add(organizer)
    campaign.provinces.filter(terrain="desert").update(controller=kingdom)
    garrison = Army.objects.create(
        kingdom=kingdom, name="Capitol Garrison", kind=Army.Kind.GARRISON, province=pyramid, size=2000
    )
    host = Army.objects.create(kingdom=kingdom, name="First Host", province=pyramid, size=STARTING_ARMY_POINTS)
    ArmyMovement.objects.bulk_create(
        ArmyMovement(army=army, turn=0, step=0, province=pyramid) for army in (garrison, host)
    )
    return kingdom


def invited_user(*, email: str, kingdom_name: str, display_name: str = "") -> AbstractBaseUser:
    """The account an invitation goes to: the one with the address (with the name it has), or a
    new one that logs in with it; the others see the name the organizer gave, else one derived
    from the kingdom, until the player chooses one when setting the password."""
    if (problem := address_problem(email)) is not None:
        raise DomainError(problem)
    user = User.objects.filter(email__iexact=email).first()
    if user is None:
        name = display_name.strip() or _free_display_name(invited_display_name(kingdom_name))
        user = User.objects.create_user(username=email, email=email, first_name=name)
        user.set_unusable_password()
        user.save()
    return user


def _free_display_name(name: str) -> str:
    """`name`, or with the first number that makes it no other account's ("Player of Ostland 2"): two
    campaigns may each have an Ostland, and no two accounts are shown alike."""
    candidate, number = name, 1
    while display_name_holder(name=candidate) is not None:
        number += 1
        candidate = f"{name[: DISPLAY_NAME_MAX - len(str(number)) - 1]} {number}"
    return candidate


@transaction.atomic
def player_invite(
    *, campaign: Campaign, email: str, kingdom_name: str, army_type: str, display_name: str = ""
) -> Kingdom:
    """Add a player kingdom and invite its player by email (a link to set a password)."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    errors: list[str] = []
    email = email.strip().lower()
    if campaign.status != Campaign.Status.INVITING:
        errors.append("Players can be invited only before home selection starts.")
    players = campaign.kingdoms.exclude(army_type=ArmyType.ANCIENT_DEAD)
    if players.count() >= campaign.player_count:
        errors.append(f"The campaign already has its {campaign.player_count} player kingdoms.")
    if (problem := address_problem(email)) is not None:
        errors.append(problem)
    if not kingdom_name.strip():
        errors.append("Give the kingdom a name.")
    elif campaign.kingdoms.filter(name__iexact=kingdom_name.strip()).exists():
        errors.append(f"There is already a kingdom called {kingdom_name.strip()} in this campaign.")
    if army_type not in [t.value for t in PLAYER_ARMY_TYPES]:
        errors.append(f"'{army_type}' is not an army type a player may take.")
    if players.filter(players__email__iexact=email).exists():
        errors.append(f"{email} already plays a kingdom in this campaign.")
    if "@" in display_name:
        errors.append("The player's display name has no '@': the other players see it; give a name, not an address.")
    elif (
        display_name.strip()
        and not User.objects.filter(email__iexact=email).exists()  # an account that exists keeps its name
        and display_name_holder(name=display_name) is not None
    ):
        errors.append(
            f"Another account is already shown as {display_name.strip()}: the other players would take the new "
            "player for them. Give another name, or none (one is derived from the kingdom)."
        )
    if errors:
        raise DomainError(errors)

    kingdom = Kingdom.objects.create(campaign=campaign, name=kingdom_name.strip(), army_type=army_type)
    player_user_invite(email=email, kingdom=kingdom, display_name=display_name)
    return kingdom


def player_user_invite(*, email: str, kingdom: Kingdom, display_name: str = "") -> AbstractBaseUser:
    """The user with `email` (made now when there is none) joins `kingdom` as its player and is
    invited by email: at setup, and when a Rogue Kingdom is given to a new player (New Player Option)."""
    from .invitations import invitation_queue  # late import: emails depend on the sites' URLs

    user = invited_user(email=email, kingdom_name=kingdom.name, display_name=display_name)
    kingdom.players.add(user)
    invitation_queue(user=user, kingdom=kingdom)
    return user


@transaction.atomic
def home_selection_start(*, campaign: Campaign, dice: Dice | None = None) -> dict[int, int]:
    """Roll 2D6 for every player kingdom (duplicates re-rolled) and open home selection.

    The dice are the campaign's seeded setup dice; tests pass scripted ones."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status != Campaign.Status.INVITING:
        raise DomainError("Home selection has already been rolled.")
    kingdoms = list(campaign.kingdoms.exclude(army_type=ArmyType.ANCIENT_DEAD).order_by("id"))
    if len(kingdoms) != campaign.player_count:
        raise DomainError(f"The campaign is for {campaign.player_count} players and {len(kingdoms)} have been invited.")
    dice = dice or campaign_dice(campaign=campaign, stream="home-selection")
    rolls = setup_rules.roll_home_selection([k.id for k in kingdoms], dice)
    for kingdom in kingdoms:
        kingdom.home_roll = rolls.values[kingdom.id]
    Kingdom.objects.bulk_update(kingdoms, ["home_roll"])
    dice_rolls_save(campaign=campaign, turn=0, dice=dice, stream="home-selection")
    campaign.status = Campaign.Status.HOMES
    campaign.save(update_fields=["status"])
    home_rolls_announce(campaign=campaign, kingdoms=kingdoms)
    next_pick_announce(campaign=campaign, picking=setup_next_kingdom(campaign))
    return rolls.values


def _player_kingdoms(campaign: Campaign) -> list[Kingdom]:
    return list(campaign.kingdoms.exclude(army_type=ArmyType.ANCIENT_DEAD).order_by("id"))


def setup_next_kingdom(campaign: Campaign) -> Kingdom | None:
    """The kingdom whose turn it is to pick (a home, then adjacent provinces), or None."""
    kingdoms = _player_kingdoms(campaign)
    rolls = setup_rules.HomeRolls(values={k.id: k.home_roll or 0 for k in kingdoms})
    by_id = {k.id: k for k in kingdoms}
    if campaign.status == Campaign.Status.HOMES:
        order, done = rolls.home_order, lambda k: k.capitol_id is not None
    elif campaign.status == Campaign.Status.PROVINCES:
        order, done = rolls.province_order, lambda k: k.picked_provinces
    else:
        return None
    return next((by_id[k] for k in order if not done(by_id[k])), None)


def _pickable(campaign: Campaign) -> dict[int, setup_rules.PickableProvince]:
    return {
        p.number: setup_rules.PickableProvince(
            number=p.number,
            terrain=p.terrain,
            settlement=p.settlement,
            capitol_site=p.capitol_site,
            pyramid=p.pyramid,
            controlled=p.controller_id is not None,
        )
        for p in campaign.provinces.all()
    }


@transaction.atomic
def home_pick(*, campaign: Campaign, kingdom: Kingdom, number: int) -> Province:
    """The kingdom takes a capitol site as its home; it receives its capitol city, its starting
    gold and its 2,000-point starting army in the capitol (rule case S3)."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status != Campaign.Status.HOMES:
        raise DomainError("It is not the time to pick home provinces.")
    turn = setup_next_kingdom(campaign)
    if turn is None or turn.pk != kingdom.pk:
        raise DomainError(f"It is {turn}'s turn to pick a home province, not {kingdom}'s (Setup: highest roll first).")
    errors = setup_rules.home_pick_errors(number, _pickable(campaign))
    if errors:
        raise DomainError(errors)
    home = campaign.provinces.get(number=number)
    # The capitol is a city (Setup); a site drawn as something else becomes one.
    home.settlement = Province.Settlement.CITY
    home.controller = kingdom
    home.save(update_fields=["settlement", "controller"])
    kingdom.capitol = home
    kingdom.save(update_fields=["capitol"])
    TreasuryEntry.objects.create(
        kingdom=kingdom, turn=0, amount=STARTING_GOLD, reason=TreasuryEntry.Reason.STARTING_GOLD
    )
    army = Army.objects.create(kingdom=kingdom, name=STARTING_ARMY_NAME, province=home, size=STARTING_ARMY_POINTS)
    ArmyMovement.objects.create(army=army, turn=0, step=0, province=home)
    if setup_next_kingdom(campaign) is None:
        campaign.status = Campaign.Status.PROVINCES
        campaign.save(update_fields=["status"])
    next_pick_announce(campaign=campaign, picking=setup_next_kingdom(campaign))
    return home


@transaction.atomic
def adjacent_pick(*, campaign: Campaign, kingdom: Kingdom, numbers: list[int]) -> list[Province]:
    """The kingdom takes its provinces adjacent to its home (two, one over five players: S2)."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status != Campaign.Status.PROVINCES:
        raise DomainError("It is not the time to pick adjacent provinces.")
    turn = setup_next_kingdom(campaign)
    if turn is None or turn.pk != kingdom.pk:
        raise DomainError(
            f"It is {turn}'s turn to pick adjacent provinces, not {kingdom}'s (Setup: lowest roll first)."
        )
    home = kingdom.capitol
    assert home is not None
    neighbours = frozenset(home.neighbours.values_list("number", flat=True))
    errors = setup_rules.adjacent_pick_errors(
        numbers,
        home=home.number,
        neighbours=neighbours,
        provinces=_pickable(campaign),
        player_count=campaign.player_count,
    )
    if errors:
        raise DomainError(errors)
    picked = list(campaign.provinces.filter(number__in=numbers))
    campaign.provinces.filter(number__in=numbers).update(controller=kingdom)
    Kingdom.objects.filter(pk=kingdom.pk).update(picked_provinces=True)
    if setup_next_kingdom(campaign) is None:
        campaign.status = Campaign.Status.ARMY_LISTS
        campaign.save(update_fields=["status"])
        army_lists_announce(campaign=campaign, kingdoms=_player_kingdoms(campaign))
    else:
        next_pick_announce(campaign=campaign, picking=setup_next_kingdom(campaign))
    return picked


@transaction.atomic
def campaign_setup_close(*, campaign: Campaign) -> Campaign:
    """Close setup once every kingdom's army lists are valid: the campaign is running (the turn
    cycle then opens turn 1: turns.services.cycle.campaign_start)."""
    from .armies import army_lists_standing

    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status != Campaign.Status.ARMY_LISTS:
        raise DomainError("The campaign can start once every home and province has been picked.")
    problems = [f"{list_.army.kingdom}: {p}" for list_ in army_lists_standing(campaign) for p in list_.problems]
    if problems:
        raise DomainError(problems)
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.RUNNING)
    campaign.refresh_from_db()
    return campaign
