"""manage.py bench: time turn resolution on generated campaigns of growing size.

Prints, per campaign: the pure rules' time, the whole resolution's time (snapshot, load, rules,
writes, posting, scenarios, and on PostgreSQL the commit's deferred foreign-key checks, as the
step "constraints") and its number of database queries, then each step's time and
queries. The campaigns are created in the configured database and deleted afterwards; `make bench`
points it at a scratch SQLite file under var/, then at a scratch PostgreSQL database.
"""

from __future__ import annotations

import random
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from briternia.collector import collector_paused
from kernel.dice import SeededDice
from kingdoms.models import Army, Campaign, Kingdom, Province, TreasuryEntry, Unit
from orders.entries import sheet_to_json
from orders.models import OrderSheet, OrderSubmission
from orders.services.resolution import DICE_STREAM, turn_state_load
from orders.services.turns import turn_open
from rulebook.tables import PLAYER_ARMY_TYPES
from rulebook.turn.pipeline import resolve_orders
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from turns.services.cycle import orders_phase_run
from turns.services.steps import phase_step, phase_steps_recorded

SIZES = [
    # name, kingdoms, columns, rows, armies per kingdom
    ("demo size: 4 kingdoms, 81 provinces, 8 armies", 4, 9, 9, 2),
    ("20 kingdoms, 400 provinces, 40 armies", 20, 20, 20, 2),
    ("100 kingdoms, 2,000 provinces, 1,000 armies", 100, 50, 40, 10),
]
TERRAINS = ["plains", "plains", "plains", "forest", "mountains", "marshland"]


def sheet_entries_generate(
    *, kingdom: Kingdom, armies: list[Army], neighbours: dict[int, list[int]], number_of: dict[int, int], rng: Any
) -> dict[str, Any]:
    """A sheet for `kingdom` as the API takes it (the codec's JSON, orders/entries.py): most of its
    armies move to a neighbouring province."""
    orders = [
        ArmyOrder(army.id, OrderKind.MOVE, target=rng.choice(neighbours[number_of[army.province_id]]))
        for army in armies
        if army.kingdom_id == kingdom.id and rng.random() < 0.8
    ]
    return sheet_to_json(SheetEntries(orders=tuple(orders)))


def kingdom_sheets_generate(*, campaign: Campaign, kingdoms: list[Kingdom], rng: Any) -> list[dict[str, Any]]:
    """A generated sheet (sheet_entries_generate) for each of `kingdoms`, in their order, from the
    campaign's stored armies and map: what the load test and the submission bench file."""
    armies = list(Army.objects.filter(kingdom__campaign=campaign))
    number_of = dict(Province.objects.filter(campaign=campaign).values_list("id", "number"))
    neighbours: dict[int, list[int]] = {}
    for a, b in Province.neighbours.through.objects.filter(from_province__campaign=campaign).values_list(
        "from_province__number", "to_province__number"
    ):
        neighbours.setdefault(a, []).append(b)
    return [
        sheet_entries_generate(kingdom=k, armies=armies, neighbours=neighbours, number_of=number_of, rng=rng)
        for k in kingdoms
    ]


def campaign_generate(
    *, kingdoms: int, columns: int, rows: int, armies_per_kingdom: int, seed: int, sheets: bool = True
) -> Campaign:
    """A running campaign on a generated grid map: every kingdom holds a block of provinces with
    armies in it and (`sheets`) a submitted sheet moving most of them to neighbouring provinces
    (`sheet_entries_generate`)."""
    rng = random.Random(seed)
    organizer, _ = get_user_model().objects.get_or_create(username="bench-organizer")
    campaign = Campaign.objects.create(
        name=f"Bench {kingdoms}x{columns * rows}",
        organizer=organizer,
        player_count=kingdoms,
        map_name="generated",
        setup_seed="bench",
        status=Campaign.Status.RUNNING,
    )
    centre = (columns // 2, rows // 2)
    provinces = Province.objects.bulk_create(
        Province(
            campaign=campaign,
            number=r * columns + c + 1,
            name=f"P{r * columns + c + 1}",
            col=c,
            row=r,
            terrain="desert" if (c, r) == centre else rng.choice(TERRAINS),
            settlement=rng.choice(["none"] * 8 + ["town", "city"]),
            pyramid=(c, r) == centre,
        )
        for r in range(rows)
        for c in range(columns)
    )
    by_pos = {(p.col, p.row): p for p in provinces}
    Through = Province.neighbours.through
    Through.objects.bulk_create(
        Through(from_province_id=p.id, to_province_id=by_pos[(p.col + dc, p.row + dr)].id)
        for p in provinces
        for dc in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if (dc, dr) != (0, 0) and (p.col + dc, p.row + dr) in by_pos
    )
    realms = Kingdom.objects.bulk_create(
        Kingdom(campaign=campaign, name=f"Kingdom {i}", army_type=PLAYER_ARMY_TYPES[i % len(PLAYER_ARMY_TYPES)])
        for i in range(kingdoms)
    )
    TreasuryEntry.objects.bulk_create(
        TreasuryEntry(kingdom=k, turn=0, amount=6000, reason="starting-gold") for k in realms
    )
    # Kingdoms take provinces round-robin so that they border one another.
    land = [p for p in provinces if not p.pyramid]
    for i, province in enumerate(land):
        province.controller = realms[i % kingdoms]
    Province.objects.bulk_update(land, ["controller"])
    placed = []
    for i, kingdom in enumerate(realms):
        own = [p for j, p in enumerate(land) if j % kingdoms == i]
        for n in range(armies_per_kingdom):
            placed.append(
                Army(
                    kingdom=kingdom,
                    name=f"Army {n}",
                    province=own[n % len(own)],
                    size=1500,
                    supply_depot=rng.random() < 0.7,
                )
            )
    armies = Army.objects.bulk_create(placed)
    Unit.objects.bulk_create(
        Unit(army=a, name="Troops", category="core", models_count=150, points_per_model=10) for a in armies
    )
    turn = turn_open(campaign=campaign, number=1)
    neighbours: dict[int, list[int]] = {}
    for a, b in Through.objects.filter(from_province__campaign=campaign).values_list(
        "from_province__number", "to_province__number"
    ):
        neighbours.setdefault(a, []).append(b)
    number_of = {p.id: p.number for p in provinces}
    for kingdom in realms:
        entries = sheet_entries_generate(
            kingdom=kingdom, armies=armies, neighbours=neighbours, number_of=number_of, rng=rng
        )
        if sheets:
            sheet = OrderSheet.objects.create(turn=turn, kingdom=kingdom, status="submitted", entries=entries)
            OrderSubmission.objects.create(sheet=sheet, entries=entries)
    return campaign


def _commit_checks_run() -> int:
    """What the task's commit would do before it commits, run now (the bench rolls the task back, so
    its commit never runs): on PostgreSQL the deferred foreign-key checks of every row the task
    wrote (Django's foreign keys are DEFERRABLE INITIALLY DEFERRED there: each row inserted, or
    updated in a key, queues one check per foreign key, run at commit: 0.22-0.32 s for the largest
    campaign, 0.04-0.07 s since the turn's logs went without them, turns/models.py). Run as the
    step "constraints", so the whole task's time includes it and a regression shows. Returns the
    statements it sent (0 or 1).
    SQLite checks a deferred key as each row is written (its commit only reads a counter): that
    cost is in the steps already."""
    if connection.vendor != "postgresql":
        return 0
    with phase_step("constraints"), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    return 1


class Command(BaseCommand):
    help = "Time turn resolution on generated campaigns (pure rules, whole task, database queries)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--keep", action="store_true", help="Keep the generated campaigns.")
        parser.add_argument(
            "--submissions", type=int, default=50, help="Warm submissions measured through the API (0: none)."
        )
        parser.add_argument(
            "--kingdoms",
            type=int,
            action="append",
            choices=[size[1] for size in SIZES],
            help="Only the campaign of this many kingdoms (repeat for several; default: every size).",
        )
        parser.add_argument(
            "--repeat",
            type=int,
            default=1,
            help="Resolve each campaign's turn this many times (each rolled back): the spread on a busy machine.",
        )

    def handle(
        self, *args: Any, keep: bool, submissions: int, kingdoms: list[int] | None, repeat: int, **options: Any
    ) -> None:
        self.stdout.write(f"{'campaign':48} {'pure rules':>11} {'whole task':>11} {'queries':>8} {'battles':>8}")
        for name, size, columns, rows, per in SIZES:
            if kingdoms and size not in kingdoms:
                continue
            with transaction.atomic():
                campaign = campaign_generate(kingdoms=size, columns=columns, rows=rows, armies_per_kingdom=per, seed=1)
            for _ in range(repeat):
                self._resolve(name, campaign)
            if not keep:
                campaign.delete()
        if submissions > 0:
            self._submissions(submissions)

    def _resolve(self, name: str, campaign: Campaign) -> None:
        """Time the pure rules and the whole orders-phase task of the campaign's turn, and print them
        with each step's time and queries. The task is rolled back: its turn can be resolved again."""
        turn = campaign.turns.get()
        state = turn_state_load(turn)
        # As the phase runs them: with the collector paused (briternia/collector.py). Run with it, a
        # full collection walking the whole process landed in some runs and not others, the same
        # work measured 70 to 200 ms.
        with collector_paused():
            started = time.perf_counter()
            resolve_orders(state, SeededDice(seed=turn.seed, stream=DICE_STREAM))
            pure = time.perf_counter() - started
        with CaptureQueriesContext(connection) as queries, phase_steps_recorded() as steps, transaction.atomic():
            started, cpu_started = time.perf_counter(), time.process_time()
            outcome = orders_phase_run(turn_id=turn.pk)
            commit_checks = _commit_checks_run()
            whole, cpu = time.perf_counter() - started, time.process_time() - cpu_started
            # Rolled back: the scenario emails that follow the commit are a task of their own
            # (and the campaign is deleted anyway).
            transaction.set_rollback(True)
        battles = len(outcome.resolution.battles) if outcome.resolution else 0
        # The task's own queries: the commit's checks are not a query the task sends.
        task_queries = len(queries.captured_queries) - commit_checks
        self.stdout.write(f"{name:48} {pure * 1000:>9.0f}ms {whole * 1000:>9.0f}ms {task_queries:>8} {battles:>8}")
        # The task's steps (turns/services/steps.py), so a regression shows where it is; the rest
        # of the whole task is the claim, the turn's read and its status written.
        self.stdout.write(
            "    steps: "
            # Each step's wall time, this process's CPU in it, and its queries.
            + ", ".join(
                f"{s.name} {s.seconds * 1000:.0f}ms ({s.cpu_seconds * 1000:.0f} CPU)/{s.queries}q" for s in steps
            )
            + f"; outside the steps {(whole - sum(s.seconds for s in steps)) * 1000:.0f}ms/"
            f"{len(queries.captured_queries) - sum(s.queries for s in steps)}q"
            # This process's CPU (not the database's): steadier than the wall time on a busy machine.
            f"; the task's Python CPU {cpu * 1000:.0f}ms"
        )

    def _submissions(self, count: int) -> None:
        """One warm submission through the API: Python CPU and queries (demo/management/bench_submission.py)."""
        from demo.management.bench_submission import (
            submission_bench,
        )  # here: it imports this module (campaign_generate)

        figures = submission_bench(submissions=count)
        queries = (
            f"{figures.queries}"
            if figures.queries == figures.queries_least
            else (f"{figures.queries_least}-{figures.queries}")
        )
        self.stdout.write(
            f"warm submission through the API ({figures.submissions} submissions, 40 x 40 map): "
            f"{figures.cpu_ms:.1f} ms of Python CPU and {queries} queries each "
            "(with the token's lookup, BEGIN and COMMIT)"
        )
