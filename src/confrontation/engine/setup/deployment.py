"""Before the battle (III-A, III-B, XX-A-2): scenery, deployment areas, the deployment
sequence and the placing of the fighters.

1. Scenery (III-A-3, XX-A-2; :mod:`.scenery`): unless the game came with its own, the
   scenario's fixed elements, then the standard ones — laid at random with the game's dice
   (chance steps, so a replay rebuilds the same table) or placed by the players in turn.
2. The scenario's set-up steps (XX-A-2: "Ensuite, placez les éléments mobiles et les
   combattants neutres spécifiés par le scénario"): every :class:`SetupStep` of the rules'
   extension table :data:`SETUP_STEPS`, in the order the modules added them.
3. Deployment areas (III-A-1, III-A-3, XX-A-2: "Finalement, lancez 1d6 pour choisir les zones
   de déploiement"): a die says who chooses (1-3 Player 1, 4-6 Player 2; docs/rulings.md),
   then he picks his area; the other takes the other. With three players or more (XX-F-1,
   docs/rulings.md): the die names the first to choose (the faces shared evenly, a face left
   over rolled again), then the others choose in player order after him among the areas
   left; the last takes the last.
4. Strategic phase (III-B-1): the deployment sequence and the Tactics roll, played by the
   strategic phase's own questions with ``round == 0``.
5. Deployment phase (III-B-2): the cards are drawn exactly as in IV-B-1 (reserve, reserve +
   top card, refusals, note 1) and each fighter of a played card is placed on one of a grid
   of legal spots of his player's area (:func:`~.field.deployment_spots`, which keeps
   everybody off scenario scenery and scouts beyond MOV of it, XX-A-3; free measuring: the
   options show distances). Then round 1 begins.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from confrontation.dice import FACES
from confrontation.engine.core.events import (
    ActivationEnded,
    Deployed,
    Event,
    PhaseEnded,
    PhaseStarted,
    ZoneChosen,
)
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import (
    FREE_FACING,
    Choice,
    ChooseZone,
    DieFace,
    Option,
    Place,
    Question,
)
from confrontation.engine.core.registry import (
    EngineError,
    Handler,
    Transition,
)
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import (
    Battleground,
    DeploymentProgress,
    GameState,
    Pending,
    Phase,
    player_name,
)
from confrontation.engine.round.activation import _pass_floor, open_floor
from confrontation.engine.round.strategic import fresh_progress
from confrontation.engine.setup import scenery
from confrontation.engine.table.contact_limits import placement_problem
from confrontation.engine.table.field import (
    base_of,
    deployable,
    deployment_spots,
    field_of,
    table_of,
)

SETUP_STEPS = "setup-step"
"""The rules' extension table of the scenario's set-up steps (:class:`SetupStep` by name)."""


@dataclass(frozen=True)
class SetupStep:
    """A step of the set-up between the scenery and the die for the deployment areas (XX-A-2:
    the scenario's mobile elements — tokens, C3-MOVEABLE-ELEMENTS — and neutral fighters),
    added to the rules with ``rules.extension(SETUP_STEPS, name, SetupStep(...))`` and run in
    the order added.

    ``run(state)`` returns the step's next transition (the state with its elements on the
    table, or a question or die pending whose handler carries it on) or None once it has
    nothing more to do. The set-up calls it again after each of its transitions until it
    returns None, so it must tell from the state what it has done already."""

    name: str
    section: str
    run: Callable[[GameState], Transition | None]


def setup_steps(state: GameState) -> tuple[SetupStep, ...]:
    """The set-up steps of the state's rules, in order."""
    rules = rules_of(state)
    return tuple(rules.extension(SETUP_STEPS, n) for n in rules.extension_names(SETUP_STEPS))


def _ground(state: GameState) -> Battleground:
    if state.battleground is None:
        raise EngineError("the deployment needs a table (setup.on_battlefield)")
    return state.battleground


def _progress(state: GameState) -> DeploymentProgress:
    return state.deployment or DeploymentProgress()


def _with(state: GameState, **changes: object) -> GameState:
    progress = evolve(_progress(state), **changes)
    return evolve(state, deployment=progress)


def drive(state: GameState) -> Transition:
    """Move the set-up on to its next question or die, or start round 1."""
    ground = _ground(state)
    if state.deployment is None:
        started = PhaseStarted(0, Phase.DEPLOYMENT.value)
        return evolve(state, deployment=DeploymentProgress()), [started]
    progress = state.deployment
    if progress.step == "scenery":
        if ground.scenery is not None:
            return _with(state, step="mobile"), []
        return scenery.drive(state)
    if progress.step == "mobile":  # XX-A-2: then the mobile elements and neutral fighters
        for setup_step in setup_steps(state):
            moved = setup_step.run(state)
            if moved is not None:
                return moved
        return _with(state, step="zones"), []
    if progress.step == "zones":
        if ground.zones is not None:
            return _with(state, step="sequence"), []
        if progress.chooser is None:
            return evolve(state, pending=Pending(QuestionKind.ZONE_DIE, None)), []
        return evolve(state, pending=Pending(QuestionKind.CHOOSE_ZONE, progress.chooser)), []
    if progress.step == "sequence":  # III-B-1, by the strategic phase's questions
        to_place = tuple(tuple(c.id for c in state.cards_of(p)) for p in state.players)
        state = _with(state, step="drawing")
        state = evolve(
            state,
            phase=Phase.STRATEGIC,
            strategic=fresh_progress(to_place),
            first_speaker=None,
            speaking=(),
        )
        return state, [PhaseStarted(0, Phase.STRATEGIC.value)]
    return _drawing(state)


def _drawing(state: GameState) -> Transition:
    """III-B-2: the drawing of IV-B-1, each played card's fighters placed one by one."""
    if state.activation is None:
        state = evolve(state, strategic=None)
        return open_floor(state)
    progress = state.activation
    current = progress.current
    if current is not None:
        if _next_to_place(state) is not None:
            return evolve(state, pending=Pending(QuestionKind.DEPLOY, current.player)), []
        ended = ActivationEnded(current.player, current.cards)
        return _pass_floor(state, current.player), [ended]
    if progress.floor is not None:
        return evolve(state, pending=Pending(QuestionKind.FLOOR, progress.floor)), []
    ended_phase = PhaseEnded(0, Phase.DEPLOYMENT.value)
    state = evolve(
        state,
        phase=Phase.STRATEGIC,
        round=1,
        activation=None,
        strategic=None,
        deployment=None,
        first_speaker=None,
        speaking=(),
    )
    return state, [ended_phase]


def _next_to_place(state: GameState) -> str | None:
    assert state.activation is not None and state.activation.current is not None
    current = state.activation.current
    for fighter_id in current.fighters:
        # XX-E-6: passive individuals the scenario placed are on the table already
        if fighter_id not in current.done and not state.fighter(fighter_id).on_table:
            return fighter_id
    return None


# --- scenery and zones ------------------------------------------------------------------------


def _faces(state: GameState) -> list[Choice]:
    return [DieFace(face) for face in FACES]


def _die_chooser(state: GameState, face: int) -> int | None:
    """Who the zone die names (docs/rulings.md III-A-3, XX-F-1): the six faces shared evenly
    among the players (two: 1-3 and 4-6); a face left over (four or five players) names
    nobody and is rolled again."""
    share = len(FACES) // len(state.players)
    player = (face - 1) // share
    return player if player < len(state.players) else None


def _zone_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    return _with(state, chooser=_die_chooser(state, choice.face)), []


def _zone_die_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    options = []
    for c in choices:
        assert isinstance(c, DieFace)
        named = _die_chooser(state, c.face)
        what = "rolled again" if named is None else f"{player_name(named)} chooses"
        options.append(Option(c, str(c.face), what))
    return Question(
        QuestionKind.ZONE_DIE, None, "Who chooses his deployment area? (III-A-3)", tuple(options)
    )


def _free_zones(state: GameState) -> list[int]:
    taken = {zone for _, zone in _progress(state).taken}
    return [zone for zone in range(len(state.players)) if zone not in taken]


def _zone_legal(state: GameState) -> list[Choice]:
    return [ChooseZone(zone) for zone in _free_zones(state)]


def _zone_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, ChooseZone)
    chooser = _progress(state).chooser
    assert chooser is not None
    players = state.players
    if len(players) == 2:
        other = 1 - choice.zone
        zones: tuple[int, ...] = (choice.zone, other) if chooser == 0 else (other, choice.zone)
        ground = evolve(_ground(state), zones=zones)
        state = evolve(state, battleground=ground)
        return state, [ZoneChosen(p, zones[p]) for p in players]
    # XX-F-1 (docs/rulings.md): the others choose in player order after the first chooser
    taken = (*_progress(state).taken, (chooser, choice.zone))
    events: list[Event] = [ZoneChosen(chooser, choice.zone)]
    done = {p for p, _ in taken}
    after = [p for p in (*players[chooser + 1 :], *players[:chooser]) if p not in done]
    state = _with(state, taken=taken, chooser=after[0])
    free = _free_zones(state)
    if len(after) == 1:
        taken = (*taken, (after[0], free[0]))
        events.append(ZoneChosen(after[0], free[0]))
        zones = tuple(zone for _, zone in sorted(taken))
        state = evolve(state, battleground=evolve(_ground(state), zones=zones))
    return state, events


def _zone_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    table = table_of(_ground(state))
    options = []
    for c in choices:
        assert isinstance(c, ChooseZone)
        minx, miny, maxx, maxy = table.zones[c.zone].area.bounds
        # the open bounds (III-A-1) lie 0.05 mm inside the lines: shown at the lines
        minx, miny, maxx, maxy = (round(v, 1) for v in (minx, miny, maxx, maxy))
        detail = f"x {minx:g}-{maxx:g} cm, y {miny:g}-{maxy:g} cm"
        options.append(Option(c, f"deployment area {c.zone + 1}", detail))
    player = _progress(state).chooser
    assert player is not None
    prompt = f"{player_name(player)}: which deployment area do you take? (III-A-1)"
    return Question(QuestionKind.CHOOSE_ZONE, player, prompt, tuple(options))


# --- placing the fighters (III-B-2) ---------------------------------------------------------------


def _deploy_legal(state: GameState) -> list[Choice]:
    fighter_id = _next_to_place(state)
    assert fighter_id is not None
    fighter = state.fighter(fighter_id)
    spots = deployment_spots(state, fighter)
    # II-E-3 (CLARIFICATIONS §9): a spot touching enemies keeps everybody within his limit
    # (only measured when an enemy stands within 10 cm of the spots: areas rarely touch)
    here, template = field_of(state), base_of(state, fighter)
    if spots:  # the spots' bounds, 10 cm wider
        x0, x1 = min(s.x for s in spots) - 10, max(s.x for s in spots) + 10
        y0, y1 = min(s.y for s in spots) - 10, max(s.y for s in spots) + 10
    if spots and any(
        x0 <= b.x <= x1 and y0 <= b.y <= y1
        for b in (here.base(i) for i in here.ids() if here.owners[i] != fighter.player)
    ):
        spots = [
            s
            for s in spots
            if placement_problem(state, here, {fighter_id: template.moved(s.x, s.y, s.facing)})
            is None
        ]
    if not spots:
        raise EngineError(f"no room left in the deployment area for {fighter_id} (III-B-2)")
    return [Place(s.x, s.y, s.facing) for s in spots]


def _deploy_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, Place) and state.activation is not None
    current = state.activation.current
    assert current is not None
    fighter_id = _next_to_place(state)
    assert fighter_id is not None
    fighter = evolve(
        state.fighter(fighter_id), x=choice.x, y=choice.y, facing=choice.facing, on_table=True
    )
    current = evolve(current, done=(*current.done, fighter_id))
    progress = evolve(state.activation, current=current)
    state = evolve(state.with_fighters(fighter), activation=progress)
    return state, [Deployed(fighter_id, choice.x, choice.y, choice.facing)]


def _deploy_free(state: GameState, choice: Choice) -> str | None:
    """III-B-2 (docs/rulings.md "III-B-2 — the facing of a fighter deployed"): a listed place
    turned about its centre to any facing in [0, 360), the turned base still standing where a
    fighter may be deployed and nobody past his contact limit (II-E-3)."""
    if not isinstance(choice, Place):
        return f"{choice!r} is not a legal answer to 'deploy'"
    facing = choice.facing
    if not (isinstance(facing, int | float) and math.isfinite(facing) and 0 <= facing < 360):
        return f"a facing is an angle of at least 0° and less than 360°, not {facing!r}"
    listed = _deploy_legal(state)
    if not any(isinstance(p, Place) and (p.x, p.y) == (choice.x, choice.y) for p in listed):
        return f"({choice.x:g}, {choice.y:g}) is no deployment place offered (III-B-2)"
    fighter_id = _next_to_place(state)
    assert fighter_id is not None
    fighter = state.fighter(fighter_id)
    base = base_of(state, fighter).moved(choice.x, choice.y, facing)
    if not deployable(state, fighter, base):
        return (
            f"turned to {facing:g}° his base would leave his deployment area or stand on "
            "another base or on scenery (III-A-1, III-B-2)"
        )
    problem = placement_problem(state, field_of(state), {fighter_id: base})
    if problem is not None:
        return f"turned to {facing:g}°: {problem}"
    return None


def _deploy_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    fighter_id = _next_to_place(state)
    assert fighter_id is not None and state.pending is not None
    fighter = state.fighter(fighter_id)
    here = field_of(state)
    enemies = [here.base(i) for i in here.ids() if here.owners[i] != fighter.player]
    options = []
    for c in choices:
        assert isinstance(c, Place)
        detail = ""
        if enemies:  # III-B-2: free measuring during the deployment
            nearest = min(math.dist((c.x, c.y), e.centre) for e in enemies)
            detail = f"{nearest:.1f} cm from the nearest enemy (centre to centre)"
        options.append(Option(c, f"({c.x:g}, {c.y:g}) facing {c.facing:g}°", detail))
    name = state.profile(fighter.profile).name
    prompt = f"{player_name(fighter.player)}: where do you deploy {name} ({fighter_id})?"
    return Question(QuestionKind.DEPLOY, fighter.player, prompt, tuple(options), FREE_FACING)


def contribute(rules: RulesBuilder) -> None:
    """The deployment phase's driver and questions (III-B)."""
    rules.phase(Phase.DEPLOYMENT, drive)
    scenery.contribute(rules)
    rules.handler(
        Handler(
            QuestionKind.ZONE_DIE,
            _faces,
            _zone_die_apply,
            _zone_die_describe,
            subject=lambda s: None,
        )
    )
    rules.handler(Handler(QuestionKind.CHOOSE_ZONE, _zone_legal, _zone_apply, _zone_describe))
    rules.handler(
        Handler(
            QuestionKind.DEPLOY,
            _deploy_legal,
            _deploy_apply,
            _deploy_describe,
            free=_deploy_free,
        )
    )
