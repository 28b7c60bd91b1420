"""Running an event: the next round's pairings, results from the program's own games, and
the AI tournament (every army against every other, seeded AI games)."""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from confrontation.agents.spec import parse_agent_spec
from confrontation.sim.batch import BatchResult, GameOutcome, GameSpec, plan_matchups
from confrontation.sim.batch import simulate as run_batch
from confrontation.sim.game import GameConfig, play_game
from confrontation.sim.saved import outcome_of, setup_of
from confrontation.store import Outcome, Store
from confrontation.tournament.event import army_path
from confrontation.tournament.pairing import pair_round
from confrontation.tournament.standings import Game, Result, Standing, bye_result, standings
from confrontation.tournament.store import StoredEvent


class TournamentError(Exception):
    """Something the organiser asked that the event's state does not allow (one line)."""


def first_ranking(players: int, seed: int) -> list[int]:
    """Round 1: the players in an order drawn from the event's seed."""
    order = list(range(players))
    random.Random(seed).shuffle(order)
    return order


def next_round(stored: StoredEvent) -> list[Game]:
    """The next round's tables (Swiss, :mod:`.pairing`), byes scored already; a
    :class:`TournamentError` while the current round has games without a result or when
    every round is paired."""
    event = stored.event
    current = stored.current_round
    if current >= event.format.rounds:
        raise TournamentError(f"all {event.format.rounds} rounds are paired")
    waiting = stored.pending()
    if waiting:
        tables = ", ".join(str(g.table) for g in waiting)
        raise TournamentError(f"round {current} has tables without a result: {tables}")
    names = [p.name for p in event.players]
    if current == 0:
        ranking = first_ranking(len(names), event.seed)
    else:
        ranking = [row.player for row in standings(names, stored.armies, stored.games)]
    met = {frozenset(g.players) for g in stored.games if g.second is not None}
    byes = Counter(g.first for g in stored.games if g.second is None)
    firsts = Counter(g.first for g in stored.games if g.second is not None)
    round_ = current + 1
    out = []
    for pairing in pair_round(ranking, met, byes, firsts):
        result = bye_result(event.format.bye_vp) if pairing.second is None else None
        out.append(Game(round_, pairing.table, pairing.first, pairing.second, result))
    return out


def result_of(outcome: Outcome, game: int | None = None) -> Result:
    """A stored two-player game's result: its TP and goal-average when it has them (a
    scenario of victory conditions); else TP from its VP on the XX-A-4 table and the
    goal-average from its losses (no bonus)."""
    from confrontation.tournament.standings import score

    if len(outcome.vp) != 2:
        raise TournamentError(f"a tournament game has two players, not {len(outcome.vp)}")
    vp = (outcome.vp[0], outcome.vp[1])
    losses = (outcome.losses[0], outcome.losses[1])
    plain = score(vp, losses, game=game)
    tp = plain.tp if outcome.tp is None else tuple(outcome.tp)
    ga = plain.ga if outcome.ga is None else tuple(outcome.ga)
    bonus = tuple(g - p for g, p in zip(ga, plain.ga, strict=True))
    return Result(vp, losses, bonus, tp, ga, game)


def game_config(
    stored: StoredEvent, game: Game, seed: int, lists: Sequence[str] | None = None
) -> GameConfig:
    """How the program plays one table: the round's scenario, the players' lists (``lists``:
    each seat's list file as registered; else the files the event names) and agents."""
    if game.second is None:
        raise TournamentError(f"table {game.table} of round {game.round} is a bye")
    event = stored.event
    first, second = event.players[game.first], event.players[game.second]
    specs = [parse_agent_spec(player.agent) for player in (first, second)]
    if lists is not None:
        armies = (lists[game.first], lists[game.second])
    else:
        armies = (str(army_path(first.army)), str(army_path(second.army)))
    return GameConfig(
        scenario=event.format.scenarios[game.round - 1],
        armies=armies,
        agents=tuple(name.lower() for name, _ in specs),
        seed=seed,
        agent_options=tuple(dict(options) for _, options in specs),
        rules=event.format.rules,
    )


def table_seed(event_seed: int, round_: int, table: int) -> int:
    """The seed of one table's game: from the event's seed, the round and the table."""
    from confrontation.sim.batch import game_seed

    return game_seed(event_seed, 1000 * round_ + table)


def play_round(
    stored: StoredEvent,
    store: Store | None,
    on_result: Callable[[Game, Result], None],
    round_: int | None = None,
    sources: Sequence[str | None] | None = None,
) -> int:
    """Play every table of the round that has no result with the players' agents; each game is
    saved in ``store`` (when given) and its result handed to ``on_result``. How many were
    played."""
    played = 0
    with _registered(stored, sources) as lists:
        for game in stored.pending(round_):
            if game.second is None:
                continue
            seed = table_seed(stored.event.seed, game.round, game.table)
            played += _play_table(
                stored, store, on_result, game, game_config(stored, game, seed, lists)
            )
    return played


def _play_table(
    stored: StoredEvent,
    store: Store | None,
    on_result: Callable[[Game, Result], None],
    game: Game,
    config: GameConfig,
) -> int:
    outcome_game = play_game(config)
    outcome = outcome_of(outcome_game)
    ident = None
    if store is not None:
        ident = store.save(setup_of(config), outcome, list(outcome_game.events))
    on_result(game, result_of(outcome, ident))
    return 1


@contextmanager
def _registered(
    stored: StoredEvent, sources: Sequence[str | None] | None
) -> Iterator[list[str] | None]:
    """Each seat's list as registered, written to a temporary folder for the games (a list
    edited or deleted since registration does not change the event); None without sources."""
    if sources is None or len(sources) != len(stored.event.players):
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="confrontation-lists-") as folder:
        paths = []
        for seat, (player, text) in enumerate(zip(stored.event.players, sources, strict=True)):
            if text is None:
                paths.append(str(army_path(player.army)))
                continue
            path = Path(folder) / f"seat-{seat + 1}-{Path(player.army).name}"
            if path.suffix != ".toml":
                path = path.with_suffix(".toml")
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        yield paths


# --- the AI tournament ------------------------------------------------------------------------


@dataclass(frozen=True)
class AiTournament:
    """A round-robin of AI games: the armies, the games (one per pair and side) and the
    batch they were played in."""

    armies: tuple[str, ...]
    games: tuple[Game, ...]
    batch: BatchResult

    def standings(self) -> list[Standing]:
        names = [Path(a).stem if a.endswith(".toml") else a for a in self.armies]
        return standings(names, names, self.games)


def ai_tournament(
    armies: Sequence[str],
    *,
    games: int = 2,
    agents: tuple[str, str] = ("greedy", "greedy"),
    scenario: str = "standard",
    seed: int = 0,
    rounds: int | None = None,
    rules: str | None = None,
    on_game: Callable[[GameSpec, GameOutcome], None] | None = None,
    backend: object | None = None,
) -> AiTournament:
    """Every army meets every other in ``games`` seeded AI games (sides swapped every game),
    scored as a tournament (XX-A-4, XX-A-5)."""
    if len(armies) < 2:
        raise TournamentError("an AI tournament needs two armies at least")
    if len(set(armies)) != len(armies):
        raise TournamentError("an army appears twice")
    options: dict[str, object] = {"scenario": scenario, "rounds": rounds}
    if rules is not None:
        options["rules"] = rules
    if len(armies) == 2:
        from confrontation.sim.batch import plan

        specs = plan(games, agents, tuple(armies), seed=seed, **options)  # type: ignore[arg-type]
    else:
        specs = plan_matchups(games, agents, list(armies), seed=seed, **options)
    from confrontation.sim.batch import play_spec

    batch = run_batch(
        specs,
        play_spec,
        backend=backend,  # type: ignore[arg-type]
        on_result=on_game,
        agents=agents,
        armies=tuple(armies),
        scenario=scenario,
        seed=seed,
    )
    index = {army: position for position, army in enumerate(armies)}
    out = []
    for number, (spec, played) in enumerate(zip(batch.specs, batch.outcomes, strict=True), 1):
        first, second = (index[str(a)] for a in spec.armies)
        out.append(Game(1, number, first, second, result_of(played.outcome)))
    return AiTournament(tuple(armies), tuple(out), batch)
