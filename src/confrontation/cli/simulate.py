"""`confrontation simulate`: many games between two to six agents (XX-F), then their win
rates."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from confrontation.agents.spec import AgentSpecError, parse_agent_spec
from confrontation.armylists.load import LoadError
from confrontation.cli.options import (
    C4_RULES,
    check_lists,
    check_mode,
    check_rules,
    fail,
)
from confrontation.sim.backends import BACKENDS, BackendError, make_backend
from confrontation.sim.batch import (
    BatchResult,
    GameOutcome,
    GameSpec,
    WinRecord,
    by_army,
    by_side,
    config_for,
    matchups,
    plan,
    plan_matchups,
    play_spec,
)
from confrontation.sim.batch import simulate as run_batch
from confrontation.sim.game import GameSetupError, check_players, initial_state
from confrontation.store import Store, StoreError, open_store
from confrontation.store.records import Outcome

if TYPE_CHECKING:
    from confrontation.sim.checkpoint import CheckpointWriter


@dataclass(frozen=True)
class Agents:
    """The batch's agents as ``--agents`` gave them, one per army: their specs (shown in the
    report), names and options (:mod:`confrontation.agents.spec`)."""

    specs: tuple[str, ...]
    names: tuple[str, ...]
    options: tuple[dict[str, Any], ...]


def parse_agents(text: str, players: int = 2) -> Agents:
    """``greedy,mcts:iterations=200`` → the agents, one for each of the ``players`` armies
    (XX-F); each must be a known machine agent and take its options."""
    specs = [n.strip() for n in text.split(",")]
    if len(specs) < 2 or not all(specs):
        names = "two agent names separated by a comma"
        if players != 2:
            names = f"{players} agent names separated by commas (one per army)"
        fail(f"--agents: give {names}, not {text!r}")
    try:
        check_players(players, len(specs), names=("--armies", "--agents"))
    except GameSetupError as error:
        more = f"; give --armies with {len(specs)} armies" if players == 2 else ""
        fail(f"{error}{more}")
    parsed = []
    for spec in specs:
        if spec.partition(":")[0].strip().lower() == "human":
            fail("--agents: simulations are played by machines; use play for a human player")
        try:
            name, options = parse_agent_spec(spec)
        except AgentSpecError as error:
            fail(f"--agents: {error}")
        parsed.append((name.lower(), options))
    pairs = zip(parsed, specs, strict=True)
    labels = tuple(name if not options else spec for (name, options), spec in pairs)
    return Agents(
        labels, tuple(name for name, _ in parsed), tuple(dict(options) for _, options in parsed)
    )


def _check_setup(spec: GameSpec) -> None:
    """Set up the batch's first game: bad armies or scenario fail now, in one line."""
    try:
        initial_state(config_for(spec))
    except (LoadError, GameSetupError, ValueError) as error:
        fail(str(error))


class _InOrder:
    """Saves finished games in game order (ids then do not depend on --jobs), but those an
    earlier run kept (``skip``: read from a checkpoint, not played again); ``after`` is told
    each game once it is saved (the checkpoint keeps only games the store has)."""

    def __init__(
        self,
        store: Store,
        skip: Collection[int] = (),
        after: Callable[[GameOutcome], None] | None = None,
    ) -> None:
        self.store = store
        self.skip = skip
        self.after = after
        self.waiting: dict[int, GameOutcome] = {}
        self.next = 0
        self.ids: list[int] = []

    def __call__(self, outcome: GameOutcome) -> None:
        self.waiting[outcome.index] = outcome
        while self.next in self.skip or self.next in self.waiting:
            ready = self.waiting.pop(self.next, None)
            if ready is not None and ready.setup is not None and ready.events is not None:
                self.ids.append(self.store.save(ready.setup, ready.outcome, ready.events))
            if ready is not None and self.after is not None:
                self.after(ready)
            self.next += 1


def _wins_table(title: str, first: str, records: list[WinRecord]) -> Table:
    grid = Table(title=title, box=box.SIMPLE_HEAD)
    for column in (first, "games", "wins", "draws", "win rate", "95 % interval"):
        grid.add_column(column, justify="left" if column == first else "right")
    for record in records:
        low, high = record.interval
        grid.add_row(
            escape(record.name),
            str(record.games),
            str(record.wins),
            str(record.draws),
            f"{record.win_rate:.1%}",
            f"{low:.1%} – {high:.1%}",
        )
    return grid


def _matrix(result: BatchResult) -> Table | None:
    """Row army's wins against the column army (of their games), when three armies or more
    met in pairs."""
    pairs = matchups(result)
    names = [r.name for r in by_army(result)]
    if len(names) < 3 or not pairs:
        return None
    grid = Table(
        title="Match-ups: the row's army won … of its games against the column's (draws apart)",
        box=box.SIMPLE_HEAD,
    )
    grid.add_column("army")
    for name in names:
        grid.add_column(escape(name), justify="right")
    cells = {(a, b): "" for a in names for b in names}
    for pair in pairs:
        for side, (me, them) in enumerate(((pair.first, pair.second), (pair.second, pair.first))):
            rate = pair.wins[side] / max(pair.games, 1)
            cells[me, them] = f"{pair.wins[side]}/{pair.games} ({rate:.0%})"
    for me in names:
        grid.add_row(escape(me), *(cells[me, them] or "—" for them in names))
    return grid


def render(result: BatchResult, jobs: int, store_url: str | None) -> None:
    """The figures as tables and a few lines."""
    console = Console(soft_wrap=True)
    n = result.games
    grid = Table(
        title=f"{n} game{'s' if n != 1 else ''} — "
        f"{escape(result.scenario or 'conquest')}, seed {result.seed}",
        box=box.SIMPLE_HEAD,
    )
    has_tp, has_ga = result.tournament()  # XX-A-4, XX-A-5
    columns = ["agent", "wins", "win rate", "95 % interval", "mean VP", "mean losses (AP)"]
    columns += ["mean TP"] * has_tp + ["mean GA"] * has_ga
    for column in columns:
        grid.add_column(column, justify="left" if column == "agent" else "right")
    for seat, record in enumerate(result.records()):
        low, high = record.interval
        extra = [f"{record.mean_tp or 0.0:.2f}"] * has_tp + [
            f"{record.mean_ga or 0.0:+.1f}"
        ] * has_ga
        grid.add_row(
            f"{seat + 1}. {escape(record.name)}",
            str(record.wins),
            f"{record.win_rate:.1%}",
            f"{low:.1%} – {high:.1%}",
            f"{record.mean_vp:.2f}",
            f"{record.mean_losses_ap:.1f}",
            *extra,
        )
    console.print(grid)
    console.print(_wins_table("Wins by army", "army", by_army(result)))
    console.print(_wins_table("Wins by side", "side", by_side(result)))
    matrix = _matrix(result)
    if matrix is not None:
        console.print(matrix)
    draws = result.draws()
    players = result.players
    shared = "" if players == 2 else " (the best score shared)"
    played = n - result.resumed
    pace = (
        f"{played} games in {result.elapsed:.1f} s with {jobs} job{'s' if jobs != 1 else ''}: "
        f"{result.games_per_second():.2f} games/s."
        if played
        else "No game left to play."
    )
    console.print(
        f"Draws{shared}: {draws} ({draws / max(n, 1):.1%}). "
        f"Mean rounds: {result.mean_rounds():.2f}. {pace}"
    )
    if result.resumed:
        console.print(
            f"{result.resumed} of the {n} games were read from the checkpoint "
            f"{escape(str(result.checkpoint))}, played by an earlier run of this batch."
        )
    if len(by_army(result)) > players:
        console.print(
            "Every pair of armies played the same number of games, sides and agents turned "
            "round as below."
        )
    if players == 2:
        console.print(
            "Sides swap every game and armies every other pair: every four games each agent "
            "plays each army from each side once."
        )
    else:
        console.print(
            f"Seats turn every game and armies every {players} games: every {players**2} "
            "games each agent plays each army from each seat once."
        )
    if store_url is not None and result.stored:
        first, last = result.stored[0], result.stored[-1]
        console.print(
            f"Saved as games {first}–{last} in {escape(store_url)} (`confrontation games show ID`)."
        )
    elif store_url is None:
        console.print("The games were not stored (--store or --db URL keeps them).")


def _leave_at_once(message: str) -> None:
    """In a real process, after an interrupted batch (its workers already stopped): the one
    ``error:`` line, then exit 2 at once — the process pool's exit hooks would otherwise race
    the pipes being closed and may print a traceback after the line. Under a test's runner
    (no real stderr) nothing happens and the caller fails as usual."""
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return
    sys.stderr.write(f"error: {message}\n")
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
        sys.stderr.flush()
    del fd
    os._exit(2)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextmanager
def _sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM becomes Ctrl-C (KeyboardInterrupt) while a batch runs: the workers are
    stopped and the line is the same; the previous handler is put back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _CheckpointFailed(Exception):
    """The checkpoint could not be written while the batch ran (one line)."""


class _Kept:
    """``--checkpoint FILE``: the games an earlier run of the same batch kept (not played
    again) and the file each game of this run is added to as it ends
    (:mod:`confrontation.sim.checkpoint`)."""

    def __init__(self, writer: CheckpointWriter) -> None:
        self.writer = writer
        self.path: Path = writer.path
        self.done: dict[int, Outcome] = writer.done

    @classmethod
    def open(cls, path: Path, specs: list[GameSpec], seed: int) -> _Kept:
        from confrontation.sim.checkpoint import (
            CheckpointError,
            CheckpointWriter,
            batch_contents,
            batch_key,
            read_checkpoint,
        )
        from confrontation.sim.game import DEFAULT_ARMIES

        key = batch_key(specs, batch_contents(specs, DEFAULT_ARMIES))
        players = len(specs[0].agents)
        try:
            return cls(CheckpointWriter(read_checkpoint(path, key, len(specs), players, seed)))
        except CheckpointError as error:
            fail(f"--checkpoint: {error}")

    def add(self, outcome: GameOutcome) -> None:
        try:
            self.writer.add(outcome.index, outcome.outcome)
        except OSError as error:  # a full disk, a file gone read-only: the batch stops
            raise _CheckpointFailed(f"--checkpoint: {self.writer.cannot_write(error)}") from None

    def merged(self, played: BatchResult, specs: list[GameSpec]) -> BatchResult:
        """The whole batch: the games kept and those just ``played``, in game order."""
        self.writer.close()
        now = {o.index: o for o in played.outcomes}
        where = {played.specs[p].index: placement for p, placement in played.placements.items()}
        outcomes = [
            now[s.index] if s.index in now else GameOutcome(s.index, self.done[s.index])
            for s in specs
        ]
        return BatchResult(
            list(specs),
            outcomes,
            played.elapsed,
            played.agents,
            played.armies,
            played.scenario,
            played.seed,
            placements={p: where[s.index] for p, s in enumerate(specs) if s.index in where},
            resumed=len(specs) - len(played.specs),
            checkpoint=self.path,
        )


def run_simulate(
    games: int,
    scenario: str | None,
    armies: list[str] | None,
    agents: str,
    seed: int,
    rounds: int | None,
    jobs: int,
    backend: str,
    ray_address: str | None,
    as_json: bool,
    db: str | None,
    store_games: bool,
    no_store: bool,
    chart: Path | None,
    rules: str | None,
    allow_invalid: bool,
    mode: str | None,
    checkpoint: Path | None = None,
) -> None:
    """``confrontation simulate`` with its options parsed
    (:func:`confrontation.cli.simulate_command.simulate_command`)."""
    if games < 1:
        fail(f"--games must be at least 1, not {games}")
    if jobs < 1:
        fail(f"--jobs must be at least 1, not {jobs}")
    if rounds is not None and rounds < 1:
        fail(f"--rounds must be at least 1, not {rounds}")
    if (db is not None or store_games) and no_store:
        fail(f"{'--db' if db is not None else '--store'} and --no-store cannot be used together")
    keep = db is not None or store_games
    if chart is not None and not chart.parent.is_dir():
        fail(f"--chart: no folder {str(chart.parent)!r} to write {chart.name!r} in")
    chosen_mode = check_mode(mode, rules)
    if rules == C4_RULES:  # the unit-based ruleset: its own games (cli/c4play.py)
        from confrontation.cli.c4play import simulate_c4_cli

        simulate_c4_cli(
            games,
            armies,
            agents,
            seed,
            chosen_mode,
            rounds,
            as_json,
            db=db,
            no_store=not keep,
            scenario=scenario,
            checkpoint=checkpoint,
        )
        return
    chosen: tuple[str | None, ...] = tuple(armies) if armies else (None, None)
    pairs = len(chosen) > 2 and len(agents.split(",")) == 2  # every pair of armies
    try:
        check_players(
            2 if pairs else len(chosen), 2 if pairs else len(chosen), names=("--armies", "--agents")
        )
    except GameSetupError as error:
        fail(str(error))
    picked = parse_agents(agents, 2 if pairs else len(chosen))
    rules = check_rules(rules)
    try:
        if pairs:
            specs = plan_matchups(
                games,
                picked.names,
                [a for a in chosen if a is not None],
                seed=seed,
                scenario=scenario,
                rounds=rounds,
                keep_events=keep,
                agent_options=picked.options,
                rules=rules,
            )
        else:
            specs = plan(
                games,
                picked.names,
                chosen,
                seed=seed,
                scenario=scenario,
                rounds=rounds,
                keep_events=keep,
                agent_options=picked.options,
                rules=rules,
            )
    except GameSetupError as error:
        fail(str(error))
    if pairs:
        for spec in specs:
            if spec.index % games == 0:
                _check_setup(spec)  # each pair's first game: every army is checked
    _check_setup(specs[0])
    check_lists(chosen, allow_invalid)  # I-D, before a cluster is joined
    kept = _Kept.open(checkpoint, specs, seed) if checkpoint is not None else None
    todo = [s for s in specs if kept is None or s.index not in kept.done]
    if backend not in BACKENDS:
        fail(f"--backend: {backend!r} is not one of {', '.join(BACKENDS)}")
    try:  # (no game left to play: no worker nor cluster is started)
        runner = make_backend(backend, jobs, ray_address) if todo else None
    except BackendError as error:
        fail(str(error))
    store: Store | None = None
    if keep:
        try:
            store = open_store(db)
        except StoreError as error:
            fail(str(error))
    saver = None
    if store is not None:
        saver = _InOrder(store, kept.done if kept else (), kept.add if kept else None)
    progress = Progress(
        TextColumn("[bold]simulate[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=as_json,
    )
    with progress, _sigterm_as_ctrl_c():
        task = progress.add_task("games", total=len(specs), completed=len(specs) - len(todo))

        def finished(spec: GameSpec, outcome: GameOutcome) -> None:
            if saver is not None:
                saver(outcome)
            elif kept is not None:
                kept.add(outcome)
            progress.advance(task)

        try:
            result = run_batch(
                todo,
                play_spec,
                backend=runner,
                on_result=finished,
                agents=picked.specs,
                armies=chosen,
                scenario=scenario,
                seed=seed,
                keep_records=False,  # the store has them; the figures need outcomes only
            )
        except KeyboardInterrupt:
            why = "interrupted" if kept is None else kept.writer.interrupted()
            _leave_at_once(why)
            fail(why)
        except _CheckpointFailed as error:
            assert kept is not None
            why = f"{error}; {kept.writer.interrupted()}"
            _leave_at_once(why)
            fail(why)
        except BackendError as error:  # the ray backend: a game lost with its node
            if kept is not None:
                fail(f"{error}; {kept.writer.interrupted()}")
            fail(str(error))
    if kept is not None:
        result = kept.merged(result, specs)
    if saver is not None:
        result.stored = saver.ids
    if chart is not None:
        from confrontation.sim.chart import ChartError, write_chart

        title = f"{result.games} games — {result.scenario or 'conquest'}, seed {result.seed}"
        try:
            write_chart(result, chart, title)
        except ChartError as error:
            fail(str(error))
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
        return
    render(result, jobs, store.url if store is not None else None)
