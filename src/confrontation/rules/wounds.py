"""Wounding an enemy (II-B): the wound roll, the Injury Table, wound levels, exact odds.

The wound roll (II-B-1, CLARIFICATIONS §1): 2d6, the lowest die gives the column
(location), the highest die + attacker's current STR - target's current RES gives the row.
A double 6 is Killed Outright. It is not a characteristic test: no automatic failure and
no raise (II-A-4, II-B-1). Amplified / attenuated rolls use 3d6 and keep the two highest /
lowest (II-B-6); an unmoving shot reads one row more severe (VI-B-2).

The Injury Table is data (``confrontation/data/wound_table.toml``), loaded by
:func:`load_injury_table`; a user can pass their own file.
"""

from __future__ import annotations

import bisect
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from fractions import Fraction
from functools import cache, lru_cache
from importlib import resources
from itertools import product
from pathlib import Path

from confrontation.data import safe_toml
from confrontation.dice import Roller
from confrontation.rules.characteristics import KILLED_AT, HealthState

__all__ = [
    "InjuryTable",
    "InjuryTableError",
    "Location",
    "WoundMode",
    "WoundOdds",
    "WoundResult",
    "WoundRoll",
    "apply_wound",
    "default_injury_table",
    "health_distribution",
    "load_injury_table",
    "net_mode",
    "read_wound",
    "roll_wound",
    "wound_distribution",
    "wound_odds",
]


class WoundResult(IntEnum):
    """A cell of the Injury Table, ordered from the mildest to the most severe (II-B-2)."""

    NONE = 0
    STUNNED = 1
    LIGHT = 2
    SERIOUS = 3
    CRITICAL = 4
    KILLED = 5

    @property
    def key(self) -> str:
        """The name used in data files and JSON: none, stunned, light, serious, ..."""
        return _RESULT_KEYS[self]

    @property
    def levels(self) -> int:
        """Wound levels added (II-B-2): Stunned and no damage add none, Killed Outright 4."""
        return _LEVELS[self]

    @classmethod
    def from_key(cls, key: str) -> WoundResult:
        """The result named ``key`` (none, stunned, light, serious, critical, killed)."""
        try:
            return _BY_KEY[key]
        except KeyError:
            raise ValueError(
                f"unknown wound result {key!r} (expected one of {', '.join(_RESULT_KEYS)})"
            ) from None


_RESULT_KEYS: tuple[str, ...] = ("none", "stunned", "light", "serious", "critical", "killed")
_LEVELS: tuple[int, ...] = (0, 0, 1, 2, 3, KILLED_AT)
_BY_KEY: dict[str, WoundResult] = {key: WoundResult(i) for i, key in enumerate(_RESULT_KEYS)}


class Location(IntEnum):
    """The column of the Injury Table, read on the lowest die (II-B-1)."""

    LEGS = 1
    ARMS = 2
    BELLY = 3
    CHEST = 4
    HEAD = 5

    @property
    def key(self) -> str:
        """The name used in data files and JSON: legs, arms, belly, chest, head."""
        return self.name.lower()

    @classmethod
    def of_lowest_die(cls, lowest: int) -> Location:
        """The location of a lowest die; a lowest 6 (a double 6) strikes the head.

        See docs/rulings.md, II-B-1: the rulebook's Praetorian Guard is decapitated by 6-6.
        """
        return cls(min(lowest, 5))


class WoundMode(Enum):
    """How many dice the wound roll throws and which two it keeps (II-B-6)."""

    NORMAL = "normal"
    AMPLIFIED = "amplified"
    ATTENUATED = "attenuated"


def net_mode(amplified: int, attenuated: int) -> WoundMode:
    """The mode left once amplified and attenuated effects cancel one for one (II-B-6)."""
    if amplified < 0 or attenuated < 0:
        raise ValueError("effect counts cannot be negative")
    if amplified > attenuated:
        return WoundMode.AMPLIFIED
    if attenuated > amplified:
        return WoundMode.ATTENUATED
    return WoundMode.NORMAL


class InjuryTableError(ValueError):
    """An Injury Table file is unreadable or malformed; the message names file and key."""


@dataclass(frozen=True, slots=True)
class InjuryTable:
    """The Injury Table: ordered rows (mildest first), each a result per location.

    ``mins[i]`` is the lowest row value of row ``i`` (``mins[0]`` is unused: the first
    row covers everything below ``mins[1]``); the last row is open above.
    """

    labels: tuple[str, ...]
    mins: tuple[int, ...]
    cells: tuple[tuple[WoundResult, ...], ...]
    """``cells[row][location - 1]``."""
    source: str = "<built-in>"

    def band(self, row_value: int) -> int:
        """The index of the table row that ``row_value`` falls in."""
        return bisect.bisect_right(self.mins, row_value, lo=1) - 1

    def result(self, location: Location, band: int) -> WoundResult:
        """The cell at ``band`` (a row index) and ``location``."""
        return self.cells[band][location - 1]

    @property
    def last_band(self) -> int:
        """The index of the most severe row (18+ in the standard table)."""
        return len(self.cells) - 1


def _parse_table(data: Mapping[str, object], source: str) -> InjuryTable:
    rows = data.get("row")
    unknown = sorted(set(data) - {"row"})
    if unknown:
        raise InjuryTableError(f"{source}: unknown key {unknown[0]!r} (expected [[row]] tables)")
    if not isinstance(rows, list) or len(rows) < 2:
        raise InjuryTableError(f"{source}: key 'row': expected at least two [[row]] tables")
    labels: list[str] = []
    mins: list[int] = []
    cells: list[tuple[WoundResult, ...]] = []
    expected = {"label", "min", *(loc.key for loc in Location)}
    for number, row in enumerate(rows, start=1):
        where = f"{source}: row {number}"
        if not isinstance(row, dict):
            raise InjuryTableError(f"{where}: expected a [[row]] table")
        extra = sorted(set(row) - expected)
        if extra:
            raise InjuryTableError(f"{where}: unknown key {extra[0]!r}")
        label = row.get("label", "")
        if not isinstance(label, str):
            raise InjuryTableError(f"{where}: key 'label': expected a string")
        labels.append(label or f"row {number}")
        if number == 1:
            if "min" in row:
                raise InjuryTableError(
                    f"{where}: key 'min': the first row has no 'min' (it covers every lower value)"
                )
            mins.append(0)
        else:
            low = row.get("min")
            if not isinstance(low, int) or isinstance(low, bool):
                raise InjuryTableError(f"{where}: key 'min': expected an integer")
            if number > 2 and low <= mins[-1]:
                raise InjuryTableError(
                    f"{where}: key 'min': {low} must be greater than the previous row's {mins[-1]}"
                )
            mins.append(low)
        line: list[WoundResult] = []
        for location in Location:
            value = row.get(location.key)
            if not isinstance(value, str):
                raise InjuryTableError(f"{where}: key {location.key!r}: expected a wound result")
            try:
                line.append(WoundResult.from_key(value))
            except ValueError as error:
                raise InjuryTableError(f"{where}: key {location.key!r}: {error}") from None
        cells.append(tuple(line))
    if len(mins) > 1:
        mins[0] = mins[1] - 1
    return InjuryTable(tuple(labels), tuple(mins), tuple(cells), source)


def load_injury_table(path: str | Path | None = None) -> InjuryTable:
    """Load an Injury Table file (TOML); without ``path``, the built-in table (II-B-1).

    Raises :class:`InjuryTableError` naming the file and the offending key.
    """
    if path is None:
        return default_injury_table()
    source = str(path)
    try:
        _, data = safe_toml.read_toml(Path(path))  # binary, huge or deeply nested: one line
    except safe_toml.TomlFileError as error:
        where = source if error.line is None else f"{source}:{error.line}"
        raise InjuryTableError(f"{where}: {error.message}") from None
    return _parse_table(data, source)


@cache
def default_injury_table() -> InjuryTable:
    """The built-in table of CLARIFICATIONS §1 (``data/wound_table.toml``), loaded once."""
    resource = resources.files("confrontation.data").joinpath("wound_table.toml")
    source = "confrontation/data/wound_table.toml"
    try:
        data = tomllib.loads(resource.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise InjuryTableError(f"{source}: not valid TOML ({error})") from None
    return _parse_table(data, source)


_DICE_COUNT = {WoundMode.NORMAL: 2, WoundMode.AMPLIFIED: 3, WoundMode.ATTENUATED: 3}


def _kept(dice: Sequence[int], mode: WoundMode) -> tuple[int, int]:
    """The two dice read on the table, lowest first (II-B-6)."""
    ordered = sorted(dice)
    if mode is WoundMode.AMPLIFIED:
        return ordered[-2], ordered[-1]
    return ordered[0], ordered[1]


@dataclass(frozen=True, slots=True)
class WoundRoll:
    """One wound roll: the dice thrown, the two kept, and how the table reads them."""

    dice: tuple[int, ...]
    kept: tuple[int, int]
    """The two dice read, lowest first."""
    location: Location
    row: int
    """Highest kept die + attacker's STR - target's RES (the book's "final result")."""
    band: int
    """Index of the table row read (after the unmoving-shot shift)."""
    label: str
    """Label of that table row, e.g. "2/3"."""
    result: WoundResult
    mode: WoundMode = WoundMode.NORMAL
    unmoving: bool = False

    @property
    def double_six(self) -> bool:
        """Two kept 6s: Killed Outright whatever STR and RES (II-B-1)."""
        return self.kept == (6, 6)


def _check_resistance(resistance: int) -> None:
    if resistance < 1:
        raise ValueError(f"a current RES is at least 1 (II-A-4), not {resistance}")


def read_wound(
    dice: Sequence[int],
    strength: int,
    resistance: int,
    mode: WoundMode = WoundMode.NORMAL,
    unmoving: bool = False,
    table: InjuryTable | None = None,
) -> WoundRoll:
    """Read given dice on the Injury Table (II-B-1, II-B-6, VI-B-2); no dice are rolled.

    ``dice``: 2 faces for a normal roll, 3 for an amplified or attenuated one.
    ``strength`` / ``resistance``: the attacker's and the target's *current* values.
    """
    faces = tuple(dice)
    if len(faces) != _DICE_COUNT[mode]:
        raise ValueError(f"a {mode.value} wound roll reads {_DICE_COUNT[mode]} dice, not {faces}")
    if any(face not in (1, 2, 3, 4, 5, 6) for face in faces):
        raise ValueError(f"d6 faces must be 1-6, not {faces}")
    _check_resistance(resistance)
    table = table or default_injury_table()
    low, high = _kept(faces, mode)
    row = high + strength - resistance
    band = table.band(row)
    if unmoving:  # VI-B-2: one row more severe; the last row stays the last
        band = min(band + 1, table.last_band)
    location = Location.of_lowest_die(low)
    double_six = low == high == 6  # II-B-1 Caution: Killed Outright
    result = WoundResult.KILLED if double_six else table.result(location, band)
    return WoundRoll(
        faces, (low, high), location, row, band, table.labels[band], result, mode, unmoving
    )


def roll_wound(
    roller: Roller,
    strength: int,
    resistance: int,
    mode: WoundMode = WoundMode.NORMAL,
    unmoving: bool = False,
    table: InjuryTable | None = None,
) -> WoundRoll:
    """Roll a wound (2d6, or 3d6 when amplified/attenuated) and read it (II-B-1)."""
    _check_resistance(resistance)
    dice = tuple(roller.d6() for _ in range(_DICE_COUNT[mode]))
    return read_wound(dice, strength, resistance, mode, unmoving, table)


def apply_wound(health: HealthState, result: WoundResult) -> HealthState:
    """The health state after ``result`` (II-B-3): levels add, 4 kills, Stunned adds none.

    A dead fighter stays dead; Stunned marks a living fighter until the end of the round.
    """
    if health.killed or result is WoundResult.NONE:
        return health
    if result is WoundResult.STUNNED:
        return health if health.stunned else HealthState(health.wound_levels, True)
    levels = min(health.wound_levels + result.levels, KILLED_AT)
    return HealthState(levels, health.stunned)


# --- exact distributions -------------------------------------------------------------


@cache
def _kept_pairs(mode: WoundMode) -> tuple[tuple[tuple[int, int, int], ...], int]:
    """Every kept (low, high) pair with how many of the 6^n faces give it, and 6^n."""
    counts: dict[tuple[int, int], int] = {}
    n = _DICE_COUNT[mode]
    for faces in product(range(1, 7), repeat=n):
        pair = _kept(faces, mode)
        counts[pair] = counts.get(pair, 0) + 1
    return tuple((low, high, w) for (low, high), w in sorted(counts.items())), 6**n


@dataclass(frozen=True, slots=True)
class WoundOdds:
    """The exact distribution of one wound roll.

    ``joint[location - 1][result]`` = P(location and result); ``totals[result]`` = P(result);
    ``locations[location - 1]`` = P(location). Built once per case and cached.
    """

    joint: tuple[tuple[Fraction, ...], ...]
    totals: tuple[Fraction, ...]
    locations: tuple[Fraction, ...]

    @classmethod
    def from_joint(cls, joint: tuple[tuple[Fraction, ...], ...]) -> WoundOdds:
        """Odds from the joint table, with its two margins."""
        totals = tuple(sum((line[r] for line in joint), Fraction(0)) for r in WoundResult)
        return cls(joint, totals, tuple(sum(line, Fraction(0)) for line in joint))

    def outcomes(self) -> dict[WoundResult, Fraction]:
        """P(result), every result listed (mildest first)."""
        return dict(zip(WoundResult, self.totals, strict=True))

    def location(self, location: Location) -> Fraction:
        """P(the wound strikes ``location``)."""
        return self.locations[location - 1]

    def given(self, location: Location) -> dict[WoundResult, Fraction]:
        """P(result | the wound strikes ``location``)."""
        line, total = self.joint[location - 1], self.locations[location - 1]
        return {r: (line[r] / total if total else Fraction(0)) for r in WoundResult}

    def probability(self, location: Location, result: WoundResult) -> Fraction:
        """P(the wound strikes ``location`` with ``result``)."""
        return self.joint[location - 1][result]


@lru_cache(maxsize=4096)
def _odds(margin: int, mode: WoundMode, unmoving: bool, table: InjuryTable) -> WoundOdds:
    pairs, total = _kept_pairs(mode)
    counts = [[0] * len(WoundResult) for _ in Location]
    last = table.last_band
    for low, high, weight in pairs:
        location = Location.of_lowest_die(low)
        if low == high == 6:
            result = WoundResult.KILLED
        else:
            band = table.band(high + margin)
            if unmoving:
                band = min(band + 1, last)
            result = table.cells[band][location - 1]
        counts[location - 1][result] += weight
    return WoundOdds.from_joint(tuple(tuple(Fraction(c, total) for c in line) for line in counts))


def wound_odds(
    strength: int,
    resistance: int,
    mode: WoundMode = WoundMode.NORMAL,
    unmoving: bool = False,
    table: InjuryTable | None = None,
) -> WoundOdds:
    """The exact distribution of a wound roll, by location and result (cached)."""
    _check_resistance(resistance)
    return _odds(strength - resistance, mode, unmoving, table or default_injury_table())


def wound_distribution(
    strength: int,
    resistance: int,
    mode: WoundMode = WoundMode.NORMAL,
    unmoving: bool = False,
    table: InjuryTable | None = None,
) -> dict[WoundResult, Fraction]:
    """P(result) of a wound roll, every result listed (mildest first)."""
    return wound_odds(strength, resistance, mode, unmoving, table).outcomes()


def health_distribution(
    health: HealthState,
    strength: int,
    resistance: int,
    mode: WoundMode = WoundMode.NORMAL,
    unmoving: bool = False,
    table: InjuryTable | None = None,
) -> dict[HealthState, Fraction]:
    """The exact distribution of the target's health state after one wound roll (II-B-3)."""
    after: dict[HealthState, Fraction] = {}
    for result, p in wound_distribution(strength, resistance, mode, unmoving, table).items():
        if p:
            state = apply_wound(health, result)
            after[state] = after.get(state, Fraction(0)) + p
    return after
