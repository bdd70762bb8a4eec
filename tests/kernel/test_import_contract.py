"""The import contract (pyproject.toml, [tool.importlinter]; `make test` runs `lint-imports`) holds
on the tree, and it fails when a rules module imports Django, an app imports a layer above it, or,
inside an app, a service, selector or model imports an adapter (a view, API, form, serializer, task,
admin, command) or a module is given no room (docs/architecture.md, "Layout and the direction of
imports"). Each case runs lint-imports on a copy of the project's packages."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = [
    "kernel",
    "rulebook",
    "briternia",
    "outbox",
    "kingdoms",
    "diplomacy",
    "orders",
    "battles",
    "reports",
    "inbox",
    "turns",
    "demo",
    "transfer",
]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _copy(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "migrations"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tree,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_tree_keeps_every_contract(tmp_path: Path) -> None:
    result = _lint(_copy(tmp_path))
    assert result.returncode == 0, result.stdout
    assert "0 broken" in result.stdout


def test_the_turn_cycle_above_the_apps_names_every_module_of_turns_but_its_records() -> None:
    """The apps' layers split the turns app: its records (turns.models) at the bottom, every other
    module of it at the top. A layer cannot hold a package and one of its modules, so the top layer
    names the modules one by one: a new one left out would escape the layers."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["name"].startswith("The apps in layers"))["layers"]
    top = next(layer for layer in layers if "turns.services" in layer)
    modules = {
        f"turns.{path.stem}"
        for path in (ROOT / "turns").iterdir()
        if (path.suffix == ".py" or (path / "__init__.py").exists())
        and path.stem not in ("__init__", "models", "migrations")
    }
    assert {name.strip() for name in top.split(":")} == modules
    assert layers.index("turns.models") > layers.index("outbox")
    assert layers.index("turns.models") < layers.index("rulebook")


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        ("rulebook/turn/tables.py", "import django.conf", "The pure core"),
        ("rulebook/turn/aftermath/results.py", "from battles import models", "The pure core"),
        ("kernel/dice.py", "import rulebook.tables", "The kernel stands alone"),
        ("rulebook/allies/chart.py", "import django", "The pure core"),
        ("rulebook/turn/state.py", "from kingdoms.models import Army", "The rulebook stands on the kernel alone"),
        ("orders/models.py", "from battles.models import Battle", "The apps in layers"),
        ("kingdoms/services/campaigns.py", "from turns.services import cycle", "The apps in layers"),
        ("reports/selectors.py", "import transfer.export", "The apps in layers"),
        # The turn cycle's records stand below every app (they name the others' models by label),
        # the rest of the turns app above them all.
        ("turns/models.py", "from kingdoms.models import Campaign", "The apps in layers"),
        ("turns/models.py", "from outbox.models import Email", "The apps in layers"),
        ("turns/models.py", "from turns.services import cycle", "The apps in layers"),
        ("orders/models.py", "from turns.services import cycle", "The apps in layers"),
        ("outbox/services.py", "from turns.tasks import deadline_sweep", "The apps in layers"),
        ("battles/views.py", "from briternia import urls", "Only the project's entry points"),
        # Inside each app: a service, selector or model never imports an adapter, and every module has its room.
        ("orders/services/sheets.py", "from orders import views", "Inside each app, the adapters stand above"),
        ("kingdoms/selectors.py", "from kingdoms.forms import InviteForm", "Inside each app, the adapters stand above"),
        ("battles/selectors.py", "from battles.services import summaries", "Inside each app, the adapters stand above"),
        ("outbox/models.py", "from outbox import admin", "Inside each app, the adapters stand above"),
        ("orders/helpers.py", "from orders import models", "Inside each app, the adapters stand above"),
        (
            "battles/services/rewards.py",
            "from kingdoms.serializers import KingdomPublicSerializer",
            "No service, selector",
        ),
        ("kingdoms/services/armies.py", "from outbox.tasks import email_send", "No service, selector"),
        ("reports/selectors.py", "from orders.api import OrderSheetApi", "No service, selector"),
        ("transfer/export.py", "from transfer import views", "Inside transfer, the pages and commands"),
        ("demo/campaign.py", "from demo.management.commands import demo_campaign", "Inside demo, the commands"),
    ],
)
def test_a_forbidden_import_breaks_the_contract(tmp_path: Path, module: str, line: str, broken: str) -> None:
    tree = _copy(tmp_path)
    with (tree / module).open("a") as source:
        source.write(f"\n{line}  # noqa\n")
    result = _lint(tree)
    assert result.returncode != 0
    assert f"{broken}" in result.stdout.split("Broken contracts")[-1]
