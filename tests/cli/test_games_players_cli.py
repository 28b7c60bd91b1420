"""`confrontation games list|show` over a stored game of three players (XX-F)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.cli import games as games_cli
from confrontation.sim.saved import outcome_of, setup_of
from confrontation.store import open_store
from players_support import AGENTS3, NAMES3, config3, finished3

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    """Game 1: Player 2 wins 1-3-0; game 2: Players 1 and 3 draw 2-0-2."""
    path = str(tmp_path / "games.db")
    store = open_store(path)
    for result in (finished3((1, 3, 0), 1), finished3((2, 0, 2), None)):
        store.save(setup_of(config3()), outcome_of(result), result.events)
    return path


@pytest.mark.rule("XX-F")
def test_list_gives_every_player(db: str) -> None:
    """XX-F: the three factions' armies, agents and scores."""
    result = runner.invoke(app, ["games", "list", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    second, first = json.loads(result.stdout)
    assert first["armies"] == list(NAMES3) and first["agents"] == list(AGENTS3)
    assert (first["winner"], first["vp"]) == (1, [1, 3, 0])
    assert (second["winner"], second["vp"]) == (None, [2, 0, 2])
    text = runner.invoke(app, ["games", "list", "--db", db]).stdout
    assert "Player 2 wins 1-3-0" in text and "draw 2-0-2" in text
    assert " vs ".join(NAMES3) in text


@pytest.mark.rule("XX-F")
def test_show_tells_the_game_of_three(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """XX-F: the scoreboard has a line per player; a shared best score is marked. (The
    fixture's records are a start and an end, no game: ``games show`` would refuse them as
    not replaying — tests/store/test_tampered_store.py — so the replay is left out here.)"""
    monkeypatch.setattr(games_cli, "replayed", lambda game: (None, []))
    monkeypatch.setattr(games_cli, "checked", lambda game, final: None)
    result = runner.invoke(app, ["games", "show", "2", "--db", db])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if "Player " in line and "greedy" in line]
    assert len(rows) == 2 and any("random" in line for line in result.stdout.splitlines())
    assert "Player 1 ☆" in result.stdout and "Player 3 ☆" in result.stdout
    assert "Player 2 ☆" not in result.stdout and "★" not in result.stdout
    won = runner.invoke(app, ["games", "show", "1", "--db", db]).stdout
    assert "Player 2 ★" in won and "☆" not in won
    story = json.loads(runner.invoke(app, ["games", "show", "2", "--db", db, "--json"]).stdout)
    assert story["narration"][0].endswith(
        "between Player 1 (Lion Vanguard), Player 2 (No-Dan-Kar Raiders) and "
        "Player 3 (Akkylannie Crusade)."
    )
    assert story["narration"][-1].endswith(
        "score 2, 0 and 2: a draw between Player 1 and Player 3."
    )
