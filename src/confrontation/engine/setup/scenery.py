"""Setting the scenery up (III-A-3, XX-A-2; C3 "Amount and placement of scenery":
C3-AMOUNT-AND-PLACEMENT-OF-SCENERY, C3-STANDARD-SCENERY).

XX-A-2: "Sauf précision contraire, les décors sont placés dans l'ordre suivant : en premier
sont placés les éléments fixes imposés par le scénario. Ensuite les éléments de décors
standards, chaque joueur en plaçant un à tour de rôle. Chaque joueur lance 1d6 et le plus haut
résultat place le premier élément. Ensuite, placez les éléments mobiles et les combattants
neutres spécifiés par le scénario. Finalement, lancez 1d6 pour choisir les zones de
déploiement." — "Tous les éléments de décors doivent être placés au minimum à 6cm les uns des
autres ainsi qu'à 6cm ou plus d'un bord de table."

While the state's ``battleground.scenery`` is None the deployment phase's first step is here:

1. the scenario's fixed elements (``Battleground.fixed``) are set up where it says
   (:class:`~.events.SceneryPlaced` with no player);
2. ``scenery_count`` standard elements: ``placement`` "random" — the engine's seeded layout
   (:data:`SCENERY_DICE` dice of the game's stream, docs/rulings.md III-A-3), every element
   6 cm from the scenario's; "players" — each player rolls a d6 (chance steps; the highest
   places first, those tied roll again), then the players place one element each in turn, in
   player order from the first (``place_scenery``: a kind of ``data/scenery.toml`` at the
   middle of its size ranges, on a :data:`PLACEMENT_GRID_CM` grid, turned by one of
   :data:`ANGLES`; only legal places are offered, :func:`placements`). A player with no
   legal place left ends the placing (docs/rulings.md XX-A-2).

Then ``engine.setup.deployment`` runs the set-up steps of the scenario (mobile elements,
neutral fighters) and the die for the deployment areas.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

import numpy as np
import shapely
from shapely.geometry import Polygon

from confrontation.dice import FACES, ScriptedRoller
from confrontation.engine.core.events import Event, SceneryLaid, SceneryPlaced, SceneryRolled
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import Choice, DieFace, Option, PlaceScenery, Question
from confrontation.engine.core.registry import EngineError, Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import (
    Battleground,
    DeploymentProgress,
    GameState,
    Pending,
    SceneryPiece,
    player_name,
)
from confrontation.engine.table.field import piece_of, scenery_of, table_of
from confrontation.geometry.scenery import (
    MAX_SIDE_CM,
    MIN_ELEMENTS,
    MIN_GAP_CM,
    Scenery,
    Template,
    load_templates,
    random_layout,
)

SCENERY_DICE = 12
"""Dice that seed the random layout (``geometry.scenery.generator_from`` reads 12)."""

PLACEMENT_GRID_CM = 6.0
"""XX-A-2: the players' elements are offered with their centres on this grid (cm)."""

ANGLES = (0.0, 45.0, 90.0, 135.0)
"""XX-A-2: the turns offered for a rectangular element (a round one is not turned)."""

PLACEMENTS = ("random", "players")
"""The ways the standard scenery is laid (``Battleground.placement``)."""


def _ground(state: GameState) -> Battleground:
    if state.battleground is None:
        raise EngineError("the set-up needs a table (setup.on_battlefield)")
    return state.battleground


def _progress(state: GameState) -> DeploymentProgress:
    return state.deployment or DeploymentProgress()


def _with(state: GameState, **changes: object) -> GameState:
    return evolve(state, deployment=evolve(_progress(state), **changes))


# --- the standard kinds -------------------------------------------------------------------------


@cache
def templates() -> dict[str, Template]:
    """The standard kinds the players place (``data/scenery.toml``), those within 30x30 cm
    at the middle of their size ranges (XX-A-2)."""
    return {
        name: t for name, t in load_templates().items() if max(placed_size(t)) <= MAX_SIDE_CM + 1e-9
    }


def placed_size(template: Template) -> tuple[float, ...]:
    """The size a player's element of ``template`` has: the middle of each range (a round
    element: its diameter; a rectangle: width, depth)."""
    return tuple(round((lo + hi) / 2.0, 2) for lo, hi in template.sizes)


def element_of(choice: PlaceScenery, name: str) -> Scenery:
    """The element ``choice`` places, named ``name`` (outline rounded as the state keeps it)."""
    t = templates()[choice.template]
    size = placed_size(t)
    if t.shape == "circle":
        made = Scenery.circle(
            name, choice.x, choice.y, size[0], height=t.height, passable=t.passable
        )
    else:
        made = Scenery.rect(
            name,
            choice.x,
            choice.y,
            size[0],
            size[1],
            choice.angle,
            height=t.height,
            passable=t.passable,
        )
    return scenery_of(piece_of(made))


@lru_cache(maxsize=16)
def _candidates(width: float, height: float) -> tuple[tuple[PlaceScenery, ...], np.ndarray]:
    """Every grid placement wholly 6 cm or more inside the table's edges, with its footprint."""
    choices: list[PlaceScenery] = []
    shapes: list[Polygon] = []
    low, high_x, high_y = MIN_GAP_CM - 1e-9, width - MIN_GAP_CM + 1e-9, height - MIN_GAP_CM + 1e-9
    xs = np.arange(PLACEMENT_GRID_CM, width, PLACEMENT_GRID_CM)
    ys = np.arange(PLACEMENT_GRID_CM, height, PLACEMENT_GRID_CM)
    for name, t in templates().items():
        for angle in (0.0,) if t.shape == "circle" else ANGLES:
            for x in xs:
                for y in ys:
                    choice = PlaceScenery(name, round(float(x), 2), round(float(y), 2), angle)
                    shape = element_of(choice, name).footprint
                    x0, y0, x1, y1 = shape.bounds
                    if x0 >= low and y0 >= low and x1 <= high_x and y1 <= high_y:
                        choices.append(choice)
                        shapes.append(shape)
    return tuple(choices), np.array(shapes, dtype=object)


def placements(ground: Battleground, placed: Sequence[SceneryPiece]) -> list[PlaceScenery]:
    """XX-A-2: the legal places of a standard element with ``placed`` already on the table —
    wholly 6 cm or more from the table's edges and from every element placed (scenario ones
    included) and from the places the scenario keeps clear (``Battleground.clear``), at most
    30x30 cm (:func:`templates`)."""
    table = table_of(ground)
    choices, shapes = _candidates(table.width, table.height)
    keep = np.ones(len(choices), dtype=bool)
    for piece in placed:
        footprint = scenery_of(piece).footprint
        keep &= shapely.distance(shapes, footprint) >= MIN_GAP_CM - 1e-9
    for outline in ground.clear:  # docs/rulings.md XX-A-2: objectives and tokens
        keep &= shapely.distance(shapes, Polygon(outline)) >= MIN_GAP_CM - 1e-9
    return [choices[i] for i in np.flatnonzero(keep)]


# --- the set-up step ---------------------------------------------------------------------------


def lay_scenery(ground: Battleground, dice: Sequence[int]) -> Battleground:
    """III-A-3 (docs/rulings.md): the scenario's elements and a legal random layout of
    ``ground.scenery_count`` standard elements from these dice, 6 cm from the scenario's
    (fewer if the table is too small for them all, down to a total of 4)."""
    table = table_of(ground)
    fixed = [scenery_of(p) for p in ground.fixed]
    clear = [Polygon(outline) for outline in ground.clear]
    least = min(ground.scenery_count, max(0, MIN_ELEMENTS - len(fixed)))
    for count in range(ground.scenery_count, least - 1, -1):
        try:
            elements = random_layout(
                table, ScriptedRoller(dice), count, existing=fixed, clear=clear
            )
        except ValueError:
            continue
        laid = tuple(piece_of(e) for e in elements)
        return evolve(ground, scenery=(*ground.fixed, *laid), scenery_count=0)
    raise EngineError(f"no legal layout of {MIN_ELEMENTS} scenery elements on this table")


def drive(state: GameState) -> Transition:
    """The next move of the scenery's set-up (``battleground.scenery`` is None)."""
    ground = _ground(state)
    progress = _progress(state)
    if ground.fixed and not progress.placed:  # XX-A-2: "en premier ... imposés par le scénario"
        events: list[Event] = [SceneryPlaced(p.name) for p in ground.fixed]
        return _with(state, placed=ground.fixed), events
    if ground.placement == "players":
        return _players(state, ground, progress)
    if ground.scenery_count <= 0:
        laid = [SceneryLaid(tuple(p.name for p in ground.fixed))] if ground.fixed else []
        ground = evolve(ground, scenery=ground.fixed, scenery_count=0)
        return _with(evolve(state, battleground=ground), placed=()), list(laid)
    if len(progress.dice) < SCENERY_DICE:
        return evolve(state, pending=Pending(QuestionKind.SCENERY_DIE, None)), []
    ground = lay_scenery(ground, progress.dice)
    assert ground.scenery is not None
    laid = [SceneryLaid(tuple(p.name for p in ground.scenery))]
    return _with(evolve(state, battleground=ground), placed=()), list(laid)


def _players(state: GameState, ground: Battleground, progress: DeploymentProgress) -> Transition:
    """XX-A-2: the roll for who places first, then one element each in turn."""
    standard = len(progress.placed) - len(ground.fixed)
    if standard < ground.scenery_count and placements(ground, progress.placed):
        if progress.placer is None:
            return evolve(state, pending=Pending(QuestionKind.SCENERY_START_DIE, None)), []
        return evolve(state, pending=Pending(QuestionKind.PLACE_SCENERY, progress.placer)), []
    done = evolve(ground, scenery=progress.placed, scenery_count=0)
    state = _with(evolve(state, battleground=done), placed=(), placer=None)
    return state, [SceneryLaid(tuple(p.name for p in progress.placed))]


# --- who places first ------------------------------------------------------------------------


def _rolling(state: GameState) -> tuple[int, ...]:
    return _progress(state).rolling or state.players


def _start_roller(state: GameState) -> int | None:
    progress = _progress(state)
    return _rolling(state)[len(progress.dice)]


def _faces(state: GameState) -> list[Choice]:
    return [DieFace(face) for face in FACES]


def _start_apply(state: GameState, choice: Choice) -> Transition:
    """A player's d6; once all have rolled, the highest places first, a tie is rolled again
    by those tied."""
    assert isinstance(choice, DieFace)
    rolling = _rolling(state)
    dice = (*_progress(state).dice, choice.face)
    if len(dice) < len(rolling):
        return _with(state, dice=dice, rolling=rolling), []
    top = max(dice)
    tied = tuple(p for p, face in zip(rolling, dice, strict=True) if face == top)
    first = tied[0] if len(tied) == 1 else None
    rolled = SceneryRolled(rolling, dice, first)
    if first is None:
        return _with(state, dice=(), rolling=tied), [rolled]
    return _with(state, dice=(), rolling=(), placer=first), [rolled]


def _start_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    player = _start_roller(state)
    assert player is not None
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    prompt = f"{player_name(player)}'s d6 for who places the first scenery element (XX-A-2)"
    return Question(QuestionKind.SCENERY_START_DIE, None, prompt, options)


# --- placing an element ------------------------------------------------------------------------


def _place_legal(state: GameState) -> list[Choice]:
    return list(placements(_ground(state), _progress(state).placed))


def _next_name(state: GameState, template: str) -> str:
    return f"{template}-{len(_progress(state).placed) + 1}"


def _place_apply(state: GameState, choice: Choice) -> Transition:
    """The element goes on the table; the next player in order places the next one."""
    assert isinstance(choice, PlaceScenery)
    progress = _progress(state)
    player = progress.placer
    assert player is not None
    name = _next_name(state, choice.template)
    piece = piece_of(element_of(choice, name))
    players = state.players
    following = players[(players.index(player) + 1) % len(players)]
    state = _with(state, placed=(*progress.placed, piece), placer=following)
    return state, [SceneryPlaced(name, player, choice.x, choice.y, choice.angle)]


def _place_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    ground, progress = _ground(state), _progress(state)
    player = progress.placer
    assert player is not None
    options = []
    for c in choices:
        assert isinstance(c, PlaceScenery)
        t = templates()[c.template]
        size = "×".join(f"{v:g}" for v in placed_size(t))
        turned = f", turned {c.angle:g}°" if t.shape != "circle" else ""
        detail = f"{size} cm, {t.height}" + ("" if t.passable else ", impassable")
        options.append(Option(c, f"{c.template} at ({c.x:g}, {c.y:g}){turned}", detail))
    number = len(progress.placed) - len(ground.fixed) + 1
    prompt = (
        f"{player_name(player)}: where do you place standard scenery element {number} of "
        f"{ground.scenery_count}? (XX-A-2: 6 cm from the others and the table's edges)"
    )
    return Question(QuestionKind.PLACE_SCENERY, player, prompt, tuple(options))


# --- the random layout's dice --------------------------------------------------------------------


def _scenery_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    return _with(state, dice=(*_progress(state).dice, choice.face)), []


def _scenery_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    rolled = len(_progress(state).dice)
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    prompt = f"Scenery layout: die {rolled + 1} of {SCENERY_DICE} (III-A-3)"
    return Question(QuestionKind.SCENERY_DIE, None, prompt, options)


def contribute(rules: RulesBuilder) -> None:
    """The scenery's questions: the random layout's dice, the players' roll and places."""
    rules.handler(
        Handler(
            QuestionKind.SCENERY_DIE,
            _faces,
            _scenery_apply,
            _scenery_describe,
            subject=lambda s: None,
        )
    )
    rules.handler(
        Handler(
            QuestionKind.SCENERY_START_DIE,
            _faces,
            _start_apply,
            _start_describe,
            subject=_start_roller,
        )
    )
    rules.handler(Handler(QuestionKind.PLACE_SCENERY, _place_legal, _place_apply, _place_describe))
