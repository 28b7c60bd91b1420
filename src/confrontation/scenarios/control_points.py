"""The rules of the control-point pack (``003_…``) read with Confrontation armies
(CLARIFICATIONS §8; CP-SCENARIO-REFERENCE-SHEET).

- **Elements** (CP-SCENARIO-ELEMENT): zones, flags, objectives (``scenarios.cp_pack``).
- **Contest** (CP-CONTEST): a player contests a zone with an eligible fighter (not routed,
  level 0, not hidden: ``scenarios.control.eligible``) whose base is partly or wholly inside
  it, a flag with one within 10 cm of it, an objective with one within 5 cm; an objective
  standing contests, against each player it is an enemy to, the zones it lies in, the flags
  within 10 cm and the other objectives within 5 cm ("Enemy objectives contest zones that they
  are within …").
- **Control** (CP-CONTROL, CP-ZONE, CP-FLAG): at least one eligible fighter wholly inside the
  zone / within 10 cm of the flag / within 5 cm of the objective, and no enemy contesting it.
- **Dominate** (CP-DOMINATE): the same with the Commander (XX-B-1) — for a flag, in base
  contact with it. A player cannot control what he dominates (he scores the dominate value),
  and a Commander dominates at most one element: of several, the one worth the most CP to his
  player (the first in the file among equals; docs/rulings.md "003 control-point pack").
  Where both players would dominate the same element only the winner of the round's Tactics
  roll scores it (CLARIFICATIONS §8).
- **Scoring**: at the end of every round's maintenance phase from round 2 (``from_round``)
  each player scores the lines of the scenario's ``[[conditions]]`` (kinds ``cp-zone``,
  ``cp-flag``, ``cp-objective``, ``cp-destroyed``), then the Kill Box (CP-KILL-BOX: a
  Commander ending the round wholly within 35 cm of a table edge gives the opponent 2 CP).
  **Scenario victory** (CP-SCENARIO-VICTORY): at least 5 CP and more than the opponent, the
  moment a scoring reaches it.
- **Assassination** (CP-ASSASSINATION-VICTORY): when only one player still has his Commander
  in play he wins at once, after one more scoring that cannot win; all Commanders gone at
  once: the tiebreakers decide.
- **Tiebreakers** at the last round (CP-1ST-TIEBREAKER … CP-4TH-TIEBREAKER): most Commanders
  in play, most CP, strategic value of the fighters in play doubled inside the scenario's area
  (``tiebreak``), strategic value destroyed.
- **Incursion** (CP-INCURSION-SPECIAL-RULES): at the end of round ``remove_flag_after`` a die
  takes one flag off the table at random.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

from confrontation.dice import FACES
from confrontation.engine.combat.scenery_attack import SceneryDestroyed
from confrontation.engine.core.ending import finish
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.hooks import REACTION
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import Narrator, listed
from confrontation.engine.core.outcome import Ending, Termination
from confrontation.engine.core.questions import Choice, DieFace, Option, Question
from confrontation.engine.core.registry import Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import NEUTRAL, Fighter, GameState, Pending, player_name
from confrontation.engine.table.field import base_of
from confrontation.geometry.contact import CONTACT_TOLERANCE_CM
from confrontation.geometry.measure import geometry_distance
from confrontation.scenarios.basic import losses_ap
from confrontation.scenarios.commander import commander_of
from confrontation.scenarios.conditions import BONUS, CONDITION, ConditionKind, params_of
from confrontation.scenarios.control import eligible, fighter_value, scenario_of
from confrontation.scenarios.cp_pack import (
    FLAG_CONTEST_CM,
    KILL_BOX_CM,
    KILL_BOX_CP,
    OBJECTIVE_CONTEST_CM,
    ControlPoints,
    CpElement,
)

FLAG_DIE = QuestionKind.CP_FLAG_DIE
"""CP-INCURSION-SPECIAL-RULES: the die that removes one flag at random (chance)."""
SCENERY_HOOKS = "scenery"
"""The extension table ``engine.combat.scenery_attack`` reads (``may-attack``)."""
_EPS = 1e-6

Whose = Literal["friendly", "enemy", "neutral", "any"]


# --- reading the state ------------------------------------------------------------------------


def cp_of(state: GameState) -> ControlPoints | None:
    """The game's control-point record (None: not a game of the pack)."""
    scenario = scenario_of(state)
    return scenario.control_points if scenario is not None else None


def _with(state: GameState, cp: ControlPoints) -> GameState:
    scenario = scenario_of(state)
    assert scenario is not None
    return dataclasses.replace(state, scenario=dataclasses.replace(scenario, control_points=cp))


def area_of(state: GameState, player: int) -> int:
    """The deployment area (0, 1) ``player`` deploys in (Player k in area k until chosen)."""
    ground = state.battleground
    zones = ground.zones if ground is not None and ground.zones is not None else (0, 1)
    return zones[player] if player < len(zones) else player


def relation(state: GameState, element: CpElement, player: int) -> str:
    """The element to ``player``: "friendly" (on his side), "enemy" (the opponent's, or an
    objective enemy to all — CP-PROCESS-OF-ELIMINATION-SPECIAL-RULES) or "neutral"."""
    if element.side is None:
        return "enemy" if element.kind == "objective" else "neutral"
    return "friendly" if element.side == area_of(state, player) else "enemy"


def shape_of(element: CpElement) -> BaseGeometry:
    """The element's outline on the table (a zone; a flag's or an objective's base)."""
    if element.shape == "circle":
        x, y, r = element.coords
        return Point(x, y).buffer(r, quad_segs=32)
    x0, y0, x1, y1 = element.coords
    return box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def standing(state: GameState, element: CpElement) -> bool:
    """The element is on the table: a flag not removed, an objective not destroyed."""
    cp = cp_of(state)
    ground = state.battleground
    if cp is None or element.name in cp.removed:
        return False
    if element.kind == "zone":
        return True
    return ground is not None and element.name not in ground.destroyed


def _reach(element: CpElement) -> float:
    return {"flag": FLAG_CONTEST_CM, "objective": OBJECTIVE_CONTEST_CM}.get(element.kind, 0.0)


def contests(state: GameState, fighter: Fighter, element: CpElement) -> bool:
    """CP-CONTEST: the fighter (eligible) is within the zone (any part of his base), within
    10 cm of the flag or within 5 cm of the objective."""
    if not eligible(state, fighter):
        return False
    base = base_of(state, fighter)
    shape = shape_of(element)
    if element.kind == "zone":
        return bool(shape.buffer(-_EPS).intersects(base.polygon))
    return geometry_distance(base, shape) <= _reach(element) + _EPS


def holds(state: GameState, fighter: Fighter, element: CpElement) -> bool:
    """CP-CONTROL: the fighter counts for control — wholly inside the zone (CLARIFICATIONS
    §8), within 10 cm of the flag, within 5 cm of the objective."""
    if not eligible(state, fighter):
        return False
    if element.kind == "zone":
        return bool(shape_of(element).buffer(_EPS).covers(base_of(state, fighter).polygon))
    return contests(state, fighter, element)


def dominates_alone(state: GameState, fighter: Fighter, element: CpElement) -> bool:
    """CP-DOMINATE: where the Commander must stand — as for control, but in base contact with
    a flag (CLARIFICATIONS §8)."""
    if not holds(state, fighter, element):
        return False
    if element.kind == "flag":
        base = base_of(state, fighter)
        return geometry_distance(base, shape_of(element)) <= CONTACT_TOLERANCE_CM
    return True


def _enemy_objectives(state: GameState, player: int, element: CpElement) -> bool:
    """CP-CONTEST: an objective standing that is an enemy to ``player`` contests the zone it
    lies in, the flags within 10 cm and the other objectives within 5 cm of it."""
    cp = cp_of(state)
    assert cp is not None
    for objective in cp.of_kind("objective"):
        if objective.name == element.name or not standing(state, objective):
            continue
        if relation(state, objective, player) != "enemy":
            continue
        outline = shape_of(objective)
        if element.kind == "zone":
            if shape_of(element).buffer(-_EPS).intersects(outline):
                return True
        elif outline.distance(shape_of(element)) <= _reach(element) + _EPS:
            return True
    return False


@dataclass(frozen=True)
class Status:
    """One element for one player: ``contested`` by an enemy, ``held`` (he would control it),
    ``dominant`` (his Commander stands to dominate it, before the one-element rule)."""

    element: str
    player: int
    contested: bool
    held: bool
    dominant: bool


def statuses(state: GameState) -> dict[tuple[str, int], Status]:
    """Every element on the table and player: contested, held, stood on by the Commander
    (cached per state)."""
    cached = state.scratch.get("cp-statuses")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    cp = cp_of(state)
    out: dict[tuple[str, int], Status] = {}
    if cp is None or state.battleground is None:
        return out
    fighters = [f for f in state.fighters if f.player != NEUTRAL and eligible(state, f)]
    for element in cp.elements:
        if not standing(state, element):
            continue
        contesting = {f.player for f in fighters if contests(state, f, element)}
        holding = {f.player for f in fighters if holds(state, f, element)}
        for player in state.players:
            enemy = any(p != player for p in contesting) or _enemy_objectives(
                state, player, element
            )
            commander = commander_of(state, player)
            chief = state.fighter(commander) if commander is not None else None
            stands = chief is not None and dominates_alone(state, chief, element)
            out[(element.name, player)] = Status(
                element.name,
                player,
                enemy,
                player in holding and not enemy,
                stands and not enemy,
            )
    state.scratch["cp-statuses"] = out
    return out


# --- the scoring lines: condition kinds ---------------------------------------------------------


class LineParams(BaseModel):
    """``cp-zone``, ``cp-flag``, ``cp-objective``: the elements of the line (``whose``: the
    player's own, the opponent's, neutral ones or any) and the CP for control and dominate."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    whose: Whose = "any"
    control: int = Field(default=0, ge=0)
    dominate: int = Field(default=0, ge=0)


class DestroyedParams(BaseModel):
    """``cp-destroyed``: ``cp`` for each ``whose`` objective destroyed (once per objective)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    whose: Whose = "enemy"
    cp: int = Field(default=1, ge=0)


LINE_KINDS = {"cp-zone": "zone", "cp-flag": "flag", "cp-objective": "objective"}
DESTROYED = "cp-destroyed"


def _matches(whose: str, rel: str) -> bool:
    return whose == "any" or whose == rel


def _lines(state: GameState) -> list[tuple[str, Any]]:
    """The scenario's scoring lines: (element kind or ``cp-destroyed``, parameters)."""
    scenario = scenario_of(state)
    out: list[tuple[str, Any]] = []
    if scenario is None:
        return out
    from confrontation.scenarios.victory import kind_of

    for condition in scenario.conditions:
        if condition.kind in LINE_KINDS or condition.kind == DESTROYED:
            kind = kind_of(state, CONDITION, condition.kind)
            out.append((LINE_KINDS.get(condition.kind, DESTROYED), params_of(kind, condition)))
    return out


def worth(state: GameState, element: CpElement, player: int) -> tuple[int, int]:
    """The (control, dominate) CP ``element`` is worth to ``player``: the first line of its
    kind that names it (none: 0, 0)."""
    rel = relation(state, element, player)
    for kind, params in _lines(state):
        if kind == element.kind and _matches(params.whose, rel):
            return params.control, params.dominate
    return 0, 0


@dataclass(frozen=True)
class Claim:
    """What ``player`` scores for ``element``: "controls" or "dominates", ``cp`` points."""

    player: int
    element: str
    how: str
    cp: int


def claims(state: GameState, tactics: int | None) -> list[Claim]:
    """Who controls or dominates what now (CP-CONTROL, CP-DOMINATE, CLARIFICATIONS §8): each
    Commander dominates at most one element (the one worth most to his player); where two
    would dominate the same element only ``tactics`` (the Tactics roll's winner) scores it."""
    cp = cp_of(state)
    if cp is None:
        return []
    found = statuses(state)
    chosen: dict[int, str] = {}
    for player in state.players:
        best: tuple[int, int] | None = None
        for n, element in enumerate(cp.elements):
            status = found.get((element.name, player))
            if status is None or not status.dominant:
                continue
            value = worth(state, element, player)[1]
            if value <= 0:
                continue  # no line scores him there: he dominates it for nothing
            if best is None or value > best[0]:
                best = (value, n)
        if best is not None:
            chosen[player] = cp.elements[best[1]].name
    out: list[Claim] = []
    for element in cp.elements:
        dominators = [p for p, name in chosen.items() if name == element.name]
        if len(dominators) > 1:  # CLARIFICATIONS §8: only the Tactics roll's winner scores
            dominators = [p for p in dominators if p == tactics]
        for player in state.players:
            status = found.get((element.name, player))
            if status is None:
                continue
            control, dominate = worth(state, element, player)
            if player in dominators:  # CP-CONTROL: he cannot control what he dominates
                out.append(Claim(player, element.name, "dominates", dominate))
            elif status.held and control > 0 and not dominators:
                out.append(Claim(player, element.name, "controls", control))
    return out


def _line_check(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """The player scores on this line now (something he controls or dominates gives CP)."""
    assert isinstance(params, LineParams)
    cp = cp_of(state)
    kind = LINE_KINDS.get(getattr(item, "kind", ""), "")
    if cp is None:
        return False
    elements = {e.name: e for e in cp.elements}
    return any(
        c.player == player
        and c.cp > 0
        and elements[c.element].kind == kind
        and _matches(params.whose, relation(state, elements[c.element], player))
        for c in claims(state, None)
    )


def _line_aim(kind: str) -> Any:
    def aim(state: GameState, item: object, player: int, params: BaseModel) -> list[BaseGeometry]:
        """Where to stand to score the line: inside the zones, within 10 cm of the flags,
        within 5 cm of the objectives it names."""
        assert isinstance(params, LineParams)
        cp = cp_of(state)
        if cp is None or state.battleground is None or not (params.control or params.dominate):
            return []
        out = []
        for element in cp.of_kind(kind):
            if not standing(state, element) or not _matches(
                params.whose, relation(state, element, player)
            ):
                continue
            shape = shape_of(element)
            out.append(shape if kind == "zone" else shape.buffer(_reach(element) - 0.2, 16))
        return out

    return aim


def _destroyable(state: GameState, player: int, whose: str) -> list[CpElement]:
    cp = cp_of(state)
    if cp is None:
        return []
    return [
        o
        for o in cp.of_kind("objective")
        if standing(state, o) and _matches(whose, relation(state, o, player))
    ]


def _destroyed_check(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """An objective of the line has been destroyed and scored for the player."""
    assert isinstance(params, DestroyedParams)
    cp = cp_of(state)
    return cp is not None and any(
        _scores_destruction(state, cp.element(name), by, player, params.whose)
        for name, by in cp.destroyed
    )


def _wreck(state: GameState, item: object, player: int, params: BaseModel) -> list[str]:
    assert isinstance(params, DestroyedParams)
    return [o.name for o in _destroyable(state, player, params.whose)]


def _wreck_aim(state: GameState, item: object, player: int, params: BaseModel) -> list[Any]:
    assert isinstance(params, DestroyedParams)
    return [shape_of(o).buffer(3.0, 16) for o in _destroyable(state, player, params.whose)]


def _scores_destruction(
    state: GameState, objective: CpElement, by: int, player: int, whose: str
) -> bool:
    """CP-OBJECTIVE, CP-<NAME>-SPECIAL-RULES: ``player`` scores the destruction of
    ``objective`` — an enemy objective (an objective of his opponent's side, or one enemy to
    all); of one enemy to all, only the player whose attack destroyed it."""
    if not _matches(whose, relation(state, objective, player)):
        return False
    if objective.side is None:
        return by == player
    return True


KINDS = (
    ConditionKind(
        "cp-zone",
        "CP-ZONE",
        _line_check,
        LineParams,
        "control points for the zones `whose` (control / dominate)",
        aim=_line_aim("zone"),
        commander=True,
    ),
    ConditionKind(
        "cp-flag",
        "CP-FLAG",
        _line_check,
        LineParams,
        "control points for the flags `whose` (control / dominate)",
        aim=_line_aim("flag"),
        commander=True,
    ),
    ConditionKind(
        "cp-objective",
        "CP-OBJECTIVE",
        _line_check,
        LineParams,
        "control points for the objectives `whose` (control / dominate)",
        aim=_line_aim("objective"),
        commander=True,
    ),
    ConditionKind(
        DESTROYED,
        "CP-OBJECTIVE",
        _destroyed_check,
        DestroyedParams,
        "`cp` control points for each objective `whose` destroyed (once per objective)",
        aim=_wreck_aim,
        wreck=_wreck,
    ),
)


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ControlPointsScored(Event):
    """A scoring (end of a round, or the last one of an assassination): who controls or
    dominates what (``claims``: player, element, "controls"/"dominates"/"destroyed"/
    "kill box", CP), the CP each player gained and his total."""

    kind = "control_points_scored"
    round: int
    claims: tuple[tuple[int, str, str, int], ...]
    gained: tuple[int, ...]
    totals: tuple[int, ...]
    last: bool = False


@dataclass(frozen=True)
class FlagRemoved(Event):
    """CP-INCURSION-SPECIAL-RULES: a flag taken off the table at random."""

    kind = "flag_removed"
    flag: str


@dataclass(frozen=True)
class ObjectiveDestroyed(Event):
    """CP-OBJECTIVE: a pack objective destroyed by ``player``'s attack (-1: no player's)."""

    kind = "cp_objective_destroyed"
    objective: str
    player: int


@dataclass(frozen=True)
class TiebreakerDecided(Event):
    """CP-1ST … CP-4TH-TIEBREAKER: the tiebreaker ``number`` with each player's figure; 0:
    none was needed; 5: still level after the fourth (a tie)."""

    kind = "tiebreaker_decided"
    number: int
    figures: tuple[int, ...]
    winner: int | None


# --- scoring at the end of the round ----------------------------------------------------------


def in_kill_box(
    state: GameState, fighter: Fighter, x: float | None = None, y: float | None = None
) -> bool:
    """CP-KILL-BOX: the fighter's base (at ``x``, ``y``) lies wholly within 35 cm of a table
    edge."""
    ground = state.battleground
    if ground is None:
        return False
    moved = fighter if x is None or y is None else evolve(fighter, x=x, y=y)
    x0, y0, x1, y1 = base_of(state, moved).polygon.bounds
    return bool(
        x1 <= KILL_BOX_CM + _EPS
        or y1 <= KILL_BOX_CM + _EPS
        or x0 >= ground.width - KILL_BOX_CM - _EPS
        or y0 >= ground.height - KILL_BOX_CM - _EPS
    )


def shuns_kill_box(state: GameState, fighter: Fighter, x: float, y: float) -> bool:
    """CP-KILL-BOX for the computer players: the fighter is his player's Commander, the
    scenario has a Kill Box and (x, y) puts him in it."""
    cp = cp_of(state)
    if cp is None or not cp.kill_box or fighter.player == NEUTRAL:
        return False
    return commander_of(state, fighter.player) == fighter.id and in_kill_box(state, fighter, x, y)


def tactics_winner(state: GameState) -> int | None:
    """The winner of this round's Tactics roll (IV-A)."""
    return state.strategic.winner if state.strategic is not None else None


def scoring(state: GameState, *, last: bool = False) -> tuple[GameState, ControlPointsScored]:
    """One scoring: elements controlled and dominated, objectives destroyed not yet scored,
    and (not on an assassination's last scoring) the Kill Box."""
    cp = cp_of(state)
    assert cp is not None
    players = len(state.players)
    gained = [0] * players
    told: list[tuple[int, str, str, int]] = []
    for claim in claims(state, tactics_winner(state)):
        gained[claim.player] += claim.cp
        told.append((claim.player, claim.element, claim.how, claim.cp))
    paid = list(cp.paid)
    for name, by in cp.destroyed:
        if name in paid:
            continue
        paid.append(name)  # CP-OBJECTIVE: "once per objective"
        objective = cp.element(name)
        for kind, params in _lines(state):
            if kind != DESTROYED:
                continue
            for player in state.players:
                if _scores_destruction(state, objective, by, player, params.whose):
                    gained[player] += params.cp
                    told.append((player, name, "destroyed", params.cp))
            break
    if cp.kill_box and not last:  # CP-KILL-BOX
        for player in state.players:
            commander = commander_of(state, player)
            if commander is None:
                continue
            chief = state.fighter(commander)
            if chief.in_play and in_kill_box(state, chief):
                for other in state.enemies(player):
                    gained[other] += KILL_BOX_CP
                    told.append((other, commander, "kill box", KILL_BOX_CP))
    totals = tuple(c + g for c, g in zip(cp.cp, gained, strict=True))
    cp = evolve(
        cp,
        cp=totals,
        paid=tuple(paid),
        history=(*cp.history, (state.round, tuple(gained))),
    )
    event = ControlPointsScored(state.round, tuple(told), tuple(gained), totals, last)
    return _with(state, cp), event


def victor(cp: ControlPoints) -> int | None:
    """CP-SCENARIO-VICTORY: the player with at least ``win_at`` CP and more than each other."""
    for player, points in enumerate(cp.cp):
        others = [c for p, c in enumerate(cp.cp) if p != player]
        if points >= cp.win_at and all(points > c for c in others):
            return player
    return None


def score_round(state: GameState) -> Transition:
    """Maintenance, step "markers": the round's scoring from round ``from_round``, then the
    scenario victory the moment it is reached (CLARIFICATIONS §8)."""
    cp = cp_of(state)
    if cp is None or state.round < cp.from_round or cp.won_by is not None:
        return state, []
    state, event = scoring(state)
    cp = cp_of(state)
    assert cp is not None
    won = victor(cp)
    if won is None:
        return state, [event]
    state = _with(state, evolve(cp, won_by=won))
    detail = f"{player_name(won)} has {cp.cp[won]} CP"
    over, ended = finish(state, Termination.SCENARIO_VICTORY, won, detail)
    return over, [event, *ended]


# --- Incursion: a flag removed at random --------------------------------------------------------


def remove_flag(state: GameState) -> Transition:
    """CP-INCURSION-SPECIAL-RULES: "At the end of the second player's first turn, randomly
    remove one flag from the board" — at the end of round ``remove_flag_after``, a die."""
    cp = cp_of(state)
    if cp is None or not cp.remove_flag_after or state.round != cp.remove_flag_after:
        return state, []
    if cp.removed:
        return state, []
    return evolve(state, pending=Pending(FLAG_DIE, None)), []


def _flag_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    cp = cp_of(state)
    assert cp is not None
    flags = cp.of_kind("flag")
    n = len(flags)
    limit = 6 - 6 % n if n <= 6 else 6
    if choice.face > limit:  # not a fair draw: roll again
        return evolve(state, pending=Pending(FLAG_DIE, None)), []
    flag = flags[(choice.face - 1) % n]
    ground = state.battleground
    assert ground is not None
    scenery = tuple(p for p in ground.scenery or () if p.name != flag.name)
    state = evolve(state, battleground=evolve(ground, scenery=scenery))
    return _with(state, evolve(cp, removed=(*cp.removed, flag.name))), [FlagRemoved(flag.name)]


def _flag_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    cp = cp_of(state)
    n = len(cp.of_kind("flag")) if cp is not None else 0
    prompt = f"Incursion: a die removes one of the {n} flags at random (CP-INCURSION)"
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    return Question(FLAG_DIE, None, prompt, options)


# --- objectives destroyed, and who may attack them ------------------------------------------------


def react(state: GameState, events: Sequence[Event]) -> Transition:
    """CP-OBJECTIVE: a pack objective destroyed is noted with the player whose attack
    destroyed it (scored at the next scoring, once)."""
    cp = cp_of(state)
    if cp is None:
        return state, []
    out: list[Event] = []
    for event in events:
        if not isinstance(event, SceneryDestroyed):
            continue
        if event.element not in [o.name for o in cp.of_kind("objective")]:
            continue
        if event.element in [name for name, _ in cp.destroyed]:
            continue
        by = -1
        for fighter in state.fighters:
            if fighter.id == event.fighter and fighter.player != NEUTRAL:
                by = fighter.player
        cp = evolve(cp, destroyed=(*cp.destroyed, (event.element, by)))
        out.append(ObjectiveDestroyed(event.element, by))
    return (_with(state, cp), out) if out else (state, [])


def may_attack(state: GameState, fighter_id: str, element: str) -> bool:
    """docs/rulings.md "003": a fighter does not attack an objective friendly to his player
    (CP-INCOMING-SPECIAL-RULES: "a friendly Faction model to Player 1")."""
    cp = cp_of(state)
    if cp is None:
        return True
    fighter = state.fighter(fighter_id)
    for objective in cp.of_kind("objective"):
        if objective.name == element and fighter.player != NEUTRAL:
            return relation(state, objective, fighter.player) != "friendly"
    return True


# --- the end of the game ------------------------------------------------------------------------


def commanders_in_play(state: GameState) -> tuple[int, ...]:
    """Per player, 1 if his Commander is in play (alive on the table), else 0."""
    return tuple(
        int((c := commander_of(state, p)) is not None and state.fighter(c).in_play)
        for p in state.players
    )


def _all_had(state: GameState) -> bool:
    scenario = scenario_of(state)
    return scenario is not None and bool(scenario.commanders) and all(scenario.commanders)


def watch(state: GameState, events: Sequence[Event]) -> Ending | None:
    """CP-ASSASSINATION-VICTORY: "When only one player owns warcasters/warlocks remaining in
    play, that player immediately wins the game"; all at once: the tiebreakers decide."""
    cp = cp_of(state)
    if cp is None or state.round < 1 or not _all_had(state):
        return None
    alive = commanders_in_play(state)
    if sum(alive) == 1:
        winner = alive.index(1)
        return Ending(Termination.ASSASSINATION, winner, f"{player_name(winner)}'s Commander")
    if sum(alive) == 0:
        return Ending(Termination.ASSASSINATION, None, "every Commander has fallen")
    return None


def strategic_value(state: GameState, player: int, area: BaseGeometry | None) -> int:
    """CP-3RD-TIEBREAKER: the strategic value of ``player``'s fighters in play, a fighter
    wholly inside ``area`` counting twice."""
    total = 0
    grown = area.buffer(_EPS) if area is not None else None
    for fighter in state.fighters:
        if fighter.player != player or not fighter.in_play or fighter.passive:
            continue
        value = fighter_value(state, fighter)
        if grown is not None and grown.covers(base_of(state, fighter).polygon):
            value *= 2
        total += value
    return total


def tiebreak_area(state: GameState, player: int) -> BaseGeometry | None:
    """The scenario's area for the 3rd tiebreaker (its own text): every zone, the enemy zone,
    within 10 cm of every flag, or none."""
    cp = cp_of(state)
    if cp is None or cp.tiebreak == "none":
        return None
    shapes: list[BaseGeometry] = []
    if cp.tiebreak == "flags":
        shapes = [
            shape_of(f).buffer(FLAG_CONTEST_CM, 16)
            for f in cp.of_kind("flag")
            if standing(state, f)
        ]
    else:
        for zone in cp.of_kind("zone"):
            if cp.tiebreak == "zones" or relation(state, zone, player) == "enemy":
                shapes.append(shape_of(zone))
    if not shapes:
        return None
    area = shapes[0]
    for shape in shapes[1:]:
        area = area.union(shape)
    return area


def tiebreakers(state: GameState) -> tuple[int, tuple[int, ...], int | None]:
    """CP-1ST … CP-4TH-TIEBREAKER: the first that tells the players apart — (number,
    figures, winner); (5, …, None) when all four leave them level."""
    cp = cp_of(state)
    assert cp is not None
    figures: list[tuple[int, ...]] = [
        commanders_in_play(state),  # CP-1ST-TIEBREAKER
        cp.cp,  # CP-2ND-TIEBREAKER
        # CP-3RD-TIEBREAKER
        tuple(strategic_value(state, p, tiebreak_area(state, p)) for p in state.players),
        # CP-4TH-TIEBREAKER: the value each player destroyed (his opponents' losses)
        tuple(sum(losses_ap(state, o) for o in state.enemies(p)) for p in state.players),
    ]
    for number, figure in enumerate(figures, start=1):
        best = max(figure)
        leaders = [p for p, v in enumerate(figure) if v == best]
        if len(leaders) == 1:
            return number, figure, leaders[0]
    return 5, figures[-1], None


def score_end(state: GameState) -> Transition:
    """The game's end: a scenario victory stands; an assassination scores once more (without
    a scenario victory) and stands; otherwise the tiebreakers decide (CLARIFICATIONS §8)."""
    cp = cp_of(state)
    if cp is None:
        return state, []
    events: list[Event] = []
    winner = state.winner
    if cp.won_by is not None:
        winner = cp.won_by
    else:
        alive = commanders_in_play(state)
        if _all_had(state) and sum(alive) == 1:  # CP-ASSASSINATION-VICTORY
            state, event = scoring(state, last=True)
            events.append(event)
            winner = alive.index(1)
        else:
            number, figures, winner = tiebreakers(state)
            events.append(TiebreakerDecided(number, figures, winner))
            cp = cp_of(state)
            assert cp is not None
            state = _with(state, evolve(cp, final=number))
    cp = cp_of(state)
    assert cp is not None
    return evolve(state, scores=cp.cp, winner=winner), events


def document(state: GameState) -> dict[str, Any] | None:
    """The control points of a game for ``play --json``: per scoring the round and the CP
    gained, the totals, the tiebreaker that decided (0: none)."""
    cp = cp_of(state)
    if cp is None:
        return None
    return {
        "per_round": [{"round": r, "gained": list(g)} for r, g in cp.history],
        "totals": list(cp.cp),
        "won_by": cp.won_by,
        "tiebreaker": cp.final,
        "flags_removed": list(cp.removed),
        "objectives_destroyed": [name for name, _ in cp.destroyed],
    }


# --- narration ----------------------------------------------------------------------------------


def _tell_scored(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, ControlPointsScored)
    parts = []
    for player, element, how, points in event.claims:
        who = player_name(player)
        if how == "destroyed":
            parts.append(f"{who} scores the destruction of {element} ({points} CP)")
        elif how == "kill box":
            name = narrator.fighter(element)
            parts.append(f"{name} ends the round in the Kill Box: {who} +{points} CP")
        else:
            parts.append(f"{who} {how} {element} ({points} CP)")
    said = listed(parts) if parts else "nobody controls or dominates anything"
    totals = " to ".join(str(t) for t in event.totals)
    head = "Last scoring (assassination)" if event.last else "Control points scoring"
    return f"{head}: {said}. Control points {totals}."


def _tell_flag(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, FlagRemoved)
    return f"The flag {event.flag} is removed from the table at random (Incursion)."


def _tell_destroyed(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, ObjectiveDestroyed)
    who = player_name(event.player) if event.player >= 0 else "nobody"
    return f"The objective {event.objective} is destroyed ({who}'s attack)."


_TIEBREAKERS = {
    1: "most Commanders in play",
    2: "most control points",
    3: "strategic value in play",
    4: "strategic value destroyed",
}


def _tell_tiebreaker(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, TiebreakerDecided)
    figures = " to ".join(str(f) for f in event.figures)
    if event.winner is None:
        return f"Every tiebreaker is level ({figures}): the game is a tie."
    what = _TIEBREAKERS[event.number]
    return f"Tiebreaker {event.number} ({what}, {figures}) goes to {player_name(event.winner)}."


def contribute(rules: RulesBuilder) -> None:
    """The pack's rules: the condition kinds, the scoring at the maintenance phase, the
    Incursion die, the destroyed objectives, the assassination watch, the game's end."""
    for kind in KINDS:
        rules.extension(CONDITION, kind.name, kind)
        rules.extension(BONUS, kind.name, kind)
    rules.maintenance_hook("markers", remove_flag)
    rules.maintenance_hook("markers", score_round)
    rules.handler(
        Handler(FLAG_DIE, lambda s: [DieFace(f) for f in FACES], _flag_apply, _flag_describe)
    )
    rules.extension(REACTION, "control-points", react)
    rules.extension(SCENERY_HOOKS, "may-attack", may_attack)
    rules.watch("control-points", watch)
    rules.scoring("control-points", score_end)
    rules.sentence(ControlPointsScored.kind, _tell_scored)
    rules.sentence(FlagRemoved.kind, _tell_flag)
    rules.sentence(ObjectiveDestroyed.kind, _tell_destroyed)
    rules.sentence(TiebreakerDecided.kind, _tell_tiebreaker)


# --- the picture ------------------------------------------------------------------------------


def marks(state: GameState) -> list[Any]:
    """The pack's elements for the battlefield SVG: each zone, flag and objective still on the
    table, whose it is and who controls or dominates it now."""
    from confrontation.geometry.render import Mark

    cp = cp_of(state)
    if cp is None or state.battleground is None:
        return []
    held = {c.element: c for c in claims(state, tactics_winner(state))}
    out = []
    for element in cp.elements:
        if not standing(state, element):
            continue
        notes = [element.kind]
        if element.side is not None:
            owner = next((p for p in state.players if area_of(state, p) == element.side), None)
            if owner is not None:
                notes.append(f"{player_name(owner)}'s")
        elif element.kind == "objective":
            notes.append("enemy to all")
        if element.kind == "objective":
            pieces = state.battleground.scenery or ()
            sp = next((p.structure_points for p in pieces if p.name == element.name), None)
            notes.append(f"{sp} SP")
        claim = held.get(element.name)
        if claim is not None:
            notes.append(f"{claim.how} by {player_name(claim.player)}")
        zone = shape_of(element).buffer(_reach(element), 16) if element.kind != "zone" else None
        out.append(Mark(element.name, shape_of(element), zone, " · ".join(notes)))
    return out


def title(state: GameState) -> str:
    """The score line of the battlefield SVG: each player's control points."""
    cp = cp_of(state)
    if cp is None:
        return ""
    score = ", ".join(f"{player_name(p)} {c} CP" for p, c in enumerate(cp.cp))
    return f"Control points (from round {cp.from_round}): {score}"
