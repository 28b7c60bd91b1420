"""End to end: `confrontation play --armies A B C --agents greedy,greedy,random`, a whole game
of three players (XX-F) through the command line, saved, shown and replayed.

Written ahead of the engine's rounds of three players (strategic phase, activation,
deployment, combat: XX-F-1 to XX-F-6) and the agents of three players; it passes once those
have landed. It is run on its own after that merge.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.engine.core.outcome import leaders
from confrontation.engine.record import read_log, replay
from confrontation.store import open_store
from games_support import small_armies

runner = CliRunner()
AGENTS = "greedy,greedy,random"

SMALL_WOLVES = (
    'name = "Small Wolves"\npeople = "wolf"\npoints = 100\n\n'
    '[[cards]]\nprofile = "wolfen-hunter"\ncount = 2\n'
)


def three_armies(folder: Path) -> tuple[str, str, str]:
    """Three army files of two fighters each."""
    first, second = small_armies(folder)
    third = folder / "small-wolves.toml"
    third.write_text(SMALL_WOLVES, encoding="utf-8")
    return first, second, str(third)


def play(*args: str) -> tuple[int, str, str]:
    more = ["--allow-invalid"] if "--armies" in args else []  # small armies: no champion
    result = runner.invoke(app, ["play", *args, *more])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.rule("XX-F")
def test_a_game_of_three_players_is_played_through_the_command_line(tmp_path: Path) -> None:
    """XX-F: three factions play a whole game; the result lists all three."""
    armies = three_armies(tmp_path)
    log = tmp_path / "game.jsonl"
    args = ["--armies", *armies, "--agents", AGENTS, "--seed", "5", "--rounds", "2"]
    code, out, err = play(*args, "--json", "--no-store", "--log", str(log))
    assert code == 0, err
    document = json.loads(out)
    assert [p["army"] for p in document["players"]] == [
        "Small Lions",
        "Small Jackals",
        "Small Wolves",
    ]
    assert [p["agent"] for p in document["players"]] == AGENTS.split(",")
    assert {f["player"] for f in document["fighters"]} == {0, 1, 2}
    vp = [p["vp"] for p in document["players"]]
    best = leaders(vp)
    if document["winner"] is None:
        assert len(best) > 1 or document["outcome"]["termination"] != "rounds_played"
    else:
        assert document["winner"] in (0, 1, 2)
    assert len(document["outcome"]["result"].split("-")) == 3
    events = read_log(log.read_text(encoding="utf-8").splitlines())
    final = replay(events)
    assert list(final.scores) == vp and len(final.sides) == 3
    again = play(*args, "--json", "--no-store")
    assert again[1] == out  # the same seed plays the same game


@pytest.mark.rule("XX-F")
def test_a_game_of_three_is_narrated_saved_shown_and_replayed(tmp_path: Path) -> None:
    """XX-F: the narration, the scoreboard and the store carry every player."""
    armies = three_armies(tmp_path)
    db = str(tmp_path / "games.db")
    code, out, err = play(
        "--armies", *armies, "--agents", AGENTS, "--seed", "8", "--rounds", "2", "--db", db
    )
    assert code == 0, err
    assert "between Player 1 (Small Lions), Player 2 (Small Jackals) and Player 3" in out
    assert "Player 3" in out.split("End of the game")[-1]  # the scoreboard's third line
    (game,) = open_store(db).list()
    assert game.armies == ("Small Lions", "Small Jackals", "Small Wolves")
    assert game.outcome is not None and len(game.outcome.vp) == 3
    shown = runner.invoke(app, ["games", "show", str(game.id), "--db", db, "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["vp"] == list(game.outcome.vp)
    replayed = runner.invoke(app, ["games", "replay", str(game.id), "--db", db, "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["scores"] == list(game.outcome.vp)
