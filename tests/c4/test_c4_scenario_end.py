"""The end of a C4 scenario game through ``step()``/``run`` (``c4.battle``, ``c4.control``;
docs/rulings.md "002 — scenarios in a C4 game"): the control-point pack's assassination
victory and four tiebreakers (003 Scenario Reference Sheet, CLARIFICATIONS §8), chapter 20's
victory conditions played by units (XX-A-4, XX-B-1: The Standard, Assassination,
Watchtower), the greedy agent going for the objectives and the SVG drawing them."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from c4flow_support import company, feed, kind
from confrontation.agents.c4 import C4GreedyAgent, objective_action
from confrontation.c4 import battle as scenario
from confrontation.c4 import events as ev
from confrontation.c4.actions import options, remove_fighters
from confrontation.c4.choices import ChooseFirst, PickCard, UnitAction
from confrontation.c4.picture import svg
from confrontation.c4.state import (
    Battle,
    C4State,
    Condition,
    Fighter,
    Phase,
    Stats,
    Unit,
    Zone,
    new_game,
)
from confrontation.c4.step import replay, run, start
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import Choice, Question
from confrontation.sim.c4game import C4Config, build

BOW = Stats("bow", att_dice=1, att=3, strength=3, defense=3, res=3, ranged_dice=1, ranged=4,
            ranged_strength=4)  # fmt: skip
SPEAR = Stats("spear", att_dice=1, att=3, strength=3, defense=3, res=3)


class HoldAgent:
    """Every unit holds: the positions set up are the ones scored."""

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        for choice in legal:
            if isinstance(choice, UnitAction) and choice.action == "hold" and not choice.formation:
                return choice
        return legal[0]


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


FLAG = Zone("flag", "flag", rect(59.0, 59.0, 61.0, 61.0), (2, 2), (3, 3))


def fighter(fid: str, uid: str, profile: str, x: float, y: float, **kw: object) -> Fighter:
    return Fighter(fid, uid, profile, x, y, 1.25, 1, 1, **kw)  # type: ignore[arg-type]


def shooting_game(battle: Battle) -> C4State:
    """Player 1's bowmen ``a`` at (60, 20) facing player 2's unit ``e`` led by his only
    Incarnate ``e1`` 12.5 cm away; player 1's Incarnate ``c1`` far off."""
    a = [
        fighter("a1", "a", "bow", 60.0, 20.0, ranged=True),
        fighter("a2", "a", "bow", 63, 20, ranged=True),
    ]
    e = [
        fighter("e1", "e", "spear", 60.0, 32.5, kind="incarnate", authority=3),
        fighter("e2", "e", "spear", 63.0, 32.5),
        fighter("e3", "e", "spear", 66.0, 32.5),
    ]
    c = [fighter("c1", "c", "spear", 10.0, 10.0, kind="incarnate", authority=3)]
    units = (
        Unit("a", 0, "a", "infantry", ("a1", "a2"), "a1"),
        Unit("e", 1, "e", "infantry", ("e1", "e2", "e3"), "e1"),
        Unit("c", 0, "c", "infantry", ("c1",), "c1"),
    )
    return new_game(
        tuple(a + e + c), units, mode="barbarian", rounds=3, profiles=(BOW, SPEAR), battle=battle
    )


def pack(**kw: object) -> Battle:
    return Battle("test", "003", "round", (FLAG,), first=2, win_at=5, **kw)  # type: ignore[arg-type]


@pytest.mark.rule("C4-PLAYING-A-GAME", "C4-UNIT-RANGED-ATTACK", "C4-REMOVAL-OF-THE-LOSSES")
def test_the_last_commander_standing_wins_at_once_by_assassination() -> None:
    # 003 Scenario Reference Sheet, Assassination Victory (CLARIFICATIONS §8): "When only one
    # player owns warcasters/warlocks remaining in play, that player immediately wins the
    # game. Conduct control point scoring upon an assassination victory" — in round 1, before
    # the pack's first scoring round (2), at the end of the activation that killed him
    state = shooting_game(pack(chiefs=("c1", "e1")))
    state, _ = start(state)
    state, _ = feed(state, 5, 2, ChooseFirst(0), PickCard("a"))
    assert kind(state) == "c4_unit_action"
    state, events = feed(state, UnitAction("a", "walk_shoot", 60.0, 20.0, "e"), 3, 5, 4, 2)
    salvo = next(e for e in events if isinstance(e, ev.SalvoResolved))
    assert salvo.eliminated == ("e1",)  # the Incarnate nearest the marksmen's leader
    assert state.phase is Phase.OVER
    end = events[-1]
    assert isinstance(end, ev.C4GameEnded) and end.winner == 0
    assert end.reason == "assassination: only Player 1 has a Commander in play"
    assert ev.ZoneControlled(1, "flag", None) in events  # the scoring once more
    assert any(isinstance(e, ev.C4PointsScored) for e in events)


@pytest.mark.rule("C4-PLAYING-A-GAME")
def test_no_assassination_when_a_player_never_had_a_commander() -> None:
    # the pack's assassination needs every player to have had a warcaster: a company with no
    # Incarnate with Authority at the start (chiefs "") plays on
    state = shooting_game(pack(chiefs=("c1", "")))
    state, _ = start(state)
    state, _ = feed(state, 5, 2, ChooseFirst(0), PickCard("a"))
    state, events = feed(state, UnitAction("a", "walk_shoot", 60.0, 20.0, "e"), 3, 5, 4, 2)
    assert state.phase is not Phase.OVER
    assert not any(isinstance(e, ev.C4GameEnded) for e in events)


def tiebreak_game(tiebreak: str = "none", in_zone: bool = False) -> C4State:
    """Both players with a Commander and 0 CP; player 1: u1 (3 × 10 A.P.) and u2 (4 × 5 A.P.,
    2 left: 50 %, full value) = 50; player 2: u1 (3 × 10) and u2 (4 × 10, 1 left: below 50 %,
    half value 20) = 50 — level on the 3rd tiebreaker, player 1 ahead on the 4th (he destroyed
    20 A.P., player 2 none)."""
    f1, u1 = company(0, 2, 3, y=20.0)
    f2, u2 = company(1, 2, 3, y=100.0)
    extra1 = [evolve(f1[3], id=f"p1u2f{k}", x=70.0 + 3 * k) for k in (4,)]
    extra2 = [evolve(f2[3], id=f"p2u2f{k}", x=70.0 + 3 * k) for k in (4,)]
    fighters = f1 + extra1 + f2 + extra2
    units = [
        u1[0],
        evolve(u1[1], fighters=(*u1[1].fighters, "p1u2f4")),
        u2[0],
        evolve(u2[1], fighters=(*u2[1].fighters, "p2u2f4")),
    ]
    worth = [(f.id, 10) for f in fighters]
    worth = [(i, 5 if i.startswith("p1u2") else v) for i, v in worth]
    zone = Zone(
        "zone", "zone", rect(0.0, 0.0, 40.0, 40.0) if in_zone else rect(50, 50, 70, 70), (0, 0)
    )
    battle = Battle(
        "test", "003", "round", (zone,), first=1, tiebreak=tiebreak, chiefs=("p1u1f1", "p2u1f1"),
        worth=tuple(worth),
    )  # fmt: skip
    state = new_game(
        tuple(fighters), tuple(units), mode="barbarian", rounds=1, seed=1, battle=battle
    )
    gone = {"p1u2f3", "p1u2f4", "p2u2f2", "p2u2f3", "p2u2f4"}  # fallen earlier in the game
    return evolve(state, fighters=tuple(f for f in state.fighters if f.id not in gone))


def end_of(state: C4State) -> ev.C4GameEnded:
    state, events = run(state, [HoldAgent(), HoldAgent()])
    end = events[-1]
    assert isinstance(end, ev.C4GameEnded)
    return end


@pytest.mark.rule("C4-PLAYING-A-GAME")
def test_the_fourth_tiebreaker_army_points_destroyed() -> None:
    # CP-4TH-TIEBREAKER: Commanders 1-1, CP 0-0, army points in play 50-50 (a unit below 50 %
    # of its starting number is worth half its points, rounded up), destroyed 20-0
    state = tiebreak_game()
    assert scenario.tiebreakers(state) == (4, (20, 0), 0)
    end = end_of(state)
    assert end.winner == 0
    assert end.reason == "1 rounds played (4th tiebreaker: army points destroyed 20-0)"


@pytest.mark.rule("C4-PLAYING-A-GAME")
def test_the_third_tiebreaker_doubles_the_units_wholly_in_the_scenarios_area() -> None:
    # CP-3RD-TIEBREAKER: "Double the value … within the zone": player 1's u1 (30 A.P.) wholly in
    # the zone counts 60 — 80 against 50; only when the scenario names zones (tiebreak)
    state = tiebreak_game("zones", in_zone=True)
    assert scenario.value_in_play(state, 0) == 80
    end = end_of(state)
    assert end.winner == 0
    assert end.reason == "1 rounds played (3rd tiebreaker: army points in play 80-50)"
    assert scenario.tiebreakers(tiebreak_game("none", in_zone=True))[0] == 4


@pytest.mark.rule("C4-PLAYING-A-GAME")
def test_the_first_tiebreaker_the_only_commander_in_play() -> None:
    # CP-1ST-TIEBREAKER (the chiefs unknown: no assassination, the tiebreaker still counts them)
    state = tiebreak_game()
    state = evolve(state, battle=evolve(state.battle, chiefs=()))
    state, _ = remove_fighters(state, ("p2u1f1",))  # his leader replaced (# C4 Units)
    end = end_of(state)
    assert end.winner == 0 and "1st tiebreaker: Commanders in play 1-0" in end.reason


def conditions_game(**moved: tuple[float, float]) -> C4State:
    """The Standard's conditions on a 120 × 120 table: the centre (40..80 × 40..80)."""
    f1, u1 = company(0, 2, 3, y=20.0)
    f2, u2 = company(1, 2, 3, y=100.0)
    fighters = [
        evolve(f, x=moved[f.id][0], y=moved[f.id][1]) if f.id in moved else f for f in f1 + f2
    ]
    centre = Zone("the centre", "area", rect(40.0, 40.0, 80.0, 80.0), (0, 0))
    conditions = (
        Condition("standard", "commander-in-area", 1, "round", (), "the centre"),
        Condition("survival", "commander-alive"),
        Condition("attrition", "inflict-losses"),
        Condition("regicide", "kill-commander", 2),
    )
    battle = Battle(
        "The Standard", "XX-B-1", "conditions", (centre,), conditions=conditions,
        chiefs=("p1u1f1", "p2u1f1"), worth=tuple((f.id, 10) for f in fighters),
    )  # fmt: skip
    return new_game(
        tuple(fighters), tuple(u1 + u2), mode="barbarian", rounds=2, seed=1, battle=battle
    )


@pytest.mark.rule("C4-PLAYING-A-GAME")
def test_the_standard_conditions_scored_by_units() -> None:
    # XX-A-4 / XX-B-1 (The Standard): the Commander wholly in the centre at the end of a round
    # (met for good), the Commander alive; nobody inflicted more losses, no Commander killed
    state = conditions_game(p1u1f1=(60.0, 60.0), p1u1f2=(63.0, 60.0), p1u1f3=(57.0, 60.0))
    final, events = run(state, [HoldAgent(), HoldAgent()])
    assert final.battle is not None and ("standard", 0) in final.battle.met
    scored = [e for e in events if isinstance(e, ev.C4PointsScored)]
    assert scored == [ev.C4PointsScored(2, (2, 1), (2, 1), "VP")]  # after the last round only
    assert events[-1] == ev.C4GameEnded("2 rounds played", (2, 1), 0)
    replayed = replay(events)  # the record (met, points) replays
    assert replayed.battle == final.battle


@pytest.mark.rule("C4-PLAYING-A-GAME")
def test_kill_commander_and_losses_conditions() -> None:
    # XX-B-1 regicide (the Commander designated at the start is gone: another Incarnate does not
    # replace him) and XX-A-4 attrition (the enemy lost more A.P.)
    state = conditions_game()
    state, _ = remove_fighters(state, ("p2u1f1", "p2u2f1"))
    by_id = {c.id: c for c in state.battle.conditions}  # type: ignore[union-attr]
    assert scenario.fulfils(state, by_id["regicide"], 0)
    assert not scenario.fulfils(state, by_id["survival"], 1)
    assert scenario.fulfils(state, by_id["attrition"], 0)
    assert not scenario.fulfils(state, by_id["attrition"], 1)
    end = end_of(state)
    assert end.scores == (4, 0) and end.winner == 0  # alive 1 + attrition 1 + regicide 2


@pytest.mark.parametrize("name", ["standard", "assassination", "watchtower"])
def test_the_newly_offered_scenarios_play_through(name: str) -> None:
    # chapter 20 (XX-A-2, XX-B-1): their conditions as C4 units play them, a whole game AI vs AI
    config = C4Config(("griffin-vanguard", "lion-host"), ("greedy", "random"), 3, "marauder", 2,
                      scenario=name)  # fmt: skip
    state = build(config)
    assert state.battle is not None and state.battle.scoring == "conditions"
    assert all(state.battle.chiefs) and state.battle.worth
    kinds = {c.kind for c in state.battle.conditions}
    assert kinds <= set(scenario.CONDITION_KINDS)
    agents = [C4GreedyAgent(1), C4GreedyAgent(2)]
    final, events = run(state, agents)
    end = events[-1]
    assert isinstance(end, ev.C4GameEnded) and final.phase is Phase.OVER
    assert end.scores == final.battle.points  # type: ignore[union-attr]


def test_greedy_runs_for_the_flag_and_assaults_the_enemy_commander() -> None:
    # the greedy C4 agent plays for the objectives (docs/ai.md)
    f1, u1 = company(0, 2, 3, y=20.0)
    f2, u2 = company(1, 2, 3, y=100.0)
    battle = pack(chiefs=("p1u1f1", "p2u1f1"))
    state = new_game(tuple(f1 + f2), tuple(u1 + u2), mode="barbarian", seed=1, battle=battle)
    acts = options(state, "p1u2")
    act = objective_action(state, state.unit("p1u2"), acts, None)
    assert act is not None and act.action == "run"
    before = ((state.fighter("p1u2f1").x - 60) ** 2 + (20 - 60) ** 2) ** 0.5
    after = ((act.x - 60) ** 2 + (act.y - 60) ** 2) ** 0.5
    assert after < before  # towards the flag
    near = [evolve(f, x=f.x + 30.0, y=35.0) if f.unit == "p2u1" else f for f in f1 + f2]
    state = new_game(tuple(near), tuple(u1 + u2), mode="barbarian", seed=1, battle=battle)
    act = objective_action(state, state.unit("p1u2"), options(state, "p1u2"), None)
    assert act == UnitAction("p1u2", "assault", target="p2u1")  # the enemy Commander's unit


def test_the_svg_draws_the_scenery_areas_zones_and_flags() -> None:
    config = C4Config(("griffin-vanguard", "lion-host"), ("greedy", "random"), 3, "marauder", 6,
                      scenario="cp-close-quarters")  # fmt: skip
    picture = svg(build(config))
    assert picture.count('class="flag"') == 2 and picture.count('class="flag-reach"') == 2
    assert "flag-west" in picture and 'class="scenery"' in picture
    assert "Close Quarters: 0-0 CP" in picture
    conquest = svg(build(evolve(config, scenario="conquest")))
    assert conquest.count('class="area"') == 3 and "the centre" in conquest
    assert 'class="area"' not in svg(build(evolve(config, scenario=None)))
