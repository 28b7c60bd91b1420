"""`confrontation odds test` and `confrontation odds opposed` (II-A) on the command line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from confrontation.cli import app

runner = CliRunner()


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert isinstance(document, dict)
    return document


@pytest.mark.rule("II-A-3")
def test_odds_test_json_discipline_4_difficulty_7() -> None:
    # One die, DIS 4 against 7: '3' to '6' (II-A-3 example); raising changes nothing here.
    document = run_json("test", "--value", "4", "--difficulty", "7")
    assert document == {"p_success": pytest.approx(2 / 3), "fraction": "2/3"}


@pytest.mark.rule("II-A-1", "II-A-3")
def test_odds_test_raise_and_no_raise() -> None:
    # Value 0 against 10 needs a natural 10: '6' then '4', '5' or '6' (1/12); never without raise.
    assert run_json("test", "--value", "0", "--difficulty", "10")["fraction"] == "1/12"
    document = run_json("test", "--value", "0", "--difficulty", "10", "--no-raise")
    assert document == {"p_success": 0.0, "fraction": "0/1"}


@pytest.mark.rule("II-A-2", "II-A-3")
def test_odds_test_several_dice() -> None:
    # Two dice, value 2 against 7: fails only when both dice show 1-4: 1 − (4/6)² = 5/9.
    document = run_json("test", "--value", "2", "--difficulty", "7", "--dice", "2")
    assert document["fraction"] == "5/9"
    assert document["p_success"] == pytest.approx(5 / 9)


@pytest.mark.rule("II-A-3")
def test_odds_opposed_json() -> None:
    equal = run_json("opposed", "--a", "3", "--b", "3")
    assert equal == {"p_a_wins": 0.5, "fraction": "1/2"}
    a = Fraction(str(run_json("opposed", "--a", "2", "--b", "3", "--dice-a", "2")["fraction"]))
    b = Fraction(str(run_json("opposed", "--a", "3", "--b", "2", "--dice-b", "2")["fraction"]))
    assert a + b == 1
    assert a > Fraction(1, 2)  # a second die outweighs one point


@pytest.mark.rule("II-A-3")
def test_text_output_is_one_line_with_the_fraction() -> None:
    result = runner.invoke(app, ["odds", "test", "--value", "4", "--difficulty", "7"])
    assert result.exit_code == 0
    assert "66.67%" in result.stdout and "2/3" in result.stdout
    result = runner.invoke(app, ["odds", "opposed", "--a", "3", "--b", "3"])
    assert result.exit_code == 0
    assert "50.00%" in result.stdout and "1/2" in result.stdout


@pytest.mark.rule("II-A-2")
@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["test", "--value", "4", "--difficulty", "7", "--dice", "0"], "--dice"),
        (["test", "--value", "4.5", "--difficulty", "7"], "--value"),
        (["test", "--value", "4", "--difficulty", "seven"], "--difficulty"),
        (["opposed", "--a", "x", "--b", "3"], "--a"),
        (["opposed", "--a", "2", "--b", "3", "--dice-b", "0"], "--dice-b"),
        (["opposed", "--a", "2", "--b", "3", "--dice-a", "-1"], "--dice-a"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(args: list[str], option: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert option in lines[0]
    assert "Traceback" not in result.output
