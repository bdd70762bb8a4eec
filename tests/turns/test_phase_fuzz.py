"""Random small campaigns played through the real services never stop (tests/turns/phase_fuzz.py).

Campaign Schedule: each turn's orders are resolved at its deadline and its aftermath at the results
deadline, whatever the players filed. A phase that raises is rolled back and retried for ever, so a
seed whose phase raises (an IntegrityError at write time above all: the database's constraints, one
army of each name, one magic item of each name, one living Warlord a kingdom...) or leaves its turn
unresolved is a campaign that cannot go on. The pure rules are fuzzed in tests/rulebook/test_turn_fuzz.py;
this plays what the players may file, through the order sheet's and the turn summary sheet's services,
and the phases write back.

The bounded run plays two seeds, three turns each (about fifteen seconds), and asserts that the phases
resolved each kind of Tomb Raiders' mission, a capture and a captive's fate, a land deal and the Ancient
Dead's moves and battles (phase_fuzz.resolved_tally). An error logged while a seed plays (a turn's
snapshot lost) is a finding too. To reproduce or search further:

    PHASE_FUZZ_SEED=7 .venv/bin/pytest -p no:cacheprovider -q -n 0 tests/turns/test_phase_fuzz.py
    PHASE_FUZZ_SEEDS=0-200 PHASE_FUZZ_TURNS=4 .venv/bin/pytest -p no:cacheprovider -q -n 0 \
        tests/turns/test_phase_fuzz.py

(PHASE_FUZZ_SEEDS is a count from 0, or a range FIRST-LAST with LAST excluded.)"""

from __future__ import annotations

import logging
import os
from collections import Counter

import pytest

from tests.turns.phase_fuzz import seed_run

# Seed 11 plays every kind of PLAYED below within three turns (a capture on one turn, its fate on the
# next), seed 4 the Ancient Dead's battles and a Tomb Raid: if a change of the rules or the drafts moves
# the dice so that one goes unplayed, choose seeds again (the test prints the tally of its seeds: run a
# range with -s).
SEEDS: tuple[int, ...] = (4, 11)
TURNS = 3
# What the default seeds must see the phases resolve (tests/turns/phase_fuzz.py, resolved_tally): each
# kind of Tomb Raiders' mission sent and its skirmish read, a Tomb Raider captured and its fate decided,
# a land deal done, the Ancient Dead moving and fighting.
PLAYED = (
    "tomb raid sent",
    "tomb raid resolved",
    "reconnaissance sent",
    "reconnaissance resolved",
    "sabotage sent",
    "sabotage resolved",
    "raider captured",
    "captive fate",
    "land deal side",
    "ancient dead moved",
    "ancient dead battle",
)


def _seeds() -> tuple[int, ...]:
    if "PHASE_FUZZ_SEED" in os.environ:
        return (int(os.environ["PHASE_FUZZ_SEED"]),)
    if "PHASE_FUZZ_SEEDS" not in os.environ:
        return SEEDS
    first, _, last = os.environ["PHASE_FUZZ_SEEDS"].rpartition("-")
    return tuple(range(int(first or 0), int(last)))


class _ErrorsKept(logging.Handler):
    """The errors logged while a seed plays, as "logger: message" (the first names the finding)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()} ({record.exc_info[1] if record.exc_info else ''})")


@pytest.mark.django_db
def test_no_seed_stops_the_campaign() -> None:
    turns = int(os.environ.get("PHASE_FUZZ_TURNS", TURNS))
    seeds = _seeds()
    tally: Counter[str] = Counter()
    # A phase that goes on but logs an error has still lost something (a turn's snapshot, the campaign's
    # export: an id naming no army of the campaign, decision 626): a finding too, with its seed.
    logged = _ErrorsKept()
    logging.getLogger().addHandler(logged)
    try:
        findings: list[object] = []
        for seed in seeds:
            logged.records.clear()
            found = seed_run(seed, turns, tally)
            if found is not None:
                findings.append(found)
            elif logged.records:
                findings.append(f"seed {seed}: logged {logged.records[0]}")
    finally:
        logging.getLogger().removeHandler(logged)
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
    print(f"resolved over {len(seeds)} seeds, {turns} turns each: {dict(sorted(tally.items()))}")
    if seeds == SEEDS and turns == TURNS:
        # What the bounded run is for: each of these really resolved by the phases, not only drafted.
        unplayed = [what for what in PLAYED if not tally[what]]
        assert not unplayed, f"the default seeds resolved no {', '.join(unplayed)}: {dict(tally)}"
