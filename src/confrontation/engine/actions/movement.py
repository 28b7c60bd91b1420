"""Movement (chapter V) as the engine's action provider, and the order of IV-B-2.

When a card is played the player first **announces** every exclusive action (run, charge,
engagement, move under cover: :class:`~.questions.Announce`) and then says he is done
(:class:`~.questions.AnnouncementsDone`); the engine resolves the **assault shots** of those
announcements first (VI-B-3: all shots before any figure moves), then the **exclusive
actions** one after the other in the order announced, and then the other fighters play
their **cumulative** actions one at a time (walk here; shoot in ``engine.actions.shooting``).

Measuring only after declaring (IV-B-2): an assault names its target without a distance;
the engine measures along the path of V-A (:mod:`~.field`) and either puts the fighter in
contact (V-B-3) or moves him his whole potential towards the target. A walk, a run or a
move under cover is declared first; then the player picks one of a finite set of legal
destinations (:func:`~.field.destinations`), none in contact with an enemy (V-D), each
facing the nearest enemy. The facing is the player's (V-B-1, V-B-2, CLARIFICATIONS §9):
the question also accepts any listed destination turned about its sight (V-A) to any angle
(:func:`turned`, a free answer of the ``destination`` handler); :func:`facing_options` lists
the sensible ones for a person (each enemy, the median line, as he stood).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

from confrontation.engine.actions import shared as actions
from confrontation.engine.actions.shared import (
    action_of,
    activation_of,
    ask,
    finish,
    mark_moved,
    update,
    with_activation,
)
from confrontation.engine.combat.scenery_attack import element_of
from confrontation.engine.core.deferred import Deferred, LazyChoices, Part
from confrontation.engine.core.events import (
    ActionAnnounced,
    AssaultFellShort,
    AssaultRedirected,
    Charged,
    Disengaged,
    DisengageFailed,
    Engaged,
    Event,
    FightersRotated,
    Moved,
)
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.hooks import spot_refusal
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import (
    FREE_FACING,
    Announce,
    AnnouncementsDone,
    Choice,
    FighterDone,
    Option,
    Place,
    Question,
    Redirect,
    RotateCharged,
    Walk,
)
from confrontation.engine.core.registry import Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import (
    ActionInProgress,
    ActionStage,
    Activation,
    ActivationStage,
    Announcement,
    ChargeRecord,
    Fighter,
    GameState,
    player_name,
)
from confrontation.engine.table.contact_limits import (
    is_full,
    limit_of,
    placement_filter,
    placement_problem,
)
from confrontation.engine.table.field import (
    Field,
    current,
    destinations,
    enemy_contacts,
    field_of,
    free,
    has_field,
    median_facing,
    movement,
    on_area,
    pass_through,
    placed,
    potential_of,
    rounded,
)
from confrontation.engine.table.passive import leashed, near_a_defender
from confrontation.geometry.bases import Base
from confrontation.geometry.contact import ContactPlacement, in_contact
from confrontation.geometry.measure import distance
from confrontation.geometry.paths import Path
from confrontation.rules.characteristics import Characteristic
from confrontation.rules.charge import (
    AssaultKind,
    Charge,
    penalised_fighters,
    redirected_kind,
    rotatable_sets,
)
from confrontation.rules.disengage import (
    DisengageMethod,
    Enemy,
    can_try_disengaging,
    disengage_difficulty,
    disengage_value,
)
from confrontation.rules.movement import default_movement_table

EXCLUSIVE = ("run", "charge", "engage", "cover")
"""IV-B-2: the exclusive actions (all of them movement actions of chapter V)."""


# --- what a fighter may do ----------------------------------------------------------------------


def _enemies(state: GameState, here: Field, fighter_id: str) -> list[str]:
    me = here.owners[fighter_id]
    level = state.fighter(fighter_id).altitude
    return [i for i in here.ids() if here.owners[i] != me and state.fighter(i).altitude == level]


def disengage_methods(state: GameState, here: Field, fighter_id: str) -> list[str]:
    """V-C: the ways this fighter may try to disengage now (none if he may not)."""
    fighter = state.fighter(fighter_id)
    foes = here.enemies_in_contact(fighter_id)
    if not can_try_disengaging(len(foes), limit_of(state, fighter_id), fighter.attacked):
        return []
    methods = [DisengageMethod.AGILITY.value]
    if _disengage_value(state, fighter, foes, DisengageMethod.FORCE) is not None:
        methods.append(DisengageMethod.FORCE.value)
    return methods


def _disengage_value(
    state: GameState, fighter: Fighter, foes: Sequence[str], method: DisengageMethod
) -> int | None:
    enemies = [
        Enemy(state.profile(state.fighter(e).profile).size_value, _str(state, e)) for e in foes
    ]
    return disengage_value(
        method,
        current(state, fighter, Characteristic.INI),
        current(state, fighter, Characteristic.STR),
        state.profile(fighter.profile).size_value,
        enemies,
    )


def _str(state: GameState, fighter_id: str) -> int:
    return current(state, state.fighter(fighter_id), Characteristic.STR)


def _announced(activation: Activation) -> set[str]:
    return {a.fighter for a in activation.exclusive}


def _active(state: GameState, activation: Activation) -> list[str]:
    here = field_of(state)
    return [f for f in activation.fighters if f in here.battlefield.fighters]


def _assault(here: Field, fighter_id: str, enemy: str, shooter: bool) -> tuple[Choice, ...]:
    """The announcements of an assault of ``fighter_id`` on ``enemy`` free of contact."""
    if here.sees(fighter_id, enemy):  # V-B-3: seen at the start, a charge
        charge = Announce(fighter_id, "charge", enemy)
        return (charge, Announce(fighter_id, "charge", enemy, shoot=True)) if shooter else (charge,)
    return (Announce(fighter_id, "engage", enemy),)


def announce_choices(state: GameState, activation: Activation) -> LazyChoices:
    """IV-B-2: the exclusive actions the activated fighters may announce (V-B, V-C).

    Whether an assault is a charge or an engagement (a sight question, V-B-3) is worked out
    only when the list is read there (:class:`~.deferred.Deferred`): a non-shooter's assault
    is one announcement either way, so the list's length does not need it."""
    here = field_of(state)
    choices: list[Part] = []
    announced = _announced(activation)
    obliged = False
    full: dict[str, bool] = {}  # II-E-3 per enemy (the same for every fighter free of contact)
    for f in _active(state, activation):
        if f in announced:
            continue
        fighter = state.fighter(f)
        profile = state.profile(fighter.profile)
        mine: list[Part] = []
        # XX-E-6: a passive individual makes no assault; beyond his leash he is not moved
        assaults = not fighter.passive
        moves = f not in activation.tethered
        if free(here, f):
            if fighter.must_cover:  # V-B-4 note, VI-A-2: he must move under cover
                choices.append(Announce(f, "cover"))
                obliged = True
                continue
            if movement(state, fighter) > 0 and moves:
                mine += [Announce(f, "run"), Announce(f, "cover")]
                for e in _enemies(state, here, f) if assaults else ():
                    if e not in full:
                        full[e] = is_full(state, here, e)
                    if full[e]:  # II-E-3: no room for one more enemy
                        continue
                    shooter = profile.shooter
                    make = partial(_assault, here, f, e, shooter)
                    mine.append(Deferred((f, e), make, None if shooter else 1, least=1))
        elif movement(state, fighter) > 0 and assaults:
            for method in disengage_methods(state, here, f):
                for e in _enemies(state, here, f):
                    if not is_full(state, here, e, leaving=(f,)):  # II-E-3
                        mine.append(Announce(f, "engage", e, method=method))
        choices += mine
    if not obliged:
        choices.append(AnnouncementsDone())
    return LazyChoices(choices)


def cumulative_choices(state: GameState, activation: Activation) -> list[Choice]:
    """The walks (V-B-1) of the fighters not busy with an exclusive action, and "done" for
    the fighter playing his cumulative actions (IV-B-2)."""
    here = field_of(state)
    choices: list[Choice] = []
    announced = _announced(activation)
    for f in _active(state, activation):
        if f in announced or f in activation.done:
            continue
        if activation.acting is not None and activation.acting != f:
            continue
        fighter = state.fighter(f)
        if f == activation.acting:
            choices.append(FighterDone(f))
        if fighter.walked or f in activation.still or movement(state, fighter) <= 0:
            continue
        if f in activation.tethered:  # XX-E-6: beyond 15 cm of every defender
            continue
        if free(here, f):
            choices.append(Walk(f))
        else:
            choices += [Walk(f, m) for m in disengage_methods(state, here, f)]
    return choices


# --- the provider ----------------------------------------------------------------------------


class MovementProvider:
    """Chapter V for the activation question (the ruleset's action provider ``movement``)."""

    def choices(self, state: GameState, activation: Activation) -> Sequence[Choice]:
        if not has_field(state) or activation.action is not None:
            return []
        if activation.stage == ActivationStage.ANNOUNCE:
            return announce_choices(state, activation)
        if activation.stage == ActivationStage.CUMULATIVE:
            return cumulative_choices(state, activation)
        return []

    def handles(self, choice: Choice) -> bool:
        return isinstance(choice, Announce | AnnouncementsDone | Walk | FighterDone)

    def apply(self, state: GameState, choice: Choice) -> Transition:
        activation = activation_of(state)
        if isinstance(choice, Announce):
            announcement = Announcement(
                choice.fighter, choice.action, choice.target, choice.method, choice.shoot
            )
            state = with_activation(
                state,
                evolve(activation, exclusive=(*activation.exclusive, announcement)),
            )
            event = ActionAnnounced(
                choice.fighter, choice.action, choice.target, choice.method, choice.shoot
            )
            return state, [event]
        if isinstance(choice, AnnouncementsDone):
            cleared = [
                evolve(state.fighter(f), must_cover=False)
                for f in activation.fighters
                if state.fighter(f).must_cover
            ]
            state = state.with_fighters(*cleared)
            state = with_activation(state, evolve(activation, stage=ActivationStage.SHOTS, index=0))
            return next_exclusive(state)
        if isinstance(choice, FighterDone):
            done = evolve(activation, done=(*activation.done, choice.fighter), acting=None)
            return with_activation(state, done), []
        assert isinstance(choice, Walk)
        fighter = state.fighter(choice.fighter)
        state = with_activation(state, evolve(activation, acting=choice.fighter))
        action = ActionInProgress(
            "walk",
            choice.fighter,
            stage=ActionStage.DESTINATION,
            potential=potential_of(state, fighter, "walk", False),
            method=choice.method,
        )
        state = actions.with_action(state, action)
        announced = ActionAnnounced(choice.fighter, "walk", None, choice.method)
        if choice.method is not None:
            state, events = _start_disengagement(state)
            return state, [announced, *events]
        return ask(state, QuestionKind.DESTINATION, fighter.player), [announced]

    def option(self, state: GameState, choice: Choice) -> Option:
        """How a movement choice reads to a player (no distances: IV-B-2)."""
        if isinstance(choice, AnnouncementsDone):
            return Option(choice, "no more exclusive actions", "resolve those announced")
        if isinstance(choice, FighterDone):
            return Option(choice, f"{_name(state, choice.fighter)} has finished")
        if isinstance(choice, Walk):
            how = f", disengaging by {choice.method}" if choice.method else ""
            mov = movement(state, state.fighter(choice.fighter))
            return Option(choice, f"{_name(state, choice.fighter)} walks{how}", f"up to {mov:g} cm")
        assert isinstance(choice, Announce)
        verb = default_movement_table()[choice.action].name.lower()
        label = f"{_name(state, choice.fighter)}: {verb}"
        if choice.target is not None:
            label += f" {_name(state, choice.target)}"
        details = []
        if choice.method:
            details.append(f"disengaging by {choice.method} first (V-C)")
        if choice.shoot:
            details.append("with an assault shot (VI-B-3)")
        return Option(choice, label, "; ".join(details))


def _name(state: GameState, fighter_id: str) -> str:
    return f"{state.profile(state.fighter(fighter_id).profile).name} ({fighter_id})"


# --- resolving the exclusive actions -------------------------------------------------------------


def next_exclusive(state: GameState) -> Transition:
    """VI-B-3 then IV-B-2: the announced assault shots, then the exclusive actions in the
    order announced, then the cumulative actions."""
    # Imported here, not at the top, only so that importing this module does not register
    # shooting's action provider before movement's: the providers are offered in the order
    # they registered (the rules value will say that order itself). Not a cycle: shooting
    # does not import this module.
    from confrontation.engine.actions.shooting import start_assault_shot

    activation = activation_of(state)
    if activation.stage == ActivationStage.SHOTS:
        index = activation.index
        while index < len(activation.exclusive):
            announcement = activation.exclusive[index]
            index += 1
            if announcement.shoot and state.fighter(announcement.fighter).in_play:
                state = with_activation(state, evolve(activation, index=index))
                return start_assault_shot(state, announcement)
        activation = evolve(activation, stage=ActivationStage.MOVES, index=0)
        state = with_activation(state, activation)
    if activation.stage == ActivationStage.MOVES:
        index = activation.index
        while index < len(activation.exclusive):
            announcement = activation.exclusive[index]
            index += 1
            if state.fighter(announcement.fighter).in_play:
                state = with_activation(state, evolve(activation, index=index))
                return _start_exclusive(state, announcement)
        state = with_activation(
            state, evolve(activation, stage=ActivationStage.CUMULATIVE, index=0)
        )
    return state, []


def _start_exclusive(state: GameState, announcement: Announcement) -> Transition:
    fighter = state.fighter(announcement.fighter)
    disengaging = announcement.method is not None
    action = ActionInProgress(
        announcement.action,
        fighter.id,
        stage=ActionStage.DESTINATION,
        target=announcement.target,
        potential=potential_of(state, fighter, announcement.action, disengaging),
        method=announcement.method,
    )
    state = actions.with_action(state, action)
    if element_of(announcement.target) is not None:  # C3: an assault on scenery
        return rules_of(state).resumes["assault_scenery"](state)
    if announcement.action in ("run", "cover"):
        return ask(state, QuestionKind.DESTINATION, fighter.player), []
    if disengaging:
        return _start_disengagement(state)
    return assault(state)


# --- disengagement (V-C) -----------------------------------------------------------------------


def _start_disengagement(state: GameState) -> Transition:
    action = action_of(state)
    fighter = state.fighter(action.fighter)
    here = field_of(state)
    foes = here.enemies_in_contact(fighter.id)
    if not foes:  # V-C, docs/rulings.md: the enemy fell since the announcement: no test
        potential = potential_of(state, fighter, action.kind, False)
        state = update(state, method=None, potential=potential)
        if action.kind == "walk":
            return ask(state, QuestionKind.DESTINATION, fighter.player), []
        return assault(state)
    method = DisengageMethod(action.method)
    value = _disengage_value(state, fighter, foes, method)
    if value is None:  # the situation changed since it was offered: no attempt possible
        return _disengage_failed(state)
    difficulty = disengage_difficulty(len(foes))
    state = update(state, stage=ActionStage.DISENGAGE)
    return actions.start_test(state, "disengagement", fighter.player, value, difficulty), []


def _disengage_failed(state: GameState) -> Transition:
    action = action_of(state)
    fighter = evolve(state.fighter(action.fighter), defence=True)
    if action.kind == "walk":
        fighter = evolve(fighter, walked=True)
    state = state.with_fighters(fighter)
    state, events = finish(state)
    if action.kind == "walk":
        state = _done(state, action.fighter)
    return state, [DisengageFailed(action.fighter, action.method or ""), *events]


def _done(state: GameState, fighter_id: str) -> GameState:
    activation = activation_of(state)
    return with_activation(
        state, evolve(activation, done=(*activation.done, fighter_id), acting=None)
    )


def resume(state: GameState) -> Transition:
    """After the disengagement test (V-C)."""
    action = action_of(state)
    assert action.test is not None
    if not action.test.success:
        return _disengage_failed(state)
    event = Disengaged(action.fighter, action.method or "")
    state = update(state, test=None, stage=ActionStage.DESTINATION)
    if action.kind == "walk":
        return ask(state, QuestionKind.DESTINATION, state.fighter(action.fighter).player), [event]
    state, events = assault(state)
    return state, [event, *events]


# --- destinations of a walk, run or move under cover ----------------------------------------------


def _destination_spots(state: GameState) -> list[Place]:
    action = action_of(state)
    here = field_of(state)
    mover = action.fighter
    if mover in activation_of(state).tethered:
        return []  # XX-E-6: he cannot be moved (a move under cover he owes: he stays)
    spots = destinations(
        state,
        mover,
        action.potential,
        pass_through=pass_through(state, here, mover),
        mov=_crossing_budget(state),
    )
    if leashed(state, mover):  # XX-E-6: he ends within 15 cm of a defender
        template = here.base(mover)
        spots = [
            s
            for s in spots
            if near_a_defender(state, mover, template.moved(s.x, s.y, s.facing), here)
        ]
    return [Place(s.x, s.y, s.facing) for s in spots]


SIGHT_MATCH_CM = 0.001
"""A turned place keeps the sight of its listed destination to this much (its centre is
stored to 0.001 mm)."""


def turned(state: GameState, place: Place, facing: float) -> Place:
    """``place`` (a destination of the walk, run or move under cover under way) turned to
    ``facing`` degrees about its sight: "any rotation of the fighter's base around his sight
    is free" (V-A), "at the end of a walk a fighter can be turned in any direction" (V-B-1).
    ``step`` accepts it when ``facing`` is in [0, 360) and the turned base stands legally."""
    template = field_of(state).base(action_of(state).fighter)
    sight = template.moved(place.x, place.y, place.facing).sight
    base = placed(template, sight, facing)
    return Place(round(base.x, 4), round(base.y, 4), facing)


def facing_options(state: GameState, place: Place) -> list[tuple[str, float]]:
    """The sensible facings at ``place`` for a person, (label, degrees): as offered, towards
    each enemy on the table (nearest first), straight at the median line (towards the
    enemy's table edge), as he stood. Any other angle may be given too (:func:`turned`)."""
    action = action_of(state)
    here = field_of(state)
    fighter = state.fighter(action.fighter)
    sight = here.base(fighter.id).moved(place.x, place.y, place.facing).sight
    out = [("as offered", place.facing)]
    foes = [i for i in here.ids() if here.owners[i] != fighter.player]
    for foe in sorted(foes, key=lambda i: math.dist(here.base(i).centre, sight)):
        x, y = here.base(foe).centre
        angle = math.degrees(math.atan2(y - sight[1], x - sight[0])) % 360.0
        out.append((f"towards {_name(state, foe)}", round(angle, 1) % 360.0))
    out.append(("the median line", median_facing(state, fighter.player)))
    out.append(("as he stood", fighter.facing % 360.0))
    return out


def _destination_free(state: GameState, choice: Choice) -> str | None:
    """V-B-1, V-B-2 (CLARIFICATIONS §9 "the controlling player chooses the facing freely"):
    a listed destination turned about its sight to any facing in [0, 360)."""
    if not isinstance(choice, Place):
        return f"{choice!r} is not a legal answer to 'destination'"
    facing = choice.facing
    if not (isinstance(facing, int | float) and math.isfinite(facing) and 0 <= facing < 360):
        return f"a facing is an angle of at least 0° and less than 360°, not {facing!r}"
    action = action_of(state)
    here = field_of(state)
    template = here.base(action.fighter)
    base = template.moved(choice.x, choice.y, facing)
    listed = (template.moved(p.x, p.y, p.facing).sight for p in _destination_spots(state))
    if not any(math.dist(sight, base.sight) <= SIGHT_MATCH_CM for sight in listed):
        return (
            f"({choice.x:g}, {choice.y:g}) facing {facing:g}° is no listed destination turned "
            "about its sight (V-A, V-B-1)"
        )
    # V-A: he may stand on a landform of his size when he moved at most MOV x 1 (a straight
    # move from where he stands, CLARIFICATIONS §9)
    moved = math.dist(template.sight, base.sight)
    within = moved <= _crossing_budget(state) + 1e-6
    problem = here.spot_problem(action.fighter, base, enemies_apart=True, at_most_mov=within)
    if problem is not None:
        return f"turned to {facing:g}° his base would be {problem}"
    if leashed(state, action.fighter) and not near_a_defender(state, action.fighter, base, here):
        return f"turned to {facing:g}° he would end beyond 15 cm of every defender (XX-E-6)"
    refused = spot_refusal(state, action.fighter, base)  # XX-D-1: e.g. on a token
    if refused is not None:
        return f"turned to {facing:g}° his base would be {refused}"
    return None


def _destination_legal(state: GameState) -> list[Choice]:
    spots: list[Choice] = list(_destination_spots(state))
    if not spots or action_of(state).kind != "walk":
        spots.append(Redirect())  # stay where he is (a run or cover may fail to find room)
    return spots


def _destination_apply(state: GameState, choice: Choice) -> Transition:
    action = action_of(state)
    fighter = state.fighter(action.fighter)
    if isinstance(choice, Redirect):  # stays
        changed = fighter
        if action.kind == "walk":
            changed = evolve(fighter, walked=True)
        elif action.kind == "cover":
            changed = evolve(fighter, cover=True, must_cover=False)
        state, events = finish(state.with_fighters(changed))
        return state, events
    assert isinstance(choice, Place)
    here = field_of(state)
    before = here.base(fighter.id)
    after = before.moved(choice.x, choice.y, choice.facing)
    travelled = round(math.dist(before.sight, after.sight), 2)
    changed = evolve(fighter, x=choice.x, y=choice.y, facing=choice.facing)
    if action.kind == "walk":
        changed = evolve(changed, walked=True)
    if action.kind == "cover":  # V-B-4: Target/+2 until his next activation
        changed = evolve(changed, cover=True, must_cover=False)
    state = mark_moved(state.with_fighters(changed), fighter.id)
    moved = Moved(fighter.id, action.kind, choice.x, choice.y, choice.facing, travelled)
    state, events = finish(state)
    return state, [moved, *events]


def _destination_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    action = action_of(state)
    fighter = state.fighter(action.fighter)
    here = field_of(state)
    before = here.base(fighter.id)
    enemies = [here.base(i) for i in _enemies(state, here, fighter.id)]
    options = []
    for c in choices:
        if isinstance(c, Redirect):
            options.append(Option(c, "stay where he is"))
            continue
        assert isinstance(c, Place)
        after = before.moved(c.x, c.y, c.facing)
        detail = f"{math.dist(before.sight, after.sight):.1f} cm"
        if enemies:
            near = min(distance(after, e) for e in enemies)
            detail += f"; {near:.1f} cm from the nearest enemy"
        options.append(Option(c, f"to ({c.x:g}, {c.y:g}) facing {c.facing:g}°", detail))
    verb = default_movement_table()[action.kind].name.lower()
    prompt = (
        f"{player_name(fighter.player)}: {_name(state, fighter.id)} — {verb}, up to "
        f"{action.potential:g} cm. Where to?"
    )
    free = FREE_FACING if any(isinstance(c, Place) for c in choices) else None
    return Question(QuestionKind.DESTINATION, fighter.player, prompt, tuple(options), free)


# --- assaults (V-B-3) ---------------------------------------------------------------------------


def _crossing_budget(state: GameState) -> float:
    """V-A, CLARIFICATIONS §9: how much farther the acting fighter may move and still cross
    landforms of his size — MOV x 1 less what this movement has already covered (a redirected
    assault, V-B-3)."""
    action = action_of(state)
    return max(movement(state, state.fighter(action.fighter)) - action.moved, 0.0)


def _path(
    state: GameState, here: Field, goal: tuple[float, float] | str, reach: float = math.inf
) -> Path | None:
    """V-A: the most direct legal way of the acting fighter's move to ``goal``; it crosses
    landforms of his size only if he moves at most MOV x 1 along it (its length, or his
    potential if that is shorter: CLARIFICATIONS §9). ``reach``: only wanted within it."""
    action = action_of(state)
    mover = action.fighter
    return here.move_path(
        mover,
        goal,
        pass_through(state, here, mover),
        mov=_crossing_budget(state),
        potential=action.potential,
        reach=reach,
    )


BOUNDED_ASSAULT = True
"""Search an assault's path within the potential first (:func:`_assault_path`); off in the
tests that play games both ways."""


def _assault_path(state: GameState, here: Field, target: str) -> Path | None:
    """V-B-3: :func:`_path` to ``target``, asked first within the potential: a path found
    within a reach is the one found without it (``Field.path``), and the bounded search
    leaves out what lies beyond the reach; only an assault that falls short (its path
    measured, then followed for the whole potential) needs the unbounded search."""
    if BOUNDED_ASSAULT:
        within = _path(state, here, target, reach=action_of(state).potential + 1e-6)
        if within is not None:
            return within
    return _path(state, here, target)


def _placements(state: GameState, here: Field, mover: str, target: str) -> list[ContactPlacement]:
    """Places in contact with ``target`` (V-B-3), the nearest first, then one in contact
    with each other enemy close enough to be charged too ("charging several enemies")."""
    action = action_of(state)
    if is_full(state, here, target, leaving=(mover,)):
        return []  # II-E-3: he may take no more enemies (the assault falls short)
    path = _path(state, here, target)
    if path is None:
        return []
    within = placement_filter(state, here, mover, target)  # II-E-3, every place offered
    first = here.contact_position(mover, target, reference=path.end, accept=within)
    budget = _crossing_budget(state)
    if first is None or not _placement_ok(here, first, path.length <= budget + 1e-6):
        return []
    out = [first]
    target_base = here.base(target)
    mover_base = here.base(mover)
    for other in _enemies(state, here, mover):
        if other == target:
            continue
        other_base = here.base(other)
        if distance(target_base, other_base) > mover_base.width + 0.5:
            continue
        if in_contact(first.base, other_base) or is_full(state, here, other, leaving=(mover,)):
            continue
        extra = here.contact_position(mover, target, reference=other_base.centre, accept=within)
        if extra is None or not in_contact(extra.base, other_base):
            continue
        to = _path(state, here, extra.base.sight, reach=action.potential + 1e-6)
        if to is None or to.length > action.potential + 1e-6:
            continue
        if _placement_ok(here, extra, to.length <= budget + 1e-6):
            out.append(extra)
    return out


def _placement_ok(here: Field, placement: ContactPlacement, within_mov: bool) -> bool:
    """On the table and on no scenery he may not stand on: a landform of his size only at
    the end of a movement of at most MOV x 1 (``within_mov``; V-A, docs/rulings.md "V-A —
    ending a movement on a landform")."""
    base = placement.base
    if not on_area(here.table.area, base.polygon):
        return False
    for shape in here.blocked_for(base.size, within_mov):
        if base.polygon.intersection(shape).area > 1e-4:
            return False
    return True


def assault(state: GameState) -> Transition:
    """V-B-3: measure, then in contact or the whole potential towards the target."""
    action = action_of(state)
    target = action.target
    assert target is not None
    if not state.fighter(target).in_play:
        return _target_gone(state)
    here = field_of(state)
    path = _assault_path(state, here, target)
    measured = None if path is None else round(path.length, 2)
    if path is not None and path.length <= action.potential + 1e-6:
        placements = _placements(state, here, action.fighter, target)
        if len(placements) > 1:
            state = update(state, stage=ActionStage.CONTACT)
            return ask(
                state, QuestionKind.ASSAULT_CONTACT, state.fighter(action.fighter).player
            ), []
        if placements:
            return _in_contact(state, placements[0], path.length)
    return _fall_short(state, measured)


def _along(
    state: GameState, here: Field, path: Path | None, short_by: float
) -> tuple[GameState, float, list[Event]]:
    """V-B-3: the acting fighter follows ``path`` for his whole potential, stopping
    ``short_by`` cm before its end, and 0.5 cm less at a time while the spot is not legal.
    The new state, the distance moved (0: he stays) and the ``Moved`` event, if any."""
    if path is None:
        return state, 0.0, []
    action = action_of(state)
    base = here.base(action.fighter)
    travel = min(action.potential, max(path.length - short_by, 0.0))
    while travel > 0.05:
        spot = rounded(placed(base, path.point_at(travel), path.heading_at(travel)))
        if here.spot_problem(action.fighter, spot, enemies_apart=True) is None:
            fighter = evolve(state.fighter(action.fighter), x=spot.x, y=spot.y, facing=spot.facing)
            state = mark_moved(state.with_fighters(fighter), fighter.id)
            moved = round(travel, 2)
            return (
                state,
                moved,
                [Moved(fighter.id, action.kind, spot.x, spot.y, spot.facing, moved)],
            )
        travel -= 0.5
    return state, 0.0, []


def _fall_short(state: GameState, measured: float | None) -> Transition:
    """V-B-3: too far — the whole potential in the direction of the target."""
    action = action_of(state)
    assert action.target is not None
    here = field_of(state)
    path = _path(state, here, action.target)
    state, moved, events = _along(state, here, path, short_by=0.5)
    fell = AssaultFellShort(action.fighter, action.target, measured, moved)
    state, after = finish(state)
    return state, [fell, *events, *after]


def _in_contact(state: GameState, placement: ContactPlacement, travelled: float) -> Transition:
    action = action_of(state)
    here = field_of(state)
    mover = action.fighter
    others = [i for i in here.battlefield.fighters if i not in (mover, action.target)]
    changed: list[Fighter] = []
    for index, base in placement.pushed:  # II-E-1: fighters in contact pushed a little
        pushed = state.fighter(others[index])
        changed.append(evolve(pushed, x=round(base.x, 4), y=round(base.y, 4)))
    base = placement.base
    fighter = evolve(
        state.fighter(mover), x=round(base.x, 4), y=round(base.y, 4), facing=round(base.facing, 3)
    )
    changed.append(fighter)
    state = mark_moved(state.with_fighters(*changed), mover)
    here = field_of(state)
    targets = tuple(sorted(here.enemies_in_contact(mover)))
    if action.target not in targets:  # contact rules refused the place after all
        return _fall_short(state, round(travelled, 2))
    attacked = [evolve(state.fighter(t), attacked=True) for t in targets]
    state = state.with_fighters(*attacked)
    distance_cm = round(travelled, 2)
    if action.kind == "engage":
        state, after = finish(state)
        return state, [Engaged(mover, targets, distance_cm), *after]
    return _charged(state, targets, distance_cm)


def _charged(state: GameState, targets: tuple[str, ...], travelled: float) -> Transition:
    """V-B-3 charge penalties: the cumulative Power of this round's chargers."""
    action = action_of(state)
    mover = state.fighter(action.fighter)
    power = state.profile(mover.profile).power
    record = ChargeRecord(
        state.round,
        mover.id,
        power,
        tuple((t, state.profile(state.fighter(t).profile).power) for t in targets),
    )
    state = evolve(state, charges=(*state.charges, record))
    charges = [Charge(c.round, c.charger, c.power, dict(c.targets)) for c in state.charges]
    penalised = penalised_fighters(charges, state.round)
    newly = tuple(sorted(f for f in penalised if not state.fighter(f).charged))
    state = state.with_fighters(*(evolve(state.fighter(f), charged=True) for f in newly))
    event = Charged(mover.id, targets, travelled, newly)
    if _rotation_sets(state):
        state = update(state, stage=ActionStage.ROTATE)
        return ask(state, QuestionKind.ROTATE_CHARGED, mover.player), [event]
    state, after = finish(state)
    return state, [event, *after]


def _turned(here: Field, charger: Base, fighter_id: str) -> Base:
    base = here.base(fighter_id)
    return rounded(base.facing_point(*charger.centre))


def _rotation_sets(state: GameState) -> list[tuple[str, ...]]:
    """V-B-3: the sets of charged fighters a charger on a square base may turn to face him:
    free of any other contact, total Power at most his, nothing else moves (the turned bases
    overlap nothing and stay in contact)."""
    action = action_of(state)
    here = field_of(state)
    charger = here.base(action.fighter)
    if charger.shape != "square":
        return []
    charged = {}
    for t in here.enemies_in_contact(action.fighter):
        alone = here.contacts(t) == [action.fighter]
        turned = _turned(here, charger, t)
        if abs((turned.facing - here.base(t).facing + 180) % 360 - 180) < 1.0:
            continue  # already facing him
        ok = alone and here.spot_problem(t, turned, enemies_apart=False) is None
        ok = ok and in_contact(turned, charger)
        power = state.profile(state.fighter(t).profile).power
        charged[t] = (power, ok)
    power = state.profile(state.fighter(action.fighter).profile).power
    sets = rotatable_sets(power, charged)
    return [
        tuple(sorted(s))
        for s in sets
        if _jointly_ok(here, charger, tuple(sorted(s)))
        # II-E-3: a turned base touching new enemies keeps everybody within his limit
        and placement_problem(state, here, {t: _turned(here, charger, t) for t in s}) is None
    ]


def _jointly_ok(here: Field, charger: Base, group: tuple[str, ...]) -> bool:
    turned = [_turned(here, charger, t) for t in group]
    for i, a in enumerate(turned):
        for b in turned[i + 1 :]:
            if a.polygon.intersection(b.polygon).area > 1e-4:
                return False
    return True


def _rotate_legal(state: GameState) -> list[Choice]:
    choices: list[Choice] = [RotateCharged(())]
    return choices + [RotateCharged(s) for s in _rotation_sets(state)]


def _rotate_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, RotateCharged)
    action = action_of(state)
    events: list[Event] = []
    if choice.fighters:
        here = field_of(state)
        charger = here.base(action.fighter)
        turned = []
        for t in choice.fighters:
            base = _turned(here, charger, t)
            turned.append(evolve(state.fighter(t), facing=base.facing))
        state = state.with_fighters(*turned)
        events.append(FightersRotated(action.fighter, choice.fighters))
    state, after = finish(state)
    return state, events + after


def _rotate_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    action = action_of(state)
    options = []
    for c in choices:
        assert isinstance(c, RotateCharged)
        if not c.fighters:
            options.append(Option(c, "turn nobody"))
        else:
            names = ", ".join(_name(state, f) for f in c.fighters)
            options.append(Option(c, f"turn {names} to face the charger"))
    player = state.fighter(action.fighter).player
    prompt = f"{player_name(player)}: turn the fighters {_name(state, action.fighter)} charged?"
    return Question(QuestionKind.ROTATE_CHARGED, player, prompt, tuple(options))


def _contact_legal(state: GameState) -> list[Choice]:
    action = action_of(state)
    assert action.target is not None
    here = field_of(state)
    return [
        Place(round(p.base.x, 4), round(p.base.y, 4), round(p.base.facing, 3))
        for p in _placements(state, here, action.fighter, action.target)
    ]


def _contact_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, Place)
    action = action_of(state)
    assert action.target is not None
    here = field_of(state)
    for p in _placements(state, here, action.fighter, action.target):
        if (round(p.base.x, 4), round(p.base.y, 4), round(p.base.facing, 3)) == (
            choice.x,
            choice.y,
            choice.facing,
        ):
            path = _path(state, here, action.target)
            assert path is not None
            return _in_contact(state, p, path.length)
    raise AssertionError("a legal contact place was not found again")


def _contact_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    action = action_of(state)
    here = field_of(state)
    me = here.owners[action.fighter]
    template = here.base(action.fighter)
    options = []
    for c in choices:
        assert isinstance(c, Place)
        base = template.moved(c.x, c.y, c.facing)
        touched = [i for i in here.ids() if here.owners[i] != me and in_contact(base, here.base(i))]
        options.append(Option(c, "in contact with " + ", ".join(_name(state, t) for t in touched)))
    player = state.fighter(action.fighter).player
    prompt = f"{player_name(player)}: where does {_name(state, action.fighter)} make contact?"
    return Question(QuestionKind.ASSAULT_CONTACT, player, prompt, tuple(options))


# --- redirecting a failed assault (V-B-3) -------------------------------------------------


def _target_gone(state: GameState) -> Transition:
    """The target is gone: go to where it stood, then redirect, stay or run (V-B-3)."""
    action = action_of(state)
    assert action.target is not None
    gone = state.fighter(action.target)
    here = field_of(state)
    path = _path(state, here, (gone.x, gone.y))
    state, moved, events = _along(state, here, path, short_by=1.5)
    state = update(
        state,
        stage=ActionStage.REDIRECT,
        potential=max(action.potential - moved, 0.0),
        moved=action.moved + moved,  # V-A: counted towards MOV x 1 for crossing
    )
    return ask(state, QuestionKind.REDIRECT, state.fighter(action.fighter).player), events


def _redirect_legal(state: GameState) -> list[Choice]:
    action = action_of(state)
    here = field_of(state)
    choices: list[Choice] = [Redirect()]
    if action.potential > 0.05:
        choices.append(Redirect(run=True))
        choices += [
            Redirect(e)
            for e in _enemies(state, here, action.fighter)
            if not is_full(state, here, e)  # II-E-3
        ]
    return choices


def _redirect_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, Redirect)
    action = action_of(state)
    event = AssaultRedirected(action.fighter, choice.to, choice.run, round(action.potential, 2))
    if choice.to is None and not choice.run:
        state, after = finish(state)
        return state, [event, *after]
    if choice.run:
        state = update(state, kind="run", stage=ActionStage.DESTINATION, target=None)
        return ask(state, QuestionKind.DESTINATION, state.fighter(action.fighter).player), [event]
    here = field_of(state)
    assert choice.to is not None
    original = AssaultKind.CHARGE if action.kind == "charge" else AssaultKind.ENGAGE
    kind = redirected_kind(original, here.sees(action.fighter, choice.to))
    state = update(state, kind=kind.value, target=choice.to, stage=ActionStage.DESTINATION)
    state, after = assault(state)
    return state, [event, *after]


def _redirect_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    action = action_of(state)
    options = []
    for c in choices:
        assert isinstance(c, Redirect)
        if c.run:
            options.append(
                Option(c, "turn the assault into a run", f"{action.potential:.1f} cm left")
            )
        elif c.to is None:
            options.append(Option(c, "stay where he is"))
        else:
            options.append(Option(c, f"redirect the assault on {_name(state, c.to)}"))
    player = state.fighter(action.fighter).player
    prompt = (
        f"{player_name(player)}: the target of {_name(state, action.fighter)} is gone. "
        "Redirect the assault?"
    )
    return Question(QuestionKind.REDIRECT, player, prompt, tuple(options))


def contribute(rules: RulesBuilder) -> None:
    """Moves, charges and engagements (chapter V): the action provider, resumes, questions."""
    rules.resume("next_exclusive", next_exclusive)
    for kind in ("walk", "engage", "charge"):
        rules.resume(kind, resume)
    rules.action_provider("movement", MovementProvider())
    rules.contacts(enemy_contacts)
    rules.handler(
        Handler(
            QuestionKind.DESTINATION,
            _destination_legal,
            _destination_apply,
            _destination_describe,
            free=_destination_free,
        )
    )
    rules.handler(
        Handler(QuestionKind.ASSAULT_CONTACT, _contact_legal, _contact_apply, _contact_describe)
    )
    rules.handler(
        Handler(QuestionKind.ROTATE_CHARGED, _rotate_legal, _rotate_apply, _rotate_describe)
    )
    rules.handler(
        Handler(QuestionKind.REDIRECT, _redirect_legal, _redirect_apply, _redirect_describe)
    )
