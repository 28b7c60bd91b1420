"""Start-up of every command (issue 22, help4): each command's and subcommand's ``--help``
imports none of the engine's state, sqlalchemy, shapely, numpy, networkx, pydantic; the
light commands import only what they use; the help's static texts agree with the data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = (
    "confrontation.engine.core.state",
    "sqlalchemy",
    "shapely",
    "numpy",
    "networkx",
    "pydantic",
)

EVERY_HELP = """
import json, sys
from confrontation.cli import COMMANDS, app, lazy_pydantic_plugins

lazy_pydantic_plugins()
from typer.main import get_command

root = get_command(app)
helped, leaked = [], {}
heavy = %r


def run(path):
    try:
        root.main([*path, "--help"], prog_name="confrontation", standalone_mode=False)
    except SystemExit:
        pass
    helped.append(" ".join(path))
    for name in heavy:
        if name in sys.modules and name not in leaked:
            leaked[name] = " ".join(path)


def walk(command, path):
    for name in list(getattr(command, "commands", {}) or {}):
        run([*path, name])
        walk(command.commands[name], [*path, name])


for lazy in COMMANDS:
    run([lazy.name])
    walk(root.get_command(None, lazy.name), [lazy.name])
print("RESULT", json.dumps({"helped": helped, "leaked": leaked}))
"""


def _python(source: str, *args: str) -> str:
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", source, *args],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout


def test_every_commands_help_imports_no_heavy_module() -> None:
    """One fresh process asks every command and subcommand for its help in turn; a heavy
    module in ``sys.modules`` afterwards names the first help that brought it."""
    out = _python(EVERY_HELP % (HEAVY,))
    last = out.strip().splitlines()[-1]
    assert last.startswith("RESULT "), out[-2000:]
    result = json.loads(last.removeprefix("RESULT "))
    assert {"simulate", "play", "games replay", "tournament ai", "serve", "army show"} <= set(
        result["helped"]
    )
    assert len(result["helped"]) >= 40
    assert "Usage" in out
    assert result["leaked"] == {}


LIGHT = """
import sys
from confrontation.cli import main
sys.argv = ["confrontation", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print("LOADED", *sorted(m for m in %r if m in sys.modules))
"""


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (("odds", "wound", "--str", "6", "--res", "5"), set()),
        (("profiles", "list"), {"pydantic"}),
        (("army", "show", "akkylannie-crusade"), {"pydantic"}),
        (("army", "validate", "akkylannie-crusade"), {"pydantic"}),
        (("armies", "list"), {"pydantic"}),
    ],
    ids=["odds-wound", "profiles-list", "army-show", "army-validate", "armies-list"],
)
def test_light_commands_import_only_what_they_use(args: tuple[str, ...], allowed: set[str]) -> None:
    """The data's loaders use pydantic; none of these needs the engine, the store, geometry."""
    watched = (*HEAVY, "confrontation.sim", "confrontation.store", "confrontation.geometry")
    out = _python(LIGHT % (watched,), *args)
    last = out.strip().splitlines()[-1].split()
    assert last[0] == "LOADED", out
    assert set(last[1:]) <= allowed, f"{' '.join(args)} imported {last[1:]}"


REAL = """
import json
from confrontation.engine.core.ruleset import known_rulesets
from confrontation.engine.core.state import MAX_PLAYERS
from confrontation.sim.backends import BACKENDS
from confrontation.sim.game import DEFAULT_AGENTS, DEFAULT_ARMIES, DEFAULT_RULES, DEFAULT_SCENARIO
print(json.dumps({
    "DEFAULT_RULES": DEFAULT_RULES,
    "ENGINE_RULES": list(known_rulesets()),
    "MAX_PLAYERS": MAX_PLAYERS,
    "DEFAULT_AGENT_NAMES": list(DEFAULT_AGENTS),
    "BACKEND_NAMES": list(BACKENDS),
    "DEFAULT_SCENARIO_NAME": DEFAULT_SCENARIO,
    "DEFAULT_ARMY_NAMES": list(DEFAULT_ARMIES),
}))
"""


def test_static_help_texts_agree_with_the_data() -> None:
    """The names the help writes out (to need not import the engine) are the real ones, as
    a fresh process (the command line's) has them: a test here may register a ruleset."""
    from confrontation.cli import options

    real = json.loads(_python(REAL).strip().splitlines()[-1])
    written = {
        name: list(value) if isinstance(value, tuple) else value
        for name in real
        for value in [getattr(options, name)]
    }
    assert written == real
    assert options.listed_rules() == (*real["ENGINE_RULES"], options.C4_RULES)


def test_the_game_commands_help_shows_the_data() -> None:
    """``simulate --help`` and ``play --help`` show the real defaults and rules."""
    from typer.testing import CliRunner

    from confrontation.cli import app
    from confrontation.cli.options import listed_rules
    from confrontation.sim.backends import BACKENDS
    from confrontation.sim.game import DEFAULT_ARMIES

    runner = CliRunner()
    simulate = " ".join(runner.invoke(app, ["simulate", "--help"]).output.split())
    play = " ".join(runner.invoke(app, ["play", "--help"]).output.split())
    for rules in listed_rules():
        assert rules in simulate and rules in play
    assert all(backend in simulate for backend in BACKENDS)
    assert all(army in play for army in DEFAULT_ARMIES)
