"""`confrontation serve`: the table in a browser (a local web server, docs/web.md)."""

from __future__ import annotations

from typing import Annotated

import typer


def serve_command(
    port: Annotated[
        int, typer.Option("--port", help="The port to listen on.", min=1, max=65535)
    ] = 8000,
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on (0.0.0.0: every network).")
    ] = "127.0.0.1",
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="URL",
            help="Keep the games here: an SQLAlchemy URL or an SQLite file (default: "
            "$CONFRONTATION_DB or ~/.local/share/confrontation/games.db).",
        ),
    ] = None,
) -> None:
    """Serve the game in a browser: start games against the AI or a friend, play by clicking."""
    import uvicorn

    from confrontation.store import StoreError
    from confrontation.web.app import create_app

    try:
        app = create_app(db)
    except StoreError as error:
        raise typer.BadParameter(str(error), param_hint="--db") from None
    typer.echo(f"Serving on http://{host}:{port}/ (Ctrl-C stops; games are kept)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
