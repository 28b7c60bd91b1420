"""Every command's help (issue 26): an example, help text for every option, no literal markup."""

from __future__ import annotations

import re
import shlex

import pytest
import typer
from typer._click import Command
from typer.core import TyperGroup as Group
from typer.testing import CliRunner

from confrontation.cli import COMMANDS, app, load_command, version_text
from confrontation.cli.examples import EXAMPLES

MARKUP = re.compile(r"``|\*\*|\[/?(bold|red|green|dim|cyan|yellow|italic)[^\]]*\]|:class:|:func:")


def every_command() -> list[tuple[list[str], Command]]:
    """Each command path with its click command, sub-commands of groups included."""
    found: list[tuple[list[str], Command]] = []

    def walk(path: list[str], command: Command) -> None:
        found.append((path, command))
        if isinstance(command, Group):
            for name, sub in sorted(command.commands.items()):
                walk([*path, name], sub)

    for lazy in COMMANDS:
        walk([lazy.name], load_command(lazy))
    return found


COMMAND_PATHS = [path for path, _ in every_command()]


def test_the_root_help_shows_an_example() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "Example" in result.output


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=[" ".join(p) for p in COMMAND_PATHS])
def test_every_command_help_has_an_example_and_no_markup(path: list[str]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "Example" in result.output, f"{' '.join(path)}: no example in its help"
    leftover = MARKUP.search(result.output)
    assert leftover is None, f"{' '.join(path)}: literal markup {leftover.group(0)!r} in its help"


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=[" ".join(p) for p in COMMAND_PATHS])
def test_every_option_has_help_text(path: list[str]) -> None:
    command = dict((tuple(p), c) for p, c in every_command())[tuple(path)]
    bare = [
        param.opts[0]
        for param in command.params
        if param.param_type_name == "option" and not getattr(param, "help", None)
    ]
    assert not bare, f"{' '.join(path)}: options without help: {bare}"


def test_version_prints_the_package_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == version_text()
    assert re.fullmatch(r"confrontation \d+\.\d+\.\d+\S*", version_text())


def test_version_is_eager_and_ignores_a_command() -> None:
    result = CliRunner().invoke(app, ["--version", "odds"])
    assert result.exit_code == 0
    assert result.output.startswith("confrontation ")


def test_typer_is_the_help_renderer() -> None:
    assert isinstance(app, typer.Typer)


RUNNABLE = sorted(
    path
    for path in EXAMPLES
    if path.split(" ")[0] in ("odds", "profiles", "scenarios") and " " in path
)


@pytest.mark.parametrize("path", RUNNABLE)
def test_the_cheap_examples_run_as_written(path: str) -> None:
    words = shlex.split(EXAMPLES[path])
    assert words[0] == "confrontation" and words[1 : 1 + len(path.split())] == path.split()
    result = CliRunner().invoke(app, words[1:])
    assert result.exit_code == 0, f"{EXAMPLES[path]}: {result.output}"


def test_every_example_names_its_own_command() -> None:
    for path, line in EXAMPLES.items():
        words = shlex.split(line)
        assert words[0] == "confrontation"
        if path:
            assert words[1 : 1 + len(path.split())] == path.split() or " " not in path, line
