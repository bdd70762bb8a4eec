"""Python's cyclic garbage collector paused around a bounded piece of work that builds a great many
objects: a phase of the turn (its world, events, dice rolls and scenarios, a snapshot of the
campaign).

Reference counting frees almost all of them as they go; the cyclic collector only finds cycles. But
it runs a full collection, which walks every object the process holds, each time the objects that
survived younger collections grow by a quarter, and a phase builds them by the hundred thousand: on
the largest campaign of `make bench` three or four full collections took about 300 ms of the
orders phase's 1.15 s of CPU (measured with `gc.callbacks`, issue 35). Paused, the cycles a phase
leaves wait for the first collection after it; the phase's memory is bounded by the campaign's size."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pauses = 0  # the pauses open in this process (threads of one worker share the collector)
_paused_here = False  # whether the first of them found the collector enabled (and so enables it again)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cyclic garbage collector disabled; it is enabled again once the last
    pause open in the process ends, unless it was disabled before the first began."""
    global _pauses, _paused_here
    with _lock:
        if _pauses == 0:
            _paused_here = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _paused_here:
                gc.enable()
