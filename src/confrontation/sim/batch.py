"""Many games in a row: ``confrontation simulate``.

:func:`plan` lays out N games so that no agent keeps a side or an army. With two players,
game ``i`` swaps the agents' sides when ``i`` is odd and the armies every other pair
(``i // 2`` odd), so over four games each agent plays each army from each side once. With
``n`` players (two to six, XX-F) the same rule reads: game ``i`` turns the agents ``i`` seats
round and the armies ``i // n`` seats round, so over ``n²`` games each agent plays each army
from each seat once. An agent's options (``--agents mcts:iterations=200``) go with it to
whichever side it plays. Every game's seed comes from the batch seed and the game's index
alone (:func:`game_seed`), and results are put back in game order, so the figures do not
depend on how many processes played them.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from confrontation.engine.core.events import Event, GameEnded
from confrontation.engine.step import game_roller, start
from confrontation.sim.backends import Backend, LocalBackend, Placement
from confrontation.sim.game import (
    DEFAULT_ARMIES,
    DEFAULT_RULES,
    DEFAULT_SCENARIO,
    GameConfig,
    GameResult,
    GameSetupError,
    check_players,
    initial_state,
    make_players,
    play_game,
    play_on,
)
from confrontation.sim.game import _result as game_result
from confrontation.sim.saved import outcome_of, setup_of
from confrontation.store.records import GameSetup, Outcome

Z_95 = 1.959963984540054
"""The 97.5 % quantile of the standard normal: a two-sided 95 % interval."""


def game_seed(batch_seed: int, index: int) -> int:
    """The seed of game ``index`` of a batch (63 bits of SHA-256 of both numbers)."""
    digest = hashlib.sha256(f"confrontation-simulate:{batch_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class GameSpec:
    """One game of a batch: who plays which army from which side, and its seed.

    ``armies``, ``agents`` and ``agent_options`` are per player (player 0 first);
    ``seats[p]`` is the position in the batch's ``--agents`` of the agent playing player ``p``.
    """

    index: int
    seed: int
    scenario: str | None
    armies: tuple[str | None, ...]
    agents: tuple[str, ...]
    seats: tuple[int, ...]
    rounds: int | None = None
    keep_events: bool = False
    agent_options: tuple[dict[str, Any], ...] = field(default_factory=lambda: ({}, {}))
    rules: str = DEFAULT_RULES


@dataclass(frozen=True)
class GameOutcome:
    """What a worker sends back: the result per player (and the record when it is kept)."""

    index: int
    outcome: Outcome
    setup: GameSetup | None = None
    events: list[Event] | None = None


def plan(
    games: int,
    agents: Sequence[str],
    armies: Sequence[str | None] = (None, None),
    *,
    seed: int = 0,
    scenario: str | None = None,
    rounds: int | None = None,
    keep_events: bool = False,
    agent_options: Sequence[dict[str, Any]] | None = None,
    rules: str = DEFAULT_RULES,
) -> list[GameSpec]:
    """The ``games`` games of a batch, with sides and armies turned round (module docstring);
    ``agent_options[i]`` are the options of ``agents[i]``, wherever it plays; an army None
    is the default army of that side (two players only). A GameSetupError unless there are
    two to six agents and as many armies (XX-F)."""
    check_players(len(armies), len(agents))
    players = len(agents)
    if players != len(DEFAULT_ARMIES) and None in armies:
        raise GameSetupError(
            f"armies: a game of {players} players needs all its armies named "
            f"(the default armies are {len(DEFAULT_ARMIES)})"
        )
    options = list(agent_options) if agent_options is not None else [{} for _ in agents]
    if len(options) != players:
        raise GameSetupError(f"agent_options: {len(options)} sets of options for {players} agents")
    specs = []
    for index in range(games):
        seats = tuple((p + index) % players for p in range(players))
        order = tuple((p + index // players) % players for p in range(players))
        specs.append(
            GameSpec(
                index=index,
                seed=game_seed(seed, index),
                scenario=scenario,
                armies=tuple(armies[o] for o in order),
                agents=tuple(agents[s] for s in seats),
                seats=seats,
                rounds=rounds,
                keep_events=keep_events,
                agent_options=tuple(dict(options[s]) for s in seats),
                rules=rules,
            )
        )
    return specs


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); (0, 1) with no trial."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class AgentRecord:
    """One agent's figures over the batch."""

    name: str
    wins: int
    win_rate: float
    interval: tuple[float, float]
    mean_vp: float
    mean_losses_ap: float
    mean_tp: float | None = None
    mean_ga: float | None = None


@dataclass
class BatchResult:
    """The figures of a batch; :meth:`to_json` is ``simulate --json``."""

    specs: list[GameSpec]
    outcomes: list[GameOutcome]
    elapsed: float
    agents: tuple[str, ...]
    armies: tuple[str | None, ...]
    scenario: str | None
    seed: int
    stored: list[int] = field(default_factory=list)
    placements: dict[int, Placement] = field(default_factory=dict)
    """Where each game ran (by position), when the backend tells (Ray: node id and pid)."""
    resumed: int = 0
    """Games read from a checkpoint (``simulate --checkpoint``), played by an earlier run."""
    checkpoint: Path | None = None
    """The checkpoint file of ``simulate --checkpoint``."""

    @property
    def games(self) -> int:
        return len(self.outcomes)

    @property
    def players(self) -> int:
        """How many players each game has (one agent each)."""
        return len(self.agents)

    def wins(self) -> tuple[int, ...]:
        """Games won per agent, in the order of ``--agents``."""
        counts = [0] * self.players
        for spec, result in zip(self.specs, self.outcomes, strict=True):
            winner = result.outcome.winner
            if winner is not None:
                counts[spec.seats[winner]] += 1
        return tuple(counts)

    def draws(self) -> int:
        return sum(1 for result in self.outcomes if result.outcome.winner is None)

    def records(self) -> list[AgentRecord]:
        """Each agent's wins, win rate with its 95 % Wilson interval, mean VP and losses; mean
        tournament points and goal-average when every game has them (XX-A-4, XX-A-5)."""
        wins = self.wins()
        vp = [0] * self.players
        lost = [0] * self.players
        tp = [0] * self.players
        ga = [0] * self.players
        for spec, result in zip(self.specs, self.outcomes, strict=True):
            for player in range(self.players):
                seat = spec.seats[player]
                vp[seat] += result.outcome.vp[player]
                lost[seat] += result.outcome.losses[player]
                tp[seat] += (result.outcome.tp or (0,) * self.players)[player]
                ga[seat] += (result.outcome.ga or (0,) * self.players)[player]
        n = max(self.games, 1)
        has_tp, has_ga = self.tournament()
        return [
            AgentRecord(
                name=self.agents[seat],
                wins=wins[seat],
                win_rate=wins[seat] / n,
                interval=wilson(wins[seat], self.games),
                mean_vp=vp[seat] / n,
                mean_losses_ap=lost[seat] / n,
                mean_tp=tp[seat] / n if has_tp else None,
                mean_ga=ga[seat] / n if has_ga else None,
            )
            for seat in range(self.players)
        ]

    def tournament(self) -> tuple[bool, bool]:
        """Whether every game has tournament points, and whether every game has a
        goal-average (scenarios with victory conditions or bonuses, XX-A-4, XX-A-5)."""
        games = [r.outcome for r in self.outcomes]
        return (
            bool(games) and all(o.tp is not None for o in games),
            bool(games) and all(o.ga is not None for o in games),
        )

    def mean_rounds(self) -> float:
        return sum(r.outcome.rounds for r in self.outcomes) / max(self.games, 1)

    def games_per_second(self) -> float:
        """The games this run played (not those read from a checkpoint) per second."""
        played = self.games - self.resumed
        return played / self.elapsed if self.elapsed > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The JSON document of ``simulate --json`` (only ``elapsed_s`` and
        ``games_per_second`` depend on the machine)."""
        records = self.records()
        has_tp, has_ga = self.tournament()
        document: dict[str, Any] = {
            "games": self.games,
            "wins": list(self.wins()),
            "draws": self.draws(),
            "games_per_second": round(self.games_per_second(), 4),
            "elapsed_s": round(self.elapsed, 3),
            "resumed": self.resumed,
            "agents": list(self.agents),
            "armies": list(self.armies),
            "scenario": self.scenario,
            "seed": self.seed,
            "win_rates": [round(r.win_rate, 6) for r in records],
            "win_rate_95": [[round(r.interval[0], 6), round(r.interval[1], 6)] for r in records],
            "draw_rate": round(self.draws() / max(self.games, 1), 6),
            "mean_vp": [round(r.mean_vp, 6) for r in records],
            "mean_losses_ap": [round(r.mean_losses_ap, 6) for r in records],
            "mean_rounds": round(self.mean_rounds(), 6),
            "results": [
                {
                    "seed": spec.seed,
                    "agents": list(spec.agents),
                    "agent_options": [dict(o) for o in spec.agent_options],
                    "armies": list(spec.armies),
                    "winner": result.outcome.winner,
                    "vp": list(result.outcome.vp),
                    "losses_ap": list(result.outcome.losses),
                    "rounds": result.outcome.rounds,
                    **_tournament_figures(result.outcome),
                    **_placement(self.placements.get(position)),
                }
                for position, (spec, result) in enumerate(
                    zip(self.specs, self.outcomes, strict=True)
                )
            ],
            "stored": self.stored,
            "by_army": [r.to_json() for r in by_army(self)],
            "by_side": [r.to_json() for r in by_side(self)],
        }
        pairs = matchups(self)
        if len({name for m in pairs for name in (m.first, m.second)}) > 2:
            document["matchups"] = [m.to_json() for m in pairs]
        if has_tp:  # XX-A-4: scenarios with victory conditions
            document["mean_tp"] = [round(r.mean_tp or 0.0, 6) for r in records]
        if has_ga:  # XX-A-5
            document["mean_goal_average"] = [round(r.mean_ga or 0.0, 6) for r in records]
        return document


def _placement(placement: Placement | None) -> dict[str, Any]:
    """The Ray node and worker process that played a game, when known."""
    if placement is None:
        return {}
    return {"node": placement.node, "pid": placement.pid}


def _tournament_figures(outcome: Outcome) -> dict[str, Any]:
    """A game's TP and goal-averages (per player) when it has them (XX-A-4, XX-A-5)."""
    out: dict[str, Any] = {}
    if outcome.tp is not None:
        out["tp"] = list(outcome.tp)
    if outcome.ga is not None:
        out["goal_average"] = list(outcome.ga)
    return out


Runner = Callable[[GameSpec], GameOutcome]


def config_for(spec: GameSpec) -> GameConfig:
    """The game runner's configuration of one game of a batch."""
    return GameConfig(
        scenario=spec.scenario or DEFAULT_SCENARIO,
        armies=tuple(army or DEFAULT_ARMIES[p] for p, army in enumerate(spec.armies)),
        agents=spec.agents,
        seed=spec.seed,
        rounds=spec.rounds,
        agent_options=tuple(dict(options) for options in spec.agent_options),
        rules=spec.rules,
    )


def play_spec(spec: GameSpec) -> GameOutcome:
    """Play one game of a batch (in a worker): with its record (setup and events) when the
    batch is stored (:func:`~confrontation.sim.game.play_game`), else its outcome alone
    (:func:`play_outcome`: the same game, no list of its events)."""
    config = config_for(spec)
    if not spec.keep_events:
        return GameOutcome(spec.index, outcome_of(play_outcome(config)))
    result = play_game(config)
    return GameOutcome(spec.index, outcome_of(result), setup_of(config), list(result.events))


def play_outcome(config: GameConfig) -> GameResult:
    """``config``'s game as :func:`~confrontation.sim.game.play_game` plays it, keeping of
    its events only how it ended (``GameEnded``): an unstored sweep needs the result, not
    the 1,400-1,700 events of each game held to its end (issue 22). The result's ``events``
    are that one event."""
    initial, scenario, armies = initial_state(config)
    players = make_players(config)
    state, started = start(initial)
    ended: list[Event] = [event for event in started if isinstance(event, GameEnded)]

    def keep_end(event: Event) -> None:
        if isinstance(event, GameEnded):
            ended.append(event)

    state = play_on(state, players, game_roller(state), on_event=keep_end)
    return game_result(config, scenario, armies, state, ended[-1:])


def simulate(
    specs: Sequence[GameSpec],
    runner: Runner,
    *,
    backend: Backend | None = None,
    on_result: Callable[[GameSpec, GameOutcome], None] | None = None,
    agents: tuple[str, ...] = ("", ""),
    armies: tuple[str | None, ...] = (None, None),
    scenario: str | None = None,
    seed: int = 0,
    keep_records: bool = True,
) -> BatchResult:
    """Play ``specs`` with ``runner`` on ``backend`` (this process by default);
    ``on_result`` sees each game as it finishes (progress bar, store). With ``keep_records``
    False the result keeps each game's outcome only, not its record (setup and events) once
    ``on_result`` has seen it: a stored sweep of 10,000 games would otherwise hold every
    game's events (about 0.4 MB each) in memory to the end."""
    backend = backend if backend is not None else LocalBackend(1)
    results: list[GameOutcome | None] = [None] * len(specs)
    begin = time.perf_counter()
    for position, result in backend.map(runner, list(specs)):
        if on_result is not None:
            on_result(specs[position], result)
        if not keep_records and result.events is not None:
            result = replace(result, setup=None, events=None)
        results[position] = result
    elapsed = time.perf_counter() - begin
    outcomes = [r for r in results if r is not None]
    if len(outcomes) != len(specs):
        raise RuntimeError("a backend lost games")
    placements = dict(getattr(backend, "placements", {}))
    return BatchResult(
        list(specs), outcomes, elapsed, agents, armies, scenario, seed, placements=placements
    )


# --- results a balance volunteer reads: by army, by side, match-ups -------------------------


@dataclass(frozen=True)
class WinRecord:
    """Wins of one army or one side over the games it played, with the 95 % Wilson interval."""

    name: str
    games: int
    wins: int
    draws: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "win_rate": round(self.win_rate, 6),
            "win_rate_95": [round(low, 6), round(high, 6)],
        }


@dataclass(frozen=True)
class Matchup:
    """Two armies' games against each other: ``wins`` of ``first``, of ``second``, draws."""

    first: str
    second: str
    games: int
    wins: tuple[int, int]
    draws: int

    def to_json(self) -> dict[str, Any]:
        intervals = [wilson(w, self.games) for w in self.wins]
        return {
            "armies": [self.first, self.second],
            "games": self.games,
            "wins": list(self.wins),
            "draws": self.draws,
            "win_rates": [round(w / max(self.games, 1), 6) for w in self.wins],
            "win_rate_95": [[round(lo, 6), round(hi, 6)] for lo, hi in intervals],
        }


def army_name(spec: GameSpec, player: int) -> str:
    """The army ``player`` played in ``spec`` (a default army by its bundled id)."""
    army = spec.armies[player]
    return army if army is not None else DEFAULT_ARMIES[player]


def by_army(result: BatchResult) -> list[WinRecord]:
    """Each army's wins over the games it played, in the order the armies were given; an army
    on both sides of a game (a mirror match) counts the game once, and wins it when either
    side does."""
    names: list[str] = []
    for spec in result.specs:
        for player in range(len(spec.armies)):
            name = army_name(spec, player)
            if name not in names:
                names.append(name)
    games = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    draws = dict.fromkeys(names, 0)
    for spec, played in zip(result.specs, result.outcomes, strict=True):
        present = {army_name(spec, p) for p in range(len(spec.armies))}
        winner = played.outcome.winner
        for name in present:
            games[name] += 1
            if winner is None:
                draws[name] += 1
        if winner is not None:
            wins[army_name(spec, winner)] += 1
    return [WinRecord(n, games[n], wins[n], draws[n]) for n in names]


def by_side(result: BatchResult) -> list[WinRecord]:
    """Wins of Player 1, Player 2 (… Player n): does moving first or the side matter?"""
    out = []
    for player in range(result.players):
        wins = sum(1 for r in result.outcomes if r.outcome.winner == player)
        out.append(WinRecord(f"Player {player + 1}", result.games, wins, result.draws()))
    return out


def matchups(result: BatchResult) -> list[Matchup]:
    """Every pair of armies that met in two-player games, in the order they first met."""
    table: dict[tuple[str, str], list[int]] = {}
    for spec, played in zip(result.specs, result.outcomes, strict=True):
        if len(spec.armies) != 2:
            continue
        names = (army_name(spec, 0), army_name(spec, 1))
        key = names if (names[1], names[0]) not in table else (names[1], names[0])
        counts = table.setdefault(key, [0, 0, 0, 0])  # games, wins of key[0], of key[1], draws
        counts[0] += 1
        winner = played.outcome.winner
        if winner is None:
            counts[3] += 1
        elif key[0] == key[1]:
            counts[1 + winner] += 1
        else:
            counts[1 + key.index(names[winner])] += 1
    return [Matchup(a, b, c[0], (c[1], c[2]), c[3]) for (a, b), c in table.items()]


def plan_matchups(
    games: int,
    agents: Sequence[str],
    armies: Sequence[str],
    *,
    seed: int = 0,
    **options: Any,
) -> list[GameSpec]:
    """Every pair of ``armies`` (three or more) plays ``games`` games, sides and armies turned
    round as :func:`plan` does; game seeds run on through the pairs (one batch seed)."""
    if len(agents) != 2:
        raise GameSetupError(f"--agents: a match-up is played by two agents, not {len(agents)}")
    specs: list[GameSpec] = []
    for first in range(len(armies)):
        for second in range(first + 1, len(armies)):
            pair = plan(games, agents, (armies[first], armies[second]), seed=seed, **options)
            for spec in pair:
                index = len(specs)
                specs.append(replace(spec, index=index, seed=game_seed(seed, index)))
    return specs
