"""The rulebook's layout keeps what it promises (docs/architecture.md, "The rulebook"): small
modules, no class that runs a whole phase, and no import cycle between its files, so following a
rule goes one way. import-linter checks the rulebook imports no Django and no app (`make test`)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "rulebook"
MODULE_LINES_MAX = 600
CLASS_LINES_MAX = 200


def _modules() -> list[Path]:
    return sorted(RULEBOOK.rglob("*.py"))


def import_cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round about (the strongly
    connected components of more than one module), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in sorted(edges.get(module, ())):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for module in sorted(edges):
        if module not in order:
            visit(module)
    return cycles


def test_the_cycle_finder_names_modules_that_import_each_other() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(edges) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_the_rulebook_s_files() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph("rulebook", cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    edges = {
        module: {m for m in graph.find_modules_directly_imported_by(module) if m.split(".")[0] == "rulebook"}
        for module in graph.modules
    }
    assert len(edges) > 40
    assert import_cycles(edges) == []


def test_no_rulebook_module_over_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for path in _modules()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES_MAX
    }
    assert long == {}


def test_no_rulebook_class_over_200_lines() -> None:
    long = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or node.end_lineno is None:
                continue
            if (n := node.end_lineno - node.lineno + 1) > CLASS_LINES_MAX:
                long[f"{path.relative_to(ROOT)}:{node.name}"] = n
    assert long == {}
