"""The C4 control phase's two questions through ``step()`` (``c4.control``): Incursion's flag
removed at random (CP-INCURSION-SPECIAL-RULES, a ``c4_flag_die`` for player None) and the
element a Commander who could dominate two dominates (CP-DOMINATE, ``c4_dominate`` asked of
his player); the greedy answering for the most CP, random at random."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from c4flow_support import company
from confrontation.agents.c4 import C4GreedyAgent, C4RandomAgent
from confrontation.c4 import events as ev
from confrontation.c4.battle import describe
from confrontation.c4.choices import DominateZone, UnitAction
from confrontation.c4.state import Battle, C4State, Fighter, Kind, Zone, new_game
from confrontation.c4.step import legal, question, replay, run, start, step
from confrontation.c4.views import redact
from confrontation.dice import SeededRoller
from confrontation.engine.core.codec import decode, encode
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import Choice, DieFace, Question
from confrontation.engine.core.state import SceneryPiece
from confrontation.sim.c4scenario import c4_battle


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def battle_game(*zones: Zone, rounds: int = 1, scenery: tuple[SceneryPiece, ...] = ()) -> C4State:
    """Player 1's units at y = 20 (p1u1f1, his Commander, at x 15), player 2's at y = 100."""
    f1, u1 = company(0, 2, 3, y=20.0)
    f2, u2 = company(1, 2, 3, y=100.0)
    fighters: list[Fighter] = [*f1, *f2]
    battle = Battle("test", "C4", "round", tuple(zones), first=1)
    return new_game(
        tuple(fighters),
        tuple(u1 + u2),
        mode="barbarian",
        rounds=rounds,
        seed=1,
        battle=battle,
        scenery=scenery,
    )


class HoldAgent:
    """Every unit holds; a CP-DOMINATE question answered with ``zone`` (None: the first)."""

    def __init__(self, zone: str | None = None) -> None:
        self.zone = zone
        self.asked: list[Question] = []

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        if question.kind == Kind.DOMINATE:
            self.asked.append(question)
            return next((c for c in legal if c == DominateZone(self.zone or "")), legal[0])
        for choice in legal:
            if isinstance(choice, UnitAction) and choice.action == "hold" and not choice.formation:
                return choice
        return legal[0]


def until(
    state: C4State, kind: str, agents: Sequence[HoldAgent], seed: int = 3
) -> tuple[C4State, list[Event]]:
    """Play on (the game's seeded dice, the agents' answers) until a ``kind`` question."""
    roller = SeededRoller(seed)
    events: list[Event] = []
    if state.pending is None and state.tactical is None:
        state, events = start(state)
    while state.pending is None or str(state.pending.kind) != kind:
        asked = question(state)
        assert asked is not None, f"the game ended before a {kind} question"
        if asked.player is None:
            choice: Choice = DieFace(roller.d6())
        else:
            choice = agents[asked.player].choose(redact(state, asked.player), asked, asked.choices)
        state, happened = step(state, choice)
        events += happened
    return state, events


def incursion(rounds: int = 2) -> C4State:
    table = c4_battle("cp-incursion", 0)
    state = battle_game(*table.battle.zones, rounds=rounds, scenery=table.scenery)
    assert state.battle is not None
    battle = evolve(state.battle, first=2, remove_flag_after=table.battle.remove_flag_after)
    return evolve(state, battle=battle)


# --- Incursion ------------------------------------------------------------------------------


def test_incursion_is_offered_with_its_flag_die() -> None:
    table = c4_battle("cp-incursion", 0)
    assert table.battle.remove_flag_after == 1 and table.battle.first == 2
    assert [z.name for z in table.battle.zones] == ["flag-south", "flag-centre", "flag-north"]
    assert {"flag-south", "flag-centre", "flag-north"} <= {p.name for p in table.scenery}


@pytest.mark.rule("C4-PLAYING-A-GAME")
@pytest.mark.parametrize(
    ("face", "gone"),
    [(1, "flag-south"), (2, "flag-south"), (3, "flag-centre"), (4, "flag-centre"),
     (5, "flag-north"), (6, "flag-north")],
)  # fmt: skip
def test_incursion_removes_the_flag_the_die_picks_at_the_end_of_round_1(
    face: int, gone: str
) -> None:
    # CP-INCURSION-SPECIAL-RULES: "At the end of the second player's first turn, randomly
    # remove one flag from the board" — round 1's control phase, a die for player None
    agents = [HoldAgent(), HoldAgent()]
    state, events = until(incursion(), Kind.FLAG_DIE, agents)
    assert state.round == 1 and str(state.phase) == "control"
    asked = question(state)
    assert asked is not None and asked.player is None
    assert legal(state) == [DieFace(f) for f in range(1, 7)]
    assert not any(isinstance(e, ev.ZoneControlled) for e in events)  # nothing scored yet
    state, happened = step(state, DieFace(face))
    assert ev.C4FlagRemoved(1, gone) in happened
    assert describe(ev.C4FlagRemoved(1, gone)) == (
        f"The flag {gone} is removed from the table at random (Incursion)."
    )
    assert state.battle is not None and state.battle.removed == (gone,)
    assert gone not in [z.name for z in state.battle.zones]
    assert gone not in [p.name for p in state.scenery]  # off the table: no obstacle now
    state, more = run(state, agents, roller=SeededRoller(5))
    scored = [e.zone for e in more if isinstance(e, ev.ZoneControlled)]
    assert len(scored) == 2 and gone not in scored  # round 2 scores the two flags left
    assert not any(isinstance(e, ev.C4FlagRemoved) for e in more)  # removed once only


@pytest.mark.rule("C4-PLAYING-A-GAME")
def test_a_face_beyond_a_fair_draw_is_rolled_again() -> None:
    # four flags: faces 5 and 6 would favour two of them, so they are rolled again
    flags = [
        Zone(f"f{i}", "flag", rect(20 * i + 10, 60, 20 * i + 12, 62), (1, 1)) for i in range(4)
    ]
    state = battle_game(*flags, rounds=2)
    assert state.battle is not None
    state = evolve(state, battle=evolve(state.battle, first=2, remove_flag_after=1))
    state, _ = until(state, Kind.FLAG_DIE, [HoldAgent(), HoldAgent()])
    state, happened = step(state, DieFace(5))
    assert not any(isinstance(e, ev.C4FlagRemoved) for e in happened)
    assert state.pending is not None and state.pending.kind == Kind.FLAG_DIE
    state, happened = step(state, DieFace(4))
    assert ev.C4FlagRemoved(1, "f3") in happened


def test_an_incursion_record_encodes_and_replays() -> None:
    state, events = run(incursion(), [HoldAgent(), HoldAgent()], roller=SeededRoller(2))
    assert any(isinstance(e, ev.C4FlagRemoved) for e in events)
    back = [decode(Event, encode(e)) for e in events]
    assert back == events and replay(back) == state
    assert decode(C4State, encode(state)) == state


def test_without_remove_flag_after_no_flag_die_is_rolled() -> None:
    table = c4_battle("cp-close-quarters", 0)
    state = battle_game(*table.battle.zones, rounds=2, scenery=table.scenery)
    _, events = run(state, [HoldAgent(), HoldAgent()], roller=SeededRoller(2))
    assert not any(isinstance(e, ev.C4FlagRemoved) for e in events)
    assert not any(isinstance(e, ev.DieRolled) and e.kind == Kind.FLAG_DIE for e in events)


# --- CP-DOMINATE: the player chooses ------------------------------------------------------------

# p1u1f1 (15, 20), player 1's Commander, touches both flags; his unit is within 10 cm of both
LEFT = Zone("left", "flag", rect(11.75, 19, 13.75, 21), (1, 1), (2, 2))
BELOW = Zone("below", "flag", rect(14, 16.75, 16, 18.75), (1, 1), (4, 4))


@pytest.mark.rule("C4-PLAYING-A-GAME")
@pytest.mark.parametrize(("answer", "points"), [("left", (2, 1)), ("below", (1, 4))])
def test_a_commander_who_could_dominate_two_flags_dominates_the_one_his_player_names(
    answer: str, points: tuple[int, int]
) -> None:
    agents = [HoldAgent(answer), HoldAgent()]
    state, _ = until(battle_game(LEFT, BELOW), Kind.DOMINATE, agents)
    asked = question(state)
    assert asked is not None and asked.player == 0
    assert legal(state) == [DominateZone("left"), DominateZone("below")]
    assert [o.label for o in asked.options] == ["left (2 points)", "below (4 points)"]
    state, events = run(state, agents, roller=SeededRoller(1))
    left, below = points
    assert [e for e in events if isinstance(e, ev.ZoneControlled)] == [
        ev.ZoneControlled(1, "left", 0, left, dominated=answer == "left"),
        ev.ZoneControlled(1, "below", 0, below, dominated=answer == "below"),
    ]
    assert state.battle is not None and state.battle.points == (left + below, 0)
    assert state.battle.dominating == ()  # the answer is for this scoring only


def test_one_element_to_dominate_asks_nothing() -> None:
    agent = HoldAgent()
    _, events = run(battle_game(BELOW), [agent, HoldAgent()], roller=SeededRoller(1))
    assert agent.asked == []
    assert ev.ZoneControlled(1, "below", 0, 4, dominated=True) in events


def test_the_greedy_dominates_for_the_most_cp_and_random_answers_at_random() -> None:
    state, _ = until(battle_game(LEFT, BELOW), Kind.DOMINATE, [HoldAgent(), HoldAgent()])
    asked = question(state)
    assert asked is not None
    view = redact(state, 0)
    assert C4GreedyAgent().choose(view, asked, asked.choices) == DominateZone("below")
    # the other way round: the left flag now worth more
    richer = evolve(LEFT, dominate=(6, 6))
    state2, _ = until(battle_game(richer, BELOW), Kind.DOMINATE, [HoldAgent(), HoldAgent()])
    asked2 = question(state2)
    assert asked2 is not None
    greedy = C4GreedyAgent().choose(redact(state2, 0), asked2, asked2.choices)
    assert greedy == DominateZone("left")
    picks = {C4RandomAgent(seed).choose(view, asked, asked.choices) for seed in range(20)}
    assert picks == {DominateZone("left"), DominateZone("below")}
    state, events = step(state, DominateZone("below"))
    assert ev.ZoneControlled(1, "below", 0, 4, dominated=True) in events


def test_a_single_flag_is_removed_without_a_die() -> None:
    state = battle_game(Zone("only", "flag", rect(60, 60, 62, 62), (1, 1)), rounds=2)
    assert state.battle is not None
    state = evolve(state, battle=evolve(state.battle, first=2, remove_flag_after=1))
    _, events = run(state, [HoldAgent(), HoldAgent()], roller=SeededRoller(4))
    assert ev.C4FlagRemoved(1, "only") in events
    assert not any(isinstance(e, ev.DieRolled) and e.kind == Kind.FLAG_DIE for e in events)
    assert not any(isinstance(e, ev.ZoneControlled) for e in events)  # nothing left to score
