"""`confrontation simulate`'s options: the command as ``--help`` shows it, light to import
(issue 22, start-up); :func:`confrontation.cli.simulate.run_simulate` plays the games."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from confrontation.cli.options import (
    BACKEND_NAMES,
    DEFAULT_AGENT_NAMES,
    MAX_GAMES,
    MAX_JOBS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    AllowInvalidOption,
    ModeOption,
    RulesOption,
)


def simulate_command(
    games: Annotated[
        int, typer.Option("--games", "-n", help="How many games.", max=MAX_GAMES)
    ] = 10,
    scenario: Annotated[
        str | None,
        typer.Option(
            "--scenario",
            metavar="NAME|FILE",
            help="Scenario (default: conquest; with --rules c4 one that fits units, else the "
            "default battle).",
        ),
    ] = None,
    armies: Annotated[
        list[str] | None,
        typer.Option(
            "--armies",
            metavar="A B [C...]",
            help=f"2 to {MAX_PLAYERS} army files or bundled army ids (they turn round). More "
            "than two with one agent per army: games of several players (XX-F); more than two "
            "with two agents: every pair plays --games games (a match-up matrix).",
        ),
    ] = None,
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            metavar="A,B[,C...]",
            help="One agent per army (wins counted per agent); options as "
            "NAME:KEY=VALUE;KEY=VALUE (mcts:iterations=200;seconds=2.5).",
        ),
    ] = ",".join(DEFAULT_AGENT_NAMES),
    seed: Annotated[int, typer.Option("--seed", help="Batch seed (game seeds come from it).")] = 0,
    rounds: Annotated[
        int | None,
        typer.Option("--rounds", help="Override the scenario's round limit.", max=MAX_ROUNDS),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Local worker processes.", max=MAX_JOBS)
    ] = 1,
    backend: Annotated[
        str, typer.Option("--backend", help=f"Where games run: {' or '.join(BACKEND_NAMES)}.")
    ] = "local",
    ray_address: Annotated[
        str | None, typer.Option("--ray-address", help="Ray cluster address (ray backend).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    db: Annotated[
        str | None,
        typer.Option("--db", metavar="URL", help="Store the games in this database."),
    ] = None,
    store_games: Annotated[
        bool,
        typer.Option("--store", help="Store the games in the default store (not by default)."),
    ] = False,
    no_store: Annotated[
        bool, typer.Option("--no-store", help="Do not store the games (the default).")
    ] = False,
    chart: Annotated[
        Path | None,
        typer.Option(
            "--chart",
            metavar="FILE.png",
            help="Draw the wins by army and by side (and the match-ups) into a PNG file.",
        ),
    ] = None,
    rules: RulesOption = None,
    allow_invalid: AllowInvalidOption = False,
    mode: ModeOption = None,
    checkpoint: Annotated[
        Path | None,
        typer.Option(
            "--checkpoint",
            metavar="FILE",
            help="Keep each finished game's result in FILE; when FILE holds games of this same "
            "batch (an interrupted run), play only the others.",
        ),
    ] = None,
) -> None:
    """Play N games between 2 to 6 agents (sides and armies turn round; XX-F) and report win
    rates with 95 % intervals, mean VP and losses, mean rounds and games per second."""
    from confrontation.cli.simulate import run_simulate

    run_simulate(
        games,
        scenario,
        armies,
        agents,
        seed,
        rounds,
        jobs,
        backend,
        ray_address,
        as_json,
        db,
        store_games,
        no_store,
        chart,
        rules,
        allow_invalid,
        mode,
        checkpoint,
    )
