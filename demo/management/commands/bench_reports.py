"""manage.py bench_reports: time the turn reports (rendering a kingdom's PDF, a whole turn's).

Measured on the demo campaign after `make demo`'s turn, and on a generated 20-kingdom campaign
after a resolved turn. A whole turn's reports is what the end of a turn costs: drawing the turn's
map picture once, then every kingdom's report and the bulletin. "Two workers" runs the renders in
two forked processes (the machine has two cores), each doing what the `report_render_task` does
(with Celery: `celery -A briternia worker --concurrency 2`); the campaigns are deleted afterwards
unless --keep.
"""

from __future__ import annotations

import logging
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.core.management.base import BaseCommand
from django.db import connections, transaction

from demo.campaign import demo_campaign_create
from demo.turn import demo_turn_play
from kingdoms.models import Campaign
from reports.models import TurnMap, TurnReport
from reports.services.reports import report_pdf, reports_to_render, turn_map_picture_draw, turn_reports_create
from turns.models import Turn
from turns.services.cycle import orders_phase_run

from .bench import campaign_generate


def _render(report_id: int) -> float:
    started = time.perf_counter()
    report_pdf(TurnReport.objects.select_related("turn__campaign", "kingdom").get(pk=report_id))
    return time.perf_counter() - started


def _render_all(turn: Turn, ids: list[int], workers: int) -> float:
    started = time.perf_counter()
    TurnMap.objects.filter(turn=turn).update(png=None)
    turn_map_picture_draw(turn=turn)
    if workers == 1:
        for report_id in ids:
            _render(report_id)
    else:
        connections.close_all()  # each forked worker opens its own connection
        with ProcessPoolExecutor(max_workers=workers) as pool:
            list(pool.map(_render, ids))
    return time.perf_counter() - started


class Command(BaseCommand):
    help = "Time turn reports: one kingdom's PDF, and a whole turn's with one and two workers."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--keep", action="store_true", help="Keep the generated campaigns.")

    def handle(self, *args: Any, keep: bool, **options: Any) -> None:
        # The tasks run in-process here; their "Task ... succeeded" lines would bury the figures.
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        made: list[Campaign] = []
        demo = demo_campaign_create()
        made.append(demo)
        demo_turn_play(demo)
        demo_turn = Turn.objects.get(campaign=demo, number=1)
        turn_reports = TurnReport.objects.exclude(kind=TurnReport.Kind.SCENARIO)
        demo_ids = list(turn_reports.filter(turn=demo_turn).values_list("id", flat=True))
        ostland = TurnReport.objects.get(turn=demo_turn, kingdom__name="Ostland").pk
        one = [_render(ostland) for _ in range(5)]
        self.stdout.write(
            f"one kingdom's report (demo, Ostland after two battles): median {statistics.median(one):.3f} s, "
            f"max {max(one):.3f} s over 5 renders"
        )
        for workers in (1, 2):
            seconds = _render_all(demo_turn, demo_ids, workers)
            self.stdout.write(
                f"demo campaign, the turn's map and {len(demo_ids)} reports, {workers} worker(s): {seconds:.2f} s"
            )

        # Opening its turn locks the campaign's row (select_for_update): PostgreSQL wants a transaction.
        with transaction.atomic():
            big = campaign_generate(kingdoms=20, columns=20, rows=20, armies_per_kingdom=2, seed=7)
        made.append(big)
        turn = Turn.objects.get(campaign=big, number=1)
        orders_phase_run(turn_id=turn.pk)
        with transaction.atomic():
            turn_reports_create(turn=turn)
        ids = reports_to_render(turn=turn)
        turn_map_picture_draw(turn=turn)  # as turn_reports_start does before the renders
        kingdom_report = TurnReport.objects.filter(pk__in=ids, kind=TurnReport.Kind.KINGDOM).first()
        assert kingdom_report is not None
        single = [_render(kingdom_report.pk) for _ in range(3)]
        self.stdout.write(
            f"one kingdom's report (20 kingdoms, 400 provinces): median {statistics.median(single):.3f} s"
        )
        for workers in (1, 2):
            seconds = _render_all(turn, ids, workers)
            self.stdout.write(
                f"20-kingdom campaign, the turn's map and {len(ids)} reports, {workers} worker(s): {seconds:.2f} s"
            )
        if not keep:
            for campaign in made:
                campaign.delete()
