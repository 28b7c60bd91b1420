"""Shooting (chapter VI) as the engine's action provider.

A shot (VI-A) is a cumulative action: :class:`~.questions.Shoot` names the target (one the
shooter sees, II-D) and whether the shooter will stay still this activation (the unmoving
shot, VI-B-2: he may then no longer walk). The engine then, in the book's order:

1. asks the target's player whether he moves to cover (VI-A-2: not yet activated, free of
   any enemy) — Target/+2 for the shot, and he must move under cover when activated;
2. measures (VI-A-1): beyond the long range the shot fails at once;
3. works out the difficulty (VI-A-3, ``rules.shooting.shot_difficulty``) and rolls the
   Shooting test as chance steps, asking about every 6 (II-A-1);
4. on a hit at an enemy in contact with the shooter's friends, rolls the distribution d6
   (VI-B-1; equidistant friends: their player chooses; in a melee of more than two sides the
   nearest fighter of a side other than the target's, XX-F-4);
5. rolls the wound (two chance steps) with the weapon's Strength, one row down for an
   unmoving shot (VI-B-2).

Assault shots (VI-B-3) are started by the movement module before any figure moves:
:func:`start_assault_shot` — sight at the start, aimed at the assault's target, measured
against the assault's reach, base difficulty 7 whatever the range.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import partial

from confrontation.dice import FACES
from confrontation.engine.actions import shared as actions
from confrontation.engine.actions.shared import (
    action_of,
    activation_of,
    apply_wound_roll,
    ask,
    finish,
    start_test,
    start_wound,
    update,
    with_activation,
)
from confrontation.engine.core.deferred import Deferred, LazyChoices, Part
from confrontation.engine.core.events import (
    ActionAnnounced,
    Event,
    ShotFired,
    ShotHit,
    ShotMissed,
    TookCover,
)
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import (
    Choice,
    ChooseVictim,
    DieFace,
    Option,
    Question,
    Shoot,
    TakeCover,
)
from confrontation.engine.core.registry import Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import (
    ActionInProgress,
    ActionStage,
    Activation,
    ActivationStage,
    Announcement,
    Fighter,
    GameState,
    player_name,
)
from confrontation.engine.table.field import (
    Field,
    current,
    field_of,
    has_field,
    movement,
    pass_through,
    potential_of,
    shot_distance,
)
from confrontation.geometry.measure import distance
from confrontation.geometry.sight import Sight
from confrontation.rules.characteristics import Characteristic
from confrontation.rules.shooting import (
    Difficulty,
    ShotTarget,
    assault_shot_difficulty,
    distribution_victims,
    p_hit,
    range_band,
    shot_difficulty,
    unmoving_shot,
)


def _name(state: GameState, fighter_id: str) -> str:
    return f"{state.profile(state.fighter(fighter_id).profile).name} ({fighter_id})"


def _shots(here: Field, shooter: str, target: str, may_stay: bool) -> tuple[Choice, ...]:
    """The shots of ``shooter`` at ``target``: none unless he sees him (VI-A)."""
    if not here.sees(shooter, target):
        return ()
    if may_stay:
        return (Shoot(shooter, target), Shoot(shooter, target, still=True))
    return (Shoot(shooter, target),)


def shot_target(
    state: GameState, here: Field, shooter: str, target: str, partial: bool | None = None
) -> ShotTarget:
    """VI-A-3: what the difficulty needs to know about the target (``partial``: taken as
    partially visible or not, without looking; None: as the shooter sees him)."""
    fighter = state.fighter(target)
    profile = state.profile(fighter.profile)
    if partial is None:
        partial = here.sight(shooter, target) is Sight.PARTIAL
    return ShotTarget(
        size=profile.size_value,
        partially_visible=partial,
        other_altitude=fighter.altitude != state.fighter(shooter).altitude,
        target_bonus=profile.target,
        in_cover=fighter.cover or fighter.must_cover,
    )


def difficulty_of(
    state: GameState, shooter: str, target: str, partial: bool | None = None
) -> Difficulty | None:
    """The difficulty of a shot now (None: beyond the long range, VI-A-1); ``partial``: see
    :func:`shot_target`."""
    found = difficulties_of(state, shooter, target, (partial,))
    return None if found is None else found[0]


def difficulties_of(
    state: GameState, shooter: str, target: str, partials: Sequence[bool | None]
) -> list[Difficulty] | None:
    """:func:`difficulty_of` for each of ``partials``, the range measured once (None:
    beyond the long range, VI-A-1)."""
    here = field_of(state)
    ranges = state.profile(state.fighter(shooter).profile).ranges
    band = range_band(shot_distance(here, shooter, target), ranges)
    if band is None:
        return None
    return [shot_difficulty(band, shot_target(state, here, shooter, target, p)) for p in partials]


# --- the provider --------------------------------------------------------------------------------


class ShootingProvider:
    """Chapter VI for the activation question."""

    def choices(self, state: GameState, activation: Activation) -> Sequence[Choice]:
        """The shots (VI-A) of the activated shooters, each enemy's a :class:`Deferred`
        part: whether he is seen (and so whether he may be shot at) is worked out when the
        list is read there."""
        if not has_field(state) or activation.action is not None:
            return []
        if activation.stage != ActivationStage.CUMULATIVE:
            return []
        here = field_of(state)
        announced = {a.fighter for a in activation.exclusive}
        choices: list[Part] = []
        for f in activation.fighters:
            if f not in here.battlefield.fighters or f in announced or f in activation.done:
                continue
            if activation.acting is not None and activation.acting != f:
                continue
            fighter = state.fighter(f)
            if not state.profile(fighter.profile).shooter or fighter.shots:
                continue  # ruling: one shot per activation (no multi-shot ability applied)
            if here.enemies_in_contact(f):  # VI-A: free of any opponent when he shoots
                continue
            may_stay = f not in activation.moved
            me = here.owners[f]
            for target in here.ids():
                if here.owners[target] != me:  # VI-A: an enemy he sees, worked out when read
                    shots = partial(_shots, here, f, target, may_stay)
                    choices.append(Deferred((f, target), shots))
        return LazyChoices(choices) if choices else []

    def handles(self, choice: Choice) -> bool:
        return isinstance(choice, Shoot)

    def apply(self, state: GameState, choice: Choice) -> Transition:
        assert isinstance(choice, Shoot)
        activation = activation_of(state)
        still = activation.still + ((choice.fighter,) if choice.still else ())
        state = with_activation(state, evolve(activation, acting=choice.fighter, still=still))
        action = ActionInProgress(
            "shoot",
            choice.fighter,
            stage=ActionStage.COVER,
            target=choice.target,
            still=choice.still,
        )
        state = actions.with_action(state, action)
        announced = ActionAnnounced(choice.fighter, "shoot", choice.target)
        state, events = _cover_or_measure(state)
        return state, [announced, *events]

    def option(self, state: GameState, choice: Choice) -> Option:
        """A shot as a player reads it: the target, its range band is measured only once
        the shot is declared (VI-A-1), so no distance here."""
        assert isinstance(choice, Shoot)
        label = f"{_name(state, choice.fighter)} shoots at {_name(state, choice.target)}"
        detail = "staying still (unmoving shot, VI-B-2)" if choice.still else ""
        return Option(choice, label, detail)


# --- resolution -----------------------------------------------------------------------------------


def start_assault_shot(state: GameState, announcement: Announcement) -> Transition:
    """VI-B-3: an assault shot, before any figure moves."""
    assert announcement.target is not None
    action = ActionInProgress(
        "shoot",
        announcement.fighter,
        stage=ActionStage.COVER,
        target=announcement.target,
        assault=True,
    )
    state = actions.with_action(state, action)
    if not state.fighter(announcement.target).in_play:
        return _lost(state, "the target was eliminated before this shot (VI-B-3)")
    return _cover_or_measure(state)


def _lost(state: GameState, reason: str) -> Transition:
    action = action_of(state)
    assert action.target is not None
    missed = ShotMissed(action.fighter, action.target, reason)
    state, events = finish(state)
    return state, [missed, *events]


def _may_take_cover(state: GameState, target: Fighter) -> bool:
    """VI-A-2, V-B-4 note: not yet activated and free of any enemy (and not already)."""
    if target.activated or target.cover or target.must_cover:
        return False
    return not field_of(state).enemies_in_contact(target.id)


def _cover_or_measure(state: GameState) -> Transition:
    action = action_of(state)
    assert action.target is not None
    target = state.fighter(action.target)
    if _may_take_cover(state, target):
        return ask(
            update(state, stage=ActionStage.COVER), QuestionKind.TAKE_COVER, target.player
        ), []
    return _measure(state)


def _measure(state: GameState) -> Transition:
    """VI-A-1 (or VI-B-3): measure, work out the difficulty, roll the Shooting test."""
    action = action_of(state)
    assert action.target is not None
    here = field_of(state)
    shooter = state.fighter(action.fighter)
    profile = state.profile(shooter.profile)
    measured = round(shot_distance(here, shooter.id, action.target), 2)
    target = shot_target(state, here, shooter.id, action.target)
    shots_before = shooter.shots
    state = state.with_fighters(evolve(shooter, shots=shooter.shots + 1))
    if action.assault:
        reach = potential_of(state, shooter, "charge", False)
        path = here.move_path(  # V-A: across landforms of his size within MOV x 1
            shooter.id,
            action.target,
            pass_through(state, here, shooter.id),
            mov=movement(state, shooter),
            potential=reach,
            reach=reach + 1e-6,
        )
        if path is None or path.length > reach + 1e-6:  # VI-B-3: not fired
            return _lost(state, "the target is beyond the reach of the assault (VI-B-3)")
        difficulty = assault_shot_difficulty(target)
        band = ""
        unmoving = False
    else:
        range_ = range_band(measured, profile.ranges)
        if range_ is None:  # VI-A-1: automatic failure
            return _lost(state, f"out of range ({measured:g} cm, long range {profile.ranges[2]:g})")
        difficulty = shot_difficulty(range_, target)
        band = range_.value
        unmoving = action.still and unmoving_shot(False, shots_before)
    fired = ShotFired(
        shooter.id,
        action.target,
        measured,
        band,
        difficulty.total,
        difficulty.explain(),
        unmoving,
    )
    state = update(state, stage=ActionStage.TEST, difficulty=difficulty.total, still=unmoving)
    aim = current(state, shooter, Characteristic.AIM)
    return start_test(state, "shooting", shooter.player, aim, difficulty.total), [fired]


def resume(state: GameState) -> Transition:
    """After the Shooting test or the wound dice."""
    action = action_of(state)
    assert action.target is not None
    if action.stage == ActionStage.TEST:
        assert action.test is not None
        if not action.test.success:
            return _lost(state, "the Shooting test failed")
        friends = _friends_in_contact(state, action.fighter, action.target)
        if friends:  # VI-B-1
            return ask(
                update(state, stage=ActionStage.DISTRIBUTION, test=None),
                QuestionKind.DISTRIBUTION_DIE,
                None,
            ), []
        return _hit(state, action.target, None)
    # the wound dice are on the table
    shooter = state.fighter(action.fighter)
    assert action.victim is not None
    victim = state.fighter(action.victim)
    strength = state.profile(shooter.profile).aim_str or 0
    resistance = current(state, victim, Characteristic.RES)
    state, events = apply_wound_roll(
        state, victim.id, shooter.id, action.wound, strength, resistance, action.still
    )
    state, after = finish(state)
    return state, events + after


def _friends_in_contact(state: GameState, shooter: str, target: str) -> dict[str, float]:
    """VI-B-1: the shooter's fighters in contact with the target, by distance to him."""
    here = field_of(state)
    me = here.owners[shooter]
    return {
        f: distance(here.base(shooter), here.base(f))
        for f in here.contacts(target)
        if here.owners[f] == me
    }


def _others_in_contact(state: GameState, shooter: str, target: str) -> dict[str, float]:
    """XX-F-4: the fighters in contact with the target of a side other than his, by distance
    to the shooter. With two sides these are the shooter's friends of VI-B-1; in a melee of
    more than two sides (neutral fighters, XX-E) the nearest of them all receives the shot."""
    here = field_of(state)
    side = here.owners[target]
    return {
        f: distance(here.base(shooter), here.base(f))
        for f in here.contacts(target)
        if here.owners[f] != side
    }


def _hit(state: GameState, victim: str, face: int | None) -> Transition:
    action = action_of(state)
    assert action.target is not None
    event = ShotHit(action.fighter, action.target, victim, face)
    state = update(state, stage=ActionStage.WOUND, victim=victim, distribution=face, test=None)
    return start_wound(state), [event]


def _faces(state: GameState) -> list[Choice]:
    return [DieFace(face) for face in FACES]


def _distribution_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    action = action_of(state)
    assert action.target is not None
    others = _others_in_contact(state, action.fighter, action.target)  # XX-F-4
    victims = distribution_victims(choice.face, action.target, others)
    if len(victims) > 1:
        state = update(state, distribution=choice.face, options=victims)
        return ask(state, QuestionKind.CHOOSE_VICTIM, state.fighter(action.fighter).player), []
    return _hit(state, victims[0], choice.face)


def _distribution_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    action = action_of(state)
    options = tuple(
        Option(c, str(c.face), "the target" if c.face >= 4 else "the nearest friend")
        for c in choices
        if isinstance(c, DieFace)
    )
    prompt = f"Distribution roll: {_name(state, action.fighter)} shot into a melee (VI-B-1)"
    return Question(QuestionKind.DISTRIBUTION_DIE, None, prompt, options)


def _victim_legal(state: GameState) -> list[Choice]:
    return [ChooseVictim(f) for f in action_of(state).options]


def _victim_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, ChooseVictim)
    return _hit(state, choice.fighter, action_of(state).distribution)


def _victim_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    action = action_of(state)
    player = state.fighter(action.fighter).player
    options = tuple(
        Option(c, _name(state, c.fighter)) for c in choices if isinstance(c, ChooseVictim)
    )
    prompt = f"{player_name(player)}: two of your fighters are equidistant. Which one is hit?"
    if any(state.fighter(f).player != player for f in action.options):  # XX-F-4
        prompt = f"{player_name(player)}: fighters in the melee are equidistant. Which one is hit?"
    return Question(QuestionKind.CHOOSE_VICTIM, player, prompt, options)


def _cover_legal(state: GameState) -> list[Choice]:
    return [TakeCover(True), TakeCover(False)]


def _cover_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, TakeCover)
    action = action_of(state)
    assert action.target is not None
    events: list[Event] = []
    if choice.take:
        target = evolve(state.fighter(action.target), must_cover=True)
        state = state.with_fighters(target)
        events.append(TookCover(target.id))
    state, more = _measure(state)
    return state, events + more


def _cover_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    action = action_of(state)
    assert action.target is not None
    target = state.fighter(action.target)
    shooter = state.fighter(action.fighter)
    aim = current(state, shooter, Characteristic.AIM)
    details = {}
    for cover in (True, False):
        difficulty = _what_if(state, action, cover)
        if difficulty is None:
            details[cover] = "out of range anyway"
        else:
            p = p_hit(aim, difficulty)
            details[cover] = f"difficulty {difficulty}, P(hit) {float(p):.0%}"
    options = (
        Option(
            TakeCover(True),
            "move to cover",
            f"Target/+2; he must move under cover when activated; {details[True]}",
        ),
        Option(TakeCover(False), "stay", details[False]),
    )
    prompt = (
        f"{player_name(target.player)}: {_name(state, action.fighter)} shoots at "
        f"{_name(state, target.id)}. Move to cover? (VI-A-2)"
    )
    return Question(QuestionKind.TAKE_COVER, target.player, prompt, options)


def _what_if(state: GameState, action: ActionInProgress, cover: bool) -> int | None:
    assert action.target is not None
    here = field_of(state)
    target = shot_target(state, here, action.fighter, action.target)
    target = evolve(target, in_cover=target.in_cover or cover)
    if action.assault:
        return assault_shot_difficulty(target).total
    ranges = state.profile(state.fighter(action.fighter).profile).ranges
    band = range_band(shot_distance(here, action.fighter, action.target), ranges)
    return None if band is None else shot_difficulty(band, target).total


def chance_to_hit(state: GameState, shooter: str, target: str) -> Fraction:
    """P(the Shooting test succeeds) now, optimal raises (for agents and displays)."""
    difficulty = difficulty_of(state, shooter, target)
    aim = current(state, state.fighter(shooter), Characteristic.AIM)
    return p_hit(aim, None if difficulty is None else difficulty.total)


def contribute(rules: RulesBuilder) -> None:
    """Shooting (chapter VI): the action, its resume and its questions."""
    rules.resume("shoot", resume)
    rules.action_provider("shooting", ShootingProvider())
    rules.handler(
        Handler(
            QuestionKind.DISTRIBUTION_DIE,
            _faces,
            _distribution_apply,
            _distribution_describe,
            subject=lambda s: s.fighter(action_of(s).fighter).player,
        )
    )
    rules.handler(
        Handler(QuestionKind.CHOOSE_VICTIM, _victim_legal, _victim_apply, _victim_describe)
    )
    rules.handler(Handler(QuestionKind.TAKE_COVER, _cover_legal, _cover_apply, _cover_describe))
