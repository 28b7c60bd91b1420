"""`confrontation play` saves every game; `--resume ID` continues an interrupted one to the
same end as a game never interrupted; bad options are one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.agents.random import RandomAgent
from confrontation.cli import app
from confrontation.engine.core.state import state_to_json
from confrontation.engine.record import replay
from confrontation.store import FINISHED, INTERRUPTED, open_store
from games_support import small_armies

runner = CliRunner()


def play_args(armies: tuple[str, str], db: Path, *more: str) -> list[str]:
    return [
        "play",
        "--armies",
        *armies,
        "--agents",
        "random,random",
        "--seed",
        "21",
        "--rounds",
        "2",
        "--allow-invalid",  # small armies without champions (I-D-4)
        "--db",
        str(db),
        *more,
    ]


def test_a_played_game_is_saved_and_replays_to_its_final_state(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    armies = small_armies(tmp_path)
    played = runner.invoke(app, play_args(armies, db, "--json"))
    assert played.exit_code == 0, played.output
    document = json.loads(played.stdout)
    assert "saved as game 1" in played.stderr
    game = open_store(str(db)).load(1)
    assert game.status == FINISHED
    assert game.summary.seed == 21
    assert game.summary.armies == ("Small Lions", "Small Jackals")
    assert game.summary.outcome is not None
    assert game.summary.outcome.winner == document["winner"]
    assert list(game.summary.outcome.vp) == [p["vp"] for p in document["players"]]
    assert len(game.events) == document["events"]
    final = replay(game.events)
    assert [f.alive for f in final.fighters] == [f["alive"] for f in document["fighters"]]
    assert [round(f.x, 3) for f in final.fighters] == [f["x"] for f in document["fighters"]]
    assert game.setup.armies[0].source is not None
    assert "Small Lions" in game.setup.armies[0].source


def test_no_store_saves_nothing(tmp_path: Path) -> None:
    armies = small_armies(tmp_path)
    args = [a for a in play_args(armies, tmp_path / "x.db") if a not in ("--db",)]
    args.remove(str(tmp_path / "x.db"))
    played = runner.invoke(app, [*args, "--no-store", "--json"])
    assert played.exit_code == 0, played.output
    assert not (tmp_path / "x.db").exists()
    assert "saved" not in played.stderr


def test_the_default_store_is_used_without_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONFRONTATION_DB", str(tmp_path / "default.db"))
    armies = small_armies(tmp_path)
    args = play_args(armies, tmp_path / "unused.db")
    args = args[: args.index("--db")]
    assert runner.invoke(app, [*args, "--json"]).exit_code == 0
    assert open_store(str(tmp_path / "default.db")).count() == 1


@pytest.mark.parametrize("calls", [3, 25])
def test_an_interrupted_game_resumes_to_the_same_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, calls: int
) -> None:
    """Ctrl-C while an agent thinks leaves the game saved as interrupted; `play --resume`
    finishes it with the same JSON, record and final state as a game never interrupted."""
    armies = small_armies(tmp_path)
    whole = runner.invoke(app, play_args(armies, tmp_path / "whole.db", "--json"))
    assert whole.exit_code == 0, whole.output

    db = tmp_path / "games.db"
    choose = RandomAgent.choose
    count = 0

    def impatient(self: RandomAgent, *args: object) -> object:
        nonlocal count
        count += 1
        if count == calls:
            raise KeyboardInterrupt
        return choose(self, *args)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(RandomAgent, "choose", impatient)
        stopped = runner.invoke(app, play_args(armies, db, "--json"))
    assert stopped.exit_code == 130
    assert stopped.stderr.strip().splitlines()[-1].startswith("error: interrupted: game 1")
    assert "--resume 1" in stopped.stderr
    assert open_store(str(db)).load(1).status == INTERRUPTED

    resumed = runner.invoke(app, ["play", "--resume", "1", "--db", str(db), "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)
    again = open_store(str(db)).load(1)
    reference = open_store(str(tmp_path / "whole.db")).load(1)
    assert again.status == FINISHED
    assert again.events == reference.events
    assert state_to_json(replay(again.events)) == state_to_json(replay(reference.events))


def test_a_resumed_game_uses_the_saved_army_text_when_the_file_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    armies = small_armies(tmp_path)
    whole = runner.invoke(app, play_args(armies, tmp_path / "whole.db", "--json"))
    db = tmp_path / "games.db"
    with monkeypatch.context() as patch:
        patch.setattr(RandomAgent, "choose", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))
        assert runner.invoke(app, play_args(armies, db, "--json")).exit_code == 130
    Path(armies[0]).write_text("this is not an army any more", encoding="utf-8")
    resumed = runner.invoke(app, ["play", "--resume", "1", "--db", str(db), "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--resume", "9"], "no game 9"),
        (["--resume", "1", "--seed", "3"], "--resume continues a saved game"),
        (["--resume", "1", "--agents", "mcts,greedy"], "--resume continues a saved game"),
        (["--resume", "1", "--scenario", "bloodbath"], "--resume continues a saved game"),
        (["--db", "x.db", "--no-store"], "--db and --no-store"),
        (["--db", "nosuch://x"], "not a usable database URL"),
        (["--resume", "zero"], "--resume"),
    ],
)
def test_bad_store_options_are_one_line_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    armies = small_armies(tmp_path)
    db = str(tmp_path / "games.db")
    full = ["play", *args] if "--db" in args else ["play", *args, "--db", db]
    if args[0] == "--db" and "nosuch" in args[1]:
        full = ["play", "--armies", *armies, "--agents", "random,random", "--allow-invalid", *args]
    result = runner.invoke(app, full)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")
    assert message in lines[0]


def test_resuming_a_finished_game_is_refused(tmp_path: Path) -> None:
    armies = small_armies(tmp_path)
    db = tmp_path / "games.db"
    assert runner.invoke(app, play_args(armies, db, "--json")).exit_code == 0
    result = runner.invoke(app, ["play", "--resume", "1", "--db", str(db)])
    assert result.exit_code == 2
    assert "finished" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("option", ["--svg", "--log"])
def test_an_output_that_cannot_be_written_saves_no_game(tmp_path: Path, option: str) -> None:
    db = tmp_path / "games.db"
    armies = small_armies(tmp_path)
    unwritable = str(tmp_path / "no-such-dir" / "out")
    played = runner.invoke(app, play_args(armies, db, option, unwritable))
    assert played.exit_code == 2
    assert f"{option} {unwritable}: cannot write" in played.stderr
    assert not db.exists() or open_store(str(db)).count() == 0
