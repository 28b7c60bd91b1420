"""Scenarios as data (III-A-2, XX-A): the file model, the loader and the record a game carries.

A scenario file (``data/scenarios/<id>.toml``, or a user's own file) says how long the game
lasts, the table and its line-of-battle split (III-A-1), how many standard scenery elements
are laid (III-A-3), the goal — ``control`` (victory points for the areas controlled after the
last round) or ``execution`` (kill a given enemy first, III-A-2) — its areas and its
variations. Every problem is one line naming the file, the line and the key
(:class:`~confrontation.armylists.load.LoadError`).

:class:`BasicScenario` is the scenario as the game state carries it (plain data, part of the
record); ``scenarios.basic`` holds the rules that read it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

from confrontation.armylists.load import LoadError, find_line, parse_model, read_toml
from confrontation.data import data_path
from confrontation.engine.core.state import MAX_PLAYERS, ScenarioRecord, SceneryPiece
from confrontation.engine.table.layouts import CENTRE, layout_name, load_layouts
from confrontation.geometry.table import DEPLOY_NEAR_CM, FORMATS, Table
from confrontation.model.bounds import out_of_bounds
from confrontation.model.profile import FieldProblem
from confrontation.scenarios.conditions import (
    BONUS,
    CONDITION,
    Bonus,
    BonusSpec,
    Condition,
    ConditionKind,
    ConditionSpec,
    validate_params,
)
from confrontation.scenarios.cp_pack import (
    ControlPoints,
    ControlPointsSpec,
    load_control_points,
)
from confrontation.scenarios.loot import Loot, TokenSpec, placed_tokens
from confrontation.scenarios.objectives import (
    Objective,
    Objectives,
    ObjectiveSpec,
    check_references,
    load_objectives,
    objectives_record,
)
from confrontation.scenarios.parties import (
    NeutralEntry,
    PassiveSpec,
    check_placed,
)
from confrontation.scenarios.situation import Placement, ScenerySpec, check_scenery

Shape = Literal["table", "deployment", "centre", "rect", "circle"]
PLACED = ("rect", "circle")
"""Shapes placed by coordinates on the two-player table (III-A-1): no layout has them (XX-F-1)."""
Goal = Literal["control", "execution", "conditions", "control-points"]
TargetRule = Literal["highest-value", "random-card"]

MIN_SCENERY = 4
"""III-A-3: "a minimum of 4 scenery components"."""


class AreaSpec(BaseModel):
    """An area to control (III-A-2). ``owner`` 1 to 6 makes it a player's area: ``vp`` when
    its owner controls it, ``vp_enemy`` when any other player does; a neutral area gives
    ``vp``. An area whose owner is not in the game (Player 3 in a two-player game) is left out.

    Shapes: ``table`` (the entire battlefield), ``deployment`` (the owner's deployment area,
    III-A-1, XX-F-1), ``centre`` (between the two deployment areas, within 15 cm of the median
    line; with three players or more the layout's centre, XX-F-1), ``rect`` (``x0 y0 x1 y1``)
    and ``circle`` (``x y radius``), in cm from the lower-left corner: two-player games only
    (owner 1 or 2); an owned rect or circle is given for an owner in deployment area 1 and
    turned half a turn about the table's centre when he deploys in area 2.
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    shape: Shape
    owner: Literal[1, 2, 3, 4, 5, 6] | None = None
    vp: int = Field(default=0, ge=0)
    vp_enemy: int = Field(default=0, ge=0)
    x0: float | None = None
    y0: float | None = None
    x1: float | None = None
    y1: float | None = None
    x: float | None = None
    y: float | None = None
    radius: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _consistent(self) -> AreaSpec:
        if self.shape == "deployment" and self.owner is None:
            raise ValueError("a 'deployment' area needs an owner (1 to 6)")
        if self.shape in PLACED and self.owner is not None and self.owner > 2:
            raise ValueError(
                f"a '{self.shape}' area is for two-player games (XX-F-1): its owner is 1 or 2"
            )
        if self.owner is None and self.vp_enemy:
            raise ValueError("vp_enemy is for an area with an owner")
        needs = {"rect": ("x0", "y0", "x1", "y1"), "circle": ("x", "y", "radius")}
        for key in needs.get(self.shape, ()):
            if getattr(self, key) is None:
                raise ValueError(f"a '{self.shape}' area needs {key}")
        for key in ("x0", "y0", "x1", "y1", "x", "y", "radius"):
            if key not in needs.get(self.shape, ()) and getattr(self, key) is not None:
                raise ValueError(f"{key} does not belong to a '{self.shape}' area")
        return self

    def coords(self) -> tuple[float, ...]:
        """The shape's numbers (rect: x0 y0 x1 y1; circle: x y radius)."""
        keys = {"rect": ("x0", "y0", "x1", "y1"), "circle": ("x", "y", "radius")}
        return tuple(float(getattr(self, k)) for k in keys.get(self.shape, ()))


class VariationSpec(BaseModel):
    """A variation (III-A-2): what it changes of the scenario."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    summary: str = ""
    rounds: int | None = Field(default=None, ge=1)
    table: str | None = None
    split: Literal["width", "length"] | None = None
    scenery: int | None = Field(default=None, ge=0)
    scenery_placement: Placement | None = None
    target: TargetRule | None = None
    areas: list[AreaSpec] | None = None

    @model_validator(mode="after")
    def _bounded(self) -> VariationSpec:
        check_bounds({"scenery": self.scenery, "rounds": self.rounds})
        return self


class ScenarioFile(BaseModel):
    """A scenario file as written."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    section: str = ""
    summary: str = ""
    rounds: int = Field(ge=1)
    table: str = "120x60"
    split: Literal["width", "length"] = "width"
    scenery: int = Field(default=6, ge=0)
    min_scenery: int = Field(default=MIN_SCENERY, ge=0)
    scenery_placement: Placement = "random"
    scenario_scenery: list[ScenerySpec] = Field(default_factory=list)
    goal: Goal
    target: TargetRule | None = None
    serious_penalty: int = Field(default=5, ge=0)
    critical_penalty: int = Field(default=10, ge=0)
    areas: list[AreaSpec] = Field(default_factory=list)
    conditions: list[ConditionSpec] = Field(default_factory=list)  # XX-A-4
    bonus: list[BonusSpec] = Field(default_factory=list)  # XX-A-5
    commander: bool = False  # XX-B-1: each army designates its Commander
    objectives: list[ObjectiveSpec] = Field(default_factory=list)  # XX-C-2, XX-B-2
    variations: list[VariationSpec] = Field(default_factory=list)
    neutrals: list[NeutralEntry] = Field(default_factory=list)  # XX-E (scenarios.parties)
    passive: PassiveSpec | None = None  # XX-E-6
    tokens: list[TokenSpec] = Field(default_factory=list)  # XX-D (scenarios.loot)
    carry: int = Field(default=1, ge=1)  # XX-D-2: Carry/X
    pick_up_again: bool = True  # XX-D-3
    control_points: ControlPointsSpec | None = None  # CP-SCENARIO-REFERENCE-SHEET (003)

    @model_validator(mode="after")
    def _bounded(self) -> ScenarioFile:
        check_bounds({"scenery": self.scenery, "rounds": self.rounds})
        problem = out_of_bounds("scenario", "scenery", self.min_scenery)
        if problem is not None:
            raise FieldProblem("min_scenery", problem)
        return self


# --- the record a game carries ---------------------------------------------------------------


def check_bounds(values: dict[str, int | None]) -> None:
    """A scenario's scenery count and rounds within ``data/bounds.toml`` (III-A-2; see
    docs/rulings.md): a ``FieldProblem`` naming the key otherwise."""
    for key, value in values.items():
        problem = None if value is None else out_of_bounds("scenario", key, value)
        if problem is not None:
            raise FieldProblem(key, problem)


@dataclass(frozen=True)
class Area:
    """An area of the game (plain data): ``owner`` 0, 1… (engine players) or None."""

    name: str
    shape: str
    owner: int | None = None
    vp: int = 0
    vp_enemy: int = 0
    coords: tuple[float, ...] = ()


@dataclass(frozen=True)
class BasicScenario(ScenarioRecord):
    """A basic scenario in play (III-A-2): its rules' data, carried by the game state.

    ``values`` gives the strategic value of one fighter of each card, equipment included
    (I-D-2; cards not listed use their profile's AP). ``targets[p]`` are the enemy fighters
    player ``p`` must kill (Execution; one entry per player); ``draw`` the dice of the
    random-card draw under way.
    """

    kind = "basic"
    id: str
    name: str
    goal: str
    rounds: int
    areas: tuple[Area, ...] = ()
    target: str = ""
    serious_penalty: int = 5
    critical_penalty: int = 10
    values: tuple[tuple[str, int], ...] = ()
    targets: tuple[tuple[str, ...], ...] = ((), ())
    draw: tuple[int, ...] = ()
    loot: Loot | None = field(default=None, metadata={"omit_default": True})
    """XX-D: the tokens (``scenarios.tokens``); None: the scenario has none."""
    conditions: tuple[Condition, ...] = field(default=(), metadata={"omit_default": True})
    bonuses: tuple[Bonus, ...] = field(default=(), metadata={"omit_default": True})
    met: tuple[tuple[int, str], ...] = field(default=(), metadata={"omit_default": True})
    """The (player, condition id) of the ``round`` conditions met so far (XX-A-4)."""
    commanders: tuple[str, ...] = field(default=(), metadata={"omit_default": True})
    """XX-B-1: each player's Commander ("": none, or not chosen yet); empty: no Commanders."""
    choosing: tuple[tuple[str, ...], ...] = field(default=(), metadata={"omit_default": True})
    """XX-B-1: per player, the tied Champions he still has to choose his Commander from."""
    bonuses_met: tuple[tuple[int, str], ...] = field(default=(), metadata={"omit_default": True})
    """XX-A-5: the (player, bonus id) of the bonuses fulfilled when the game ended."""
    objectives: Objectives = field(default=Objectives(), metadata={"omit_default": True})
    """XX-C, XX-B-2: the objectives, their counters (``scenarios.objectives``)."""
    control_points: ControlPoints | None = field(default=None, metadata={"omit_default": True})
    """The control-point pack (``003_…``): elements, CP, history (``scenarios.control_points``)."""

    def card_value(self, card: str) -> int | None:
        return dict(self.values).get(card)


@dataclass(frozen=True)
class Scenario:
    """A scenario (one variation of it) ready to play."""

    id: str
    name: str
    summary: str
    section: str
    rounds: int
    table: str
    split: str
    scenery: int
    goal: str
    target: str
    areas: tuple[Area, ...]
    serious_penalty: int = 5
    critical_penalty: int = 10
    variations: tuple[str, ...] = ()
    path: Path | None = None
    scenario_scenery: tuple[SceneryPiece, ...] = ()
    scenery_placement: str = "random"
    neutrals: tuple[NeutralEntry, ...] = ()
    passive: PassiveSpec | None = None
    loot: Loot | None = None
    conditions: tuple[Condition, ...] = ()
    bonuses: tuple[Bonus, ...] = ()
    commander: bool = False
    objectives: tuple[Objective, ...] = ()
    control_points: ControlPoints | None = None

    def check_players(self, players: int) -> None:
        """Can ``players`` players play it? Areas, scenario scenery and objectives placed by
        coordinates on the two-player table have no place on a layout (XX-F-1): a one-line
        ``ValueError``."""
        placed = [a.name for a in self.areas if a.shape in PLACED] + [
            p.name for p in self.scenario_scenery
        ]
        placed += [o.name for o in self.objectives]
        placed += ["control-point zones"] if self.control_points is not None else []
        placed += ["neutral fighters"] if self.neutrals else []  # XX-E, XX-E-6
        placed += ["passive individuals"] if self.passive is not None else []
        placed += ["tokens"] if self.loot is not None else []  # XX-D
        if players > 2 and placed:
            raise ValueError(
                f"XX-F-1: scenario {self.id!r} places {placed[0]!r} by coordinates on the "
                f"two-player table; a game of {players} players deploys on a layout"
            )

    def battlefield(self, players: int) -> tuple[str | None, str | None]:
        """The ``table`` and ``split`` to set a game of ``players`` up with
        (``setup.on_battlefield``): the scenario's for two players; for more, None and None
        (the layout for that number of players, XX-F-1)."""
        self.check_players(players)
        return (self.table, self.split) if players <= 2 else (None, None)

    def record(self, rounds: int | None = None, players: int = 2) -> BasicScenario:
        """The scenario as a game state of ``players`` players carries it (before values and
        targets are set): the areas of owners not in the game are left out."""
        self.check_players(players)
        return BasicScenario(
            id=self.id,
            name=self.name,
            goal=self.goal,
            rounds=rounds if rounds is not None else self.rounds,
            areas=tuple(a for a in self.areas if a.owner is None or a.owner < players),
            target=self.target,
            serious_penalty=self.serious_penalty,
            critical_penalty=self.critical_penalty,
            loot=self.loot,
            conditions=tuple(c for c in self.conditions if _in_game(c.players, players)),
            bonuses=tuple(b for b in self.bonuses if _in_game(b.players, players)),
            commanders=("",) * players if self.commander else (),  # XX-B-1: set by install
            objectives=objectives_record(self.objectives),
            control_points=self.control_points,
        )


def _in_game(concerned: tuple[int, ...], players: int) -> bool:
    """A condition for players none of whom is in the game is left out."""
    return not concerned or any(p < players for p in concerned)


# --- geometry of the areas ----------------------------------------------------------------------


def _turned(table: Table, coords: tuple[float, ...], shape: str) -> tuple[float, ...]:
    """Half a turn about the table's centre."""
    if shape == "circle":
        x, y, r = coords
        return (table.width - x, table.height - y, r)
    x0, y0, x1, y1 = coords
    return (table.width - x1, table.height - y1, table.width - x0, table.height - y0)


def area_geometry(
    area: Area, table: Table, split: str, zones: tuple[int, ...] | None
) -> BaseGeometry:
    """Where ``area`` lies on ``table`` once the players have their deployment areas
    (``zones[p]``: 0 for deployment area 1, 1 for area 2…; None: as if Player k took area k).
    With three players or more ``split`` names a layout and ``table`` carries its zones
    (``engine.table.field.table_of``): "deployment" is the owner's, "centre" the layout's."""
    if area.shape == "table":
        return table.area
    if split not in ("width", "length"):
        return _layout_geometry(area, table, zones)
    zones = zones if zones is not None else (0, 1)
    lines = table.line_of_battle("width" if split == "width" else "length")
    if area.shape == "deployment":
        assert area.owner is not None
        return lines[zones[area.owner]].area
    if area.shape == "centre":  # III-A-1: the deployment areas begin 15 cm from the median
        if split == "width":
            m = table.width / 2
            return box(m - DEPLOY_NEAR_CM, 0, m + DEPLOY_NEAR_CM, table.height)
        m = table.height / 2
        return box(0, m - DEPLOY_NEAR_CM, table.width, m + DEPLOY_NEAR_CM)
    coords = area.coords
    if area.owner is not None and zones[area.owner] == 1:
        coords = _turned(table, coords, area.shape)
    if area.shape == "circle":
        x, y, r = coords
        return Point(x, y).buffer(r, quad_segs=32)
    x0, y0, x1, y1 = coords
    return box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _layout_geometry(area: Area, table: Table, zones: tuple[int, ...] | None) -> BaseGeometry:
    """XX-F-1: an area on a layout's table (zones ``deployment-1``… and ``centre``)."""
    if area.shape == "centre":
        return table.zone(CENTRE).area
    if area.shape == "deployment":
        assert area.owner is not None
        zone = zones[area.owner] if zones is not None else area.owner
        return table.zone(f"deployment-{zone + 1}").area
    raise ValueError(
        f"XX-F-1: area {area.name!r} is placed by coordinates on the two-player table, "
        "not on a layout"
    )


# --- loading ------------------------------------------------------------------------------


def bundled_dir() -> Path:
    """The folder of the bundled scenario files."""
    return Path(str(data_path("scenarios")))


def bundled_scenarios() -> list[str]:
    """The ids of the bundled scenarios (file names without ``.toml``), sorted."""
    return sorted(p.stem for p in bundled_dir().glob("*.toml"))


def _area(spec: AreaSpec) -> Area:
    owner = None if spec.owner is None else spec.owner - 1
    return Area(spec.name, spec.shape, owner, spec.vp, spec.vp_enemy, spec.coords())


def _check_areas(
    path: Path, text: str, areas: tuple[Area, ...], table: str, split: str, loc: list[str | int]
) -> None:
    """Areas lie on the table and do not overlap (XX-C-3: a fighter counts in one area), in a
    two-player game and, without areas placed by coordinates, on the bundled layout of each
    number of players (XX-F-1)."""
    width, height = FORMATS[table]
    boards: list[tuple[Table, str, tuple[int, ...], int]] = [
        (Table(width, height), split, zones, 2) for zones in ((0, 1), (1, 0))
    ]
    if not any(a.shape in PLACED for a in areas):
        layouts = load_layouts()
        for players in range(3, MAX_PLAYERS + 1):
            layout = layouts[layout_name(players)]
            boards.append((layout.table(), layout.name, tuple(range(players)), players))
    for board, line, zones, players in boards:
        shapes = [
            (i, area_geometry(a, board, line, zones))
            for i, a in enumerate(areas)
            if a.owner is None or a.owner < players
        ]
        where_table = table if players == 2 else f"{board.width:g}x{board.height:g}"
        for n, (i, shape) in enumerate(shapes):
            where = [*loc, i]
            if not board.area.buffer(1e-6).covers(shape):
                raise LoadError(
                    path,
                    f"area {areas[i].name!r} is not wholly on the {where_table} table",
                    line=find_line(text, where),
                    key=_key(where),
                )
            for j, other in shapes[:n]:
                if other.intersection(shape).area > 1e-6:
                    raise LoadError(
                        path,
                        f"areas {areas[j].name!r} and {areas[i].name!r} overlap"
                        + ("" if players == 2 else f" with {players} players")
                        + " (XX-C-3: a fighter counts in one area only)",
                        line=find_line(text, where),
                        key=_key(where),
                    )


def _key(loc: list[str | int]) -> str:
    """``loc`` (0-based indices, as ``find_line`` reads them) as a reader names the key:
    ``areas[1].name`` for the first ``[[areas]]``."""
    out = ""
    for part in loc:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def load_scenario(
    path: Path, variation: str | None = None, scenario_id: str | None = None
) -> Scenario:
    """Read a scenario file (one of its variations with ``variation``)."""
    text, data = read_toml(path)
    spec = parse_model(ScenarioFile, path, text, data)
    ids = [v.id for v in spec.variations]
    for n, vid in enumerate(ids):
        if vid in ids[:n]:
            where: list[str | int] = ["variations", n, "id"]
            raise LoadError(
                path,
                f"variation {vid!r} appears twice",
                line=find_line(text, where),
                key=_key(where),
            )
    rounds, table, split, scenery = spec.rounds, spec.table, spec.split, spec.scenery
    placement = spec.scenery_placement
    target, areas_spec = spec.target, spec.areas
    area_loc: list[str | int] = ["areas"]
    summary = spec.summary
    if variation is not None:
        if variation not in ids:
            known = ", ".join(ids) or "none"
            raise LoadError(path, f"no variation {variation!r} (variations: {known})")
        n = ids.index(variation)
        chosen = spec.variations[n]
        rounds = chosen.rounds or rounds
        table = chosen.table or table
        split = chosen.split or split
        scenery = chosen.scenery if chosen.scenery is not None else scenery
        placement = chosen.scenery_placement or placement
        target = chosen.target or target
        summary = chosen.summary or summary
        if chosen.areas is not None:
            areas_spec, area_loc = chosen.areas, ["variations", n, "areas"]
    if table not in FORMATS:
        key: list[str | int] = ["table"]
        raise LoadError(
            path,
            f"unknown table format {table!r}; use one of {', '.join(FORMATS)} (III-A-1)",
            line=find_line(text, key),
            key="table",
        )
    if spec.goal == "control" and not areas_spec:
        raise LoadError(path, "a 'control' scenario needs at least one [[areas]] (III-A-2)")
    if spec.goal == "execution" and target is None:
        raise LoadError(
            path,
            "an 'execution' scenario needs target = 'highest-value' or 'random-card'",
            line=find_line(text, ["goal"]),
            key="target",
        )
    areas = tuple(_area(a) for a in areas_spec)
    names = [a.name for a in areas]
    for n, name in enumerate(names):
        if name in names[:n]:
            where = [*area_loc, n, "name"]
            raise LoadError(
                path, f"area {name!r} appears twice", line=find_line(text, where), key=_key(where)
            )
    _check_areas(path, text, areas, table, split, area_loc)
    fixed = tuple(s.piece() for s in spec.scenario_scenery)  # XX-A-2 (scenarios.situation)
    points = None
    if spec.goal == "control-points":  # CP-SCENARIO-REFERENCE-SHEET (003, CLARIFICATIONS §8)
        if spec.control_points is None:
            raise LoadError(
                path,
                "a 'control-points' scenario needs a [control_points] table (003)",
                line=find_line(text, ["goal"]),
                key="control_points",
            )
        points, laid = load_control_points(path, text, spec.control_points, FORMATS[table])
        fixed = (*fixed, *laid)
    elif spec.control_points is not None:
        raise LoadError(
            path,
            "[control_points] belongs to goal = 'control-points'",
            line=find_line(text, ["control_points"]),
            key="goal",
        )
    check_scenery(path, text, fixed, table, scenery, spec.min_scenery)
    check_placed(path, text, spec.neutrals, spec.passive, table)
    width, height = FORMATS[table]
    for n, token in enumerate(spec.tokens):
        if not (0 <= token.x <= width and 0 <= token.y <= height):
            at: list[str | int] = ["tokens", n]
            raise LoadError(
                path,
                f"token ({token.x:g}, {token.y:g}) is not on the {table} table (XX-D)",
                line=find_line(text, at),
                key=_key(at),
            )
    tokens = placed_tokens(spec.tokens)
    if spec.goal in ("conditions", "control-points") and not spec.conditions:
        raise LoadError(path, "a 'conditions' scenario needs at least one [[conditions]] (XX-A-4)")
    conditions = tuple(
        _condition(path, text, CONDITION, c, ["conditions", n])
        for n, c in enumerate(spec.conditions)
    )
    bonuses = tuple(
        _condition(path, text, BONUS, b, ["bonus", n]) for n, b in enumerate(spec.bonus)
    )
    _check_elements(path, text, fixed, (*conditions, *bonuses))
    objectives = load_objectives(path, text, spec.objectives, FORMATS[table])  # XX-C-2
    check_references(path, text, objectives, spec.conditions, spec.bonus)
    base_id = scenario_id or path.stem
    return Scenario(
        id=base_id if variation is None else f"{base_id}:{variation}",
        name=spec.name if variation is None else f"{spec.name} ({variation})",
        summary=summary,
        section=spec.section,
        rounds=rounds,
        table=table,
        split=split,
        scenery=scenery,
        goal=spec.goal,
        target=target or "",
        areas=areas,
        serious_penalty=spec.serious_penalty,
        critical_penalty=spec.critical_penalty,
        variations=tuple(ids),
        path=path,
        scenario_scenery=fixed,
        scenery_placement=placement,
        neutrals=tuple(spec.neutrals),
        passive=spec.passive,
        loot=Loot(tokens, spec.carry, spec.pick_up_again) if tokens else None,
        conditions=tuple(c for c in conditions if isinstance(c, Condition)),
        bonuses=tuple(b for b in bonuses if isinstance(b, Bonus)),
        commander=spec.commander
        or points is not None  # CP-DOMINATE: the Commander dominates (CLARIFICATIONS §8)
        or any(_reads_commander(i) for i in (*conditions, *bonuses)),
        objectives=objectives,
        control_points=points,
    )


def _check_elements(
    path: Path, text: str, fixed: tuple[SceneryPiece, ...], items: tuple[Condition | Bonus, ...]
) -> None:
    """A condition or bonus naming an ``element`` of scenery names one of the scenario's own
    (XX-A-2: only those are known before the game)."""
    names = [p.name for p in fixed]
    for item in items:
        element = json.loads(item.params).get("element") if item.params else None
        if element is None or element in names:
            continue
        table = "conditions" if isinstance(item, Condition) else "bonus"
        n = [i.id for i in items if type(i) is type(item)].index(item.id)
        known = ", ".join(repr(name) for name in names) or "none"
        raise LoadError(
            path,
            f"{item.id!r} names no scenario scenery {element!r} "
            f"(XX-A-2; [[scenario_scenery]] names: {known})",
            line=find_line(text, [table, n, "element"]),
            key=_key([table, n, "element"]),
        )


def _reads_commander(item: Condition | Bonus) -> bool:
    """XX-B-1: the item's kind reads the Commanders."""
    from confrontation.engine.core.ruleset import default_rules

    table = CONDITION if isinstance(item, Condition) else BONUS
    kind = default_rules().extension(table, item.kind)
    return isinstance(kind, ConditionKind) and kind.commander


def _condition(
    path: Path,
    text: str,
    table: str,
    spec: ConditionSpec | BonusSpec,
    where: list[str | int],
) -> Condition | Bonus:
    """A ``[[conditions]]`` or ``[[bonus]]`` entry checked against its kind in the default
    rules (an unknown kind or a bad parameter: one line naming the key)."""
    from confrontation.engine.core.ruleset import default_rules

    rules = default_rules()
    kind = rules.extension(table, spec.kind)
    if not isinstance(kind, ConditionKind):
        known = ", ".join(rules.extension_names(table)) or "none"
        raise LoadError(
            path,
            f"unknown {table} kind {spec.kind!r} (kinds: {known})",
            line=find_line(text, [*where, "kind"]),
            key=_key([*where, "kind"]),
        )
    bad = [p for p in spec.players if not 1 <= p <= MAX_PLAYERS]
    if bad:
        raise LoadError(
            path,
            f"players are numbered 1 to {MAX_PLAYERS}, not {bad[0]}",
            line=find_line(text, [*where, "players"]),
            key=_key([*where, "players"]),
        )
    try:
        params = validate_params(kind, spec.extras())
    except ValueError as error:
        raise LoadError(path, str(error), line=find_line(text, where), key=_key(where)) from None
    players = tuple(p - 1 for p in spec.players)
    if isinstance(spec, ConditionSpec):
        return Condition(spec.id, spec.kind, spec.text, spec.vp, spec.when, players, params)
    return Bonus(spec.id, spec.kind, spec.text, spec.ap, players, params)


def resolve(name_or_file: str) -> Scenario:
    """A scenario by bundled id or file path, optionally ``:variation`` (``conquest:campsites``,
    ``my.toml:night``). Unknown names raise a one-line :class:`LoadError`."""
    if not name_or_file.strip():
        raise LoadError("--scenario", "empty scenario name")
    path = Path(name_or_file)
    if path.suffix == ".toml" or _is_file(path):
        return load_scenario(path)
    base, _, variation = name_or_file.partition(":")
    file = Path(base)
    if file.suffix == ".toml" or _is_file(file):
        return load_scenario(file, variation or None)
    return _bundled(base.lower(), variation or None)


def _is_file(path: Path) -> bool:
    """``path.is_file()``, False for a name the system refuses (too long, a NUL byte)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


@cache
def _bundled(name: str, variation: str | None) -> Scenario:
    known = bundled_scenarios()
    if name not in known:
        shown = name if len(name) <= 60 else name[:60] + "…"
        raise LoadError(
            "--scenario",
            f"no scenario {shown!r} (bundled: {', '.join(known)}; or give a .toml file)",
        )
    return load_scenario(bundled_dir() / f"{name}.toml", variation)
