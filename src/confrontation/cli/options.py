"""What several commands share: the one-line error and the ``--rules`` option."""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

from confrontation.engine.core.ruleset import known_rulesets
from confrontation.sim.game import DEFAULT_RULES

EXIT_USAGE = 2


def fail(message: str) -> NoReturn:
    """One line on stderr, exit 2 (bad option or unreadable input)."""
    sys.stderr.write(" ".join(f"error: {message}".split()) + "\n")
    raise typer.Exit(EXIT_USAGE)


RulesOption = Annotated[
    str | None,
    typer.Option(
        "--rules",
        metavar="NAME",
        help=f"The rules the game is played with: {', '.join(known_rulesets())}.",
        show_default=DEFAULT_RULES,
    ),
]
"""``--rules NAME`` of the commands that play games (default ``confede``)."""


def check_rules(name: str | None) -> str:
    """``--rules NAME`` (default ``confede``): a known ruleset, else a one-line error."""
    if name is None:
        return DEFAULT_RULES
    if name not in known_rulesets():
        fail(f"--rules: no rules named {name!r} (choose from: {', '.join(known_rulesets())})")
    return name
