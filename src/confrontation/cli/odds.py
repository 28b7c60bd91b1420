"""`confrontation odds ...`: exact probabilities of tests, opposed tests and wound rolls."""

from __future__ import annotations

import typer

app = typer.Typer(help="Exact odds: tests, opposed tests, wound rolls.", no_args_is_help=True)
