"""`confrontation odds c4-test / c4-salvo / c4-combat` (002_…, "C4") on the command line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from confrontation.c4.odds import combat_odds, salvo_odds
from confrontation.c4.resolution import successes_distribution
from confrontation.cli import app

runner = CliRunner()


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert isinstance(document, dict)
    return document


def test_c4_test_json_is_the_exact_law() -> None:
    # # C4 Universal table of resolution: 3 dice, action 4 against 2 → column +2 → 3+.
    document = run_json("c4-test", "--dice", "3", "--action", "4", "--difficulty", "2")
    assert document["minimum"] == 3
    law = successes_distribution(3, 4, 2)
    successes = document["successes"]
    assert isinstance(successes, dict)
    assert [Fraction(p) for p in successes["p"]] == list(law.probabilities)
    assert Fraction(str(successes["tail"])) == law.tail
    assert document["p_at_least_one"] == "26/27"  # only three 1s or 2s miss: 1 − (1/3)³


def test_c4_test_table_output() -> None:
    result = runner.invoke(app, ["odds", "c4-test", "--dice", "1"])
    assert result.exit_code == 0
    assert "4+" in result.stdout and "successes" in result.stdout


def test_c4_salvo_by_distance_uses_the_tape() -> None:
    # 20 cm is in the bundled "medium" band: difficulty 4.
    document = run_json(
        "c4-salvo", "--marksmen", "6", "--distance", "20", "--ranged", "4", "--strength", "5"
    )
    assert document["difficulty"] == 4
    odds = salvo_odds(
        marksmen=6,
        dice=1,
        ranged_attack=4,
        difficulty=4,
        strength=5,
        resilience=3,
        healths=[1] * 10,
    )
    losses = document["losses"]
    assert isinstance(losses, list)
    assert [Fraction(p) for p in losses] == list(odds.losses)
    assert len(losses) == 7  # never more eliminated than the 6 weapons shot


def test_c4_combat_with_healths() -> None:
    document = run_json(
        "c4-combat", "--dice", "4", "--attack", "4", "--defense", "3", "--healths", "2,1"
    )
    odds = combat_odds(dice=4, attack=4, defense=3, strength=3, resilience=3, healths=[2, 1])
    losses = document["losses"]
    assert isinstance(losses, list)
    assert [Fraction(p) for p in losses] == list(odds.losses)
    assert document["targets"] == [2, 1]
    table = runner.invoke(app, ["odds", "c4-combat", "--dice", "2"])
    assert table.exit_code == 0 and "eliminated on average" in table.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["c4-test", "--dice", "x"], "--dice must be an integer"),
        (["c4-test", "--dice", "41"], "--dice must be at most 40"),
        (["c4-salvo", "--difficulty", "3", "--distance", "10"], "exactly one of"),
        (["c4-salvo"], "exactly one of"),
        (["c4-salvo", "--distance", "far"], "--distance must be a number"),
        (["c4-salvo", "--distance", "99"], "beyond the tape"),
        (["c4-salvo", "--difficulty", "3", "--marksmen", "30", "--dice", "2"], "at most 40"),
        (["c4-combat", "--healths", "2,,x"], "--healths must be an integer"),
        (["c4-combat", "--healths", ","], "health values"),
        (["c4-combat", "--health", "11"], "--health must be at most 10"),
    ],
)
def test_c4_bad_input_is_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1
