"""Assaulting and shooting elements of scenery (C3 tournament rules, "Assault and combat with
elements of scenery": C3-ASSAULTING-ELEMENTS-OF-SCENERY, C3-SHOOTING-ELEMENTS-OF-SCENERY;
CLARIFICATIONS §6 applies them in every ruleset).

Only an element with structure points left can be damaged (``combat.scenery_attack``); it is
the only kind of element offered as a target (docs/rulings.md "C3 scenery — assaults and
shots").

- **Assault** (:class:`AssaultScenery`, an exclusive action announced with the others,
  IV-B-2): "Unless Charging an element of scenery with Structure Points, all assaults against
  elements of scenery are considered to be Engagements." A fighter free of any enemy who sees
  the element at the start of his activation charges it (V-B-3), otherwise he engages it;
  either way MOV x 2 (V-B-3), and "no bonuses from abilities like Charging Strength" apply
  (none is applied anyway: CLARIFICATIONS §5) — an element has no Power, so a charge on it
  gives nobody charge penalties. The movement is measured along the most direct way (V-A) to
  the nearest free place in contact with the element (his sight on its edge, facing it); too
  far, he moves his whole potential towards that place (V-B-3). The element is attacked in
  the combat phase (contact at its beginning). Passive individuals (XX-E-6) and neutral
  fighters make none.
- **Shot** (:class:`ShootScenery`, a cumulative action like a shot at a fighter, VI-A):
  at an element he sees, measured from his sight to the element's edge, difficulty by range
  band with the size modifiers of its height (VI-A-3); no move to cover, and "elements of
  scenery are never considered when distributing shots": a shot at an element touched by his
  friends is no shot into a melee (no distribution roll), and a shot at a fighter never hits
  an element. A hit makes a damage roll with the weapon's STR against the element's RES
  (``scenery_attack.damage_element``). A shot at scenery is never an unmoving shot (VI-B-2
  reads a wound one row down: docs/rulings.md).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from shapely.geometry import Point

from confrontation.engine.actions import shared as actions
from confrontation.engine.actions.movement import _along
from confrontation.engine.actions.shared import (
    action_of,
    activation_of,
    finish,
    mark_moved,
    start_test,
    start_wound,
    update,
    with_activation,
)
from confrontation.engine.combat.scenery_attack import (
    SCENERY_TARGET,
    damage_element,
    destructible,
    element_of,
    may_attack,
    piece_named,
)
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.narrate import Narrator
from confrontation.engine.core.questions import Choice, Option
from confrontation.engine.core.registry import Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import (
    NEUTRAL,
    ActionInProgress,
    ActionStage,
    Activation,
    ActivationStage,
    Announcement,
    GameState,
    SceneryPiece,
)
from confrontation.engine.table.field import (
    Field,
    current,
    field_of,
    free,
    has_field,
    movement,
    pass_through,
    placed,
    rounded,
    scenery_of,
)
from confrontation.geometry.bases import Base
from confrontation.geometry.contact import CONTACT_TOLERANCE_CM
from confrontation.geometry.measure import geometry_distance
from confrontation.geometry.paths import Path
from confrontation.geometry.sight import Sight
from confrontation.rules.characteristics import Characteristic
from confrontation.rules.shooting import Difficulty, ShotTarget, range_band, shot_difficulty

__all__ = [
    "AssaultScenery",
    "SceneryAssaultAnnounced",
    "SceneryAssaulted",
    "SceneryProvider",
    "SceneryShot",
    "SceneryShotMissed",
    "ShootScenery",
    "contact_spots",
]

EDGE_STEP_CM = 2.0
"""Places in contact with an element are tried every this many cm along its edge."""

PATHS_TRIED = 6
"""Of those places, the nearest few (straight line) have their path measured (V-A)."""

OUTSIDE_CM = 0.002
"""The sight of a fighter in contact stands this far outside the element's edge (within the
contact tolerance, II-E)."""


# ---------------------------------------------------------------------------------------------
# Choices and events
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AssaultScenery(Choice):
    """Announce an assault on the element ``element``: ``action`` "charge" (he sees it) or
    "engage" (C3: every other assault on scenery is an engagement)."""

    kind = "assault_scenery"
    fighter: str
    element: str
    action: str


@dataclass(frozen=True)
class ShootScenery(Choice):
    """The fighter shoots at the element ``element`` (C3 "Shooting elements of scenery")."""

    kind = "shoot_scenery"
    fighter: str
    element: str


@dataclass(frozen=True)
class SceneryAssaultAnnounced(Event):
    """An assault on an element of scenery is announced (IV-B-2, C3)."""

    kind = "scenery_assault_announced"
    fighter: str
    element: str
    action: str


@dataclass(frozen=True)
class SceneryAssaulted(Event):
    """The assault on ``element``: ``reached`` (in contact after ``distance`` cm) or not (he
    moved ``distance`` cm towards it; ``measured`` the way's length, None: no way there, or
    the element is gone)."""

    kind = "scenery_assaulted"
    fighter: str
    element: str
    action: str
    reached: bool
    distance: float
    measured: float | None = None


@dataclass(frozen=True)
class SceneryShot(Event):
    """A shot at an element of scenery: distance, range band, difficulty and its terms."""

    kind = "scenery_shot"
    shooter: str
    element: str
    distance: float
    band: str
    difficulty: int
    explain: str


@dataclass(frozen=True)
class SceneryShotMissed(Event):
    """A shot at an element of scenery fails (out of range, a failed test, the element gone)."""

    kind = "scenery_shot_missed"
    shooter: str
    element: str
    reason: str


# ---------------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------------


def _targets(state: GameState) -> list[SceneryPiece]:
    """The elements with structure points left (at level 0)."""
    ground = state.battleground
    if ground is None or not ground.scenery:
        return []
    return [p for p in ground.scenery if destructible(p)]


def touches(here: Field, fighter_id: str, piece: SceneryPiece) -> bool:
    """The fighter's base touches the element (II-E tolerance)."""
    shape = scenery_of(piece).footprint
    return geometry_distance(here.base(fighter_id), shape) <= CONTACT_TOLERANCE_CM


def contact_spots(
    state: GameState, here: Field, fighter_id: str, piece: SceneryPiece
) -> list[Base]:
    """Places where ``fighter_id`` stands in contact with the element, his sight on its edge
    and facing it (every :data:`EDGE_STEP_CM` along each side), legal for a move (on the
    table, on no base or scenery he may not cross, touching no enemy)."""
    template = here.base(fighter_id)
    shape = scenery_of(piece).footprint
    coords = list(shape.exterior.coords)
    out: list[Base] = []
    for (x0, y0), (x1, y1) in itertools.pairwise(coords):
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 1e-6:
            continue
        nx, ny = (y1 - y0) / length, -(x1 - x0) / length
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        if shape.contains(Point(mx + nx * 0.05, my + ny * 0.05)):
            nx, ny = -nx, -ny  # the outward normal
        steps = max(1, int(length // EDGE_STEP_CM))
        facing = math.degrees(math.atan2(-ny, -nx)) % 360.0
        for k in range(steps):
            t = (k + 0.5) / steps
            sight = (x0 + (x1 - x0) * t + nx * OUTSIDE_CM, y0 + (y1 - y0) * t + ny * OUTSIDE_CM)
            base = rounded(placed(template, sight, facing))
            if geometry_distance(base, shape) > CONTACT_TOLERANCE_CM:
                continue
            if here.spot_problem(fighter_id, base, enemies_apart=True, at_most_mov=True) is None:
                out.append(base)
    return out


def _way(state: GameState, here: Field, piece: SceneryPiece) -> tuple[Path, Base] | None:
    """V-A: the shortest way of the acting fighter to a place in contact with the element
    (the nearest :data:`PATHS_TRIED` places by straight line are measured)."""
    action = action_of(state)
    mover = action.fighter
    me = here.base(mover)
    spots = sorted(
        contact_spots(state, here, mover, piece),
        key=lambda b: math.dist(me.sight, b.sight),
    )[:PATHS_TRIED]
    best: tuple[Path, Base] | None = None
    for base in spots:
        path = here.move_path(
            mover,
            base.sight,
            pass_through(state, here, mover),
            mov=movement(state, state.fighter(mover)),
            potential=action.potential,
        )
        if path is not None and (best is None or path.length < best[0].length):
            best = (path, base)
    return best


# ---------------------------------------------------------------------------------------------
# The provider
# ---------------------------------------------------------------------------------------------


def _may_assault(state: GameState, here: Field, fighter_id: str) -> bool:
    fighter = state.fighter(fighter_id)
    return (
        fighter.player != NEUTRAL  # XX-E-1: a neutral fighter assaults fighters only
        and not fighter.passive  # XX-E-6: no assault
        and not fighter.must_cover
        and fighter.altitude == 0
        and movement(state, fighter) > 0
        and free(here, fighter_id)  # V-B-3: free of any enemy (no disengagement first)
    )


def _sees(here: Field, fighter_id: str, piece: SceneryPiece) -> Sight:
    return here.battlefield.sight_to_scenery(fighter_id, scenery_of(piece))


class SceneryProvider:
    """Assaults and shots at elements of scenery for the activation question."""

    def choices(self, state: GameState, activation: Activation) -> list[Choice]:
        if not has_field(state) or activation.action is not None:
            return []
        pieces = _targets(state)
        if not pieces:
            return []
        here = field_of(state)
        announced = {a.fighter for a in activation.exclusive}
        choices: list[Choice] = []
        for f in activation.fighters:
            if f not in here.battlefield.fighters or f in announced:
                continue
            if activation.stage == ActivationStage.ANNOUNCE:
                if not _may_assault(state, here, f):
                    continue
                for piece in pieces:
                    if touches(here, f, piece) or not may_attack(state, f, piece.name):
                        continue  # already in contact: he attacks it in the combat phase
                    action = "charge" if _sees(here, f, piece).any else "engage"
                    choices.append(AssaultScenery(f, piece.name, action))
            elif activation.stage == ActivationStage.CUMULATIVE:
                choices += self._shots(state, here, activation, f, pieces)
        return choices

    def _shots(
        self,
        state: GameState,
        here: Field,
        activation: Activation,
        f: str,
        pieces: Sequence[SceneryPiece],
    ) -> list[Choice]:
        """VI-A: a shooter free of any enemy, one shot per activation (as at fighters)."""
        if f in activation.done or (activation.acting is not None and activation.acting != f):
            return []
        fighter = state.fighter(f)
        if fighter.player == NEUTRAL or not state.profile(fighter.profile).shooter:
            return []
        if fighter.shots or not free(here, f):
            return []
        return [
            ShootScenery(f, p.name)
            for p in pieces
            if may_attack(state, f, p.name) and _sees(here, f, p).any
        ]

    def handles(self, choice: Choice) -> bool:
        return isinstance(choice, AssaultScenery | ShootScenery)

    def apply(self, state: GameState, choice: Choice) -> Transition:
        activation = activation_of(state)
        if isinstance(choice, AssaultScenery):
            announcement = Announcement(
                choice.fighter, choice.action, SCENERY_TARGET + choice.element
            )
            state = with_activation(
                state, evolve(activation, exclusive=(*activation.exclusive, announcement))
            )
            return state, [SceneryAssaultAnnounced(choice.fighter, choice.element, choice.action)]
        assert isinstance(choice, ShootScenery)
        state = with_activation(state, evolve(activation, acting=choice.fighter))
        action = ActionInProgress(
            "shoot_scenery",
            choice.fighter,
            stage=ActionStage.TEST,
            target=SCENERY_TARGET + choice.element,
        )
        return _measure(actions.with_action(state, action))

    def option(self, state: GameState, choice: Choice) -> Option:
        """How a player reads it (no distance before the declaration, IV-B-2)."""
        if isinstance(choice, AssaultScenery):
            verb = "charges" if choice.action == "charge" else "engages"
            piece = piece_named(state, choice.element)
            left = f"{piece.structure_points} SP left" if piece is not None else ""
            return Option(choice, f"{_name(state, choice.fighter)} {verb} {choice.element}", left)
        assert isinstance(choice, ShootScenery)
        return Option(choice, f"{_name(state, choice.fighter)} shoots at {choice.element}")


def _name(state: GameState, fighter_id: str) -> str:
    return f"{state.profile(state.fighter(fighter_id).profile).name} ({fighter_id})"


# ---------------------------------------------------------------------------------------------
# Resolving an assault (called by the movement module when its turn comes, IV-B-2)
# ---------------------------------------------------------------------------------------------


def assault(state: GameState) -> Transition:
    """V-B-3 on an element: in contact with it, or the whole potential towards it."""
    action = action_of(state)
    element = element_of(action.target)
    assert element is not None
    piece = piece_named(state, element)
    if piece is None or not destructible(piece):  # destroyed meanwhile: he stays
        gone = SceneryAssaulted(action.fighter, element, action.kind, False, 0.0)
        state, after = finish(state)
        return state, [gone, *after]
    here = field_of(state)
    way = _way(state, here, piece)
    fighter = state.fighter(action.fighter)
    if way is not None and way[0].length <= action.potential + 1e-6:
        path, base = way
        within = path.length <= movement(state, fighter) + 1e-6  # V-A, CLARIFICATIONS §9
        if here.spot_problem(fighter.id, base, enemies_apart=True, at_most_mov=within) is None:
            moved = evolve(fighter, x=base.x, y=base.y, facing=round(base.facing, 3))
            state = mark_moved(state.with_fighters(moved), fighter.id)
            cm = round(path.length, 2)
            event = SceneryAssaulted(fighter.id, element, action.kind, True, cm, cm)
            state, after = finish(state)
            return state, [event, *after]
    measured = None if way is None else round(way[0].length, 2)
    state, moved_cm, events = _along(state, here, None if way is None else way[0], 0.5)
    short = SceneryAssaulted(fighter.id, element, action.kind, False, moved_cm, measured)
    state, after = finish(state)
    return state, [short, *events, *after]


# ---------------------------------------------------------------------------------------------
# Resolving a shot
# ---------------------------------------------------------------------------------------------


_SIZE_VALUES = {"small": 1, "normal": 2, "large": 3, "very-large": 4}


def _size_value(height: str) -> int:
    """VI-A-3: an element's height read as a size (small 1 … very large 4; flat 0)."""
    return _SIZE_VALUES.get(height, 0)


def _measured(state: GameState, shooter_id: str, piece: SceneryPiece) -> float:
    """VI-A-1: from the shooter's sight to the element's edge (cm, rounded as told)."""
    sight = field_of(state).base(shooter_id).sight
    return round(float(Point(*sight).distance(scenery_of(piece).footprint)), 2)


def scenery_shot_difficulty(
    state: GameState, shooter_id: str, piece: SceneryPiece
) -> Difficulty | None:
    """VI-A-1, VI-A-3: the difficulty of a shot at ``piece`` now (None: beyond the long
    range, an automatic failure): the range band to its edge, its height read as a size."""
    profile = state.profile(state.fighter(shooter_id).profile)
    band = range_band(_measured(state, shooter_id, piece), profile.ranges)
    if band is None:
        return None
    seen = _sees(field_of(state), shooter_id, piece)
    target = ShotTarget(size=_size_value(piece.height), partially_visible=seen is Sight.PARTIAL)
    return shot_difficulty(band, target)


def _measure(state: GameState) -> Transition:
    """VI-A-1, VI-A-3: measure to the element's edge, the difficulty, the Shooting test."""
    action = action_of(state)
    element = element_of(action.target)
    assert element is not None
    piece = piece_named(state, element)
    assert piece is not None
    shooter = state.fighter(action.fighter)
    profile = state.profile(shooter.profile)
    measured = _measured(state, shooter.id, piece)
    band = range_band(measured, profile.ranges)
    difficulty = scenery_shot_difficulty(state, shooter.id, piece)
    state = state.with_fighters(evolve(shooter, shots=shooter.shots + 1))
    if band is None or difficulty is None:  # VI-A-1: automatic failure
        far = f"out of range ({measured:g} cm, long range {profile.ranges[2]:g})"
        return _missed(state, far)
    shot = SceneryShot(
        shooter.id, element, measured, band.value, difficulty.total, difficulty.explain()
    )
    state = update(state, difficulty=difficulty.total)
    aim = current(state, shooter, Characteristic.AIM)
    return start_test(state, "shooting", shooter.player, aim, difficulty.total), [shot]


def _missed(state: GameState, reason: str) -> Transition:
    action = action_of(state)
    element = element_of(action.target) or ""
    missed = SceneryShotMissed(action.fighter, element, reason)
    state, after = finish(state)
    return state, [missed, *after]


def resume_shot(state: GameState) -> Transition:
    """After the Shooting test, then after the two damage dice."""
    action = action_of(state)
    element = element_of(action.target)
    assert element is not None
    if action.stage == ActionStage.TEST:
        assert action.test is not None
        if not action.test.success:
            return _missed(state, "the Shooting test failed")
        # C3: no distribution roll, whoever touches the element
        state = update(state, stage=ActionStage.WOUND, victim=element, test=None)
        return start_wound(state), []
    piece = piece_named(state, element)
    if piece is None or not destructible(piece):
        return _missed(state, f"{element} is gone")
    shooter = state.fighter(action.fighter)
    strength = state.profile(shooter.profile).aim_str or 0
    state, events = damage_element(state, shooter.id, piece, action.wound, strength)
    state, after = finish(state)
    return state, events + after


# ---------------------------------------------------------------------------------------------
# Narration and contribution
# ---------------------------------------------------------------------------------------------


def _tell(n: Narrator, event: Event) -> str | None:
    match event:
        case SceneryAssaultAnnounced(fighter=fighter, element=element, action=action):
            what = "a charge" if action == "charge" else "an engagement"
            return f"{n.fighter(fighter)} announces {what} on {element}."
        case SceneryAssaulted(
            fighter=fighter, element=element, reached=True, distance=cm, action=action
        ):
            verb = "charges" if action == "charge" else "engages"
            return f"{n.fighter(fighter)} {verb} {element} ({cm:g} cm)."
        case SceneryAssaulted(fighter=fighter, element=element, distance=cm, measured=far):
            how = "out of reach" if far is None else f"{far:g} cm away"
            return f"{n.fighter(fighter)} falls short of {element} ({how}) and moves {cm:g} cm."
        case SceneryShot(shooter=shooter, element=element, distance=cm, explain=explain):
            return f"{n.fighter(shooter)} shoots at {element} ({cm:g} cm, difficulty {explain})."
        case SceneryShotMissed(shooter=shooter, element=element, reason=reason):
            return f"{n.fighter(shooter)}'s shot at {element} misses: {reason}."
    return None


def contribute(rules: RulesBuilder) -> None:
    """Assaults and shots at elements of scenery: the provider, the resumes, the sentences."""
    rules.action_provider("scenery", SceneryProvider())
    rules.resume("assault_scenery", assault)
    rules.resume("shoot_scenery", resume_shot)
    for kind in (
        SceneryAssaultAnnounced,
        SceneryAssaulted,
        SceneryShot,
        SceneryShotMissed,
    ):
        rules.sentence(kind.kind, _tell)
