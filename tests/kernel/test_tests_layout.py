"""tests/ is laid out as the code is (house style 10, issue 30): each directory holds the tests of one
app or package of the project, named as it is, or is one of the declared cross-cutting directories;
and a test module imports the code it is about mostly from its directory's app.

The rule for a module, simple on purpose: count the project modules it imports, per app, leaving out
what every test uses to stage its world rather than to test it (the staging imports below). Its
directory's app must be among the most imported. A module that imports no counted module (one that
tests through pages and the API only) passes. The few modules that break the rule for a reason are
declared, each with its reason."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

# Directories that are about no one app, each with why.
CROSS_CUTTING = {
    "browser": "the flows in a real Chromium: whole stories across the apps, one live server and browser",
}

# Modules every test imports to stage its world or to read what happened, whichever app it tests;
# they count only in their own app's directory. Any app's records (its models); the demo campaign;
# the pure kernel and rulebook (the rules' records, tables and dice); the project's adapters
# (briternia: the domain error, the middleware's messages); the turn cycle's phases and its sweep
# (playing a turn is how a test reaches the state its app's code acts on); the filing of an order
# sheet (how a test gives a turn its orders); the making of a campaign; the world loader (how a test
# reads the world a phase left, or says it changed it by hand); the turn reports' contexts (how a
# test reads what a turn told its players); the outbox's send task (sending a queued email as the
# worker would).
STAGING_PACKAGES = {"demo", "kernel", "rulebook", "briternia"}
STAGING_MODULES = {
    "turns.services.cycle",
    "turns.tasks",
    "orders.services.sheets",
    "kingdoms.services.campaigns",
    "kingdoms.services.world",
    "reports.services.reports",
    "outbox.tasks",
}

# Test modules directly under tests/: about the tests' own helpers beside them.
TOP_LEVEL = {"test_shared_rows.py": "the shared builds of tests/shared_rows.py"}

# Test modules that break the rule for a reason, by path under tests/.
EXCEPTIONS = {
    "briternia/test_error_pages.py": "the project's server-error page, reached through a failing view of kingdoms",
    "battles/test_tomb_raid_aftermath_service.py": (
        "the raid's aftermath; the raiders' force and the turn's log staged through their apps' services"
    ),
    "inbox/test_filing.py": (
        "a sheet filed by email, read back as the orders app stores it (its entries) and writes it (its text)"
    ),
    "transfer/test_snapshots.py": (
        "the snapshots and their restore; the turns due and a kingdom changing hands (a Rogue Kingdom) staged "
        "through the orders app's services"
    ),
}


def project_apps() -> set[str]:
    """The project's apps and packages: the top-level directories that are Python packages."""
    return {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file() and p.name != "tests"}


def imported_modules(source: str) -> set[str]:
    """The modules the source imports (`from kingdoms.services import campaigns` imports
    kingdoms.services.campaigns)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                is_module = (ROOT / submodule.replace(".", "/")).with_suffix(".py").is_file()
                found.add(submodule if is_module else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def counted_imports(source: str, own: str) -> Counter[str]:
    """Per app, how many project modules the source imports, the staging ones left out."""
    apps = project_apps()
    counts: Counter[str] = Counter()
    for name in imported_modules(source):
        app = name.split(".")[0]
        staging = (app != own and (app in STAGING_PACKAGES or name in STAGING_MODULES)) or name.endswith(".models")
        if app in apps and not staging:
            counts[app] += 1
    return counts


def misplaced(relative: Path, source: str, exceptions: dict[str, str] = EXCEPTIONS) -> str | None:
    """Why the test module (its path under tests/, its text) is not where it belongs, or None."""
    name = relative.as_posix()
    if len(relative.parts) == 1:
        return None if name in TOP_LEVEL else f"{name}: directly under tests/, in no app's directory"
    own = relative.parts[0]
    if own in CROSS_CUTTING or name in exceptions:
        return None
    counts = counted_imports(source, own)
    most = max(counts.values(), default=0)
    if counts[own] == most:
        return None
    return f"{name}: imports mostly {sorted(app for app, n in counts.items() if n == most)}, not {own}"


def test_every_tests_directory_is_an_app_or_a_declared_cross_cutting_one() -> None:
    directories = {p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert directories - project_apps() - set(CROSS_CUTTING) == set()


def test_every_test_module_is_under_the_app_it_imports_most() -> None:
    modules = sorted(TESTS.rglob("test_*.py"))
    assert len(modules) > 200
    assert [why for path in modules if (why := misplaced(path.relative_to(TESTS), path.read_text()))] == []


def test_each_declared_exception_exists_and_still_breaks_the_rule() -> None:
    """An exception whose module moved or now follows the rule is dropped, so the list stays short."""
    for name in EXCEPTIONS:
        path = TESTS / name
        assert path.is_file(), name
        assert misplaced(Path(name), path.read_text(), exceptions={}) is not None, f"{name} follows the rule"
    assert all((TESTS / name).is_file() for name in TOP_LEVEL)


def test_a_misplaced_module_is_found() -> None:
    """The rule can fail: a reports test kept under tests/orders is named; under tests/reports it passes."""
    source = "from orders.models import OrderSheet\nfrom reports.services.deliveries import report_recipients\n"
    found = misplaced(Path("orders/test_probe.py"), source)
    assert found == "orders/test_probe.py: imports mostly ['reports'], not orders"
    assert misplaced(Path("reports/test_probe.py"), source) is None
    assert misplaced(Path("test_probe.py"), source) == "test_probe.py: directly under tests/, in no app's directory"


def test_a_directory_of_no_app_is_found() -> None:
    assert {"reporting", "browser", "reports"} - project_apps() - set(CROSS_CUTTING) == {"reporting"}
