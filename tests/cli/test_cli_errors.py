"""The command line's contract for bad input: one line on stderr, exit 2, no traceback."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from confrontation.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["odds", "wound", "--str", "3"], "Missing option '--res'"),
        (["odds", "wound", "--str", "3", "--res", "4", "--bogus"], "No such option: --bogus"),
        (["odds", "nope"], "No such command 'nope'"),
        (["nope"], "No such command 'nope'"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert needle in lines[0]
    assert "Traceback" not in result.output


def test_bare_command_prints_help() -> None:
    result = runner.invoke(app, [])
    assert result.exit_code == 0
    assert "odds" in result.stdout


def test_help_option_still_works() -> None:
    result = runner.invoke(app, ["odds", "--help"])
    assert result.exit_code == 0
    assert "wound" in result.stdout
