"""A kingdom's Tomb Raider force: saving its list under Creating Tomb Raiders, all or nothing, and
keeping what the list held as the turn opened for the 5 gold a point added (Maintaining / Changing);
loading every force for the aftermath and writing what a skirmish's losses and the Recovery made of
it."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from briternia.errors import DomainError
from rulebook.ruins_and_tomb_raiders.force import RaiderEntry, TombRaiders, force_problems
from rulebook.ruins_and_tomb_raiders.maintaining import points_added
from rulebook.tables import ArmyType

from ..models import Campaign, Kingdom, TombRaiderEntry, TombRaiderForce
from ..selectors import raider_entry

# Rules decision 412: the force is entered once the kingdoms enter their army lists (the campaign's
# "Army lists" step) and changed while the campaign runs; before, a kingdom has no army book chosen
# for good and nothing to check against.
EDITABLE_STATUSES = frozenset({Campaign.Status.ARMY_LISTS, Campaign.Status.RUNNING})


def _opening(points: dict[str, int], army_type: ArmyType) -> TombRaiders:
    """The list as the turn opened, by name and points: all `points_added` compares."""
    return TombRaiders(army_type, tuple(RaiderEntry(name, 1, p) for name, p in points.items()))


def _may_edit(kingdom: Kingdom, user: AbstractBaseUser | None) -> None:
    campaign = kingdom.campaign
    if kingdom.is_ancient_dead:
        raise DomainError(
            f"{kingdom.name}: the Ancient Dead keep no Tomb Raiders; each player's kingdom has its "
            "warband (Tomb Raiders)."
        )
    organizer = user is not None and user.pk == campaign.organizer_id
    player = user is not None and kingdom.players.filter(pk=user.pk).exists()
    if not (organizer or player):
        raise DomainError(f"Only {kingdom.name}'s players (or the organizer) may change its Tomb Raiders.")
    if campaign.status not in EDITABLE_STATUSES:
        raise DomainError(
            f"{kingdom.name}: the Tomb Raiders are entered with the army lists; the campaign is at "
            f"'{campaign.get_status_display()}'."
        )


@transaction.atomic
def tomb_raider_force_save(
    *, kingdom: Kingdom, entries: list[RaiderEntry], saved_by: AbstractBaseUser | None
) -> TombRaiderForce:
    """Replace the kingdom's Tomb Raider list by `entries`, all or nothing: refused with every problem
    of the whole new list (each naming its entries and the rule). Records the turn of the change and
    the points added since that turn opened (rules decision 403: models removed free nothing)."""
    kingdom = Kingdom.objects.select_for_update().select_related("campaign").get(pk=kingdom.pk)
    _may_edit(kingdom, saved_by)
    new = TombRaiders(kingdom.army_type_enum, tuple(entries))
    problems = force_problems(new)
    if problems:
        # The API answers one error per problem with its stable code (briternia/api.py); the page
        # places each beside its entries.
        raise DomainError(
            [p.message for p in problems],
            problems=[
                {"code": str(p.code), "message": p.message, "armies": [], "entries": list(p.entries), "rule": p.rule}
                for p in problems
            ],
        )
    force, _ = TombRaiderForce.objects.get_or_create(kingdom=kingdom)
    turn = kingdom.campaign.current_turn
    stored = list(force.entries.all())
    if force.changed_turn != turn:
        # The first change of the turn: the list as it stands is the list as the turn opened.
        force.opening_points = {e.name.strip().lower(): e.points for e in stored}
    # Models out of action are the recovery's (Recovery: a 2), not the player's: an entry keeps its own.
    out_of_action = {e.name.strip().lower(): e.out_of_action for e in stored}
    force.points_added = points_added(_opening(force.opening_points, new.army_type), new)
    force.changed_turn = turn
    force.save()
    force.entries.all().delete()
    TombRaiderEntry.objects.bulk_create(
        TombRaiderEntry(
            force=force,
            position=position,
            name=e.name.strip(),
            unit_type=e.unit_type.strip(),
            models_count=e.models,
            points_per_model=e.points_per_model,
            category=e.category,
            base=e.base,
            kind=e.kind,
            role=e.role,
            command=e.command,
            missile_weapon=e.missile_weapon,
            magic_item=e.magic_item,
            magic_user=e.magic_user,
            leadership=e.leadership,
            wounds=e.wounds,
            promoted=e.promoted,
            out_of_action=min(out_of_action.get(e.name.strip().lower(), 0), e.models),
        )
        for position, e in enumerate(entries)
    )
    return force


def tomb_raiders_load(*, campaign: Campaign) -> dict[int, TombRaiders]:
    """Every kingdom's stored force as the rules read it (kingdom id -> its list), for the aftermath."""
    forces: dict[int, TombRaiders] = {}
    rows = TombRaiderForce.objects.filter(kingdom__campaign=campaign).select_related("kingdom").order_by("kingdom_id")
    entries: dict[int, list[TombRaiderEntry]] = {}
    for entry in TombRaiderEntry.objects.filter(force__kingdom__campaign=campaign).order_by(
        "force_id", "position", "id"
    ):
        entries.setdefault(entry.force_id, []).append(entry)
    for force in rows:
        forces[force.kingdom_id] = TombRaiders(
            force.kingdom.army_type_enum, tuple(raider_entry(e) for e in entries.get(force.pk, []))
        )
    return forces


def tomb_raiders_write(*, before: dict[int, TombRaiders], after: dict[int, TombRaiders]) -> None:
    """Write what the aftermath did to the forces (Maintaining / Changing Tomb Raiders; Recovery): for
    each kingdom whose list changed, each entry of the same name updated (its models, those out of
    action, a promotion's role and cost), a new one (a model of a larger entry promoted) created, an
    entry left with no model deleted. Not a change of the player's: the points added this turn and the
    list as the turn opened stay as they are (decision 413)."""
    for kingdom, force in after.items():
        if before.get(kingdom) == force:
            continue
        stored = TombRaiderForce.objects.get(kingdom_id=kingdom)
        rows = {e.name.strip().lower(): e for e in stored.entries.all()}
        kept: set[int] = set()
        for position, entry in enumerate(force.entries):
            row = rows.get(entry.name.strip().lower()) or TombRaiderEntry(force=stored)
            row.position = position
            row.name = entry.name.strip()
            row.unit_type = entry.unit_type.strip()
            row.models_count = entry.models
            row.points_per_model = entry.points_per_model
            row.category, row.base, row.kind = entry.category, entry.base, entry.kind
            row.role, row.command = entry.role, entry.command
            row.missile_weapon, row.magic_item, row.magic_user = (
                entry.missile_weapon,
                entry.magic_item,
                entry.magic_user,
            )
            row.leadership, row.wounds, row.promoted = entry.leadership, entry.wounds, entry.promoted
            row.out_of_action = min(entry.out_of_action, entry.models)
            row.save()
            kept.add(row.pk)
        stored.entries.exclude(pk__in=kept).delete()
