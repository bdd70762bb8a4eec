"""The turn summary sheet as text (Appendix: Turn Summary Sheet; 8. End of Turn), for the scenario
email and the sheet's page, and a summary sheet filed from text through the site's service
(`summary_sheet_save`), so the same check runs.

The text begins "Turn summary sheet: battle <id>" with the campaign, turn and kingdom; then a line
for each thing the sheet reports, "key: value", each with a line of help ("#"): the battle's result,
each unit of the kingdom's in the battle with its losses ("Unit: Halberdiers (Wardens); models lost =
10; ..."), each character, and the sheet's other choices as the page offers them. The story comes
last: every line after "Story:" is the battle report."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from briternia.errors import DomainError
from kingdoms.models import Kingdom
from orders.services.emails import sheet_answer_queue
from orders.services.sheet_mail import FILED_BY_EMAIL, TextFiling, sheet_text_subject, subject_says_draft
from orders.sheet_text import (
    HELP,
    NO,
    SUMMARY_KEY,
    YES,
    normalized,
    problems_shown,
    sheet_text_joined,
    sheet_text_lines,
    whole_number,
)

from ..models import RAID_RESULT_CHOICES, RESULT_CHOICES, Battle, TurnSummarySheet
from .summaries import (
    REROLL_LABELS,
    SummarySheetForm,
    side_name,
    summary_sheet_filed,
    summary_sheet_form,
    summary_sheet_save,
    summary_sheet_values,
)

STORY_KEY = "Story"
UNIT_FLAGS = ("champion", "standard", "musician", "one_use_used")
NONE = "none"


@dataclass
class _Labels:
    """The names the text writes for the ids of the sheet's form (units, characters, armies), and
    their reading back."""

    units: dict[int, str] = field(default_factory=dict)
    characters: dict[int, str] = field(default_factory=dict)
    armies: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, form: SummarySheetForm) -> _Labels:
        armies: dict[int, str] = {**form.captors, **form.own_carts, **form.story_armies}
        armies.update({a: label for a, (label, _) in form.enemy_carts.items()})
        armies.update(form.allied_detachments)
        return cls(
            units=_unique({u.id: f"{u.name} ({u.army.name})" for u in form.units}),
            characters=_unique(
                {c.id: f"{c.unit.name} ({c.unit.army.name})" for c in [*form.characters, *form.heirs] if c.unit_id}
            ),
            armies=_unique(armies),
        )

    def find(self, kind: str, written: str) -> int | None:
        key = normalized(written)
        for pk, label in getattr(self, kind).items():
            if normalized(label) == key:
                return pk
        return whole_number(key.removeprefix("#"))


def _unique(labels: Mapping[int, str]) -> dict[int, str]:
    """Each label once: two alike (or one the text cannot carry) are written by id ("#12")."""
    counts: dict[str, int] = {}
    for label in labels.values():
        counts[normalized(label)] = counts.get(normalized(label), 0) + 1
    return {
        pk: label if counts[normalized(label)] == 1 and ";" not in label and "=" not in label else f"#{pk}"
        for pk, label in labels.items()
    }


def _yes(value: Any) -> str:
    return "yes" if value else "no"


def summary_sheet_text(*, battle: Battle, kingdom: Kingdom) -> str:
    """The kingdom's turn summary sheet for `battle` as text, pre-filled with what it has filed."""
    form = summary_sheet_form(battle=battle, kingdom=kingdom)
    sheet = TurnSummarySheet.objects.filter(battle=battle, kingdom=kingdom).first()
    values = summary_sheet_values(sheet) if sheet is not None else {}
    labels = _Labels.of(form)
    turn = battle.turn
    other = "defender" if form.side == "attacker" else "attacker"
    lines = [
        f"{SUMMARY_KEY}: battle {battle.pk}",
        f"Campaign: {turn.campaign.name}",
        f"Turn: {turn.number}",
        f"Kingdom: {kingdom.name}",
        "Draft: no",
        f"{HELP} {side_name(battle, form.side)} against {side_name(battle, other)} in {battle.province}.",
        f"{HELP} Write yes or no, a number, or one of the words the help line gives; lines beginning with {HELP} "
        "are help.",
    ]
    if form.ladder:
        results = ", ".join(key.replace("-", " ") for key, _ in RESULT_CHOICES)
        lines += [
            f"{HELP} Battle result: {results} (Turn Summary Sheet)",
            f"Battle result: {_choice(values, 'result')}",
        ]
    if form.raid:
        lines += [
            f"{HELP} {form.raid_name} result: success, draw or failure ({form.raid_name})",
            f"{form.raid_name} result: {_choice(values, 'raid_result')}",
        ]
    lines += [
        f"{HELP} Withdrawal: did your side, or your opponent's, withdraw from the battle? (Withdrawal)",
        f"We withdrew: {_yes(values.get('withdrew'))}",
        f"Opponent withdrew: {_yes(values.get('opponent_withdrew'))}",
    ]
    if form.units:
        by_unit = {int(c["unit"]): c for c in values.get("casualties", []) if str(c.get("unit", "")).isdigit()}
        lines.append(
            f'{HELP} Casualties: each unit\'s models lost; add "; champion = yes" (standard, musician, one use '
            "used) for what else it lost (Casualty Recovery)"
        )
        for unit in form.units:
            row = by_unit.get(unit.id, {})
            lost = [f"{name.replace('_', ' ')} = yes" for name in UNIT_FLAGS if row.get(name)]
            lines.append(
                "; ".join(
                    [f"Unit: {labels.units[unit.id]}", f"models lost = {int(row.get('models_lost') or 0)}", *lost]
                )
            )
    if form.characters:
        lost = {int(c) for c in values.get("characters_lost", []) if str(c).isdigit()}
        rerolls = values.get("injury_rerolls") or {}
        choices = ", ".join(f"{key} ({label})" for key, label in REROLL_LABELS.items())
        lines.append(
            f'{HELP} Characters: removed as a casualty (Character Injury Chart); add "; injury reroll = " and a '
            f"reroll bought: {choices}"
        )
        for character in form.characters:
            reroll = rerolls.get(str(character.id))
            lines.append(
                f"Character: {labels.characters[character.id]}; removed as casualty = {_yes(character.id in lost)}"
                + (f"; injury reroll = {reroll}" if reroll else "")
            )
    if form.raiders_fought:
        lost_raiders = {normalized(str(r.get("entry", ""))): r for r in values.get("raiders") or []}
        lines.append(f"{HELP} Tomb Raiders: each entry's models killed and injured (Recovery)")
        for entry in form.raiders:
            row = lost_raiders.get(normalized(entry.name), {})
            lines.append(
                f"Tomb Raiders: {entry.name}; killed = {int(row.get('killed') or 0)}; "
                f"injured = {int(row.get('injured') or 0)}"
            )
    if form.may_loot:
        lines += [
            f"{HELP} Looting: none, loot or sack the town or city if you won (Looting)",
            f"Loot: {values.get('loot_choice') or NONE}",
        ]
    lines += [
        f"{HELP} Money negotiations for the turn (raids, bribes, loans ...): the gold you pay your opponent, "
        "and a note",
        f"Money negotiations gold: {int(values.get('negotiation_gold') or 0)}",
        f"Money negotiations note: {values.get('negotiation_note') or ''}",
    ]
    if form.opponent_skaven:
        lines += [
            f"{HELP} Backstabbers: force a reroll of one character injury test (Army-Specific Rules)",
            f"Backstab: {_yes(values.get('backstab'))}",
        ]
    if form.heirs:
        heir = values.get("warlord_heir")
        heirs = ", ".join(labels.characters[c.id] for c in form.heirs if c.id in labels.characters)
        lines += [
            f"{HELP} Warlord: the General who succeeds if the Warlord dies and Generals tie: none, {heirs}",
            f"Warlord heir: {labels.characters.get(int(heir), NONE) if heir else NONE}",
        ]
    lines += _army_flags(
        "Allied support withdrawn",
        "withdrawn",
        "Allies: an ally's detachment that withdrew its support (Allies, Withdraw of support)",
        armies=form.allied_detachments,
        chosen=values.get("support_withdrawn"),
        labels=labels,
    )
    if form.enemy_carts:
        lines.append(f"{HELP} Supply Depot: a cart captured: the army that brought it, and yours that took it")
        for row in values.get("depots_captured") or []:
            lines.append(
                f"Cart captured: army = {labels.armies.get(int(row['army']), '#' + str(row['army']))}; "
                f"by = {labels.armies.get(int(row['by']), '#' + str(row['by']))}"
            )
    lines += _army_flags(
        "Cart recaptured",
        "recaptured",
        "Supply Depot: your army's cart recaptured before the game ended",
        armies=form.own_carts,
        chosen=values.get("carts_recaptured"),
        labels=labels,
    )
    if form.ally:
        lines += [
            f"{HELP} Allies, Announcement: announce the end of your alliance with {form.ally}",
            f"Announce end of alliance: {_yes(values.get('announce_alliance_end', form.alliance_end_announced))}",
        ]
    lines += [f"{HELP} Stories Are Nice: the story's bonus experience to this army; keep the story out of the bulletin"]
    if form.skirmish and form.story_armies:
        story_army = values.get("story_army")
        lines += [
            f"{HELP} The army that takes the Tomb Raiders' story's experience: "
            + ", ".join(labels.armies[a] for a in form.story_armies),
            f"Story army: {labels.armies.get(int(story_army)) if story_army else NONE}",
        ]
    lines += [
        f"Story bonus: {_yes(values.get('story_bonus'))}",
        f"Story private: {_yes(values.get('story_private'))}",
        f"{HELP} Your battle report: every line after the Story line (optional).",
        f"{STORY_KEY}:",
    ]
    story = str(values.get("story") or "")
    return sheet_text_joined(lines) + (story + "\n" if story else "")


def _army_flags(
    key: str, flag: str, help_text: str, *, armies: Mapping[int, Any], chosen: Any, labels: _Labels
) -> list[str]:
    """A line for each of `armies`, saying yes or no to `flag` (those in `chosen`, ids), after its help."""
    if not armies:
        return []
    ids = {int(a) for a in chosen or [] if str(a).isdigit()}
    return [f"{HELP} {help_text}"] + [f"{key}: {labels.armies[a]}; {flag} = {_yes(a in ids)}" for a in armies]


def _choice(values: Mapping[str, Any], key: str) -> str:
    return str(values.get(key) or "").replace("-", " ") or NONE


@dataclass
class _Read:
    data: dict[str, Any]
    draft: bool
    lines: dict[str, int]  # normalized key -> its first line
    labelled: dict[str, int]  # a unit's, character's or entry's label (normalized) -> its line


def summary_sheet_text_read(text: str, form: SummarySheetForm) -> _Read:
    """The data `summary_sheet_clean` takes, from the text. Raises DomainError with every line it
    cannot read."""
    labels = _Labels.of(form)
    problems: list[str] = []
    data: dict[str, Any] = {
        "casualties": [],
        "characters_lost": [],
        "injury_rerolls": {},
        "raiders": [],
        "support_withdrawn": [],
        "depots_captured": [],
        "carts_recaptured": [],
    }
    read = _Read(data, draft=False, lines={}, labelled={})
    results = {normalized(k.replace("-", " ")): k for k, _ in RESULT_CHOICES} | {
        normalized(label): k for k, label in RESULT_CHOICES
    }
    raid_results = {normalized(k): k for k, _ in RAID_RESULT_CHOICES}
    text_lines = text.splitlines()
    for line in sheet_text_lines(text, every=True):
        number, key, value = line.number, line.key, line.value
        read.lines.setdefault(key, number)
        if key == normalized(STORY_KEY):
            data["story"] = "\n".join([value, *text_lines[number:]] if value else text_lines[number:]).strip()
            break
        try:
            if not line.colon:
                raise ValueError(f'"{line.text[:60]}" is no line of a turn summary sheet (a line is "key: value").')
            _line_read(key, value, form, labels, data, read, number, results, raid_results)
        except ValueError as exc:
            problems.append(f"Line {number}: {exc}")
    if problems:
        raise DomainError(problems_shown(problems))
    return read


def _flag(value: str) -> bool:
    text = normalized(value)
    if text in YES:
        return True
    if text in NO:
        return False
    raise ValueError(f'"{value[:40]}": write yes or no.')


def _number(value: str) -> int:
    number = whole_number(normalized(value))
    if number is None:
        raise ValueError(f'"{value[:40]}": write a whole number.')
    return number


def _pairs(value: str) -> tuple[str, dict[str, str]]:
    """ "Halberdiers (Wardens); models lost = 10; champion = yes": the label and its fields."""
    label, *rest = value.split(";")
    fields: dict[str, str] = {}
    for part in rest:
        name, equals, written = part.partition("=")
        if not equals:
            raise ValueError(f'"{part.strip()[:40]}": write each field as "name = value", separated by ";".')
        fields[normalized(name)] = written.strip()
    return label.strip(), fields


def _line_read(  # noqa: C901 (one branch per line of the sheet)
    key: str,
    value: str,
    form: SummarySheetForm,
    labels: _Labels,
    data: dict[str, Any],
    read: _Read,
    number: int,
    results: dict[str, str],
    raid_results: dict[str, str],
) -> None:
    if key in (normalized(SUMMARY_KEY), "campaign", "turn", "kingdom", "kingdom played", "player name"):
        return
    if key == "draft":
        read.draft = _flag(value)
    elif key == "battle result":
        data["result"] = results.get(normalized(value.replace("-", " ")), value) if normalized(value) != NONE else ""
    elif key == normalized(f"{form.raid_name} result") or key == "tomb raid result":
        data["raid_result"] = raid_results.get(normalized(value), value) if normalized(value) != NONE else ""
    elif key == "we withdrew":
        data["withdrew"] = _flag(value)
    elif key == "opponent withdrew":
        data["opponent_withdrew"] = _flag(value)
    elif key == "unit":
        label, fields = _pairs(value)
        unit = labels.find("units", label)
        if unit is None:
            raise ValueError(f'"{label[:60]}" is not one of your units in this battle.')
        read.labelled[normalized(labels.units.get(unit, label))] = number
        data["casualties"].append(
            {
                "unit": unit,
                "models_lost": _number(fields.get("models lost", "0")),
                **{name: _flag(fields.get(name.replace("_", " "), "no")) for name in UNIT_FLAGS},
            }
        )
    elif key == "character":
        label, fields = _pairs(value)
        character = labels.find("characters", label)
        if character is None:
            raise ValueError(f'"{label[:60]}" is not one of your characters in this battle.')
        read.labelled[normalized(labels.characters.get(character, label))] = number
        if _flag(fields.get("removed as casualty", "no")):
            data["characters_lost"].append(character)
        reroll = normalized(fields.get("injury reroll", NONE))
        if reroll != NONE:
            data["injury_rerolls"][str(character)] = reroll
    elif key == "tomb raiders":
        label, fields = _pairs(value)
        read.labelled[normalized(label)] = number
        data["raiders"].append(
            {
                "entry": label,
                "killed": _number(fields.get("killed", "0")),
                "injured": _number(fields.get("injured", "0")),
            }
        )
    elif key == "loot":
        data["loot_choice"] = "" if normalized(value) == NONE else normalized(value)
    elif key == "money negotiations gold":
        data["negotiation_gold"] = _number(value)
    elif key == "money negotiations note":
        data["negotiation_note"] = value
    elif key == "backstab":
        data["backstab"] = _flag(value)
    elif key == "warlord heir":
        data["warlord_heir"] = "" if normalized(value) == NONE else _found(labels, "characters", value, "General")
    elif key == "allied support withdrawn":
        label, fields = _pairs(value)
        if _flag(fields.get("withdrawn", "yes")):
            data["support_withdrawn"].append(_found(labels, "armies", label, "army"))
    elif key == "cart captured":
        _, fields = _pairs("; " + value)
        data["depots_captured"].append(
            {
                "army": _found(labels, "armies", fields.get("army", ""), "army"),
                "by": _found(labels, "armies", fields.get("by", ""), "army"),
            }
        )
    elif key == "cart recaptured":
        label, fields = _pairs(value)
        if _flag(fields.get("recaptured", "yes")):
            data["carts_recaptured"].append(_found(labels, "armies", label, "army"))
    elif key == "announce end of alliance":
        data["announce_alliance_end"] = _flag(value)
    elif key == "story army":
        data["story_army"] = "" if normalized(value) == NONE else _found(labels, "armies", value, "army")
    elif key == "story bonus":
        data["story_bonus"] = _flag(value)
    elif key == "story private":
        data["story_private"] = _flag(value)
    else:
        raise ValueError(f'"{key}: {value[:40]}" is no line of a turn summary sheet.')


def _found(labels: _Labels, kind: str, written: str, what: str) -> int:
    found = labels.find(kind, written)
    if found is None:
        raise ValueError(f'no {what} of this battle is named "{written[:60]}".')
    return found


# Where a problem of the check is: the line its words begin with (or the unit's or character's it names).
PROBLEM_KEYS = {
    "Battle result": "battle result",
    "Looting": "loot",
    "Money negotiations": "money negotiations gold",
    "Battle report": "story bonus",
    "Backstabbers": "backstab",
    "Warlord": "warlord heir",
    "Withdrawal of support": "allied support withdrawn",
    "Supply depots captured": "cart captured",
    "Carts recaptured": "cart recaptured",
    "Announce the end of the alliance": "announce end of alliance",
    "Tomb Raid": "tomb raid result",
    "Casualties": "unit",
    "Characters": "character",
    "Injury rerolls": "character",
    "Tomb Raiders": "tomb raiders",
}


def _on_line(message: str, read: _Read) -> str:
    named = [line for label, line in read.labelled.items() if label and label in normalized(message)]
    line = named[0] if named else read.lines.get(PROBLEM_KEYS.get(message.partition(":")[0], ""))
    return f"Line {line}: {message}" if line is not None else message


def summary_sheet_text_file(
    *,
    user: AbstractBaseUser,
    header: dict[str, str],
    text: str,
    arrived_at: dt.datetime,
    subject: str = "",
    notes: Sequence[str] = (),
) -> TextFiling:
    """File a turn summary sheet from text for the user's kingdom, a side of the battle its header
    names; a draft when it says "Draft: yes" or the subject says draft. Refused whole, or saved."""
    written = header.get(normalized(SUMMARY_KEY), "")
    match = re.search(r"\d+", written)
    number = whole_number(match.group()) if match else None
    battle = (
        Battle.objects.select_related("turn__campaign", "province").filter(pk=number).first()
        if number is not None
        else None
    )
    own = (
        Kingdom.objects.filter(players=user, campaign=battle.turn.campaign).order_by("id").first()
        if battle is not None
        else None
    )
    if battle is None or own is None or own.pk not in battle.filing_kingdom_ids():
        lines = [f'You fought no battle "{written[:60]}": no sheet was saved.', *notes]
        return _answer(user=user, subject="Turn summary sheet refused", lines=lines, battle=None)
    campaign, title = battle.turn.campaign.name, f"turn summary sheet for the battle in {battle.province}"
    if header.get("kingdom") and normalized(header["kingdom"]) != normalized(own.name):
        lines = [
            f'You are not a player of "{header["kingdom"][:100]}": you file the sheet of {own.name} only. '
            "Nothing was saved.",
            *notes,
        ]
        return _answer(user=user, subject=sheet_text_subject(campaign, f"{title}: refused"), lines=lines, battle=battle)
    read: _Read | None = None
    try:
        form = summary_sheet_form(battle=battle, kingdom=own)
        read = summary_sheet_text_read(text, form)
        draft = read.draft or subject_says_draft(subject, campaign, own.name, str(battle.province))
        sheet = summary_sheet_save(
            battle=battle,
            kingdom=own,
            data=read.data,
            entered_by=user,
            submit=not draft,
            arrived_at=arrived_at,
            receipt_notes=[FILED_BY_EMAIL, *notes],
        )
    except DomainError as exc:
        lines = [
            "Your turn summary sheet was refused, and nothing was saved. Mend these and send it again:",
            *[_on_line(m, read) if read is not None else m for m in exc.messages],
            *notes,
        ]
        return _answer(user=user, subject=sheet_text_subject(campaign, f"{title}: refused"), lines=lines, battle=battle)
    if not draft:
        # Submitted: the answer is the receipt the site sends too (to the kingdom's players), not a second email.
        receipt = sheet.receipt_email
        if receipt is not None:
            return TextFiling(accepted=True, subject=receipt.subject, lines=receipt.text.splitlines(), email=receipt)
    filed = summary_sheet_filed(sheet)
    state = "saved as a draft: it is NOT submitted" if draft else "submitted"
    lines = [
        f"The turn summary sheet of {own.name} for the battle in {battle.province} is {state}.",
        f"Battle result: {filed['result'] or 'none'}",
        *[
            f"{c['unit']}: {c['models_lost']} models lost{', ' + c['also'] if c['also'] else ''}"
            for c in filed["casualties"]
        ],
        *[f"Character removed as a casualty: {c}" for c in filed["characters_lost"]],
        *([f"Tomb Raid: {filed['raid_result']}"] if filed["raid_result"] else []),
        *filed["raiders"],
        *filed["depots"],
        FILED_BY_EMAIL,
        *notes,
    ]
    what = "draft saved" if draft else "submitted"
    return _answer(
        user=user, subject=sheet_text_subject(campaign, f"{title}: {what}"), lines=lines, battle=battle, accepted=True
    )


def _answer(
    *, user: AbstractBaseUser, subject: str, lines: list[str], battle: Battle | None, accepted: bool = False
) -> TextFiling:
    email = sheet_answer_queue(
        user=user,
        subject=subject,
        lines=lines,
        campaign_id=battle.turn.campaign_id if battle else None,
        turn_id=battle.turn_id if battle else None,
    )
    return TextFiling(accepted=accepted, subject=subject, lines=lines, email=email)
