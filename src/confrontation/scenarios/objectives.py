"""Objectives of a chapter-20 scenario as data (XX-C, XX-B-2): the ``[[objectives]]`` of a
scenario file, the record a game carries and the parameters of the condition kinds that read
them (the rules are in ``scenarios.occupation`` and ``scenarios.counters``).

An objective is a place on the two-player table (XX-A-2 "décors de scénario, représentant
les objectifs"), a circle or a rectangle in cm from the lower-left corner; a player's
objective is given for deployment area 1 and turned half a turn about the table's centre
when its owner deploys in area 2 (as the areas of ``scenarios.base``). Its keys:

- ``name``; ``shape`` "circle" (``x y radius``) or "rect" (``x0 y0 x1 y1``); ``owner`` 1 or 2
  (optional: a player's objective).
- ``mode`` (XX-C-2): "contact" — a fighter counts when his base is in contact with it (a
  round base touching it, a square base with at least half of one side on it; C3: more
  than half) — or "zone" — when his whole base lies within ``perimeter`` cm of it (0: on the
  objective itself).
- ``effectif`` and ``value`` (XX-C-2): the Power and the strategic value a side needs there
  to occupy it (0: none).
- ``counters`` (XX-B-2): the counters on it when the game begins; ``add`` and ``remove``:
  whose fighters add, whose remove counters in the maintenance phase ("none", "owner",
  "enemy" — any player but the owner —, "all"); ``optional``: the players choose whether
  their fighters do (a question), otherwise they must.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from confrontation.armylists.load import LoadError, find_line
from confrontation.scenarios.conditions import BonusSpec, ConditionSpec

Mode = Literal["contact", "zone"]
Who = Literal["none", "owner", "enemy", "all"]

OCCUPY = "occupy"
CONTROL_OBJECTIVE = "control-objective"
CAPTURE = "capture"
COUNTERS = "counters"
"""The condition kinds of this module's rules (``scenarios.occupation``, ``.counters``)."""


class ObjectiveSpec(BaseModel):
    """An ``[[objectives]]`` entry as written (the module docstring gives every key)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    shape: Literal["circle", "rect"]
    owner: Literal[1, 2] | None = None
    x: float | None = None
    y: float | None = None
    radius: float | None = Field(default=None, gt=0)
    x0: float | None = None
    y0: float | None = None
    x1: float | None = None
    y1: float | None = None
    mode: Mode = "zone"
    perimeter: float = Field(default=0.0, ge=0)
    effectif: int = Field(default=0, ge=0)
    value: int = Field(default=0, ge=0)
    counters: int = Field(default=0, ge=0)
    add: Who = "none"
    remove: Who = "none"
    optional: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> ObjectiveSpec:
        needs = {"rect": ("x0", "y0", "x1", "y1"), "circle": ("x", "y", "radius")}
        for key in needs[self.shape]:
            if getattr(self, key) is None:
                raise ValueError(f"a '{self.shape}' objective needs {key}")
        for key in ("x", "y", "radius", "x0", "y0", "x1", "y1"):
            if key not in needs[self.shape] and getattr(self, key) is not None:
                raise ValueError(f"{key} does not belong to a '{self.shape}' objective")
        if self.shape == "rect" and (self.x0 == self.x1 or self.y0 == self.y1):
            raise ValueError("a 'rect' objective has a width and a height")
        if self.mode == "contact" and self.perimeter:
            raise ValueError("perimeter belongs to a 'zone' objective (XX-C-2)")
        for key in ("add", "remove"):
            if getattr(self, key) in ("owner", "enemy") and self.owner is None:
                raise ValueError(f"{key} = {getattr(self, key)!r} needs an owner (1 or 2)")
        if self.optional and self.add == "none" and self.remove == "none":
            raise ValueError("optional is for an objective with add or remove (XX-B-2)")
        if self.counters and self.add == "none" and self.remove == "none":
            raise ValueError("counters are for an objective with add or remove (XX-B-2)")
        return self

    def coords(self) -> tuple[float, ...]:
        """The shape's numbers (circle: x y radius; rect: x0 y0 x1 y1)."""
        keys = ("x", "y", "radius") if self.shape == "circle" else ("x0", "y0", "x1", "y1")
        return tuple(float(getattr(self, k)) for k in keys)


# --- the record a game carries ------------------------------------------------------------------


@dataclass(frozen=True)
class Objective:
    """An objective in play (plain data): ``owner`` an engine player (0, 1) or None."""

    name: str
    shape: str
    coords: tuple[float, ...]
    owner: int | None = None
    mode: str = "zone"
    perimeter: float = 0.0
    effectif: int = 0
    value: int = 0
    counters: int = 0
    add: str = "none"
    remove: str = "none"
    optional: bool = False

    @property
    def has_counters(self) -> bool:
        """Counters are added to or removed from it (XX-B-2)."""
        return self.add != "none" or self.remove != "none"

    def may(self, action: str, player: int) -> bool:
        """Whether ``player``'s fighters may ``action`` ("add", "remove") counters on it."""
        who = self.add if action == "add" else self.remove
        if who == "all":
            return True
        if who == "owner":
            return player == self.owner
        return who == "enemy" and player != self.owner


@dataclass(frozen=True)
class Objectives:
    """The scenario's objectives and what happens to them (part of the scenario record).

    ``counters``: the counters on each objective that has some (XX-B-2); ``counted``: the
    objective (zone key, ``scenarios.control``) each fighter standing on several counts for,
    as his player chose at the last maintenance phase (XX-C-3); ``deciding``: the counter
    decisions gathered in the maintenance phase under way (fighter, objective, action)."""

    items: tuple[Objective, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()
    counted: tuple[tuple[str, str], ...] = ()
    deciding: tuple[tuple[str, str, str], ...] = ()

    def objective(self, name: str) -> Objective:
        """The objective named ``name`` (a ``KeyError`` if none)."""
        for item in self.items:
            if item.name == name:
                return item
        raise KeyError(name)

    def count(self, name: str) -> int:
        """The counters on the objective ``name`` now."""
        return dict(self.counters).get(name, 0)


def objectives_record(items: Sequence[Objective]) -> Objectives:
    """The record of a game beginning with these objectives (their starting counters)."""
    counters = tuple((o.name, o.counters) for o in items if o.has_counters)
    return Objectives(tuple(items), counters)


# --- the parameters of the condition kinds ------------------------------------------------------


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


class ObjectiveParams(_Params):
    """``occupy``, ``control-objective``: the name of one of the scenario's objectives."""

    objective: str = Field(min_length=1)


class CaptureParams(_Params):
    """``capture`` (XX-C-4): whom (``target`` "highest-value": the enemy fighters with the
    highest strategic value, any of them; "profile": the fighters of ``profile`` who are not
    the player's) and the control ``perimeter`` around the target (cm from his base)."""

    target: Literal["highest-value", "profile"] = "highest-value"
    profile: str | None = None
    perimeter: float = Field(gt=0)

    @model_validator(mode="after")
    def _consistent(self) -> CaptureParams:
        if (self.target == "profile") != (self.profile is not None):
            raise ValueError("profile goes with target = 'profile' (and only with it)")
        return self


class CountersParams(_Params):
    """``counters`` (XX-B-2): the counters on one ``objective`` or on the objectives ``of``
    the player ("own"), of the other players ("enemy") or on all that have counters ("all"),
    compared by exactly one of ``at_least``, ``at_most``, ``most`` (strictly more than every
    other player's same count) or ``fewest`` (strictly fewer)."""

    objective: str | None = None
    of: Literal["own", "enemy", "all"] | None = None
    at_least: int | None = Field(default=None, ge=0)
    at_most: int | None = Field(default=None, ge=0)
    most: bool = False
    fewest: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> CountersParams:
        if (self.objective is None) == (self.of is None):
            raise ValueError("give either objective or of")
        tests = [self.at_least is not None, self.at_most is not None, self.most, self.fewest]
        if sum(tests) != 1:
            raise ValueError("give exactly one of at_least, at_most, most, fewest")
        if self.objective is not None and (self.most or self.fewest):
            raise ValueError("most and fewest compare the players' own or enemy objectives")
        return self


# --- loading --------------------------------------------------------------------------------


def _key(loc: Sequence[str | int]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def load_objectives(
    path: Path, text: str, specs: Sequence[ObjectiveSpec], size: tuple[float, float]
) -> tuple[Objective, ...]:
    """The file's objectives: names unique, each wholly on the ``size`` table."""
    width, height = size
    out: list[Objective] = []
    for n, spec in enumerate(specs, start=1):
        where: list[str | int] = ["objectives", n]
        if spec.name in [o.name for o in out]:
            raise LoadError(
                path,
                f"objective {spec.name!r} appears twice",
                line=find_line(text, [*where, "name"]),
                key=_key([*where, "name"]),
            )
        coords = spec.coords()
        if spec.shape == "circle":
            x, y, r = coords
            low, high = (x - r, y - r), (x + r, y + r)
        else:
            low = (min(coords[0], coords[2]), min(coords[1], coords[3]))
            high = (max(coords[0], coords[2]), max(coords[1], coords[3]))
        if min(low) < 0 or high[0] > width or high[1] > height:
            raise LoadError(
                path,
                f"objective {spec.name!r} is not wholly on the {width:g}x{height:g} table",
                line=find_line(text, where),
                key=_key(where),
            )
        owner = None if spec.owner is None else spec.owner - 1
        out.append(
            Objective(
                spec.name,
                spec.shape,
                coords,
                owner,
                spec.mode,
                spec.perimeter,
                spec.effectif,
                spec.value,
                spec.counters,
                spec.add,
                spec.remove,
                spec.optional,
            )
        )
    return tuple(out)


def check_references(
    path: Path,
    text: str,
    objectives: Sequence[Objective],
    conditions: Sequence[ConditionSpec],
    bonuses: Sequence[BonusSpec],
) -> None:
    """The objectives the conditions and bonuses of this module's kinds name exist (and have
    counters, for the kind ``counters``): a one-line :class:`LoadError` otherwise."""
    names = {o.name: o for o in objectives}
    sections: list[tuple[str, Sequence[ConditionSpec | BonusSpec]]] = [
        ("conditions", conditions),
        ("bonus", bonuses),
    ]
    for section, specs in sections:
        for n, spec in enumerate(specs, start=1):
            extras: dict[str, Any] = spec.extras()
            name = extras.get("objective")
            if spec.kind not in (OCCUPY, CONTROL_OBJECTIVE, COUNTERS) or not isinstance(name, str):
                if spec.kind == COUNTERS and not any(o.has_counters for o in objectives):
                    _refuse(path, text, [section, n, "kind"], "the scenario has no counters")
                continue
            if name not in names:
                known = ", ".join(names) or "none"
                message = f"no objective {name!r} (objectives: {known})"
                _refuse(path, text, [section, n, "objective"], message)
            if spec.kind == COUNTERS and not names[name].has_counters:
                _refuse(path, text, [section, n, "objective"], f"{name!r} has no counters")


def _refuse(path: Path, text: str, where: list[str | int], message: str) -> None:
    raise LoadError(path, message, line=find_line(text, where), key=_key(where))


def params_json(params: BaseModel) -> str:
    """Parameters as the JSON text a condition record holds (tests build records with it)."""
    return json.dumps(params.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
