"""`play` and `simulate` with two to six players (XX-F): how ``--armies A B C`` is read, the
one-line errors for bad counts, and the scoreboards of three players (the games themselves are
stood in for: the engine's rounds of three players are tested with the engine)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.cli.options import spread
from confrontation.sim.batch import GameOutcome, GameSpec
from confrontation.sim.game import GameConfig, GameResult
from confrontation.store import Outcome
from players_support import ARMIES3, NAMES3, finished3

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


# --- reading --armies ----------------------------------------------------------------------


def test_an_option_of_several_values_takes_the_words_up_to_the_next_option() -> None:
    many = ("--armies",)
    assert spread(["--armies", "a", "b", "c", "--seed", "3"], many) == [
        "--armies", "a", "--armies", "b", "--armies", "c", "--seed", "3"
    ]  # fmt: skip
    assert spread(["--armies=a", "b", "--json"], many) == ["--armies=a", "--armies", "b", "--json"]
    assert spread(["--armies", "a", "--armies", "b"], many) == ["--armies", "a", "--armies", "b"]
    assert spread(["--seed", "3", "--armies"], many) == ["--seed", "3", "--armies"]
    assert spread(["--armies", "a", "--", "b"], many) == ["--armies", "a", "--", "b"]
    assert spread(["--agents", "x,y", "--rounds", "2"], many) == [
        "--agents",
        "x,y",
        "--rounds",
        "2",
    ]


words = st.lists(
    st.one_of(
        st.sampled_from(["--armies", "--seed", "--json", "-n", "--armies=z"]),
        st.text(alphabet="abc.-/", min_size=1, max_size=4),
    ),
    max_size=12,
)


@given(words)
def test_spreading_keeps_every_word_in_order_and_gives_each_value_its_option(
    args: list[str],
) -> None:
    out = spread(args, ("--armies",))
    assert [w for w in out if w != "--armies"] == [w for w in args if w != "--armies"]
    assert spread(out, ("--armies",)) == out  # spreading twice changes nothing
    assert spread(args, ()) == args


# --- play -------------------------------------------------------------------------------------


@pytest.mark.rule("XX-F")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--armies", "lion-vanguard"], "--armies: a game has 2 to 6 players (XX-F), not 1 army"),
        (
            ["--armies", *("lion-vanguard",) * 7],
            "--armies: a game has 2 to 6 players (XX-F), not 7",
        ),
        (
            ["--armies", *ARMIES3, "--agents", "greedy,random"],
            "--agents: one agent per army: 2 agents for 3 armies (XX-F)",
        ),
        (
            ["--agents", "greedy,greedy,random"],
            "--agents: one agent per army: 3 agents for 2 armies (XX-F); give --armies with 3",
        ),
        (
            ["--armies", *ARMIES3, "--agents", "greedy,,random"],
            "--agents: expected agent names as A,B[,C...], not 'greedy,,random'",
        ),
        (["--armies", *ARMIES3, "--agents", "greedy,random,nobody"], "agent 'nobody'"),
    ],
)
def test_play_refuses_bad_counts_in_one_line(args: list[str], message: str) -> None:
    """XX-F: two to six players, each with an army and an agent."""
    code, _, err = invoke("play", "--no-store", *args)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert message in err and "Traceback" not in err


def test_help_says_two_to_six() -> None:
    for command in ("play", "simulate"):
        code, out, _ = invoke(command, "--help")
        assert code == 0
        assert "2 to 6 army files" in " ".join(out.split())
        assert "A B [C...]" in out


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[GameConfig]:
    """``play`` plays a hand-built three-player end instead of a game: the configs asked."""
    configs: list[GameConfig] = []

    def fake(config: GameConfig, **_: Any) -> GameResult:
        configs.append(config)
        return finished3((2, 0, 2), None)

    monkeypatch.setattr("confrontation.cli.play.play_game", fake)
    return configs


@pytest.mark.rule("XX-F")
@pytest.mark.parametrize(
    "armies",
    [
        ["--armies", *ARMIES3],
        ["--armies", ARMIES3[0], "--armies", ARMIES3[1], "--armies", ARMIES3[2]],
        [f"--armies={ARMIES3[0]}", *ARMIES3[1:]],
    ],
)
def test_play_reads_three_armies_in_every_form(armies: list[str], played: list[GameConfig]) -> None:
    """XX-F: Player 1's army first, then the others in order."""
    code, _, err = invoke(
        "play", *armies, "--agents", "greedy,greedy,random", "--seed", "1", "--no-store"
    )
    assert code == 0, err
    (config,) = played
    assert config.armies == ARMIES3 and config.agents == ("greedy", "greedy", "random")
    assert config.agent_options == ({}, {}, {})


def test_one_agent_or_none_plays_every_army(played: list[GameConfig]) -> None:
    assert invoke("play", "--armies", *ARMIES3, "--seed", "1", "--no-store")[0] == 0
    assert invoke("play", "--armies", *ARMIES3, "--agents", "random", "--no-store")[0] == 0
    assert [c.agents for c in played] == [("greedy",) * 3, ("random",) * 3]


@pytest.mark.rule("XX-F")
def test_the_scoreboard_and_document_of_three_players(played: list[GameConfig]) -> None:
    """XX-F: every player's line; the players sharing the best score draw."""
    code, out, _ = invoke("play", "--armies", *ARMIES3, "--seed", "1", "--no-store")
    assert code == 0
    rows = [line for line in out.splitlines() if "Player " in line and "│" in line]
    assert len(rows) == 3 and all(name in out for name in NAMES3)
    assert "Draw between Player 1 and Player 3 (all rounds played)." in out
    code, out, _ = invoke("play", "--armies", *ARMIES3, "--seed", "1", "--no-store", "--json")
    document = json.loads(out)
    assert [p["vp"] for p in document["players"]] == [2, 0, 2]
    assert document["outcome"]["result"] == "1/2-0-1/2"


# --- simulate ---------------------------------------------------------------------------------


@pytest.mark.rule("XX-F")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--armies", "lion-vanguard"], "--armies: a game has 2 to 6 players (XX-F), not 1 army"),
        # two agents and more than two armies play every pair (a match-up matrix):
        # the counts are checked with one agent per army
        (["--armies", *("lion-vanguard",) * 7, "--agents", ",".join(["greedy"] * 7)], "not 7"),
        (["--armies", *ARMIES3, "--agents", "greedy,random,random,random"], "4 agents for 3"),
        (["--agents", "greedy,random,random"], "3 agents for 2 armies (XX-F); give --armies"),
        (["--armies", *ARMIES3, "--agents", "greedy"], "--agents: give 3 agent names"),
        (["--armies", *ARMIES3, "--agents", "greedy,human,random"], "use play for a human"),
    ],
)
def test_simulate_refuses_bad_counts_in_one_line(args: list[str], message: str) -> None:
    code, _, err = invoke("simulate", "--games", "2", "--no-store", *args)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert message in err


def fake_game(spec: GameSpec) -> GameOutcome:
    """Player (index mod 3) wins game ``index``; every fourth game is a draw."""
    if spec.index % 4 == 3:
        return GameOutcome(spec.index, Outcome(None, (1, 1, 0), (0, 0, 0), 2))
    winner = spec.index % 3
    vp = tuple(2 if p == winner else 0 for p in range(3))
    return GameOutcome(spec.index, Outcome(winner, vp, (5, 5, 5), 2))


@pytest.mark.rule("XX-F")
def test_simulate_counts_three_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """XX-F: three agents turn round the seats and armies; wins are counted per agent."""
    monkeypatch.setattr("confrontation.cli.simulate.play_spec", fake_game)
    args = ["simulate", "--armies", *ARMIES3, "--agents", "greedy,random,mcts:iterations=2"]
    code, out, err = invoke(*args, "--games", "9", "--no-store", "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["agents"] == ["greedy", "random", "mcts:iterations=2"]
    assert document["armies"] == list(ARMIES3)
    wins = [0, 0, 0]
    for game in document["results"]:
        assert sorted(game["armies"]) == sorted(ARMIES3)
        if game["winner"] is not None:
            wins[["greedy", "random", "mcts"].index(game["agents"][game["winner"]])] += 1
    assert document["wins"] == wins and sum(wins) + document["draws"] == 9
    assert document["draws"] == 2 and len(document["win_rate_95"]) == 3
    assert document["results"][0]["agent_options"] == [{}, {}, {"iterations": 2}]
    code, out, _ = invoke(*args, "--games", "9", "--no-store")
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line.strip()[:2] in ("1.", "2.", "3.")]
    assert [row[-7] for row in rows] == ["2", "3", "2"]  # wins per agent, in --agents order
    assert "mcts:iteratio" in out  # (cut to the terminal's width)
    assert "Draws (the best score shared): 2 (22.2%)." in out
    assert "every 9 games each agent plays each army from each seat once" in " ".join(out.split())
