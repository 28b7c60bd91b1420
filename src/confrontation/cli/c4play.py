"""The C4 side of ``play`` and ``simulate`` (``--rules c4 --mode MODE``): a whole game of the
unit-based ruleset narrated, saved, resumed and drawn, or a batch of them measured.

Companies: ``--armies A B`` names bundled companies (``griffin-vanguard``, ``lion-host`` …)
or company files; agents: ``random``, ``greedy`` or ``mcts``.
"""

from __future__ import annotations

import json
import math
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from confrontation.c4.battle import describe
from confrontation.c4.narrate import narrate
from confrontation.c4.picture import svg
from confrontation.cli.options import OutputFile, fail
from confrontation.engine.core.events import Event
from confrontation.engine.record import event_line
from confrontation.sim.c4game import (
    C4_AGENTS,
    DEFAULT_COMPANIES,
    C4Config,
    C4Result,
    C4SetupError,
    build,
    c4_agent,
    outcome_of,
    play_c4,
    play_c4_stored,
    resume_c4_stored,
    setup_of,
)
from confrontation.sim.checkpoint import C4Game
from confrontation.store import Store, StoredGame, StoreError, open_store

if TYPE_CHECKING:
    from confrontation.sim.checkpoint import CheckpointWriter


def _agents(text: str | None) -> tuple[str, str]:
    names = [n.strip() for n in (text or "greedy,greedy").split(",")]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2:
        fail("--agents: a C4 game takes two agents (A,B)")
    for n in names:
        if n not in C4_AGENTS:
            fail(f"--agents: no C4 agent {n!r} (choose from: {', '.join(C4_AGENTS)})")
    return names[0], names[1]


def config_from(
    armies: Sequence[str] | None,
    agents: str | None,
    seed: int | None,
    mode: str,
    rounds: int | None,
    scenario: str | None = None,
) -> C4Config:
    """The C4 game the options describe (a one-line error if they cannot); ``scenario``: one
    whose mechanics fit units (``sim.c4scenario``), its rounds unless ``rounds``."""
    companies = tuple(armies) if armies else DEFAULT_COMPANIES
    if len(companies) != 2:
        fail("--armies: a C4 game opposes two companies")
    config = C4Config(
        companies,
        _agents(agents),
        seed if seed is not None else secrets.randbits(32),
        mode,
        rounds or 6,
        scenario=scenario,
        rounds_given=rounds is not None or scenario is None,
    )
    try:
        build(config)
    except C4SetupError as error:
        fail(str(error))
    return config


def _summary(result: C4Result) -> str:
    end = result.end
    who = "a draw" if end.winner is None else f"Player {end.winner + 1} wins"
    battle = result.state.battle
    what = "fighters left" if battle is None else ("CP" if battle.scoring == "round" else "VP")
    return f"{who} ({end.reason}): {what} {'-'.join(map(str, end.scores))}"


def play_c4_cli(
    config: C4Config | None,
    *,
    as_json: bool,
    log_file: OutputFile | IO[str] | None,
    svg_file: OutputFile | IO[str] | None,
    db: str | None,
    no_store: bool,
    resume: int | None,
    seed_given: bool,
) -> None:
    """``play --rules c4``: narrate the game (or print it as JSON), save it unless
    ``no_store``, continue the saved game ``resume``, write its log and final SVG."""
    console = Console(highlight=False, soft_wrap=True)
    if config is not None and not seed_given and not as_json:
        console.print(f"Seed {config.seed} (play this game again with --seed {config.seed})")

    def on_event(event: Event) -> None:
        if log_file is not None:
            log_file.write(event_line(event) + "\n")
        if not as_json:
            line = narrate(event)
            if line is None:
                line = describe(event)  # a scenario's scoring (c4.battle)
            if line is not None:
                console.print(escape(line))

    store: Store | None = None
    game_id: int | None = None
    try:
        if resume is not None:
            store = open_store(db)
            config, result = resume_c4_stored(resume, store, on_event=on_event)
            game_id = resume
        elif no_store:
            assert config is not None
            result = play_c4(config, on_event=on_event)
        else:
            assert config is not None
            store = open_store(db)
            game_id, result = play_c4_stored(config, store, on_event=on_event)
    except StoreError as error:
        fail(str(error))
    except C4SetupError as error:
        fail(str(error))
    except KeyboardInterrupt:
        where = f": game {game_id} is saved; continue it with --resume" if game_id else ""
        fail(f"interrupted{where}")
    if svg_file is not None:
        svg_file.write(svg(result.state))
    if as_json:
        doc = {
            "rules": "c4",
            "mode": config.mode,
            "companies": list(config.companies),
            "agents": list(config.agents),
            "seed": config.seed,
            "winner": result.winner,
            "scores": list(result.scores),
            "rounds": result.state.round,
            "events": len(result.events),
            "game": game_id,
        }
        if config.scenario is not None:
            doc["scenario"] = config.scenario
        sys.stdout.write(json.dumps(doc) + "\n")
        return
    console.print(_summary(result))
    if store is not None and game_id is not None:
        sys.stderr.write(f"saved as game {game_id} in {store.url}\n")


def simulate_c4_cli(
    games: int,
    armies: Sequence[str] | None,
    agents: str,
    seed: int,
    mode: str,
    rounds: int | None,
    as_json: bool,
    db: str | None = None,
    no_store: bool = True,
    scenario: str | None = None,
    checkpoint: Path | None = None,
) -> None:
    """``simulate --rules c4``: ``games`` games, the seats (and companies) turning round each
    game, game ``k`` with seed ``seed + k``; wins per agent with a 95 % interval, fighters
    left and, with a ``scenario`` (``sim.c4scenario``: one that fits units, refused in one
    line otherwise), the mean VP/CP and how the games ended; each game saved in the store
    unless ``no_store``. With a ``checkpoint`` each game's counts are kept in it as it ends
    and the games it already holds (of this same batch) are not played again
    (:mod:`confrontation.sim.checkpoint`)."""
    names = _agents(agents)
    companies = tuple(armies) if armies else DEFAULT_COMPANIES
    if len(companies) != 2:
        fail("--armies: a C4 game opposes two companies")
    if scenario is not None:
        config_from(companies, ",".join(names), seed, mode, rounds, scenario)  # refused early
    store: Store | None = None
    if not no_store:
        try:
            store = open_store(db)
        except StoreError as error:
            fail(str(error))
    kept = _c4_checkpoint(checkpoint, companies, names, seed, mode, rounds, scenario, games)
    stored: list[int] = []
    wins = {n: 0 for n in names}
    draws = 0
    fighters_left = {n: 0 for n in names}
    points = {n: 0 for n in names}
    endings: dict[str, int] = {}
    unit = ""
    for k in range(games):
        swap = k % 2 == 1
        seats = (names[1], names[0]) if swap else names
        chosen = (companies[1], companies[0]) if swap else companies
        config = C4Config(
            chosen,
            seats,
            seed + k,
            mode,
            rounds or 6,
            scenario=scenario,
            rounds_given=rounds is not None or scenario is None,
        )
        game = kept.done.get(k) if kept is not None else None
        if game is None:
            try:
                agents_now = [c4_agent(n, config.seed, p) for p, n in enumerate(seats)]
                result = play_c4(config, agents=agents_now)
            except C4SetupError as error:
                fail(str(error))
            except KeyboardInterrupt:
                if kept is None:
                    raise
                fail(kept.interrupted())
            if store is not None:
                stored.append(store.save(setup_of(config), outcome_of(result), result.events))
            game = counted(result)
            if kept is not None:
                try:
                    kept.add_c4(k, game)
                except OSError as error:
                    fail(f"--checkpoint: {kept.cannot_write(error)}; {kept.interrupted()}")
        for p, n in enumerate(seats):
            fighters_left[n] += game.left[p]
            points[n] += game.scores[p]
        if game.ending is not None:
            unit = game.unit
            endings[game.ending] = endings.get(game.ending, 0) + 1
        if game.winner is None:
            draws += 1
        else:
            wins[seats[game.winner]] += 1
    if kept is not None:
        kept.close()
    doc: dict[str, object] = {
        "rules": "c4",
        "mode": mode,
        "games": games,
        "companies": list(companies),
        "seed": seed,
        "draws": draws,
        "agents": {},
        "stored": stored,
    }
    if kept is not None:
        doc["resumed"] = len(kept.done)
    if scenario is not None:
        doc["scenario"] = scenario
        doc["points"] = unit
        doc["endings"] = dict(sorted(endings.items()))
    table = doc["agents"]
    assert isinstance(table, dict)
    label = list(dict.fromkeys(names))
    for n in label:
        rate = wins[n] / games
        half = 1.96 * math.sqrt(rate * (1 - rate) / games)
        table[n] = {
            "wins": wins[n],
            "win_rate": round(rate, 4),
            "ci95": [round(max(0.0, rate - half), 4), round(min(1.0, rate + half), 4)],
            "mean_fighters_left": round(fighters_left[n] / games, 2),
        }
        if scenario is not None:
            table[n]["mean_points"] = round(points[n] / games, 2)
    if as_json:
        sys.stdout.write(json.dumps(doc) + "\n")
        return
    console = Console(highlight=False, soft_wrap=True)
    where = f", {escape(scenario)}" if scenario is not None else ""
    console.print(f"C4 ({mode} mode{where}), {games} games, seeds {seed}..{seed + games - 1}:")
    for n in label:
        row = table[n]
        lo, hi = row["ci95"]
        extra = f", {row['mean_points']} {unit} on average" if scenario is not None else ""
        console.print(
            f"  {n}: {row['wins']} wins ({row['win_rate']:.0%}, 95 % CI {lo:.0%}–{hi:.0%}), "
            f"{row['mean_fighters_left']} fighters left on average{extra}"
        )
    console.print(f"  draws: {draws}")
    if kept is not None and kept.done:
        console.print(
            f"  {len(kept.done)} of the {games} games were read from the checkpoint "
            f"{escape(str(kept.path))}, played by an earlier run of this batch."
        )
    if endings:
        console.print("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    if store is not None and stored:
        console.print(f"Saved as games {stored[0]}–{stored[-1]} in {escape(store.url)}.")


def counted(result: C4Result) -> C4Game:
    """What ``simulate --rules c4`` counts of a played game."""
    battle = result.state.battle
    return C4Game(
        result.winner,
        tuple(fighter_counts(result.state)),
        tuple(result.scores),
        ending_of(result.end.reason) if battle is not None else None,
        ("CP" if battle.scoring == "round" else "VP") if battle is not None else "",
    )


def _c4_checkpoint(
    path: Path | None,
    companies: Sequence[str],
    names: Sequence[str],
    seed: int,
    mode: str,
    rounds: int | None,
    scenario: str | None,
    games: int,
) -> CheckpointWriter | None:
    """``simulate --rules c4 --checkpoint FILE``: the file this batch's games are added to,
    holding the games an earlier run of it kept (None: no checkpoint)."""
    if path is None:
        return None
    from confrontation.sim.checkpoint import (
        CheckpointError,
        CheckpointWriter,
        c4_batch_key,
        read_c4_checkpoint,
    )

    fields = {
        "companies": list(companies),
        "agents": list(names),
        "seed": seed,
        "mode": mode,
        "rounds": rounds,
        "scenario": scenario,
        "games": games,
    }
    key = c4_batch_key(fields, [*companies, *([scenario] if scenario else [])])
    try:
        return CheckpointWriter(read_c4_checkpoint(path, key, games, seed))
    except CheckpointError as error:
        fail(f"--checkpoint: {error}")


def fighter_counts(state: object) -> tuple[int, ...]:
    """Each player's fighters still on the battlefield."""
    from confrontation.c4.control import scores
    from confrontation.c4.state import C4State

    assert isinstance(state, C4State)
    return scores(state)


def ending_of(reason: str) -> str:
    """How a scenario game ended, from its ``C4GameEnded`` reason: scenario victory,
    assassination, tiebreaker, rounds played, or a company wiped out."""
    if "scenario victory" in reason:
        return "scenario victory"
    if "assassination" in reason:
        return "assassination"
    if "tiebreaker" in reason:
        return "tiebreaker"
    if "no fighter left" in reason:
        return "company wiped out"
    return "points after the last round"


def replay_c4_cli(game: StoredGame, svg_dir: Path | None, as_json: bool) -> None:
    """``games replay ID`` of a C4 game: rebuild it from its record (``c4.step.replay``),
    check its end against the stored result, draw the final battlefield."""
    from confrontation.c4.events import C4GameEnded
    from confrontation.c4.step import replay

    try:
        final = replay(game.events)
    except Exception as error:  # a record that does not replay
        fail(f"game {game.id} does not replay: {error}")
    ended = next((e for e in reversed(game.events) if isinstance(e, C4GameEnded)), None)
    outcome = game.summary.outcome
    if outcome is not None and ended is not None and ended.winner != outcome.winner:
        fail(f"game {game.id}: the record's winner is not the stored result's")
    written: list[str] = []
    if svg_dir is not None:
        try:
            svg_dir.mkdir(parents=True, exist_ok=True)
            path = svg_dir / f"game-{game.id}-final.svg"
            path.write_text(svg(final), encoding="utf-8")
            written.append(str(path))
        except OSError as error:
            fail(f"--svg-dir {svg_dir}: {error.strerror or error}")
    document = {
        "id": game.id,
        "status": game.status,
        "events": len(game.events),
        "matches": True,
        "round": final.round,
        "phase": str(final.phase),
        "svg": written,
    }
    if as_json:
        sys.stdout.write(json.dumps(document) + "\n")
        return
    console = Console(soft_wrap=True)
    console.print(
        f"Game {game.id} ({game.status}): {len(game.events)} events replayed; final state: "
        f"round {final.round}, {final.phase} phase."
    )
    for name in written:
        console.print(f"  wrote {escape(name)}")


def open_svg(path: Path) -> IO[str]:
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        fail(f"--svg {path}: cannot write ({exc.strerror or exc})")
