"""One line of rich markup printed without importing rich where rich would print it plain
(issue 22, start-up: rich's console is ≈ 0.02 s of ``confrontation odds test``)."""

from __future__ import annotations

import builtins
import os
import re
import sys

import typer

_TAG = re.compile(r"\[/?[a-z ]*\]")
"""The markup ``say`` accepts: style tags (``[bold]``, ``[bold green]``, ``[/]``) only."""


def plain_output() -> bool:
    """Whether rich's ``Console`` would write to stdout as to no terminal (no colour, no
    style): stdout is not a terminal, nor made one by ``TTY_COMPATIBLE=1`` or a non-empty
    ``FORCE_COLOR``, and no IPython kernel runs here (rich's ``Console.is_terminal``)."""
    if hasattr(builtins, "get_ipython"):
        return False
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "0"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force == ""
    try:
        return not sys.stdout.isatty()
    except (ValueError, AttributeError):  # closed, or no stream
        return True


def say(markup: str) -> None:
    """Print ``markup`` (style tags around plain text, no ``[`` of its own) as
    ``Console(soft_wrap=True).print`` prints it: plain text when :func:`plain_output`,
    else through rich."""
    if plain_output():
        typer.echo(_TAG.sub("", markup))
        return
    from rich.console import Console

    Console(soft_wrap=True).print(markup)
