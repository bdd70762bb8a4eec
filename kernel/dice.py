"""The one dice kernel: every random outcome of the campaign is rolled here.

Rolls are deterministic: a `SeededDice` draws from a stream named by the stored seed and a
stream name (for instance "setup:home-selection"), so the same seed on the same state gives
the same rolls whatever order the web requests came in. Every roll is kept with its purpose
and the kingdoms and armies it concerns, so reports can show it. Rule tests pass
`ScriptedDice` with the faces the rule case names.

Pure Python: no Django import.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .records import record_made

_EXPRESSION = re.compile(r"^(?P<count>\d*)D(?P<sides>\d+)$")


@dataclass(frozen=True)
class Roll:
    """One recorded roll: '2D6' with faces (3, 4) has total 7; 'D66' with faces (2, 5) is 25."""

    expression: str
    faces: tuple[int, ...]
    total: int
    purpose: str
    kingdoms: tuple[int, ...] = ()
    armies: tuple[int, ...] = ()


def new_seed() -> str:
    """A fresh seed to store on a campaign or turn."""
    return secrets.token_hex(8)


_PARSED: dict[str, tuple[int, int]] = {}  # the few expressions the rules use, each parsed once


def _parse(expression: str) -> tuple[int, int]:
    """'2D6' -> (2, 6); 'D3' -> (1, 3). D66 is handled by the caller."""
    parsed = _PARSED.get(expression)
    if parsed is None:
        parsed = _parse_new(expression)
        if len(_PARSED) < 64:  # bounded, should an expression ever come from outside the rules
            _PARSED[expression] = parsed
    return parsed


def _parse_new(expression: str) -> tuple[int, int]:
    match = _EXPRESSION.match(expression.upper())
    if not match:
        raise ValueError(f"Unknown dice expression {expression!r}.")
    count = int(match["count"] or 1)
    sides = int(match["sides"])
    if count < 1 or sides < 2:
        raise ValueError(f"Unknown dice expression {expression!r}.")
    return count, sides


@dataclass
class Dice:
    """Rolls dice and records every roll. Subclasses decide where the faces come from."""

    rolls: list[Roll] = field(default_factory=list, init=False)

    def _face(self, sides: int) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def roll(
        self,
        expression: str,
        *,
        purpose: str,
        kingdoms: Iterable[int] = (),
        armies: Iterable[int] = (),
    ) -> Roll:
        """Roll `expression` (D3, D6, 2D6, 3D6, D66, ...) for `purpose` and record it."""
        expression = expression.upper()
        faces: tuple[int, ...]
        if expression == "D66":
            # D66: two D6 read as tens and units (a 2 then a 5 is 25), as the injury chart uses it.
            faces = (self._face(6), self._face(6))
            total = faces[0] * 10 + faces[1]
        else:
            count, sides = _parse(expression)
            faces = (self._face(sides),) if count == 1 else tuple(self._face(sides) for _ in range(count))
            total = sum(faces)
        # Made as `Roll(...)` makes it, without the frozen __init__'s per-field cost (records.py): a
        # large turn's scenarios roll six thousand times.
        result = record_made(
            Roll,
            {
                "expression": expression,
                "faces": faces,
                "total": total,
                "purpose": purpose,
                "kingdoms": tuple(kingdoms),
                "armies": tuple(armies),
            },
        )
        self.rolls.append(result)
        return result

    def d3(self, *, purpose: str, kingdoms: Iterable[int] = (), armies: Iterable[int] = ()) -> int:
        return self.roll("D3", purpose=purpose, kingdoms=kingdoms, armies=armies).total

    def d6(self, *, purpose: str, kingdoms: Iterable[int] = (), armies: Iterable[int] = ()) -> int:
        return self.roll("D6", purpose=purpose, kingdoms=kingdoms, armies=armies).total

    def two_d6(self, *, purpose: str, kingdoms: Iterable[int] = (), armies: Iterable[int] = ()) -> int:
        return self.roll("2D6", purpose=purpose, kingdoms=kingdoms, armies=armies).total


@dataclass
class SeededDice(Dice):
    """Dice drawn from a pseudo-random stream fixed by (seed, stream)."""

    seed: str = ""
    stream: str = ""

    def __post_init__(self) -> None:
        self._random: random.Random | None = None  # seeded at the first roll: many streams never roll

    def _face(self, sides: int) -> int:
        if self._random is None:
            # String seeding of random.Random is stable across runs and Python versions (it hashes
            # with SHA-512), unlike hash() of a str.
            self._random = random.Random(f"{self.seed}:{self.stream}")
        # What random.randint(1, sides) draws (randrange -> _randbelow: sides.bit_length() random
        # bits, drawn again while too large), without its calls in between: the same faces (a
        # test compares them), a third of the time (a large turn's scenarios roll six thousand).
        bits = sides.bit_length()
        face = self._random.getrandbits(bits)
        while face >= sides:
            face = self._random.getrandbits(bits)
        return face + 1


class DiceScriptExhausted(AssertionError):
    """A scripted test asked for more dice than its script holds."""


@dataclass
class ScriptedDice(Dice):
    """Dice that return the faces given, in order: for rule tests."""

    faces: Sequence[int] = ()

    def __post_init__(self) -> None:
        self._queue = list(self.faces)

    def _face(self, sides: int) -> int:
        if not self._queue:
            raise DiceScriptExhausted("The scripted dice ran out of faces.")
        face = self._queue.pop(0)
        if not 1 <= face <= sides:
            raise ValueError(f"Scripted face {face} is not possible on a D{sides}.")
        return face

    @property
    def unused(self) -> list[int]:
        return list(self._queue)
