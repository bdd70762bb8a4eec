"""Running a task in each thread of a pool, for the web workers' warm-up tests (briternia/warm.py
and the steps apps register with it)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def in_every_thread(pool: ThreadPoolExecutor, threads: int, task: Callable[[], Any]) -> dict[int, Any]:
    """`task`'s answer in each of the pool's threads (each call held until all have started)."""
    together = threading.Barrier(threads)

    def run() -> tuple[int, Any]:
        together.wait(10)
        return threading.get_ident(), task()

    return dict(future.result(10) for future in [pool.submit(run) for _ in range(threads)])
