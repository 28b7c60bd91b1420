"""What several commands share: the one-line error, the ``--rules`` option, and options
that take several values (``--armies A B C``)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Annotated, Any, ClassVar, NoReturn

import typer
from typer.core import TyperCommand

from confrontation.c4.modes import Mode

DEFAULT_RULES = "confede"
"""``--rules``'s default: ``sim.game.DEFAULT_RULES``, written here so that a command's
``--help`` needs not import the engine (tests/cli/test_startup_help.py checks they agree)."""
ENGINE_RULES = ("confede", "c3")
"""The engine's rulesets (``engine.core.ruleset.known_rulesets()``) as ``--rules``'s help
lists them, written here for the help's start-up (a test checks they agree); a ``--rules``
value is checked against the real list."""
MAX_PLAYERS = 6
"""``engine.core.state.MAX_PLAYERS`` (XX-F) as the help gives it (a test checks they agree)."""
DEFAULT_AGENT_NAMES = ("greedy", "greedy")
"""``sim.game.DEFAULT_AGENTS``, ``--agents``'s default in the help (a test checks they agree)."""
DEFAULT_SCENARIO_NAME = "conquest"
"""``sim.game.DEFAULT_SCENARIO`` as ``play --help`` shows it (a test checks they agree)."""
DEFAULT_ARMY_NAMES = ("akkylannie-crusade", "bran-o-kor-horde")
"""``sim.game.DEFAULT_ARMIES`` as ``play --help`` shows them (a test checks they agree)."""
BACKEND_NAMES = ("local", "ray")
"""``sim.backends.BACKENDS``' names, as ``simulate --backend``'s help lists them (a test
checks they agree)."""
C4_RULES = "c4"
"""``--rules c4``: the unit-based ruleset (``002_…``), a game of its own (``confrontation.c4``)."""
C4_MODES = tuple(str(m) for m in Mode)
"""``--mode``: the six C4 game modes, simplest first (Marauder the default)."""


def all_rules() -> tuple[str, ...]:
    """Every ``--rules`` value: the engine's rulesets and ``c4`` (imports the engine)."""
    from confrontation.engine.core.ruleset import known_rulesets

    return (*known_rulesets(), C4_RULES)


def listed_rules() -> tuple[str, ...]:
    """:func:`all_rules` as the help lists them, without importing the engine."""
    return (*ENGINE_RULES, C4_RULES)


EXIT_USAGE = 2
EXIT_INVALID_LIST = 1

MAX_ID = 2**63 - 1
"""The largest game id or seed an SQL integer holds (``games show``, ``--resume``, ``--seed``)."""
MAX_ROUNDS = 100
"""``--rounds``: as ``data/bounds.toml`` bounds a scenario's rounds (a test checks they agree)."""
MAX_JOBS = 64
"""``simulate --jobs``: more worker processes than any machine this runs on has cores for."""
MAX_GAMES = 1_000_000
"""``simulate --games``: the batch's plan is built in memory before the first game."""


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """One line on stderr, exit ``code`` (2: bad option or unreadable input)."""
    sys.stderr.write(" ".join(f"error: {message}".split()) + "\n")
    raise typer.Exit(code)


AllowInvalidOption = Annotated[
    bool,
    typer.Option(
        "--allow-invalid",
        help="Play army lists that break a rule of chapter I-D (refused otherwise; "
        "`confrontation army validate FILE` tells why).",
    ),
]
"""``--allow-invalid`` of the commands that play games."""


def check_lists(armies: Sequence[str | None], allow_invalid: bool) -> None:
    """Refuse an army list the validator calls invalid (I-D), in one line naming the file
    and the first broken rule, unless ``allow_invalid``. Unreadable lists are left to the
    game's set-up, which names them."""
    if allow_invalid:
        return
    from confrontation.armylists.load import LoadError, army_path, load_army
    from confrontation.armylists.validate import validate

    for name in armies:
        if name is None:
            continue
        try:
            path = army_path(name)
            report = validate(load_army(path))
        except (LoadError, OSError, ValueError):
            continue
        if not report.valid:
            first = report.violations[0]
            more = len(report.violations) - 1
            also = f" (and {more} more)" if more else ""
            sys.stderr.write(
                " ".join(
                    f"error: {name}: invalid army list: {first}{also}; play it anyway with "
                    "--allow-invalid".split()
                )
                + "\n"
            )
            raise typer.Exit(EXIT_INVALID_LIST)


RulesOption = Annotated[
    str | None,
    typer.Option(
        "--rules",
        metavar="NAME",
        help=f"The rules the game is played with: {', '.join(listed_rules())} (c4: the "
        "unit-based ruleset, with --mode).",
        show_default=DEFAULT_RULES,
    ),
]
"""``--rules NAME`` of the commands that play games (default ``confede``)."""


def check_rules(name: str | None) -> str:
    """``--rules NAME`` (default ``confede``): a known ruleset, else a one-line error."""
    if name is None:
        return DEFAULT_RULES
    if name not in all_rules():
        fail(f"--rules: no rules named {name!r} (choose from: {', '.join(all_rules())})")
    return name


ModeOption = Annotated[
    str | None,
    typer.Option(
        "--mode",
        metavar="MODE",
        help="The C4 game mode (--rules c4 only): " + ", ".join(C4_MODES) + ".",
        show_default=str(Mode.MARAUDER),
    ),
]
"""``--mode MODE`` of ``play`` and ``simulate`` with ``--rules c4``."""


def check_mode(mode: str | None, rules: str | None) -> str:
    """``--mode``: one of the six C4 modes, only with ``--rules c4`` (default marauder)."""
    if mode is not None and rules != C4_RULES:
        fail("--mode chooses a C4 game mode: use it with --rules c4")
    if mode is None:
        return str(Mode.MARAUDER)
    if mode not in C4_MODES:
        fail(f"--mode: no C4 game mode {mode!r} (choose from: {', '.join(C4_MODES)})")
    return mode


def spread(args: list[str], options: tuple[str, ...]) -> list[str]:
    """``--armies A B C`` → ``--armies A --armies B --armies C``: each of ``options`` takes
    the words after it, up to the next option (a word starting with ``-``) or the end, as
    values of its own (the commands using it take no arguments, so nothing else is lost).
    ``--armies A --armies B`` and ``--armies=A B`` read the same."""
    out: list[str] = []
    taking: str | None = None
    position = 0
    while position < len(args):
        word = args[position]
        position += 1
        if word == "--":
            out.extend(args[position - 1 :])
            break
        name = word.split("=", 1)[0]
        if name in options:
            out.append(word)
            taking = name
            if "=" not in word and position < len(args):  # its first value, whatever it is
                out.append(args[position])
                position += 1
        elif word.startswith("-"):
            out.append(word)
            taking = None
        elif taking is not None:
            out.extend((taking, word))
        else:
            out.append(word)
    return out


class ManyValues(TyperCommand):
    """A command whose options in :attr:`many` take one value or several in a row
    (:func:`spread`): ``--armies A B C`` for a game of three players (XX-F)."""

    many: ClassVar[tuple[str, ...]] = ("--armies",)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, spread(list(args), self.many))


class OutputFile:
    """A file an option names (``--log``, ``--svg``), opened at once: a write that fails (a
    full disk) is one line naming the option, not a traceback."""

    def __init__(self, path: Path, option: str) -> None:
        self.path = path
        self.option = option
        try:
            self._handle: IO[str] = path.open("w", encoding="utf-8")
        except (OSError, ValueError) as exc:
            self._fail(exc)

    def _fail(self, exc: OSError | ValueError) -> NoReturn:
        reason = getattr(exc, "strerror", None) or str(exc)
        fail(f"{self.option} {self.path}: cannot write ({reason})")

    def write(self, text: str) -> None:
        try:
            self._handle.write(text)
        except OSError as exc:
            self._fail(exc)

    def close(self) -> None:
        """Flush and close; a failure is the option's one line (once)."""
        handle = self._handle
        if handle.closed:
            return
        try:
            handle.flush()
        except OSError as exc:
            with contextlib.suppress(OSError):
                handle.close()
            self._fail(exc)
        handle.close()
