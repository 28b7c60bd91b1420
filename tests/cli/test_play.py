"""`confrontation play`: the JSON schema, byte-identical games per seed, the log and the
picture, the narration and scoreboard, and one-line errors (exit 2)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.engine.record import read_log, replay
from confrontation.sim.game import GameConfig, initial_state

runner = CliRunner()
QUICK = ["--agents", "random,random", "--rounds", "1", "--no-store"]


def play(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.rule("III-A-2")
def test_json_document_follows_the_issue_schema() -> None:
    code, out, _ = play("--seed", "11", "--json", *QUICK)
    assert code == 0
    doc = json.loads(out)
    assert list(doc) == [
        "scenario", "seed", "rounds", "winner", "players", "fighters", "events", "outcome"
    ]  # fmt: skip
    outcome = doc["outcome"]
    assert outcome["termination"] == "rounds_played" and outcome["reason"] == "all rounds played"
    expected = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[doc["winner"]]
    assert outcome["result"] == expected
    assert (doc["scenario"], doc["seed"], doc["rounds"]) == ("Conquest", 11, 1)
    assert doc["winner"] in (0, 1, None)
    assert isinstance(doc["events"], int) and doc["events"] > 0
    armies = [p["army"] for p in doc["players"]]
    assert armies == ["Akkylannie Crusade", "Bran-Ô-Kor Horde"]  # the default demo armies
    for side in doc["players"]:
        assert list(side) == ["army", "agent", "vp", "losses_ap"]
        assert side["agent"] == "random"
        assert isinstance(side["vp"], int) and isinstance(side["losses_ap"], int)
    assert {f["player"] for f in doc["fighters"]} == {0, 1}
    for f in doc["fighters"]:
        assert list(f) == [
            "id", "player", "profile", "alive", "wound_levels", "x", "y", "facing", "base"
        ]  # fmt: skip
        assert isinstance(f["alive"], bool) and 0 <= f["wound_levels"] <= 4
        assert all(isinstance(f[k], float) for k in ("x", "y", "facing"))
        assert 0 <= f["x"] <= 120 and 0 <= f["y"] <= 60
        assert f["base"]["shape"] in ("square", "round")
        assert f["base"]["width_mm"] > 0 and f["base"]["depth_mm"] > 0


def test_same_seed_same_bytes_other_seed_other_game() -> None:
    runs = [play("--seed", seed, "--json", *QUICK) for seed in ("5", "5", "6")]
    assert runs[0][0] == runs[2][0] == 0
    assert runs[0][1] == runs[1][1]
    assert runs[0][1] != runs[2][1]


def test_the_log_replays_to_the_final_state_and_the_svg_is_drawn(tmp_path: Path) -> None:
    log, svg = tmp_path / "game.jsonl", tmp_path / "end.svg"
    args = ["--scenario", "bloodbath:small-table", "--armies", "lion-vanguard", "goblin-raiders"]
    code, out, _ = play(
        "--seed", "4", "--json", "--log", str(log), "--svg", str(svg), *args, *QUICK
    )
    assert code == 0
    doc = json.loads(out)
    events = read_log(log.read_text(encoding="utf-8").splitlines())
    assert len(events) == doc["events"]
    final = replay(events)
    alive = {f.id: f.alive for f in final.fighters}
    assert alive == {f["id"]: f["alive"] for f in doc["fighters"]}
    assert final.scores == tuple(p["vp"] for p in doc["players"])
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg") and root.get("width") == "480"  # 60 cm x 8 px
    assert "the battlefield" in svg.read_text(encoding="utf-8")  # the scenario's area


def test_text_output_narrates_rounds_and_ends_with_the_scoreboard() -> None:
    code, out, err = play("--seed", "2", "--scenario", "conquest", *QUICK)
    assert code == 0 and err == ""
    assert "Set-up and deployment" in out and "Round 1" in out
    assert "Controlling the centre is worth 2 VP." in out  # the objectives, told first
    assert "Player 1's deployment area: Power" in out
    assert "VP" in out and "losses (AP)" in out
    assert out.rstrip().splitlines()[-1].startswith(("Player 1", "Player 2", "Draw"))


def test_a_random_seed_is_printed_and_replays_the_game() -> None:
    code, out, err = play("--json", *QUICK)
    assert code == 0
    seed = json.loads(out)["seed"]
    assert f"seed {seed} (play this game again with --seed {seed})" in err
    again = play("--seed", str(seed), "--json", *QUICK)
    assert again[1] == out


def test_the_initial_state_is_the_configured_game() -> None:
    state, scenario, _ = initial_state(GameConfig(scenario="execution", seed=9, rounds=2))
    assert state.rounds == 2 and state.seed == 9 and scenario.name == "Execution"
    assert state.battleground is not None and state.battleground.scenery_count == 6


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scenario", "siege"], "no scenario 'siege'"),
        (["--scenario", "conquest:night"], "no variation 'night'"),
        (["--armies", "lion-vanguard", "nowhere.toml"], "nowhere.toml: cannot read the file"),
        (["--agents", "random,nobody"], "agent 'nobody'"),
        (["--agents", "a,b,c"], "--agents: one agent per army: 3 agents for 2 armies"),
        (["--rounds", "0"], "--rounds"),
        (["--seed", "x"], "--seed"),
        (["--log", "/nonexistent-dir/x.jsonl"], "--log /nonexistent-dir/x.jsonl: cannot write"),
        (["--armies", "lion-vanguard"], "--armies"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    first = ["--no-store"] if "--agents" in args else ["--no-store", "--agents", "random,random"]
    code, _, err = play(*first, *args)
    assert code == 2, err
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
