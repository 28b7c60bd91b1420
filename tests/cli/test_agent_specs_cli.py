"""`--agents NAME:KEY=VALUE;...` on play and simulate: the options reach the agents (and
follow them when sides swap), saved games keep them, and every bad spec is one line, exit 2."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from confrontation import agents
from confrontation.cli import app
from confrontation.cli import play as play_cli
from confrontation.cli import simulate as simulate_cli
from confrontation.engine.step import Agent
from confrontation.sim.batch import config_for, plan
from confrontation.sim.saved import config_of
from confrontation.store import open_store
from games_support import small_armies

runner = CliRunner()
MCTS = "mcts:iterations=2;rollout=random"
MCTS_OPTIONS = {"iterations": 2, "rollout": "random"}


Made = list[tuple[str, int, dict[str, Any]]]


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> Made:
    """Every agent the game runner builds: (name, player, options)."""
    seen: Made = []
    real = agents.make

    def recording(name: str, *, seed: int, player: int, **options: Any) -> Agent:
        seen.append((name, player, options))
        return real(name, seed=seed, player=player, **options)

    monkeypatch.setattr(agents, "make", recording)
    return seen


def test_play_passes_the_options_to_the_agent_and_saves_them(tmp_path: Path, made: Made) -> None:
    db = tmp_path / "games.db"
    armies = small_armies(tmp_path)
    args = ["play", "--armies", *armies, "--agents", f"{MCTS},greedy", "--seed", "2"]
    result = runner.invoke(app, [*args, "--rounds", "1", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    assert made == [("mcts", 0, MCTS_OPTIONS), ("greedy", 1, {})]
    document = json.loads(result.stdout)
    assert [p["agent"] for p in document["players"]] == ["mcts", "greedy"]
    game = open_store(str(db)).load(1)
    assert game.summary.agents == ("mcts", "greedy")
    assert game.setup.options["agent_options"] == [MCTS_OPTIONS, {}]
    with config_of(game.setup) as config:  # what --resume plays on with
        assert config.agent_options == (MCTS_OPTIONS, {})


def test_play_gives_one_spec_to_both_players(tmp_path: Path, made: Made) -> None:
    armies = small_armies(tmp_path)
    args = ["play", "--armies", *armies, "--agents", "mcts:iterations=2", "--rounds", "1"]
    result = runner.invoke(app, [*args, "--seed", "1", "--no-store", "--json"])
    assert result.exit_code == 0, result.output
    assert made == [("mcts", 0, {"iterations": 2}), ("mcts", 1, {"iterations": 2})]


def simulate_args(armies: tuple[str, str], *more: str) -> list[str]:
    return ["simulate", "--armies", *armies, "--rounds", "1", "--seed", "3", "--json", *more]


def test_simulate_options_follow_the_agent_when_sides_swap(tmp_path: Path, made: Made) -> None:
    armies = small_armies(tmp_path)
    db = tmp_path / "sim.db"
    args = simulate_args(armies, "--agents", f"greedy,{MCTS}", "--games", "2", "--db", str(db))
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["agents"] == ["greedy", MCTS]  # the specs as given
    first, second = document["results"]
    assert first["agents"] == ["greedy", "mcts"] and second["agents"] == ["mcts", "greedy"]
    assert first["agent_options"] == [{}, MCTS_OPTIONS]
    assert second["agent_options"] == [MCTS_OPTIONS, {}]
    # the agents the games were played with (the spec check builds each agent first)
    played = [m for m in made if m[0] == "mcts"][-2:]
    assert played == [("mcts", 1, MCTS_OPTIONS), ("mcts", 0, MCTS_OPTIONS)]
    store = open_store(str(db))
    assert store.load(1).setup.options["agent_options"] == [{}, MCTS_OPTIONS]
    assert store.load(2).setup.options["agent_options"] == [MCTS_OPTIONS, {}]


def test_plan_gives_each_game_the_options_of_the_agent_on_each_side() -> None:
    options = ({"iterations": 3}, {"seconds": 1.0})
    for spec in plan(4, ("mcts", "greedy"), agent_options=options):
        for player in (0, 1):
            assert spec.agent_options[player] == options[spec.seats[player]]
        config = config_for(spec)
        assert config.agents == spec.agents
        assert config.agent_options == spec.agent_options
    assert [s.agent_options for s in plan(2, ("a", "b"))] == [({}, {}), ({}, {})]


def test_simulate_with_options_does_not_depend_on_jobs(tmp_path: Path) -> None:
    armies = small_armies(tmp_path)
    documents = []
    for jobs in ("1", "2"):
        args = simulate_args(armies, "--agents", f"{MCTS},random", "--games", "2", "--jobs", jobs)
        result = runner.invoke(app, [*args, "--no-store"])
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        for timing in ("games_per_second", "elapsed_s"):
            document.pop(timing)
        documents.append(document)
    assert documents[0] == documents[1]


BAD = [
    ("chess,greedy", ["unknown agent 'chess'"]),
    ("mcts:depth=3,greedy", ["'mcts'", "'depth'"]),
    ("greedy,greedy:iterations=3", ["'greedy'", "'iterations'"]),
    ("mcts:iterations=lots,greedy", ["'mcts'", "iterations"]),
    ("mcts:iterations=0,greedy", ["'mcts'", "iterations=0"]),
    ("mcts:rollout=smart,greedy", ["'mcts'", "rollout"]),
    ("mcts:tree=perhaps,random", ["'mcts'", "tree"]),
    ("mcts:seconds,random", ["'mcts'", "seconds"]),
]


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize(("spec", "words"), BAD)
def test_a_bad_spec_is_one_line_and_exit_2(command: str, spec: str, words: list[str]) -> None:
    result = runner.invoke(app, [command, "--agents", spec, "--no-store", "--rounds", "1"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: --agents: ")
    for word in words:
        assert word in lines[0]


@pytest.mark.parametrize(
    ("command", "spec", "word"),
    [
        ("play", "human:console=x,greedy", "has no option 'console' (options: auto, map, measure)"),
        ("play", "human:auto=maybe,greedy", "auto='maybe'"),
        ("simulate", "human:console=x,greedy", "use play for a human player"),
        ("simulate", "greedy,HUMAN", "use play for a human player"),
    ],
)
def test_human_streams_and_bad_values_are_refused(command: str, spec: str, word: str) -> None:
    result = runner.invoke(app, [command, "--agents", spec, "--no-store"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and word in result.stderr


def _parse_or_one_line(parse: Any, text: str) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            parse(text)
        except typer.Exit as exit_:
            assert exit_.exit_code == 2
            assert err.getvalue().startswith("error: --agents: ")
            assert err.getvalue().count("\n") == 1
            return
    assert err.getvalue() == ""


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["mcts", "greedy", "random", "human", "chess", MCTS]),
            st.builds(
                "mcts:{}={}".format,
                st.sampled_from(["iterations", "seconds", "tree", "kinds", "x"]),
                st.text(max_size=6),
            ),
            st.text(max_size=12),
        ),
        min_size=1,
        max_size=3,
    ).map(",".join)
)
def test_fuzzed_agents_options_parse_or_fail_in_one_line(text: str) -> None:
    _parse_or_one_line(play_cli.parse_agents, text)
    _parse_or_one_line(simulate_cli.parse_agents, text)
