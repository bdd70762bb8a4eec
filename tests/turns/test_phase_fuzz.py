"""Random small campaigns played through the real services never stop (tests/turns/phase_fuzz.py).

Campaign Schedule: each turn's orders are resolved at its deadline and its aftermath at the results
deadline, whatever the players filed. A phase that raises is rolled back and retried for ever, so a
seed whose phase raises (an IntegrityError at write time above all: the database's constraints, one
army of each name, one magic item of each name, one living Warlord a kingdom...) or leaves its turn
unresolved is a campaign that cannot go on. The pure rules are fuzzed in tests/rulebook/test_turn_fuzz.py;
this plays what the players may file, through the order sheet's and the turn summary sheet's services,
and the phases write back.

The bounded run plays four seeds, two turns each (about fifteen seconds). To reproduce or search further:

    PHASE_FUZZ_SEED=7 .venv/bin/pytest -p no:cacheprovider -q -n 0 tests/turns/test_phase_fuzz.py
    PHASE_FUZZ_SEEDS=0-200 PHASE_FUZZ_TURNS=4 .venv/bin/pytest -p no:cacheprovider -q -n 0 \
        tests/turns/test_phase_fuzz.py

(PHASE_FUZZ_SEEDS is a count from 0, or a range FIRST-LAST with LAST excluded.)"""

from __future__ import annotations

import os

import pytest

from tests.turns.phase_fuzz import seed_run

SEEDS = range(4)
TURNS = 2


def _seeds() -> range:
    if "PHASE_FUZZ_SEED" in os.environ:
        seed = int(os.environ["PHASE_FUZZ_SEED"])
        return range(seed, seed + 1)
    if "PHASE_FUZZ_SEEDS" not in os.environ:
        return SEEDS
    first, _, last = os.environ["PHASE_FUZZ_SEEDS"].rpartition("-")
    return range(int(first or 0), int(last))


@pytest.mark.django_db
def test_no_seed_stops_the_campaign() -> None:
    turns = int(os.environ.get("PHASE_FUZZ_TURNS", TURNS))
    seeds = _seeds()
    findings = [f for f in (seed_run(seed, turns) for seed in seeds) if f is not None]
    if findings:
        pytest.fail(
            "\n".join(
                [
                    f"{len(findings)} of {len(seeds)} seeds ({turns} turns each) stop the campaign;"
                    " reproduce one with PHASE_FUZZ_SEED=<seed>.",
                    *(str(f).splitlines()[0] for f in findings),
                    f"\n--- the first: {findings[0]}",
                ]
            ),
            pytrace=False,
        )
