"""The control-point pack (``003_…``, CLARIFICATIONS §8): zones, flags and objectives; control,
contest and dominate; CP scored at the end of every round's maintenance from round 2; the
scenario victory, the assassination, the Kill Box and the tiebreakers — through ``step()``."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.engine.actions.scenery import ShootScenery
from confrontation.engine.core.events import Event, GameEnded
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.outcome import Termination
from confrontation.engine.core.questions import (
    AnnouncementsDone,
    Choice,
    DieFace,
    EndActivation,
    FighterDone,
    KeepResult,
    PlayTop,
    Shoot,
    TakeCover,
)
from confrontation.engine.core.state import (
    GameState,
    MaintenanceProgress,
    Phase,
    StrategicProgress,
)
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import is_chance, is_over, legal, question, step
from confrontation.geometry.table import FORMATS, Table
from confrontation.scenarios import install, resolve
from confrontation.scenarios.base import BasicScenario, Scenario, load_scenario
from confrontation.scenarios.control_points import (
    FLAG_DIE,
    ControlPointsScored,
    DominateElement,
    FlagRemoved,
    ObjectiveDestroyed,
    Status,
    TiebreakerDecided,
    claims,
    cp_of,
    dominates_alone,
    may_attack,
)
from confrontation.scenarios.cp_pack import ControlPoints, shape_of
from engine_support import Script, activate, answer, fighter, only

CHIEF = fighter("Captain", ap=50)
MAN = fighter("Footman", ap=20)

# Player 1 deploys in area 1 (x 10-45 of the 120x120 table), Player 2 in area 2 (x 75-110).
# Cards: p1-c1 / p2-c1 the Commanders (one fighter each), p1-c2 / p2-c2 two footmen each.
# Unless a test moves them the Commanders stand where no scenario scores anything, out of the
# Kill Box (35-85 cm from every edge); the footmen not placed are off the table.
COMMANDERS = {"p1-c1-1": (48.0, 48.0, 0.0), "p2-c1-1": (70.0, 78.0, 180.0)}


def game(
    scenario: str | Scenario,
    positions: Mapping[str, tuple[float, float, float]],
    *,
    round_: int = 2,
    rounds: int = 6,
    cp: tuple[int, int] = (0, 0),
    tactics: int | None = 0,
    dead: tuple[str, ...] = (),
    champions: tuple[str, ...] = ("p1-c1", "p2-c1"),
) -> GameState:
    """The scenario on a 120x120 table, fighters placed by hand (the others off the table),
    about to play the maintenance phase of ``round_``."""
    chosen = resolve(scenario) if isinstance(scenario, str) else scenario
    specs = [SideSpec(f"Side {n}", "lion", ((CHIEF, 1), (MAN, 2))) for n in (1, 2)]
    state = game_from_specs(specs, rounds=rounds, seed=0)
    state = on_battlefield(state, "120x120", scenery=(), zones=(0, 1), deploy=False)
    state = place(state, {**COMMANDERS, **positions})
    state = install(state, chosen, champions=champions, rounds=rounds)
    record = state.scenario
    assert isinstance(record, BasicScenario) and record.control_points is not None
    points = dataclasses.replace(record.control_points, cp=cp)
    state = dataclasses.replace(state, scenario=dataclasses.replace(record, control_points=points))
    killed = [dataclasses.replace(state.fighter(f), wounds=4) for f in dead]
    if killed:
        state = state.with_fighters(*killed)
    return dataclasses.replace(
        state,
        round=round_,
        phase=Phase.MAINTENANCE,
        maintenance=MaintenanceProgress(),
        strategic=StrategicProgress(winner=tactics),
    )


def scored(script: Script) -> list[ControlPointsScored]:
    return only(script.events, ControlPointsScored)


def gained(state: GameState) -> tuple[int, ...]:
    script = Script(state)
    (event,) = scored(script)
    return event.gained


# Close Quarters: flag-west (Player 1's) at (40, 60), flag-east (Player 2's) at (80, 60): a
# 4 cm base, radius 2. A footman's square base is 2.5 cm; a fighter at (80, 64) is within
# 10 cm of flag-east, one at (80, 63.25) touches it (2 + 1.25).
TOUCH_EAST = (80.0, 63.25, 270.0)


@pytest.mark.rule("CP-FLAG", "CP-CONTROL", "CP-CLOSE-QUARTERS-SPECIAL-RULES")
def test_a_fighter_within_10_cm_controls_the_enemy_flag() -> None:
    state = game("cp-close-quarters", {"p1-c2-1": (80, 68, 0)})
    assert gained(state) == (2, 0)  # Enemy Flag: Control = 2 CP
    far = game("cp-close-quarters", {"p1-c2-1": (80, 75, 0)})
    assert gained(far) == (0, 0)  # 11.75 cm from the flag's base: not within 10 cm


@pytest.mark.rule("CP-FLAG", "CP-DOMINATE", "CP-CONTROL")
def test_the_commander_in_contact_dominates_and_does_not_control_as_well() -> None:
    state = game("cp-close-quarters", {"p1-c1-1": TOUCH_EAST, "p1-c2-1": (80, 68, 0)})
    script = Script(state)
    (event,) = scored(script)
    assert event.gained == (3, 0)  # dominate 3, not control 2 + dominate 3
    assert event.claims == ((0, "flag-east", "dominates", 3),)
    near = game("cp-close-quarters", {"p1-c1-1": (80, 66, 0)})  # within 10 cm, no contact
    assert gained(near) == (2, 0)


@pytest.mark.rule("CP-FLAG", "CP-CONTEST", "CP-OWN")
def test_an_enemy_within_10_cm_contests_the_flag() -> None:
    positions = {"p1-c1-1": TOUCH_EAST, "p2-c2-1": (88, 60, 180)}  # 4.75 cm from the flag
    assert gained(game("cp-close-quarters", positions)) == (0, 0)
    routed = game("cp-close-quarters", positions)
    guard = dataclasses.replace(routed.fighter("p2-c2-1"), routed=True)
    assert gained(routed.with_fighters(guard)) == (3, 0)  # a routed fighter contests nothing


@pytest.mark.rule("CP-CLOSE-QUARTERS-SPECIAL-RULES", "CP-DOMINATE")
def test_a_friendly_flag_scores_only_when_dominated() -> None:
    touch_west = (40.0, 63.25, 0.0)
    assert gained(game("cp-close-quarters", {"p1-c2-1": touch_west})) == (0, 0)
    assert gained(game("cp-close-quarters", {"p1-c1-1": touch_west})) == (1, 0)


# Incoming: zone-west (Player 1's) x 37.5-52.5, y 60-90; zone-east (Player 2's) x 67.5-82.5,
# y 30-60; emplacement-west (Player 1's) at (45, 35), emplacement-east at (75, 85).


@pytest.mark.rule("CP-ZONE", "CP-CONTROL", "CP-DOMINATE", "CP-INCOMING-SPECIAL-RULES")
def test_zones_control_and_dominate() -> None:
    inside = {"p1-c2-1": (75, 45, 0)}
    assert gained(game("cp-incoming", inside)) == (2, 0)  # Enemy Zone: Control = 2 CP
    half = {"p1-c2-1": (67.5, 45, 0)}  # half his base out of the zone
    assert gained(game("cp-incoming", half)) == (0, 0)
    assert gained(game("cp-incoming", {"p1-c1-1": (75, 45, 0)})) == (3, 0)  # dominate
    assert gained(game("cp-incoming", {"p1-c2-1": (45, 75, 0)})) == (0, 0)  # own: control 0
    assert gained(game("cp-incoming", {"p1-c1-1": (45, 75, 0)})) == (1, 0)  # own: dominate 1


@pytest.mark.rule("CP-ZONE", "CP-CONTEST")
def test_an_enemy_partly_in_the_zone_contests_it() -> None:
    positions = {"p1-c1-1": (75, 45, 0), "p2-c2-1": (68, 50, 180)}  # half in the zone
    assert gained(game("cp-incoming", positions)) == (0, 0)


CUSTOM = """
name = "Test pack"
rounds = 6
table = "120x120"
goal = "control-points"

[control_points]
tiebreak = "zones"

[[control_points.zones]]
name = "hill"
side = 2
shape = "circle"
x = 80.0
y = 60.0
radius = 15.0

[[control_points.flags]]
name = "banner"
side = 2
x = 80.0
y = 60.0

[[control_points.objectives]]
name = "idol"
x = 60.0
y = 100.0

[[conditions]]
id = "zone"
kind = "cp-zone"
whose = "enemy"
control = 2
dominate = 3

[[conditions]]
id = "flag"
kind = "cp-flag"
whose = "enemy"
dominate = 5

[[conditions]]
id = "idol"
kind = "cp-objective"
whose = "any"
control = 1
dominate = 4

[[conditions]]
id = "idol-destroyed"
kind = "cp-destroyed"
whose = "enemy"
cp = 1
"""


def custom(tmp_path: Path, text: str = CUSTOM) -> Scenario:
    path = tmp_path / "pack.toml"
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


@pytest.mark.rule("CP-DOMINATE")
def test_the_commander_dominates_one_element_only(tmp_path: Path) -> None:
    # In contact with the banner and wholly inside the hill: his player is asked which one he
    # dominates; the other he counts for as any fighter (the hill: control 2; the banner:
    # no control value).
    state = game(custom(tmp_path), {"p1-c1-1": TOUCH_EAST})
    script = Script(state)
    assert script.asked == QuestionKind.CP_DOMINATE and scored(script) == []
    asked = question(script.state)
    assert asked is not None and asked.player == 0
    assert legal(script.state) == [DominateElement("banner"), DominateElement("hill")]
    assert [o.label for o in asked.options] == ["banner (5 CP)", "hill (3 CP)"]
    script.play(DominateElement("hill"))
    (event,) = scored(script)
    assert event.claims == ((0, "hill", "dominates", 3),)
    again = Script(game(custom(tmp_path), {"p1-c1-1": TOUCH_EAST}))
    again.play(DominateElement("banner"))
    (event,) = scored(again)
    assert sorted(event.claims) == [(0, "banner", "dominates", 5), (0, "hill", "controls", 2)]
    points = cp_of(again.state)
    assert points is not None and points.chosen == ((2, 0, "banner"),)


@pytest.mark.rule("CP-DOMINATE")
def test_nobody_is_asked_when_his_commander_could_dominate_one_element(tmp_path: Path) -> None:
    script = Script(game(custom(tmp_path), {"p1-c1-1": (80.0, 50.0, 0.0)}))  # the hill only
    assert script.asked != QuestionKind.CP_DOMINATE
    (event,) = scored(script)
    assert event.claims == ((0, "hill", "dominates", 3),)


@pytest.mark.rule("CP-DOMINATE")
def test_the_greedy_player_names_the_element_that_scores_him_most(tmp_path: Path) -> None:
    from confrontation.agents.greedy import GreedyAgent

    script = Script(game(custom(tmp_path), {"p1-c1-1": TOUCH_EAST}))
    asked = question(script.state)
    assert asked is not None
    choice = GreedyAgent(seed=1).choose(script.state, asked, legal(script.state))
    assert choice == DominateElement("banner")  # 5 + the hill controlled 2, not 3 + 0
    # An enemy footman inside the hill (not the banner's 10 cm): the hill is contested, the
    # banner alone is left to dominate: nothing to ask.
    contested = game(custom(tmp_path), {"p1-c1-1": TOUCH_EAST, "p2-c2-1": (70.0, 50.0, 0.0)})
    script = Script(contested)
    assert script.asked != QuestionKind.CP_DOMINATE


@pytest.mark.rule("CP-OBJECTIVE", "CP-CONTROL", "CP-DOMINATE", "CP-CONTEST")
def test_objectives_control_dominate_and_contest(tmp_path: Path) -> None:
    pack = custom(tmp_path)
    # The idol's base: radius 2.5 at (60, 100); a footman's base (2.5 cm square) is within 5 cm
    # of it from y 91.25 on.
    assert gained(game(pack, {"p1-c2-1": (60, 94, 0)})) == (1, 0)
    assert gained(game(pack, {"p1-c1-1": (60, 94, 0)})) == (4, 0)
    contested = {"p1-c1-1": (60, 94, 0), "p2-c2-1": (60, 106, 180)}
    assert gained(game(pack, contested)) == (0, 0)
    assert gained(game(pack, {"p1-c2-1": (60, 90, 0)})) == (0, 0)  # 6.25 cm away


@pytest.mark.rule("CP-CONTEST", "CP-OBJECTIVE")
def test_an_enemy_objective_contests_the_zone_it_lies_in(tmp_path: Path) -> None:
    # The idol, enemy to all, moved into the hill: nobody controls the hill any more.
    text = CUSTOM.replace("x = 60.0\ny = 100.0", "x = 75.0\ny = 50.0")
    assert gained(game(custom(tmp_path, text), {"p1-c2-1": (85, 65, 0)})) == (0, 0)
    assert gained(game(custom(tmp_path), {"p1-c2-1": (85, 65, 0)})) == (2, 0)


# --- causes reached through step(): archers' shots (scripted dice) ------------------------------

ARCHER = fighter("Archer", aim=4, aim_str=12, ranges=(10.0, 20.0, 30.0))
PASSING = (AnnouncementsDone, EndActivation, FighterDone, KeepResult, PlayTop)


def archers(
    scenario: str,
    positions: Mapping[str, tuple[float, float, float]],
    *,
    side: int = 0,
    cp: tuple[int, int] = (0, 0),
) -> GameState:
    """The scenario before round 1: Player ``side + 1``'s second card two archers (AIM 4,
    STR 12: a hit at RES 8 kills outright, 4 SP off an element), the other's two footmen;
    the Commanders where :data:`COMMANDERS` puts them, the others at ``positions``."""
    cards = [((CHIEF, 1), (ARCHER, 2)) if n == side else ((CHIEF, 1), (MAN, 2)) for n in (0, 1)]
    specs = [SideSpec(f"Side {n + 1}", "lion", cards[n]) for n in (0, 1)]
    state = game_from_specs(specs, rounds=6, seed=0)
    state = on_battlefield(state, "120x120", scenery=(), zones=(0, 1), deploy=False)
    state = place(state, {**COMMANDERS, **positions})
    state = install(state, resolve(scenario), champions=("p1-c1", "p2-c1"), rounds=6)
    record = state.scenario
    assert isinstance(record, BasicScenario) and record.control_points is not None
    points = dataclasses.replace(record.control_points, cp=cp)
    return dataclasses.replace(state, scenario=dataclasses.replace(record, control_points=points))


def volley(state: GameState, card: str, shots: Sequence[Choice]) -> tuple[GameState, list[Event]]:
    """Round 1 up to the activation of ``card`` (:func:`engine_support.activate`), then its
    archers' ``shots`` in turn, each a hit (5) and a damage roll of 5 and 6 (a target
    fighter does not take cover)."""
    log: list[Event] = []
    state = activate(state, card, log)
    state = answer(state, AnnouncementsDone(), log)
    for shot in shots:
        assert shot in legal(state), f"{shot!r} is not offered"
        state = answer(state, shot, log)
        if TakeCover(False) in legal(state):  # VI-A-2: the target stands
            state = answer(state, TakeCover(False), log)
        for face in (5, 5, 6):
            if state.pending is None or state.pending.player is not None:
                break
            state = answer(state, DieFace(face), log)
        done = FighterDone(shot.fighter)  # type: ignore[attr-defined]
        if not is_over(state) and done in legal(state):
            state = answer(state, done, log)
    return state, log


def pass_until(
    state: GameState, log: list[Event], scorings: int
) -> tuple[GameState, list[ControlPointsScored]]:
    """Play on, every player passing (ending activations, keeping results) and the dice
    going 1, 2 … 6 in turn, until ``scorings`` more scorings of control points are made."""
    faces = itertools.cycle(range(1, 7))
    made: list[ControlPointsScored] = []
    while len(made) < scorings:
        assert not is_over(state)
        if is_chance(state):
            choice: Choice = DieFace(next(faces))
        else:
            options = legal(state)
            choice = next((c for t in PASSING for c in options if isinstance(c, t)), options[0])
        state, events = step(state, choice)
        log.extend(events)
        made += only(events, ControlPointsScored)
    return state, made


@pytest.mark.rule("CP-PROCESS-OF-ELIMINATION-SPECIAL-RULES", "CP-OBJECTIVE")
def test_only_the_destroying_player_scores_a_monolith_once() -> None:
    # Two archers 12.25 cm from monolith-north (5 SP, RES 8, enemy to all): 4 SP, then 1.
    state = archers(
        "cp-process-of-elimination", {"p1-c2-1": (58.0, 94.0, 90.0), "p1-c2-2": (62.0, 94.0, 90.0)}
    )
    shots = [ShootScenery("p1-c2-1", "monolith-north"), ShootScenery("p1-c2-2", "monolith-north")]
    state, log = volley(state, "p1-c2", shots)
    assert only(log, ObjectiveDestroyed) == [ObjectiveDestroyed("monolith-north", 0)]
    points = cp_of(state)
    assert points is not None and points.destroyed == (("monolith-north", 0),)
    assert points.history == ()  # round 1: nothing scored yet
    state, (second, third) = pass_until(state, log, 2)
    assert second.round == 2 and (0, "monolith-north", "destroyed", 1) in second.claims
    assert not any(c[0] == 1 and c[2] == "destroyed" for c in second.claims)  # not Player 2
    assert third.round == 3 and not any(c[2] == "destroyed" for c in third.claims)  # once
    points = cp_of(state)
    assert points is not None and points.paid == ("monolith-north",)


@pytest.mark.rule("CP-INCOMING-SPECIAL-RULES", "CP-OBJECTIVE")
def test_a_friendly_objective_is_scored_by_the_enemy_and_not_attacked_by_its_side() -> None:
    # emplacement-west is Player 1's: his archers are not offered a shot at it; Player 2's
    # (8.75 cm away) destroy it and Player 2 scores it.
    near = {"p1-c2-1": (42.0, 46.0, 270.0), "p1-c2-2": (44.0, 46.0, 270.0)}
    mine = activate(archers("cp-incoming", near), "p1-c2")
    mine = answer(mine, AnnouncementsDone(), [])
    assert ShootScenery("p1-c2-1", "emplacement-west") not in legal(mine)  # in range, below
    assert not may_attack(mine, "p1-c2-1", "emplacement-west")
    theirs = {"p2-c2-1": (41.0, 46.0, 270.0), "p2-c2-2": (44.0, 46.0, 270.0)}
    state = archers("cp-incoming", theirs, side=1)
    shots = [ShootScenery(f"p2-c2-{n}", "emplacement-west") for n in (1, 2)]
    state, log = volley(state, "p2-c2", shots)
    assert only(log, ObjectiveDestroyed) == [ObjectiveDestroyed("emplacement-west", 1)]
    state, (scoring,) = pass_until(state, log, 1)
    assert (1, "emplacement-west", "destroyed", 1) in scoring.claims
    assert not any(c[0] == 0 and c[2] == "destroyed" for c in scoring.claims)


@pytest.mark.rule("CP-SCENARIO-REFERENCE-SHEET", "CP-INCOMING-SPECIAL-RULES")
def test_no_control_points_in_round_1() -> None:
    state = game("cp-incoming", {"p1-c1-1": (75, 45, 0)}, round_=1)
    assert scored(Script(state)) == []
    assert scored(Script(game("cp-incoming", {"p1-c1-1": (75, 45, 0)}))) != []


@pytest.mark.rule("CP-SCENARIO-VICTORY", "CP-INCOMING-VICTORY-CONDITIONS")
def test_five_cp_and_more_than_the_opponent_win_at_once() -> None:
    state = game("cp-incoming", {"p1-c1-1": (75, 45, 0)}, round_=3, cp=(3, 0))
    script = Script(state)
    (ended,) = only(script.events, GameEnded)
    assert ended.reason.startswith(Termination.SCENARIO_VICTORY.value)
    assert (ended.winner, ended.scores) == (0, (6, 0))
    assert script.state.round == 3 and script.state.phase is Phase.OVER
    level = game("cp-incoming", {"p1-c1-1": (75, 45, 0)}, round_=3, cp=(2, 5))
    assert only(Script(level).events, GameEnded) == []  # 5 CP each: not more than him


@pytest.mark.rule("CP-KILL-BOX", "CP-CLOSE-QUARTERS-SPECIAL-RULES")
def test_a_commander_in_the_kill_box_gives_his_opponent_2_cp() -> None:
    boxed = {"p1-c1-1": (60, 60, 0), "p2-c1-1": (100, 60, 180)}  # 18.75 cm from the edge
    assert gained(game("cp-close-quarters", boxed)) == (2, 0)
    out = {"p1-c1-1": (60, 60, 0), "p2-c1-1": (84, 60, 180)}  # his base 34.75-37.25 cm away
    assert gained(game("cp-close-quarters", out)) == (0, 0)
    assert scored(Script(game("cp-close-quarters", boxed, round_=1))) == []
    assert gained(game("cp-incoming", boxed)) == (0, 0)  # no Kill Box in Incoming


@pytest.mark.rule("CP-ASSASSINATION-VICTORY")
def test_the_last_commander_in_play_wins_after_one_more_scoring() -> None:
    # Player 1 has 4 CP, his Commander dominates zone-east (3 CP); in round 1 his archers
    # shoot Player 2's Commander dead: the game ends at once, after one more scoring that
    # gives him 7 CP and yet is no scenario victory.
    shooters = {"p1-c2-1": (60.0, 66.0, 60.0), "p1-c2-2": (64.0, 66.0, 60.0)}
    state = archers("cp-incoming", {"p1-c1-1": (75.0, 45.0, 0.0), **shooters}, cp=(4, 0))
    state, log = volley(state, "p1-c2", [Shoot("p1-c2-1", "p2-c1-1")])
    assert not state.fighter("p2-c1-1").alive
    (ended,) = only(log, GameEnded)
    assert ended.reason.startswith(Termination.ASSASSINATION.value) and ended.winner == 0
    (last,) = only(log, ControlPointsScored)
    assert last.last and last.round == 1 and last.gained == (3, 0)
    assert last.claims == ((0, "zone-east", "dominates", 3),)
    assert ended.scores == (7, 0) and is_over(state)


@pytest.mark.rule("CP-ASSASSINATION-VICTORY", "CP-1ST-TIEBREAKER")
def test_every_commander_fallen_at_once_goes_to_the_tiebreakers() -> None:
    state = game(
        "cp-incoming", {"p1-c2-1": (75, 45, 0)}, round_=3, cp=(1, 0), dead=("p1-c1-1", "p2-c1-1")
    )
    script = Script(state)
    script.play(legal(script.state)[0])
    (ended,) = only(script.events, GameEnded)
    assert ended.reason.startswith(Termination.ASSASSINATION.value)
    (decided,) = only(script.events, TiebreakerDecided)
    assert decided.number == 2 and ended.winner == 0  # no Commanders: the CP decide


def last_round(
    scenario: str | Scenario, positions: Mapping[str, tuple[float, float, float]], **kw: object
) -> TiebreakerDecided:
    state = game(scenario, positions, round_=6, rounds=6, **kw)  # type: ignore[arg-type]
    script = Script(state)
    (ended,) = only(script.events, GameEnded)
    assert ended.reason == Termination.ROUNDS_PLAYED.value
    (decided,) = only(script.events, TiebreakerDecided)
    assert ended.winner == decided.winner
    return decided


HOME = dict(COMMANDERS)


@pytest.mark.rule("CP-1ST-TIEBREAKER")
def test_tiebreaker_1_most_commanders_in_play() -> None:
    # Player 2's army has no Champion: he never had a Commander (no assassination).
    decided = last_round("cp-incoming", dict(HOME), cp=(0, 3), champions=("p1-c1",))
    assert (decided.number, decided.figures, decided.winner) == (1, (1, 0), 0)


@pytest.mark.rule("CP-2ND-TIEBREAKER")
def test_tiebreaker_2_most_control_points() -> None:
    decided = last_round("cp-incoming", dict(HOME), cp=(2, 3))
    assert (decided.number, decided.figures, decided.winner) == (2, (2, 3), 1)


@pytest.mark.rule("CP-3RD-TIEBREAKER", "CP-INCOMING-VICTORY-CONDITIONS")
def test_tiebreaker_3_value_in_play_doubled_in_the_enemy_zone() -> None:
    # A footman each (20 AP): Player 1's stands in Player 2's zone and counts twice.
    # Player 2's footman half in his own zone contests it (Player 1 scores nothing there) and
    # is not doubled.
    positions = {**HOME, "p1-c2-1": (75, 40, 0), "p2-c2-1": (67.5, 50, 180)}
    decided = last_round("cp-incoming", positions, cp=(3, 3))
    assert (decided.number, decided.figures, decided.winner) == (3, (90, 70), 0)
    # In Process of Elimination the area is every zone, his own as well.
    positions = {**HOME, "p1-c2-1": (30, 30, 0), "p2-c2-1": (60, 85, 180)}  # +1 CP: 3 to 3
    decided = last_round("cp-process-of-elimination", positions, cp=(3, 2))
    assert (decided.number, decided.figures, decided.winner) == (3, (70, 90), 1)


@pytest.mark.rule("CP-3RD-TIEBREAKER", "CP-INCURSION-VICTORY-CONDITIONS")
def test_tiebreaker_3_doubles_within_10_cm_of_each_flag() -> None:
    positions = {**HOME, "p1-c2-1": (30, 30, 0), "p2-c2-1": (60, 31, 180)}  # +1 CP: 3 to 3
    decided = last_round("cp-incursion", positions, cp=(3, 2))
    assert (decided.number, decided.winner) == (3, 1)


@pytest.mark.rule("CP-4TH-TIEBREAKER")
def test_tiebreaker_4_value_destroyed_then_a_tie() -> None:
    positions = {**HOME, "p1-c2-1": (30, 30, 0), "p2-c2-1": (100, 100, 180)}
    level = dict(positions)
    decided = last_round("cp-incoming", level, cp=(3, 3))
    assert (decided.number, decided.winner) == (5, None)  # all four level: a tie
    # Player 2 lost a second footman (20 AP) but Player 1's second footman is off the table:
    # 70 AP in play each, Player 1 destroyed 20 AP more.
    decided = last_round("cp-incoming", positions, cp=(3, 3), dead=("p2-c2-2",))
    assert (decided.number, decided.figures, decided.winner) == (4, (20, 0), 0)


@pytest.mark.rule("CP-INCURSION-SPECIAL-RULES")
def test_incursion_removes_one_flag_at_random_after_round_1() -> None:
    state = game("cp-incursion", {"p1-c1-1": (60, 63.25, 0)}, round_=1)
    script = Script(state)
    assert script.asked == FLAG_DIE
    script.play(2)  # faces 1-2: the first flag, 3-4 the second, 5-6 the third
    assert only(script.events, FlagRemoved) == [FlagRemoved("flag-centre")]
    ground = script.state.battleground
    assert ground is not None and "flag-centre" not in [p.name for p in ground.scenery or ()]
    nothing = game("cp-incursion", {"p1-c1-1": (60, 63.25, 0)}, round_=2)
    points = cp_of(script.state)
    assert points is not None
    record = nothing.scenario
    assert isinstance(record, BasicScenario) and record.control_points is not None
    moved = dataclasses.replace(record.control_points, removed=points.removed)
    after = dataclasses.replace(nothing, scenario=dataclasses.replace(record, control_points=moved))
    assert gained(after) == (0, 0)  # his Commander touched the centre flag, now gone
    assert gained(nothing) == (2, 0)


def test_only_the_tactics_winner_scores_where_both_would_dominate() -> None:
    # §8: never met with the pack's contest rules (each Commander contests the other), but
    # the rule is applied to whatever the statuses say.
    state = game("cp-incursion", {"p1-c1-1": (60, 63.25, 0), "p2-c1-1": (60, 56.75, 180)})
    state.scratch["cp-statuses"] = {
        ("flag-centre", p): Status("flag-centre", p, False, True, True) for p in (0, 1)
    }
    assert [(c.player, c.how) for c in claims(state, 1)] == [(1, "dominates")]
    assert [(c.player, c.how) for c in claims(state, 0)] == [(0, "dominates")]


@pytest.mark.rule("CP-SCENARIO-REFERENCE-SHEET")
def test_the_120x120_table_and_the_six_scenarios_load() -> None:
    assert FORMATS["120x120"] == (120.0, 120.0)
    assert Table.of("120x120").height == 120.0
    for name in (
        "close-quarters",
        "incoming",
        "process-of-elimination",
        "incursion",
        "destruction",
        "rally-point",
    ):
        scenario = resolve(f"cp-{name}")
        assert scenario.table == "120x120" and scenario.commander
        assert isinstance(scenario.control_points, ControlPoints)
        assert scenario.summary


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('goal = "control-points"', 'goal = "conditions"'), "belongs to goal"),
        (("[control_points]\n", "[nothing]\n"), "nothing"),
        (('tiebreak = "zones"', 'tiebreak = "everywhere"'), "control_points.tiebreak"),
        (("radius = 15.0", "radius = 70.0"), "not wholly on the table"),
        (('name = "banner"', 'name = "hill"'), "appears twice"),
        (("dominate = 5", "dominate = -1"), "conditions[2]"),
        (('whose = "any"', 'whose = "mine"'), "whose"),
        (("x = 60.0\ny = 100.0", "x = 60.0\ny = 119.0"), "6 cm or more"),
    ],
)
def test_bad_pack_files_are_one_line_errors(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    text = CUSTOM.replace(*change, 1)
    assert text != CUSTOM
    with pytest.raises(LoadError) as error:
        custom(tmp_path, text)
    assert message in str(error.value)
    assert "\n" not in str(error.value) and "pack.toml" in str(error.value)


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet='abcxyz=[]{}."\n 1-5', max_size=50))
def test_garbled_pack_files_never_raise_anything_else(tmp_path_factory, garbage: str) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("garbled")
    path = folder / "g.toml"
    head, _, tail = CUSTOM.partition("[[control_points.zones]]")
    path.write_text(head + garbage + "\n[[control_points.zones]]" + tail, encoding="utf-8")
    try:
        load_scenario(path)
    except LoadError as error:
        assert "\n" not in str(error)


@pytest.mark.parametrize(
    ("name", "where", "points", "kill_box", "tiebreak"),
    [
        pytest.param(
            "close-quarters",
            TOUCH_EAST,
            3,
            True,
            "none",
            marks=pytest.mark.rule("CP-CLOSE-QUARTERS", "CP-CLOSE-QUARTERS-SPECIAL-RULES"),
        ),
        pytest.param(
            "incoming",
            (75.0, 45.0, 0.0),
            3,
            False,
            "enemy-zones",
            marks=pytest.mark.rule(
                "CP-INCOMING", "CP-INCOMING-SPECIAL-RULES", "CP-INCOMING-VICTORY-CONDITIONS"
            ),
        ),
        pytest.param(
            "process-of-elimination",
            (60.0, 35.0, 0.0),
            2,
            True,
            "zones",
            marks=pytest.mark.rule(
                "CP-PROCESS-OF-ELIMINATION",
                "CP-PROCESS-OF-ELIMINATION-SPECIAL-RULES",
                "CP-PROCESS-OF-ELIMINATION-VICTORY-CONDITIONS",
            ),
        ),
        pytest.param(
            "incursion",
            (60.0, 63.25, 0.0),
            2,
            False,
            "flags",
            marks=pytest.mark.rule(
                "CP-INCURSION", "CP-INCURSION-SPECIAL-RULES", "CP-INCURSION-VICTORY-CONDITIONS"
            ),
        ),
        pytest.param(
            "destruction",
            (60.0, 60.0, 0.0),
            2,
            True,
            "zones",
            marks=pytest.mark.rule(
                "CP-DESTRUCTION",
                "CP-DESTRUCTION-SPECIAL-RULES",
                "CP-DESTRUCTION-VICTORY-CONDITIONS",
            ),
        ),
        pytest.param(
            "rally-point",
            (75.0, 35.0, 0.0),
            3,
            False,
            "enemy-zones",
            marks=pytest.mark.rule(
                "CP-RALLY-POINT",
                "CP-RALLY-POINT-SPECIAL-RULES",
                "CP-RALLY-POINT-VICTORY-CONDITIONS",
            ),
        ),
    ],
)
@pytest.mark.rule("CP-SCENARIO-ELEMENT")
def test_each_scenario_scores_its_own_elements(
    name: str, where: tuple[float, float, float], points: int, kill_box: bool, tiebreak: str
) -> None:
    scenario = resolve(f"cp-{name}")
    assert scenario.control_points is not None
    assert (scenario.control_points.kill_box, scenario.control_points.tiebreak) == (
        kill_box,
        tiebreak,
    )
    assert scenario.control_points.win_at == 5 and scenario.rounds == 6
    # His Commander on the element worth most to him (the enemy's, else a neutral one).
    assert gained(game(f"cp-{name}", {"p1-c1-1": where})) == (points, 0)
    # Player 2's Commander on its mirror image (the layouts are symmetric by a half turn).
    mirror = (120.0 - where[0], 120.0 - where[1], 180.0)
    moved = {"p1-c1-1": (70.0, 78.0, 0.0), "p2-c1-1": mirror}
    assert gained(game(f"cp-{name}", moved)) == (0, points)


@pytest.mark.rule("CP-SCENARIO-REFERENCE-SHEET")
def test_the_narration_says_who_controls_or_dominates_what() -> None:
    from confrontation.engine.core.narrate import narrate

    state = game("cp-incoming", {"p1-c1-1": (75, 45, 0), "p2-c2-1": (45, 75, 180)})
    script = Script(state, whole_log=True)
    told = [line for line in narrate(script.events) if "scoring" in line]
    assert [line.split(" — ", 1)[-1] for line in told] == [
        "Control points scoring: Player 2 controls zone-west (2 CP) and Player 1 dominates "
        "zone-east (3 CP). Control points 3 to 2."
    ]


@pytest.mark.rule("CP-SCENARIO-REFERENCE-SHEET")
def test_a_played_game_reports_its_control_points_per_round() -> None:
    from confrontation.sim.game import GameConfig, play_game, result_document

    config = GameConfig(scenario="cp-incursion", agents=("greedy", "random"), seed=2, rounds=2)
    result = play_game(config)
    document = result_document(result)
    points = document["control_points"]
    assert [r["round"] for r in points["per_round"]] in ([2], [1], [])
    assert len(points["flags_removed"]) == 1
    assert [p["vp"] for p in document["players"]] == points["totals"]


@pytest.mark.rule("CP-KILL-BOX")
def test_the_greedy_commander_keeps_out_of_the_kill_box() -> None:
    from confrontation.agents.assess import worth
    from confrontation.agents.greedy import KILL_BOX_SHUN, position_value

    for name, shunned in (("cp-close-quarters", True), ("cp-incoming", False)):
        state = game(name, {})
        chief = state.fighter("p1-c1-1")
        inside = position_value(state, chief, 30.0, 48.0)  # 31.25 cm from the edge
        outside = position_value(state, chief, 40.0, 48.0)  # 38.75 cm
        shun = KILL_BOX_SHUN * worth(state, chief)
        assert (outside - inside >= shun) is shunned
        footman = dataclasses.replace(state.fighter("p1-c2-1"), x=40.0, y=30.0, on_table=True)
        state = state.with_fighters(footman)
        gap = position_value(state, footman, 40.0, 48.0) - position_value(
            state, footman, 30.0, 48.0
        )
        assert gap < shun  # only the Commander shuns it


@pytest.mark.rule("CP-DOMINATE", "CP-FLAG")
def test_the_commander_is_offered_a_walk_into_base_contact_with_a_flag() -> None:
    """A walk ends on the engine's 0.01 cm grid, yet base contact is within 0.005 cm: the
    pack offers the Commander places where the side of his base touches a flag (his way
    tangent to it), and the greedy agent prefers them; nobody else is offered them."""
    from confrontation.agents.greedy import position_value
    from confrontation.engine.table.field import destinations

    for where in ((50.0, 50.0, 0.0), (70.0, 58.0, 180.0), (58.3, 66.6, 270.0)):
        state = game("cp-incursion", {"p1-c1-1": where, "p1-c2-1": (40.0, 60.0, 0.0)})
        points = cp_of(state)
        assert points is not None
        centre = points.element("flag-centre")
        spots = destinations(state, "p1-c1-1", 20.0, mov=10.0)
        touching = [s for s in spots if s.towards == "to contact with flag-centre"]
        assert touching
        for spot in touching:
            chief = dataclasses.replace(
                state.fighter("p1-c1-1"), x=spot.x, y=spot.y, facing=spot.facing
            )
            assert dominates_alone(state, chief, centre)
            moved = state.with_fighters(chief)
            script = Script(moved)
            assert ("flag-centre" in [c[1] for c in scored(script)[0].claims]) is True
        chief = state.fighter("p1-c1-1")
        best = max(spots, key=lambda s: position_value(state, chief, s.x, s.y, s.facing))
        assert best.towards.startswith("to contact with")
        footman = [s.towards for s in destinations(state, "p1-c2-1", 20.0, mov=10.0)]
        assert not any(t.startswith("to contact") for t in footman)


@pytest.mark.rule("XX-A-2", "CP-ZONE")
@pytest.mark.parametrize("name", ["cp-incoming", "cp-rally-point"])
def test_standard_scenery_keeps_6_cm_from_the_zones_flags_and_objectives(name: str) -> None:
    """docs/rulings.md "003": the random standard scenery keeps 6 cm from the pack's zones,
    as from its flags and objectives (scenario scenery) — no forest on a zone."""
    from shapely.geometry import Polygon

    from confrontation.engine.table.field import scenery_of

    specs = [SideSpec(f"Side {n}", "lion", ((CHIEF, 1), (MAN, 2))) for n in (1, 2)]
    state = on_battlefield(game_from_specs(specs, seed=4), "120x120", scenery_count=6)
    state = install(state, resolve(name))
    ground = state.battleground
    points = state.scenario.control_points  # type: ignore[union-attr]
    assert ground is not None and points is not None
    zones = [shape_of(z) for z in points.elements if z.kind == "zone"]
    kept = [Polygon(o) for o in ground.clear]
    assert len(kept) == len(zones) and all(
        k.buffer(0.01).covers(z) for k, z in zip(kept, zones, strict=True)
    )
    laid_any = False
    for k in range(6):
        play = Script(state)
        play.play(*[(5 * k + 7 * i * i) % 6 + 1 for i in range(12)])
        laid = play.state.battleground
        assert laid is not None and laid.scenery
        standard = [scenery_of(p).footprint for p in laid.scenery if not p.scenario]
        others = [shape_of(e) for e in points.elements if e.kind != "zone"] + zones
        laid_any = laid_any or bool(standard)
        for footprint in standard:
            assert all(footprint.distance(o) >= 6.0 - 1e-6 for o in others)
    assert laid_any
