"""Saved games without frictions (issue 26): `q` ends cleanly, the hints name the store, a
resumed game recaps the position, `games delete`, a closed terminal leaves the game
interrupted, `games show` narrates as the live game did."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner, Result

from confrontation.cli import app
from confrontation.store import FINISHED, INTERRUPTED, RUNNING, open_store
from games_support import small_armies

runner = CliRunner()


def human_game(db: Path, armies: tuple[str, str], answers: str) -> Result:
    return runner.invoke(
        app,
        [
            "play",
            "--allow-invalid",
            "--armies",
            *armies,
            "--agents",
            "human,random",
            "--seed",
            "4",
            "--db",
            str(db),
        ],
        input=answers,
    )


def test_q_ends_the_game_cleanly_and_the_hint_names_the_store(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    result = human_game(db, small_armies(tmp_path), "q\n")
    assert result.exit_code == 0, result.output
    assert "error" not in result.stderr
    assert f"confrontation play --resume 1 --db {db}" in result.stderr
    assert open_store(str(db)).load(1).status == INTERRUPTED


def test_the_end_of_the_input_says_so_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    result = human_game(db, small_armies(tmp_path), "")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: the input ended before the game did: game 1 is saved")
    assert len(result.stderr.strip().splitlines()) == 1
    assert open_store(str(db)).load(1).status == INTERRUPTED


def test_a_resumed_game_recaps_the_position(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    human_game(db, small_armies(tmp_path), "1\n" * 12 + "q\n")
    resumed = runner.invoke(app, ["play", "--resume", "1", "--db", str(db)], input="q\n")
    assert resumed.exit_code == 0, resumed.output
    text = resumed.stdout
    recap = text[text.index("The game resumes") :].splitlines()[1:4]
    assert recap[0].startswith("Round ") and "phase; score 0-0." in recap[0]
    assert recap[1].startswith("Player 1 (Small Lions): ") and " in play" in recap[1]
    assert recap[2].startswith("Player 2 (Small Jackals): ")


def test_games_show_narrates_as_the_live_game_did(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    armies = small_armies(tmp_path)
    live = runner.invoke(
        app,
        [
            "play",
            "--allow-invalid",
            "--armies",
            *armies,
            "--agents",
            "random,random",
            "--seed",
            "8",
            "--rounds",
            "2",
            "--db",
            str(db),
        ],
    )
    assert live.exit_code == 0, live.output
    shown = runner.invoke(app, ["games", "show", "1", "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    told_live = [line for line in live.stdout.splitlines() if not line.startswith("Seed ")]
    end = told_live.index(
        next(line for line in told_live if line.startswith("Small") or "— seed" in line)
    )
    assert shown.stdout.splitlines()[:end] == told_live[:end]
    assert end > 20


def test_games_delete(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    armies = small_armies(tmp_path)
    for seed in ("1", "2"):
        runner.invoke(
            app,
            [
                "play",
                "--allow-invalid",
                "--armies",
                *armies,
                "--agents",
                "random,random",
                "--seed",
                seed,
                "--rounds",
                "1",
                "--db",
                str(db),
            ],
        )
    deleted = runner.invoke(app, ["games", "delete", "1", "--db", str(db)])
    assert deleted.exit_code == 0, deleted.output
    assert deleted.stdout.startswith("deleted game 1 ")
    store = open_store(str(db))
    assert [g.id for g in store.list()] == [2]
    unknown = runner.invoke(app, ["games", "delete", "2", "7", "--db", str(db)])
    assert unknown.exit_code == 2
    assert unknown.stderr.strip() == f"error: no game 7 in {store.url}"
    assert [g.id for g in store.list()] == [2]  # all known, or nothing deleted
    assert store.load(2).status == FINISHED


def test_a_running_game_is_deleted_only_with_force(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    human_game(db, small_armies(tmp_path), "q\n")
    store = open_store(str(db))
    store.resume(1)  # status running, as a game being played elsewhere
    refused = runner.invoke(app, ["games", "delete", "1", "--db", str(db)])
    assert refused.exit_code == 2
    assert "--force" in refused.stderr
    forced = runner.invoke(app, ["games", "delete", "1", "--db", str(db), "--force"])
    assert forced.exit_code == 0
    assert store.list() == []


def test_a_closed_terminal_leaves_the_game_interrupted(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    armies = small_armies(tmp_path)
    source = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": source}
    code = (
        "import sys; from confrontation.cli import main; "
        "sys.argv=['confrontation', *sys.argv[1:]]; main()"
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "play",
            "--allow-invalid",
            "--armies",
            *armies,
            "--agents",
            "human,random",
            "--seed",
            "4",
            "--db",
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    store = open_store(str(db))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the game is saved as running (then asks the player)
        if any(game.status == RUNNING for game in store.list()):
            break
        time.sleep(0.1)
    time.sleep(2.0)
    process.send_signal(signal.SIGHUP)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert b"Traceback" not in err
    assert store.load(1).status == INTERRUPTED


def test_a_single_answer_is_given_for_the_player_unless_he_asks_every_question(
    tmp_path: Path,
) -> None:
    armies = small_armies(tmp_path)
    base = ["play", "--allow-invalid", "--armies", *armies, "--seed", "4", "--no-store"]
    auto = runner.invoke(app, [*base, "--agents", "human,random"], input="1\n" * 40 + "q\n")
    asked = runner.invoke(
        app, [*base, "--agents", "human:auto=false,random"], input="1\n" * 40 + "q\n"
    )
    assert "answered for you (the only answer)" in auto.stdout
    assert "answered for you" not in asked.stdout
    assert auto.stdout.count("Your choice") < asked.stdout.count("Your choice") + 1
    assert "Your choice (1-1," in asked.stdout
    assert "Your choice (1-1," not in auto.stdout


def test_map_draws_the_battlefield_at_any_prompt(tmp_path: Path) -> None:
    armies = small_armies(tmp_path)
    drawn = tmp_path / "now.svg"
    result = runner.invoke(
        app,
        [
            "play",
            "--allow-invalid",
            "--armies",
            *armies,
            "--seed",
            "4",
            "--no-store",
            "--agents",
            "human,random",
        ],
        input="1\n" * 12 + f"map {drawn}\n" + "q\n",
    )
    assert result.exit_code == 0, result.output
    assert f"The battlefield is drawn in {drawn.resolve()}." in result.stdout.replace("\n", "")
    picture = drawn.read_text(encoding="utf-8")
    assert picture.startswith("<svg") and "p1-" in picture


def test_a_scenario_file_is_listed_by_its_name(tmp_path: Path) -> None:
    import json
    import shutil

    from confrontation.scenarios.base import bundled_dir

    mine = tmp_path / "scenario-0f3a.toml"
    shutil.copy(bundled_dir() / "the-hill.toml", mine)
    db = tmp_path / "games.db"
    armies = small_armies(tmp_path)
    played = runner.invoke(
        app,
        ["play", "--allow-invalid", "--armies", *armies, "--agents", "random", "--rounds", "1",
         "--scenario", str(mine), "--db", str(db), "--seed", "2"],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    listed = json.loads(runner.invoke(app, ["games", "list", "--db", str(db), "--json"]).stdout)
    assert listed[0]["scenario"] == "The Hill (scenario-0f3a.toml)"
    resumed = open_store(str(db)).load(1).setup.options["scenario"]
    assert resumed == str(mine)  # what a resumed game reads
