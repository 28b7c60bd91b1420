"""`confrontation games ...`: the saved games — list them, show one, replay one."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from confrontation.cli.options import MAX_ID

if TYPE_CHECKING:
    from confrontation.engine.core.state import GameState
    from confrontation.store import Store, StoredGame
    from confrontation.store.records import GameSummary
    from confrontation.store.replays import Snapshot

app = typer.Typer(help="Saved games: list, show, replay, delete.", no_args_is_help=True)

EXIT_MISMATCH, EXIT_USAGE = 1, 2

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="Game store: an SQLAlchemy URL or an SQLite file "
        "(default: $CONFRONTATION_DB or ~/.local/share/confrontation/games.db).",
    ),
]
GameId = Annotated[
    int,
    typer.Argument(metavar="ID", help="The game's id (see `games list`).", min=1, max=MAX_ID),
]


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """One line on stderr, then exit (2: usage or unreadable input)."""
    sys.stderr.write(" ".join(f"error: {message}".split()) + "\n")
    raise typer.Exit(code)


def store_at(url: str | None) -> Store:
    """The store at ``url`` (the default store when None), or one line and exit 2."""

    from confrontation.store import StoreError, open_store

    try:
        return open_store(url)
    except StoreError as error:
        fail(str(error))


def load_game(store: Store, game_id: int) -> StoredGame:
    """A saved game, or one line and exit 2."""

    import confrontation.c4.events  # noqa: F401  (a C4 game's events decode too)
    from confrontation.store import StoreError

    try:
        return store.load(game_id)
    except StoreError as error:
        fail(str(error))


def _is_c4(game: StoredGame) -> bool:
    """A game of the unit-based ruleset (``play --rules c4``)."""
    from confrontation.c4.events import C4GameStarted

    return bool(game.events) and isinstance(game.events[0], C4GameStarted)


def replayed(game: StoredGame) -> tuple[GameState, list[Snapshot]]:
    """The game rebuilt from its record (:func:`replay_rounds`), or one line and exit 1."""

    from confrontation.engine.core.registry import EngineError
    from confrontation.store.replays import replay_rounds

    try:
        return replay_rounds(game.events)
    except EngineError as error:
        fail(f"game {game.id} does not replay: {error}", EXIT_MISMATCH)


def checked(game: StoredGame, final: GameState) -> None:
    """The stored result's rounds, losses, TP and goal-average agree with the replayed game
    (winner and VP: checked against the record by ``Store.load``), or one line and exit 1."""

    from confrontation.store.replays import outcome_problem

    outcome = game.summary.outcome
    problem = None if outcome is None else outcome_problem(outcome, final)
    if problem is not None:
        fail(f"game {game.id}: {problem}", EXIT_MISMATCH)


def result_text(summary: GameSummary) -> str:
    """``Player 1 wins 3-1``, ``draw 2-2`` (``draw 2-0-2`` with three players), or the status
    of an unfinished game."""

    from confrontation.engine.core.state import player_name

    outcome = summary.outcome
    if outcome is None:
        return f"{summary.status} ({summary.events} events)"
    score = "-".join(str(vp) for vp in outcome.vp)
    if outcome.winner is None:
        return f"draw {score}"
    return f"{player_name(outcome.winner)} wins {score}"


def summary_data(summary: GameSummary) -> dict[str, object]:
    """A saved game's summary as JSON data."""
    outcome = summary.outcome
    return {
        "id": summary.id,
        "created": summary.created.isoformat(timespec="seconds"),
        "scenario": summary.scenario,
        "seed": summary.seed,
        "status": summary.status,
        "agents": list(summary.agents),
        "armies": list(summary.armies),
        "winner": None if outcome is None else outcome.winner,
        "vp": None if outcome is None else list(outcome.vp),
        "losses_ap": None if outcome is None else list(outcome.losses),
        "rounds": None if outcome is None else outcome.rounds,
        "tp": None if outcome is None or outcome.tp is None else list(outcome.tp),
        "goal_average": None if outcome is None or outcome.ga is None else list(outcome.ga),
        "events": summary.events,
    }


def scoreboard(summary: GameSummary) -> Table:
    """Per player: army, agent, VP and losses (AP), with tournament points and goal-average
    for a game of victory conditions (XX-A-4, XX-A-5); the title says who won (★; in a draw of
    three players or more, ☆ marks those sharing the best score)."""

    from confrontation.engine.core.outcome import leaders
    from confrontation.engine.core.state import player_name

    outcome = summary.outcome
    title = f"Game {summary.id} — {summary.scenario}, seed {summary.seed}: " + result_text(summary)
    if outcome is not None:
        title += f" after {outcome.rounds} round{'s' if outcome.rounds != 1 else ''}"
    grid = Table(title=escape(title), box=box.SIMPLE_HEAD)
    grid.add_column("player")
    grid.add_column("army")
    grid.add_column("agent")
    grid.add_column("VP", justify="right")
    grid.add_column("losses (AP)", justify="right")
    tournament = outcome is not None and outcome.tp is not None and outcome.ga is not None
    if tournament:  # XX-A-4, XX-A-5
        grid.add_column("TP", justify="right")
        grid.add_column("GA", justify="right")
    shared: tuple[int, ...] = ()
    if outcome is not None and outcome.winner is None and len(outcome.vp) != 2:
        shared = leaders(outcome.vp)  # XX-F
    for player in range(len(summary.agents)):
        vp = "—" if outcome is None else str(outcome.vp[player])
        lost = "—" if outcome is None else str(outcome.losses[player])
        name = player_name(player)
        if outcome is not None and outcome.winner == player:
            name += " ★"
        elif player in shared:
            name += " ☆"
        row = [name, escape(summary.armies[player]), escape(summary.agents[player]), vp, lost]
        if tournament and outcome is not None and outcome.tp and outcome.ga:
            row += [str(outcome.tp[player]), f"{outcome.ga[player]:+d}"]
        grid.add_row(*row)
    return grid


@app.command("list")
def list_command(
    db: DbOption = None,
    status: Annotated[
        str | None,
        typer.Option("--status", help="running, finished or interrupted."),
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, max=MAX_ID, help="Newest N only.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The saved games, newest first."""
    from confrontation.store.records import STATUSES

    if status is not None and status not in STATUSES:
        fail(f"--status: {status!r} is not one of {', '.join(STATUSES)}")
    store = store_at(db)
    games, malformed = store.list_checked(status=status, limit=limit)
    for line in malformed:  # told, and the others listed all the same
        sys.stderr.write(f"error: {line}\n")
    if as_json:
        sys.stdout.write(json.dumps([summary_data(g) for g in games]) + "\n")
    else:
        _listing(store, games)
    if malformed:
        raise typer.Exit(EXIT_MISMATCH)


def _listing(store: Store, games: list[GameSummary]) -> None:
    """``games list``'s table."""
    console = Console(soft_wrap=True)
    if not console.is_terminal:  # piped: keep one line per game (wider for more players)
        more = max((len(game.armies) for game in games), default=2) - 2
        console.width = max(console.width, 150 + 50 * more)
    if not games:
        console.print(f"No saved games in {escape(store.url)}.")
        return
    grid = Table(title=f"Saved games ({escape(store.url)})", box=box.SIMPLE_HEAD)
    for name, justify in (
        ("id", "right"),
        ("created", "left"),
        ("scenario", "left"),
        ("seed", "right"),
        ("armies", "left"),
        ("agents", "left"),
        ("result", "left"),
        ("rounds", "right"),
    ):
        grid.add_column(name, justify=justify)  # type: ignore[arg-type]
    for game in games:
        grid.add_row(
            str(game.id),
            game.created.strftime("%m-%d %H:%M"),
            escape(game.scenario),
            str(game.seed),
            escape(" vs ".join(game.armies)),
            escape(" vs ".join(game.agents)),
            escape(result_text(game)),
            "—" if game.outcome is None else str(game.outcome.rounds),
        )
    console.print(grid)


@app.command("show")
def show_command(
    game_id: GameId,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A saved game: its scoreboard and the game told round by round."""
    from confrontation.cli.play import Narration
    from confrontation.cli.stored import resume_hint
    from confrontation.engine.core.narrate import narrate

    game = load_game(store_at(db), game_id)
    if _is_c4(game):
        from confrontation.c4.narrate import story as c4_story

        story = c4_story(game.events)
    else:
        if game.summary.outcome is not None:  # the losses and rounds shown are the record's
            checked(game, replayed(game)[0])
        story = narrate(game.events)
    if as_json:
        document = summary_data(game.summary) | {"narration": story}
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
        return
    console = Console(highlight=False, soft_wrap=True)
    if _is_c4(game):
        for line in story:
            console.print(line, markup=False)
    else:
        Narration(console).tell_all(game.events)  # as the live game told it
    console.print(scoreboard(game.summary))
    if game.summary.outcome is None:
        console.print(
            f"The game is {game.status}: continue it with `{resume_hint(game.id, db)}`.",
            markup=False,
        )


@app.command("replay")
def replay_command(
    game_id: GameId,
    db: DbOption = None,
    svg_dir: Annotated[
        Path | None,
        typer.Option("--svg-dir", metavar="DIR", help="Draw the table at the end of each round."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Rebuild a saved game from its record, check it, and draw each round's battlefield."""
    from confrontation.engine.table.field import has_field
    from confrontation.scenarios.picture import battlefield_svg

    game = load_game(store_at(db), game_id)
    if _is_c4(game):
        from confrontation.cli.c4play import replay_c4_cli

        replay_c4_cli(game, svg_dir, as_json)
        return
    final, snapshots = replayed(game)
    checked(game, final)
    written: list[str] = []
    if svg_dir is not None:
        try:
            svg_dir.mkdir(parents=True, exist_ok=True)
            for snapshot in snapshots:
                if not has_field(snapshot.state):
                    continue
                picture = battlefield_svg(snapshot.state)
                path = svg_dir / f"game-{game_id}-round-{snapshot.round:02d}.svg"
                path.write_text(picture, encoding="utf-8")
                written.append(str(path))
        except OSError as error:
            fail(f"--svg-dir {svg_dir}: {error.strerror or error}")
    document = {
        "id": game_id,
        "status": game.status,
        "events": len(game.events),
        "matches": True,
        "round": final.round,
        "phase": final.phase.value,
        "scores": list(final.scores),
        "rounds_drawn": [s.round for s in snapshots],
        "svg": written,
    }
    if as_json:
        sys.stdout.write(json.dumps(document) + "\n")
        return
    console = Console(soft_wrap=True)
    console.print(
        f"Game {game_id} ({game.status}): {len(game.events)} events replayed, every one "
        f"matches the record; final state: round {final.round}, {final.phase.value} phase, "
        f"score {'-'.join(str(score) for score in final.scores)}."
    )
    for name in written:
        console.print(f"  wrote {escape(name)}")


@app.command("delete")
def delete_command(
    game_ids: Annotated[
        list[int], typer.Argument(metavar="ID...", help="The games to delete (see `games list`).")
    ],
    db: DbOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Delete a game even while it shows as running.")
    ] = False,
) -> None:
    """Delete saved games and their records (a running game only with --force)."""
    from confrontation.store import RUNNING

    store = store_at(db)
    games = [load_game(store, game_id) for game_id in game_ids]  # all known, or nothing goes
    running = [game.id for game in games if game.status == RUNNING]
    if running and not force:
        fail(
            f"game {running[0]} is running (being played, or stopped without a trace): "
            "add --force to delete it anyway"
        )
    for game in games:
        store.delete(game.id)
        sys.stdout.write(f"deleted game {game.id} ({result_text(game.summary)}) from {store.url}\n")
