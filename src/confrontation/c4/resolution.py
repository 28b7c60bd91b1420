"""The universal table of resolution of the unit-based ruleset (``002_…``, "C4").

What to call:

* :func:`minimum_roll` ``(action, difficulty, table=None) -> int``: the minimum die face that
  succeeds (column = action value − difficulty, CLARIFICATIONS §7).
* :func:`roll_test` ``(roller, dice, action, difficulty, table=None) -> C4Test``: roll a
  Courage, attack or strength test with any :class:`confrontation.dice.Roller`; ``.successes``
  counts the successes, natural 6s rolled again and each further success adding one.
* :func:`successes_distribution` ``(dice, action, difficulty) -> SuccessDistribution``: the
  exact law of the number of successes (itemised below a cap, the rest one exact tail mass).
* :func:`load_universal_table` ``(path=None)``: the table as data (the bundled
  ``data/c4/universal_table.toml`` by default; a user may pass their own file).

The exact laws use the generating function of one die, a rational function, so sums of dice
and "one die per hit" (a sum of a random number of dice) stay rational functions: see
:class:`Rational`. ``# C4 Universal table of resolution`` cites the document's heading.

Sections (docs/rules-index.toml): C4-UNIVERSAL-TABLE-OF-RESOLUTION.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from confrontation.armylists.load import parse_model, read_toml
from confrontation.data import data_path
from confrontation.dice import Roller

NATURAL_FAIL = 1  # CLARIFICATIONS §7: a natural 1 always fails
NATURAL_SIX = 6  # CLARIFICATIONS §7: a natural 6 always succeeds and is rolled again


# --- the table as data ---------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """Columns ``low``..``high`` (None: unbounded) need ``minimum`` on the die."""

    low: int | None
    high: int | None
    minimum: int

    def holds(self, column: int) -> bool:
        return (self.low is None or column >= self.low) and (
            self.high is None or column <= self.high
        )


@dataclass(frozen=True)
class UniversalTable:
    """The universal table of resolution: contiguous columns covering every integer."""

    columns: tuple[Column, ...]

    def minimum(self, column: int) -> int:
        """The minimum face needed in ``column`` (= action value − difficulty)."""
        for entry in self.columns:
            if entry.holds(column):
                return entry.minimum
        raise ValueError(f"the table has no column {column}")  # pragma: no cover (validated)


class _ColumnModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    from_: int | None = Field(default=None, alias="from")
    up_to: int | None = None
    minimum: int = Field(ge=2, le=6)


class _TableModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    column: list[_ColumnModel] = Field(min_length=1)

    @model_validator(mode="after")
    def _contiguous(self) -> _TableModel:
        cols = self.column
        if cols[0].from_ is not None:
            raise ValueError("the first column must have no 'from' (it reaches down forever)")
        if cols[-1].up_to is not None:
            raise ValueError("the last column must have no 'up_to' (it reaches up forever)")
        for i, col in enumerate(cols):
            if col.from_ is not None and col.up_to is not None and col.from_ > col.up_to:
                raise ValueError(f"column {i + 1}: 'from' {col.from_} is above 'up_to'")
            previous = cols[i - 1].up_to if i else None
            if i and (previous is None or col.from_ != previous + 1):
                raise ValueError(f"column {i + 1} must start right after column {i}")
            if i and col.minimum > cols[i - 1].minimum:
                raise ValueError(f"column {i + 1}: a better column cannot need a higher die")
        return self


def parse_universal_table(path: Path, text: str, data: dict[str, Any]) -> UniversalTable:
    """Validate parsed TOML; a problem is a one-line :class:`LoadError`."""
    model = parse_model(_TableModel, path, text, data)
    return UniversalTable(tuple(Column(c.from_, c.up_to, c.minimum) for c in model.column))


def load_universal_table(path: Path | str | None = None) -> UniversalTable:
    """The universal table from ``path`` (default: the bundled CLARIFICATIONS §7 table)."""
    if path is None:
        return default_table()
    file = Path(path)
    text, data = read_toml(file)
    return parse_universal_table(file, text, data)


@cache
def default_table() -> UniversalTable:
    """The bundled table (``data/c4/universal_table.toml``), loaded once."""
    text = data_path("c4/universal_table.toml").read_text(encoding="utf-8")
    return parse_universal_table(Path("c4/universal_table.toml"), text, tomllib.loads(text))


def minimum_roll(action: int, difficulty: int, table: UniversalTable | None = None) -> int:
    """# C4 Universal table of resolution: the minimum die face for a success."""
    return (table or default_table()).minimum(action - difficulty)


# --- rolling a test -----------------------------------------------------------------------


def chain_successes(chain: Sequence[int], minimum: int) -> int:
    """Successes of one die and its re-rolls (CLARIFICATIONS §7).

    The first face: 1 fails, 6 succeeds, otherwise a success when ≥ ``minimum``. Each 6 is
    rolled again and every further success adds one; a re-roll that fails ends the chain
    and takes nothing away (ruling, docs/rulings.md "002 — the unit-based ruleset (C4)").
    """
    count = 0
    for face in chain:
        if face == NATURAL_FAIL or (face < minimum and face != NATURAL_SIX):
            break
        count += 1
        if face != NATURAL_SIX:
            break
    return count


@dataclass(frozen=True)
class C4Test:
    """A rolled test: each die's chain of faces (a 6 followed by its re-rolls)."""

    __test__ = False  # not a pytest class

    action: int
    difficulty: int
    minimum: int
    chains: tuple[tuple[int, ...], ...]

    @property
    def successes(self) -> int:
        """# C4 Universal table of resolution: "The number of successes is then totaled"."""
        return sum(chain_successes(c, self.minimum) for c in self.chains)

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face rolled, die by die."""
        return tuple(f for chain in self.chains for f in chain)


def roll_chain(roller: Roller, minimum: int) -> tuple[int, ...]:
    """One die: roll, and roll again while the die shows a 6 (CLARIFICATIONS §7)."""
    faces = [roller.d6()]
    while faces[-1] == NATURAL_SIX:
        faces.append(roller.d6())
    return tuple(faces)


def roll_test(
    roller: Roller, dice: int, action: int, difficulty: int, table: UniversalTable | None = None
) -> C4Test:
    """Roll ``dice`` dice (0 allowed: no hit, no strength die) against the table."""
    if dice < 0:
        raise ValueError(f"a test rolls no negative number of dice, not {dice}")
    minimum = minimum_roll(action, difficulty, table)
    return C4Test(
        action, difficulty, minimum, tuple(roll_chain(roller, minimum) for _ in range(dice))
    )


def roll_courage(
    roller: Roller,
    courage: int,
    difficulty: int,
    dice: int = 1,
    table: UniversalTable | None = None,
) -> C4Test:
    """# C4 Universal table of resolution: a Courage test rolls one die; when a game effect
    gives several, only the best is kept. Returns the test reduced to its best die."""
    if dice < 1:
        raise ValueError("a Courage test rolls at least one die")
    test = roll_test(roller, dice, courage, difficulty, table)
    best = max(test.chains, key=lambda c: (chain_successes(c, test.minimum), c))
    return C4Test(courage, difficulty, test.minimum, (best,))


# --- exact laws ---------------------------------------------------------------------------

Poly = tuple[Fraction, ...]


def _mul(p: Poly, q: Poly) -> Poly:
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return tuple(out)


def _add(p: Poly, q: Poly) -> Poly:
    n = max(len(p), len(q))
    return tuple(
        (p[i] if i < len(p) else Fraction(0)) + (q[i] if i < len(q) else Fraction(0))
        for i in range(n)
    )


def _pow(p: Poly, n: int) -> Poly:
    out: Poly = (Fraction(1),)
    for _ in range(n):
        out = _mul(out, p)
    return out


def _scale(p: Poly, k: Fraction) -> Poly:
    return tuple(a * k for a in p)


@dataclass(frozen=True)
class Rational:
    """A probability generating function ``num(z) / den(z)`` (polynomials, ``den(0) ≠ 0``)."""

    num: Poly
    den: Poly

    def power(self, n: int) -> Rational:
        """The law of the sum of ``n`` independent copies."""
        return Rational(_pow(self.num, n), _pow(self.den, n))

    def compose(self, inner: Rational) -> Rational:
        """``self(inner(z))``: the law of a sum of N copies of ``inner``, N of law ``self``."""
        d = max(len(self.num), len(self.den)) - 1

        nums: list[Poly] = [(Fraction(1),)]
        dens: list[Poly] = [(Fraction(1),)]
        for _ in range(d):
            nums.append(_mul(nums[-1], inner.num))
            dens.append(_mul(dens[-1], inner.den))

        def substitute(p: Poly) -> Poly:
            out: Poly = (Fraction(0),)
            for i, a in enumerate(p):
                if a:
                    out = _add(out, _scale(_mul(nums[i], dens[d - i]), a))
            return out

        return Rational(substitute(self.num), substitute(self.den))

    def coefficients(self, count: int) -> tuple[Fraction, ...]:
        """P(0), …, P(count − 1), exactly (power-series division)."""
        out: list[Fraction] = []
        d0 = self.den[0]
        for k in range(count):
            acc = self.num[k] if k < len(self.num) else Fraction(0)
            for j in range(1, min(k, len(self.den) - 1) + 1):
                acc -= self.den[j] * out[k - j]
            out.append(acc / d0)
        return tuple(out)


def die_law(minimum: int) -> Rational:
    """Generating function of one die's successes: ``(a + b z) / (1 − z/6)``.

    a = P(fail) = (minimum − 1)/6 (a 1 always fails), b = P(success without a 6) =
    (6 − minimum)/6; a 6 (1/6) is one success and the same die again (CLARIFICATIONS §7).
    """
    if not 2 <= minimum <= 6:
        raise ValueError(f"a minimum face is 2-6, not {minimum}")
    sixth = Fraction(1, 6)
    return Rational((Fraction(minimum - 1, 6), Fraction(6 - minimum, 6)), (Fraction(1), -sixth))


@dataclass(frozen=True)
class SuccessDistribution:
    """Exact law of a count: ``probabilities[k]`` for k < ``cap``; ``tail`` = P(count ≥ cap)."""

    probabilities: tuple[Fraction, ...]
    tail: Fraction

    @property
    def cap(self) -> int:
        return len(self.probabilities)

    def at_least(self, k: int) -> Fraction:
        """P(count ≥ k), exact for every k ≤ cap."""
        if k > self.cap:
            raise ValueError(f"counts from {self.cap} are not itemised; raise the cap")
        return sum(self.probabilities[max(k, 0) :], Fraction(0)) + self.tail

    def mean(self) -> Fraction:
        """The mean of the itemised part (the tail counted at ``cap``: a lower bound)."""
        itemised = sum((k * p for k, p in enumerate(self.probabilities)), Fraction(0))
        return itemised + self.cap * self.tail


def law_distribution(law: Rational, cap: int) -> SuccessDistribution:
    """Itemise ``law`` below ``cap``; the rest is the exact tail 1 − Σ."""
    probs = law.coefficients(cap)
    return SuccessDistribution(probs, 1 - sum(probs, Fraction(0)))


def successes_law(
    dice: int, action: int, difficulty: int, table: UniversalTable | None = None
) -> Rational:
    """Generating function of a test's successes."""
    return die_law(minimum_roll(action, difficulty, table)).power(dice)


def successes_distribution(
    dice: int,
    action: int,
    difficulty: int,
    *,
    cap: int | None = None,
    table: UniversalTable | None = None,
) -> SuccessDistribution:
    """Exact law of a test's successes (default cap: twice the dice, plus 4)."""
    if dice < 0:
        raise ValueError(f"a test rolls no negative number of dice, not {dice}")
    return law_distribution(successes_law(dice, action, difficulty, table), cap or 2 * dice + 4)
