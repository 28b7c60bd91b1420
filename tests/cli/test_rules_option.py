"""`play` and `simulate` take `--rules NAME` (issue 20 §1): listed in `--help`, default
`confede`, an unknown name is one line and exit 2; the saved game keeps its rules and
`play --resume` goes on with them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.agents.random import RandomAgent
from confrontation.cli import app
from confrontation.engine.core.events import GameStarted, MarkersRemoved
from confrontation.engine.core.registry import Transition
from confrontation.engine.core.ruleset import RULESETS, Ruleset, register_ruleset, ruleset
from confrontation.engine.core.state import GameState, RulesetId
from confrontation.sim.game import GameConfig, GameSetupError, initial_state
from confrontation.store import FINISHED, INTERRUPTED, open_store
from games_support import small_armies

runner = CliRunner()
SHOUTING = "confede-shouting"


def _shout(state: GameState) -> Transition:
    return state, [MarkersRemoved(state.fighters[0].id, ("shout",))]


def _shouting(id: RulesetId) -> Ruleset:
    """A user's ruleset: confede with a maintenance effect of his own, under its own name."""
    return ruleset().with_maintenance_hook("rally", _shout).named(id.name)


if SHOUTING not in RULESETS:
    register_ruleset(SHOUTING, _shouting)


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_help_lists_the_rules_option_and_its_names(command: str) -> None:
    shown = runner.invoke(app, [command, "--help"])
    assert shown.exit_code == 0
    assert "--rules" in shown.stdout and "confede" in shown.stdout


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_an_unknown_rules_name_is_one_line_naming_the_option_and_the_choices(
    command: str,
) -> None:
    result = runner.invoke(app, [command, "--rules", "c9", "--no-store"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --rules")
    assert "'c9'" in lines[0] and "confede" in lines[0]
    assert "Traceback" not in result.output


def test_resume_takes_the_saved_games_rules_not_an_option(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["play", "--resume", "1", "--rules", "confede", "--db", str(tmp_path / "g.db")]
    )
    assert result.exit_code == 2
    assert "--resume continues a saved game" in result.stderr and "--rules" in result.stderr


def test_a_game_config_names_its_rules_in_the_initial_state() -> None:
    state = initial_state(GameConfig(agents=("random", "random"), rules=SHOUTING))[0]
    assert state.rules == RulesetId(SHOUTING)
    with pytest.raises(GameSetupError, match="unknown rules 'c9'"):
        initial_state(GameConfig(agents=("random", "random"), rules="c9"))


def _args(armies: tuple[str, str], db: Path) -> list[str]:
    return [
        "play", "--armies", *armies, "--agents", "random,random", "--seed", "21",
        "--rounds", "2", "--rules", SHOUTING, "--db", str(db), "--json",
        "--allow-invalid",  # small armies without champions (I-D-4)
    ]  # fmt: skip


def test_a_saved_game_keeps_its_rules_and_resumes_with_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    armies = small_armies(tmp_path)
    whole = runner.invoke(app, _args(armies, tmp_path / "whole.db"))
    assert whole.exit_code == 0, whole.output
    reference = open_store(str(tmp_path / "whole.db")).load(1)
    assert reference.setup.options["rules"] == SHOUTING
    first = reference.events[0]
    assert isinstance(first, GameStarted) and first.state.rules == RulesetId(SHOUTING)
    shouts = [
        e for e in reference.events if isinstance(e, MarkersRemoved) and e.markers == ("shout",)
    ]
    assert len(shouts) == 2  # the ruleset's own maintenance effect, once a round

    db = tmp_path / "games.db"
    with monkeypatch.context() as patch:
        patch.setattr(RandomAgent, "choose", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))
        assert runner.invoke(app, _args(armies, db)).exit_code == 130
    assert open_store(str(db)).load(1).status == INTERRUPTED
    resumed = runner.invoke(app, ["play", "--resume", "1", "--db", str(db), "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)
    again = open_store(str(db)).load(1)
    assert again.status == FINISHED and again.events == reference.events
