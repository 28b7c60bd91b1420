"""Six-sided dice (II-A): rollers, characteristic tests, raises, opposed tests, exact odds.

Every die in the project is rolled through a :class:`Roller`. Two implementations share
the interface: :class:`SeededRoller` (reproducible pseudo-random faces) and
:class:`ScriptedRoller` (fixed faces, for rulebook examples and tests). Nothing else in
the project may call :mod:`random`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


class DiceScriptExhausted(RuntimeError):
    """A :class:`ScriptedRoller` was asked for more dice than its script holds."""


@runtime_checkable
class Roller(Protocol):
    """Source of d6 faces. ``rolled`` counts the dice thrown so far (the stream position)."""

    @property
    def rolled(self) -> int: ...

    def d6(self) -> int:
        """Roll one six-sided die and return its face (1-6)."""
        ...


class SeededRoller:
    """Reproducible d6 stream: the same seed gives the same faces, in the same order."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._rolled = 0

    @property
    def rolled(self) -> int:
        return self._rolled

    def d6(self) -> int:
        self._rolled += 1
        return self._rng.randint(1, 6)

    @classmethod
    def at(cls, seed: int, position: int) -> SeededRoller:
        """A roller for ``seed`` that has already thrown ``position`` dice (resume a stream)."""
        roller = cls(seed)
        for _ in range(position):
            roller.d6()
        return roller


class ScriptedRoller:
    """Fixed faces in order, e.g. ``ScriptedRoller([6, 6, 4])`` for the Echahÿm example."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        for face in self._faces:
            if face not in FACES:
                raise ValueError(f"a d6 face must be 1-6, not {face!r}")
        self._rolled = 0

    @property
    def rolled(self) -> int:
        return self._rolled

    @property
    def remaining(self) -> int:
        """Faces not yet used."""
        return len(self._faces) - self._rolled

    def d6(self) -> int:
        if self._rolled >= len(self._faces):
            raise DiceScriptExhausted(
                f"the script of {len(self._faces)} dice is used up (die {self._rolled + 1} asked)"
            )
        face = self._faces[self._rolled]
        self._rolled += 1
        return face
