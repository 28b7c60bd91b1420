"""Legal lists whose costly parts are worked out only when read (issue 22, fourth round).

The activation question lists, for every fighter and enemy, a charge or an engagement
(V-B-3: a charge if he sees the enemy when it is announced), and for every shooter the
enemies he sees (VI-A): one sight question a pair, most of them for enemies no assault could
reach or out of range, that no agent would pick. :class:`LazyChoices`
holds such pairs as :class:`Deferred` parts: the same choices in the same order, each part
worked out (once) when something reads it. Its length needs only the parts whose number of
choices is unknown; membership needs only the parts that could hold the choice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import overload

from confrontation.engine.core.questions import Choice


class Deferred:
    """Choices not worked out yet, all naming ``key`` = (fighter, target).

    ``make()`` lists them (called once, when first read); ``size`` is how many there are
    when known without ``make`` (None: ask ``make``); ``least`` how many there are at least.
    """

    __slots__ = ("_made", "key", "least", "make", "size")

    def __init__(
        self,
        key: tuple[str, str],
        make: Callable[[], tuple[Choice, ...]],
        size: int | None = None,
        least: int = 0,
    ) -> None:
        self.key = key
        self.make = make
        self.size = size
        self.least = size if size is not None else least
        self._made: tuple[Choice, ...] | None = None

    def choices(self) -> tuple[Choice, ...]:
        """The choices (worked out on the first call)."""
        if self._made is None:
            self._made = self.make()
        return self._made

    def count(self) -> int:
        """How many choices (worked out only if ``size`` is unknown)."""
        if self._made is None and self.size is not None:
            return self.size
        return len(self.choices())

    def may_hold(self, choice: Choice) -> bool:
        """Could ``choice`` be one of these (same fighter and target)?"""
        return (getattr(choice, "fighter", None), getattr(choice, "target", None)) == self.key


Part = Choice | Deferred


class LazyChoices(Sequence[Choice]):
    """A legal list made of choices and :class:`Deferred` parts, read like a list."""

    __slots__ = ("parts",)

    def __init__(self, parts: Iterable[Part]) -> None:
        self.parts: tuple[Part, ...] = tuple(parts)

    def __len__(self) -> int:
        return sum(1 if isinstance(p, Choice) else p.count() for p in self.parts)

    def least(self) -> int:
        """A lower bound on the length that works nothing out."""
        return sum(1 if isinstance(p, Choice) else p.least for p in self.parts)

    @overload
    def __getitem__(self, index: int) -> Choice: ...

    @overload
    def __getitem__(self, index: slice) -> list[Choice]: ...

    def __getitem__(self, index: int | slice) -> Choice | list[Choice]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += len(self)
        if index >= 0:
            for p in self.parts:
                if isinstance(p, Choice):
                    if index == 0:
                        return p
                    index -= 1
                    continue
                n = p.count()
                if index < n:
                    return p.choices()[index]
                index -= n
        raise IndexError("choice index out of range")

    def __iter__(self) -> Iterator[Choice]:
        for p in self.parts:
            if isinstance(p, Choice):
                yield p
            else:
                yield from p.choices()

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, Choice):
            return False
        for p in self.parts:
            if isinstance(p, Choice):
                if p == item:
                    return True
            elif p.may_hold(item) and item in p.choices():
                return True
        return False

    def __repr__(self) -> str:
        return f"LazyChoices({list(self)!r})"


def parts_of(choices: Sequence[Choice]) -> Sequence[Part]:
    """``choices``' parts without working any out (a plain list is its own parts)."""
    return choices.parts if isinstance(choices, LazyChoices) else choices


def only_one(choices: Sequence[Choice]) -> bool:
    """``len(choices) == 1``, working nothing out when a lower bound says no."""
    if isinstance(choices, LazyChoices) and choices.least() > 1:
        return False
    return len(choices) == 1
