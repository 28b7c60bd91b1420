"""`confrontation scenarios list|show`: what a player reads before a game (XX-A)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.scenarios.base import bundled_scenarios, resolve
from scenarios_support import SCENARIO

runner = CliRunner()


def test_list_names_every_bundled_scenario() -> None:
    result = runner.invoke(app, ["scenarios", "list"])
    assert result.exit_code == 0, result.output
    for name in bundled_scenarios():
        assert name in result.output
        assert resolve(name).summary.split()[0] in result.output


def test_list_as_json() -> None:
    result = runner.invoke(app, ["scenarios", "list", "--json"])
    data = json.loads(result.stdout)
    assert [d["id"] for d in data] == bundled_scenarios()
    conquest = next(d for d in data if d["id"] == "conquest")
    assert conquest["variations"] == ["campsites"] and conquest["rounds"] == 6


@pytest.mark.rule("XX-A", "C3-OBJECTIVES")
@pytest.mark.parametrize("name", [*bundled_scenarios(), "conquest:campsites"])
def test_show_every_scenario_as_text_and_json(name: str) -> None:
    scenario = resolve(name)
    text = runner.invoke(app, ["scenarios", "show", name])
    assert text.exit_code == 0, text.output
    assert scenario.name in text.output and scenario.section in text.output
    data = json.loads(runner.invoke(app, ["scenarios", "show", name, "--json"]).stdout)
    assert data["id"] == scenario.id and data["rounds"] == scenario.rounds
    assert "path" not in data
    owners = {a["owner"] for a in data["areas"] if a["owner"] is not None}
    assert owners <= set(range(1, 7))  # numbered as in the file, Player 1 = 1


def test_show_a_file_with_conditions(tmp_path: Path) -> None:
    path = tmp_path / "hold.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    result = runner.invoke(app, ["scenarios", "show", str(path)])
    assert result.exit_code == 0, result.output
    assert "control the centre at the end of a round" in result.output
    data = json.loads(runner.invoke(app, ["scenarios", "show", str(path), "--json"]).stdout)
    home = next(c for c in data["conditions"] if c["id"] == "home")
    assert home["players"] == [1] and home["params"] == {"area": "Player 1's deployment area"}
    assert data["bonuses"][0]["ap"] == 30


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["scenarios", "show", "nope"], "no scenario 'nope'"),
        (["scenarios", "show", "conquest:nope"], "no variation 'nope'"),
        (["scenarios", "show", "missing.toml"], "missing.toml"),
        (["scenarios", "list", "--bogus"], "No such option"),
    ],
)
def test_bad_names_are_one_line(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]
    assert "Traceback" not in result.output
