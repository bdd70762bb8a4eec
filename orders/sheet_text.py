"""The order sheet as text a person edits in any mail client, and the text read back into a sheet
(pure Python, on the one sheet codec: `orders.entries`).

The text follows the rulebook's Order Sheet (Appendix): a few header lines say what the sheet is
("Campaign:", "Turn:", "Kingdom:", "Draft:"), then one block per army beginning "Army name /
number:" with its order in the rulebook's words ("Move into Province # 14", "Raze and Hold in
Province # 12" ...) and its standing choices, then every other part of the sheet (`SheetEntries`),
one line per entry, "Create army: name = Second Army; points = 500; province = 12". Each part has a
line of help; lines beginning with "#" are help and are ignored when the text is read, as are blank
lines. Armies, kingdoms and characters are written by name, provinces by number; names are read
whatever their case and spacing, and "#<id>" names any of them by its number.

Writing goes through `sheet_to_json` and reading ends with `sheet_from_json`, so the parts and their
fields are the codec's (`SECTIONS`): a field added to a record is written and read here with no other
change, and a new part needs only its label and help in `PARTS` (the round-trip test fails without).
`sheet_text_read` reports every line it cannot read, by number; the sheet check's problems are placed
on the lines of the armies and entries they name (`SheetText.line_of`).
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from briternia.errors import DomainError
from briternia.fields import COLUMN_MAX
from rulebook.experience.spending import PurchaseKind
from rulebook.turn.write_orders.records import OrderKind, SheetEntries

from .entries import (
    BOOL,
    INT,
    INT_LIST,
    INT_OR_NULL,
    SECTIONS,
    SHEET_LIST_MAX,
    SheetCodecError,
    sheet_from_json,
    sheet_list_too_long,
    sheet_to_json,
)

HELP = "#"
HELP_WIDTH = 72  # mail clients break lines longer than about 76 characters
ARMY_KEY = "Army name / number"
HEADER_KEYS = {"campaign": "Campaign", "turn": "Turn", "kingdom": "Kingdom", "draft": "Draft"}
# Other words for the header's keys (the rulebook's Order Sheet says "Kingdom played").
HEADER_ALIASES = {"kingdom played": "kingdom", "player name": "player", "player": "player"}
SUMMARY_KEY = "Turn summary sheet"


@dataclass(frozen=True)
class PartText:
    """How a part of the sheet (other than the army orders) is written: the word that begins each of
    its lines, and its line of help (the rulebook's section in brackets)."""

    label: str
    help: str


PARTS: dict[str, PartText] = {
    "creations": PartText(
        "Create army",
        "a new army: its name, its points and the Province # it is raised in (3. Create / Upgrade Armies)",
    ),
    "upgrades": PartText("Upgrade army", "an army and its new size in points (3. Create / Upgrade Armies)"),
    "depots": PartText("Buy supply depot", "the army that buys a Supply Depot (Supply Depot)"),
    "garrisons": PartText("Reinforce garrison", "the Province # of a town or city whose garrison you reinforce"),
    "losses": PartText("Losses first", "the unit of the army's list that takes its losses first (Foraging Table)"),
    "purchases": PartText(
        "Purchase",
        f"what an army buys with its experience: kind = {', '.join(PurchaseKind.ALL)}, with the unit, models, "
        "points, name and category it needs (Spending Experience)",
    ),
    "alliances": PartText("Declare alliance", "the kingdom you ally with; both must declare it (Allies)"),
    "alliance_ends": PartText(
        "End alliance", "refused on an order sheet: announce the end on the turn summary sheet (Allies, Announcement)"
    ),
    "gold_transfers": PartText("Transfer gold", "gold sent to a kingdom; you pay 10% more (Transfer of Gold)"),
    "item_transfers": PartText("Transfer item", "a magic item sent to a kingdom (Transfer of Gold)"),
    "land_deals": PartText(
        "Land deal",
        "your side of a deal with a kingdom: the Province # you give (none) and the gold you pay (Land Sales)",
    ),
    "capitol_moves": PartText(
        "Move capitol", "the city (Province #) your Warlord moves the capitol to (Loss of the Capitol)"
    ),
    "missions": PartText(
        "Tomb Raider mission",
        "kind = tomb-raid (province = the ruin's Province #), reconnaissance or sabotage (target kingdom, desired "
        "mission, target army or character) (Using Tomb Raiders)",
    ),
    "mission_uses": PartText("Use mission effect", "an effect your missions earned, and the army it acts on"),
    "captive_orders": PartText("Captive", "a captured Tomb Raider and his fate: released or executed"),
}

# The fields that name an army, a kingdom or a character (by name in the text, by id in the sheet).
REFERENCES = {
    "army": "armies",
    "target_army": "armies",
    "kingdom": "kingdoms",
    "target_kingdom": "kingdoms",
    "target_character": "characters",
}

# The army orders in the rulebook's words. Orders that stay name the Province # the army stands in;
# moving orders the Province # they go into; a Forced March the two it marches through.
ORDER_WORDS: dict[OrderKind, str] = {
    OrderKind.HOLD: "Hold in Province #",
    OrderKind.RAZE_HOLD: "Raze and Hold in Province #",
    OrderKind.RAZE_MOVE: "Raze and Move into Province #",
    OrderKind.MOVE: "Move into Province #",
    OrderKind.SUPPORT: "Support battles in Province #",
    OrderKind.FORCED_MARCH: "Forced March through Province #",
    OrderKind.FORTIFY: "Fortify in Province #",
    OrderKind.RECOVER: "Recover Province #",
    OrderKind.SCARAB_AMULET: "Scarab Amulet in Province #",
}
STAYING = frozenset(
    {OrderKind.HOLD, OrderKind.RAZE_HOLD, OrderKind.FORTIFY, OrderKind.RECOVER, OrderKind.SCARAB_AMULET}
)
# Read longest first: "raze and move" before "move".
ORDER_PATTERNS = [
    (OrderKind.RAZE_HOLD, re.compile(r"^raze (and )?hold\b")),
    (OrderKind.RAZE_MOVE, re.compile(r"^raze (and )?move\b")),
    (OrderKind.FORCED_MARCH, re.compile(r"^forced march\b")),
    (OrderKind.SCARAB_AMULET, re.compile(r"^scarab( amulet)?\b")),
    (OrderKind.MOVE, re.compile(r"^move\b")),
    (OrderKind.SUPPORT, re.compile(r"^support\b")),
    (OrderKind.FORTIFY, re.compile(r"^fortify\b")),
    (OrderKind.RECOVER, re.compile(r"^recover\b")),
    (OrderKind.HOLD, re.compile(r"^hold\b")),
]
# An army's lines after its order: (the key in the text, the order's field, its help).
ARMY_LINES = (
    ("Also support battles in Province #", "support", "a battle in a bordering province this army supports"),
    ("Foraging disaster", "disaster_choice", "casualties or disband (Foraging Table, 2: Disaster)"),
    ("Pay for supply depot", "pay_for_depot", "yes or no (Foraging Table)"),
    ("Defend with", "defend_with", "army or garrison, if attacked in a town, city or capitol of yours"),
    (
        "Take control of allied provinces",
        "take_control",
        "yes or no: a backstab breaks the alliance (Allies, Invasion)",
    ),
)
YES = ("yes", "y", "true", "on", "1")
NO = ("no", "n", "false", "off", "0", "")


@dataclass(frozen=True)
class SheetNames:
    """The names the text writes for ids: armies (every army the kingdom can see; its own are
    `own_armies`, preferred when two share a name), kingdoms and characters; and where the kingdom's
    armies stand (army id -> Province #), written after the orders that stay."""

    armies: Mapping[int, str] = field(default_factory=dict)
    own_armies: frozenset[int] = frozenset()
    kingdoms: Mapping[int, str] = field(default_factory=dict)
    characters: Mapping[int, str] = field(default_factory=dict)
    positions: Mapping[int, int] = field(default_factory=dict)
    # The kingdom of each army a rival's (army id -> kingdom id): a name two rivals' armies share is
    # read as the army of the kingdom the entry names (a mission's target kingdom).
    army_kingdoms: Mapping[int, int] = field(default_factory=dict)

    def name(self, kind: str, value: int | None) -> str:
        if value is None:
            return "none"
        named = getattr(self, kind).get(value)
        return named if named and _readable(named) else f"#{value}"

    def find(self, kind: str, written: str, *, own: bool | None = None, kingdom: int | None = None) -> int | None:
        """The id `written` names: "#<id>" (or bare digits not a name), else a name whatever its case
        and spacing; of several, the kingdom's own army first (own=True) or another's (own=False), and
        of those the army of `kingdom` first."""
        key = normalized(written)
        found = [pk for pk, name in getattr(self, kind).items() if normalized(name) == key]
        if found:
            if own is not None and kind == "armies":
                found.sort(key=lambda pk: ((pk in self.own_armies) != own, self.army_kingdoms.get(pk) != kingdom))
            return found[0]
        return whole_number(key.removeprefix("#").strip())


@dataclass(frozen=True)
class SheetLine:
    """A line of a sheet's text that says something: its number, "key: value" (the key normalized;
    `colon` False for a line without one, whose `text` is all it holds)."""

    number: int
    key: str
    value: str
    colon: bool = True
    text: str = ""


@dataclass(frozen=True)
class SheetText:
    """A text read back: its header (normalized key -> value as written), the entries, whether it is a
    draft, and the line of each army's block and each entry (for the answer's problems)."""

    header: dict[str, str]
    entries: SheetEntries
    draft: bool
    army_lines: dict[int, int]
    entry_lines: dict[tuple[str, int], int]

    def line_of(self, problem: Mapping[str, Any]) -> int | None:
        """The line a problem of the check (its data: order_sheet_problems_data) is about."""
        if problem.get("part") is not None and problem.get("entry") is not None:
            return self.entry_lines.get((problem["part"], problem["entry"]))
        if problem.get("creation") is not None:
            return self.entry_lines.get(("creations", problem["creation"]))
        for army in [problem.get("army"), *(problem.get("armies") or [])]:
            if army in self.army_lines:
                return self.army_lines[army]
        return None


class SheetTextError(DomainError):
    """The text is no order sheet: every line that cannot be read, "Line 7: ..."."""


def whole_number(text: str) -> int | None:
    """A whole number written in ASCII digits (commas between thousands allowed), no more than a
    column holds; else None."""
    digits = text.replace(",", "")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > len(str(COLUMN_MAX)):
        return None
    return int(digits) if int(digits) <= COLUMN_MAX else None


PROBLEMS_SHOWN = 50  # a mail of a thousand bad lines is answered with the first of them


def problems_shown(problems: list[str]) -> list[str]:
    """The first PROBLEMS_SHOWN problems, and how many more there are."""
    if len(problems) <= PROBLEMS_SHOWN:
        return problems
    return [*problems[:PROBLEMS_SHOWN], f"... and {len(problems) - PROBLEMS_SHOWN} more lines that cannot be read."]


def normalized(text: str) -> str:
    return " ".join(text.replace("_", " ").split()).casefold()


def _readable(name: str) -> bool:
    """A name the text can carry as it is (else it is written as its id)."""
    return bool(name.strip()) and name == " ".join(name.split()) and not name.startswith("#") and ";" not in name


# Writing.


def sheet_text_write(*, header: Mapping[str, Any], entries: SheetEntries, names: SheetNames) -> str:
    """The sheet as text: `header` (Campaign, Turn, Kingdom, Draft ...: written in that order), one
    block per army order, then every other part, each with its line of help."""
    data = sheet_to_json(entries)
    lines = [f"{HEADER_KEYS.get(key, key.capitalize())}: {value}" for key, value in header.items()]
    lines += [
        "",
        f"{HELP} Army orders (Appendix: Order Sheet; 4. Write Orders): one block per army, beginning with its name. "
        "Order: Hold, Raze and Hold, Fortify, Recover (in the Province # it stands in), Move or Raze and Move "
        "into Province # N, Support battles in Province # N, Forced March through Province # A, B. A Move or a "
        f'Forced March may support a battle too: add the line "{ARMY_LINES[0][0]}: N" (Move and / or Support).',
    ]
    for index, (order, raw) in enumerate(zip(entries.orders, data["orders"], strict=True)):
        lines += _army_block(order, raw, names, help_lines=index == 0)
    for name, section in SECTIONS.items():
        if name == "orders":
            continue
        part = PARTS[name]
        keys = "; ".join(f"{f.name.replace('_', ' ')} = ..." for f in section.fields)
        lines += ["", f"{HELP} {part.label}: {part.help}.", f"{HELP} {part.label}: {keys}"]
        for raw in data[name]:
            lines.append(f"{part.label}: {_entry_text(section, raw, names)}")
    return sheet_text_joined(lines)


def sheet_text_joined(lines: list[str]) -> str:
    """The lines as one text, each line of help wrapped to HELP_WIDTH: a mail client that breaks long
    lines when it sends a reply must not turn the end of a help line into a line of the sheet."""
    out: list[str] = []
    for line in lines:
        if line.startswith(HELP) and len(line) > HELP_WIDTH:
            out += textwrap.wrap(
                line.removeprefix(HELP).strip(),
                HELP_WIDTH,
                initial_indent=f"{HELP} ",
                subsequent_indent=f"{HELP} ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def _army_block(order: Any, raw: Mapping[str, Any], names: SheetNames, *, help_lines: bool) -> list[str]:
    kind = order.kind
    if kind in STAYING:
        where = names.positions.get(order.army)
        words = ORDER_WORDS[kind] + (f" {where}" if where is not None else "")
    elif kind is OrderKind.FORCED_MARCH:
        words = ORDER_WORDS[kind] + (" " + ", ".join(str(p) for p in order.path) if order.path else "")
    elif kind is OrderKind.SUPPORT:
        words = ORDER_WORDS[kind] + (f" {order.support}" if order.support is not None else "")
    else:
        words = ORDER_WORDS[kind] + (f" {order.target}" if order.target is not None else "")
    lines = ["", f"{ARMY_KEY}: {names.name('armies', order.army)}", f"Order: {words}"]
    for key, attribute, help_text in ARMY_LINES:
        value = raw[attribute]
        if attribute == "support" and (kind is OrderKind.SUPPORT or value is None):
            continue
        if help_lines:
            lines.append(f"{HELP} {key}: {help_text}")
        lines.append(f"{key}: {_value_text(value)}")
    return lines


def _entry_text(section: Any, raw: Mapping[str, Any], names: SheetNames) -> str:
    pairs = []
    for f in section.fields:
        value = raw[f.name]
        if not f.required and value == f.default:
            continue  # the record's default: read back when the field is left out
        text = names.name(REFERENCES[f.name], value) if f.name in REFERENCES else _value_text(value)
        pairs.append(f"{f.name.replace('_', ' ')} = {text}")
    return "; ".join(pairs)


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, str) and (not _readable(value) or value.casefold() == "none" or '"' in value):
        return json.dumps(value, ensure_ascii=False)  # quoted: read back as it is
    return str(value)


# Reading.


def sheet_text_lines(text: str, *, every: bool = False) -> list[SheetLine]:
    """The lines that say something, "key: value" (blank and help lines left out); with `every`,
    lines without a colon too (which are no line of a sheet: the reader names them)."""
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(HELP) or (":" not in stripped and not every):
            continue
        key, colon, value = stripped.partition(":")
        lines.append(SheetLine(number, normalized(key), value.strip(), bool(colon), stripped))
    return lines


def sheet_text_header(text: str) -> dict[str, str]:
    """The header's values (campaign, turn, kingdom, draft, or a summary's battle) by normalized key:
    the first of each."""
    header: dict[str, str] = {}
    for line in sheet_text_lines(text):
        key = HEADER_ALIASES.get(line.key, line.key)
        if key in HEADER_KEYS or key in ("player", normalized(SUMMARY_KEY)):
            header.setdefault(key, line.value)
    return header


def sheet_text_read(text: str, names: SheetNames) -> SheetText:
    """The sheet the text holds. Raises SheetTextError with every line it cannot read."""
    problems: list[str] = []
    header: dict[str, str] = {}
    data: dict[str, list[dict[str, Any]]] = {name: [] for name in SECTIONS}
    army_lines: dict[int, int] = {}
    entry_lines: dict[tuple[str, int], int] = {}
    by_label = {normalized(part.label): name for name, part in PARTS.items()}
    army_keys = {normalized(key): attribute for key, attribute, _ in ARMY_LINES}
    current: dict[str, Any] | None = None  # the army block being read
    too_long: set[str] = set()  # the parts with more lines than a sheet's list takes
    for line in sheet_text_lines(text, every=True):
        number, key, value, stripped = line.number, line.key, line.value, line.text
        where = f"Line {number}"
        if not line.colon:
            problems.append(f'{where}: {_shown(stripped)} is no line of an order sheet (a line is "key: value").')
            continue
        header_key = HEADER_ALIASES.get(key, key)
        if header_key in HEADER_KEYS or header_key == "player":
            if header_key in header and header[header_key] != value and header_key != "player":
                problems.append(f"{where}: {HEADER_KEYS[header_key]} is said twice.")
            header.setdefault(header_key, value)
            current = None
            continue
        if key in (normalized(ARMY_KEY), "army", "army name", "army number"):
            army = names.find("armies", value, own=True)
            if army is None:
                own = ", ".join(names.armies[a] for a in sorted(names.own_armies) if a in names.armies)
                problems.append(f"{where}: no army of yours is named {_shown(value)} (your armies: {own or 'none'}).")
                current = None
                continue
            if army in army_lines:
                problems.append(f"{where}: {names.name('armies', army)} has a block already (line {army_lines[army]}).")
                current = None
                continue
            current = {"army": army}
            army_lines[army] = number
            entry_lines[("orders", len(data["orders"]))] = number
            data["orders"].append(current)
            continue
        if key == "order" or key in army_keys:
            if current is None:
                problems.append(
                    f'{where}: {_shown(stripped)} belongs in an army\'s block, after its "{ARMY_KEY}:" line.'
                )
                continue
            problem = (
                _order_read(current, value, names)
                if key == "order"
                else _army_choice_read(current, army_keys[key], value)
            )
            if problem:
                problems.append(f"{where}: {problem}")
            continue
        part = by_label.get(key)
        if part is None:
            problems.append(f"{where}: {_shown(stripped)} is no line of an order sheet.")
            continue
        current = None
        if len(data[part]) >= SHEET_LIST_MAX:
            # Decision 593: the API's bound, refused whole, and the lines past it not read.
            if part not in too_long:
                too_long.add(part)
                problems.append(f"{where}: {sheet_list_too_long(PARTS[part].label)}")
            continue
        try:
            entry = _entry_read(part, value, names)
        except ValueError as exc:
            problems.append(f"{where} ({PARTS[part].label}): {exc}")
            continue
        entry_lines[(part, len(data[part]))] = number
        data[part].append(entry)
    draft = False
    if "draft" in header:
        if normalized(header["draft"]) in YES:
            draft = True
        elif normalized(header["draft"]) not in NO:
            problems.append(f"Draft: {_shown(header['draft'])}: write yes or no.")
    if problems:
        raise SheetTextError(problems_shown(problems))
    try:
        entries = sheet_from_json(data)
    except SheetCodecError as exc:
        raise SheetTextError(_codec_problem(exc, entry_lines)) from None
    return SheetText(header=header, entries=entries, draft=draft, army_lines=army_lines, entry_lines=entry_lines)


def _order_read(current: dict[str, Any], value: str, names: SheetNames) -> str:
    words = normalized(value).replace("&", "and")
    kind = next((k for k, pattern in ORDER_PATTERNS if pattern.search(words)), None)
    if kind is None:
        return (
            f"{_shown(value)} is no order: write Hold, Raze and Hold, Raze and Move, Move, Support, Forced March, "
            "Fortify or Recover (4. Write Orders)."
        )
    numbers = [whole_number(n) for n in re.findall(r"\d+", words)]
    if None in numbers:
        return f"{_shown(value)}: a Province # is a number of the map."
    current["kind"] = kind.value
    army = names.name("armies", current["army"])
    if kind in STAYING:
        here = names.positions.get(current["army"])
        if numbers and here is not None and numbers != [here]:
            return (
                f"{army} stands in Province # {here}: an order to {kind.label.lower()} is given where the army "
                f"stands (to go into Province # {numbers[0]}, Move into it)."
            )
    elif kind is OrderKind.FORCED_MARCH:
        current["path"] = numbers
    elif len(numbers) > 1:
        return f"{kind.label} names one Province #, not {len(numbers)}."
    elif kind is OrderKind.SUPPORT:
        current["support"] = numbers[0] if numbers else None
    else:
        current["target"] = numbers[0] if numbers else None
    return ""


def _army_choice_read(current: dict[str, Any], attribute: str, value: str) -> str:
    field_ = next(f for f in SECTIONS["orders"].fields if f.name == attribute)
    try:
        current[attribute] = _value_read(field_.kind, value)
    except ValueError as exc:
        return str(exc)
    return ""


def _entry_read(part: str, value: str, names: SheetNames) -> dict[str, Any]:
    section = SECTIONS[part]
    by_key = {normalized(f.name): f for f in section.fields}
    entry: dict[str, Any] = {}
    rest = value.strip()
    while rest:
        key, equals, rest = rest.partition("=")
        if not equals:
            raise ValueError(f'{_shown(key.strip())}: write each field as "name = value", separated by ";".')
        f = by_key.get(normalized(key))
        if f is None:
            raise ValueError(
                f"{_shown(key.strip())} is no field of it "
                f"(its fields: {', '.join(n.replace('_', ' ') for n in section.keys)})."
            )
        rest = rest.lstrip()
        if rest.startswith('"'):
            try:
                written, end = json.JSONDecoder().raw_decode(rest)
            except json.JSONDecodeError:
                raise ValueError(f"{f.name.replace('_', ' ')}: the quoted value has no end.") from None
            rest = rest[end:].lstrip()
            if rest and not rest.startswith(";"):
                raise ValueError(f'{f.name.replace("_", " ")}: a ";" comes after the quoted value.')
            rest = rest[1:]
            entry[f.name] = written
            continue
        written, _, rest = rest.partition(";")
        written = written.strip()
        if f.name in REFERENCES:
            kingdom = entry.get("target_kingdom")  # read before the rival's army it names (the codec's order)
            entry[f.name] = _reference_read(REFERENCES[f.name], f.name, written, names, kingdom=kingdom)
        else:
            try:
                entry[f.name] = _value_read(f.kind, written)
            except ValueError as exc:
                raise ValueError(f"{f.name.replace('_', ' ')}: {exc}") from None
    return entry


def _reference_read(kind: str, name: str, written: str, names: SheetNames, *, kingdom: int | None = None) -> int | None:
    if normalized(written) in ("", "none"):
        return None
    found = names.find(kind, written, own=name == "army", kingdom=kingdom)
    if found is None:
        what = {"armies": "army", "kingdoms": "kingdom", "characters": "character"}[kind]
        # Only what the kingdom may name (SheetNames: its own armies, the rivals' the rules have shown).
        known = ", ".join(sorted(set(getattr(names, kind).values())))
        raise ValueError(f"{name.replace('_', ' ')}: no {what} is named {_shown(written)} (known: {known or 'none'}).")
    return found


def _value_read(kind: str, written: str) -> Any:
    text = normalized(written)
    if kind == BOOL:
        if text in YES:
            return True
        if text in NO:
            return False
        raise ValueError(f"{_shown(written)}: write yes or no.")
    if kind in (INT, INT_OR_NULL):
        if kind == INT_OR_NULL and text in ("", "none"):
            return None
        number = whole_number(text)
        if number is None:
            raise ValueError(f"{_shown(written)}: write a whole number (0 to {COLUMN_MAX:,}).")
        return number
    if kind == INT_LIST:
        numbers = [whole_number(n.strip()) for n in text.replace("#", "").split(",") if n.strip()]
        if None in numbers:
            raise ValueError(f"{_shown(written)}: write numbers separated by commas.")
        return numbers
    return written.strip()  # a string (its choices are the codec's to check)


def _codec_problem(exc: SheetCodecError, entry_lines: Mapping[tuple[str, int], int]) -> str:
    """The codec's problem ("missions[0].kind") on the line of the entry it is about."""
    match = re.match(r"(\w+)\[(\d+)\]\.?(\w*)", exc.field)
    if match is None:
        return exc.messages[0]
    part, index, name = match.group(1), int(match.group(2)), match.group(3)
    line = entry_lines.get((part, index))
    label = "Order" if part == "orders" else PARTS[part].label
    return f"Line {line} ({label}): {name.replace('_', ' ') or 'the entry'} {exc.problem}"


def _shown(text: str) -> str:
    return json.dumps(text[:60] + ("..." if len(text) > 60 else ""), ensure_ascii=False)
