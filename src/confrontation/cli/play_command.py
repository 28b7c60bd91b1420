"""`confrontation play`'s options: the command as ``--help`` shows it, light to import
(issue 22, start-up); :func:`confrontation.cli.play.run_play` plays the game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from confrontation.cli.options import (
    DEFAULT_AGENT_NAMES,
    DEFAULT_ARMY_NAMES,
    DEFAULT_SCENARIO_NAME,
    MAX_ID,
    MAX_PLAYERS,
    MAX_ROUNDS,
    AllowInvalidOption,
    ModeOption,
    RulesOption,
)


def play_command(
    scenario: Annotated[
        str | None,
        typer.Option(
            "--scenario",
            help="A bundled scenario (bloodbath, conquest, execution, fire, the-hill...), "
            "or a scenario file; "
            "':variation' picks a variation (conquest:campsites, execution:random-card). "
            "With --rules c4: bloodbath, conquest or cp-close-quarters (none: the default "
            "battle).",
            show_default=DEFAULT_SCENARIO_NAME,
        ),
    ] = None,
    armies: Annotated[
        list[str] | None,
        typer.Option(
            "--armies",
            metavar="A B [C...]",
            help=f"2 to {MAX_PLAYERS} army files (or bundled army ids), Player 1 first: more "
            "than two play a game of several players (XX-F).",
            show_default=" ".join(DEFAULT_ARMY_NAMES),
        ),
    ] = None,
    agents: Annotated[
        str | None,
        typer.Option(
            "--agents",
            metavar="A,B[,C...]",
            help="One agent per army (or one for all): random, greedy, mcts, human; options "
            "as NAME:KEY=VALUE;KEY=VALUE (mcts:iterations=200;seconds=2.5).",
            show_default=",".join(DEFAULT_AGENT_NAMES),
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="The game's seed (default: a random one, printed).", min=0, max=MAX_ID
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds", help="Override the scenario's round limit.", min=1, max=MAX_ROUNDS
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result as one JSON document.")
    ] = False,
    log: Annotated[
        Path | None, typer.Option("--log", help="Write the event log (JSON lines).")
    ] = None,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Write the final battlefield as SVG.")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="URL",
            help="Save the game here: an SQLAlchemy URL or an SQLite file (default: "
            "$CONFRONTATION_DB or ~/.local/share/confrontation/games.db).",
        ),
    ] = None,
    no_store: Annotated[bool, typer.Option("--no-store", help="Do not save the game.")] = False,
    resume: Annotated[
        int | None,
        typer.Option(
            "--resume",
            metavar="ID",
            help="Continue the interrupted saved game ID.",
            min=1,
            max=MAX_ID,
        ),
    ] = None,
    rules: RulesOption = None,
    allow_invalid: AllowInvalidOption = False,
    mode: ModeOption = None,
) -> None:
    """Play a whole game (III-A-2 scenarios) between 2 to 6 agents (XX-F) and show the result.

    Every game is saved (see: confrontation games list) unless --no-store. With --rules
    c4 a game of the unit-based ruleset in a game mode (--mode), between two companies
    (--armies: bundled companies or files) and two agents (random, greedy, mcts)."""
    from confrontation.cli.play import run_play

    run_play(
        scenario,
        armies,
        agents,
        seed,
        rounds,
        as_json,
        log,
        svg,
        db,
        no_store,
        resume,
        rules,
        allow_invalid,
        mode,
    )
