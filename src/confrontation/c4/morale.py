"""The assault's test, rout and rally (``# C4 Moving a Unit > Assault``, ``# C4 Cards`` note 1,
``# C4 Universal table of resolution``) — rulings kept as data (``data/c4/morale.toml``,
:class:`Morale`; docs/rulings.md "C4 Moving a Unit > Assault — the assault's test, rout and
rally").

What to call: :func:`assault_test` ``(state, unit, target, roller)`` — the stage before the
assaulting unit moves; :func:`rally` ``(state, unit, roller)`` — a unit in rout's activation;
:func:`flee`; :func:`courage_test` (one Courage test, several dice keep the best); the unit's
values :func:`unit_courage`, :func:`unit_fear`, :func:`courage_dice`; :func:`load_morale`.

The document: "If the unit succeeds at the test, the assault takes place normally; If the unit
fails the test and is the active unit, it is in rout and its activation ends, but it remains
where it is. If the unit fails the test and it is not the active unit, it is in rout and it is
subjected to Morale rules." The test (ruling): a Courage test of a unit facing a unit that
causes Fear, difficulty the enemy's Fear, rolled before the assaulting unit moves.

Sections (docs/rules-index.toml): C4-ASSAULT, C4-CARDS, C4-UNIVERSAL-TABLE-OF-RESOLUTION.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from confrontation.armylists.load import parse_model, read_toml
from confrontation.c4 import actions
from confrontation.c4.events import (
    CourageTested,
    Disengaged,
    FearIgnored,
    LeaderReplaced,
    Rallied,
    Routed,
    UnitFled,
    UnitLeftBattlefield,
    UnitMoved,
)
from confrontation.c4.formation import Member, new_leader
from confrontation.c4.handlers import Transition
from confrontation.c4.resolution import minimum_roll
from confrontation.c4.state import C4State, Fighter
from confrontation.data import data_path
from confrontation.dice import Roller
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve

# --- the data ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Morale:
    """The morale rulings (fields: docs/c4-data.md, ``morale.toml``)."""

    tests: tuple[str, ...] = ("assaulting", "assaulted")
    courage_of: str = "leader"
    fear_of: str = "best"
    fear_immunity: bool = True
    bonus_kinds: tuple[str, ...] = ("standard_bearer", "musician")
    bonus_in: tuple[str, ...] = ("assault", "rally")
    assaulted_flees: bool = True
    rally_difficulty: int = 4
    flight: str = "run"
    flee_towards: str = "own_edge"


_KINDS = Literal["standard", "incarnate", "mystic", "standard_bearer", "musician", "specialist"]


class _MoraleModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    tests: list[Literal["assaulting", "assaulted"]] = Field(max_length=2)
    courage_of: Literal["leader", "best"]
    fear_of: Literal["leader", "best"]
    fear_immunity: bool
    bonus_kinds: list[_KINDS] = Field(max_length=6)
    bonus_in: list[Literal["assault", "rally"]] = Field(max_length=2)
    assaulted_flees: bool
    rally_difficulty: int = Field(ge=-20, le=40)
    flight: Literal["walk", "run"]
    flee_towards: Literal["own_edge", "away"]

    @model_validator(mode="after")
    def _unique(self) -> _MoraleModel:
        for name in ("tests", "bonus_kinds", "bonus_in"):
            values = getattr(self, name)
            if len(set(values)) != len(values):
                raise ValueError(f"{name} lists a value twice")
        return self


def parse_morale(path: Path, text: str, data: dict[str, Any]) -> Morale:
    """Validate parsed TOML; a problem is a one-line ``LoadError``."""
    m = parse_model(_MoraleModel, path, text, data)
    return Morale(
        tests=tuple(m.tests),
        courage_of=m.courage_of,
        fear_of=m.fear_of,
        fear_immunity=m.fear_immunity,
        bonus_kinds=tuple(m.bonus_kinds),
        bonus_in=tuple(m.bonus_in),
        assaulted_flees=m.assaulted_flees,
        rally_difficulty=m.rally_difficulty,
        flight=m.flight,
        flee_towards=m.flee_towards,
    )


def load_morale(path: Path | str | None = None) -> Morale:
    """The morale rulings from ``path`` (default: the bundled ``data/c4/morale.toml``)."""
    if path is None:
        return default_morale()
    file = Path(path)
    text, data = read_toml(file)
    return parse_morale(file, text, data)


@cache
def default_morale() -> Morale:
    """The bundled rulings, loaded once."""
    text = data_path("c4/morale.toml").read_text(encoding="utf-8")
    return parse_morale(Path("c4/morale.toml"), text, tomllib.loads(text))


# --- a unit's values ------------------------------------------------------------------------


def _value(state: C4State, f: Fighter) -> tuple[int, bool] | None:
    """The fighter's Courage (False) or Fear (True) from his profile (None: neither known)."""
    stats = state.stats(f.profile)
    if stats is None:
        return None
    if stats.fear is not None:
        return stats.fear, True
    if stats.courage is not None:
        return stats.courage, False
    return None


def unit_courage(
    state: C4State, unit_id: str, rules: Morale | None = None
) -> tuple[int, bool] | None:
    """The unit's action value for a Courage test and whether it is Fear (``# C4 Cards``,
    note 1: "Courage can be replaced by Fear"): the leader's, or the best of its fighters'."""
    rules = rules or default_morale()
    members = state.members(unit_id)
    if not members:
        return None
    if rules.courage_of == "leader":
        return _value(state, state.fighter(state.unit(unit_id).leader))
    values = [v for f in members if (v := _value(state, f)) is not None]
    return max(values) if values else None


def unit_fear(state: C4State, unit_id: str, rules: Morale | None = None) -> int | None:
    """The Fear the unit causes (None: it causes none): its best fighter's, or its leader's."""
    rules = rules or default_morale()
    members = state.members(unit_id)
    if not members:
        return None
    if rules.fear_of == "leader":
        members = (state.fighter(state.unit(unit_id).leader),)
    fears = [v[0] for f in members if (v := _value(state, f)) is not None and v[1]]
    return max(fears) if fears else None


def courage_dice(state: C4State, unit_id: str, purpose: str, rules: Morale | None = None) -> int:
    """One die, plus one per fighter of a bonus kind (standard bearers, musicians) when they
    help this ``purpose`` ("assault" or "rally")."""
    rules = rules or default_morale()
    if purpose not in rules.bonus_in:
        return 1
    return 1 + sum(1 for f in state.members(unit_id) if f.kind in rules.bonus_kinds)


@dataclass(frozen=True)
class CourageResult:
    faces: tuple[int, ...]
    minimum: int
    success: bool


def courage_test(roller: Roller, value: int, difficulty: int, dice: int = 1) -> CourageResult:
    """``# C4 Universal table of resolution``: a Courage test rolls one die (several: only the
    best is kept); a success is the face the table gives or more, a 1 always failing and a 6
    always succeeding (CLARIFICATIONS §7). A 6 is not rolled again: a Courage test counts no
    successes beyond the first (ruling)."""
    if dice < 1:
        raise ValueError("a Courage test rolls at least one die")
    faces = tuple(roller.d6() for _ in range(dice))
    best = max(faces)
    need = minimum_roll(value, difficulty)
    return CourageResult(faces, need, best == 6 or (best != 1 and best >= need))


def courage_chance(value: int, difficulty: int, dice: int = 1) -> Fraction:
    """The exact chance that :func:`courage_test` passes: each die a success on a 6, or on the
    table's face or more but never on a 1; the best of ``dice`` dice kept, so the test fails
    only when every die fails."""
    need = min(max(minimum_roll(value, difficulty), 2), 6)
    return 1 - (1 - Fraction(7 - need, 6)) ** max(dice, 1)


# --- the assault's test -------------------------------------------------------------------------


@dataclass(frozen=True)
class Facing:
    """A unit's assault test against an enemy unit's Fear, before it is rolled: its Courage
    (or Fear) ``value``, the enemy's ``fear``, the ``dice`` it rolls; ``immune``: a Fear of
    its own at least as high (no die rolled)."""

    value: int
    fear: int
    dice: int
    immune: bool


def facing(state: C4State, tester: str, enemy: str, rules: Morale) -> Facing | None:
    """``tester``'s assault test against ``enemy`` (``# C4 Moving a Unit > Assault``); None:
    it takes none — either unit gone, ``tester`` already in rout, no Fear or no Courage."""
    if not state.members(tester) or not state.members(enemy) or state.unit(tester).rout:
        return None
    fear = unit_fear(state, enemy, rules)
    own = unit_courage(state, tester, rules)
    if fear is None or own is None:
        return None
    value, is_fear = own
    if is_fear and rules.fear_immunity and value >= fear:
        return Facing(value, fear, 0, True)
    return Facing(value, fear, courage_dice(state, tester, "assault", rules), False)


def _rout(state: C4State, unit_id: str) -> C4State:
    return state.with_unit(evolve(state.unit(unit_id), rout=True))


def assault_test(
    state: C4State, unit_id: str, target: str, roller: Roller, rules: Morale | None = None
) -> Transition:
    """``# C4 Moving a Unit > Assault`` ("This is war!"), before the assaulting unit moves: each
    unit the data names facing an enemy unit that causes Fear takes a Courage test against it
    (immune with a Fear of its own at least as high; a unit already in rout takes none). The
    active unit failing is in rout and its activation ends where it stands (the caller stops);
    the assaulted unit failing is in rout and subjected to the Morale rules (:func:`flee`)."""
    rules = rules or default_morale()
    events: list[Event] = []
    pairs = {"assaulting": (unit_id, target), "assaulted": (target, unit_id)}
    for who in rules.tests:
        tester, enemy = pairs[who]
        test = facing(state, tester, enemy, rules)
        if test is None:
            continue
        if test.immune:
            events.append(FearIgnored(tester, enemy, test.fear))
            continue
        result = courage_test(roller, test.value, test.fear, test.dice)
        events.append(
            CourageTested(
                tester,
                "assault",
                enemy,
                test.value,
                test.fear,
                result.faces,
                result.minimum,
                result.success,
            )
        )
        if result.success:
            continue
        active = tester == unit_id
        state = _rout(state, tester)
        events.append(Routed(tester, active))
        if active:  # C4 Moving a Unit > Assault: its activation ends, it remains where it is
            return state, events
        if rules.assaulted_flees:  # not active: subjected to Morale rules
            state, fled = flee(state, tester, rules)
            events += fled
    return state, events


# --- rout: flight and rally ---------------------------------------------------------------------


def _centre(fighters: Sequence[Fighter]) -> tuple[float, float] | None:
    if not fighters:
        return None
    return (sum(f.x for f in fighters) / len(fighters), sum(f.y for f in fighters) / len(fighters))


def own_edge(state: C4State, player: int, near: Fighter | None = None) -> str:
    """The player's own edge: the one stored at set-up (``C4State.edges``); an older record
    without it: the edge the vector from the enemy's fighters' centre to the player's own
    points at most (no enemy: the edge nearest ``near``)."""
    if player < len(state.edges):
        return state.edges[player]
    mine = [f for f in state.fighters if state.unit(f.unit).owner == player]
    foes = [f for f in state.fighters if state.unit(f.unit).owner != player]
    own, theirs = _centre(mine), _centre(foes)
    vx, vy = (
        (0.0, 0.0) if own is None or theirs is None else (own[0] - theirs[0], own[1] - theirs[1])
    )
    if math.isclose(vx, 0.0, abs_tol=1e-9) and math.isclose(vy, 0.0, abs_tol=1e-9):
        if near is None:
            return "s"
        gaps = {
            "w": near.x,
            "e": state.width - near.x,
            "s": near.y,
            "n": state.height - near.y,
        }
        return min(gaps, key=lambda k: (gaps[k], k))
    if abs(vx) > abs(vy):
        return "e" if vx > 0 else "w"
    return "n" if vy > 0 else "s"


def edge_gap(state: C4State, f: Fighter, edge: str) -> float:
    """How far the fighter's base is from the battlefield edge (0 or less: touching or
    across)."""
    centre = {
        "w": f.x,
        "e": state.width - f.x,
        "s": f.y,
        "n": state.height - f.y,
    }[edge]
    return centre - f.radius


EDGE_CM = 0.005
"""A base this close to an edge touches it (the contact tolerance, 0.05 mm)."""


def flight_goal(
    state: C4State, unit_id: str, reach: float, rules: Morale | None = None
) -> tuple[float, float, bool]:
    """Where the unit's leader flees and whether the flight takes it off the battlefield.

    ``own_edge``: straight towards the player's own edge (:func:`own_edge`), his base
    touching it; the bool: the edge is within ``reach`` of his base.
    ``away``: straight away from the nearest enemy leader, ``reach`` cm; off the battlefield
    when the point is beyond an edge."""
    rules = rules or default_morale()
    unit = state.unit(unit_id)
    lead = state.fighter(unit.leader)
    r = lead.radius
    foes = [f for f in state.fighters if state.unit(f.unit).owner != unit.owner]
    if rules.flee_towards == "away" and foes:
        leaders = [state.fighter(u.leader) for u in actions.enemies(state, unit)]
        near = min(leaders, key=lambda f: (math.hypot(f.x - lead.x, f.y - lead.y), f.id))
        dx, dy = lead.x - near.x, lead.y - near.y
        norm = math.hypot(dx, dy) or 1.0
        x, y = lead.x + dx / norm * reach, lead.y + dy / norm * reach
        off = not (r <= x <= state.width - r and r <= y <= state.height - r)
        x = min(max(x, r), state.width - r)
        y = min(max(y, r), state.height - r)
        return x, y, off
    edge = own_edge(state, unit.owner, lead)
    goal = {
        "w": (r, lead.y),
        "e": (state.width - r, lead.y),
        "s": (lead.x, r),
        "n": (lead.x, state.height - r),
    }[edge]
    return goal[0], goal[1], edge_gap(state, lead, edge) <= reach


def _disengage(state: C4State, unit_id: str) -> Transition:
    """Units no longer in contact with the unit are free of it."""
    events: list[Event] = []
    for other in state.unit(unit_id).engaged:
        alive = state.members(unit_id) and state.members(other)
        if alive and actions.in_contact(state, unit_id, other):
            continue
        u, o = state.unit(unit_id), state.unit(other)
        state = state.with_unit(evolve(u, engaged=tuple(x for x in u.engaged if x != other)))
        state = state.with_unit(evolve(o, engaged=tuple(x for x in o.engaged if x != unit_id)))
        if alive:
            events.append(Disengaged(unit_id, other))
    return state, events


def flee(state: C4State, unit_id: str, rules: Morale | None = None) -> Transition:
    """A unit in rout flees (ruling): its ``flight`` movement (run: 2×MOV) towards its own
    edge, skirting obstacles (``actions.move_unit``). Then every fighter whose base touches
    or crosses the own edge leaves the battlefield; when more than half of the unit's
    fighters (counted before the flight) have left, the rest follow and the unit leaves
    whole. Fighters who leave alone are removed as losses are (a new leader if he left).
    ``away``: a flight whose point lies beyond an edge takes the unit off. Units it no
    longer touches are free of it."""
    rules = rules or default_morale()
    if not state.members(unit_id):
        return state, []
    mov = actions.unit_mov(state, unit_id)
    reach = mov * (2 if rules.flight == "run" else 1)
    x, y, off = flight_goal(state, unit_id, reach, rules)
    if off and rules.flee_towards == "away":
        return _leave(state, unit_id)
    before = state.members(unit_id)
    lead = state.fighter(state.unit(unit_id).leader)
    state, moved = actions.move_unit(state, unit_id, x, y, rules.flight)
    after = state.fighter(lead.id)
    events = [e for e in moved if not isinstance(e, UnitMoved)]
    if (after.x, after.y) != (lead.x, lead.y):
        events.insert(0, UnitFled(unit_id, round(after.x - lead.x, 3), round(after.y - lead.y, 3)))
    if rules.flee_towards == "own_edge":
        edge = own_edge(state, state.unit(unit_id).owner, after)
        out = tuple(f.id for f in state.members(unit_id) if edge_gap(state, f, edge) <= EDGE_CM)
        if 2 * len(out) > len(before):
            state, left = _leave(state, unit_id)
            return state, events + left
        if out:
            gone = set(out)
            state = evolve(state, fighters=tuple(f for f in state.fighters if f.id not in gone))
            events.append(UnitLeftBattlefield(unit_id, len(out)))
            if lead.id in gone:  # C4 Units: the leader replaced
                state, replaced = _new_leader(state, unit_id, after)
                events += replaced
    state, freed = _disengage(state, unit_id)
    return state, events + freed


def _new_leader(state: C4State, unit_id: str, old: Fighter) -> Transition:
    """``# C4 Units``: the leader who left is replaced (``formation.new_leader``)."""
    remaining = actions.members(state, unit_id)
    fallen = Member(old.id, old.x, old.y, old.radius, old.standard, old.incarnate)
    new = new_leader(remaining, fallen) if remaining else None
    if new is None:
        return state, []
    state = state.with_unit(evolve(state.unit(unit_id), leader=new))
    return state, [LeaderReplaced(unit_id, old.id, new)]


def _leave(state: C4State, unit_id: str) -> Transition:
    """The whole unit leaves the battlefield: its fighters are removed."""
    gone = {f.id for f in state.members(unit_id)}
    state = evolve(state, fighters=tuple(f for f in state.fighters if f.id not in gone))
    events: list[Event] = [UnitLeftBattlefield(unit_id, len(gone))]
    state, freed = _disengage(state, unit_id)
    return state, events + freed


def rally(state: C4State, unit_id: str, roller: Roller, rules: Morale | None = None) -> Transition:
    """A unit in rout's activation (ruling): it neither assaults nor shoots; it takes a rally
    test (Courage against the data's fixed difficulty, a die more per standard bearer or
    musician, the best kept). Success: no longer in rout, its activation ends; failure: it
    flees again (:func:`flee`)."""
    rules = rules or default_morale()
    own = unit_courage(state, unit_id, rules)
    value = own[0] if own is not None else 0
    difficulty = rules.rally_difficulty
    dice = courage_dice(state, unit_id, "rally", rules)
    result = courage_test(roller, value, difficulty, dice)
    events: list[Event] = [
        CourageTested(
            unit_id, "rally", None, value, difficulty, result.faces, result.minimum, result.success
        )
    ]
    if result.success:
        state = state.with_unit(evolve(state.unit(unit_id), rout=False))
        return state, [*events, Rallied(unit_id)]
    state, fled = flee(state, unit_id, rules)
    return state, events + fled
