"""Combat with Tomb Raiders: its Modifications and Misc., pure Python. Rules decision 411.

The skirmish is played at the table; what the site needs of these rules is their numbers (for the
scenario sheet and the players' reference) and the few tests a player may want settled: when the
force tests after losses, off whose Leadership, and a voluntary withdrawal's roll-off.

"7. Once a Tomb Raider force suffers 25% casualties, it must make a Ld test off its Captain's Ld, or
Lieutenant's if the Captain is removed. If both officers are removed, then off the highest Ld
remaining in the force ... If your Tomb Raiders contain a musician when you decide to voluntarily
withdraw your entire force you may roll +2 to all your withdraw rolls."
"6. Voluntary withdraw: ... each player rolls a d6 and adds their model's WS (Highest WS for attackers
if more than one in combat with the withdrawing model), If the withdrawing model scores higher then
move his standard flee roll ... If the withdrawing model scores equal or less ... suffers 1 free strike."
"""

from __future__ import annotations

from collections.abc import Iterable

from rulebook.ruins_and_tomb_raiders.force import Command, RaiderEntry, Role, officer_profile

RULE = "Combat with Tomb Raiders"
LEADERSHIP_RANGE_INCHES: dict[Role, int] = {Role.CAPTAIN: 12, Role.LIEUTENANT: 6}  # Modification 1
OUTNUMBERED_LD_PENALTY = 1  # Modification 4, "regardless of how many he is actually outnumbered by"
BREAK_TEST_CASUALTIES = (1, 4)  # Modification 7: "25% casualties", as (numerator, denominator)
MUSICIAN_WITHDRAW_BONUS = 2  # Modification 7
CHALLENGE_RANGE_INCHES = 4  # Modification 8, "He's Mine!" and "Leave him to me kid!"
ANIMOSITY_FAILS_ON = 1  # Misc.: Orc Animosity, "On the result of a 1": the model only loses his turn
ETHEREAL_HIT_ON = 6  # Misc.: Undead, "Ethereal models are hit on a 6"

# Printed on the Tomb Raiders' scenario sheet, in the rulebook's order (decision 411).
COMBAT_RULES: tuple[str, ...] = (
    "Tomb Raiders fight as skirmishers: no bonus for outnumbering or ranks; standard WHFB otherwise.",
    f'1. A model within {LEADERSHIP_RANGE_INCHES[Role.CAPTAIN]}" of the Captain or '
    f'{LEADERSHIP_RANGE_INCHES[Role.LIEUTENANT]}" of the Lieutenant may use their leadership.',
    "2. Fear and Terror are not used.",
    "3. No ranks: no bonuses for flank or rear attacks.",
    f"4. Outnumbered (count only the enemy models that attacked him): -{OUTNUMBERED_LD_PENALTY} Ld.",
    "5. A model fleeing combat takes a free strike from the pursuer; if it survives, both roll pursuit dice: "
    "caught, it is not moved and stays locked in combat.",
    "6. Voluntary withdraw: each rolls a D6 + WS (the attackers' highest); higher gets away (no pursuit), equal "
    "or less stays and suffers 1 free strike.",
    "7. At 25% casualties, a Ld test off the Captain (then the Lieutenant, then the highest Ld left): failed, the "
    f"force leaves the battle. It may withdraw from then on; a musician gives +{MUSICIAN_WITHDRAW_BONUS} to all "
    "its withdraw rolls.",
    f'8. Challenges: an officer within {CHALLENGE_RANGE_INCHES}" of another may challenge ("He\'s Mine!"); a '
    'Captain may take over a challenge to his Lieutenant ("Leave him to me kid!").',
    f"Misc.: animosity on a {ANIMOSITY_FAILS_ON} only loses the model's turn; undead may march, do not crumble; "
    f"ethereal models are hit on a {ETHEREAL_HIT_ON}.",
)


def break_test_due(models_started: int, models_removed: int) -> bool:
    """Modification 7: the force has suffered 25% casualties (a quarter of the models it began with)."""
    numerator, denominator = BREAK_TEST_CASUALTIES
    return models_started > 0 and models_removed * denominator >= models_started * numerator


def break_test_leadership(on_table: Iterable[RaiderEntry]) -> int | None:
    """Whose Ld the test is taken off: the Captain's (his +1), else the Lieutenant's, else the highest Ld
    remaining; None when no model remains."""
    remaining = [e for e in on_table if e.models > 0]
    for role in (Role.CAPTAIN, Role.LIEUTENANT):
        officer = next((e for e in remaining if e.role is role), None)
        if officer is not None:
            return officer_profile(officer).leadership
    return max((e.leadership for e in remaining), default=None)


def withdraw_gets_away(
    withdrawing: int, attacking: int, *, whole_force: bool = False, entries: Iterable[RaiderEntry] = ()
) -> bool:
    """Modification 6: the withdrawing model's D6 + WS against the attackers' D6 + highest WS; it gets away
    only when higher. A whole force withdrawing with a musician rolls +2 (Modification 7)."""
    bonus = MUSICIAN_WITHDRAW_BONUS if whole_force and any(e.command is Command.MUSICIAN for e in entries) else 0
    return withdrawing + bonus > attacking
