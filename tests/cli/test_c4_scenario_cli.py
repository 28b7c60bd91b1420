"""`play --rules c4 --scenario NAME`: a whole C4 scenario game AI against AI (its table,
scenery and zones scored in the control phase, victory by VP/CP), saved and replayed, and the
one-line refusal of a scenario that does not fit units."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from confrontation.c4 import events as ev
from confrontation.c4.step import replay
from confrontation.cli import app
from confrontation.engine.core.codec import decode
from confrontation.engine.core.events import Event

runner = CliRunner()
GAME = ["--rules", "c4", "--agents", "greedy,random", "--seed", "5"]


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_whole_control_points_scenario_game(tmp_path: Path) -> None:
    log = tmp_path / "c4.jsonl"
    code, out, err = cli(
        "play", *GAME, "--scenario", "cp-close-quarters", "--rounds", "3", "--no-store",
        "--log", str(log),
    )  # fmt: skip
    assert code == 0, out + err
    assert "flag-west:" in out and "flag-east:" in out
    last = out.rstrip().splitlines()[-1]
    assert "Round 3 scores" in out and "(3 rounds played): CP " in last
    events = [decode(Event, json.loads(line)) for line in log.read_text().splitlines()]
    state = replay(events)
    assert state.phase == "over" and state.battle is not None
    assert (state.width, state.height) == (120.0, 120.0)
    assert {p.name for p in state.scenery} >= {"flag-west", "flag-east"}
    scored = [e for e in events if isinstance(e, ev.C4PointsScored)]
    assert [e.round for e in scored] == [2, 3]  # 003: from round 2
    end = events[-1]
    assert isinstance(end, ev.C4GameEnded) and end.scores == state.battle.points
    assert end.scores == scored[-1].totals


def test_a_whole_chapter_20_scenario_game_saved_and_replayed(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    code, out, err = cli("play", *GAME, "--scenario", "conquest", "--json", "--db", db)
    assert code == 0, out + err
    doc = json.loads(out)
    assert doc["scenario"] == "conquest" and doc["rounds"] == 6  # the scenario's rounds
    code, out, _ = cli("games", "replay", str(doc["game"]), "--db", db)
    assert code == 0, out
    assert "finished" in out and "round 6, over phase" in out


def test_a_scenario_that_does_not_fit_units_is_refused() -> None:
    code, out, err = cli("play", *GAME, "--scenario", "loot", "--no-store")
    assert code != 0
    text = (out + err).strip()
    assert text.count("\n") == 0
    assert "'Loot' does not fit C4 units" in text


def test_simulate_a_c4_scenario_reports_wins_points_and_endings() -> None:
    # simulate --rules c4 --scenario: the scenario's own rounds, seats turning round, the mean
    # CP of each agent and how the games ended (docs/c4.md "Scenarios")
    code, out, err = cli(
        "simulate", "--rules", "c4", "--scenario", "cp-close-quarters", "-n", "2",
        "--agents", "greedy,random", "--seed", "0", "--rounds", "2", "--json",
    )  # fmt: skip
    assert code == 0, out + err
    doc = json.loads(out)
    assert doc["scenario"] == "cp-close-quarters" and doc["points"] == "CP"
    assert sum(doc["endings"].values()) == 2
    wins = sum(row["wins"] for row in doc["agents"].values())
    assert wins + doc["draws"] == 2
    assert {"mean_points", "mean_fighters_left", "ci95"} <= set(doc["agents"]["greedy"])
    code, out, err = cli(
        "simulate", "--rules", "c4", "--scenario", "standard", "-n", "1", "--seed", "1",
        "--rounds", "1",
    )  # fmt: skip
    assert code == 0, out + err
    assert "standard" in out and "VP on average" in out and "endings:" in out


def test_simulate_refuses_a_scenario_that_does_not_fit_units_in_one_line() -> None:
    code, out, err = cli("simulate", "--rules", "c4", "--scenario", "loot", "-n", "1")
    assert code != 0
    text = (out + err).strip()
    assert "scenario 'Loot' does not fit C4 units" in text and len(text.splitlines()) == 1
