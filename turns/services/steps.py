"""The steps of a phase, timed and their queries counted when someone asks (`make bench`, the tests
that pin a phase's queries): a phase names its steps (`phase_step("load")`), and
`phase_steps_recorded()` collects them. Outside a recording a step costs a context variable's read,
so the phases always name their steps and a regression shows in the step it is in."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import connection


@dataclass
class StepFigures:
    """One step of a phase: its name, its wall time and this process's CPU time in seconds (the CPU
    time is steadier than the wall time on a busy machine, and leaves out the database's), and its
    database queries."""

    name: str
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    queries: int = 0


_RECORDING: ContextVar[list[StepFigures] | None] = ContextVar("phase_steps", default=None)


@contextmanager
def phase_step(name: str) -> Iterator[None]:
    """Run the block as the step `name` of the phase (recorded only inside `phase_steps_recorded`)."""
    recording = _RECORDING.get()
    if recording is None:
        yield
        return
    figures = StepFigures(name)
    recording.append(figures)

    def counted(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        figures.queries += 1
        return execute(sql, params, many, context)

    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        with connection.execute_wrapper(counted):
            yield
    finally:
        figures.seconds += time.perf_counter() - started
        figures.cpu_seconds += time.process_time() - cpu_started


@contextmanager
def phase_steps_recorded() -> Iterator[list[StepFigures]]:
    """Record the steps the block runs, in order (a step nested in another counts in both)."""
    steps: list[StepFigures] = []
    token = _RECORDING.set(steps)
    try:
        yield steps
    finally:
        _RECORDING.reset(token)
