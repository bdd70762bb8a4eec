"""The campaign page's league table: what every player of the campaign may know of every kingdom.

Provinces, towns and cities held and battles won are public (the map and the bulletin show them; a
Tomb Raiders' skirmish is not among them);
the treasury is secret, so it shows as a gold rank band (rulebook.treasury.league, rules decision 341);
and of the current turn's orders only whether the kingdom has submitted its sheet, never what.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Sum

from battles.models import Battle
from kingdoms.models import Campaign, Kingdom, TreasuryEntry
from orders.models import OrderSheet
from rulebook.tables import Settlement
from rulebook.treasury.league import gold_bands
from turns.models import Turn


@dataclass(frozen=True)
class LeagueRow:
    """One kingdom's line of the league table. `gold_band` and `orders_filed` are None for a kingdom
    outside the race: the Ancient Dead (the organizer's) and a Rogue Kingdom file no orders and keep
    no treasury a player competes with."""

    kingdom: Kingdom
    provinces: int
    towns: int
    cities: int
    battles_won: int
    gold_band: str | None
    orders_filed: bool | None


def league_table(*, campaign: Campaign, turn: Turn | None) -> list[LeagueRow]:
    """The league table, most provinces first (then towns, cities, battles won, name)."""
    kingdoms = list(campaign.kingdoms.order_by("id"))
    racing = {k.pk for k in kingdoms if not k.is_ancient_dead and not k.is_rogue}
    held = _holdings(campaign)
    won = _battles_won(campaign)
    treasuries = dict(
        TreasuryEntry.objects.filter(kingdom_id__in=racing)
        .order_by()
        .values("kingdom_id")
        .annotate(gold=Sum("amount"))
        .values_list("kingdom_id", "gold")
    )
    bands = gold_bands({pk: treasuries.get(pk, 0) for pk in racing})
    filed = set()
    if turn is not None:
        submitted = OrderSheet.objects.filter(turn=turn, status=OrderSheet.Status.SUBMITTED)
        filed = set(submitted.values_list("kingdom_id", flat=True))
    rows = [
        LeagueRow(
            kingdom=k,
            provinces=held[(k.pk, "province")],
            towns=held[(k.pk, Settlement.TOWN.value)],
            cities=held[(k.pk, Settlement.CITY.value)],
            battles_won=won[k.pk],
            gold_band=bands[k.pk].value if k.pk in racing else None,
            orders_filed=(k.pk in filed) if k.pk in racing and turn is not None else None,
        )
        for k in kingdoms
    ]
    rows.sort(key=lambda r: (-r.provinces, -r.towns, -r.cities, -r.battles_won, r.kingdom.name))
    return rows


def _holdings(campaign: Campaign) -> Counter[tuple[int, str]]:
    """(kingdom id, "province" / "town" / "city") -> how many it controls; a sacked town is no town."""
    held: Counter[tuple[int, str]] = Counter()
    for controller, settlement in campaign.provinces.filter(controller__isnull=False).values_list(
        "controller_id", "settlement"
    ):
        held[(controller, "province")] += 1
        if settlement in (Settlement.TOWN.value, Settlement.CITY.value):
            held[(controller, settlement)] += 1
    return held


def _battles_won(campaign: Campaign) -> Counter[int]:
    """Kingdom id -> battles it won as attacker or defender (the battle's victor, once the aftermath ran).
    A Tomb Raiders' skirmish (a Tomb Raid, a Reconnaissance, a Sabotage) is no battle of the table: who
    raided or spied is never public (decisions 442 and 462), and the bulletin lists none of them."""
    won: Counter[int] = Counter()
    for victor, attacker, defender in Battle.objects.filter(turn__campaign=campaign, mission="").values_list(
        "victor", "attacker_kingdom_id", "defender_kingdom_id"
    ):
        winner = {"attacker": attacker, "defender": defender}.get(victor)
        if winner is not None:
            won[winner] += 1
    return won
