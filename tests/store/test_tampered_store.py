"""A store edited by hand (issue 26): a game's row is checked against its record and the game
its record replays to; a finished game cut short is caught; one malformed row is told in one
line without taking the other games down (``games list/show/replay``, ``play --resume``)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from games_support import small_armies

runner = CliRunner()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of three finished games (small armies, 2 rounds)."""
    folder = tmp_path_factory.mktemp("store")
    db = folder / "games.db"
    armies = small_armies(folder)
    for seed in ("21", "22", "23"):
        args = [
            "play",
            "--allow-invalid",
            "--armies",
            *armies,
            "--agents",
            "random",
            "--rounds",
            "2",
        ]
        result = runner.invoke(app, [*args, "--seed", seed, "--db", str(db), "--json"])
        assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as connection:  # the whole store in the file, to copy it
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


def edited(played: Path, folder: Path, *statements: str) -> str:
    db = folder / "edited.db"
    shutil.copy(played, db)
    with sqlite3.connect(db) as connection:
        for statement in statements:
            connection.execute(statement)
    return str(db)


def error_line(args: list[str], code: int) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == code, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: game 1: "), lines[0]
    return lines[0]


def test_the_untouched_store_shows_and_replays(played: Path) -> None:
    for command in ("show", "replay"):
        result = runner.invoke(app, ["games", command, "1", "--db", str(played)])
        assert result.exit_code == 0, result.output


def _last_events(count: int) -> str:
    return (
        'DELETE FROM events WHERE game_id = 1 AND "index" >= '
        f"(SELECT events_count - {count} FROM games WHERE id = 1)"
    )


FORGED = {
    "cut": ([_last_events(20)], "the record holds"),
    "cut and counted": (
        [_last_events(20), "UPDATE games SET events_count = events_count - 20 WHERE id = 1"],
        "stops before the game's end",
    ),
    "vp": (["UPDATE games SET vp = '[9, 0]' WHERE id = 1"], "VP 9-0"),
    "winner": (["UPDATE games SET winner = NULL WHERE id = 1"], "winner None"),
    "seed": (["UPDATE games SET seed = seed + 1 WHERE id = 1"], "seed"),
    "event count": (["UPDATE games SET events_count = 3 WHERE id = 1"], "says 3"),
    "status": (["UPDATE games SET status = 'running' WHERE id = 1"], "the game's end"),
}


@pytest.mark.parametrize("name", sorted(FORGED))
@pytest.mark.parametrize("command", ["show", "replay"])
def test_a_row_that_disagrees_with_its_record_is_caught(
    played: Path, tmp_path: Path, name: str, command: str
) -> None:
    statements, needle = FORGED[name]
    db = edited(played, tmp_path, *statements)
    assert needle in error_line(["games", command, "1", "--db", db], 2)


@pytest.mark.parametrize(
    ("statement", "needle"),
    [
        ("UPDATE games SET losses = '[77, 77]' WHERE id = 1", "losses"),
        ("UPDATE games SET rounds = 9 WHERE id = 1", "rounds"),
    ],
)
@pytest.mark.parametrize("command", ["show", "replay"])
def test_a_result_that_disagrees_with_the_replayed_game_is_caught(
    played: Path, tmp_path: Path, statement: str, needle: str, command: str
) -> None:
    db = edited(played, tmp_path, statement)
    assert needle in error_line(["games", command, "1", "--db", db], 1)


MALFORMED = {
    "armies": "UPDATE games SET armies = '{}' WHERE id = 1",
    "vp": """UPDATE games SET vp = '"nine"' WHERE id = 1""",
    "agents": """UPDATE games SET agents = '["random"]' WHERE id = 1""",
    "created": "UPDATE games SET created = 'the day before' WHERE id = 1",
    "options": "UPDATE games SET options = '[1]' WHERE id = 1",
    "status": "UPDATE games SET status = 'bogus' WHERE id = 1",
}


@pytest.mark.parametrize("column", sorted(MALFORMED))
def test_one_malformed_row_is_told_and_the_others_still_work(
    played: Path, tmp_path: Path, column: str
) -> None:
    db = edited(played, tmp_path, MALFORMED[column])
    for args in (["games", "show", "1"], ["games", "replay", "1"], ["play", "--resume", "1"]):
        line = error_line([*args, "--db", db], 2)
        assert "malformed" in line and column in line, line
    listed = runner.invoke(app, ["games", "list", "--db", db, "--json"])
    assert listed.exit_code == 1
    assert [line.split(":")[1] for line in listed.stderr.strip().splitlines()] == [" game 1"]
    assert [game["id"] for game in json.loads(listed.stdout)] == [3, 2]
    assert runner.invoke(app, ["games", "show", "2", "--db", db]).exit_code == 0


def test_resume_refuses_a_status_no_game_has(played: Path, tmp_path: Path) -> None:
    db = edited(played, tmp_path, "UPDATE games SET status = 'bogus', vp = NULL WHERE id = 1")
    assert "bogus" in error_line(["play", "--resume", "1", "--db", db], 2)
