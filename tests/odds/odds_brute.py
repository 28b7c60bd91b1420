"""Brute force: every sequence of die faces fed to the engine's own fight() (tests only)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T")


class NeedDie(Exception):
    """The script ran out: the caller must branch on the next face."""


class PrefixRoller:
    """A roller that plays a fixed prefix of faces and stops the run when it is used up."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self._rolled = 0

    @property
    def rolled(self) -> int:
        return self._rolled

    def d6(self) -> int:
        if self._rolled == len(self.faces):
            raise NeedDie
        face = self.faces[self._rolled]
        self._rolled += 1
        return face


def enumerate_faces(run: Callable[[PrefixRoller], T], limit: int = 400_000) -> dict[T, Fraction]:
    """P(result) of ``run`` over every face sequence it can ask for: a depth-first search that
    replays ``run`` with each prefix and branches on the six faces whenever it needs one more
    die. Each leaf of length n weighs 6^-n."""
    out: dict[T, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    runs = 0
    while stack:
        prefix = stack.pop()
        runs += 1
        if runs > limit:
            raise RuntimeError("too many face sequences for a brute force")
        roller = PrefixRoller(prefix)
        try:
            result = run(roller)
        except NeedDie:
            stack.extend((*prefix, face) for face in range(1, 7))
            continue
        assert roller.rolled == len(prefix)
        out[result] = out.get(result, Fraction(0)) + Fraction(1, 6 ** len(prefix))
    return out
