"""The combat phase (chapter VII) under random play: many seeded rounds of random agents
with fighters held in contact by a test contact finder (the games have no table), pursuit
moves into contact with any living enemy. After every step the chapter's invariants hold,
and replaying the record rebuilds the final state."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from confrontation.agents.random import RandomAgent
from confrontation.armylists.load import bundled_catalog
from confrontation.dice import SeededRoller
from confrontation.engine.combat import events as ce
from confrontation.engine.combat.questions import Pursue
from confrontation.engine.core.events import CardsWithdrawn, Event, GameStarted, PhaseStarted
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.state import GameState, state_from_json, state_to_json
from confrontation.engine.core.views import redact
from confrontation.engine.record import replay
from confrontation.engine.setup.game import SideSpec, game_from_specs, summarise
from confrontation.engine.step import is_over, question, roll, start, step
from engine_support import plugged


def _game(seed: int) -> GameState:
    profiles = bundled_catalog().profiles
    griffin = SideSpec(
        "Griffin",
        "griffin",
        ((summarise(profiles["praetorian-guard"]), 3),),
    )
    dirz = SideSpec(
        "Dirz",
        "scorpion",
        ((summarise(profiles["dawn-warrior"]), 3), (summarise(profiles["arkeon-sanath"]), 1)),
    )
    return game_from_specs([griffin, dirz], rounds=3, seed=seed)


def _lines(state: GameState) -> list[tuple[str, str]]:
    """Living fighters of each side face each other in a zig-zag: chains, so melees with
    several separations, Discipline rolls and combats of one against many."""
    left = [f.id for f in state.fighters if f.player == 0 and f.alive]
    right = [f.id for f in state.fighters if f.player == 1 and f.alive]
    return [(a, b) for i, a in enumerate(left) for j, b in enumerate(right) if j in (i, i + 1)]


def _anyone(state: GameState, fighter: str, reach: int) -> list[Pursue]:
    """A pursuer may stay, or engage any living enemy (the test's idea of 'within reach')."""
    me = state.fighter(fighter)
    moves = [Pursue(fighter, (), "stay in place")]
    for other in state.fighters:
        if other.alive and other.player != me.player:
            moves.append(Pursue(fighter, (other.id,), f"engage {other.id}"))
    return moves


@pytest.fixture(scope="module")
def games() -> Iterator[list[tuple[GameState, list[Event]]]]:
    yield [_play(seed) for seed in SEEDS]


def _play(seed: int) -> tuple[GameState, list[Event]]:
    """A whole game of random agents, checking the invariants after every step (the
    invariants are asserted inside, so every seed is checked when the fixture builds)."""
    initial = plugged(_game(seed), contacts=_lines, pursuits=_anyone)
    state, log = start(initial)
    log = [GameStarted(initial), *log[1:]]
    roller = SeededRoller(seed)
    agents = (RandomAgent(seed * 2 + 1), RandomAgent(seed * 2 + 2))
    checker = Invariants(state)
    checker.events(log)
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, happened = roll(state, roller)
        else:
            view = redact(state, asked.player)
            state, happened = step(state, agents[asked.player].choose(view, asked, asked.choices))
        log.extend(happened)
        checker.events(happened)
        checker.state(state)
    return state, log


class Invariants:
    """What chapter VII guarantees, checked event by event and state by state."""

    def __init__(self, state: GameState) -> None:
        self.wounds = {f.id: f.wounds for f in state.fighters}
        self.fights: Counter[str] = Counter()
        self.pursued: set[str] = set()
        self.dead: set[str] = set()
        self.killed_this_round: set[str] = set()
        self.round = state.round
        self.last: dict[str, ce.CombatChosen] = {}

    def events(self, events: list[Event]) -> None:
        for event in events:
            match event:
                case PhaseStarted(phase="combat"):
                    self.fights.clear()
                    self.pursued.clear()
                case PhaseStarted(phase="strategic", round=number):
                    self.round = number
                case CardsWithdrawn(cards=cards):
                    # Cards leave only at the next strategic phase: nobody killed this
                    # round has had his card withdrawn yet (IV-A-1 note).
                    assert not self.killed_this_round & set(cards)
                    self.killed_this_round.clear()
                case ce.CombatChosen(combat=combat):
                    for fighter in combat.fighters:
                        assert fighter not in self.dead, f"{fighter} is dead and fights"
                        self.fights[fighter] += 1
                        if self.fights[fighter] > 1:
                            # VII-C-6 c: only a pursuer fights again, once more at most.
                            assert fighter in self.pursued, f"{fighter} fights twice"
                            assert self.fights[fighter] == 2
                case ce.Pursued(fighter=fighter):
                    assert fighter not in self.pursued, "one pursuit move per round"
                    self.pursued.add(fighter)
                case ce.DiceAllocated(fighter=fighter, dice=dice, attack=a, defence=d):
                    assert dice == a + d >= 2  # 1 + at least one opponent (VII-C-1)
                case ce.CombatResolved(dice=dice):
                    for fighter, allocated, used, lost in dice:
                        assert allocated == used + lost, f"{fighter}: dice not conserved"
                case ce.FighterKilled(fighter=fighter):
                    self.dead.add(fighter)
                    self.killed_this_round.add(fighter)

    def state(self, state: GameState) -> None:
        for fighter in state.fighters:
            assert fighter.wounds >= self.wounds[fighter.id], "wound levels only grow"
            self.wounds[fighter.id] = fighter.wounds
            assert fighter.alive == (fighter.id not in self.dead)
        if state.combat is not None and state.combat.fight is not None:
            for c in state.combat.fight.board.fighters:
                assert c.allocation.dice == c.dice_left + c.used + c.lost
        for side in state.sides:
            cards = {*side.deck, *(() if side.reserve is None else (side.reserve,))}
            for card in cards:
                assert card not in side.withdrawn


SEEDS = range(12)


@pytest.mark.rule("VII-A", "VII-B", "VII-C", "VII-C-1", "VII-C-3", "VII-C-4", "VII-C-6")
def test_random_games_keep_the_combat_invariants(
    games: list[tuple[GameState, list[Event]]],
) -> None:
    seen: Counter[str] = Counter()
    for final, log in games:
        seen.update(e.kind for e in log)
        assert replay(log) == final  # the record reproduces the game
        assert state_from_json(state_to_json(final)) == final
        assert narrate(log)
    # The games did exercise the chapter: several melees, Discipline rolls, combats of one
    # against many, kills, pursuits and combats caused by them.
    for kind in (
        "split_rolled",
        "authority_rolled",
        "combat_resolved",
        "fighter_killed",
        "pursued",
        "sustained_defence",
    ):
        assert seen[kind] > 0, kind


@pytest.mark.rule("VII-C-6")
def test_a_pursuit_combat_is_resolved_in_the_same_turn(
    games: list[tuple[GameState, list[Event]]],
) -> None:
    found = 0
    for _, log in games:
        turn_of_last: int | None = None
        for event in log:
            if isinstance(event, ce.CombatChosen):
                if event.pursuit:
                    found += 1
                    assert event.turn == turn_of_last
                turn_of_last = event.turn
    assert found > 0
