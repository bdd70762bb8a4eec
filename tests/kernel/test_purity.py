"""The pure core is pure at run time: importing any of its modules in a fresh interpreter loads no
Django, Celery, kombu or REST framework module (ARCHITECTURE: "the pure rules core apart from the
ORM"). import-linter checks the same statically (`make test`); this checks what really loads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The pure packages and modules: the kernel, the rulebook and the map's drawing.
PURE = ["kernel", "rulebook", "kingdoms/map_svg.py"]
FORBIDDEN = ("django", "celery", "kombu", "rest_framework")

_PROBE = """
import importlib, json, sys
forbidden = tuple(sys.argv[1].split(","))
found = {}
for name in sys.argv[2:]:
    importlib.import_module(name)
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in forbidden)
    if loaded:
        found[name] = loaded[:5]
        break
print(json.dumps(found))
"""


def pure_modules(root: Path, paths: list[str]) -> list[str]:
    """Every module under the given packages (and single modules), as dotted names."""
    names = []
    for path in paths:
        target = root / path
        files = [target] if target.is_file() else sorted(target.rglob("*.py"))
        for file in files:
            parts = file.relative_to(root).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def first_impure(root: Path, modules: list[str]) -> dict[str, list[str]]:
    """Import the modules one by one in a fresh interpreter (no DJANGO_SETTINGS_MODULE) and name
    the first that loaded a forbidden module, with what it loaded."""
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, ",".join(FORBIDDEN), *modules],
        cwd=root,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def test_every_pure_module_loads_no_django_celery_or_drf() -> None:
    modules = pure_modules(ROOT, PURE)
    assert "kernel.dice" in modules and "rulebook.turn.pipeline" in modules
    assert first_impure(ROOT, modules) == {}


@pytest.mark.parametrize("statement", ["import django.conf", "from celery import shared_task"])
def test_the_probe_names_a_rules_module_that_imports_django_or_celery(tmp_path: Path, statement: str) -> None:
    # The check above can fail: a rules module that imports Django (or Celery) is named.
    rules = tmp_path / "someapp" / "rules"
    rules.mkdir(parents=True)
    (tmp_path / "someapp" / "__init__.py").write_text("")
    (rules / "__init__.py").write_text("")
    (rules / "clean.py").write_text("import dataclasses\n")
    (rules / "leaky.py").write_text(statement + "\n")
    found = first_impure(tmp_path, pure_modules(tmp_path, ["someapp/rules"]))
    assert list(found) == ["someapp.rules.leaky"]
