"""Start-up, fifth round (issue 22): ``odds test`` imports no pydantic (plain options are
coerced without typer's pydantic adapters, with the same values), a group builds only the
command it runs, and ``--help`` renders without rich's markdown and traceback modules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import typer.main
import typer.testing
from typer.core import _TyperParameter
from typer.testing import CliRunner

from confrontation.cli import (
    COMMANDS,
    LazyCommands,
    PlainParam,
    load_command,
    plain_coercion,
)

PROBE = """
import sys
from confrontation.cli import main
sys.argv = ["confrontation", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
watched = {"pydantic", "pydantic_core", "typer._adapters", "markdown_it", "rich.markdown",
    "rich.traceback", "rich.pretty"}
print("LOADED", *sorted(m for m in sys.modules if m in watched))
"""


def loaded_by(*args: str) -> set[str]:
    source = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, check=True
    )
    last = done.stdout.strip().splitlines()[-1].split()
    assert last[0] == "LOADED", done.stdout
    return set(last[1:])


@pytest.mark.parametrize(
    "args",
    [("--help",), ("odds", "test", "--value", "3", "--difficulty", "5", "--dice", "2")],
    ids=["help", "odds-test"],
)
def test_no_pydantic_nor_markdown_on_the_light_commands(args: tuple[str, ...]) -> None:
    assert loaded_by(*args) == set()


def test_odds_help_needs_neither() -> None:
    assert loaded_by("odds", "--help") == set()


def sample_app() -> typer.Typer:
    app = typer.Typer(add_completion=False)

    @app.command()
    def run(
        name: str = typer.Option(..., "--name"),
        count: str = typer.Option("1", "--count"),
        flag: bool = typer.Option(False, "--flag", envvar="SAMPLE_FLAG"),
        number: int = typer.Option(0, "--number"),
    ) -> None:
        typer.echo(repr((name, count, flag, number)))

    return app


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["--name", "x"], {}),
        (["--name", " 3 ", "--count", "7", "--flag", "--number", "4"], {}),
        (["--name", "é\udcff"], {}),
        (["--name", "x"], {"SAMPLE_FLAG": "yes"}),  # a flag's text: typer's adapter decides
        (["--name", "x"], {"SAMPLE_FLAG": "maybe"}),  # ... and its error
        (["--count", "2"], {}),  # missing --name: the same error
        (["--name", "x", "--number", "four"], {}),  # not a plain option: typer's own
    ],
)
def test_plain_coercion_gives_typers_values_and_errors(
    args: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(typer.testing, "_get_command", lambda command: command)  # built here
    typers = typer.main.get_command(sample_app())
    ours = typer.main.get_command(sample_app())
    plain_coercion(ours)
    kinds = [type(getattr(p, "_runtime_param", None)) for p in ours.params]
    assert kinds[:3] == [PlainParam] * 3
    assert kinds[3] is not PlainParam  # int: typer's adapter, built when needed
    runner = CliRunner()
    expected = runner.invoke(typers, args, env=env)  # type: ignore[arg-type]
    got = runner.invoke(ours, args, env=env)  # type: ignore[arg-type]
    assert (got.exit_code, got.output) == (expected.exit_code, expected.output)


def test_plain_param_hands_other_values_to_typers_adapter() -> None:
    command = typer.main.get_command(sample_app())
    plain_coercion(command)
    name, _count, flag, _number = (p for p in command.params if isinstance(p, _TyperParameter))
    ctx = command.make_context("run", ["--name", "x"])
    assert name.get_runtime_param()._coerce_value(b"caf\xc3\xa9", name, ctx) == "café"
    assert flag.get_runtime_param()._coerce_value("on", flag, ctx) is True
    assert flag.get_runtime_param()._coerce_value(False, flag, ctx) is False


def test_a_group_builds_only_the_command_it_runs() -> None:
    odds = next(c for c in COMMANDS if c.name == "odds")
    group = load_command(odds)
    commands = group.commands  # type: ignore[attr-defined]
    assert isinstance(commands, LazyCommands)
    from confrontation.cli.odds import app as odds_app

    infos = odds_app.registered_commands
    names = [
        i.name or typer.main.get_command_name(getattr(i.callback, "__name__", "")) for i in infos
    ]
    assert list(commands) == names
    assert commands._built == {}
    test = commands["test"]
    assert list(commands._built) == ["test"]
    assert commands["test"] is test
    assert test.epilog and "odds test" in test.epilog  # its example, as before
    assert "nosuch" not in commands


def test_help_stand_ins_leave_the_real_modules_to_later_imports() -> None:
    source = str(Path(__file__).resolve().parents[2] / "src")
    code = (
        "import sys\n"
        "from confrontation.cli import import_rich_help\n"
        "import_rich_help()\n"
        "print('rich.markdown' in sys.modules, 'rich.traceback' in sys.modules)\n"
        "import typer.rich_utils as r\n"
        "import rich.traceback\n"
        "print(r.Traceback.from_exception.__self__ is rich.traceback.Traceback)\n"
        "print(type(r.Markdown('*x*')).__module__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": source},
        check=True,
    )
    assert done.stdout.split() == ["False", "False", "True", "rich.markdown"]


def test_odds_test_prints_without_rich() -> None:
    source = str(Path(__file__).resolve().parents[2] / "src")
    code = PROBE.replace(
        'print("LOADED"', "print('RICH', 'rich.console' in sys.modules)\nprint(\"LOADED\""
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "odds", "opposed", "--a", "3", "--b", "4"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": source},
        check=True,
    )
    assert "RICH False" in done.stdout
    assert done.stdout.startswith("Opposed test, A 3 with 1d6 against B 4 with 1d6")


@pytest.mark.parametrize(
    "args",
    [
        ["test", "--value", "3", "--difficulty", "5"],
        ["test", "--value", "-4", "--difficulty", "12", "--dice", "3", "--no-raise"],
        ["opposed", "--a", "-2", "--b", "7", "--dice-a", "2"],
    ],
)
def test_the_plain_answer_is_richs_answer(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """rich's console writing to no terminal, and ``say``'s plain text, print the same."""
    from rich.console import Console

    from confrontation.cli import odds, plain

    for name in ("TTY_COMPATIBLE", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    command = load_command(next(c for c in COMMANDS if c.name == "odds"))
    monkeypatch.setattr(plain, "plain_output", lambda: True)
    command.main(args, standalone_mode=False)
    said = capsys.readouterr().out

    printed: list[str] = []

    def through_rich(markup: str) -> None:
        console = Console(soft_wrap=True, force_terminal=False)
        with console.capture() as captured:
            console.print(markup)
        printed.append(captured.get())

    monkeypatch.setattr(odds, "say", through_rich)
    command.main(args, standalone_mode=False)
    assert printed == [said]
    assert "[" not in said and "%" in said


@pytest.mark.parametrize(
    ("env", "tty", "plain_text"),
    [
        ({}, False, True),
        ({}, True, False),
        ({"FORCE_COLOR": "1"}, False, False),
        ({"FORCE_COLOR": ""}, True, True),
        ({"TTY_COMPATIBLE": "1"}, False, False),
        ({"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, True, True),
    ],
)
def test_plain_output_follows_richs_terminal_rules(
    env: dict[str, str], tty: bool, plain_text: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from rich.console import Console

    from confrontation.cli.plain import plain_output

    for name in ("TTY_COMPATIBLE", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    monkeypatch.setattr(sys, "stdout", Stream())
    assert plain_output() is plain_text
    assert Console().is_terminal is not plain_text
