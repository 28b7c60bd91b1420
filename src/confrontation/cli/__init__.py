"""The `confrontation` command line: thin adapters that parse, call and render."""

from __future__ import annotations

import typer

from confrontation.cli import army, odds, profiles

app = typer.Typer(
    name="confrontation",
    help="Confrontation (Conf'fédé rules): odds, army lists and games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(odds.app, name="odds")
app.add_typer(army.app, name="army")
app.add_typer(profiles.app, name="profiles")


def main() -> None:
    """Console-script entry point."""
    app()
