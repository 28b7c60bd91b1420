"""`play --rules c4 --mode MODE` and `simulate --rules c4`: whole C4 games from the command
line (narration, JSON, SVG, log, saved and resumed games) and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.c4.step import replay
from confrontation.cli import app
from confrontation.engine.core.codec import decode
from confrontation.engine.core.events import Event
from confrontation.sim.c4game import MODES

runner = CliRunner()
QUICK = ["--rules", "c4", "--rounds", "1", "--agents", "greedy,random", "--seed", "3"]


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_play_help_lists_the_six_modes() -> None:
    code, out, _ = cli("play", "--help")
    assert code == 0
    text = " ".join(out.split())
    for mode in MODES:
        assert mode in text
    assert "c4" in text


@pytest.mark.parametrize("mode", MODES)
def test_play_each_mode_narrated(mode: str) -> None:
    code, out, _ = cli("play", *QUICK, "--mode", mode, "--no-store")
    assert code == 0, out
    assert f"A C4 game begins in {mode} mode." in out
    assert "The game is over" in out


def test_play_json_svg_and_log(tmp_path: Path) -> None:
    picture, log = tmp_path / "c4.svg", tmp_path / "c4.jsonl"
    code, out, _ = cli(
        "play", *QUICK, "--mode", "general", "--no-store", "--json",
        "--svg", str(picture), "--log", str(log),
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    assert (doc["rules"], doc["mode"], doc["seed"]) == ("c4", "general", 3)
    assert picture.read_text().startswith("<svg")
    events = [decode(Event, json.loads(line)) for line in log.read_text().splitlines()]
    assert len(events) == doc["events"]
    assert replay(events).phase == "over"


def test_play_saves_and_the_game_replays(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    code, out, err = cli("play", *QUICK, "--mode", "warlord", "--db", db, "--json")
    assert code == 0, err
    doc = json.loads(out)
    from confrontation.store import open_store

    saved = open_store(db).load(doc["game"])
    assert saved.setup.options["rules"] == "c4" and saved.setup.options["mode"] == "warlord"
    assert replay(saved.events).phase == "over"
    code, _, err = cli("play", "--resume", str(doc["game"]), "--db", db)
    assert code != 0 and "error:" in err  # a finished game is not resumed
    code, out, _ = cli("games", "show", str(doc["game"]), "--db", db)
    assert code == 0 and "A C4 game begins in warlord mode." in out
    code, out, _ = cli(
        "games", "replay", str(doc["game"]), "--db", db, "--json",
        "--svg-dir", str(tmp_path / "pictures"),
    )  # fmt: skip
    assert code == 0
    replayed = json.loads(out)
    assert replayed["matches"] and replayed["phase"] == "over" and len(replayed["svg"]) == 1


def test_one_line_errors() -> None:
    for args, words in (
        (("play", "--mode", "general", "--no-store"), "--rules c4"),
        (("play", "--rules", "c4", "--mode", "chess", "--no-store"), "no C4 game mode"),
        (("play", "--rules", "c4", "--agents", "alphazero", "--no-store"), "no C4 agent"),
        (("play", "--rules", "c4", "--armies", "x", "y", "--no-store"), "no C4 company"),
        (("simulate", "--rules", "c4", "--mode", "nope"), "no C4 game mode"),
    ):
        code, _, err = cli(*args)
        assert code == 2, args
        assert words in err and len(err.strip().splitlines()) == 1


def test_simulate_c4_counts_wins_and_stores_the_games(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    code, out, _ = cli(
        "simulate", "--rules", "c4", "--mode", "barbarian", "-n", "2", "--rounds", "1",
        "--agents", "greedy,random", "--json", "--db", db,
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    assert doc["games"] == 2 and set(doc["agents"]) == {"greedy", "random"}
    assert sum(a["wins"] for a in doc["agents"].values()) + doc["draws"] == 2
    from confrontation.store import open_store

    assert len(doc["stored"]) == 2
    for game_id in doc["stored"]:
        assert replay(open_store(db).load(game_id).events).phase == "over"


def test_play_and_simulate_with_the_mcts_agent() -> None:
    args = ["--rules", "c4", "--rounds", "1", "--agents", "mcts,greedy", "--seed", "5"]
    code, out, err = cli("play", *args, "--no-store", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["agents"] == ["mcts", "greedy"] and doc["rounds"] == 1
    code, out, err = cli("simulate", *args, "--games", "2", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc["agents"]) == {"mcts", "greedy"}
    assert sum(a["wins"] for a in doc["agents"].values()) + doc["draws"] == 2
    code, _, err = cli("play", *args[:4], "--agents", "mcts,nobody", "--no-store")
    assert code != 0 and "mcts" in err  # the error lists the agents, mcts among them
