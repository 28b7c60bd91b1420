"""Every bundled scenario is played from the command line, AI against AI, to its end (XX-A):
the JSON names the result, and a scenario with victory conditions gives each player his
tournament points (XX-A-4) and goal-average (XX-A-5). Two rounds keep it quick; the whole
games are `bench/scenario_ai.py`'s."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.scenarios.base import bundled_scenarios, resolve

runner = CliRunner()


@pytest.mark.parametrize("name", bundled_scenarios())
def test_the_scenario_is_played_to_its_end(name: str) -> None:
    args = ["play", "--scenario", name, "--agents", "greedy,random", "--seed", "5"]
    result = runner.invoke(app, [*args, "--rounds", "2", "--json", "--db", "sqlite://"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["outcome"]["termination"] and data["rounds"] <= 2
    players = data["players"]
    assert len(players) == 2
    if resolve(name).goal == "control-points":  # the 003 pack: CP per round, no TP
        points = data["control_points"]
        assert [p["vp"] for p in players] == points["totals"]
        assert all(r["round"] <= 2 for r in points["per_round"])
    elif resolve(name).conditions:
        for me, other in (players, players[::-1]):
            assert 0 <= me["tp"] <= 9
            assert me["goal_average"] == (
                me["enemy_losses_ap"] - me["losses_ap"] + min(me["bonus_ap"], 100)
            )
            assert me["enemy_losses_ap"] == other["losses_ap"]
        # XX-A-4: more victory points never score fewer tournament points
        (a, b) = players
        if a["vp"] != b["vp"]:
            assert (a["tp"] > b["tp"]) == (a["vp"] > b["vp"])
