"""Helpers for engine tests on a table: small sides from profiles, fighters placed by hand,
the game driven to a given card's activation with fixed dice."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from confrontation.armylists.load import bundled_catalog
from confrontation.engine.core.events import Event, GameStarted, PhaseEnded, RoundStarted
from confrontation.engine.core.questions import (
    Choice,
    ChooseFirst,
    DieFace,
    KeepResult,
    PlaceCard,
    PlayTop,
    Question,
)
from confrontation.engine.core.registry import Handler, PhaseDriver, Transition
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import (
    NEUTRAL,
    GameState,
    MaintenanceProgress,
    Phase,
    ProfileSummary,
    SceneryPiece,
)
from confrontation.engine.setup.game import (
    SideSpec,
    game_from_specs,
    on_battlefield,
    place,
    summarise,
)
from confrontation.engine.step import (
    Agent,
    advance,
    game_roller,
    is_chance,
    is_over,
    legal,
    question,
    start,
    step,
)

E = TypeVar("E", bound=Event)


def only(events: Sequence[Event], kind: type[E]) -> list[E]:
    """The events of one kind, in order."""
    return [e for e in events if isinstance(e, kind)]


def profile(profile_id: str) -> ProfileSummary:
    """A bundled reference card as the engine reads it."""
    return summarise(bundled_catalog().profiles[profile_id])


def fighter(
    name: str, *, mov: float = 10.0, size: str = "normal", power: int = 1, **more: object
) -> ProfileSummary:
    """A made-up profile (size value from the size class)."""
    size_value = {"small": 1, "normal": 2, "large": 3, "very-large": 4}[size]
    return ProfileSummary(
        name.lower().replace(" ", "-"),
        name,
        "lion",
        3,
        mov=mov,
        size=size,
        size_value=size_value,
        power=power,
        **more,  # type: ignore[arg-type]
    )


def skirmish(
    cards: Sequence[Sequence[tuple[ProfileSummary, int]]],
    positions: Mapping[str, tuple[float, float, float]],
    scenery: Iterable[SceneryPiece] = (),
    rounds: int = 2,
    seed: int = 0,
) -> GameState:
    """Two sides of ``cards`` on an empty 120x60 table, fighters at ``positions``."""
    specs = [SideSpec(f"Side {n + 1}", "lion", tuple(side)) for n, side in enumerate(cards)]
    state = game_from_specs(specs, rounds=rounds, seed=seed)
    state = on_battlefield(state, scenery=tuple(scenery), zones=(0, 1), deploy=False)
    return place(state, positions)


class Script:
    """Plays a list of answers and die faces through ``step``: each must be legal, a die face
    (an ``int``) only where chance is asked and an answer only where a player is, never the
    neutral side (the engine answers for it, XX-E).

    ``phase``: the state is first put in that phase (e.g. ``Phase.COMBAT`` for a combat
    phase about to begin). ``whole_log``: :attr:`events` begins as a whole game's log would
    (``GameStarted``, ``RoundStarted``), e.g. for the narration.
    """

    def __init__(
        self, state: GameState, *, phase: Phase | None = None, whole_log: bool = False
    ) -> None:
        if phase is not None:
            state = dataclasses.replace(state, phase=phase)
        self.state, self.events = advance(state)
        if whole_log:  # the round began earlier
            self.events = [GameStarted(state), RoundStarted(state.round), *self.events]

    def play(self, *inputs: Choice | int) -> list[Event]:
        happened: list[Event] = []
        for item in inputs:
            asked = question(self.state)
            assert asked is not None, f"nothing is asked, yet {item!r} is scripted"
            choice = DieFace(item) if isinstance(item, int) else item
            if isinstance(item, int):
                assert asked.player is None, f"{asked.kind} asks {asked.player}, not a die"
            else:
                assert asked.player is not None, f"{asked.kind} wants a die, not {item!r}"
                assert asked.player != NEUTRAL, f"{asked.kind} asks the neutral side"
            assert choice in legal(self.state), f"{choice!r} not legal at {asked.kind}"
            self.state, events = step(self.state, choice)
            happened.extend(events)
        self.events.extend(happened)
        return happened

    @property
    def asked(self) -> str | None:
        """The kind of question the game waits on (None once nothing is asked)."""
        asked = question(self.state)
        return None if asked is None else asked.kind


def answer(state: GameState, choice: Choice, log: list[Event]) -> GameState:
    state, events = step(state, choice)
    log.extend(events)
    return state


def activate(state: GameState, card: str, log: list[Event] | None = None) -> GameState:
    """Start the game and play round 1 up to the activation of ``card``: its player puts
    it on top, wins the Tactics roll (5 against 2), speaks first and plays it."""
    log = log if log is not None else []
    owner = state.card(card).player
    state, events = start(state)
    log.extend(events)
    tactics = iter([5, 2] if owner == 0 else [2, 5])
    while state.pending is not None and state.pending.kind != "floor":
        kind = state.pending.kind
        if is_chance(state):
            choice: Choice = DieFace(next(tactics))
        elif kind == "place_card":
            options = legal(state)
            choice = PlaceCard(card) if PlaceCard(card) in options else options[0]
        elif kind == "tactics_raise":
            choice = KeepResult()
        elif kind == "choose_first":
            choice = ChooseFirst(owner)
        else:
            choice = legal(state)[0]
        state = answer(state, choice, log)
    assert state.pending is not None and state.pending.player == owner
    return answer(state, PlayTop(), log)


def passing_combat(state: GameState) -> Transition:
    """TEST ONLY: a combat phase that resolves nothing (chapter VII is not plugged in yet)."""
    return (
        dataclasses.replace(
            state, phase=Phase.MAINTENANCE, combat=None, maintenance=MaintenanceProgress()
        ),
        [PhaseEnded(state.round, Phase.COMBAT.value)],
    )


def passing_combat_phase(state: GameState) -> GameState:
    """``state`` played with :func:`passing_combat` as its combat phase (a derived ruleset)."""
    return plugged(state, phases={Phase.COMBAT: passing_combat})


def plugged(
    state: GameState,
    *,
    contacts: Callable[[GameState], list[tuple[str, str]]] | None = None,
    pursuits: Callable[[GameState, str, int], list[Any]] | None = None,
    dice_bonus: Callable[[GameState, str], int] | None = None,
    handlers: Sequence[Handler] = (),
    phases: Mapping[Phase, PhaseDriver] | None = None,
    action_providers: Mapping[str, Any] | None = None,
    maintenance_hooks: Sequence[tuple[str, Callable[[GameState], Transition]]] = (),
) -> GameState:
    """``state`` played with its rules derived by these plug-ins (nothing global changes)."""
    rules = rules_of(state)
    if contacts is not None:
        rules = rules.with_contacts(contacts)
    if pursuits is not None:
        rules = rules.with_pursuits(pursuits)
    if dice_bonus is not None:
        rules = rules.with_dice_bonus(dice_bonus)
    for handler in handlers:
        rules = rules.with_handler(handler)
    for phase, driver in (phases or {}).items():
        rules = rules.with_phase(phase, driver)
    for name, provider in (action_providers or {}).items():
        rules = rules.with_action_provider(name, provider)
    for step_name, hook in maintenance_hooks:
        rules = rules.with_maintenance_hook(step_name, hook)
    return with_rules(state, rules)


class KindAgent:
    """A random agent that first picks a kind of answer uniformly (walk, shoot, announce,
    end…), then one answer of that kind: random games then shoot and walk as often as they
    charge (a uniform pick over all answers mostly announces charges)."""

    def __init__(self, seed: int) -> None:
        from confrontation.dice import SeededRoller

        self.roller = SeededRoller(seed)

    def choose(self, state: GameState, question: object, legal: Sequence[Choice]) -> Choice:
        from confrontation.agents.random import uniform_index

        kinds = sorted({c.kind for c in legal})
        kind = kinds[uniform_index(self.roller, len(kinds))]
        mine = [c for c in legal if c.kind == kind]
        return mine[uniform_index(self.roller, len(mine))]


def play_out(
    state: GameState,
    agents: Sequence[Agent],
    after: Callable[[GameState, Question, list[Event]], None],
) -> GameState:
    """Play a started game to its end with the game's own dice, the agents seeing the whole
    state; ``after`` is shown every new state, the question answered and the events."""
    dice = game_roller(state)
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if is_chance(state):
            choice = asked.choices[dice.d6() - 1]
        else:
            assert asked.player is not None
            choice = agents[asked.player].choose(state, asked, asked.choices)
        state, events = step(state, choice)
        after(state, asked, events)
    return state
