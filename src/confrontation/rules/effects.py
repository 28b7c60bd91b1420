"""Game effects (II-C): area of effect, range, duration, 'win' / 'benefit', dispersion.

II-C: a game effect is any action, ability, artifact, spell, miracle or scenario effect that
has an impact on the fighters. This module holds what an effect's text says and the rules
that read it, as pure functions; which fighters a circle on the table touches is geometry
(:mod:`confrontation.geometry.areas`). The tables (deviation distances and directions,
duration and keyword spellings) live in ``confrontation/data/effects.toml``, read by
:func:`load_effects_table` (a user may pass their own file).
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from importlib import resources
from itertools import product
from pathlib import Path
from typing import Literal, TypeVar

from confrontation.dice import Roller

__all__ = [
    "AreaOfEffect",
    "Condition",
    "Deviation",
    "Duration",
    "DurationKind",
    "EffectsTable",
    "EffectsTableError",
    "Keyword",
    "Landing",
    "Range",
    "Situation",
    "active",
    "area_radius_distribution",
    "condition_met",
    "default_effects_table",
    "deviate",
    "dispersion_distribution",
    "ends_this_turn",
    "landing_distribution",
    "load_effects_table",
    "needs_line_of_sight",
    "p_landing",
    "parse_area",
    "parse_duration",
    "parse_keyword",
    "parse_range",
    "roll_area_radius",
    "roll_dispersion",
]

Point = tuple[float, float]
E = TypeVar("E", bound=Enum)
#: distances are compared to a thousandth of a millimetre
EPS_CM = 1e-6


class EffectsTableError(ValueError):
    """A malformed effects file: the message names the file and the key."""


class DurationKind(Enum):
    """II-C-3: the kinds of duration, and when each one ends."""

    INSTANT = "instant"  # applied once, never lasts
    END_OF_TURN = "end_of_turn"  # ends in the maintenance phase of the turn it was applied
    TURNS = "turns"  # lasts N turns, the turn it was applied being the first
    END_OF_GAME = "end_of_game"  # the most powerful: until the end of the game
    MAINTAIN = "maintain"  # Maintain/X: end of the turn unless X is paid in maintenance


class Keyword(Enum):
    """II-C-4: the conditional keywords."""

    WIN = "kept"  # decided when applied, kept to the end of the duration
    BENEFIT = "while"  # active exactly while the condition holds


@dataclass(frozen=True)
class EffectsTable:
    """The contents of ``effects.toml``."""

    distance: Mapping[int, float]  # II-C-5: deviation in cm by face
    direction: Mapping[int, float]  # II-C-5: degrees clockwise from straight on, by face
    durations: Mapping[str, DurationKind]  # II-C-3: keyword (lower case) -> kind
    keywords: Mapping[str, Keyword]  # II-C-4: spelling (lower case) -> keyword
    source: str = "<built-in>"


def _faces(data: object, where: str) -> dict[int, float]:
    if not isinstance(data, dict):
        raise EffectsTableError(f"{where}: expected a table of the faces 1 to 6")
    out: dict[int, float] = {}
    for key, value in data.items():
        if key not in {str(f) for f in range(1, 7)}:
            raise EffectsTableError(f"{where}: key {key!r}: a face is 1 to 6")
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise EffectsTableError(f"{where}: key {key!r}: expected a number")
        out[int(key)] = float(value)
    if sorted(out) != list(range(1, 7)):
        missing = min(set(range(1, 7)) - set(out))
        raise EffectsTableError(f"{where}: face {missing} is missing")
    return out


def _names(data: object, where: str, kind: type[E]) -> dict[str, E]:
    if not isinstance(data, dict) or not data:
        raise EffectsTableError(f"{where}: expected a table of names")
    values = {str(k.value): k for k in kind}
    out: dict[str, E] = {}
    for key, value in data.items():
        if value not in values:
            raise EffectsTableError(
                f"{where}: key {key!r}: expected one of {', '.join(sorted(values))}"
            )
        out[key.strip().lower()] = values[value]
    return out


def _parse_table(data: Mapping[str, object], source: str) -> EffectsTable:
    unknown = sorted(set(data) - {"dispersion", "durations", "keywords"})
    if unknown:
        raise EffectsTableError(f"{source}: unknown key {unknown[0]!r}")
    dispersion = data.get("dispersion")
    if not isinstance(dispersion, dict):
        raise EffectsTableError(f"{source}: dispersion: expected a [dispersion] table")
    distance = _faces(dispersion.get("distance"), f"{source}: dispersion.distance")
    if any(d < 0 for d in distance.values()):
        raise EffectsTableError(f"{source}: dispersion.distance: a distance is never negative")
    return EffectsTable(
        distance=distance,
        direction=_faces(dispersion.get("direction"), f"{source}: dispersion.direction"),
        durations=_names(data.get("durations"), f"{source}: durations", DurationKind),
        keywords=_names(data.get("keywords"), f"{source}: keywords", Keyword),
        source=source,
    )


def load_effects_table(path: str | Path | None = None) -> EffectsTable:
    """Read the effects tables from ``path``, or the bundled ``effects.toml``."""
    if path is None:
        text = resources.files("confrontation.data").joinpath("effects.toml").read_text("utf-8")
        source = "effects.toml"
    else:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise EffectsTableError(f"{source}: cannot read ({error.strerror})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise EffectsTableError(f"{source}: not valid TOML ({error})") from None
    return _parse_table(data, source)


@cache
def default_effects_table() -> EffectsTable:
    """The bundled tables (read once)."""
    return load_effects_table()


# --- II-C-1: area of effect ---------------------------------------------------------------

_ONE_FIGHTER = re.compile(r"^(?:one|a|1)\s+(?:fighter|combatant|miniature)$")
_CM = re.compile(r"^(\d+(?:\.\d+)?)\s*cm$")
_DICE = re.compile(r"^(\d*)\s*d6\s*(?:cm)?$")


@dataclass(frozen=True)
class AreaOfEffect:
    """II-C-1: either one particular fighter, or a radius around a point or a fighter's base:
    ``radius_cm`` fixed, or the sum of ``dice`` natural d6 rolled each time it is applied."""

    one_fighter: bool = False
    radius_cm: float = 0.0
    dice: int = 0

    def __post_init__(self) -> None:
        if self.radius_cm < 0 or self.dice < 0:
            raise ValueError("an area of effect is never negative")
        if self.one_fighter and (self.radius_cm or self.dice):
            raise ValueError("an area of effect is one fighter or a radius, not both")
        if self.radius_cm and self.dice:
            raise ValueError("an area of effect is a fixed radius or rolled dice, not both")

    @property
    def rolled(self) -> bool:
        """Is the radius rolled (II-C-1)?"""
        return self.dice > 0


def parse_area(text: str) -> AreaOfEffect:
    """II-C-1: read 'one fighter', '15 cm' or '2d6 cm' as written after 'Area of effect:'."""
    t = " ".join(text.strip().lower().split())
    if _ONE_FIGHTER.match(t):
        return AreaOfEffect(one_fighter=True)
    if m := _CM.match(t):
        return AreaOfEffect(radius_cm=float(m.group(1)))
    if m := _DICE.match(t):
        dice = int(m.group(1) or 1)
        if dice < 1:
            raise ValueError(f"area of effect {text!r}: at least one die")
        return AreaOfEffect(dice=dice)
    raise ValueError(f"area of effect {text!r}: expected 'one fighter', 'X cm' or 'Nd6 cm'")


def roll_area_radius(area: AreaOfEffect, roller: Roller) -> float:
    """II-C-1: the radius for one application of the effect. A rolled radius is the sum of the
    natural results (a '6' is not rolled again), rolled anew each time the effect is applied,
    and the effect is resolved however small it is. A fixed radius rolls nothing."""
    if area.one_fighter:
        raise ValueError("an area of one fighter has no radius")
    if not area.rolled:
        return area.radius_cm
    return float(sum(roller.d6() for _ in range(area.dice)))


def area_radius_distribution(area: AreaOfEffect) -> dict[float, Fraction]:
    """II-C-1: the exact distribution of the radius (a fixed radius has probability 1)."""
    if area.one_fighter:
        raise ValueError("an area of one fighter has no radius")
    if not area.rolled:
        return {area.radius_cm: Fraction(1)}
    counts: dict[int, int] = {0: 1}
    for _ in range(area.dice):
        step: dict[int, int] = {}
        for total, n in counts.items():
            for face in range(1, 7):
                step[total + face] = step.get(total + face, 0) + n
        counts = step
    whole = 6**area.dice
    return {float(t): Fraction(n, whole) for t, n in sorted(counts.items())}


def needs_line_of_sight(area: AreaOfEffect, *, text_waives_sight: bool = False) -> bool:
    """II-D-3: a ranged interaction needs a line of sight on its target, except an effect
    that affects all fighters within X cm of its origin or whose text waives it."""
    return area.one_fighter and not text_waives_sight


# --- II-C-2: range ------------------------------------------------------------------------


@dataclass(frozen=True)
class Range:
    """II-C-2: the maximum distance (cm) from the fighter generating the effect to the point
    or fighter on which it is applied; 'contact' is a range of 0 (in contact with the base)."""

    cm: float

    def __post_init__(self) -> None:
        if self.cm < 0:
            raise ValueError(f"a range is never negative, not {self.cm}")

    @property
    def contact(self) -> bool:
        return self.cm == 0

    def reaches(self, distance_cm: float) -> bool:
        """II-C-2: is a point or a fighter at ``distance_cm`` (edge of the generating
        fighter's base to the point / the edge of the target's base) within range? A distance
        equal to the range is within it; beyond it, the effect cannot be applied there."""
        if distance_cm < 0:
            raise ValueError(f"a distance is never negative, not {distance_cm}")
        return distance_cm <= self.cm + EPS_CM


def parse_range(text: str) -> Range:
    """II-C-2: read 'contact' or '20 cm' as written after 'Range:'."""
    t = " ".join(text.strip().lower().split())
    if t == "contact":
        return Range(0.0)
    if m := _CM.match(t):
        return Range(float(m.group(1)))
    raise ValueError(f"range {text!r}: expected 'contact' or 'X cm'")


# --- II-C-3: duration ---------------------------------------------------------------------

_TURNS = re.compile(r"^(\d+)\s+(?:turns?|rounds?)$")
_MAINTAIN = re.compile(r"^maintain\s*/\s*(\d+)$")


@dataclass(frozen=True)
class Duration:
    """II-C-3: how long an effect lasts: a kind, the number of turns (``TURNS``) and the cost
    X of one more turn (``MAINTAIN``: gems of the spell's element or Temporary Faith)."""

    kind: DurationKind
    turns: int = 0
    maintain_cost: int = 0

    def __post_init__(self) -> None:
        if (self.kind is DurationKind.TURNS) != (self.turns > 0):
            raise ValueError("a duration in turns has a number of turns (at least 1)")
        if self.kind is not DurationKind.TURNS and self.turns:
            raise ValueError(f"a duration {self.kind.value!r} has no number of turns")
        if self.maintain_cost < 0 or (
            self.kind is not DurationKind.MAINTAIN and self.maintain_cost
        ):
            raise ValueError("only a Maintain/X duration has a cost X (at least 0)")


def parse_duration(text: str, table: EffectsTable | None = None) -> Duration:
    """II-C-3: read 'Instant', 'until the end of the turn', '3 turns', 'Maintain/2', 'until
    the end of the game' (the keywords of ``[durations]`` in effects.toml)."""
    t = " ".join(text.strip().lower().split())
    if m := _TURNS.match(t):
        return Duration(DurationKind.TURNS, turns=int(m.group(1)))
    if m := _MAINTAIN.match(t):
        return Duration(DurationKind.MAINTAIN, maintain_cost=int(m.group(1)))
    kinds = (table or default_effects_table()).durations
    if t in kinds:
        return Duration(kinds[t])
    raise ValueError(
        f"duration {text!r}: expected 'N turns', 'Maintain/X' or one of {', '.join(kinds)}"
    )


def ends_this_turn(
    duration: Duration, applied_turn: int, turn: int, *, maintained: bool = False
) -> bool:
    """II-C-3, IV-D-3: does an effect applied in turn ``applied_turn`` end in the maintenance
    phase of turn ``turn``? (An effect that does not end is still active the next turn.)

    - Instant: it never lasts (the answer is True whatever the turn).
    - Until the end of the turn: ends the turn it was applied.
    - N turns: the turn of application is the first, so it ends in turn applied + N - 1.
    - Maintain/X: ends at the end of each turn unless the caster sacrificed X gems / X points
      of Temporary Faith in this maintenance phase (``maintained``).
    - Until the end of the game: never.
    """
    if turn < applied_turn:
        raise ValueError(f"turn {turn} is before the turn of application {applied_turn}")
    match duration.kind:
        case DurationKind.INSTANT | DurationKind.END_OF_TURN:
            return True
        case DurationKind.TURNS:
            return turn >= applied_turn + duration.turns - 1
        case DurationKind.MAINTAIN:
            return not maintained
        case DurationKind.END_OF_GAME:
            return False


# --- II-C-4: conditional keywords ---------------------------------------------------------


def parse_keyword(word: str, table: EffectsTable | None = None) -> Keyword:
    """II-C-4: 'win' / 'benefit' (and their spellings in ``[keywords]`` of effects.toml)."""
    words = (table or default_effects_table()).keywords
    key = word.strip().lower()
    if key not in words:
        raise ValueError(f"conditional keyword {word!r}: expected one of {', '.join(words)}")
    return words[key]


Side = Literal["friend", "enemy", "any"]


@dataclass(frozen=True)
class Condition:
    """The condition of a conditional effect: fighters of ``side`` within ``within_cm`` of the
    effect's origin (None: at any distance)."""

    within_cm: float | None = None
    side: Side = "any"


@dataclass(frozen=True)
class Situation:
    """Where a fighter stands with respect to an effect at one moment: distance (cm, edge to
    edge) to the effect's origin, None when the origin is no longer on the battlefield (the
    caster was killed or removed); and whether he is a friend of the fighter generating it."""

    distance_cm: float | None
    friendly: bool


def condition_met(condition: Condition, situation: Situation) -> bool:
    """Does the fighter in ``situation`` satisfy ``condition``? Within X cm: at most X cm,
    partially within counts (the distance is edge to edge)."""
    if condition.side == "friend" and not situation.friendly:
        return False
    if condition.side == "enemy" and situation.friendly:
        return False
    if condition.within_cm is None:
        return True
    if situation.distance_cm is None:
        return False
    return situation.distance_cm <= condition.within_cm + EPS_CM


def active(
    keyword: Keyword,
    condition: Condition,
    *,
    at_application: Situation,
    now: Situation,
    expired: bool = False,
) -> bool:
    """II-C-4: does a fighter have the effect now?

    'Win': the fighters satisfying the condition when the effect is applied have it until the
    end of its duration, whatever happens later (the caster moving, or dying). 'Benefit': a
    fighter has it exactly while he satisfies the condition, starting as soon as he does
    (even if he did not when the effect was applied), ending as soon as he no longer does.
    Nothing survives the end of the duration (``expired``).
    """
    if expired:
        return False
    if keyword is Keyword.WIN:
        return condition_met(condition, at_application)
    return condition_met(condition, now)


# --- II-C-5: dispersion -------------------------------------------------------------------


@dataclass(frozen=True)
class Deviation:
    """II-C-5: the two dice and where the point of impact lands."""

    distance_face: int
    direction_face: int
    distance_cm: float
    bearing_deg: float  # direction of the deviation, degrees counter-clockwise from +x
    point: Point


def _face(face: int) -> int:
    if face not in range(1, 7):
        raise ValueError(f"a d6 face is 1 to 6, not {face!r}")
    return face


def _heading(origin: Point, impact: Point) -> float:
    dx, dy = impact[0] - origin[0], impact[1] - origin[1]
    if math.hypot(dx, dy) < EPS_CM:
        raise ValueError(
            "the point of impact is the origin: 'straight on' needs a line (pass heading_deg)"
        )
    return math.degrees(math.atan2(dy, dx))


def deviate(
    origin: Point,
    impact: Point,
    distance_face: int,
    direction_face: int,
    table: EffectsTable | None = None,
    *,
    heading_deg: float | None = None,
) -> Deviation:
    """II-C-5, CLARIFICATIONS §3: move the point of impact by the distance of the first die in
    the direction of the second. Direction 1 is straight on, along the line from the origin of
    the effect through the point of impact; the others follow clockwise, 60° apart (as the
    table says). ``heading_deg`` replaces that line (degrees counter-clockwise from +x) when
    the impact is on the origin itself."""
    t = table or default_effects_table()
    cm = t.distance[_face(distance_face)]
    ahead = _heading(origin, impact) if heading_deg is None else heading_deg
    bearing = (ahead - t.direction[_face(direction_face)]) % 360.0  # clockwise: subtract
    a = math.radians(bearing)
    point = (impact[0] + cm * math.cos(a), impact[1] + cm * math.sin(a))
    return Deviation(distance_face, direction_face, cm, bearing, point)


def roll_dispersion(
    origin: Point,
    impact: Point,
    roller: Roller,
    table: EffectsTable | None = None,
    *,
    heading_deg: float | None = None,
) -> Deviation:
    """II-C-5: roll the deviation distance (first d6), then its direction (second d6)."""
    distance_face = roller.d6()
    direction_face = roller.d6()
    return deviate(origin, impact, distance_face, direction_face, table, heading_deg=heading_deg)


@dataclass(frozen=True)
class Landing:
    """One outcome of a dispersion and its exact probability."""

    deviation: Deviation
    probability: Fraction


def landing_distribution(
    origin: Point,
    impact: Point,
    table: EffectsTable | None = None,
    *,
    heading_deg: float | None = None,
) -> list[Landing]:
    """II-C-5: every pair of faces (distance, direction), each with probability 1/36."""
    p = Fraction(1, 36)
    return [
        Landing(deviate(origin, impact, d, r, table, heading_deg=heading_deg), p)
        for d, r in product(range(1, 7), repeat=2)
    ]


def dispersion_distribution(
    origin: Point,
    impact: Point,
    table: EffectsTable | None = None,
    *,
    heading_deg: float | None = None,
) -> dict[Point, Fraction]:
    """II-C-5: the exact distribution of the landing point (points rounded to 1e-9 cm, so
    that a table giving the same point for several pairs of faces merges them)."""
    out: dict[Point, Fraction] = {}
    for landing in landing_distribution(origin, impact, table, heading_deg=heading_deg):
        x, y = landing.deviation.point
        key = (round(x, 9) + 0.0, round(y, 9) + 0.0)
        out[key] = out.get(key, Fraction(0)) + landing.probability
    return out


def p_landing(
    origin: Point,
    impact: Point,
    where: Callable[[Point], bool],
    table: EffectsTable | None = None,
    *,
    heading_deg: float | None = None,
) -> Fraction:
    """II-C-5: the exact probability that the deviated point satisfies ``where`` (e.g. "a
    template of 5 cm around it touches this fighter", with geometry.areas)."""
    return sum(
        (
            landing.probability
            for landing in landing_distribution(origin, impact, table, heading_deg=heading_deg)
            if where(landing.deviation.point)
        ),
        Fraction(0),
    )
