"""`confrontation tournament …`: an event's lists checked against its format (I-D), Swiss
rounds, results, standings (XX-A-4, XX-A-5), kept in the game store; the AI tournament."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from confrontation.cli.options import ManyValues, check_rules, fail

if TYPE_CHECKING:
    from confrontation.store import Store
    from confrontation.tournament.event import Event, ListCheck
    from confrontation.tournament.standings import Standing
    from confrontation.tournament.store import StoredEvent, TournamentStore

app = typer.Typer(
    help="Tournaments: lists checked, Swiss rounds, results, standings; the AI tournament.",
    no_args_is_help=True,
)

EXIT_INVALID = 1
FORMATS = ("table", "json", "csv", "html")

DbOption = Annotated[
    str | None,
    typer.Option("--db", metavar="URL", help="The game store (default: the usual one)."),
]
EventArgument = Annotated[int, typer.Argument(help="The tournament's id (tournament list).")]


def _open(db: str | None) -> tuple[Store, TournamentStore]:

    from confrontation.store import StoreError, open_store
    from confrontation.tournament.store import TournamentStore

    try:
        store = open_store(db)
        return store, TournamentStore(store)
    except StoreError as error:
        fail(str(error))


def _load(tournaments: TournamentStore, ident: int) -> StoredEvent:

    from confrontation.store import StoreError

    if not 0 < ident < 2**63:
        fail(f"no tournament {ident}")
    try:
        return tournaments.load(ident)
    except StoreError as error:
        fail(str(error))


def _event(file: Path) -> Event:

    from confrontation.armylists.load import LoadError
    from confrontation.tournament.event import load_event

    try:
        return load_event(file)
    except LoadError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{file}: cannot read ({error.strerror})")


def _report(event: Event, checks: list[ListCheck]) -> None:
    console = Console(soft_wrap=True, highlight=False)
    form = event.format
    grid = Table(
        title=escape(
            f"{event.name}: {len(checks)} lists against {form.points} AP "
            f"({form.rounds} rounds, {form.rules})"
        ),
        box=box.SIMPLE_HEAD,
    )
    for column in ("player", "list", "AP", "fighters", "verdict"):
        grid.add_column(column, justify="right" if column in ("AP", "fighters") else "left")
    for check in checks:
        report = check.report
        if report is None:
            grid.add_row(escape(check.player.name), "", "", "", f"[red]{escape(check.error)}[/]")
            continue
        verdict = "[green]valid[/]" if report.valid else "[red]INVALID[/]"
        lines = [verdict] + [f"[red]{escape(str(v))}[/]" for v in report.violations]
        lines += [f"[yellow]note: {escape(str(n))}[/]" for n in report.notes]
        grid.add_row(
            escape(check.player.name),
            escape(report.name),
            f"{report.total_ap}/{form.points}",
            f"{report.fighters}/{report.quota}",
            "\n".join(lines),
        )
    console.print(grid)
    bad = sum(1 for c in checks if not c.valid)
    console.print(f"{len(checks) - bad} valid, {bad} invalid or unreadable.")


def _checks_json(checks: list[ListCheck]) -> list[dict[str, object]]:
    return [
        {
            "player": c.player.name,
            "list": c.player.army,
            "valid": c.valid,
            **({"report": c.report.as_json()} if c.report is not None else {"error": c.error}),
        }
        for c in checks
    ]


@app.command("check")
def check_command(
    file: Annotated[Path, typer.Argument(help="The tournament file (TOML).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check every player's list against the event's format (I-D): one report. Exit 0 all
    valid, 1 some invalid, 2 unreadable tournament file.

    Example: confrontation tournament check spring-cup.toml
    """
    from confrontation.tournament.event import check_lists

    event = _event(file)
    checks = check_lists(event)
    if as_json:
        sys.stdout.write(json.dumps(_checks_json(checks), ensure_ascii=False) + "\n")
    else:
        _report(event, checks)
    raise typer.Exit(0 if all(c.valid for c in checks) else EXIT_INVALID)


@app.command("new")
def new_command(
    file: Annotated[Path, typer.Argument(help="The tournament file (TOML).")],
    db: DbOption = None,
    allow_invalid: Annotated[
        bool, typer.Option("--allow-invalid", help="Register the event even with invalid lists.")
    ] = False,
) -> None:
    """Register an event from its file: its lists are checked first (one report) and an
    invalid one refuses the event (exit 1) unless --allow-invalid.

    Example: confrontation tournament new spring-cup.toml
    """
    from confrontation.tournament.event import check_lists

    event = _event(file)
    checks = check_lists(event)
    _report(event, checks)
    if not all(c.valid for c in checks) and not allow_invalid:
        sys.stderr.write("error: invalid lists: the event is not registered (--allow-invalid)\n")
        raise typer.Exit(EXIT_INVALID)
    armies = []
    for check in checks:
        source = None
        if check.report is not None:
            try:
                from confrontation.tournament.event import army_path

                source = army_path(check.player.army).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                source = None
        name = check.report.name if check.report is not None else check.player.army
        armies.append((name, source))
    _, tournaments = _open(db)
    ident = tournaments.create(event, armies)
    typer.echo(f"Registered as tournament {ident} (confrontation tournament pair {ident}).")


@app.command("list")
def list_command(db: DbOption = None) -> None:
    """The events in the store.

    Example: confrontation tournament list
    """
    _, tournaments = _open(db)
    rows = tournaments.events()
    if not rows:
        typer.echo("No tournament.")
    for ident, name, players in rows:
        typer.echo(f"{ident}: {name} ({players} players)")


def _pairings(stored: StoredEvent, round_: int) -> Table:
    names = [p.name for p in stored.event.players]
    grid = Table(title=f"Round {round_}", box=box.SIMPLE_HEAD)
    for column in ("table", "Player 1", "Player 2", "VP", "TP", "GA"):
        grid.add_column(column, justify="left" if column.startswith("Player") else "right")
    for game in stored.games:
        if game.round != round_:
            continue
        second = "bye" if game.second is None else escape(names[game.second])
        result = game.result
        vp = tp = ga = ""
        if result is not None:
            vp = "–".join(str(v) for v in result.vp)
            tp = "–".join(str(v) for v in result.tp)
            ga = " ".join(f"{v:+d}" for v in result.ga)
        grid.add_row(str(game.table), escape(names[game.first]), second, vp, tp, ga)
    return grid


@app.command("pair")
def pair_command(event_id: EventArgument, db: DbOption = None) -> None:
    """Pair the next round (Swiss: no rematch while avoidable, a bye for an odd count,
    tables and sides); the current round must have all its results.

    Example: confrontation tournament pair 1
    """
    from confrontation.tournament.run import TournamentError, next_round

    _, tournaments = _open(db)
    stored = _load(tournaments, event_id)
    try:
        games = next_round(stored)
    except TournamentError as error:
        fail(str(error))
    tournaments.add_round(event_id, games)
    stored = tournaments.load(event_id)
    round_ = games[0].round
    scenario = stored.event.format.scenarios[round_ - 1]
    Console(soft_wrap=True).print(_pairings(stored, round_))
    typer.echo(f"Scenario: {scenario}.")


@app.command("result")
def result_command(
    event_id: EventArgument,
    table: Annotated[int, typer.Option("--table", help="The table of the round.")],
    round_: Annotated[
        int | None, typer.Option("--round", help="The round (default: the current one).")
    ] = None,
    vp: Annotated[
        tuple[int, int] | None,
        typer.Option("--vp", metavar="P1 P2", help="Victory points of Player 1 and Player 2."),
    ] = None,
    losses: Annotated[
        tuple[int, int] | None,
        typer.Option("--losses", metavar="P1 P2", help="Losses (AP) of Player 1 and Player 2."),
    ] = None,
    bonus: Annotated[
        tuple[int, int],
        typer.Option("--bonus", metavar="P1 P2", help="Bonus AP claimed (XX-A-5, capped)."),
    ] = (0, 0),
    game: Annotated[
        int | None,
        typer.Option("--game", metavar="ID", help="Take the result of this stored game."),
    ] = None,
    db: DbOption = None,
) -> None:
    """Enter one table's result: --vp and --losses (and --bonus), or --game ID of a game the
    program played (its Player 1 is the table's Player 1).

    Example: confrontation tournament result 1 --table 2 --vp 2 1 --losses 120 85
    """
    from confrontation.store import StoreError
    from confrontation.tournament.run import TournamentError, result_of
    from confrontation.tournament.standings import score

    store, tournaments = _open(db)
    stored = _load(tournaments, event_id)
    wanted = stored.current_round if round_ is None else round_
    if wanted < 1 or wanted > stored.current_round:
        fail(f"--round: round {wanted} is not paired (paired: {stored.current_round})")
    target = next((g for g in stored.games if g.round == wanted and g.table == table), None)
    if target is None:
        fail(f"--table: round {wanted} has no table {table}")
    if target.second is None:
        fail(f"--table: table {table} of round {wanted} is a bye")
    if game is not None:
        if vp is not None or losses is not None:
            fail("--game takes the result from the stored game: no --vp or --losses with it")
        if not 0 < game < 2**63:
            fail(f"--game: no game {game}")
        try:
            stored_game = store.load(game)
        except StoreError as error:
            fail(str(error))
        if stored_game.summary.outcome is None:
            fail(f"--game: game {game} is not finished")
        expected = (stored.armies[target.first], stored.armies[target.second])
        if tuple(stored_game.summary.armies) != expected:
            played = " against ".join(stored_game.summary.armies)
            fail(
                f"--game: game {game} was played by {played}, not by table {table}'s lists "
                f"({expected[0]} as Player 1 against {expected[1]})"
            )
        try:
            result = result_of(stored_game.summary.outcome, game)
        except TournamentError as error:
            fail(f"--game: {error}")
    else:
        if vp is None or losses is None:
            fail("give --vp P1 P2 and --losses P1 P2, or --game ID")
        for name, pair in (("--vp", vp), ("--losses", losses), ("--bonus", bonus)):
            if min(pair) < 0 or max(pair) > 10**6:
                fail(f"{name}: 0 to 1000000, not {pair[0]} {pair[1]}")
        result = score(vp, losses, bonus)
    tournaments.set_result(event_id, wanted, table, result)
    names = [p.name for p in stored.event.players]
    typer.echo(
        f"Round {wanted}, table {table}: {names[target.first]} {result.tp[0]} TP "
        f"(GA {result.ga[0]:+d}), {names[target.second]} {result.tp[1]} TP (GA {result.ga[1]:+d})."
    )


@app.command("play")
def play_command(
    event_id: EventArgument,
    db: DbOption = None,
) -> None:
    """Play the current round's tables without a result with each player's agent (seeded by
    the event), store the games and enter their results.

    Example: confrontation tournament play 1
    """
    from confrontation.armylists.load import LoadError
    from confrontation.tournament.run import TournamentError, play_round

    store, tournaments = _open(db)
    stored = _load(tournaments, event_id)
    if stored.current_round == 0:
        fail(f"tournament {event_id} has no round paired yet (tournament pair {event_id})")
    names = [p.name for p in stored.event.players]

    def entered(game: object, result: object) -> None:
        from confrontation.tournament.standings import Game, Result

        assert isinstance(game, Game) and isinstance(result, Result)
        assert game.second is not None
        tournaments.set_result(event_id, game.round, game.table, result)
        typer.echo(
            f"Table {game.table}: {names[game.first]} {result.vp[0]}–{result.vp[1]} "
            f"{names[game.second]} (game {result.game})"
        )

    try:
        played = play_round(stored, store, entered, sources=tournaments.sources(event_id))
    except (TournamentError, LoadError, ValueError) as error:
        fail(str(error))
    typer.echo(f"{played} game{'s' if played != 1 else ''} played.")


@app.command("show")
def show_command(event_id: EventArgument, db: DbOption = None) -> None:
    """Every round's tables and results so far.

    Example: confrontation tournament show 1
    """
    _, tournaments = _open(db)
    stored = _load(tournaments, event_id)
    form = stored.event.format
    console = Console(soft_wrap=True)
    console.print(
        escape(
            f"{stored.event.name}: {len(stored.event.players)} players, {form.points} AP, "
            f"{form.rounds} rounds ({', '.join(form.scenarios)}), {form.rules}"
        )
    )
    for round_ in range(1, stored.current_round + 1):
        console.print(_pairings(stored, round_))


def _emit(
    rows: list[Standing], title: str, subtitle: str, output_format: str, output: Path | None
) -> None:

    from confrontation.tournament.standings import to_csv, to_html

    if output_format == "table":
        if output is not None:
            fail("--output: give --format json, csv or html to write a file")
        grid = Table(title=escape(title), caption=escape(subtitle), box=box.SIMPLE_HEAD)
        armies = any(row.army != row.name for row in rows)  # the AI tournament: names are armies
        headings = ("#", "player", "army", "games", "W-D-L", "byes", "TP", "GA", "bonus")
        for heading in headings if armies else tuple(h for h in headings if h != "army"):
            grid.add_column(heading, justify="left" if heading in ("player", "army") else "right")
        for row in rows:
            grid.add_row(
                str(row.rank),
                escape(row.name),
                *([escape(row.army)] if armies else []),
                str(row.played),
                f"{row.won}-{row.drawn}-{row.lost}",
                str(row.byes),
                str(row.tp),
                f"{row.ga:+d}" if row.ga else "0",
                str(row.bonus),
            )
        Console(soft_wrap=True).print(grid)
        return
    if output_format == "json":
        text = json.dumps(
            {"title": title, "standings": [r.to_json() for r in rows]}, ensure_ascii=False
        )
        text += "\n"
    elif output_format == "csv":
        text = to_csv(rows)
    else:
        text = to_html(title, subtitle, rows)
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        fail(f"--output: cannot write {str(output)!r} ({error.strerror})")
    typer.echo(f"Wrote {output}.")


FormatOption = Annotated[
    str,
    typer.Option("--format", metavar="|".join(FORMATS), help="table, json, csv or html."),
]
OutputOption = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write the standings to this file.")
]


def _check_format(output_format: str) -> None:
    if output_format not in FORMATS:
        fail(f"--format: one of {', '.join(FORMATS)}, not {output_format!r}")


@app.command("standings")
def standings_command(
    event_id: EventArgument,
    round_: Annotated[
        int | None, typer.Option("--round", help="After this round (default: every result).")
    ] = None,
    output_format: FormatOption = "table",
    output: OutputOption = None,
    db: DbOption = None,
) -> None:
    """The standings: tournament points (XX-A-4), then goal-average and bonus (XX-A-5).

    Example: confrontation tournament standings 1 --format html -o standings.html
    """
    from confrontation.tournament.standings import standings

    _check_format(output_format)
    _, tournaments = _open(db)
    stored = _load(tournaments, event_id)
    if round_ is not None and not 1 <= round_ <= max(stored.current_round, 1):
        fail(f"--round: 1 to {max(stored.current_round, 1)}, not {round_}")
    names = [p.name for p in stored.event.players]
    rows = standings(names, list(stored.armies), stored.games, upto=round_)
    shown = stored.current_round if round_ is None else round_
    subtitle = f"After round {shown} of {stored.event.format.rounds}."
    _emit(rows, stored.event.name, subtitle, output_format, output)


@app.command("ai", cls=ManyValues)
def ai_command(
    armies: Annotated[
        list[str] | None,
        typer.Option(
            "--armies",
            metavar="A B [C...]",
            help="Army files or bundled ids (default: every bundled army).",
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per pair (sides swap every game).")
    ] = 2,
    scenario: Annotated[
        str, typer.Option("--scenario", metavar="NAME|FILE", help="The scenario of every game.")
    ] = "standard",
    agents: Annotated[str, typer.Option("--agents", metavar="A,B", help="Two agents.")] = (
        "greedy,greedy"
    ),
    seed: Annotated[int, typer.Option("--seed", help="Batch seed (game seeds come from it).")] = 0,
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="Override the scenario's round limit.")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Local worker processes.")] = 1,
    output_format: FormatOption = "table",
    output: OutputOption = None,
) -> None:
    """Every army meets every other in a round-robin of seeded AI games, standings as a
    tournament's (XX-A-4, XX-A-5).

    Example: confrontation tournament ai --armies lion-vanguard goblin-raiders -n 4
    """
    from confrontation.armylists.load import LoadError, bundled_army_files, load_army
    from confrontation.cli.simulate import parse_agents
    from confrontation.tournament.event import army_path
    from confrontation.tournament.run import TournamentError, ai_tournament

    _check_format(output_format)
    if not 1 <= games <= 10_000:
        fail(f"--games: 1 to 10000, not {games}")
    if rounds is not None and not 1 <= rounds <= 100:
        fail(f"--rounds: 1 to 100, not {rounds}")
    chosen = list(armies) if armies else [p.stem for p in bundled_army_files()]
    picked = parse_agents(agents, 2)
    for army in chosen:
        try:
            load_army(army_path(army))
        except LoadError as error:
            fail(str(error))
        except OSError as error:
            fail(f"--armies: {army}: cannot read ({error.strerror})")
    if any(picked.options):
        fail("--agents: the AI tournament takes agent names without options")
    if not 1 <= jobs <= 256:
        fail(f"--jobs: 1 to 256, not {jobs}")
    from confrontation.scenarios.base import resolve

    try:
        resolve(scenario)
    except LoadError as error:
        fail(str(error))
    except (OSError, ValueError) as error:
        fail(f"--scenario: cannot read {scenario!r} ({error})")
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from confrontation.sim.backends import make_backend

    pairs = len(chosen) * (len(chosen) - 1) // 2
    progress = Progress(
        TextColumn("[bold]tournament ai[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    try:
        with progress:
            task = progress.add_task("games", total=games * pairs)
            result = ai_tournament(
                chosen,
                games=games,
                agents=(picked.names[0], picked.names[1]),
                scenario=scenario,
                seed=seed,
                rounds=rounds,
                rules=check_rules(None),
                on_game=lambda spec, outcome: progress.advance(task),
                backend=make_backend("local", jobs, None),
            )
    except (TournamentError, LoadError, ValueError) as error:
        fail(str(error))
    except KeyboardInterrupt:
        fail("interrupted")
    rows = result.standings()
    title = f"AI tournament: {len(chosen)} armies, {result.batch.games} games"
    subtitle = f"{scenario}, {games} games per pair, agents {agents}, seed {seed}."
    _emit(rows, title, subtitle, output_format, output)
