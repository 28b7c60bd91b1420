"""`confrontation simulate`: the JSON figures do not depend on --jobs, sides and armies
alternate, stored games replay to their results, bad options are one line, exit 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.engine.record import replay
from confrontation.store import open_store
from games_support import small_armies

runner = CliRunner()
TIMING = ("games_per_second", "elapsed_s")


def simulate(armies: tuple[str, str], *more: str) -> list[str]:
    return [
        "simulate",
        "--armies",
        *armies,
        "--agents",
        "random,greedy",
        "--rounds",
        "1",
        "--seed",
        "4",
        "--json",
        "--allow-invalid",  # small armies without champions (I-D-4)
        *more,
    ]


def test_results_do_not_depend_on_the_number_of_jobs(tmp_path: Path) -> None:
    armies = small_armies(tmp_path)
    documents = []
    for jobs in ("1", "2"):
        result = runner.invoke(app, simulate(armies, "--games", "4", "--jobs", jobs, "--no-store"))
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        assert document["games_per_second"] > 0
        documents.append({k: v for k, v in document.items() if k not in TIMING})
    assert documents[0] == documents[1]
    document = documents[0]
    assert document["games"] == 4
    assert sum(document["wins"]) + document["draws"] == 4
    assert document["agents"] == ["random", "greedy"]
    low, high = document["win_rate_95"][0]
    assert low <= document["win_rates"][0] <= high


def test_games_alternate_sides_and_armies_and_wins_follow_the_agent(tmp_path: Path) -> None:
    armies = small_armies(tmp_path)
    result = runner.invoke(app, simulate(armies, "--games", "4", "--no-store"))
    document = json.loads(result.stdout)
    games = document["results"]
    assert [g["agents"] for g in games] == [
        ["random", "greedy"],
        ["greedy", "random"],
        ["random", "greedy"],
        ["greedy", "random"],
    ]
    assert [g["armies"] for g in games] == [
        [armies[0], armies[1]],
        [armies[0], armies[1]],
        [armies[1], armies[0]],
        [armies[1], armies[0]],
    ]
    assert len({g["seed"] for g in games}) == 4
    wins = [0, 0]
    for game in games:
        if game["winner"] is not None:
            wins[["random", "greedy"].index(game["agents"][game["winner"]])] += 1
    assert document["wins"] == wins


def test_stored_games_replay_to_their_results(tmp_path: Path) -> None:
    armies = small_armies(tmp_path)
    db = str(tmp_path / "sim.db")
    result = runner.invoke(app, simulate(armies, "--games", "3", "--db", db))
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["stored"] == [1, 2, 3]
    store = open_store(db)
    for game_id, played in zip(document["stored"], document["results"], strict=True):
        game = store.load(game_id)
        assert game.summary.seed == played["seed"]
        assert list(game.summary.agents) == played["agents"]
        assert game.summary.outcome is not None
        assert game.summary.outcome.winner == played["winner"]
        final = replay(game.events)
        assert list(final.scores) == played["vp"]
        assert final.winner == played["winner"]


def test_the_text_report_shows_rates_intervals_and_speed(tmp_path: Path) -> None:
    armies = small_armies(tmp_path)
    args = [a for a in simulate(armies, "--games", "2", "--no-store") if a != "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    for text in ("win rate", "95 % interval", "mean VP", "Mean rounds", "games/s"):
        assert text in result.stdout


@pytest.mark.parametrize(
    ("more", "message"),
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--agents", "random"], "--agents: give two agent names"),
        (["--agents", "random,chess"], "unknown agent 'chess'"),
        (["--agents", "human,random"], "use play for a human player"),
        (["--db", "x.db", "--no-store"], "--db and --no-store"),
        (["--backend", "cluster"], "--backend"),
        (["--backend", "ray"], "needs Ray"),
        (["--scenario", "nosuch"], "nosuch"),
        (["--rounds", "0"], "--rounds must be at least 1"),
    ],
)
def test_bad_options_are_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, more: list[str], message: str
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    armies = small_armies(tmp_path)
    result = runner.invoke(app, [*simulate(armies, "--games", "2"), *more])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    assert message in lines[0]


def test_a_missing_army_file_is_one_line_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(
        app, simulate((str(tmp_path / "none.toml"), str(tmp_path / "other.toml")), "--games", "2")
    )
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "none.toml" in result.stderr
