"""Start-up (issue 22): ``confrontation --help`` and ``confrontation odds test`` import no
heavy library and none of the engine; subcommands load when they run, with the help the
root's list shows for them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import COMMANDS, app, load_command

HEAVY = (
    "sqlalchemy",
    "networkx",
    "shapely",
    "numpy",
    "confrontation.engine",
    "confrontation.store",
    "confrontation.sim",
    "confrontation.geometry",
    "confrontation.agents",
)

PROBE = """
import sys
from confrontation.cli import main
sys.argv = ["confrontation", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
heavy = {heavy!r}
under = tuple(h + "." for h in heavy)
print("LOADED", *sorted(m for m in sys.modules if m in heavy or m.startswith(under)))
"""


def loaded_by(*args: str) -> tuple[set[str], str]:
    """The heavy modules a fresh ``confrontation ARGS`` imported, and what it printed."""
    source = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *args],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    last = done.stdout.strip().splitlines()[-1].split()
    assert last[0] == "LOADED", done.stdout
    return set(last[1:]), done.stdout


@pytest.mark.parametrize(
    "args",
    [("--help",), (), ("odds", "test", "--value", "3", "--difficulty", "5")],
    ids=["help", "bare", "odds-test"],
)
def test_light_commands_import_no_heavy_module(args: tuple[str, ...]) -> None:
    loaded, output = loaded_by(*args)
    assert loaded == set(), f"{' '.join(args)} imported {sorted(loaded)}"
    assert "Usage" in output or "83.33%" in output


def test_a_game_command_still_loads_the_engine(tmp_path: Path) -> None:
    """The probe sees imports: ``games list`` running opens the store, so the engine and
    sqlalchemy come (its ``--help`` imports neither: tests/cli/test_startup_help.py)."""
    loaded, output = loaded_by("games", "list", "--db", str(tmp_path / "games.db"))
    assert "No saved games" in output
    assert "confrontation.engine" in loaded
    assert "sqlalchemy" in loaded


@pytest.mark.parametrize("lazy", COMMANDS, ids=[c.name for c in COMMANDS])
def test_the_listed_help_is_the_loaded_commands_help(lazy: object) -> None:
    from confrontation.cli import LazyCommand, paragraphs

    assert isinstance(lazy, LazyCommand)
    command = load_command(lazy)
    assert command.name == lazy.name
    assert command.help == paragraphs(lazy.help)


def test_help_lists_every_command_in_order() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    lines = [line for line in result.stdout.splitlines() if line.startswith("│ ")]
    listed = [line.split()[1] for line in lines if not line.startswith("│  ")]
    names = [c.name for c in COMMANDS]
    assert [n for n in listed if n in names] == names
    assert names == [
        "simulate",
        "play",
        "odds",
        "army",
        "armies",
        "profiles",
        "artifacts",
        "games",
        "scenarios",
        "tournament",
        "serve",
    ]


def test_an_unknown_command_is_still_one_line() -> None:
    result = CliRunner().invoke(app, ["nosuch"])
    assert result.exit_code == 2
    assert "No such command 'nosuch'" in result.output
