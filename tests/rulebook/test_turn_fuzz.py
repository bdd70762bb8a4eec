"""Random small campaigns never leave a world the sanity check refuses (tests/rulebook/turn_fuzz.py).

Sanity check after each phase (issue 17, "Safeguards around each turn"; rulebook/sanity.py): the
services roll a phase back when the world it leaves has a treasury below zero or two unallied
kingdoms' armies in one province with no battle between them, so a seed that reaches one is a
campaign that cannot go on. The rules that must keep it away:
- 6. Fight Battles: "When two unallied armies occupy the same province, a combat occurs."
- Multiple Moves into Battle: "Three or more armies from three or more unallied kingdoms cannot
  occupy the same map section."
- Allies: allied armies never fight each other, so allies sharing a province are no problem until
  their alliance ends.
- Casualty Recovery: the losses applied are the models a unit had; no unit ends with fewer than none
  (the database's Unit.models_count cannot store it).
- Maintaining / Changing Tomb Raiders: an entry left with no model leaves the list (the database's
  TombRaiderEntry holds 1 to 150 models).
- Armory: one of each magic item a kingdom holds (kingdoms.models.ArmoryItem's constraint), also when
  what was sent or bought arrives as the next turn opens (decision 600).
An exception in any phase is a finding too. The worlds hold characters and magic items, ruins (sacked
towns' among them), Tomb Raider forces, Rogue Kingdoms and provinces in Civil Unrest, mission effects
pending from earlier turns and sometimes the Ancient Dead; the sheets buy with experience, transfer
gold and items, deal land, move capitols, send the Tomb Raiders and use the effects earned
(tests/rulebook/turn_fuzz_campaign.py); the turn summary sheets are those players can file, or the
organizer's ruling; what was sent or bought arrives at the beginning of its turn
(tests/rulebook/turn_fuzz_arrivals.py), and between turns a player may drop out or a new one take a
Rogue Kingdom.

The bounded run plays seeds 0-299, three turns each. To reproduce a finding, or to search further:

    FUZZ_SEED=82 .venv/bin/pytest -p no:cacheprovider -q -n 0 tests/rulebook/test_turn_fuzz.py
    FUZZ_SEEDS=1000-5000 FUZZ_TURNS=5 .venv/bin/pytest -p no:cacheprovider -q -n 0 tests/rulebook/test_turn_fuzz.py

(FUZZ_SEEDS is a count from 0, or a range FIRST-LAST with LAST excluded; FUZZ_TURNS the turns a
seed plays, 3 unless told.) The message names every failing seed with its turn, phase (orders,
aftermath, deliveries) and problem, and tells the first one's story: the world at the start of that
turn, the orders and the battles."""

from __future__ import annotations

import os

import pytest

from tests.rulebook.turn_fuzz import seed_run

SEEDS = range(300)
TURNS = 3
STORIES_SHOWN = 1  # the first failing seed's story; the others one line each


def _seeds() -> range:
    if "FUZZ_SEED" in os.environ:
        seed = int(os.environ["FUZZ_SEED"])
        return range(seed, seed + 1)
    if "FUZZ_SEEDS" not in os.environ:
        return SEEDS
    first, _, last = os.environ["FUZZ_SEEDS"].rpartition("-")
    return range(int(first or 0), int(last))


def test_no_seed_leaves_a_world_the_sanity_check_refuses() -> None:
    turns = int(os.environ.get("FUZZ_TURNS", TURNS))
    seeds = _seeds()
    findings = [f for f in (seed_run(seed, turns) for seed in seeds) if f is not None]
    if findings:
        pytest.fail(
            "\n".join(
                [
                    f"{len(findings)} of {len(seeds)} seeds ({turns} turns each) fail;"
                    " reproduce one with FUZZ_SEED=<seed>.",
                    *(str(f) for f in findings),
                    *(f"\n--- seed {f.seed}, turn {f.turn}:\n{f.story}" for f in findings[:STORIES_SHOWN]),
                ]
            ),
            pytrace=False,
        )
