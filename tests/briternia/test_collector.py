"""The cyclic garbage collector is paused around a phase (briternia/collector.py) and always enabled
again: after the block, after a failure in it, after the last of pauses that overlap."""

from __future__ import annotations

import gc

import pytest

from briternia.collector import collector_paused


def test_the_collector_is_paused_in_the_block_and_enabled_after_it_even_after_a_failure() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("the phase failed")
    assert gc.isenabled()


def test_pauses_that_overlap_enable_it_once_the_last_ends() -> None:
    first, second = collector_paused(), collector_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled()  # the second pause is still open
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_a_collector_disabled_before_stays_disabled() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
