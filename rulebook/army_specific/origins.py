"""Army-Specific Rules that depend on where an army was created (pure Python).

Hordes of Chaos, "Shrine Cultists": a mortal army may not include daemons, nor a daemon army
mortals, and a mortal army may not give troops a Mark of Chaos other than Undivided, unless the army
came from a town or city (the starting army with the Warlord is exempt). Lizardmen, "Temple
Dwellers": no Temple Guard and no Sacred Spawnings unless the army was created in a town or city.
Dwarfs and Chaos Dwarfs, "Perfectionists": runic items cost 20% more in gold (or experience) when
equipped away from a town or city.

An army list names its units in words, so a unit is recognised by its name (rules decision 66):
the words below, matched case-insensitively anywhere in the unit's name. A Mark of Chaos is written
into the unit's name ("Chaos Warriors, Mark of Khorne"), a Sacred Spawning likewise
("Saurus Warriors, Spawning of Sotek").
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.tables import ArmyType

# Lizardmen, Temple Dwellers.
TEMPLE_GUARD_WORDS: tuple[str, ...] = ("temple guard",)
SACRED_SPAWNING_WORDS: tuple[str, ...] = ("sacred spawn", "spawning of")

# Hordes of Chaos, Shrine Cultists: the daemons of the Hordes of Chaos army book.
DAEMON_WORDS: tuple[str, ...] = (
    "daemon",
    "demon",
    "bloodthirster",
    "great unclean one",
    "lord of change",
    "keeper of secrets",
    "herald",
    "bloodletter",
    "plaguebearer",
    "horror",
    "daemonette",
    "flesh hound",
    "nurgling",
    "screamer",
    "flamer",
    "fiend",
    "seeker",
    "furies",
    "beast of nurgle",
    "beasts of nurgle",
    "juggernaut",
)
# A Mark of Chaos other than Undivided names its god.
MARK_WORDS: tuple[str, ...] = ("khorne", "nurgle", "tzeentch", "slaanesh")

# Perfectionists (Dwarfs, Chaos Dwarfs): a runic item names its rune ("Master Rune of Valaya",
# "Rune of Cleaving", "Runic Banner"), so "rune" anywhere in an item's name marks it runic.
PERFECTIONISTS = frozenset({ArmyType.DWARFS, ArmyType.CHAOS_DWARVES})
PERFECTIONISTS_SURCHARGE_PERCENT = 20
RUNIC_WORDS: tuple[str, ...] = ("rune",)


@dataclass(frozen=True)
class OriginUnit:
    name: str
    general: bool = False  # the army's General (the Warlord or a General)


def _named(name: str, words: tuple[str, ...]) -> bool:
    lowered = name.lower()
    return any(w in lowered for w in words)


def is_daemon(name: str) -> bool:
    return _named(name, DAEMON_WORDS)


def is_runic(name: str) -> bool:
    return _named(name, RUNIC_WORDS)


def perfectionists_cost(cost: int, *, runic: bool, army_type: ArmyType, in_town_or_city: bool) -> int:
    """Perfectionists: a runic item of a Dwarf or Chaos Dwarf army equipped away from a town or city
    costs 20% more, gold or experience alike (rounded up: the rune smith does not give change)."""
    if runic and army_type in PERFECTIONISTS and not in_town_or_city:
        return -(-cost * (100 + PERFECTIONISTS_SURCHARGE_PERCENT) // 100)
    return cost


def origin_errors(
    *, label: str, army_type: ArmyType, units: tuple[OriginUnit, ...], from_settlement: bool, origin: str
) -> list[str]:
    """Why the list breaks Shrine Cultists or Temple Dwellers: each message names the army, the unit
    and the rule. `from_settlement`: the army was created in a town or city (or is exempt);
    `origin` says where it was created, for the message."""
    if from_settlement:
        return []
    errors: list[str] = []
    if army_type is ArmyType.LIZARDMEN:
        for unit in units:
            if _named(unit.name, TEMPLE_GUARD_WORDS) or _named(unit.name, SACRED_SPAWNING_WORDS):
                errors.append(
                    f"{label}: {unit.name}: an army not created in a town or city may not include Temple Guard "
                    f"or give troops Sacred Spawnings; it was created {origin} (Temple Dwellers)."
                )
    elif army_type is ArmyType.HORDES_OF_CHAOS:
        # The General sets the army's nature: a daemon leads a daemon army, a mortal a mortal army.
        general = next((u for u in units if u.general), None)
        daemon_army = general is not None and is_daemon(general.name)
        kind, other = ("daemon", "mortals") if daemon_army else ("mortal", "daemons")
        for unit in units:
            if unit.general:
                continue
            if is_daemon(unit.name) != daemon_army:
                errors.append(
                    f"{label}: {unit.name}: a {kind} army not from a town or city may not include {other}; "
                    f"it was created {origin} (Shrine Cultists)."
                )
            elif not daemon_army and _named(unit.name, MARK_WORDS):
                errors.append(
                    f"{label}: {unit.name}: a mortal army not from a town or city may give troops only the Mark "
                    f"of Chaos Undivided; it was created {origin} (Shrine Cultists)."
                )
    return errors
