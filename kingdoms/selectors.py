"""Reads of the campaign world, with the visibility rules: who may see what.

A player sees the public map and their own kingdom in full; the organizer sees everything.
Whatever a user may not see is "not found" (404), never "forbidden", so its existence leaks nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q, QuerySet
from django.http import Http404

from kernel.event_codes import EventCode
from rulebook.ruins_and_tomb_raiders.force import (
    FORCE_POINTS,
    Base,
    Command,
    ForceProblem,
    ModelKind,
    Profile,
    RaiderEntry,
    Role,
    TombRaiders,
    TroopCategory,
    force_problems,
    officer_profile,
)
from rulebook.ruins_and_tomb_raiders.maintaining import change_fee, points_unused
from rulebook.ruins_and_tomb_raiders.treasure import HEALING_POTION
from rulebook.setup.homes import army_limit
from rulebook.world import counted_points
from turns.models import DiceRoll, Turn

from .map_svg import (
    MapArmyMarker,
    MapArrow,
    MapBattleMarker,
    MapKingdomView,
    MapProvinceView,
    kingdom_colour,
    render_map_svg,
)
from .models import (
    Alliance,
    ArmoryItem,
    Army,
    Campaign,
    CapturedRaider,
    Character,
    ExperienceEntry,
    Kingdom,
    Province,
    TombRaiderEntry,
    TombRaiderForce,
    TreasuryEntry,
)
from .people import display_name, display_name_key

AnyUser = AbstractBaseUser | AnonymousUser


def display_name_holder(*, name: str, user: AnyUser | None = None) -> AbstractBaseUser | None:
    """The other account (not `user`) that already shows `name` to the players: its chosen display
    name, else the login or "Player <id>" shown in its place (kingdoms.people.display_name), case
    and spaces aside. None when the name is free."""
    key = display_name_key(name)
    others = get_user_model().objects.only("id", "first_name", "username")
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    return next((other for other in others.iterator() if display_name_key(display_name(other)) == key), None)


def is_organizer(user: AnyUser, campaign: Campaign) -> bool:
    # The campaign's own organizer only: a site administrator is not the organizer of every
    # campaign (they manage any in the admin).
    return bool(user.is_authenticated and campaign.organizer_id == user.pk)


def campaigns_visible(user: AnyUser) -> QuerySet[Campaign]:
    """Campaigns the user organizes or plays in."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(Q(organizer=user) | Q(kingdoms__players=user)).distinct()


def campaign_get(*, user: AnyUser, campaign_id: int) -> Campaign:
    campaign = campaigns_visible(user).select_related("organizer").filter(pk=campaign_id).first()
    if campaign is None:
        raise Http404("No such campaign.")
    return campaign


def kingdom_of(*, user: AnyUser, campaign: Campaign) -> Kingdom | None:
    """The user's own kingdom in the campaign (the organizer's is the Ancient Dead)."""
    if not user.is_authenticated:
        return None
    return campaign.kingdoms.filter(players=user).order_by("id").first()


def kingdoms_public(*, campaign: Campaign) -> QuerySet[Kingdom]:
    """What everyone may know of every kingdom: name, army type, players, capitol, provinces held."""
    return (
        campaign.kingdoms.select_related("capitol")
        .prefetch_related("players")
        .annotate(province_count=Count("provinces"))
        .order_by("id")
    )


def alliance_in_force(kingdom: Kingdom) -> Alliance | None:
    """The kingdom's alliance in force (Allies; one at a time). Alliances are public."""
    return (
        Alliance.objects.filter(ended_turn__isnull=True)
        .filter(Q(first=kingdom) | Q(second=kingdom))
        .select_related("first", "second")
        .first()
    )


def alliances_public(*, campaign: Campaign) -> QuerySet[Alliance]:
    """Every alliance of the campaign, in force or ended (Allies: alliances are public once made,
    decision 130)."""
    return Alliance.objects.filter(campaign=campaign).select_related("first", "second", "broken_by")


def _private(queryset: QuerySet, user: AnyUser, kingdom_path: str) -> QuerySet:
    """Restrict `queryset` to objects of kingdoms the user plays or campaigns the user organizes."""
    if not user.is_authenticated:
        return queryset.none()
    return queryset.filter(
        Q(**{f"{kingdom_path}players": user}) | Q(**{f"{kingdom_path}campaign__organizer": user})
    ).distinct()


def kingdom_private_get(*, user: AnyUser, kingdom_id: int) -> Kingdom:
    kingdom = _private(Kingdom.objects.select_related("campaign", "capitol"), user, "").filter(pk=kingdom_id).first()
    if kingdom is None:
        raise Http404("No such kingdom.")
    return kingdom


def kingdom_organized_get(*, user: AnyUser, kingdom_id: int) -> Kingdom:
    """The kingdom, for its campaign's organizer (the organizer's own forms and endpoints on it); to
    anyone else, a player of it included, it is not found."""
    kingdom = kingdom_private_get(user=user, kingdom_id=kingdom_id)
    if not is_organizer(user, kingdom.campaign):
        raise Http404("No such kingdom.")
    return kingdom


def army_private_get(*, user: AnyUser, army_id: int) -> Army:
    army = (
        _private(Army.objects.select_related("kingdom__campaign", "province"), user, "kingdom__")
        .filter(pk=army_id)
        .first()
    )
    if army is None:
        raise Http404("No such army.")
    return army


def character_private_get(*, user: AnyUser, character_id: int) -> Character:
    character = (
        _private(Character.objects.select_related("unit__army", "kingdom"), user, "kingdom__")
        .filter(pk=character_id)
        .first()
    )
    if character is None:
        raise Http404("No such character.")
    return character


def ledger_with_balance(kingdom: Kingdom) -> list[tuple[TreasuryEntry, int]]:
    """The kingdom's ledger rows, each with the balance after it."""
    balance = 0
    rows = []
    for entry in kingdom.ledger.all():
        balance += entry.amount
        rows.append((entry, balance))
    return rows


# The reasons of the experience ledger in words (its rows carry the code of the event that moved
# them). A code not named here is shown from the row's own note.
EXPERIENCE_REASONS: dict[str, str] = {
    EventCode.EXPERIENCE: "Battle (Experience Points)",
    EventCode.STORY: "Story (Stories Are Nice)",
    EventCode.STORY_BONUS: "A good story (Stories Are Nice)",
    EventCode.PRESS_THE_ADVANTAGE: "Press the Advantage",
    ExperienceEntry.CARRIED_OVER: "Carried over",
    ExperienceEntry.ADJUSTMENT: "Organizer's correction",
}


def experience_reason_words(reason: str) -> str:
    return EXPERIENCE_REASONS.get(reason, reason.replace("-", " ").capitalize())


@dataclass(frozen=True)
class ExperienceRow:
    turn: int
    amount: int
    reason: str  # in words
    note: str
    balance: int  # after the row


@dataclass(frozen=True)
class ExperienceLedger:
    """An army's experience: every row with the balance after it, what it earned and spent."""

    rows: list[ExperienceRow]
    earned: int
    spent: int
    balance: int


def experience_ledger_of(army: Army) -> ExperienceLedger:
    """The army's experience ledger in words (call it only for an army the user may see)."""
    balance = 0
    rows = []
    for entry in ExperienceEntry.objects.filter(army=army).order_by("turn", "id"):
        balance += entry.amount
        rows.append(ExperienceRow(entry.turn, entry.amount, experience_reason_words(entry.reason), entry.note, balance))
    return ExperienceLedger(
        rows=rows,
        earned=sum(r.amount for r in rows if r.amount > 0),
        spent=-sum(r.amount for r in rows if r.amount < 0),
        balance=army.experience,
    )


def dice_rolls_of(kingdom: Kingdom) -> list[DiceRoll]:
    """The rolls that concerned the kingdom (filtered in Python: SQLite has no JSON containment)."""
    rolls = DiceRoll.objects.filter(campaign_id=kingdom.campaign_id).order_by("turn", "id")
    return [r for r in rolls if kingdom.id in r.kingdoms]


def army_allowance(kingdom: Kingdom) -> tuple[int, int]:
    """(field armies the kingdom has, armies the Army Table allows it)."""

    active = kingdom.armies.filter(status=Army.Status.ACTIVE, kind=Army.Kind.FIELD).count()
    allowed = army_limit(player_count=kingdom.campaign.player_count, provinces_controlled=kingdom.provinces.count())
    return active, allowed


def armies_of(kingdom: Kingdom) -> QuerySet[Army]:
    return kingdom.armies.select_related("province").prefetch_related("units__character", "units__items", "deliveries")


def army_points(army: Army) -> int:
    """Points of the army's list: its units plus the items they carry (uses prefetched rows)."""
    return sum(u.points + sum(i.points for i in u.items.all() if not i.destroyed) for u in army.units.all())


def army_list_is_due(army: Army) -> bool:
    """Raised or upgraded and its list not entered since (a field army without a list has it due);
    uses prefetched units."""
    return army.list_due or (army.kind == Army.Kind.FIELD and not army.units.all())


def army_counted_points(army: Army) -> int:
    """The points the army counts as: its list's, or while its list is due the points paid for it
    less its losses since (rulebook.world.counted_points); uses prefetched rows."""
    return counted_points(
        size=army.size,
        list_points=army_points(army),
        list_due=army_list_is_due(army),
        losses_before_list=army.losses_before_list,
    )


def map_kingdom_key(kingdom_id: int) -> str:
    """How the map's drawing names a kingdom (MapKingdomView.key): for arrows drawn by a caller."""
    return str(kingdom_id)


def _map_views(campaign: Campaign) -> tuple[list[MapProvinceView], list[MapKingdomView], dict[int, str]]:
    """The public map's provinces and kingdoms (and each kingdom's key), in two queries."""
    kingdoms = list(campaign.kingdoms.order_by("id"))
    keys = {k.id: map_kingdom_key(k.id) for k in kingdoms}
    capitols = {k.capitol_id for k in kingdoms if k.capitol_id}
    provinces = [
        MapProvinceView(
            number=p.number,
            name=p.name,
            terrain=p.terrain,
            settlement=p.settlement,
            col=p.col,
            row=p.row,
            pyramid=p.pyramid,
            razed=p.razed,
            fortified=p.fortified,
            controller=keys.get(p.controller_id) if p.controller_id else None,
            capitol=p.id in capitols,
            capitol_site=p.capitol_site,
            incantation=p.incantation,
            ruin_raids=p.ruin_raids,
            ruin_sacked=p.ruin_sacked,
        )
        for p in campaign.provinces.all()
    ]
    views = [MapKingdomView(key=keys[k.id], name=k.name, colour=kingdom_colour(i)) for i, k in enumerate(kingdoms)]
    return provinces, views, keys


def _map_title(campaign: Campaign, turn: int | None) -> str:
    number = campaign.current_turn if turn is None else turn
    return f"{campaign.name}: turn {number}" if number else f"{campaign.name}: setup"


def campaign_map_svg(
    *,
    campaign: Campaign,
    viewer: Kingdom | None = None,
    only_armies: bool = False,
    turn: int | None = None,
    arrows: Iterable[MapArrow] = (),
    battles: Iterable[MapBattleMarker] = (),
    every_army: bool = False,
) -> str:
    """The map as SVG: the public view, plus the viewer kingdom's own armies when given
    (`only_armies`: those alone, on a transparent canvas the size of the map). `turn` names the
    turn in the title (by default the campaign's current turn). `arrows` and `battles`: the
    turn's moves and battles the reader may see (the caller decides: rules decision 340).
    `every_army`: every kingdom's armies where they stand, the game master's view (the organizer's
    desk only: never a player's page)."""
    provinces, kingdoms, keys = _map_views(campaign)
    armies: list[MapArmyMarker] = []
    if every_army or viewer is not None:
        standing = Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE, province__isnull=False)
        if not every_army:
            standing = standing.filter(kingdom=viewer)
        armies = [
            MapArmyMarker(province=a.province.number, label=a.name, kingdom=keys[a.kingdom_id])
            for a in standing.select_related("province").order_by("kingdom_id", "id")
        ]
    return render_map_svg(
        provinces=provinces,
        kingdoms=kingdoms,
        armies=armies,
        title=_map_title(campaign, turn),
        only_armies=only_armies,
        arrows=arrows,
        battles=battles,
    )


def campaign_army_overlays(
    *, campaign: Campaign, turn: int | None = None, arrows: Iterable[MapArrow] = ()
) -> dict[int, str]:
    """Each kingdom's own armies alone, on a transparent canvas the size of the map (to lay over
    the public map's picture), for every kingdom at once: kingdom id -> SVG. `arrows`: the turn's
    moves of every kingdom; each overlay draws its own kingdom's only (rules decision 340)."""
    provinces, kingdoms, keys = _map_views(campaign)
    by_kingdom: dict[int, list[MapArmyMarker]] = {k: [] for k in keys}
    for army in Army.objects.filter(
        kingdom__campaign=campaign, status=Army.Status.ACTIVE, province__isnull=False
    ).select_related("province"):
        by_kingdom[army.kingdom_id].append(
            MapArmyMarker(province=army.province.number, label=army.name, kingdom=keys[army.kingdom_id])
        )
    title = _map_title(campaign, turn)
    arrow_list = list(arrows)
    return {
        kingdom_id: render_map_svg(
            provinces=provinces,
            kingdoms=kingdoms,
            armies=armies,
            title=title,
            only_armies=True,
            arrows=[a for a in arrow_list if a.kingdom == keys[kingdom_id]],
        )
        for kingdom_id, armies in by_kingdom.items()
    }


def campaign_adjacency(campaign: Campaign, number_of: Mapping[int, int] | None = None) -> dict[int, frozenset[int]]:
    """The map's adjacency by province number, in one query (corner-to-corner included, as stored).
    `number_of` (province id -> number), when the caller has it, saves joining the provinces twice."""
    if number_of is None:
        number_of = dict(campaign.provinces.values_list("id", "number"))
    adjacency: dict[int, set[int]] = {n: set() for n in number_of.values()}
    pairs = Province.neighbours.through.objects.filter(from_province__campaign=campaign).values_list(
        "from_province_id", "to_province_id"
    )
    for a, b in pairs:
        adjacency[number_of[a]].add(number_of[b])
    return {number: frozenset(neighbours) for number, neighbours in adjacency.items()}


def tomb_raiders_private_get(*, user: AnyUser, kingdom_id: int) -> Kingdom:
    """The kingdom whose Tomb Raider force the user may see: its players' and the organizer's; to
    anyone else, and for the Ancient Dead (who keep no Tomb Raiders), it is not found."""
    kingdom = kingdom_private_get(user=user, kingdom_id=kingdom_id)
    if kingdom.is_ancient_dead:
        raise Http404("No such Tomb Raider force.")
    return kingdom


def raider_entry(entry: TombRaiderEntry) -> RaiderEntry:
    """A stored entry as the rules' record."""
    return RaiderEntry(
        name=entry.name,
        models=entry.models_count,
        points_per_model=entry.points_per_model,
        category=TroopCategory(entry.category),
        base=Base(entry.base),
        kind=ModelKind(entry.kind),
        role=Role(entry.role),
        command=Command(entry.command),
        missile_weapon=entry.missile_weapon,
        magic_item=entry.magic_item,
        magic_user=entry.magic_user,
        unit_type=entry.unit_type,
        leadership=entry.leadership,
        wounds=entry.wounds,
        promoted=entry.promoted,
        out_of_action=entry.out_of_action,
    )


def tomb_raiders_of(kingdom: Kingdom) -> TombRaiders:
    """The kingdom's force as the rules read it (no entries: no force stored yet)."""
    entries = TombRaiderEntry.objects.filter(force__kingdom=kingdom)
    return TombRaiders(kingdom.army_type_enum, tuple(raider_entry(e) for e in entries))


@dataclass(frozen=True)
class RaidersForMissions:
    """A kingdom's force as a mission reads it: the list, and the points added to it since the turn
    opened (Maintaining / Changing Tomb Raiders: 5 gold a point to send it this turn)."""

    force: TombRaiders
    points_added: int


def tomb_raiders_for_missions(*, kingdom_ids: Iterable[int], turn_number: int) -> dict[int, RaidersForMissions]:
    """The forces of `kingdom_ids` (those that keep one with entries), in one query: the points added
    count only when the list was changed in turn `turn_number` (rules decision 413)."""
    forces: dict[int, list[TombRaiderEntry]] = {}
    stored: dict[int, TombRaiderForce] = {}
    rows = TombRaiderEntry.objects.filter(force__kingdom_id__in=list(kingdom_ids)).select_related("force__kingdom")
    for entry in rows:
        kingdom = entry.force.kingdom_id
        forces.setdefault(kingdom, []).append(entry)
        stored[kingdom] = entry.force
    return {
        kingdom: RaidersForMissions(
            TombRaiders(stored[kingdom].kingdom.army_type_enum, tuple(raider_entry(e) for e in entries)),
            stored[kingdom].points_added if stored[kingdom].changed_turn == turn_number else 0,
        )
        for kingdom, entries in forces.items()
    }


@dataclass(frozen=True)
class TombRaidersView:
    """The force as its pages and the API show it: its entries, total, the Captain's profile as he
    fights (+1 W, +1 Ld to at most 10), the change of this turn and its fee, and what the check says."""

    force: TombRaiders
    stored: TombRaiderForce | None
    captain_profile: Profile | None
    problems: list[ForceProblem]
    # Reconnaissance, Sabotage: the captives it holds and its own models held by others (decision 491)
    captives: list[CaptiveRow] = field(default_factory=list)

    @property
    def points(self) -> int:
        return self.force.points

    @property
    def points_limit(self) -> int:
        return FORCE_POINTS

    @property
    def points_unused(self) -> int:
        return points_unused(self.force)

    @property
    def changed_turn(self) -> int | None:
        return self.stored.changed_turn if self.stored else None

    @property
    def points_added(self) -> int:
        return self.stored.points_added if self.stored else 0

    @property
    def change_fee(self) -> int:
        return change_fee(self.points_added)

    @property
    def models_available(self) -> int:
        """The models able to go on a mission this turn: all but those out of action (Recovery: a 2)."""
        return self.force.models_available

    @property
    def out_of_action(self) -> list[tuple[str, int]]:
        """Each entry with models out of action this turn, and how many (Recovery)."""
        return [(e.name, e.out_of_action) for e in self.force.entries if e.out_of_action]


def current_turn_of(campaign: Campaign) -> Turn | None:
    """The campaign's turn in play (None before the first opens)."""
    return Turn.objects.filter(campaign=campaign, number=campaign.current_turn).first()


def tomb_raiders_view(kingdom: Kingdom) -> TombRaidersView:
    force = tomb_raiders_of(kingdom)
    captain = force.captain
    return TombRaidersView(
        force=force,
        stored=TombRaiderForce.objects.filter(kingdom=kingdom).first(),
        captain_profile=officer_profile(captain) if captain else None,
        problems=force_problems(force) if force.entries else [],
        captives=captives_of(kingdom),
    )


def healing_potion_armies(kingdom: Kingdom) -> frozenset[int]:
    """The kingdom's armies with a character carrying a Healing Potion (Treasure from the Ruins):
    their injured characters may drink it (battles.services.healing, decision 435)."""
    return frozenset(
        ArmoryItem.objects.filter(
            kingdom=kingdom, name__iexact=HEALING_POTION, destroyed=False, bearer__isnull=False
        ).values_list("bearer__army_id", flat=True)
    )


@dataclass(frozen=True)
class CaptiveRow:
    """A captive as a kingdom's Tomb Raiders page and API list it: held by the kingdom (`held`: it is
    the captor) or its own model held by another."""

    id: int
    entry: str
    held: bool
    captor: str
    owner: str
    captured_turn: int
    fate: str
    fate_turn: int | None

    @property
    def other(self) -> str:
        """The other kingdom: the owner of a captive the kingdom holds, the captor of its own model."""
        return self.owner if self.held else self.captor


def captives_of(kingdom: Kingdom) -> list[CaptiveRow]:
    """The captives the kingdom holds and its own models held by others, decided or not, oldest first:
    a captive is known to its captor and its owner only (decision 491)."""
    rows = (
        CapturedRaider.objects.filter(Q(captor=kingdom) | Q(owner=kingdom))
        .select_related("captor", "owner")
        .order_by("captured_turn", "id")
    )
    return [
        CaptiveRow(
            id=row.pk,
            entry=row.entry,
            held=row.captor_id == kingdom.pk,
            captor=row.captor.name,
            owner=row.owner.name,
            captured_turn=row.captured_turn,
            fate=row.fate,
            fate_turn=row.fate_turn,
        )
        for row in rows
    ]
