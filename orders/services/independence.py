"""Joint kingdoms: a co-player declares independence with the provinces, towns, cities and armies
its kingdom gives (Player Issues, "Player joins mid-campaign / joint kingdoms"). The organizer
enters it through the site; the rules check it (rulebook/player_issues/joint_kingdoms.py), this writes it
whole, with an event in each kingdom's log of the open turn."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F

from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kingdoms.models import ArmoryItem, Army, Campaign, Character, Kingdom, Province
from kingdoms.services.world import world_changed, world_load
from rulebook.campaign_schedule import moment_text
from rulebook.player_issues.joint_kingdoms import independence_check
from rulebook.warlord.succession import HeirCandidate
from turns.models import Turn, TurnEvent

from ..models import OrderSheet
from .events import turn_event_sequence_next
from .sheets import turn_row_hold

PHASE = "independence"
NAME_MAX = 100  # Kingdom.name


@transaction.atomic
def independence_declare(
    *,
    kingdom: Kingdom,
    co_player: AbstractBaseUser,
    name: str,
    provinces: list[int],
    armies: list[int],
) -> Kingdom:
    """The co-player leaves `kingdom` and leads a new kingdom of the same army type with what it
    gives. Refused whole, naming the province, army or rule, if anything is wrong."""
    turn = Turn.objects.filter(campaign_id=kingdom.campaign_id).order_by("-number").first()
    if turn is not None:
        # Held first, so a running orders phase is answered at once (its claim is not seen before it
        # commits: the turn would look open while its armies and provinces are being resolved).
        turn = turn_row_hold(
            turn,
            running=lambda since: (
                f"Turn {turn.number} is being resolved (since {moment_text(since, turn.campaign.time_zone)}): "
                "independence is declared while a turn is open for orders (decision 225)."
            ),
        )
    campaign = Campaign.objects.select_for_update().get(pk=kingdom.campaign_id)
    kingdom = Kingdom.objects.select_for_update().get(pk=kingdom.pk)
    name = name.strip()
    errors: list[str] = []
    if turn is None or turn.status != Turn.Status.ORDERS_OPEN:
        errors.append("Independence is declared while a turn is open for orders (decision 225).")
    elif OrderSheet.objects.filter(turn=turn, kingdom=kingdom, status=OrderSheet.Status.SUBMITTED).exists():
        errors.append(
            f"{kingdom.name}'s orders for turn {turn.number} are in: independence is declared before the kingdom "
            "files its orders, so that no order moves an army it gave away (decision 225)."
        )
    if kingdom.is_ancient_dead:
        errors.append("The Ancient Dead give nothing away (Joint kingdoms).")
    players = list(kingdom.players.order_by("id"))
    if co_player not in players:
        errors.append(f"The one who declares independence is a co-player of {kingdom.name} (Joint kingdoms).")
    elif len(players) < 2:
        errors.append(f"{kingdom.name} would be left without a player: it keeps at least one (Joint kingdoms).")
    if not name or len(name) > NAME_MAX or "\x00" in name:
        errors.append(f"Name the new kingdom (at most {NAME_MAX} characters).")
    elif campaign.kingdoms.filter(name__iexact=name).exists():
        errors.append(f"There is already a kingdom called {name} in this campaign.")
    for what, given in (("Province", provinces), ("Army", armies)):
        for twice in sorted({v for v in given if given.count(v) > 1}):
            errors.append(f"{what} {twice} is given twice: name each once.")
    if errors:
        raise DomainError(errors)
    assert turn is not None

    world = world_load(campaign=campaign, turn_number=turn.number)
    characters = Character.objects.filter(kingdom=kingdom, alive=True).select_related("unit__army")
    warlord = next((c for c in characters if c.role == Character.Role.WARLORD), None)
    generals = [
        HeirCandidate(c.id, c.unit.name, c.unit.army_id, c.unit.army.name, c.unit.army.experience)
        for c in characters
        if c.role == Character.Role.GENERAL
    ]
    problems, gift = independence_check(
        world,
        kingdom.id,
        provinces,
        armies,
        warlord_army=warlord.unit.army_id if warlord is not None else None,
        generals=generals,
    )
    if problems:
        raise DomainError(problems)

    new = Kingdom.objects.create(
        campaign=campaign,
        name=name,
        army_type=kingdom.army_type,
        capitol=Province.objects.get(campaign=campaign, number=gift.capitol) if gift.capitol is not None else None,
        home_roll=kingdom.home_roll,
        picked_provinces=True,
    )
    kingdom.players.remove(co_player)
    new.players.add(co_player)
    Province.objects.filter(campaign=campaign, number__in=gift.provinces).update(controller=new)
    moving = [*gift.armies, *gift.garrisons]
    Army.objects.filter(pk__in=moving).update(kingdom=new)
    Character.objects.filter(unit__army__in=moving).update(kingdom=new)
    ArmoryItem.objects.filter(bearer__army__in=moving).update(kingdom=new)
    if gift.warlord is not None:
        # Warlord: the most experienced General of the armies given leads the new kingdom (decision 227).
        Character.objects.filter(pk=gift.warlord.character).update(role=Character.Role.WARLORD)
    # A new player kingdom (Campaign.player_count counts them, the Ancient Dead's Army Table reads it).
    Campaign.objects.filter(pk=campaign.pk).update(player_count=F("player_count") + 1)

    given = ", ".join(str(world.provinces[n]) for n in gift.provinces)
    army_names = ", ".join(world.armies[a].name for a in gift.armies) or "no army"
    lord = (
        f"; {gift.warlord.name} ({gift.warlord.army_name}) is its Warlord"
        if gift.warlord is not None
        else "; it has no General to be its Warlord"
    )
    capitol = f"; its capitol is {world.provinces[gift.capitol]}" if gift.capitol is not None else ""
    start = turn_event_sequence_next(turn)
    data = {"provinces": list(gift.provinces)}
    TurnEvent.objects.bulk_create(
        [
            TurnEvent(
                turn=turn,
                sequence=start,
                phase=PHASE,
                code=EventCode.KINGDOM_INDEPENDENT,
                text=f"{new.name} declares independence from {kingdom.name} with {given} and {army_names}"
                f"{capitol}{lord} (Joint kingdoms).",
                kingdom=new,
                data={**data, "from_kingdom": kingdom.id},
            ),
            TurnEvent(
                turn=turn,
                sequence=start + 1,
                phase=PHASE,
                code=EventCode.INDEPENDENCE_GIVEN,
                text=f"{kingdom.name} gives {given} and {army_names} to {new.name}, which declares its independence "
                "(Joint kingdoms).",
                kingdom=kingdom,
                data={**data, "to": new.id},
            ),
        ]
    )
    world_changed(kingdom.campaign_id)  # provinces and armies changed hands outside a phase
    return new
