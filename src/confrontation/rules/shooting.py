"""Shooting (VI): range bands, the difficulty and its modifiers, the shooting test and the
wound roll, the unmoving shot, shooting into a melee, assault shooting, exact odds.

The numbers (4/7/10, the modifiers, the assault base 7, the distribution faces) live in
``confrontation/data/shooting.toml``; :func:`load_shooting_table` reads it (a user may pass
their own file). Dice come from :mod:`confrontation.dice`, wounds from
:mod:`confrontation.rules.wounds`; this module adds no dice arithmetic of its own.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path

from confrontation.dice import RaiseDecision, RaisePolicy, Roller, TestResult, p_success, roll_test
from confrontation.rules.wounds import (
    InjuryTable,
    WoundMode,
    WoundResult,
    WoundRoll,
    roll_wound,
    wound_distribution,
)

__all__ = [
    "AssaultStep",
    "Difficulty",
    "RangeBand",
    "ShootingTable",
    "ShootingTableError",
    "ShotOutcome",
    "ShotTarget",
    "Victim",
    "assault_shooting_order",
    "assault_shot_difficulty",
    "assault_shot_problem",
    "default_shooting_table",
    "distribution_odds",
    "distribution_victims",
    "load_shooting_table",
    "may_shoot",
    "melee_shot_distribution",
    "p_hit",
    "range_band",
    "resolve_shot",
    "roll_distribution",
    "roll_shooting_test",
    "shot_difficulty",
    "shot_distribution",
    "unmoving_shot",
    "volley",
]


class RangeBand(Enum):
    """VI-A-3: the three ranges of a weapon."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"


class ShootingTableError(ValueError):
    """A shooting data file is unreadable or malformed; the message names file and key."""


@dataclass(frozen=True, slots=True)
class ShootingTable:
    """The numbers of chapter VI (see ``shooting.toml``)."""

    base: Mapping[RangeBand, int]
    assault_base: int
    partial_sight: int
    large: int
    very_large: int
    altitude: int
    target_faces: frozenset[int]
    source: str = "<built-in>"


def _int(section: Mapping[str, object], key: str, where: str) -> int:
    value = section.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ShootingTableError(f"{where}: key {key!r}: expected an integer")
    return value


def _section(
    data: Mapping[str, object], key: str, keys: set[str], source: str
) -> dict[str, object]:
    section = data.get(key)
    where = f"{source}: {key}"
    if not isinstance(section, dict):
        raise ShootingTableError(f"{where}: expected a [{key}] table")
    extra = sorted(set(section) - keys)
    if extra:
        raise ShootingTableError(f"{where}: unknown key {extra[0]!r}")
    return section


def _parse(data: Mapping[str, object], source: str) -> ShootingTable:
    unknown = sorted(set(data) - {"difficulty", "modifiers", "melee"})
    if unknown:
        raise ShootingTableError(f"{source}: unknown key {unknown[0]!r}")
    diff = _section(data, "difficulty", {"short", "medium", "long", "assault"}, source)
    mods = _section(data, "modifiers", {"partial_sight", "large", "very_large", "altitude"}, source)
    melee = _section(data, "melee", {"target_faces"}, source)
    where = f"{source}: difficulty"
    base = {band: _int(diff, band.value, where) for band in RangeBand}
    faces = melee.get("target_faces")
    if (
        not isinstance(faces, list)
        or not all(isinstance(f, int) and 1 <= f <= 6 for f in faces)
        or len(set(faces)) != len(faces)
    ):
        raise ShootingTableError(f"{source}: melee: key 'target_faces': expected distinct 1-6")
    where = f"{source}: modifiers"
    return ShootingTable(
        base=base,
        assault_base=_int(diff, "assault", f"{source}: difficulty"),
        partial_sight=_int(mods, "partial_sight", where),
        large=_int(mods, "large", where),
        very_large=_int(mods, "very_large", where),
        altitude=_int(mods, "altitude", where),
        target_faces=frozenset(int(f) for f in faces),
        source=source,
    )


def load_shooting_table(path: str | Path | None = None) -> ShootingTable:
    """Read the shooting numbers from ``path``, or the bundled ``shooting.toml``."""
    if path is None:
        text = resources.files("confrontation.data").joinpath("shooting.toml").read_text("utf-8")
        source = "shooting.toml"
    else:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise ShootingTableError(f"{source}: cannot read ({error.strerror})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ShootingTableError(f"{source}: not valid TOML ({error})") from None
    return _parse(data, source)


@cache
def default_shooting_table() -> ShootingTable:
    """The bundled table (read once)."""
    return load_shooting_table()


# --- who may shoot, range, difficulty -----------------------------------------------------


def may_shoot(has_ranged_weapon: bool, only_cumulative_actions: bool, free_of_enemy: bool) -> bool:
    """VI-A: a fighter with AIM and a ranged weapon shoots if he executes only cumulative
    actions and is free of any opponent at the time of the shot (assault shots: VI-B-3)."""
    return has_ranged_weapon and only_cumulative_actions and free_of_enemy


def range_band(distance: float, ranges: Sequence[float]) -> RangeBand | None:
    """VI-A-1, VI-A-3: the band of ``distance`` (sight to the edge of the target's base) for a
    weapon of ``ranges`` (short, medium, long maxima in cm); None beyond the long range, where
    the shot automatically fails. A bow 20-40-60: 20 short, 20.1 medium, 60 long, 60.1 none."""
    if len(ranges) != 3 or list(ranges) != sorted(ranges):
        raise ValueError(f"ranges are three increasing distances, not {ranges!r}")
    if distance < 0:
        raise ValueError(f"a distance is never negative, not {distance}")
    for band, limit in zip(RangeBand, ranges, strict=True):
        if distance <= limit:
            return band
    return None


@dataclass(frozen=True, slots=True)
class ShotTarget:
    """What the difficulty needs to know about the target (VI-A-3).

    ``size``: Size value (I-C: 1 small, 2 normal, 3 large, 4+ very large / Enormous/X).
    ``target_bonus``: X of the target's own Target/X. ``in_cover``: moved (or announced a
    move) under cover: Target/+2 (V-B-4, VI-A-2), added to any Target/X (docs/rulings.md).
    """

    size: int = 2
    partially_visible: bool = False
    other_altitude: bool = False
    target_bonus: int = 0
    in_cover: bool = False


COVER_TARGET_BONUS = 2
"""V-B-4: moving under cover gives Target/+2 (the movement table's ``target_bonus``)."""


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A shot's difficulty with its terms, as a player would add them up."""

    base: int
    terms: tuple[tuple[str, int], ...]
    """(reason, amount) for each modifier that applies."""

    @property
    def total(self) -> int:
        return self.base + sum(amount for _, amount in self.terms)

    def explain(self) -> str:
        """e.g. "7 (medium range) - 1 (large target) + 1 (partially visible) = 7"."""
        parts = [str(self.base)]
        for reason, amount in self.terms:
            parts.append(f"{'+' if amount >= 0 else '-'} {abs(amount)} ({reason})")
        return " ".join(parts) + f" = {self.total}"


def _modifiers(target: ShotTarget, table: ShootingTable) -> tuple[tuple[str, int], ...]:
    terms: list[tuple[str, int]] = []  # in the order of the Reaper example: size, then sight
    if target.size >= 4:
        terms.append(("very large target", table.very_large))
    elif target.size == 3:
        terms.append(("large target", table.large))
    if target.partially_visible:
        terms.append(("partially visible", table.partial_sight))
    if target.other_altitude:
        terms.append(("other altitude level", table.altitude))
    if target.target_bonus:
        terms.append((f"Target/{target.target_bonus:+d}", target.target_bonus))
    if target.in_cover:
        terms.append(("under cover, Target/+2", COVER_TARGET_BONUS))
    return tuple(terms)


def shot_difficulty(
    band: RangeBand, target: ShotTarget, table: ShootingTable | None = None
) -> Difficulty:
    """VI-A-3: 4 / 7 / 10 by range band, then the cumulative modifiers: partially visible +1,
    large -1, very large -2, other altitude level +2, Target/X +X."""
    table = table or default_shooting_table()
    return Difficulty(table.base[band], _modifiers(target, table))


def assault_shot_difficulty(target: ShotTarget, table: ShootingTable | None = None) -> Difficulty:
    """VI-B-3: base 7 whatever the weapon's range and the distance; the VI-A-3 modifiers
    still apply (docs/rulings.md, VI-B-3)."""
    table = table or default_shooting_table()
    return Difficulty(table.assault_base, _modifiers(target, table))


def unmoving_shot(moved_this_activation: bool, earlier_shots_this_round: int) -> bool:
    """VI-B-2: the wound is read one row more severe if the shooter does not move during his
    activation (before or after the shot; a turn is a move) and only on his first shot of the
    round. An assault shot is never unmoving: the assault is a move."""
    return not moved_this_activation and earlier_shots_this_round == 0


# --- the shot -----------------------------------------------------------------------------


def roll_shooting_test(
    roller: Roller,
    aim: int,
    difficulty: int,
    *,
    dice: int = 1,
    decide: RaiseDecision = RaisePolicy.OPTIMAL,
) -> TestResult:
    """VI-A-3: the Shooting test, a test of the shooter's current AIM against the difficulty."""
    return roll_test(roller, aim, dice, difficulty=difficulty, decide=decide)


class Victim(Enum):
    """Who a shot into a melee hits (VI-B-1)."""

    TARGET = "target"
    FRIEND = "friend"


def distribution_victims(
    face: int, target: str, friends: Mapping[str, float], table: ShootingTable | None = None
) -> tuple[str, ...]:
    """VI-B-1: after a hit on an enemy in contact with the shooter's own side, the distribution
    d6 picks the victim: on 4-6 the chosen target; on 1-3 the shooter's friend in contact with
    the target nearest to the shooter. ``friends`` maps those friends to their distance from
    the shooter. Several equidistant friends are all returned: their controller chooses."""
    table = table or default_shooting_table()
    if face not in (1, 2, 3, 4, 5, 6):
        raise ValueError(f"a d6 face is 1-6, not {face}")
    if face in table.target_faces or not friends:
        return (target,)
    nearest = min(friends.values())
    return tuple(sorted(name for name, d in friends.items() if d == nearest))


def roll_distribution(
    roller: Roller, target: str, friends: Mapping[str, float], table: ShootingTable | None = None
) -> tuple[int, tuple[str, ...]]:
    """Roll the distribution d6 (VI-B-1): (face, possible victims)."""
    face = roller.d6()
    return face, distribution_victims(face, target, friends, table)


def distribution_odds(table: ShootingTable | None = None) -> dict[Victim, Fraction]:
    """The exact distribution roll (VI-B-1): P(target) = 3/6, P(nearest friend) = 3/6."""
    table = table or default_shooting_table()
    p_target = Fraction(len(table.target_faces), 6)
    return {Victim.TARGET: p_target, Victim.FRIEND: 1 - p_target}


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """A resolved shot (VI-A-3, VI-B-1, VI-B-2).

    ``test`` is None when the target was out of range (automatic failure, no dice).
    ``distribution`` is the distribution d6 of a shot into a melee (None otherwise),
    ``victim`` who was hit, ``wound`` the wound roll on him.
    """

    difficulty: int | None
    test: TestResult | None
    distribution: int | None
    victim: str | None
    wound: WoundRoll | None

    @property
    def hit(self) -> bool:
        return self.wound is not None


def resolve_shot(
    roller: Roller,
    *,
    aim: int,
    difficulty: int | None,
    aim_str: int,
    target: str,
    resistances: Mapping[str, int],
    friends: Mapping[str, float] | None = None,
    choose: Sequence[str] = (),
    unmoving: bool = False,
    dice: int = 1,
    decide: RaiseDecision = RaisePolicy.OPTIMAL,
    mode: WoundMode = WoundMode.NORMAL,
    table: ShootingTable | None = None,
    injury_table: InjuryTable | None = None,
) -> ShotOutcome:
    """Resolve one shot in the book's order (VI-A-1, VI-A-3, VI-B-1, VI-B-2).

    ``difficulty`` None: out of range, the shot fails with no roll. Otherwise the Shooting
    test; on a success, when ``friends`` (the shooter's fighters in contact with the target,
    with their distance to the shooter) is not empty, the distribution d6; then the wound
    roll with the weapon's Strength ``aim_str`` against the victim's current RES
    (``resistances``), one row more severe when ``unmoving``. ``choose`` breaks a tie between
    equidistant friends (their controller's choice, in order of preference).
    """
    if difficulty is None:
        return ShotOutcome(None, None, None, None, None)
    test = roll_shooting_test(roller, aim, difficulty, dice=dice, decide=decide)
    if not test.succeeds(difficulty):
        return ShotOutcome(difficulty, test, None, None, None)
    face: int | None = None
    victim = target
    if friends:
        face, victims = roll_distribution(roller, target, friends, table)
        victim = victims[0]
        if len(victims) > 1:
            preferred = [name for name in choose if name in victims]
            if not preferred:
                raise ValueError(f"equidistant friends {victims}: their controller must choose")
            victim = preferred[0]
    wound = roll_wound(roller, aim_str, resistances[victim], mode, unmoving, injury_table)
    return ShotOutcome(difficulty, test, face, victim, wound)


# --- exact odds ---------------------------------------------------------------------------


def p_hit(aim: int, difficulty: int | None, dice: int = 1) -> Fraction:
    """P(the Shooting test succeeds), optimal raises (dice.p_success); 0 out of range."""
    if difficulty is None:
        return Fraction(0)
    return p_success(aim, difficulty, dice)


def shot_distribution(
    aim: int,
    difficulty: int | None,
    aim_str: int,
    resistance: int,
    *,
    unmoving: bool = False,
    dice: int = 1,
    mode: WoundMode = WoundMode.NORMAL,
    injury_table: InjuryTable | None = None,
) -> dict[WoundResult | None, Fraction]:
    """The exact outcome of a shot: None = missed, otherwise P(hit) x P(wound result)."""
    hit = p_hit(aim, difficulty, dice)
    outcome: dict[WoundResult | None, Fraction] = {None: 1 - hit}
    for result, p in wound_distribution(aim_str, resistance, mode, unmoving, injury_table).items():
        outcome[result] = hit * p
    return outcome


def melee_shot_distribution(
    aim: int,
    difficulty: int | None,
    aim_str: int,
    target_resistance: int,
    friend_resistance: int,
    *,
    unmoving: bool = False,
    dice: int = 1,
    table: ShootingTable | None = None,
    injury_table: InjuryTable | None = None,
) -> dict[tuple[Victim, WoundResult] | None, Fraction]:
    """The exact outcome of a shot into a melee (VI-B-1): None = missed, otherwise
    P(hit) x P(distribution gives this victim) x P(wound result on his RES)."""
    hit = p_hit(aim, difficulty, dice)
    outcome: dict[tuple[Victim, WoundResult] | None, Fraction] = {None: 1 - hit}
    resistances = {Victim.TARGET: target_resistance, Victim.FRIEND: friend_resistance}
    for victim, p_victim in distribution_odds(table).items():
        wounds = wound_distribution(
            aim_str, resistances[victim], WoundMode.NORMAL, unmoving, injury_table
        )
        for result, p in wounds.items():
            outcome[(victim, result)] = hit * p_victim * p
    return outcome


# --- assault shooting ---------------------------------------------------------------------


class AssaultStep(Enum):
    """The steps of an assault shot, in the order VI-B-3 imposes."""

    SIGHT_AT_START = "the shooter sees his target at the start of his move"
    AIM_AT_ASSAULT_TARGET = "the shot is aimed at the target of the assault"
    MEASURE = "measure the distance: beyond the assault's reach, no shot"
    CHARGER_COURAGE = "the charger's Courage test to charge: a failure, no shot"
    SHOOT = "the shot, base difficulty 7 whatever the range"
    TARGET_COURAGE = "the target's Courage test against the shooter"
    MOVE = "the assault move (a redirect if the target was eliminated, no second shot)"


def assault_shooting_order(
    charger_courage: bool = False, target_courage: bool = False
) -> tuple[AssaultStep, ...]:
    """VI-B-3: the order in which an assault shot is resolved, before the figure moves.

    Courage tests (chapter 9, not in the documents) appear only when they are due:
    ``charger_courage`` when the charger must test to charge the target, ``target_courage``
    when the target must test against the shooter.
    """
    steps = [AssaultStep.SIGHT_AT_START, AssaultStep.AIM_AT_ASSAULT_TARGET, AssaultStep.MEASURE]
    if charger_courage:
        steps.append(AssaultStep.CHARGER_COURAGE)
    steps.append(AssaultStep.SHOOT)
    if target_courage:
        steps.append(AssaultStep.TARGET_COURAGE)
    steps.append(AssaultStep.MOVE)
    return tuple(steps)


def assault_shot_problem(
    *,
    sees_target_at_start: bool,
    aimed_at_assault_target: bool,
    distance: float,
    potential: float,
    courage_failed: bool = False,
    shots_this_assault: int = 0,
    target_eliminated: bool = False,
) -> str | None:
    """Why an assault shot is not fired, or None when it is (VI-B-3), checked in the book's
    order. ``distance`` is measured before the shot; ``potential`` is the assault's movement
    potential (V-B-3); the weapon's range does not matter (docs/rulings.md, VI-B-3)."""
    if not sees_target_at_start:
        return "no line of sight to the target at the start of the move"
    if not aimed_at_assault_target:
        return "an assault shot must be aimed at the target of the assault"
    if distance > potential:
        return "the target is beyond the reach of the assault: the shot is not fired"
    if courage_failed:
        return "the Courage test to charge failed: the fighter does not shoot"
    if shots_this_assault >= 1:
        return "only one shot during an assault"
    if target_eliminated:
        return "the target was eliminated before this shot: the shot is lost"
    return None


def volley(
    shooters: Sequence[str], eliminated_after: int | None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """VI-B-3: several fighters assault-shoot the same target at once; every shot is resolved
    before any figure moves. If the target is eliminated by the shot of ``shooters[k]``
    (``eliminated_after`` = k), the later shooters' shots are lost and they may redirect their
    assaults. Returns (shooters who shoot, shooters whose shot is lost)."""
    if eliminated_after is None:
        return tuple(shooters), ()
    if not 0 <= eliminated_after < len(shooters):
        raise ValueError(f"no shot number {eliminated_after} among {len(shooters)}")
    return tuple(shooters[: eliminated_after + 1]), tuple(shooters[eliminated_after + 1 :])
