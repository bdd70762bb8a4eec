"""Database ids kept inside stored JSON and text, and how the document names them instead.

The resolution, the aftermath and the services write some ids into JSON fields (an event's data, a
battle's guerrilla and mission_detail, an effect's data); a report keeps its kingdom's armies with
their ids (its snapshot). Those ids mean nothing in another database: the document holds a kingdom
name for a kingdom id, [kingdom name, army name] for an army id, a character's unit for his id, an
effect's or captive's place in the document's lists for its id (null stays null), and null for an id
nothing reads whose row it names by no key there (DROPPED); everything else in the JSON is kept as it
is. The tables below say which keys hold ids (tests/transfer/test_event_data_ids.py holds every key
of an event's data the code writes to them); `translated` swaps them, each direction supplying its
own conversion.

An email's key holds the id of the row it was queued for ("orders-receipt:<submission id>"):
`email_key_parts` splits it, the document names that row by natural key (layout.py EMAIL_KEY_ROWS),
and the import writes the key again with the id of the row it created.

A dice roll's stream names what it rolled for, and two kinds of stream hold ids
(STREAM_REFERENCES): `stream_ids` splits them, the document names the kingdom or army instead,
and the import writes the stream again with the ids of the rows it created.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from kernel.event_codes import EventCode

from .kinds import ARMY_KEY, INT, OBJECT, STR, Kind

# How the document names a row, by the kind of reference: a foreign key's (layout.NAMED_BY) or an id's
# kept in stored JSON or text (the tables below).
USERNAME = "username"  # a user by username (null once the account is gone)
PROVINCE = "province"  # a province by number (inside JSON: a number, kept as it is, not an id)
KINGDOM = "kingdom"  # a kingdom by name
ARMY = "army"  # an army by [kingdom name, army name]
ALLIANCE = "alliance"  # an alliance by its place in the document's "alliances"
CHARACTER = "character"  # a character by his unit: {kingdom, army, unit: its place in the army's list}
UNIT = "unit"  # a unit by {kingdom, army, unit: its place in the army's list}
BATTLE = "battle"  # a battle by its place in its turn's "battles"
TURN = "turn"  # a turn by its number
REPORT = "report"  # a report by its natural key (layout.REPORTS.natural)
# An id nothing reads, of a row the document names by no key of its own where the id stands (a
# delivery, a turn summary sheet, a battle named from a campaign-wide list): the document holds null
# there, so no id of another database reaches the copy (docs/architecture.md, section 9).
DROPPED = "dropped"
# A Reconnaissance or Sabotage's effect (kingdoms.MissionEffect) and a captured Tomb Raider
# (kingdoms.CapturedRaider), as a sheet names them: by their place in the document's
# "mission_effects" and "captives" lists.
EFFECT_PLACE, CAPTIVE_PLACE = "mission_effect", "captive"
# A dice roll's stream, the text naming what it rolled for: those of STREAM_REFERENCES' prefixes hold
# ids, and the document names them by natural key (an object with the prefix, schema.STREAM_KEYS).
STREAM_ID = "stream"
# An email's key, the text holding the id of the row it was queued for: the document names the row by
# its natural key ({"prefix", "row", "suffix"}: email_key_parts).
EMAIL_KEY_ID = "email key"
# What the document holds in place of each kind of reference (the import checks it).
REFERENCE_KINDS = {
    USERNAME: STR,
    PROVINCE: INT,
    ALLIANCE: INT,
    BATTLE: INT,
    TURN: INT,
    REPORT: OBJECT,
    KINGDOM: replace(STR, label="a kingdom name"),
    ARMY: ARMY_KEY,
    CHARACTER: replace(OBJECT, label="a character's unit {kingdom, army, unit}"),
    UNIT: replace(OBJECT, label="a unit {kingdom, army, unit}"),
    STREAM_ID: Kind("a string or an object", lambda v: isinstance(v, str | dict)),
    EMAIL_KEY_ID: OBJECT,
    EFFECT_PLACE: replace(INT, label="a place in the document's mission_effects"),
    CAPTIVE_PLACE: replace(INT, label="a place in the document's captives"),
    DROPPED: Kind("null (the document keeps no such id)", lambda v: False, nullable=True),
}


@dataclass(frozen=True)
class ListOf:
    """The value is a list: of ids (a reference kind) or of objects with these references; `keys`,
    when given, the keys and kinds each object must have (a casualty's)."""

    references: Reference
    keys: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class ByIds:
    """An object keyed by ids as text (a character's id: what his injury is rerolled for), written as a
    list of {key: the name of what the id names, value: what the object holds for it}, in the ids' order."""

    reference: str
    key: str
    value: str


@dataclass(frozen=True)
class Since:
    """A reference declared with document version `version`: an older document holds the id itself
    there, as the site that wrote it had it, and is read as it is (`as_of`); the export writes null for
    such an id that names no row of the campaign (export._Names.with_names)."""

    version: int
    reference: Reference


Reference = str | ListOf | ByIds | Since | Mapping[str, "Reference"]
References = Mapping[str, Reference]

# The values of an event's data and of a battle's guerrilla that hold database ids, as the
# resolution writes them (rulebook/turn/): by event code, then key. By code, not by key
# alone: the same key means different things in different events ("from" is a province in
# "moved", a size in "army-upgraded"). Province numbers there (an event's "province",
# data["battle"], data["path"]) stay as they are.
GUERRILLA_REFERENCES: References = {"army": ARMY, "target": ARMY}  # fight_battles/guerrilla_tactics.py
RIVAL_MISSION_DATA: References = {
    "target_kingdom": KINGDOM,
    "target_army": ARMY,
    "target_character": CHARACTER,
}
# Declared with version 6 (an older document holds these ids as its site wrote them): the keys an
# audit of every event the code builds found undeclared; tests/transfer/test_event_data_ids.py reads the
# code for every key of an event's data and holds each to this table or to its list of plain data.
V6 = 6
# What a Reconnaissance delivered (ruins_and_tomb_raiders/intelligence.py, by mission): Character Bio's
# character and the army he stands in, Army Statistics' army, each war machine's and mage's army.
_ARMY_WHERE: References = {"army": ARMY}
INTELLIGENCE_INFO: References = {
    "character": CHARACTER,
    "army": ARMY,
    "where": _ARMY_WHERE,
    "machines": ListOf(_ARMY_WHERE),
    "mages": ListOf(_ARMY_WHERE),
}
# A purchase as the sheet filed it (rulebook/turn/spending.py: asdict of the Purchase): its army.
PURCHASE: References = {"purchase": Since(V6, {"army": ARMY})}
EVENT_DATA_REFERENCES: dict[str, References] = {
    EventCode.PROVINCE_CLAIMED: {"from_kingdom": KINGDOM},  # rulebook/turn/executing_orders/
    EventCode.PROVINCE_CONQUERED: {"from_kingdom": KINGDOM},  # rulebook/turn/aftermath/retreats.py
    EventCode.PROVINCE_KEPT_FOR_ALLY: {"ally": KINGDOM},  # rulebook/turn/aftermath/retreats.py
    # rulebook/turn/fight_battles/scheduling.py
    EventCode.BATTLE_SCHEDULED: {"opponent_kingdom": KINGDOM, "opponent_army": ARMY},
    # Reconnaissance and Sabotage (issue 32): the kingdoms and the armies and characters named, the
    # effects used by their place (version 6). A captive is new (a temporary negative id, naming no row)
    # in the event that captures it, by its place once its fate is settled (version 6). The Battle id
    # the aftermath writes (a mission's result, its Intelligence) is dropped (version 6); a battle's
    # province ("battle" in the other events) stays as it is.
    EventCode.RIVAL_MISSION_SENT: RIVAL_MISSION_DATA,
    EventCode.RIVAL_MISSION_NOT_SENT: RIVAL_MISSION_DATA,
    EventCode.RIVAL_MISSION_RESULT: {"target": KINGDOM, "battle": Since(V6, DROPPED)},
    EventCode.RIVAL_MISSION_REPELLED: {"spy": KINGDOM, "battle": Since(V6, DROPPED)},
    EventCode.INTELLIGENCE: {
        "target": KINGDOM,
        "target_army": ARMY,
        "effect": Since(V6, EFFECT_PLACE),
        "battle": Since(V6, DROPPED),
        "info": Since(V6, INTELLIGENCE_INFO),
    },
    EventCode.THEFT: {"saboteur": KINGDOM, "target": KINGDOM},
    EventCode.RAIDER_CAPTURED: {"captor": KINGDOM, "owner": KINGDOM},
    EventCode.CAPTIVE_FATE: {"captor": KINGDOM, "owner": KINGDOM, "captive": Since(V6, CAPTIVE_PLACE)},
    EventCode.MISDIRECTION: {"target_army": ARMY, "target": KINGDOM, "effect": Since(V6, EFFECT_PLACE)},
    EventCode.SUPPORT_CANCELLED: {"target_army": ARMY, "effect": Since(V6, EFFECT_PLACE)},
    EventCode.ARMY_ORDERS_RESPONSE: {"effect": Since(V6, EFFECT_PLACE)},
    # Sabotage (fight_battles/sabotage_effects.py, aftermath/mislabeled_goods.py): the effect, and a
    # Mislabeled Goods' item on its way, its army.
    EventCode.SABOTAGE_APPLIED: {"effect": Since(V6, EFFECT_PLACE), "delivery": Since(V6, {"army": ARMY})},
    EventCode.SABOTAGE_EXPIRED: {"effect": Since(V6, EFFECT_PLACE)},
    EventCode.RAIDERS_COMING: {"spy": KINGDOM},  # fight_battles/rival_missions.py: the target's
    EventCode.NO_BATTLE: {"target_kingdom": KINGDOM},  # fight_battles/rival_missions.py: no province to enter
    EventCode.GUERRILLA: GUERRILLA_REFERENCES,  # fight_battles/guerrilla_tactics.py: the battle's guerrilla
    # Allies (rulebook/allies/declarations.py, rulebook/turn/executing_orders/contacts.py, fight_battles/support.py).
    # The rules' alliance id ("alliance") is not stored (kingdoms/services/alliances.py without_alliance_id).
    EventCode.ALLIANCE_FORMED: {"ally": KINGDOM},
    EventCode.ALLIANCE_NOT_RECOGNISED: {"ally": KINGDOM},
    EventCode.ALLIANCE_REFUSED: {"ally": KINGDOM},
    EventCode.ALLIANCE_BROKEN: {"ally": KINGDOM, "broken_by": KINGDOM},
    EventCode.ALLIANCE_CANCELLED: {"ally": KINGDOM},
    EventCode.ALLY_PASSAGE: {"ally": KINGDOM},
    EventCode.ALLY_SUPPORT: {"ally": KINGDOM},
    EventCode.GARRISON_BESIDE_ALLY: {"ally": KINGDOM},  # fight_battles/scheduling.py (decision 580)
    EventCode.TRANSFER_SENT: {"to": KINGDOM},
    EventCode.TRANSFER_REFUSED: {"to": KINGDOM},
    EventCode.TRANSFER_ARRIVED: {"from_kingdom": KINGDOM},
    # Money negotiations as a Transfer of Gold (rulebook/turn/aftermath/negotiations.py),
    # items (resolution/transfers.py)
    EventCode.NEGOTIATION_PAID: {"to": KINGDOM},
    EventCode.NEGOTIATION_RECEIVED: {"from_kingdom": KINGDOM},
    EventCode.LAND_PRICE_PAID: {"to": KINGDOM},  # Land Sales: the price as a Transfer of Gold
    # Its "item_id" is the row the writer removed (kingdoms/services/world_write.py): no longer there, dropped.
    EventCode.ITEM_SENT: {"to": KINGDOM, "item_id": Since(V6, DROPPED)},
    EventCode.ITEM_TRANSFER_REFUSED: {"to": KINGDOM},
    EventCode.ITEM_ARRIVED: {"from_kingdom": KINGDOM},
    EventCode.DESERT_REVERSED: {"from_kingdom": KINGDOM},  # resolution/deserts.py
    EventCode.SUPPORT: {"ally": KINGDOM},
    # Joint kingdoms (orders/services/independence.py)
    EventCode.KINGDOM_INDEPENDENT: {"from_kingdom": KINGDOM},
    EventCode.INDEPENDENCE_GIVEN: {"to": KINGDOM},
    # Version 6. Land Sales (rulebook/player_issues/land_sales.py): the other kingdom of the deal, read by
    # the bulletin (reports/services/reports.py: told once, in its words).
    EventCode.LAND_DEAL: {"with": Since(V6, KINGDOM)},
    EventCode.LAND_DEAL_NOT_AGREED: {"with": Since(V6, KINGDOM)},
    EventCode.LAND_DEAL_REFUSED: {"with": Since(V6, KINGDOM)},
    # Rogue Kingdom (executing_orders/contacts.py): the Rogue Kingdom whose province the army entered.
    EventCode.ROGUE_KINGDOM_ROLL: {"rogue_kingdom": Since(V6, KINGDOM)},
    # Ruins and Tomb Raiders (executing_orders/ruins.py, ruins_and_tomb_raiders/missions_sent.py): the
    # army first into the ruin, the armies waiting on the raid.
    EventCode.RUINS_WAITING: {"with_army": Since(V6, ARMY)},
    EventCode.TOMB_RAID_SENT: {"armies": Since(V6, ListOf(ARMY))},
    # Spending Experience (rulebook/turn/spending.py): the purchase as filed.
    EventCode.PURCHASE_ORDERED: PURCHASE,
    EventCode.VETERAN_STATUS: PURCHASE,
    EventCode.ARCHETYPE_ROLL: PURCHASE,
    EventCode.POTENTIAL: PURCHASE,
    EventCode.PROMOTION: PURCHASE,
    EventCode.PURCHASE_REFUSED: PURCHASE,
    # Dropped (version 6), read by nothing: the delivery that arrived or was lost (orders/services/
    # deliveries.py; the event names its army, kind and turn ordered) and the turn summary sheet whose
    # story earned a bonus (battles/services/rewards.py; the event names the kingdom, army and turn).
    EventCode.DELIVERY_ARRIVED: {"delivery": Since(V6, DROPPED)},
    EventCode.DELIVERY_LOST: {"delivery": Since(V6, DROPPED)},
    EventCode.STORY_BONUS: {"sheet": Since(V6, DROPPED)},
}
# Reconnaissance and Sabotage (issue 32): a battle's mission_detail names the army and character the
# mission was sent against (rulebook/turn/state.py BattleS.mission_detail).
MISSION_DETAIL_REFERENCES: References = {"target_army": ARMY, "target_character": CHARACTER}
# What an effect's data holds (kingdoms.MissionEffect.data), by mission: the keys that hold ids. Every
# effect the aftermath earns keeps the Battle id of the skirmish that earned it ("battle",
# aftermath/rival_missions.py), read by nothing: dropped (version 6). The rest holds none (a Sappers'
# D3, a Mislabeled Goods' D2, an Army Statistics' list awaited): a mission whose data comes to hold a
# kingdom, army or character id adds its keys here, so the copy's data names the copy's rows.
MISSION_EFFECT_DATA: References = {"battle": Since(V6, DROPPED)}
MISSION_EFFECT_DATA_REFERENCES: dict[str, References] = {}


def effect_data_references(mission: str) -> References:
    """What an effect's data holds that names rows, for an effect of `mission`."""
    return {**MISSION_EFFECT_DATA, **MISSION_EFFECT_DATA_REFERENCES.get(mission, {})}


# A kingdom report's snapshot: the kingdom's armies as the turn left them, each with its id
# (orders/services/reports.py _army_row), and their flags as SVG (no ids there).
SNAPSHOT_REFERENCES: References = {"armies": ListOf({"id": ARMY})}


def as_of(references: Reference, version: int | None) -> Reference:
    """`references` as a document of `version` holds them (None: the current version, every one): those
    declared since (Since) left out of an older one's (its values kept as it holds them), the rest as
    they are."""
    if isinstance(references, Since):
        return as_of(references.reference, version) if version is None or version >= references.version else {}
    if isinstance(references, ListOf):
        return replace(references, references=as_of(references.references, version))
    if isinstance(references, str | ByIds):
        return references
    return {key: as_of(value, version) for key, value in references.items()}


Convert = Callable[[str, Any, str], Any]


def translated(data: Any, references: Reference, convert: Convert, key: str = "", since: Convert | None = None) -> Any:
    """`data` with `convert(reference, value, key)` in place of each non-null value `references` says
    holds an id (under an object's keys, in lists, keyed by ids); everything else as it is; `since`
    in its place, if given, under a reference declared since a version (Since). Data of another shape
    than `references` says is returned as it is: the import refuses it, naming it."""
    if data is None:
        return None
    if isinstance(references, Since):
        return translated(data, references.reference, since or convert, key, since)
    if isinstance(references, str):
        return convert(references, data, key)
    if isinstance(references, ListOf):
        if not isinstance(data, list):
            return data
        return [translated(item, references.references, convert, key, since) for item in data]
    if isinstance(references, ByIds):
        if isinstance(data, dict):  # as stored: the list the document writes, in the ids' order
            by_id = sorted(data.items(), key=lambda item: int(item[0]) if item[0].isdigit() else -1)
            return [
                {references.key: convert(references.reference, _id(k), references.key), references.value: v}
                for k, v in by_id
            ]
        if isinstance(data, list):  # as the document has it: keyed by the ids again
            return {
                str(convert(references.reference, item[references.key], references.key)): item[references.value]
                for item in data
            }
        return data
    if not isinstance(data, dict):
        return data
    return {k: translated(v, references[k], convert, k, since) if k in references else v for k, v in data.items()}


def _id(text: str) -> Any:
    return int(text) if text.isascii() and text.isdigit() else text


_EMAIL_KEY = re.compile(r"(?P<prefix>[a-z][a-z-]*):(?P<id>[0-9]+)(?P<suffix>(:.*)?)", re.DOTALL)


def email_key_parts(key: str) -> tuple[str, int, str] | None:
    """An email's key as (prefix, id, the text after the id): "report:12:a@b.example" is
    ("report", 12, ":a@b.example"). None for a key of another shape."""
    match = _EMAIL_KEY.fullmatch(key)
    return None if match is None else (match["prefix"], int(match["id"]), match["suffix"])


def email_key(prefix: str, row_id: int, suffix: str) -> str:
    """The key `email_key_parts` splits."""
    return f"{prefix}:{row_id}{suffix}"


# A dice roll's stream (turns.DiceRoll.stream) names what it rolled for; those of these
# prefixes hold ids, as the services write them: by prefix, what each part after it holds.
STREAM_REFERENCES: dict[str, tuple[str, ...]] = {
    "warlord-free-roll": (KINGDOM,),  # kingdoms/services/armies.py _free_rolls: <kingdom id>
    "scenario": (PROVINCE, ARMY),  # battles/services/scenarios.py scenario_stream: <province>:<army id>
    # the same, for a Reconnaissance or Sabotage (no army): <province>:<the spying kingdom's id>
    "rival-scenario": (PROVINCE, KINGDOM),
}


# An army id that is no army: a Reconnaissance or Sabotage's skirmish has no attacker army (issue 32),
# and its scenario's stream says so ("scenario:<province>:None"); null in the document.
NO_ARMY = "None"


def stream_ids(stream: str) -> tuple[str, tuple[int | None, ...] | None] | None:
    """A stream of a prefix of STREAM_REFERENCES as (prefix, the numbers after it, in order):
    "scenario:4:17" is ("scenario", (4, 17)), "scenario:4:None" ("scenario", (4, None)); (prefix,
    None) if the rest is of another shape. None for a stream of any other prefix (it holds no id)."""
    prefix, _, rest = stream.partition(":")
    if prefix not in STREAM_REFERENCES:
        return None
    parts = rest.split(":") if rest else []

    def number(part: str, reference: str) -> bool:
        return (part.isascii() and part.isdigit()) or (reference == ARMY and part == NO_ARMY)

    references = STREAM_REFERENCES[prefix]
    if len(parts) != len(references) or not all(number(p, r) for p, r in zip(parts, references, strict=True)):
        return prefix, None
    return prefix, tuple(None if p == NO_ARMY else int(p) for p in parts)


def stream_shape(prefix: str) -> str:
    """How a stream of `prefix` is written: "scenario:<province>:<army id>"."""
    parts = ("<province>" if r == PROVINCE else f"<{r} id>" for r in STREAM_REFERENCES[prefix])
    return ":".join((prefix, *parts))


def stream_text(prefix: str, numbers: tuple[int | None, ...]) -> str:
    """The stream `stream_ids` splits."""
    return ":".join((prefix, *(NO_ARMY if n is None else str(n) for n in numbers)))
