"""Writing the aftermath back: armies, units, characters, items, provinces, the ledger, the
events, the dice and the battles' results (inside the aftermath's transaction)."""

from __future__ import annotations

from django.db.models import Max

from kernel.dice import SeededDice
from kernel.event_codes import EventCode
from kingdoms.models import ArmoryItem, Army, ArmyMovement, Character, Kingdom, Province, TreasuryEntry, Unit
from kingdoms.services.alliances import alliances_write, without_alliance_id
from kingdoms.services.dice import dice_rolls_save
from kingdoms.services.experience import experience_rows_write
from orders.models import Turn, TurnEvent
from orders.services.events import turn_event_sequence_next
from rulebook.turn.aftermath.state import AftermathResult, AftermathState

from ..models import Battle


def aftermath_write(turn: Turn, before: AftermathState, result: AftermathResult, dice: SeededDice) -> None:
    state = result.state
    campaign = turn.campaign
    provinces = {p.number: p for p in Province.objects.filter(campaign=campaign)}

    # The Elite Defense Forces are armies too: they perish with their town.
    after_armies = {**state.armies, **state.garrisons}
    armies = {a.id: a for a in Army.objects.filter(pk__in=list(after_armies))}
    changed_armies = []
    retreats = []
    for army_id, after in after_armies.items():
        was = before.world.army(army_id)
        row = armies[army_id]
        fields = ("province", "experience", "disbanded", "fortified_in", "supply_depot", "spare_carts")
        if all(getattr(after, f) == getattr(was, f) for f in fields):
            continue
        row.experience = after.experience
        # Supply Depot: a depot captured (the army forages from now on), a captured cart on the roster.
        row.supply_depot, row.spare_carts = after.supply_depot, after.spare_carts
        # Fortify: a Fortified army that retreats (or is gone) loses its fortifications.
        row.fortified_in = provinces[after.fortified_in] if after.fortified_in is not None else None
        if after.province != was.province and after.province is not None:
            row.province = provinces[after.province]
            retreats.append(row)
        if after.disbanded:
            row.status = Army.Status.DISBANDED
        changed_armies.append(row)
    Army.objects.bulk_update(
        changed_armies, ["experience", "province", "status", "fortified_in", "supply_depot", "spare_carts"]
    )
    last_step = dict(
        ArmyMovement.objects.filter(army__in=retreats, turn=turn.number).values_list("army").annotate(step=Max("step"))
    )
    ArmyMovement.objects.bulk_create(
        ArmyMovement(army=row, turn=turn.number, step=(last_step.get(row.id) or 0) + 1, province=row.province)
        for row in retreats
    )

    units = {u.id: u for u in Unit.objects.filter(pk__in=list(state.units))}
    changed_units = []
    for unit_id, after in state.units.items():
        was = before.units[unit_id]
        if (after.models_count, after.veteran_level, after.veteran_eligible) == (
            was.models_count,
            was.veteran_level,
            was.veteran_eligible,
        ):
            continue
        row = units[unit_id]
        row.models_lost += max(0, was.models_count - after.models_count)
        row.models_count = after.models_count
        row.veteran_level = after.veteran_level
        row.veteran_eligible = after.veteran_eligible
        changed_units.append(row)
    Unit.objects.bulk_update(changed_units, ["models_lost", "models_count", "veteran_level", "veteran_eligible"])

    # Characters one by one, the dead first: a kingdom has one living Warlord at every moment.
    characters = {c.id: c for c in Character.objects.filter(pk__in=list(state.characters))}
    ordered = sorted(state.characters.values(), key=lambda c: (c.alive, c.id))
    for after in ordered:
        was = before.characters[after.id]
        now = (after.alive, after.role, after.injuries, after.battles_survived)
        if now == (was.alive, was.role, was.injuries, was.battles_survived):
            continue
        row = characters[after.id]
        row.alive, row.role, row.injuries, row.battles_survived = now
        row.save(update_fields=["alive", "role", "injuries", "battles_survived"])

    items = {i.id: i for i in ArmoryItem.objects.filter(pk__in=list(state.items))}
    changed_items = []
    for item_id, after in state.items.items():
        was = before.items[item_id]
        if (after.bearer, after.destroyed) != (was.bearer, was.destroyed):
            row = items[item_id]
            row.bearer_id, row.destroyed = after.bearer, after.destroyed
            changed_items.append(row)
    ArmoryItem.objects.bulk_update(changed_items, ["bearer", "destroyed"])

    changed_provinces = []
    for number, after in state.provinces.items():
        was = before.provinces[number]
        fields = ("controller", "settlement", "looted_turn", "fortified", "rogue", "land_sale_turn")
        if all(getattr(after, f) == getattr(was, f) for f in fields):
            continue
        row = provinces[number]
        row.controller_id, row.settlement, row.looted_turn = after.controller, after.settlement, after.looted_turn
        row.fortified, row.rogue, row.land_sale_turn = after.fortified, after.rogue, after.land_sale_turn
        changed_provinces.append(row)
    Province.objects.bulk_update(
        changed_provinces, ["controller", "settlement", "looted_turn", "fortified", "rogue", "land_sale_turn"]
    )

    # Loss of the Capitol: the kingdom has no capitol from now on, and three turns to crown its Warlord.
    lost = [e.kingdom for e in result.events if e.code == EventCode.CAPITOL_LOST and e.kingdom is not None]
    Kingdom.objects.filter(pk__in=lost).update(capitol=None, capitol_lost_turn=turn.number)

    TreasuryEntry.objects.bulk_create(
        TreasuryEntry(kingdom_id=e.kingdom, turn=turn.number, amount=e.gold, reason=e.ledger_reason, note=e.text[:200])
        for e in result.events
        if e.gold and e.kingdom is not None
    )
    experience_rows_write(
        turn=turn.number,
        events=result.events,
        before={a: before.world.army(a).experience for a in after_armies},
        after={a: after.experience for a, after in after_armies.items()},
    )
    start = turn_event_sequence_next(turn)
    TurnEvent.objects.bulk_create(
        TurnEvent(
            turn=turn,
            sequence=start + i,
            phase=e.phase,
            code=e.code,
            text=e.text,
            kingdom_id=e.kingdom,
            army_id=e.army,
            province=e.province,
            gold=e.gold,
            data=without_alliance_id(e.data),
        )
        for i, e in enumerate(result.events)
    )
    # Allies: an alliance broken by withdrawal of support in a battle ends this turn.
    alliances_write(campaign=campaign, turn=turn.number, events=result.events)
    dice_rolls_save(campaign=campaign, turn=turn.number, dice=dice)
    rows = {b.id: b for b in Battle.objects.filter(turn=turn)}
    for settled in result.battles:
        row = rows[settled.battle]
        row.result = settled.result.value
        row.defender_result = settled.defender_result.value
        row.victor = settled.victor or ""
        row.status = Battle.Status.RESOLVED
    Battle.objects.bulk_update(list(rows.values()), ["result", "defender_result", "victor", "status"])
