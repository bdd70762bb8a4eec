"""The event codes (kernel/event_codes.py): one member per code the turn writes, stable
kebab-case values, and no emitter that types a code by hand."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from kernel.event_codes import PUBLIC_EVENT_CODES, EventCode

ROOT = Path(__file__).resolve().parents[2]
# Where events are made: the turn's phases and the aftermath.
EMITTERS = [*sorted((ROOT / "rulebook/turn").glob("*.py")), *sorted((ROOT / "rulebook/turn/aftermath").glob("*.py"))]


def test_codes_are_kebab_case_and_unique():
    values = [code.value for code in EventCode]
    assert len(set(values)) == len(values)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", v) for v in values), values


def test_the_public_codes_are_event_codes():
    assert PUBLIC_EVENT_CODES.issubset(EventCode)
    # Both ways an army is disbanded reach the bulletin.
    assert {EventCode.ARMY_DISBANDED, EventCode.DISBANDED} <= PUBLIC_EVENT_CODES


def _typed_by_hand(argument: ast.expr) -> bool:
    if isinstance(argument, ast.IfExp):
        return _typed_by_hand(argument.body) or _typed_by_hand(argument.orelse)
    return isinstance(argument, ast.Constant | ast.JoinedStr)


def test_no_event_is_made_with_a_code_typed_as_a_string():
    """`Event(phase, code, ...)` and the helpers that pass a code on take an EventCode member."""
    code_argument = {"Event": 1, "event": 0, "_gold": 3, "_cancel": 4, "_unavailable": 1, "_foraging_event": 1}
    typed = []
    for path in EMITTERS:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            position = code_argument.get(name or "")
            if position is None or len(node.args) <= position:
                continue
            if _typed_by_hand(node.args[position]):
                typed.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert typed == []
