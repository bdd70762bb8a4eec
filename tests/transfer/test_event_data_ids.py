"""No key of an event's data escapes the export's naming (docs/architecture.md, section 9, Export and import).

An event's data may hold database ids (a kingdom's, an army's, an effect's): the document names their rows
instead, as transfer/references.py's EVENT_DATA_REFERENCES declares them by event code and key, and the
import writes the copy's ids back. Nothing else looks at that table, so an id added to an event's data and
not declared would travel as the original's id and name another campaign's row in the copy, or none.

So the project's code is read here (ast) for every event it builds: `Event(phase, EventCode.X, ...,
data=...)`, `TurnEvent(code=..., data=...)` (`.objects.create` too) and the {"code": ..., "data": ...} a
service hands to one; not the writers copying an event's data built elsewhere (`data=without_alliance_id(
event.data)`). The
codes and keys are followed through local variables, `{**spread}`, `a | b`, `dict(...)`, `x["key"] = ...`,
`x.update(key=...)`, a module's helpers (their parameters and `**data` from each call in the module) and
their returned dicts. Every (code, key) found must be declared in EVENT_DATA_REFERENCES or classified below
as holding no id; data the scan cannot follow is listed in BUILT_ELSEWHERE, its keys classified by hand.
A value that looks like an id (`x.id`, `x_id`, `x.kingdom`, ...) classified as plain must be reviewed in
NOT_IDS, with why."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from transfer.references import EVENT_DATA_REFERENCES, as_of

ROOT = Path(__file__).resolve().parents[2]


def _words(text: str) -> set[str]:
    return set(text.split())


# Keys that hold no id in any event: amounts, rolls, flags, words, names, times, turn and province numbers.
PLAIN_KEYS = _words(
    """
    ability alliances_ended amulet another_face arrival arrives arrives_turn assault back_to bearer bonus
    captain capture_face captured_turn character choice choose code common cost d2 d6 desired destroyed detail
    draw_face earned entry experience experience_lost face faces facing fate fee filed first force
    fortified_points garrison_defends garrison_defenses garrison_points given gold gone held how injuries
    items items_gone items_kept killed kind label leadership left level list_written lost lost_turn
    misses_battles mission models moved name order ordered_turn over_by painted path phase pieces points
    points_lost points_per_model problem problems provinces razed reason received recovered released reroll
    restored_at restored_by result rogue_since roll rolled rolls ruin ruin_raids rule second section sent_turn
    sequence settlement side skirmish snapshot_taken_at sources spare_carts stats story_turn taken target_name
    tied tomb_raiders treasury trust turn turns_left unit units upgrade warlord_to_create what
    """
)
# Keys whose name holds an id in some event, plain in these (by code): a province, a size, a temporary id.
PLAIN_FOR = {
    "alliance-broken": {"alliance"},  # the rules' id: not stored (kingdoms/services/alliances.py without_alliance_id)
    "alliance-cancelled": {"alliance"},
    "alliance-formed": {"alliance"},
    "army-upgraded": {"from", "to"},  # sizes
    "battle-scheduled": {"battle", "defender"},  # the battle's province; who defends a mission ("guard")
    "capitol-moved": {"from"},  # a province
    "defended-obstacles": {"battle"},
    "desert-spread": {"from"},  # a terrain
    "incantation": {"from"},
    "moved": {"from"},
    "raider-captured": {"captive"},  # new: the rules' temporary (negative) id, naming no row
    "rogue-kingdom": {"armies"},  # how many armies it lost (orders/services/rogue.py)
    "raiders-coming": {"battle", "defender"},
    "retreated": {"from"},
    "sabotage-applied": {"battle"},
    "skirmish-lost": {"from"},
    "support": {"battle"},
    "support-cancelled": {"battle"},
    "support-no-battle": {"battle"},
    "support-refused": {"battle"},
    "ally-support": {"battle"},
    "garrison-beside-ally": {"battle"},
}
# Data the scan cannot follow, by code: where it is built, and its keys (classified as any other).
BUILT_ELSEWHERE = {
    # fight_battles/guerrilla_tactics.py: the battle's guerrilla (references.GUERRILLA_REFERENCES), and "taken".
    "guerrilla": {"army", "roll", "result", "target", "points_lost", "taken"},
    # aftermath/character_injuries.py: the injury as the chart gives it (injury_chart.py Injury.as_json).
    "injury": {"character", "code", "label", "roll", "stats", "detail", "misses_battles"},
}
# Values that look like ids, reviewed: (code, key) -> why the key holds none, or none the document can name.
NOT_IDS = {
    ("raider-captured", "captive"): "a captive new this turn: the rules' temporary negative id",
    ("alliance-formed", "alliance"): "not stored (without_alliance_id)",
    ("alliance-cancelled", "alliance"): "not stored (without_alliance_id)",
    ("alliance-broken", "alliance"): "not stored (without_alliance_id)",
}
# Value expressions that look like an id: `x.id`, `x.pk`, `x_id`, and the attributes that hold one.
ID_ATTRIBUTES = {"id", "pk", "kingdom", "army", "controller", "captor", "owner", "target", "target_army"}


@dataclass(frozen=True)
class Built:
    """An event the code builds: where, its possible codes and its data's keys (None: not followed),
    with the source of each literal value."""

    where: str
    codes: frozenset[str] | None
    keys: frozenset[str] | None
    values: tuple[tuple[str, ast.expr], ...]


def _modules() -> Iterator[Path]:
    for package in sorted(ROOT.iterdir()):
        if package.name != "tests" and not package.is_symlink() and (package / "__init__.py").is_file():
            yield from (p for p in sorted(package.rglob("*.py")) if "migrations" not in p.parts)


class _Module:
    def __init__(self, path: Path, source: str | None = None) -> None:
        self.name = str(path.relative_to(ROOT)) if source is None else str(path)
        self.tree = ast.parse(path.read_text() if source is None else source)
        self.up = {child: node for node in ast.walk(self.tree) for child in ast.iter_child_nodes(node)}
        self.functions = {n.name: n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef)}
        self.constants = {
            t.id: n.value
            for n in self.tree.body
            if isinstance(n, ast.Assign)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        self.values: list[tuple[str, ast.expr]] = []
        # While one call of a helper is followed (its code and data from that call's arguments alone).
        self.only: tuple[ast.FunctionDef, ast.Call] | None = None

    def function(self, node: ast.AST) -> ast.FunctionDef | None:
        while node in self.up:
            node = self.up[node]
            if isinstance(node, ast.FunctionDef):
                return node
        return None

    def assigned(self, name: str, scope: ast.AST | None) -> list[ast.expr]:
        """What `name` is given in `scope` (its function, else the module)."""
        found: list[ast.expr] = []
        for node in ast.walk(scope or self.tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                found.append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
                found += [node.value] if node.value is not None else []
        if scope is None and name in self.constants:
            found.append(self.constants[name])
        return found

    def arguments(self, function: ast.FunctionDef, name: str) -> list[tuple[ast.expr, ast.FunctionDef | None]]:
        """What each call of `function` in the module passes for its parameter `name` (`**name`: the
        call's other keywords, as a dict)."""
        arguments = function.args
        positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
        named = {*positional, *(a.arg for a in arguments.kwonlyargs)}
        found: list[tuple[ast.expr, ast.FunctionDef | None]] = []
        for call in ast.walk(self.tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == function.name):
                continue
            if self.only is not None and self.only[0] is function and self.only[1] is not call:
                continue
            scope = self.function(call)
            if arguments.kwarg is not None and name == arguments.kwarg.arg:
                rest = [k for k in call.keywords if k.arg not in named]
                keys = [None if k.arg is None else ast.Constant(k.arg) for k in rest]
                found.append((ast.Dict(keys=keys, values=[k.value for k in rest]), scope))
                continue
            found += [(k.value, scope) for k in call.keywords if k.arg == name]
            if name in positional and positional.index(name) < len(call.args):
                found.append((call.args[positional.index(name)], scope))
        return found

    def codes(self, expr: ast.expr, scope: ast.FunctionDef | None) -> set[str] | None:
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "EventCode":
            return {expr.attr}
        if isinstance(expr, ast.IfExp):
            return _union(self.codes(expr.body, scope), self.codes(expr.orelse, scope))
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):  # a module's table of codes
            table = self.constants.get(expr.value.id)
            return _all([self.codes(v, None) for v in table.values]) if isinstance(table, ast.Dict) else None
        if isinstance(expr, ast.Name):
            return self.followed(expr.id, scope, self.codes)
        return None

    def keys(self, expr: ast.expr, scope: ast.FunctionDef | None) -> set[str] | None:
        if isinstance(expr, ast.Dict):
            found: set[str] | None = set()
            for key, value in zip(expr.keys, expr.values, strict=True):
                if key is None:
                    found = _union(found, self.keys(value, scope))
                elif isinstance(key, ast.Constant) and isinstance(key.value, str):
                    found = _union(found, {key.value})
                    self.values.append((key.value, value))
                else:
                    return None
            return found
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
            return _union(self.keys(expr.left, scope), self.keys(expr.right, scope))
        if isinstance(expr, ast.IfExp):
            return _union(self.keys(expr.body, scope), self.keys(expr.orelse, scope))
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            if expr.func.id == "dict":
                own = {k.arg for k in expr.keywords if k.arg is not None}
                return _all([*(self.keys(a, scope) for a in expr.args), own])
            if expr.func.id in self.functions:  # a helper of the module: the dicts it returns
                helper = self.functions[expr.func.id]
                returned = [n.value for n in ast.walk(helper) if isinstance(n, ast.Return) and n.value is not None]
                return _all([self.keys(r, helper) for r in returned]) if returned else None
        if isinstance(expr, ast.Name):
            found = self.followed(expr.id, scope, self.keys)
            if found is not None and scope is not None:  # data["key"] = ..., data.update(key=...)
                for node in ast.walk(scope):
                    if isinstance(node, ast.Assign):
                        found |= {
                            t.slice.value
                            for t in node.targets
                            if isinstance(t, ast.Subscript)
                            and isinstance(t.value, ast.Name)
                            and t.value.id == expr.id
                            and isinstance(t.slice, ast.Constant)
                        }
                    if (
                        isinstance(node, ast.Call)
                        and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "update"
                        and isinstance(node.func.value, ast.Name)
                        and node.func.value.id == expr.id
                    ):
                        found |= {k.arg for k in node.keywords if k.arg is not None}
            return found
        return None

    def followed(self, name: str, scope: ast.FunctionDef | None, how):  # type: ignore[no-untyped-def]
        """What `how` finds for the values a name is given: assigned in its function, or a parameter's
        arguments at each call of the function in the module."""
        assigned = self.assigned(name, scope)
        if assigned:
            return _all([how(value, scope) for value in assigned])
        if scope is not None:
            passed = self.arguments(scope, name)
            if passed:
                return _all([how(value, caller) for value, caller in passed])
        return None

    def built(self) -> Iterator[Built]:
        for node in ast.walk(self.tree):
            code = data = None
            if isinstance(node, ast.Call) and ast.unparse(node.func) in (
                "Event",
                "TurnEvent",
                "TurnEvent.objects.create",
            ):
                keywords = {k.arg: k.value for k in node.keywords}
                code = keywords.get("code") or (
                    node.args[1] if node.func.id == "Event" and len(node.args) > 1 else None
                )
                data = keywords.get("data")
            elif isinstance(node, ast.Dict):  # a service's {"code": EventCode.X, "data": ...} for a TurnEvent
                by_key = {
                    k.value: v for k, v in zip(node.keys, node.values, strict=True) if isinstance(k, ast.Constant)
                }
                code, data = by_key.get("code"), by_key.get("data")
                if (
                    not (isinstance(code, ast.Attribute) and isinstance(code.value, ast.Name))
                    or code.value.id != "EventCode"
                ):
                    continue
            else:
                continue
            if data is None or _copied(data):
                continue  # none, or an event's data built elsewhere, copied (orders/services/events.py)
            scope = self.function(node)
            if isinstance(code, ast.Name) and scope is not None and not self.assigned(code.id, scope):
                # A helper given the code (deserts_turned._said): each call with its own code and data.
                calls = [c for c in ast.walk(self.tree) if isinstance(c, ast.Call) and _calls(c, scope.name)]
                for call in calls:
                    self.only = (scope, call)
                    yield self.one(node, code, data, scope)
                self.only = None
            else:
                yield self.one(node, code, data, scope)

    def one(self, node: ast.AST, code: ast.expr | None, data: ast.expr, scope: ast.FunctionDef | None) -> Built:
        self.values = []
        keys = self.keys(data, scope)
        codes = self.codes(code, scope) if code is not None else None
        where = f"{self.name}:{getattr(node, 'lineno', 0)}"
        if self.only is not None:
            where += f" (called at line {self.only[1].lineno})"
        return Built(
            where,
            None if codes is None else frozenset(codes),
            None if keys is None else frozenset(keys),
            tuple(self.values),
        )


def _copied(data: ast.expr) -> bool:
    """`x.data`, or a function of it: an event's data built elsewhere."""
    if isinstance(data, ast.Call):
        return any(_copied(argument) for argument in data.args)
    return isinstance(data, ast.Attribute) and data.attr == "data"


def _calls(call: ast.Call, name: str) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id == name


def _union(a: set[str] | None, b: set[str] | None) -> set[str] | None:
    return None if a is None or b is None else a | b


def _all(found: list[set[str] | None]) -> set[str] | None:
    result: set[str] | None = set()
    for one in found:
        result = _union(result, one)
    return result


def _codes() -> dict[str, str]:
    from kernel.event_codes import EventCode

    return {code.name: code.value for code in EventCode}


def built_events() -> list[Built]:
    return [built for path in _modules() for built in _Module(path).built()]


def _declared(code: str) -> set[str]:
    return set(as_of(EVENT_DATA_REFERENCES.get(code, {}), None))  # type: ignore[arg-type]


def _looks_like_an_id(value: ast.expr) -> bool:
    if isinstance(value, ast.Attribute):
        return value.attr in ID_ATTRIBUTES
    return isinstance(value, ast.Name) and value.id.endswith("_id")


def test_every_event_built_is_read_by_the_scan():
    """Each event's code and data are followed to their literal codes and keys, or listed in BUILT_ELSEWHERE."""
    names = _codes()
    built = built_events()
    assert len(built) > 100  # the scan finds the events (about 130 places build one)
    lost = [b.where for b in built if b.codes is None]
    assert lost == [], "the scan cannot tell these events' codes: follow them, or declare them here"
    unfollowed = [
        f"{b.where} ({', '.join(sorted(b.codes or ()))})"
        for b in built
        if b.keys is None and not {names[c] for c in b.codes or ()} <= BUILT_ELSEWHERE.keys()
    ]
    assert unfollowed == [], "the scan cannot follow these events' data: list them in BUILT_ELSEWHERE"


def test_every_key_of_an_event_s_data_is_declared_or_classified():
    """A key holding an id is declared in transfer/references.py EVENT_DATA_REFERENCES (by the code's value);
    any other is plain data here. A key new to an event fails until it is one or the other."""
    names = _codes()
    unclassified = set()
    for built in built_events():
        for code in (names[c] for c in built.codes or ()):
            keys = built.keys if built.keys is not None else BUILT_ELSEWHERE[code]
            for key in keys - _declared(code) - PLAIN_KEYS - PLAIN_FOR.get(code, set()):
                unclassified.add(f"{code} {key!r} ({built.where})")
    assert sorted(unclassified) == [], (
        "declare each in transfer/references.py EVENT_DATA_REFERENCES if it holds an id, else classify it here"
    )


def test_no_key_classified_plain_names_an_id_elsewhere():
    """A key that holds an id in some event (declared) is classified plain only by code (PLAIN_FOR), never
    for every event; and a value that looks like an id, classified plain, is reviewed (NOT_IDS)."""
    declared = {key for code in EVENT_DATA_REFERENCES for key in _declared(code)}
    assert PLAIN_KEYS & declared == set()
    names = _codes()
    looking = {
        (names[code], key)
        for built in built_events()
        for code in built.codes or ()
        for key, value in built.values
        if _looks_like_an_id(value) and key not in _declared(names[code])
    }
    assert sorted(looking - NOT_IDS.keys()) == [], "an id classified as plain data: declare it, or review it"


def test_the_declarations_name_keys_the_code_writes():
    """Each code and key declared (EVENT_DATA_REFERENCES) or classified by code (PLAIN_FOR) is one the
    scan finds, so the tables do not keep what the code no longer writes."""
    names = _codes()
    written: dict[str, set[str]] = {}
    for built in built_events():
        for code in (names[c] for c in built.codes or ()):
            written.setdefault(code, set()).update(built.keys if built.keys is not None else BUILT_ELSEWHERE[code])
    stale = {
        f"{code} {key!r}"
        for table in (EVENT_DATA_REFERENCES, PLAIN_FOR)
        for code, keys in table.items()
        for key in keys
        if key not in written.get(code, set())
    }
    assert sorted(stale) == []
    assert sorted(PLAIN_KEYS - {key for keys in written.values() for key in keys}) == []


# What the scan follows, on a module written here: a helper given the code and **data, a variable grown
# by key, a spread and a returned dict.
SAMPLE = """
def _said(army, code, text, **data):
    return Event(PHASE, code, text, kingdom=army.kingdom, data=dict(data))

def _common(battle):
    return {"battle": battle.province}

def deal(state, a, b, events):
    events.append(_said(a, EventCode.LAND_DEAL, "", with_kingdom=b))
    data = {"roll": 1, **_common(a)}
    data["rogue_kingdom"] = b.controller
    code = EventCode.ROGUE_KINGDOM_ROLL if a else EventCode.RUINS_WAITING
    events.append(Event(PHASE, code, "", data=data | {"with_army": a.id}))
"""


def test_the_scan_follows_helpers_variables_and_spreads():
    built = {b.where: (b.codes, b.keys) for b in _Module(Path("sample.py"), SAMPLE).built()}
    assert built == {
        "sample.py:3 (called at line 9)": ({"LAND_DEAL"}, {"with_kingdom"}),
        "sample.py:13": ({"ROGUE_KINGDOM_ROLL", "RUINS_WAITING"}, {"roll", "battle", "rogue_kingdom", "with_army"}),
    }
