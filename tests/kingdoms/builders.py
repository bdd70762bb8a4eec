"""The world's rows a test needs, built directly (issue 30): a campaign on a few provinces, its
kingdoms and their players, armies with units, characters and magic items, treasury gold.

For a rule or service test that needs a few rows: the demo campaign (tests/conftest.py's
`demo_campaign`) is made by every setup service, about 1,400 rows written into each test that asks
for it. These write only what the test names, with the defaults the models give, so a test reads
what it stands on. They do no rule's work (no setup roll, no list check, no event): a test of that
work builds through the service itself."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser

from kingdoms.models import (
    ArmoryItem,
    Army,
    Campaign,
    Character,
    Kingdom,
    Province,
    TombRaiderEntry,
    TombRaiderForce,
    TreasuryEntry,
    Unit,
)
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES, RaiderEntry

PASSWORD = "a-long-test-password"


def user_built(username: str, *, staff: bool = False) -> AbstractUser:
    """The user of that name (made once), at username@example.org."""
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.org", "is_staff": staff}
    )
    if created:
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    return user


def campaign_built(
    *,
    name: str = "Built Campaign",
    organizer: str = "organizer",
    player_count: int = 2,
    provinces: int = 4,
    current_turn: int = 1,
    status: str = Campaign.Status.RUNNING,
) -> Campaign:
    """A running campaign on a row of `provinces` plains, numbered from 1, each bordering the next;
    organized by the staff user `organizer`. Its turn is made by tests/turns/builders.py."""
    campaign = Campaign.objects.create(
        name=name,
        organizer=user_built(organizer, staff=True),
        player_count=player_count,
        current_turn=current_turn,
        status=status,
        map_name="built",
        setup_seed="built",
    )
    for number in range(1, provinces + 1):
        province_built(campaign, number, neighbours=[number - 1] if number > 1 else [])
    return campaign


def province_built(
    campaign: Campaign,
    number: int,
    *,
    name: str | None = None,
    terrain: str = "plains",
    settlement: str = "none",
    neighbours: Iterable[int] = (),
    **fields: Any,
) -> Province:
    """A province named "P<number>" unless told, bordering the campaign's provinces `neighbours`."""
    province = Province.objects.create(
        campaign=campaign,
        number=number,
        name=name or f"P{number}",
        terrain=terrain,
        settlement=settlement,
        col=number,
        row=1,
        **fields,
    )
    province.neighbours.add(*Province.objects.filter(campaign=campaign, number__in=list(neighbours)))
    return province


def kingdom_built(
    campaign: Campaign,
    name: str,
    *,
    player: str | None = None,
    army_type: str = "empire",
    capitol: int | None = None,
    gold: int = 0,
) -> Kingdom:
    """A kingdom led by the user `player` (made if new), holding its `capitol` province (by number)
    when given, with `gold` in its treasury (one adjustment row on turn 1)."""
    kingdom = Kingdom.objects.create(campaign=campaign, name=name, army_type=army_type)
    if player is not None:
        kingdom.players.add(user_built(player))
    if capitol is not None:
        province = Province.objects.get(campaign=campaign, number=capitol)
        Province.objects.filter(pk=province.pk).update(controller=kingdom)
        kingdom.capitol = province
        kingdom.save(update_fields=["capitol"])
    if gold:
        TreasuryEntry.objects.create(kingdom=kingdom, turn=1, amount=gold, reason="adjustment")
    return kingdom


def army_built(
    kingdom: Kingdom, *, name: str = "1st Army", province: int | None = None, size: int = 2000, **fields: Any
) -> Army:
    """A field army of the kingdom (or `kind="garrison"`), standing in province number `province`."""
    where = Province.objects.get(campaign_id=kingdom.campaign_id, number=province) if province is not None else None
    return Army.objects.create(kingdom=kingdom, name=name, province=where, size=size, **fields)


def unit_built(
    army: Army, name: str, *, category: str = "core", models_count: int = 20, points_per_model: int = 5, **fields: Any
) -> Unit:
    return army.units.create(
        name=name, category=category, models_count=models_count, points_per_model=points_per_model, **fields
    )


def character_built(
    army: Army, name: str, *, points: int = 50, role: str = "hero", rank: str = "hero", **fields: Any
) -> Character:
    """A character of the army's kingdom: a unit of one model at `points`, with its rank and role."""
    unit = unit_built(army, name, category="character", models_count=1, points_per_model=points)
    return Character.objects.create(unit=unit, kingdom=army.kingdom, role=role, rank=rank, **fields)


def item_built(
    kingdom: Kingdom, name: str, points: int, *, bearer: Character | None = None, **fields: Any
) -> ArmoryItem:
    """A magic item of the kingdom's armory, borne by `bearer` when given."""
    return ArmoryItem.objects.create(
        kingdom=kingdom, name=name, points=points, bearer=bearer.unit if bearer else None, **fields
    )


def raiders_force_built(
    kingdom: Kingdom, entries: Iterable[RaiderEntry] = SAMPLE_HIGH_ELVES.entries, *, bows: bool = False
) -> TombRaiderForce:
    """The kingdom's Tomb Raiders kept since setup (nothing added this turn): the rulebook's sample list
    (Sample Tomb Raider List) unless told, their missile weapons only with `bows` (an Elf kingdom's)."""
    force = TombRaiderForce.objects.create(kingdom=kingdom, changed_turn=0)
    TombRaiderEntry.objects.bulk_create(
        TombRaiderEntry(
            force=force,
            position=i,
            name=e.name,
            models_count=e.models,
            points_per_model=e.points_per_model,
            category=e.category,
            role=e.role,
            command=e.command,
            **({"missile_weapon": e.missile_weapon} if bows else {}),
        )
        for i, e in enumerate(entries)
    )
    return force
