"""`confrontation games list|show|replay` over a store of small games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.engine.core.narrate import narrate
from confrontation.store import open_store
from games_support import outcome, play, setup

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A store with a finished game (id 1) and an interrupted one (id 2)."""
    path = str(tmp_path / "games.db")
    store = open_store(path)
    final, log = play(8)
    store.save(setup(8), outcome(final), log)
    game_id = store.begin(setup(9))
    seen = 0

    def record(event: object) -> None:
        nonlocal seen
        store.append(game_id, event)  # type: ignore[arg-type]
        seen += 1
        if seen == 80:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play(9, record)
    store.interrupt(game_id)
    return path


def test_list_shows_every_game_newest_first(db: str) -> None:
    result = runner.invoke(app, ["games", "list", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    games = json.loads(result.stdout)
    assert [g["id"] for g in games] == [2, 1]
    assert [g["status"] for g in games] == ["interrupted", "finished"]
    assert games[1]["armies"] == ["Lions", "Wolves"] and games[1]["seed"] == 8
    assert games[1]["rounds"] == 2 and games[0]["rounds"] is None
    text = runner.invoke(app, ["games", "list", "--db", db])
    assert text.exit_code == 0
    assert "Saved games" in text.stdout and "interrupted" in text.stdout
    only = runner.invoke(app, ["games", "list", "--db", db, "--status", "finished", "--json"])
    assert [g["id"] for g in json.loads(only.stdout)] == [1]


def test_an_empty_store_says_so(tmp_path: Path) -> None:
    result = runner.invoke(app, ["games", "list", "--db", str(tmp_path / "empty.db")])
    assert result.exit_code == 0
    assert "No saved games" in result.stdout


def test_show_prints_the_scoreboard_and_the_narration(db: str) -> None:
    game = open_store(db).load(1)
    result = runner.invoke(app, ["games", "show", "1", "--db", db])
    assert result.exit_code == 0, result.output
    assert "Game 1" in result.stdout and "Lions" in result.stdout and "losses" in result.stdout
    told = [line.split(" — ", 1)[-1] for line in narrate(game.events)]
    shown = result.stdout.splitlines()
    assert sum(line in shown for line in told) >= len(told) // 2  # the live game's sentences
    assert any(line.startswith("───") and "Round 2" in line for line in shown)
    document = json.loads(runner.invoke(app, ["games", "show", "1", "--db", db, "--json"]).stdout)
    assert document["narration"] == narrate(game.events)
    unfinished = runner.invoke(app, ["games", "show", "2", "--db", db])
    assert "play --resume 2" in unfinished.stdout


def test_replay_checks_the_record_and_draws_each_round(db: str, tmp_path: Path) -> None:
    pictures = tmp_path / "rounds"
    result = runner.invoke(app, ["games", "replay", "1", "--db", db, "--svg-dir", str(pictures)])
    assert result.exit_code == 0, result.output
    assert "every one matches the record" in result.stdout
    drawn = sorted(p.name for p in pictures.iterdir())
    assert drawn == ["game-1-round-00.svg", "game-1-round-01.svg", "game-1-round-02.svg"]
    assert all((pictures / name).read_text().startswith("<svg") for name in drawn)
    document = json.loads(runner.invoke(app, ["games", "replay", "2", "--db", db, "--json"]).stdout)
    assert document["status"] == "interrupted" and document["matches"] is True


def test_a_tampered_record_does_not_replay(db: str) -> None:
    from sqlalchemy import text

    store = open_store(db)
    with store.engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE events SET data = replace(data, :one, :two) "
                "WHERE game_id = 1 AND data LIKE :dice"
            ),
            {"one": '"face":1', "two": '"face":2', "dice": "%die_rolled%"},
        )
    result = runner.invoke(app, ["games", "replay", "1", "--db", db])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: game 1 does not replay")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["games", "show", "42"], "no game 42"),
        (["games", "replay", "42"], "no game 42"),
        (["games", "show", "x"], "Invalid value for 'ID'"),
        (["games", "list", "--status", "lost"], "--status"),
    ],
)
def test_bad_input_is_one_line_exit_2(db: str, args: list[str], message: str) -> None:
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]


def test_an_unusable_database_is_one_line_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["games", "list", "--db", "nosuch://db"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "not a usable database URL" in result.stderr
