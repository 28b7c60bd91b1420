"""The `confrontation` command line: thin adapters that parse, call and render."""

from __future__ import annotations

import typer

from confrontation.cli import odds

app = typer.Typer(
    name="confrontation",
    help="Confrontation (Conf'fédé rules): odds, army lists and games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(odds.app, name="odds")


def main() -> None:
    """Console-script entry point."""
    app()
