"""Turn Summary Sheets: each side's report of a battle, checked as a whole, compared with the
opponent's, and ruled on by the organizer when the two disagree (Appendix: Turn Summary Sheet;
8. End of Turn)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from briternia.errors import DomainError
from briternia.fields import ascii_int, is_ascii_digits
from kingdoms.models import Army, Character, Kingdom, TombRaiderEntry, Unit
from kingdoms.people import display_name
from kingdoms.selectors import alliance_in_force
from rulebook.ruins_and_tomb_raiders.tomb_raid import RaidResult
from rulebook.scenario.sheet import RIVAL_MISSION_LABELS
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.character_injuries import (
    INJURY_REROLL_CHOICES,
    INJURY_REROLL_EXPERIENCE,
    REROLL_DEAD,
    REROLL_HARMED,
)
from rulebook.turn.aftermath.results import BattleResult, Conflict, Outcome, Pending, SideReport, battle_outcome, mirror
from rulebook.turn.aftermath.state import possessive
from rulebook.turn.aftermath.tomb_raids import LADDER_OF_RAID, RAID_RESULT_LABELS, TOMB_RAID
from rulebook.turn.tables import transfer_fee
from turns.models import Turn

from ..models import RAID_RESULT_CHOICES, RESULT_CHOICES, Battle, TurnSummarySheet
from .announcements import alliance_end_announce, alliance_end_announced, alliance_end_withdraw
from .rival_missions import is_rival_mission, is_tomb_raid, raiders_defend, rival_side_name, tomb_raid_side_name
from .rulings import disagreement_queue, ruling_queue, summary_receipt_queue

RESULTS = dict(RESULT_CHOICES)
RAID_RESULTS = dict(RAID_RESULT_CHOICES)
LOOTABLE = ("town", "city")
NOTE_MAX = 500
STORY_MAX = 20_000
# The most rows of any list of a sheet (casualties, characters, carts captured, ...): far above any
# battle's units, characters or carts; the API refuses a longer list whole, the page caps its counts.
SHEET_ROWS_MAX = 100
NEGOTIATION_GOLD_MAX = 2_147_483_647  # the column's (PositiveIntegerField) bound
GUEST_NAME_MAX = 100  # TurnSummarySheet.played_by_guest


def owes_sheet(battle: Battle, side: str) -> bool:
    """8. End of Turn is the players' duty: a side with no player (a neutral garrison, or the
    Ancient Dead, whom the organizer plays) owes no sheet; the organizer may still enter one."""
    kingdom = battle.attacker_kingdom if side == "attacker" else battle.defender_kingdom
    return kingdom is not None and not kingdom.is_ancient_dead


def side_of(battle: Battle, kingdom_id: int) -> str | None:
    if kingdom_id == battle.attacker_kingdom_id:
        return "attacker"
    if kingdom_id == battle.defender_kingdom_id:
        return "defender"
    return None


def side_army_ids(battle: Battle, side: str) -> list[int]:
    """The side's fighting army and the parent armies of its support detachments."""
    main = battle.attacker_army_id if side == "attacker" else battle.defender_army_id
    ids = [main] if main else []
    ids += [s.army_id for s in battle.supports.all() if s.side == side and s.army_id not in ids]
    return ids


def side_name(battle: Battle, side: str) -> str:
    """'Ostland: First Army', or the garrison that fights for a settlement, or a Reconnaissance or
    Sabotage's Tomb Raiders (or guard)."""
    if is_rival_mission(battle):
        return rival_side_name(battle, side)
    if is_tomb_raid(battle):
        return tomb_raid_side_name(battle, side)
    army = battle.attacker_army if side == "attacker" else battle.defender_army
    kingdom = battle.attacker_kingdom if side == "attacker" else battle.defender_kingdom
    if army is not None:
        return f"{kingdom.name}: {army.name}" if kingdom else army.name
    garrison = f"the garrison of {battle.province.name}"
    return f"{kingdom.name}: {garrison}" if kingdom else f"T{garrison[1:]}"


@dataclass(frozen=True)
class SummarySheetForm:
    """What a kingdom's sheet for a battle may report: its units and characters in the battle."""

    battle: Battle
    kingdom: Kingdom
    side: str
    units: list[Unit]
    characters: list[Character]
    may_loot: bool  # a side that would take the town or city if it won (Looting)
    opponent: str
    detachments: dict[int, int]  # parent army id -> points of its support detachment
    heirs: list[Character]  # the kingdom's living Generals, one of whom the player may name for a tie (Warlord)
    opponent_skaven: bool  # the opponent's army may be Backstabbers: the sheet may force one reroll
    # Allies: an ally's detachments on this side (parent army id -> "Kingdom: Army, N points"), which
    # may have withdrawn their support ("Withdraw of support").
    allied_detachments: dict[int, str]
    # The Campaign Must Go On: the campaign's players other than the kingdom's own (user id -> name),
    # one of whom may have played the battle for it.
    stand_ins: dict[int, str]
    # The Tomb Raiders' skirmish: the army takes no losses; the sheet asks for none.
    skirmish: bool = False
    # Stories Are Nice: a Tomb Raiders' story gives its experience to any of the kingdom's armies
    # (id -> name; its active field armies), the player's choice (decision 444); empty for a battle.
    story_armies: dict[int, str] = field(default_factory=dict)
    # Allies, Announcement: the kingdom's ally ("" when it has none), and whether it has announced the
    # end of their alliance this End of Turn (on any of its sheets or the battles page: decision 385).
    ally: str = ""
    alliance_end_announced: bool = False
    # Supply Depot (decision 395): the opponent's fighting army whose carts this side may have
    # captured (army id -> "Kingdom: Army" and the carts it brought: its depot and its spare carts);
    # the armies of this side that may have taken them (id -> name); this side's fighting army with
    # a cart on the table, which friendly forces may have recaptured (id -> name).
    enemy_carts: dict[int, tuple[str, int]] = field(default_factory=dict)
    captors: dict[int, str] = field(default_factory=dict)
    own_carts: dict[int, str] = field(default_factory=dict)
    # Tomb Raiders: the sheet reports a Tomb Raid's result (the raiding kingdom's: a plain ruin's
    # skirmish has no other result, decision 430), and the models of the kingdom's force the skirmish
    # killed or injured, for each of its entries (its Tomb Raiders fought: a raid or the scouting forces).
    raid: bool = False
    raiders: list[TombRaiderEntry] = field(default_factory=list)
    raiders_fought: bool = False
    # Reconnaissance and Sabotage: the mission's name ("" for any other battle); the spy's sheet reports
    # its result as a raid's (`raid`), the target's only its own Tomb Raiders' losses (`losses_only`).
    rival_mission: str = ""
    losses_only: bool = False

    @property
    def ladder(self) -> bool:
        """Whether the sheet asks for the battle's result on the ladder: not for a plain ruin's raid, nor
        for either side of a Reconnaissance or Sabotage."""
        return not ((self.raid and self.skirmish) or self.losses_only)

    @property
    def raid_name(self) -> str:
        """What the sheet's result is of: 'Tomb Raid', 'Reconnaissance' or 'Sabotage'."""
        return RIVAL_MISSION_LABELS.get(self.rival_mission, "Tomb Raid")


REROLL_LABELS = {
    REROLL_DEAD: f"reroll a Dead result ({INJURY_REROLL_EXPERIENCE} experience)",
    REROLL_HARMED: "reroll any result that harms him: Dead or a lasting injury "
    f"({INJURY_REROLL_EXPERIENCE} experience)",
}


def summary_sheet_form(*, battle: Battle, kingdom: Kingdom) -> SummarySheetForm:
    side = side_of(battle, kingdom.id)
    if side is None:
        raise DomainError(f"{kingdom.name} did not fight the battle in {battle.province}.")
    # The Tomb Raiders' skirmish: the army did not fight, so no unit or character of it is reported
    # (decision 231: its list loses nothing whatever a sheet says).
    armies = [] if battle.skirmish else side_army_ids(battle, side)
    units = list(
        Unit.objects.filter(army_id__in=armies, army__kingdom=kingdom)
        .select_related("army")
        .order_by("army_id", "position", "id")
    )
    characters = list(
        Character.objects.filter(unit__army_id__in=armies, kingdom=kingdom, alive=True)
        .select_related("unit__army")
        .order_by("unit__army_id", "id")
    )
    other = side_name(battle, "defender" if side == "attacker" else "attacker")
    return SummarySheetForm(
        battle=battle,
        kingdom=kingdom,
        side=side,
        units=units,
        characters=characters,
        may_loot=may_loot(battle, side, kingdom),
        opponent=other,
        detachments={s.army_id: s.points for s in battle.supports.all() if s.side == side},
        heirs=[]
        if battle.skirmish  # no Warlord can die in it
        else list(
            Character.objects.filter(kingdom=kingdom, alive=True, role=Character.Role.GENERAL)
            .select_related("unit__army")
            .order_by("unit__army_id", "id")
        ),
        opponent_skaven=_opponent_skaven(battle, side),
        allied_detachments={
            s.army_id: f"{s.kingdom.name}: {s.army.name}, {s.points:,} points"
            for s in battle.supports.all()
            if s.side == side and s.allied
        },
        stand_ins=_stand_ins(battle, kingdom),
        skirmish=battle.skirmish,
        story_armies=dict(
            Army.objects.filter(kingdom=kingdom, kind=Army.Kind.FIELD, status=Army.Status.ACTIVE)
            .order_by("id")
            .values_list("id", "name")
        )
        if battle.skirmish
        else {},
        ally=alliance.other(kingdom).name if (alliance := alliance_in_force(kingdom)) is not None else "",
        alliance_end_announced=alliance_end_announced(kingdom=kingdom, turn=battle.turn) is not None,
        **_carts(battle, side, armies),
        **_raiders(battle, side, kingdom),
    )


def _raiders(battle: Battle, side: str, kingdom: Kingdom) -> dict[str, Any]:
    """Tomb Raiders: the attacker's Tomb Raiders fought a skirmish (a raid, the scouting forces, a
    Reconnaissance or Sabotage) or the raid beside a sacked town's ruin's battle; its sheet reports their
    losses and the raid's (the mission's) result. The target of a Reconnaissance or Sabotage whose own
    Tomb Raiders defended reports their losses alone; a guard's losses are no one's (decisions 464-465)."""
    rival = is_rival_mission(battle)
    defended = rival and side == "defender" and raiders_defend(battle)
    fought = (side == "attacker" and (battle.skirmish or battle.mission == TOMB_RAID)) or defended
    entries = list(TombRaiderEntry.objects.filter(force__kingdom=kingdom).order_by("position", "id")) if fought else []
    return {
        "raid": side == "attacker" and (battle.mission == TOMB_RAID or rival),
        "raiders": entries,
        "raiders_fought": fought,
        "rival_mission": battle.mission if rival else "",
        "losses_only": rival and side == "defender",
    }


def carts_on_the_table(army: Army | None) -> int:
    """Supply Depot: the carts a field army brings to a battle, its own depot and those it captured
    (they "must be represented in each battle"); a garrison or Elite Defense Force brings none."""
    if army is None or army.kind != Army.Kind.FIELD:
        return 0
    return int(army.supply_depot) + army.spare_carts


def _carts(battle: Battle, side: str, armies: list[int]) -> dict[str, Any]:
    """Supply Depot: the carts on the table the sheet may report captured or recaptured. Only the
    fighting armies bring their carts: a support detachment brings none (decision 395)."""
    if battle.skirmish:  # the Tomb Raiders fight, no army: no cart is on the table (decision 398)
        return {}
    enemy = battle.defender_army if side == "attacker" else battle.attacker_army
    enemy_kingdom = battle.defender_kingdom if side == "attacker" else battle.attacker_kingdom
    own = battle.attacker_army if side == "attacker" else battle.defender_army
    enemy_carts = {}
    if carts_on_the_table(enemy):
        assert enemy is not None
        label = f"{enemy_kingdom.name}: {enemy.name}" if enemy_kingdom else enemy.name
        enemy_carts[enemy.id] = (label, carts_on_the_table(enemy))
    captors = {a.id: a.name for a in Army.objects.filter(pk__in=armies).order_by("id")}
    own_carts = {own.id: own.name} if own is not None and carts_on_the_table(own) else {}
    return {"enemy_carts": enemy_carts, "captors": captors, "own_carts": own_carts}


def _stand_ins(battle: Battle, kingdom: Kingdom) -> dict[int, str]:
    """The Campaign Must Go On: "The Campaign Organizer may play or appoint someone to play the game
    for that person": the campaign's organizer and its players, the absent kingdom's own excluded."""
    campaign = battle.turn.campaign
    own = set(kingdom.players.values_list("id", flat=True))
    people = {campaign.organizer_id: campaign.organizer} if campaign.organizer_id not in own else {}
    for other in campaign.kingdoms.exclude(pk=kingdom.pk).prefetch_related("players"):
        people.update({p.id: p for p in other.players.all() if p.id not in own})
    return {pk: display_name(user) for pk, user in sorted(people.items())}


def _opponent_skaven(battle: Battle, side: str) -> bool:
    """Whether the opponent's army is Skaven (its army type is no secret: it is on the table). The
    aftermath judges the rest of "Backstabbers" (more than one character, one an Assassin)."""
    other = battle.defender_kingdom if side == "attacker" else battle.attacker_kingdom
    army = battle.defender_army_id if side == "attacker" else battle.attacker_army_id
    return other is not None and army is not None and other.army_type == ArmyType.SKAVEN


def may_loot(battle: Battle, side: str, kingdom: Kingdom) -> bool:
    """Looting: the victor of a battle in a town or city that takes it chooses to sack or loot it.
    The attacker takes it if it wins; so does a defender that moved in as well (both moved,
    7. Aftermath). A kingdom never loots its own town. A Tomb Raiders' skirmish (a Tomb Raid, the
    scouting forces, a Reconnaissance or Sabotage) takes nothing: it is no army's battle."""
    if battle.skirmish:
        return False
    if battle.province.settlement not in LOOTABLE or battle.province.controller_id == kingdom.id:
        return False
    return side == "attacker" or battle.both_moved


def _flag(raw: Any) -> bool:
    return raw is True or raw in ("on", "true", "1", 1)


def _count(raw: Any) -> int | None:
    if raw in (None, ""):
        return 0
    if isinstance(raw, bool):
        return None
    try:
        return int(ascii_int(raw))
    except (TypeError, ValueError):
        return None


def summary_sheet_clean(form: SummarySheetForm, data: dict[str, Any], *, by_organizer: bool = False) -> dict[str, Any]:
    """Check a whole sheet; every problem is reported at once, naming the unit, army or rule."""
    errors: list[str] = []
    result = data.get("result") or ""
    raid_result = _raid_result_clean(form, data.get("raid_result"), errors)
    if not form.ladder:
        # A plain ruin's Tomb Raid: the raid's result is the skirmish's, on the ladder (decision 430).
        result = LADDER_OF_RAID[RaidResult(raid_result)].value if raid_result else ""
    elif result not in RESULTS:
        errors.append("Battle result: choose one of the results on the ladder (Turn Summary Sheet).")
    raiders = _raiders_clean(form, data.get("raiders"), errors)
    units = {u.id: u for u in form.units}
    casualties = []
    seen: set[int] = set()
    for row in data.get("casualties") or []:
        if not isinstance(row, dict):
            errors.append("Casualties: each row is a unit with its losses.")
            continue
        unit = units.get(_count(row.get("unit")) or 0)
        if unit is None and form.skirmish:
            errors.append(
                f"Casualties: {form.kingdom.name}'s army did not fight the Tomb Raiders' skirmish and takes no "
                "losses (Ruins; decision 231)."
            )
            break
        if unit is None:
            errors.append(
                f"Casualties: unit {row.get('unit')!r} is not one of {form.kingdom.name}'s units in this battle."
            )
            continue
        if unit.id in seen:
            errors.append(f"Casualties: {unit.name} ({unit.army.name}) is listed twice.")
            continue
        seen.add(unit.id)
        lost = _count(row.get("models_lost"))
        if lost is None or lost < 0:
            errors.append(f"Casualties: {unit.name} ({unit.army.name}): models lost must be a whole number, 0 or more.")
            continue
        if lost > unit.models_count:
            errors.append(
                f"Casualties: {unit.name} ({unit.army.name}) has {unit.models_count} models; it cannot lose {lost} "
                "(Casualty Recovery)."
            )
            continue
        one_use_used = _flag(row.get("one_use_used"))
        if one_use_used and not unit.one_use:
            errors.append(f"Casualties: {unit.name} ({unit.army.name}) is not a one-use troop type.")
            continue
        entry = {
            "unit": unit.id,
            "models_lost": lost,
            "champion": _flag(row.get("champion")),
            "standard": _flag(row.get("standard")),
            "musician": _flag(row.get("musician")),
            "one_use_used": one_use_used,
        }
        if lost or entry["champion"] or entry["standard"] or entry["musician"] or one_use_used:
            casualties.append(entry)
    characters = {c.id: c for c in form.characters}
    lost_characters = []
    for raw in data.get("characters_lost") or []:
        character = characters.get(_count(raw) or 0)
        if character is None and form.skirmish:
            errors.append(
                f"Characters: no character of {form.kingdom.name}'s army takes part in the Tomb Raiders' skirmish "
                "(decision 231)."
            )
            break
        if character is None:
            errors.append(f"Characters: {raw!r} is not one of {form.kingdom.name}'s characters in this battle.")
        elif character.id not in lost_characters:
            lost_characters.append(character.id)
    loot = data.get("loot_choice") or ""
    if loot not in ("", "loot", "sack"):
        errors.append("Looting: choose loot or sack.")
    elif loot and form.skirmish:
        errors.append(
            f"Looting: {form.raid_name} is a Tomb Raiders' skirmish, not an army's battle; only an army that wins "
            "a battle in a town or city loots or sacks it (Looting)."
        )
    elif loot and not form.may_loot:
        errors.append(
            "Looting: only a side that would take the town or city by winning (the attacker, or a defender "
            "that moved in too) may choose to loot or sack it (Looting)."
        )
    elif loot and result and result in RESULTS and not BattleResult(result).is_victory:
        errors.append("Looting: only the victor may loot or sack the town or city (Looting).")
    gold = _count(data.get("negotiation_gold"))
    if gold is None or gold < 0:
        errors.append("Money negotiations: the gold paid must be a whole number, 0 or more.")
    elif gold:
        # Money negotiations are paid from the treasury (8. End of Turn) as a Transfer of Gold, its 10%
        # fee on top (decisions 142, 160): no more than it holds as the sheet is filed (the aftermath
        # sends at most what it holds then), and never past the column.
        treasury = max(0, form.kingdom.treasury_balance())
        fee = transfer_fee(gold)
        if gold > NEGOTIATION_GOLD_MAX or gold + fee > treasury:
            errors.append(
                f"Money negotiations: {form.kingdom.name}'s treasury holds {treasury:,} gold; it cannot agree to "
                f"pay {gold:,} and its {fee:,} transportation fee (a kingdom pays its negotiations from its "
                "treasury, as a Transfer of Gold)."
            )
    note = str(data.get("negotiation_note") or "")
    if len(note) > NOTE_MAX:
        errors.append(f"Money negotiations: the note is longer than {NOTE_MAX} characters.")
    story = str(data.get("story") or "")
    if len(story) > STORY_MAX:
        errors.append(f"Battle report: the story is longer than {STORY_MAX:,} characters.")
    story_bonus = _flag(data.get("story_bonus"))
    if story_bonus and not story.strip():
        errors.append(
            "Battle report: the story's bonus experience goes to the army written about; write the story of "
            "this battle to give it to this army (Stories Are Nice)."
        )
    story_army = _story_army_clean(form, data.get("story_army"), has_story=bool(story.strip()), errors=errors)
    rerolls: dict[str, str] = {}
    raw_rerolls = data.get("injury_rerolls") or {}
    if not isinstance(raw_rerolls, dict):
        errors.append("Injury rerolls: name each character with the reroll he gets.")
        raw_rerolls = {}
    for raw, choice in raw_rerolls.items():
        if not choice:
            continue
        character = characters.get(_count(raw) or 0)
        if character is None and form.skirmish:
            errors.append(
                f"Injury rerolls: no character of {form.kingdom.name}'s army takes part in the Tomb Raiders' "
                "skirmish (decision 231)."
            )
            break
        if character is None:
            errors.append(f"Injury rerolls: {raw!r} is not one of {form.kingdom.name}'s characters in this battle.")
        elif choice not in INJURY_REROLL_CHOICES:
            errors.append(
                f"Injury rerolls: {character.unit.name} ({character.unit.army.name}): choose a reroll of a Dead "
                "result or of any result that harms him (Spending Experience)."
            )
        elif character.id not in lost_characters:
            errors.append(
                f"Injury rerolls: {character.unit.name} ({character.unit.army.name}) was not removed as a casualty: "
                "only a character removed as a casualty rolls on the Character Injury Chart."
            )
        else:
            rerolls[str(character.id)] = str(choice)
    backstab = _flag(data.get("backstab"))
    if backstab and not form.opponent_skaven:
        errors.append(
            f"Backstabbers: only against a Skaven army may {form.kingdom.name} force a reroll of one character "
            "injury test (Army-Specific Rules)."
        )
    heir = None
    if data.get("warlord_heir") not in (None, ""):
        heirs = {c.id: c for c in form.heirs}
        heir = heirs.get(_count(data.get("warlord_heir")) or 0)
        if heir is None:
            errors.append(
                f"Warlord: {data.get('warlord_heir')!r} is not one of {form.kingdom.name}'s living Generals, who "
                "alone may succeed the Warlord."
            )
    withdrawn = _withdrawn_clean(form, data.get("support_withdrawn"), errors)
    # Allies, Announcement (decision 385): None leaves the kingdom's announcement as it stands.
    announce = None if data.get("announce_alliance_end") is None else _flag(data.get("announce_alliance_end"))
    if announce and not form.ally:
        errors.append(
            f"Announce the end of the alliance: {form.kingdom.name} is in no alliance; there is no alliance to "
            "announce the end of (Allies, Announcement)."
        )
    captured, recaptured = _depots_clean(form, data, errors)
    played_by = _played_by_clean(form, data, by_organizer=by_organizer, errors=errors)
    if errors:
        # One message per problem: rows that go wrong the same way (the same army, the same rule) are told once.
        raise DomainError(list(dict.fromkeys(errors)))
    return {
        **played_by,
        "raid_result": raid_result,
        "raiders": raiders,
        "announce_alliance_end": announce,
        "support_withdrawn": withdrawn,
        "depots_captured": captured,
        "carts_recaptured": recaptured,
        "injury_rerolls": rerolls,
        "backstab": backstab,
        "warlord_heir": heir,
        "result": result,
        "withdrew": _flag(data.get("withdrew")),
        "opponent_withdrew": _flag(data.get("opponent_withdrew")),
        "casualties": casualties,
        "characters_lost": lost_characters,
        "loot_choice": loot,
        "negotiation_gold": gold,
        "negotiation_note": note,
        "story": story,
        "story_bonus": story_bonus,
        "story_army_id": story_army,
        # Stories Are Nice: the story goes into the bulletin unless the player keeps it private.
        "story_private": _flag(data.get("story_private")),
    }


def _story_army_clean(form: SummarySheetForm, raw: Any, *, has_story: bool, errors: list[str]) -> int | None:
    """Stories Are Nice: "Battle reports from a Tomb Raiders' prospective also count. Players can apply
    those bonus Experience Points to any of their armies": on a Tomb Raiders' skirmish's sheet, the
    army named is one of the kingdom's active field armies; a battle's story goes to its own army."""
    if raw in (None, ""):
        return None
    rule = "(Stories Are Nice)"
    if not form.skirmish:
        errors.append(
            f"Battle report: the story of a battle gives its experience to {form.kingdom.name}'s army in it; only "
            f"a Tomb Raiders' story goes to any army of the player's choice {rule}."
        )
        return None
    army = _count(raw)
    if army not in form.story_armies:
        errors.append(
            f"Battle report: army {raw!r} is not one of {form.kingdom.name}'s armies; the Tomb Raiders' story "
            f"gives its experience to one of them {rule}."
        )
        return None
    if not has_story:
        errors.append(
            f"Battle report: write the Tomb Raiders' story to give its experience to {form.story_armies[army]} {rule}."
        )
        return None
    return army


def _raid_result_clean(form: SummarySheetForm, raw: Any, errors: list[str]) -> str:
    """Tomb Raid: success, draw or failure, on the raiding kingdom's sheet of a raid only."""
    value = raw if isinstance(raw, str) else ""
    name = form.raid_name
    if raw not in (None, "") and value not in RAID_RESULTS:
        errors.append(
            f"{name}: the {'raid' if name == 'Tomb Raid' else 'mission'}'s result is success, draw or failure ({name})."
        )
        return ""
    if not form.raid:
        if value and form.rival_mission:
            errors.append(
                f"{name}: {form.kingdom.name} defends against the {name}; only the kingdom that sent its Tomb "
                f"Raiders reports the mission's result ({name})."
            )
        elif value:
            errors.append(
                f"Tomb Raid: {form.kingdom.name} sent no Tomb Raiders to raid a ruin in this battle; only the raiding "
                "kingdom reports a raid's result (Tomb Raid)."
            )
        return ""
    if not value and form.rival_mission:
        errors.append(
            f"{name}: choose the result of {possessive(form.kingdom.name)} {name} against {form.opponent}: success, "
            f"draw or failure (a draw and a failure each roll on the mission's charts: {name})."
        )
    elif not value:
        errors.append(
            f"Tomb Raid: choose the result of {possessive(form.kingdom.name)} raid on the ruins of "
            f"{form.battle.province}: success, draw or failure (a draw is no success: Tomb Raid; decision 407)."
        )
    return value


def _raiders_clean(form: SummarySheetForm, raw: Any, errors: list[str]) -> list[dict[str, Any]]:
    """The Tomb Raiders' losses: for each entry of the kingdom's force (by name, or its id), the models
    killed (off the list) and removed as injured (a D6 on Recovery each), at most the models that went:
    those out of action stayed home (Recovery; decision 405)."""
    rule = "(Maintaining / Changing Tomb Raiders; Recovery)"
    if raw in (None, ""):
        return []
    if not isinstance(raw, list):
        errors.append(f"Tomb Raiders: each row is an entry of the force with its models killed and injured {rule}.")
        return []
    by_name = {e.name.strip().lower(): e for e in form.raiders}
    by_id = {e.pk: e for e in form.raiders}
    rows: list[dict[str, Any]] = []
    seen: set[int] = set()
    for row in raw:
        if not isinstance(row, dict):
            errors.append(f"Tomb Raiders: each row is an entry of the force with its models killed and injured {rule}.")
            continue
        killed, injured = _count(row.get("killed")), _count(row.get("injured"))
        if not form.raiders_fought:
            if killed or injured:
                errors.append(
                    f"Tomb Raiders: {possessive(form.kingdom.name)} Tomb Raiders did not fight in this battle; only "
                    f"a Tomb Raiders' skirmish or raid costs them models {rule}."
                )
                break
            continue
        raw_entry = row.get("entry")
        entry = by_id.get(_count(raw_entry) or 0) if is_ascii_digits(raw_entry) else None
        entry = entry or (by_name.get(raw_entry.strip().lower()) if isinstance(raw_entry, str) else None)
        if entry is None:
            errors.append(
                f"Tomb Raiders: {str(raw_entry)[:100]!r} is not an entry of {possessive(form.kingdom.name)} Tomb "
                f"Raider force {rule}."
            )
            continue
        if entry.pk in seen:
            errors.append(f"Tomb Raiders: {entry.name} is listed twice {rule}.")
            continue
        seen.add(entry.pk)
        if killed is None or injured is None or killed < 0 or injured < 0:
            errors.append(f"Tomb Raiders: {entry.name}: models killed and injured are whole numbers, 0 or more {rule}.")
            continue
        went = entry.models_count - entry.out_of_action
        if killed + injured > went:
            away = f" ({entry.out_of_action} out of action stayed behind)" if entry.out_of_action else ""
            errors.append(
                f"Tomb Raiders: {entry.name} had {went} model{'s' if went != 1 else ''} in the skirmish{away}; "
                f"{killed} killed and {injured} injured is more {rule}."
            )
            continue
        if killed or injured:
            rows.append({"entry": entry.name, "killed": killed, "injured": injured})
    return rows


def _withdrawn_clean(form: SummarySheetForm, raw: Any, errors: list[str]) -> list[int]:
    """Allies, "Withdraw of support": only an ally's detachment on this side can withdraw."""
    withdrawn: list[int] = []
    for value in raw or []:
        army = _count(value)
        if army in form.allied_detachments:
            if army not in withdrawn:
                withdrawn.append(army)
        else:
            errors.append(
                f"Withdrawal of support: army {value!r} sent no ally's detachment to {form.kingdom.name}'s side of "
                "this battle; only an ally supporting it can withdraw its support (Allies)."
            )
    return withdrawn


def _depots_clean(
    form: SummarySheetForm, data: dict[str, Any], errors: list[str]
) -> tuple[list[dict[str, int]], list[int]]:
    """Supply Depot: each cart captured names the opponent's army that brought it to this battle and
    the army of this side that took it, no more carts of an army than it brought; a cart recaptured
    names this side's army whose cart it was (decisions 395, 397)."""
    rule = "(Supply Depot)"
    captured: list[dict[str, int]] = []
    over: set[int] = set()  # the armies already said to have lost more carts than they brought
    raw = data.get("depots_captured") or []
    if not isinstance(raw, list):
        errors.append(
            f"Supply depots captured: each is the army whose cart was captured and the army that took it {rule}."
        )
        raw = []
    for row in raw:
        if not isinstance(row, dict):
            errors.append(
                f"Supply depots captured: each is the army whose cart was captured and the army that took it {rule}."
            )
            continue
        army, by = _count(row.get("army")), _count(row.get("by"))
        if army not in form.enemy_carts:
            errors.append(
                f"Supply depots captured: army {row.get('army')!r} brought no cart to this battle against "
                f"{form.kingdom.name}: only a cart of the army that fought it here can be captured; a support "
                f"detachment, a garrison or the Tomb Raiders bring none {rule}."
            )
            continue
        name, carts = form.enemy_carts[army]
        if by not in form.captors:
            errors.append(
                f"Supply depots captured: {possessive(name)} cart: army {row.get('by')!r} did not fight on "
                f"{form.kingdom.name}'s side of this battle; name the army of this side that captured it {rule}."
            )
            continue
        if sum(1 for c in captured if c["army"] == army) >= carts:
            if army not in over:  # one message for the army, however many carts too many
                over.add(army)
                errors.append(
                    f"Supply depots captured: {name} brought {carts} cart{'s' if carts != 1 else ''} to this battle "
                    f"(its Supply Depot and the carts it had captured); no more can be captured {rule}."
                )
            continue
        captured.append({"army": army, "by": by})
    recaptured: list[int] = []
    for value in data.get("carts_recaptured") or []:
        army = _count(value)
        if army not in form.own_carts:
            errors.append(
                f"Carts recaptured: army {value!r} is not {form.kingdom.name}'s army with a cart in this battle: only "
                f"friendly forces recapture their own cart before the game ends {rule}."
            )
        elif army not in recaptured:
            recaptured.append(army)
    return captured, recaptured


def _played_by_clean(
    form: SummarySheetForm, data: dict[str, Any], *, by_organizer: bool, errors: list[str]
) -> dict[str, Any]:
    """The Campaign Must Go On: the organizer, filing the sheet of an absent player, says who
    played the battle: another player of the campaign or a guest (decision 223)."""
    player = data.get("played_by_player")
    guest = str(data.get("played_by_guest") or "").strip()
    if player in (None, "") and not guest:
        return {"played_by_player_id": None, "played_by_guest": ""}
    if not by_organizer:
        errors.append(
            "Played by: only the organizer, filing the sheet of an absent player, says who played the battle for "
            "it (The Campaign Must Go On)."
        )
        return {}
    if player not in (None, "") and guest:
        errors.append("Played by: name another player or a guest, not both (The Campaign Must Go On).")
        return {}
    if guest:
        if len(guest) > GUEST_NAME_MAX or "\x00" in guest:
            errors.append(f"Played by: the guest's name is at most {GUEST_NAME_MAX} characters of text.")
            return {}
        return {"played_by_player_id": None, "played_by_guest": guest}
    user_id = _count(player)
    if user_id not in form.stand_ins:
        errors.append(
            f"Played by: {player!r} is not a player of this campaign other than {form.kingdom.name}'s own (The "
            "Campaign Must Go On)."
        )
        return {}
    return {"played_by_player_id": user_id, "played_by_guest": ""}


def played_by_text(sheet: TurnSummarySheet) -> str:
    """Who played the battle for the sheet's kingdom ("" when its own player did)."""
    if sheet.played_by_guest:
        return f"{sheet.played_by_guest} (a guest)"
    if sheet.played_by_player_id is not None:
        return display_name(sheet.played_by_player)
    return ""


def stand_ins_text(battle: Battle) -> list[str]:
    """The Campaign Must Go On, for the battle page and the reports: "Played for Ostland by ..."
    for each submitted sheet that says someone played the battle for its kingdom."""
    lines = []
    for sheet in battle.summary_sheets.all():
        who = played_by_text(sheet) if sheet.status == TurnSummarySheet.Status.SUBMITTED else ""
        if who:
            lines.append(f"Played for {sheet.kingdom.name} by {who} (The Campaign Must Go On).")
    return lines


def summary_sheet_filed(sheet: TurnSummarySheet) -> dict[str, Any]:
    """What a kingdom filed on its sheet, in words, for the sheet's page once the aftermath has run:
    the units and characters named as they were filed (a unit destroyed since keeps its filed
    losses), never today's model counts."""
    unit_ids = [int(c["unit"]) for c in sheet.casualties if is_ascii_digits(c.get("unit"))]
    units = {u.id: u for u in Unit.objects.filter(pk__in=unit_ids).select_related("army")}
    casualties = []
    for row in sheet.casualties:
        unit = units.get(int(row["unit"])) if is_ascii_digits(row.get("unit")) else None
        lost = [
            label
            for key, label in (
                ("champion", "champion"),
                ("standard", "standard"),
                ("musician", "musician"),
                ("one_use_used", "one-use item used"),
            )
            if row.get(key)
        ]
        casualties.append(
            {
                "unit": f"{unit.name} ({unit.army.name})" if unit else "a unit no longer on the army's list",
                "models_lost": int(row.get("models_lost") or 0),
                "also": ", ".join(lost),
            }
        )
    characters = Character.objects.filter(pk__in=[int(c) for c in sheet.characters_lost if is_ascii_digits(c)])
    carts = [int(c["army"]) for c in sheet.depots_captured] + [int(c["by"]) for c in sheet.depots_captured]
    army_names = dict(Army.objects.filter(pk__in=carts + list(sheet.carts_recaptured)).values_list("id", "name"))

    def named(army: Any) -> str:
        return army_names.get(int(army), "an army")

    return {
        "raid_result": RAID_RESULT_LABELS[RaidResult(sheet.raid_result)] if sheet.raid_result else "",
        "raiders": [
            f"{r['entry']}: {r.get('killed', 0)} killed, {r.get('injured', 0)} removed as injured"
            for r in sheet.raiders
        ],
        # Supply Depot: the carts it reported captured and recaptured, by the armies' names.
        "depots": [f"{possessive(named(c['army']))} cart captured by {named(c['by'])}" for c in sheet.depots_captured]
        + [f"{possessive(named(a))} cart recaptured" for a in sheet.carts_recaptured],
        "result": sheet.get_result_display(),
        "casualties": casualties,
        "characters_lost": [f"{c.unit.name} ({c.get_role_display()})" for c in characters.select_related("unit")],
        "rerolls": [REROLL_LABELS.get(v, v) for v in sheet.injury_rerolls.values() if v],
    }


def summary_sheet_values(sheet: TurnSummarySheet) -> dict[str, Any]:
    """What a kingdom's sheet holds, as its page's form and `summary_sheet_save` take it (its text too)."""
    return {
        "result": sheet.result,
        "withdrew": sheet.withdrew,
        "opponent_withdrew": sheet.opponent_withdrew,
        "casualties": sheet.casualties,
        "characters_lost": sheet.characters_lost,
        "loot_choice": sheet.loot_choice,
        "negotiation_gold": sheet.negotiation_gold,
        "negotiation_note": sheet.negotiation_note,
        "story": sheet.story,
        "story_bonus": sheet.story_bonus,
        "story_army": sheet.story_army_id,
        "story_private": sheet.story_private,
        "injury_rerolls": sheet.injury_rerolls,
        "backstab": sheet.backstab,
        "warlord_heir": sheet.warlord_heir_id,
        "support_withdrawn": sheet.support_withdrawn,
        "depots_captured": sheet.depots_captured,
        "carts_recaptured": sheet.carts_recaptured,
        "played_by_player": sheet.played_by_player_id,
        "played_by_guest": sheet.played_by_guest,
        "raid_result": sheet.raid_result,
        "raiders": sheet.raiders,
    }


def _open_for_summary_sheets(battle: Battle, *, by_organizer: bool, arrived_at: dt.datetime | None = None) -> None:
    """Sheets change while the turn's battles are open; a player's until the results deadline, by the
    sheet's arrival (a mail's: when the mail server received it)."""
    turn = battle.turn
    if turn.status != Turn.Status.BATTLES:
        raise DomainError(f"Turn {turn.number} is {turn.get_status_display().lower()}: sheets can no longer change.")
    if not by_organizer and (arrived_at or timezone.now()) > turn.results_deadline:
        raise DomainError("The results deadline has passed: ask the organizer to enter your sheet (8. End of Turn).")


@transaction.atomic
def summary_sheet_save(
    *,
    battle: Battle,
    kingdom: Kingdom,
    data: dict[str, Any],
    entered_by: AbstractBaseUser | None,
    submit: bool = True,
    by_organizer: bool = False,
    arrived_at: dt.datetime | None = None,
    receipt_notes: Sequence[str] = (),
) -> TurnSummarySheet:
    """Save (and by default submit) a kingdom's sheet for a battle. An invalid sheet is refused
    as a whole and nothing is saved. `announce_alliance_end` in `data` makes (true) or withdraws
    (false) the kingdom's announcement of the end of its alliance; absent or None leaves it.
    `arrived_at`: when the sheet arrived (a mail's: when the mail server received it; default now);
    `receipt_notes`: lines its receipt adds. The sheet returned carries `receipt_email`, the receipt
    queued for a submission (None for a draft, or nobody to write to)."""
    battle = Battle.objects.select_for_update().select_related("turn", "province").get(pk=battle.pk)
    _open_for_summary_sheets(battle, by_organizer=by_organizer, arrived_at=arrived_at)
    clean = summary_sheet_clean(summary_sheet_form(battle=battle, kingdom=kingdom), data, by_organizer=by_organizer)
    announce = clean.pop("announce_alliance_end")
    sheet, _ = TurnSummarySheet.objects.get_or_create(
        battle=battle, kingdom=kingdom, defaults={"result": clean["result"]}
    )
    for name, value in clean.items():
        setattr(sheet, name, value)
    sheet.entered_by = entered_by  # type: ignore[assignment]
    sheet.by_organizer = by_organizer
    sheet.receipt_email = None
    if submit:
        sheet.status = TurnSummarySheet.Status.SUBMITTED
        sheet.submitted_at = arrived_at or timezone.now()
    sheet.save()
    if battle.status == Battle.Status.SCHEDULED and submit:
        battle.status = Battle.Status.REPORTED
        battle.save(update_fields=["status"])
    if submit:
        # Rulings told (issue 37): a receipt for every sheet, and both sides told when they disagree.
        by = display_name(entered_by) if entered_by is not None else ""
        sheet.receipt_email = summary_receipt_queue(
            sheet, summary_sheet_filed(sheet), entered_by_name=by, notes=receipt_notes
        )
        if disagreement := disagreement_text(battle, deadline_passed=timezone.now() > battle.turn.results_deadline):
            disagreement_queue(battle, disagreement)
    # Allies, Announcement: the sheet carries the kingdom's one announcement of this End of Turn.
    if announce:
        alliance_end_announce(kingdom=kingdom, turn=battle.turn, entered_by=entered_by, by_organizer=by_organizer)
    elif announce is False:
        alliance_end_withdraw(kingdom=kingdom, turn=battle.turn, by_organizer=by_organizer)
    return sheet


def side_report(sheet: TurnSummarySheet | None) -> SideReport | None:
    if sheet is None or sheet.status != TurnSummarySheet.Status.SUBMITTED:
        return None
    return SideReport(
        result=BattleResult(sheet.result), withdrew=sheet.withdrew, opponent_withdrew=sheet.opponent_withdrew
    )


def battle_standing(battle: Battle, *, deadline_passed: bool) -> Outcome | Conflict | Pending:
    """Where the battle's result stands: agreed, in conflict, or waiting for a sheet. An
    organizer's ruling settles it whatever the sheets say."""
    sheets = {s.kingdom_id: s for s in battle.summary_sheets.all()}
    if battle.ruling_result:
        attacker = SideReport(
            result=BattleResult(battle.ruling_result),
            withdrew=battle.ruling_attacker_withdrew,
            opponent_withdrew=battle.ruling_defender_withdrew,
        )
        return battle_outcome(attacker, None, defender_files=False, deadline_passed=True)
    if is_rival_mission(battle):
        return _rival_mission_standing(battle, sheets, deadline_passed=deadline_passed)
    return battle_outcome(
        side_report(sheets.get(battle.attacker_kingdom_id)),
        side_report(sheets.get(battle.defender_kingdom_id)) if battle.defender_kingdom_id else None,
        attacker_files=owes_sheet(battle, "attacker"),
        defender_files=owes_sheet(battle, "defender"),
        deadline_passed=deadline_passed,
    )


def _rival_mission_standing(
    battle: Battle, sheets: dict[int, TurnSummarySheet], *, deadline_passed: bool
) -> Outcome | Conflict | Pending:
    """A Reconnaissance or Sabotage: the spy's sheet alone gives the result (its mission's success, draw or
    failure on the ladder, decision 430); the target's sheet reports its Tomb Raiders' losses, and is
    waited for until the results deadline when they defended (decision 465)."""
    target = sheets.get(battle.defender_kingdom_id) if battle.defender_kingdom_id else None
    waiting_target = (
        raiders_defend(battle)
        and (target is None or target.status != TurnSummarySheet.Status.SUBMITTED)
        and not deadline_passed
    )
    standing = battle_outcome(
        side_report(sheets.get(battle.attacker_kingdom_id)), None, defender_files=False, deadline_passed=deadline_passed
    )
    if waiting_target and not isinstance(standing, Pending):
        return Pending("waiting for the turn summary sheet of the defender (its Tomb Raiders' losses).")
    return standing


@transaction.atomic
def battle_rule(
    *,
    battle: Battle,
    result: str,
    attacker_withdrew: bool,
    defender_withdrew: bool,
    note: str,
    ruled_by: AbstractBaseUser,
) -> Battle:
    """The organizer decides a battle's result (read from the attacker's side), overruling the
    sheets: for a conflict, or a correction."""
    battle = Battle.objects.select_for_update().select_related("turn", "province").get(pk=battle.pk)
    _open_for_summary_sheets(battle, by_organizer=True)
    errors = []
    if result not in RESULTS:
        errors.append("Ruling: choose the battle's result on the ladder, read from the attacker's side.")
    if len(note) > 300:
        errors.append("Ruling: the note is longer than 300 characters.")
    if errors:
        raise DomainError(errors)
    battle.ruling_result = result
    battle.ruling_attacker_withdrew = attacker_withdrew
    battle.ruling_defender_withdrew = defender_withdrew
    battle.ruling_note = note
    battle.ruled_by = ruled_by  # type: ignore[assignment]
    battle.save(
        update_fields=[
            "ruling_result",
            "ruling_attacker_withdrew",
            "ruling_defender_withdrew",
            "ruling_note",
            "ruled_by",
        ]
    )
    ruling_queue(battle, ruling_text(battle))
    return battle


def final_result_text(battle: Battle) -> str:
    """The battle's settled result in words, for the reports ("" before the aftermath): the
    attacker's result when the defender's mirrors it; else each side's, naming the side whose
    sheet was missing (8. End of Turn: the results no longer mirror each other)."""
    if not battle.result:
        return ""
    attacker = BattleResult(battle.result)
    defender = BattleResult(battle.defender_result) if battle.defender_result else mirror(attacker)
    if defender == mirror(attacker):
        return attacker.label
    filed = {s.kingdom_id for s in battle.summary_sheets.all() if s.status == TurnSummarySheet.Status.SUBMITTED}
    parts = []
    for side, result in (("attacker", attacker), ("defender", defender)):
        kingdom = battle.attacker_kingdom_id if side == "attacker" else battle.defender_kingdom_id
        missing = owes_sheet(battle, side) and kingdom not in filed
        parts.append(f"{result.label.lower()} for the {side}" + (" (no turn summary sheet)" if missing else ""))
    text = "; ".join(parts)
    return text[0].upper() + text[1:]


def _winner(standing: Outcome) -> str:
    return f"the {standing.victor} wins" if standing.victor else "no victor"


def ruling_text(battle: Battle) -> str:
    """The organizer's ruling in words ("" when there is none): it decides the result, so it never
    reads as an agreement of the sheets."""
    standing = battle_standing(battle, deadline_passed=True)
    if not battle.ruling_result or not isinstance(standing, Outcome):
        return ""
    note = f" Note: {battle.ruling_note}" if battle.ruling_note else ""
    return f"Decided by the organizer: {standing.attacker.result.label} for the attacker; {_winner(standing)}.{note}"


def ruling_line(battle: Battle) -> str:
    """The reports' and the bulletin's line under a result the organizer decided ("" otherwise)."""
    if not battle.ruling_result:
        return ""
    return "Decided by the organizer" + (f": {battle.ruling_note}" if battle.ruling_note else ".")


def battle_standing_text(battle: Battle, *, deadline_passed: bool) -> str:
    """The organizer's one line on where the battle's result stands: the ruling when there is one."""
    return ruling_text(battle) or standing_text(battle_standing(battle, deadline_passed=deadline_passed))


def disagreement_text(battle: Battle, *, deadline_passed: bool) -> str:
    """On what the battle's two sheets disagree, while no ruling decides it ("" otherwise): the
    sentence the organizer reads, which the battle's players read too (rules decision 320)."""
    if battle.ruling_result:
        return ""
    standing = battle_standing(battle, deadline_passed=deadline_passed)
    return standing.message if isinstance(standing, Conflict) else ""


def players_standing_text(battle: Battle, *, deadline_passed: bool) -> str:
    """What the battle's players are told of its result before the aftermath: the organizer's
    ruling, or that their two sheets disagree and on what (rules decision 320); "" otherwise."""
    if battle.ruling_result:
        return ruling_text(battle)
    if disagreement := disagreement_text(battle, deadline_passed=deadline_passed):
        return f"Your two turn summary sheets disagree: {disagreement} The organizer decides the result."
    return ""


def standing_text(standing: Outcome | Conflict | Pending) -> str:
    """The organizer's one line on where a battle's result stands."""
    if isinstance(standing, Outcome):
        winner = _winner(standing)
        sides = (("attacker", standing.attacker), ("defender", standing.defender))
        if all(o.filed for _, o in sides):
            return f"Agreed: {standing.attacker.result.label} for the attacker; {winner}."
        # 8. End of Turn: the results no longer mirror each other; say each side's.
        parts = [
            f"{o.result.label.lower()} for the {side}" + ("" if o.filed else " (no sheet: no experience)")
            for side, o in sides
        ]
        return f"After the results deadline: {'; '.join(parts)}; {winner} (8. End of Turn)."
    if isinstance(standing, Conflict):
        return f"Conflict: {standing.message}"
    return f"Waiting: {standing.message}"
