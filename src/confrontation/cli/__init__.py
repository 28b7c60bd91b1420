"""The `confrontation` command line: thin adapters that parse, call and render."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer._click.exceptions import ClickException, NoArgsIsHelpError
from typer.core import TyperGroup
from typer.exceptions import Abort

from confrontation.cli import army, games, odds, play, profiles, scenarios, serve, simulate
from confrontation.cli.options import ManyValues


class OneLineErrors(TyperGroup):
    """Root command group: any usage error becomes one ``error: ...`` line on stderr.

    Typer's default is a multi-line box; the project's rule is one clear line, a non-zero
    exit and no traceback. ``--help`` and a bare command still print the full help.
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(
                args=args,
                prog_name=prog_name or "confrontation",
                complete_var=complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
        except NoArgsIsHelpError as exc:
            typer.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
            rv = 0
        except ClickException as exc:
            ctx = getattr(exc, "ctx", None)
            where = f"{ctx.command_path}: " if ctx is not None else ""
            message = " ".join(exc.format_message().split())
            typer.echo(f"error: {where}{message}", err=True)
            rv = exc.exit_code
        except Abort:
            typer.echo("error: aborted", err=True)
            rv = 1
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    name="confrontation",
    cls=OneLineErrors,
    help="Confrontation (Conf'fédé rules): odds, army lists and games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(odds.app, name="odds")
app.add_typer(army.app, name="army")
app.add_typer(profiles.app, name="profiles")
app.add_typer(games.app, name="games")
app.add_typer(scenarios.app, name="scenarios")
app.command("simulate", cls=ManyValues)(simulate.simulate_command)
app.command("play", cls=ManyValues)(play.play_command)
app.command("serve")(serve.serve_command)


def main() -> None:
    """Console-script entry point."""
    app()
