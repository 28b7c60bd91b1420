"""XX-A-4 tournament points and XX-A-5 goal-average and bonus (chapter 20, French; C3 "Bonus",
"Neutral Fighters"), and XX-B-3's value of a summoned fighter in the losses.

The table of XX-A-4 row by row, the pairs it does not list, three players; the goal-average
of whole games played through ``step()`` with fighters killed in the maintenance phase
("quelles qu'en soient les causes"), the 100 AP cap, neutral fighters, summoned fighters;
the result of a bundled scenario played from the command line.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from confrontation.armylists.load import LoadError
from confrontation.cli import app
from confrontation.dice import ScriptedRoller
from confrontation.engine.core.events import Event, FighterKilled, GameEnded
from confrontation.engine.core.questions import AnnouncementsDone, Choice, EndActivation, Question
from confrontation.engine.core.registry import Transition
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import GameState, Phase
from confrontation.engine.neutral import NeutralSpec, add_neutrals
from confrontation.engine.record import replay
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import run
from confrontation.scenarios import install, load_scenario, standings
from confrontation.scenarios.results import (
    SCORING,
    TOURNAMENT_POINTS,
    BonusEarned,
    ResultScored,
    TournamentPoints,
    load_tournament_points,
    tournament_points,
)
from confrontation.sim.game import GameConfig, play_game, result_document
from engine_support import fighter, plugged, skirmish

TABLE = [
    (3, 0, 9),
    (2, 0, 8),
    (2, 1, 7),
    (1, 0, 6),
    (1, 1, 5),
    (0, 0, 4),
    (1, 2, 3),
    (0, 1, 2),
    (0, 2, 1),
    (0, 3, 0),
]
"""XX-A-4's table: (PV du joueur, PV de l'adversaire, points de tournoi)."""


# --- XX-A-4: tournament points ----------------------------------------------------------------


@pytest.mark.rule("XX-A-4")
@pytest.mark.parametrize(("vp", "enemy_vp", "tp"), TABLE)
def test_every_row_of_the_table(vp: int, enemy_vp: int, tp: int) -> None:
    assert load_tournament_points().points(vp, enemy_vp) == tp
    assert tournament_points((vp, enemy_vp))[0] == tp  # Player 1 reads it from his side
    assert tournament_points((enemy_vp, vp))[1] == tp  # and so does Player 2


@pytest.mark.rule("XX-A-4")
def test_the_bundled_file_is_the_table_of_the_book() -> None:
    table = load_tournament_points()
    assert list(table.rows) == TABLE
    assert table.bonus_cap == 100  # XX-A-5 "Le bonus maximal est de 100PA"


@pytest.mark.rule("XX-A-4")
@pytest.mark.parametrize(
    ("vp", "enemy_vp", "tp"),
    [
        (2, 2, 5),  # a draw with VP: as 1-1
        (3, 3, 5),
        (3, 2, 7),  # won by one: as 2-1
        (2, 3, 3),  # lost by one: as 1-2
        (3, 1, 8),  # won by two: as 2-0
        (1, 3, 1),
        (4, 0, 9),  # more than three conditions: won by four, the best row
        (0, 4, 0),
        (5, 1, 9),
    ],
)
def test_a_pair_outside_the_table_reads_the_nearest_row(vp: int, enemy_vp: int, tp: int) -> None:
    """docs/rulings.md "XX-A-4": the nearest difference, then the nearest VP."""
    assert load_tournament_points().points(vp, enemy_vp) == tp


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 12))
def test_more_vp_never_scores_fewer_tp(vp: int, enemy_vp: int, more: int) -> None:
    table = load_tournament_points()
    assert table.points(vp + more, enemy_vp) >= table.points(vp, enemy_vp)
    assert table.points(vp, enemy_vp + more) <= table.points(vp, enemy_vp)
    # a game's two sides share 9 or 10 TP: a win 9-0, 8-1, 7-3 / 6-2, a draw 5-5 / 4-4
    total = table.points(vp, enemy_vp) + table.points(enemy_vp, vp)
    assert total in (8, 9, 10)


@pytest.mark.rule("XX-A-4", "XX-F")
def test_three_players_each_against_the_best_other_score() -> None:
    # Player 1 3 VP against the best other (2): as 3-2, 7 TP; Player 2 1 VP against 3: 1 TP;
    # Player 3 2 VP against 3: as 2-3, 3 TP.
    assert tournament_points((3, 1, 2)) == (7, 1, 3)
    # two leaders level: each reads the other's score, a draw
    assert tournament_points((2, 2, 0)) == (5, 5, 1)


def _table(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tp.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bonus_cap = 100\n", "rows"),
        ("[[rows]]\nvp = 1\nenemy_vp = 0\npoints = -1\n", "points"),
        (2 * "[[rows]]\nvp = 1\nenemy_vp = 0\npoints = 6\n", "the pair 1-0 appears twice"),
        ("[[rows]]\nvp = 1\nenemy = 0\npoints = 6\n", "enemy"),
        ("bonus_cap = -5\n[[rows]]\nvp = 0\nenemy_vp = 0\npoints = 4\n", "bonus_cap"),
        ("[[rows]\n", "invalid TOML"),
    ],
)
def test_a_bad_table_is_a_one_line_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(LoadError) as error:
        load_tournament_points(_table(tmp_path, text))
    assert message in str(error.value) and "\n" not in str(error.value)
    assert "tp.toml" in str(error.value)


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet='abcdepintsvy_=[]"\n 0123-', max_size=60))
def test_garbled_tables_raise_nothing_but_load_errors(tmp_path_factory, garbage: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("tp") / "g.toml"
    path.write_text(garbage, encoding="utf-8")
    try:
        table = load_tournament_points(path)
    except LoadError as error:
        assert "\n" not in str(error)
    else:
        assert table.rows and table.points(0, 0) >= 0


# --- whole games: goal-average, bonus and TP through step() -----------------------------------

HERO = fighter("Hero", ap=45)
FOOT = fighter("Footman", ap=20)
IMP = dataclasses.replace(fighter("Imp", ap=15), people="elemental")
BEAST = fighter("Beast", ap=30)

SCENARIO = """
name = "Duel"
section = "XX-A-4"
rounds = 1
goal = "conditions"

[[areas]]
name = "the centre"
shape = "centre"

[[conditions]]
id = "regicide"
kind = "kill-commander"

[[conditions]]
id = "survival"
kind = "commander-alive"

[[conditions]]
id = "attrition"
kind = "inflict-losses"

[[bonus]]
id = "bloody"
kind = "inflict-losses"
ap = 60

[[bonus]]
id = "alive"
kind = "commander-alive"
ap = 70
"""

POSITIONS = {
    "p1-c1-1": (20, 30, 0),
    "p1-c2-1": (20, 40, 0),
    "p1-c2-2": (20, 20, 0),
    "p2-c1-1": (100, 30, 180),
    "p2-c2-1": (100, 40, 180),
    "p2-c2-2": (100, 20, 180),
}


class Passive:
    """Ends every activation at once: only the maintenance phase's deaths change the game."""

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        ends = [c for c in legal if isinstance(c, EndActivation | AnnouncementsDone)]
        return ends[0] if ends else legal[0]


def killed_at_maintenance(*victims: str):  # type: ignore[no-untyped-def]
    """A maintenance hook that kills ``victims`` (a sacrifice, a neutral's blow: "quelles qu'en
    soient les causes", XX-A-5)."""

    def hook(state: GameState) -> Transition:
        dead = [dataclasses.replace(state.fighter(v), wounds=4) for v in victims]
        alive = [f for f in dead if state.fighter(f.id).alive]
        events: list[Event] = [FighterKilled(f.id) for f in alive]
        return state.with_fighters(*alive), events

    return hook


def duel(
    tmp_path: Path, text: str = SCENARIO, sides: Sequence[SideSpec] | None = None
) -> GameState:
    path = tmp_path / "duel.toml"
    path.write_text(text, encoding="utf-8")
    if sides is None:
        state = skirmish([[(HERO, 1), (FOOT, 2)], [(HERO, 1), (FOOT, 2)]], POSITIONS, rounds=1)
    else:
        state = game_from_specs(sides, rounds=1)
        state = place(on_battlefield(state, scenery=(), zones=(0, 1), deploy=False), POSITIONS)
    return install(state, load_scenario(path), champions=("p1-c1", "p2-c1"))


def played(state: GameState, *victims: str) -> tuple[GameState, list[Event]]:
    state = plugged(state, maintenance_hooks=[("markers", killed_at_maintenance(*victims))])
    return run(state, [Passive(), Passive()], ScriptedRoller([3, 4] * 60))


@pytest.mark.rule("XX-A-5", "XX-A-4", "C3-BONUS")
def test_goal_average_enemy_losses_minus_own_losses_plus_the_capped_bonus(
    tmp_path: Path,
) -> None:
    """Player 2 loses his Commander (45) and a Footman (20), Player 1 a Footman (20): Player 1
    fulfils the three conditions (9 TP) and both bonuses, 60 + 70 = 130 AP capped at 100:
    GA = 65 - 20 + 100 = +145; Player 2, none: 0 TP, GA = 20 - 65 = -45."""
    end, events = played(duel(tmp_path), "p2-c1-1", "p2-c2-1", "p1-c2-2")
    assert end.phase is Phase.OVER and end.scores == (3, 0) and end.winner == 0
    earned = [(e.player, e.bonus, e.ap) for e in events if isinstance(e, BonusEarned)]
    assert earned == [(0, "bloody", 60), (0, "alive", 70)]
    result = [e for e in events if isinstance(e, ResultScored)]
    assert result == [ResultScored((9, 0), (20, 65), (65, 20), (100, 0), (145, -45))]
    assert isinstance(events[-1], GameEnded) and events.index(result[0]) == len(events) - 2
    one, two = standings(end)
    assert (one.tp, one.losses, one.enemy_losses, one.claimed, one.bonus) == (9, 20, 65, 130, 100)
    assert one.goal_average == 145 and two.goal_average == -45 and two.tp == 0
    assert end.scenario.bonuses_met == ((0, "bloody"), (0, "alive"))  # type: ignore[union-attr]


@pytest.mark.rule("XX-A-5")
def test_a_bonus_below_the_cap_is_scored_whole(tmp_path: Path) -> None:
    text = SCENARIO.replace("ap = 70", "ap = 30")
    end, _ = played(duel(tmp_path, text), "p2-c2-1")
    # no Commander died: both alive, each fulfils "survival" (1-1, 5 TP each); Player 1 the
    # attrition too (2-1: 7 and 3 TP), and both bonuses: 60 + 30 = 90, not capped.
    assert end.scores == (2, 1)
    one, two = standings(end)
    assert (one.tp, two.tp) == (7, 3)
    assert (one.bonus, two.bonus) == (90, 30)  # Player 2's Commander is alive too: 30 AP
    assert (one.goal_average, two.goal_average) == (20 + 90, -20 + 30)


@pytest.mark.rule("XX-A-5", "XX-E", "C3-NEUTRAL-FIGHTERS")
def test_neutral_fighters_are_nobodys_losses_but_kill_fighters_who_are(tmp_path: Path) -> None:
    """C3: "Even if a neutral fighter has a nominal AP value it is not counted as a 'kill' or
    'loss' for the purposes of Goal Average"; XX-A-5: fighters "tués par des combattants
    neutres sont aussi pris en compte"."""
    state = add_neutrals(duel(tmp_path), [NeutralSpec(BEAST, 60, 55)])
    end, _ = played(state, "n-c1-1", "p1-c2-1")
    one, two = standings(end)
    assert (one.losses, one.enemy_losses) == (20, 0)  # the Beast's 30 AP count for nobody
    assert (two.losses, two.enemy_losses) == (0, 20)
    # both Commanders alive (1 VP each, 70 AP each); Player 2 inflicted more losses (1 VP,
    # 60 AP): his 130 AP of bonus are capped at 100
    assert end.scores == (1, 2)
    assert (one.bonus, two.bonus) == (70, 100)
    assert (one.goal_average, two.goal_average) == (-20 + 70, 20 + 100)


@pytest.mark.rule("XX-A-5", "XX-B-3")
def test_a_summoned_fighter_is_a_loss_worth_his_cards_ap(tmp_path: Path) -> None:
    """XX-B-3: "la valeur d'un combattant invoqué est égale au coût en PA indiqué sur sa carte"
    — whatever the army list priced the card at with equipment."""
    sides = [
        SideSpec("Side 1", "lion", ((HERO, 1), (FOOT, 2))),
        SideSpec("Side 2", "lion", ((HERO, 1), (IMP, 2)), summoned=(IMP.id,)),
    ]
    state = duel(tmp_path, sides=sides)
    record = state.scenario
    state = dataclasses.replace(
        state,
        scenario=dataclasses.replace(record, values=(("p2-c2", 99),)),  # type: ignore[type-var]
    )
    assert state.fighter("p2-c2-1").summoned and not state.fighter("p1-c2-1").summoned
    end, _ = played(state, "p2-c2-1")
    one, two = standings(end)
    assert (two.losses, one.enemy_losses) == (15, 15)  # the Imp's card: 15 AP, not 99


@pytest.mark.rule("XX-A-4")
def test_a_users_table_replaces_the_books(tmp_path: Path) -> None:
    """The table is data: a ruleset given another scores with it."""
    mine = TournamentPoints(((1, 0, 3), (0, 0, 1), (0, 1, 0)), bonus_cap=10)
    rules = rules_of(duel(tmp_path)).with_extension(SCORING, TOURNAMENT_POINTS, mine)
    state = with_rules(duel(tmp_path), rules)
    end, _ = played(state, "p2-c1-1")
    assert end.scores == (3, 0)  # 3-0 is not in this table: the nearest row is 1-0
    one, two = standings(end)
    assert (one.tp, two.tp) == (3, 0) and one.bonus == 10


@pytest.mark.rule("XX-A-5")
def test_a_scenario_without_conditions_keeps_its_result_as_it_was() -> None:
    result = play_game(GameConfig(scenario="conquest", seed=1, rounds=1))
    assert not result.tournament
    assert all(p.tp is None for p in result.players)
    assert list(result_document(result)["players"][0]) == ["army", "agent", "vp", "losses_ap"]
    assert not any(isinstance(e, ResultScored) for e in result.events)


# --- a bundled tournament scenario, from the command line ---------------------------------------


@pytest.mark.rule("XX-A-4", "XX-A-5", "XX-B-1")
def test_assassination_played_to_its_end_shows_tp_and_goal_average() -> None:
    runner = CliRunner()
    args = ["play", "--scenario", "assassination", "--agents", "greedy,random", "--seed", "3"]
    done = runner.invoke(app, [*args, "--no-store", "--json"])
    assert done.exit_code == 0, done.stderr
    doc = json.loads(done.stdout)
    players = doc["players"]
    for side in players:
        assert list(side) == [
            "army", "agent", "vp", "losses_ap", "tp", "enemy_losses_ap", "bonus_ap", "goal_average"
        ]  # fmt: skip
        assert 0 <= side["bonus_ap"] <= 100
        ga = side["enemy_losses_ap"] - side["losses_ap"] + side["bonus_ap"]
        assert side["goal_average"] == ga
    vp = (players[0]["vp"], players[1]["vp"])
    assert (players[0]["tp"], players[1]["tp"]) == tournament_points(vp)
    assert players[0]["losses_ap"] == players[1]["enemy_losses_ap"]
    text = runner.invoke(app, [*args, "--no-store"])
    assert text.exit_code == 0
    out = text.stdout
    assert "Player 1's Commander: Templar Commander (p1-c1-1)." in out
    assert "Bonus: your Commander ends the game in the centre: 50 AP (XX-A-5)." in out
    assert "Result (XX-A-4, XX-A-5): Player 1" in out
    header = next(line for line in out.splitlines() if "┃ player" in line)
    assert "TP" in header and "GA" in header


@pytest.mark.rule("XX-A-4", "XX-A-5")
def test_the_standard_records_and_replays() -> None:
    result = play_game(
        GameConfig(scenario="standard", agents=("greedy", "random"), seed=5, rounds=2)
    )
    assert result.tournament and all(p.tp is not None for p in result.players)
    final = replay(list(result.events))
    assert final.scenario == result.state.scenario  # the record replays, bonuses met included
    rows = standings(final)
    assert tuple(r.goal_average for r in rows) == tuple(p.goal_average for p in result.players)


@pytest.mark.rule("XX-A-4", "XX-A-5")
def test_simulate_reports_mean_tp_and_goal_average_per_agent() -> None:
    from confrontation.sim.batch import BatchResult, GameOutcome, plan
    from confrontation.store.records import Outcome

    specs = plan(2, ("first", "second"), seed=0)  # game 1 swaps the sides
    outcomes = [
        GameOutcome(0, Outcome(0, (3, 0), (0, 65), 5, tp=(9, 0), ga=(165, -65))),
        GameOutcome(1, Outcome(None, (1, 1), (20, 20), 5, tp=(5, 5), ga=(0, 50))),
    ]
    batch = BatchResult(specs, outcomes, 1.0, ("first", "second"), (None, None), "x", 0)
    document = batch.to_json()
    # "first" played Player 1 in game 0 (9 TP, +165) and Player 2 in game 1 (5 TP, +50)
    assert document["mean_tp"] == [7.0, 2.5]
    assert document["mean_goal_average"] == [107.5, -32.5]
    assert document["results"][0]["tp"] == [9, 0]
    assert document["results"][1]["goal_average"] == [0, 50]
    plain = [GameOutcome(i, Outcome(None, (1, 1), (0, 0), 5)) for i in range(2)]
    untouched = BatchResult(specs, plain, 1.0, ("first", "second"), (None, None), "x", 0)
    assert "mean_tp" not in untouched.to_json() and "tp" not in untouched.to_json()["results"][0]
