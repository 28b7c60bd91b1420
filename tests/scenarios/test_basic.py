"""Victory points at the end of the game, Execution's immediate win and its random-card draw
(III-A-2), through the engine's one door."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from confrontation.dice import ScriptedRoller
from confrontation.engine.core.events import Event, FighterKilled, GameEnded
from confrontation.engine.core.outcome import Outcome, Termination
from confrontation.engine.core.questions import (
    AnnouncementsDone,
    Choice,
    EndActivation,
    Option,
    Question,
)
from confrontation.engine.core.registry import Handler, Transition
from confrontation.engine.core.state import GameState, Pending, Phase
from confrontation.engine.step import is_chance, legal, roll, run, start, step
from confrontation.scenarios import (
    AreaControlled,
    ObjectiveScored,
    TargetsSet,
    install,
    losses_ap,
    resolve,
)
from confrontation.scenarios.basic import _digits
from engine_support import fighter, plugged, skirmish

FOOT = fighter("Footman", ap=20)
HERO = fighter("Hero", ap=45)


class Passive:
    """Ends every activation at once (nobody moves): the positions decide the score."""

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        ends = [c for c in legal if isinstance(c, EndActivation | AnnouncementsDone)]
        return ends[0] if ends else legal[0]


def game(scenario: str, positions: dict[str, tuple[float, float, float]]) -> GameState:
    cards = [[(HERO, 1), (FOOT, 2)], [(HERO, 1), (FOOT, 2)]]
    return install(skirmish(cards, positions, rounds=1), resolve(scenario), rounds=1)


@pytest.mark.rule("III-A-2")
def test_conquest_scores_every_area_after_the_last_round() -> None:
    # Player 1 holds his own area (1 VP) and the centre (2 VP); Player 2 holds his own area
    # (1 VP). 3 VP to 1: Player 1 wins.
    state = game(
        "conquest",
        {
            "p1-c1-1": (20, 30, 0),  # Player 1's area (x 10-45)
            "p1-c2-1": (60, 20, 0),  # the centre (x 45-75)
            "p1-c2-2": (60, 40, 0),
            "p2-c1-1": (100, 30, 180),  # Player 2's area (x 75-110)
            "p2-c2-1": (5, 5, 180),  # in no area (the table's edge strip)
        },
    )
    end, events = run(state, [Passive(), Passive()], ScriptedRoller([3, 4] * 50))
    assert end.phase is Phase.OVER
    scored = [(e.player, e.objective, e.vp) for e in events if isinstance(e, ObjectiveScored)]
    assert scored == [
        (0, "Player 1's deployment area", 1),
        (1, "Player 2's deployment area", 1),
        (0, "the centre", 2),
    ]
    areas = [e for e in events if isinstance(e, AreaControlled)]
    assert [a.controller for a in areas] == [0, 1, 0]
    assert end.scores == (3, 1) and end.winner == 0
    assert events[-1] == GameEnded("all rounds played", (3, 1), 0)
    assert events[-1].outcome == Outcome(Termination.ROUNDS_PLAYED, 0, (3, 1))


@pytest.mark.rule("III-A-2")
def test_conquest_enemy_area_is_worth_three_and_equal_vp_is_a_draw() -> None:
    state = game(
        "conquest",
        {"p1-c1-1": (100, 30, 0), "p2-c1-1": (60, 30, 180), "p2-c2-1": (20, 30, 180)},
    )
    end, events = run(state, [Passive(), Passive()], ScriptedRoller([3, 4] * 50))
    # Player 1 takes Player 2's area (3 VP); Player 2 the centre (2) and the enemy's area (3).
    assert end.scores == (3, 5) and end.winner == 1
    level = game("conquest", {"p1-c1-1": (60, 30, 0), "p2-c1-1": (60, 10, 180)})
    end, events = run(level, [Passive(), Passive()], ScriptedRoller([3, 4] * 50))
    assert end.scores == (0, 0) and end.winner is None  # equal Power and value: disputed
    assert events[-1] == GameEnded("all rounds played", (0, 0), None)
    assert events[-1].outcome.result() == "1/2-1/2"


@pytest.mark.rule("III-A-2")
def test_bloodbath_the_controller_of_the_whole_battlefield_wins() -> None:
    state = game(
        "bloodbath",
        {"p1-c1-1": (20, 30, 0), "p1-c2-1": (30, 30, 0), "p2-c1-1": (100, 30, 180)},
    )
    end, _ = run(state, [Passive(), Passive()], ScriptedRoller([3, 4] * 50))
    assert end.scores == (1, 0) and end.winner == 0  # Power 2 to 1, value 65 to 45


# --- Execution -----------------------------------------------------------------------------


KILL = "test_kill"


def killing(victim: str) -> Handler:
    """A stand-in for a wound roll: answering kills ``victim`` and asks again."""

    def apply(state: GameState, choice: Choice) -> Transition:
        dead = dataclasses.replace(state.fighter(victim), wounds=4)
        state = dataclasses.replace(state.with_fighters(dead), pending=Pending(KILL, 0))
        events: list[Event] = [FighterKilled(victim, by="p1-c2-1")]
        return state, events

    def describe(state: GameState, choices: Sequence[Choice]) -> Question:
        return Question(KILL, 0, "kill", tuple(Option(c, "kill") for c in choices))

    return Handler(KILL, lambda s: [EndActivation()], apply, describe)


def execution(variation: str = "") -> GameState:
    cards = [[(HERO, 1), (FOOT, 2)], [(HERO, 1), (FOOT, 2)]]
    positions = {
        f"p{p}-c{c}-{k}": (10.0 + 10 * k + 60 * (p - 1), 10.0 * c, 0)
        for p in (1, 2)
        for c, k in ((1, 1), (2, 1), (2, 2))
    }
    name = "execution" + (f":{variation}" if variation else "")
    return install(skirmish(cards, positions, rounds=5), resolve(name))


@pytest.mark.rule("III-A-2")
def test_execution_targets_the_enemy_with_the_highest_value() -> None:
    state = execution()
    assert state.rounds == 5
    assert state.scenario.targets == (("p2-c1-1",), ("p1-c1-1",))  # type: ignore[union-attr]


@pytest.mark.rule("III-A-2")
def test_killing_the_target_wins_immediately() -> None:
    state = dataclasses.replace(execution(), pending=Pending(KILL, 0))
    end, events = step(plugged(state, handlers=[killing("p2-c1-1")]), EndActivation())
    assert end.phase is Phase.OVER and end.pending is None and end.winner == 0
    assert isinstance(events[1], FighterKilled)  # nothing else happens after the kill
    assert events[2:] == [
        ObjectiveScored(0, "execution", 1),
        GameEnded("Execution: Player 1 has killed his target", (1, 0), 0),
    ]
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert ended.outcome == Outcome(
        Termination.EXECUTION, 0, (1, 0), "Player 1 has killed his target"
    )
    assert losses_ap(end, 1) == 45 and losses_ap(end, 0) == 0


@pytest.mark.rule("III-A-2")
def test_killing_another_fighter_does_not_end_the_game() -> None:
    state = dataclasses.replace(execution(), pending=Pending(KILL, 0))
    after, _ = step(plugged(state, handlers=[killing("p2-c2-1")]), EndActivation())
    assert after.phase is not Phase.OVER and after.pending == Pending(KILL, 0)


@pytest.mark.rule("III-A-2")
def test_random_card_is_drawn_with_the_game_dice_and_needs_every_fighter() -> None:
    state, events = start(execution("random-card"))
    faces = iter([5, 6])
    while is_chance(state) and state.pending is not None and state.pending.kind == "scenario_draw":
        state, happened = roll(state, ScriptedRoller([next(faces)]))
        events.extend(happened)
    drawn = [e for e in events if isinstance(e, TargetsSet)]
    # Two enemy cards: one die, every face fair (6 % 2 == 0); value = face - 1, card = value % 2.
    assert drawn == [
        TargetsSet(0, ("p2-c1-1",), "p2-c1"),  # face 5 -> value 4 -> card 1
        TargetsSet(1, ("p1-c2-1", "p1-c2-2"), "p1-c2"),  # face 6 -> value 5 -> card 2
    ]
    state = dataclasses.replace(state, pending=Pending(KILL, 0))
    after, _ = step(plugged(state, handlers=[killing("p1-c2-1")]), EndActivation())
    assert after.phase is not Phase.OVER  # one of the two fighters of the card is not enough
    end, _ = step(plugged(after, handlers=[killing("p1-c2-2")]), EndActivation())
    assert end.winner == 1 and end.phase is Phase.OVER and legal(end) == []


def test_a_fair_draw_among_n_cards_rejects_the_faces_that_do_not_divide_evenly() -> None:
    assert _digits(2) == (1, 6)
    assert _digits(4) == (1, 4)  # faces 5 and 6 are rolled again
    assert _digits(7) == (2, 35)  # two dice as base-6 digits, 35 of 36 values kept
