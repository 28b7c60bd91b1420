"""`confrontation odds shot|attack|combat|advise`: JSON documents, charts, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.odds import Fighter, attack_odds, combat_odds
from confrontation.rules.combat import Allocation, Stats

runner = CliRunner()


def _json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert isinstance(document, dict)
    return document


@pytest.mark.rule("VII-C-1", "VII-C-3")
def test_combat_json_has_the_documented_shape_and_the_api_numbers() -> None:
    doc = _json(
        "combat", "--attacker", "praetorian-guard", "--defender", "dawn-warrior", "--alloc", "2:0"
    )
    assert set(doc) >= {"outcomes", "p_defender_killed", "p_attacker_killed", "expected_levels"}
    outcomes = doc["outcomes"]
    assert isinstance(outcomes, list)
    assert abs(sum(o["p"] for o in outcomes) - 1) < 1e-9
    assert set(outcomes[0]["state"]) == {"praetorian-guard", "dawn-warrior"}
    guard = Fighter("praetorian-guard", Stats(3, 5, 8, 5, 11), Allocation(2, 0))
    warrior = Fighter("dawn-warrior", Stats(3, 3, 7, 3, 7))
    exact = combat_odds(guard, [warrior])
    assert doc["p_defender_killed"] == float(exact.p_defenders_killed)
    assert doc["expected_levels"] == {n: float(exact.expected_levels(n)) for n in exact.names}


@pytest.mark.rule("VII-C-1")
def test_inline_fighters_and_duplicate_names() -> None:
    spec = "ini=3,att=3,str=7,def=3,res=7"
    doc = _json(
        "combat", "--attacker", "ini=3,att=5,str=8,def=5,res=11", "--defender", spec,
        "--defender", spec, "--alloc", "2:1", "--defender-alloc", "1:1", "--first", "attacker",
    )  # fmt: skip
    assert doc["fighters"] == ["attacker", "defender#1", "defender#2"]
    assert doc["p_attacker_first"] == 1.0


@pytest.mark.rule("VII-C-4")
def test_attack_json_matches_the_api() -> None:
    doc = _json("attack", "--att", "5", "--str", "8", "--def", "3", "--res", "7")
    odds = attack_odds(att=5, str_=8, def_=3, res=7, defence_dice=1)
    assert doc["fractions"]["blocked"] == "35/108"  # type: ignore[index]
    assert doc["p_hit"] == float(odds.hit)


@pytest.mark.rule("VI-A-3")
def test_shot_from_profiles_and_a_chart(tmp_path: Path) -> None:
    chart = tmp_path / "shot.png"
    doc = _json(
        "shot", "--shooter", "alahan-reaper", "--target", "praetorian-guard",
        "--distance", "15", "--partial", "--plot", str(chart),
    )  # fmt: skip
    assert doc["difficulty"] == 7 + 1  # medium range, partially visible, normal size
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.rule("VII-C-5")
def test_advise_lists_every_alternative_best_first(tmp_path: Path) -> None:
    doc = _json(
        "advise", "--attacker", "praetorian-guard", "--defender", "dawn-warrior", "--goal", "kill",
        "--plot", str(tmp_path / "a.png"),
    )  # fmt: skip
    rows = doc["alternatives"]
    assert isinstance(rows, list)
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert {r["alloc"] for r in rows} == {"2:0", "1:1", "0:2"}
    assert all(r["score"] == r["p_defender_killed"] for r in rows)


def test_monte_carlo_option() -> None:
    doc = _json(
        "combat", "--attacker", "praetorian-guard", "--defender", "dawn-warrior",
        "--defender", "dawn-warrior", "--defender", "dawn-warrior", "--defender", "dawn-warrior",
        "--mc", "2000", "--seed", "3",
    )  # fmt: skip
    assert doc["runs"] == 2000
    killed = doc["p_attacker_killed"]
    assert isinstance(killed, dict) and killed["low95"] <= killed["estimate"] <= killed["high95"]


def test_tables_by_default() -> None:
    result = runner.invoke(
        app, ["odds", "combat", "--attacker", "praetorian-guard", "--defender", "dawn-warrior"]
    )
    assert result.exit_code == 0
    assert "p(killed)" in result.stdout and "Most likely end states" in result.stdout


G = ["combat", "--attacker", "praetorian-guard", "--defender", "dawn-warrior"]
A = ["attack", "--att", "5", "--str", "8"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["combat", "--attacker", "nobody", "--defender", "dawn-warrior"], "unknown profile id"),
        ([*G, "--alloc", "2:1"], "2 combat dice"),
        ([*G, "--alloc", "x"], "ATTACK:DEFENCE"),
        (["combat", "--attacker", "ini=3,att=1", "--defender", "dawn-warrior"], "lacks"),
        ([*G, "--defence", "maybe"], "defence policy"),
        ([*G, *(["--defender", "dawn-warrior"] * 3)], "at most 3"),
        (["advise", *G[1:], "--goal", "win"], "--goal"),
        ([*A, "--def", "3"], "--res is needed"),
        ([*A, "--def", "3", "--res", "0"], "at least 1"),
        (["shot", "--aim", "4", "--aim-str", "6", "--res", "5"], "--range"),
        (["shot", "--shooter", "praetorian-guard", "--range", "short"], "no shooting weapon"),
        ([*G, "--profiles", "/nonexistent.toml"], "nonexistent"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_exit_2(args: list[str], needle: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    assert needle in lines[0]
    assert "Traceback" not in result.output
