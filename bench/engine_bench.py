"""Engine speed: steps (questions answered and dice rolled) per second with random agents,
next to python-chess random-game plies per second measured in the same run.

Two engine workloads: table-less rounds (chapter IV only: sequences, Tactics roll, card
drawing) and games on a table (set-up, deployment, movement, shooting; chapter VII is not
plugged in yet, so a bench-only combat phase resolves nothing). The chess reference plays
uniformly random legal moves with ``chess.Board`` until the game ends.
Whole games (issue 22), each a ratio to python-chess random plies per CPU-second measured
in the same run (CPU time, ``time.process_time``: the machine is shared), in slices between
the games (:class:`Reference`): each game is weighed by the chess rate measured right before
and right after it, since this virtual machine's speed drifts over a run:
- random-v-random whole games (``play_game`` defaults: Conquest, 250 AP), after an untimed
  warm-up game: engine steps (every ``ChoiceMade`` / ``DieRolled``) per CPU-second ÷ chess
  plies per CPU-second;
- a greedy-v-greedy game's CPU in chess plies (how many random plies chess plays in it);
- army scaling: greedy-v-greedy at 750 AP (:func:`scaled_army`: the default armies' cards
  three times over, valid for the I-D validator at 750 AP) against 250 AP, the ratio of their
  costs in chess plies;
- with ``--mcts``: the default mcts agent's thinking CPU a game against greedy, in chess plies.
The greedy and scaling lines play four and two games: a game's CPU moves by up to 2× from
seed to seed, so they swing from run to run; ``scaling_bench.py`` gives both goals over more
games with a 95 % interval.
Run: ``PYTHONPATH=src .venv/bin/python bench/engine_bench.py [--quick] [--mcts] [--games-only]``
(or ``make bench``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import tempfile
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path

import chess

from confrontation.agents.random import RandomAgent, uniform_index
from confrontation.armylists.load import bundled_catalog, bundled_library_files, load_army
from confrontation.armylists.validate import validate
from confrontation.dice import SeededRoller
from confrontation.engine.core.events import ChoiceMade, DieRolled, PhaseEnded
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.registry import Transition
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import GameState, MaintenanceProgress, Phase, ProfileSummary
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, summarise
from confrontation.engine.step import Agent, game_roller, is_chance, is_over, question, start, step
from confrontation.sim import game as sim_game
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, army_path, play_game

SECONDS = 5.0


def _sides() -> list[SideSpec]:
    profiles = bundled_catalog().profiles
    reaper, wolfen = summarise(profiles["alahan-reaper"]), summarise(profiles["wolfen-hunter"])
    soldier = ProfileSummary("soldier", "Soldier", "lion", 3)
    return [
        SideSpec("Lions", "lion", ((reaper, 2), (soldier, 2), (soldier, 1))),
        SideSpec("Wolves", "lion", ((wolfen, 1), (soldier, 2), (soldier, 2))),
    ]


def _passing_combat(state: GameState) -> Transition:
    """BENCH ONLY: a combat phase that resolves nothing (chapter VII is not plugged in)."""
    state = dataclasses.replace(
        state, phase=Phase.MAINTENANCE, combat=None, maintenance=MaintenanceProgress()
    )
    return state, [PhaseEnded(state.round, Phase.COMBAT.value)]


def engine_steps(table: bool, seconds: float = SECONDS) -> tuple[int, int, float]:
    """(steps, games, elapsed) of random games for about ``seconds``."""
    steps = games = 0
    begin = time.perf_counter()
    seed = 0
    while time.perf_counter() - begin < seconds:
        seed += 1
        initial = game_from_specs(_sides(), rounds=6, seed=seed)
        if table:  # no melee engine on the table: a combat phase that passes
            initial = on_battlefield(initial)
            passing = rules_of(initial).with_phase(Phase.COMBAT, _passing_combat)
            initial = with_rules(initial, passing)
        state, _ = start(initial)
        agents = [RandomAgent(seed), RandomAgent(seed + 1000)]
        dice = game_roller(state)
        while not is_over(state):
            asked = question(state)
            assert asked is not None
            if is_chance(state):
                choice = asked.choices[dice.d6() - 1]
            else:
                assert asked.player is not None
                choice = agents[asked.player].choose(state, asked, asked.choices)
            state, _ = step(state, choice)
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - begin


def chess_plies(seconds: float = SECONDS) -> tuple[int, int, float]:
    """(plies, games, elapsed) of uniformly random chess games for about ``seconds``."""
    roller = SeededRoller(7)
    plies = games = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            moves = list(board.legal_moves)
            board.push(moves[uniform_index(roller, len(moves))])
            plies += 1
        games += 1
    return plies, games, time.perf_counter() - begin


def step_workloads() -> None:
    plies, chess_games, chess_time = chess_plies()
    chess_rate = plies / chess_time
    print(f"python-chess: {chess_rate:,.0f} random plies/s ({chess_games} games)")
    rounds_only = engine_steps(table=False)
    on_table = engine_steps(table=True)
    for name, (steps, games, elapsed) in (
        ("engine, rounds without a table", rounds_only),
        ("engine, games on a table", on_table),
    ):
        rate = steps / elapsed
        print(
            f"{name}: {rate:,.0f} steps/s ({games} games of 6 rounds, {steps / games:.0f} "
            f"steps each); ratio engine/chess {rate / chess_rate:.3f}"
        )


def chess_rate(seconds: float) -> float:
    """Random python-chess plies per CPU-second (uniform legal moves, whole games)."""
    roller = SeededRoller(7)
    plies = 0
    begin = time.process_time()
    while time.process_time() - begin < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            moves = list(board.legal_moves)
            board.push(moves[uniform_index(roller, len(moves))])
            plies += 1
    return plies / (time.process_time() - begin)


def steps_of(events: Sequence[object]) -> int:
    """The engine steps of a game: its answers and dice (``ChoiceMade``, ``DieRolled``)."""
    return sum(isinstance(e, ChoiceMade | DieRolled) for e in events)


WARM_UP_SEED = 100
"""The untimed game played first (as ``games_hash.py`` does): the first game of a process
loads the catalogue, the scenario, the layouts and lazy imports (0.2-0.4 CPU-s), which
chess, timed warm, does not pay."""


class Reference:
    """python-chess random plies per CPU-second, measured in slices of ``seconds`` between the
    engine's games: this shared virtual machine's speed drifts within a run (chess alone moved
    from 8,400 to 12,400 plies per CPU-second between two runs a minute apart), so a game's
    CPU is turned into chess plies at the rate measured right before and right after it. The
    chess game goes on from slice to slice (a new one when it ends)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.roller = SeededRoller(7)
        self.board = chess.Board()
        self.rates = [self._slice()]

    def _slice(self) -> float:
        plies = 0
        begin = time.process_time()
        while time.process_time() - begin < self.seconds:
            if self.board.is_game_over(claim_draw=False):
                self.board = chess.Board()
            moves = list(self.board.legal_moves)
            self.board.push(moves[uniform_index(self.roller, len(moves))])
            plies += 1
        return plies / (time.process_time() - begin)

    def plies(self, cpu: float) -> float:
        """The chess plies worth ``cpu`` engine seconds just measured (a new slice after)."""
        self.rates.append(self._slice())
        return cpu * (self.rates[-2] + self.rates[-1]) / 2

    def span(self) -> str:
        return f"{min(self.rates):,.0f}-{max(self.rates):,.0f}"


def random_rate(seeds: Sequence[int], ref: Reference) -> tuple[float, int]:
    """(steps per chess ply, steps) of random-v-random whole games, after an untimed
    warm-up game (:data:`WARM_UP_SEED`)."""
    play_game(GameConfig(agents=("random", "random"), seed=WARM_UP_SEED))
    steps, plies = 0, 0.0
    for seed in seeds:
        begin = time.process_time()
        result = play_game(GameConfig(agents=("random", "random"), seed=seed))
        plies += ref.plies(time.process_time() - begin)
        steps += steps_of(result.events)
    return steps / plies, steps


def game_cpu(config: GameConfig) -> float:
    """CPU seconds of one game."""
    begin = time.process_time()
    play_game(config)
    return time.process_time() - begin


def game_plies(config: GameConfig, ref: Reference) -> float:
    """One game's CPU in chess plies (:meth:`Reference.plies`)."""
    return ref.plies(game_cpu(config))


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def _champion_copies(profile: str, copies: int, folder: Path) -> Path:
    """A profile library of ``copies`` bench-only champions, each a copy of the bundled
    champion ``profile`` under its own id (champions are unique, I-D-4)."""
    for library in bundled_library_files():
        found = [
            p for p in tomllib.loads(library.read_text("utf-8"))["profiles"] if p["id"] == profile
        ]
        if found:
            break
    lines = []
    for k in range(2, copies + 2):
        lines.append("[[profiles]]")
        clone = {**found[0], "id": f"{profile}-bench-{k}", "name": f"{found[0]['name']} {k}"}
        lines += [f"{key} = {_toml_value(value)}" for key, value in clone.items()]
        lines.append("")
    path = folder / f"{profile}-bench.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def scaled_army(name: str, factor: int, folder: Path) -> Path:
    """A list at ``factor`` × a bundled army's points: its cards repeated ``factor`` times
    (each card within its own I-D-5 maximum), the commander's later copies being bench-only
    copies of his profile under other ids (champions are unique, I-D-4; unique artifacts
    stay on the first copy), written to ``folder``. The I-D validator at the new points
    limit must accept it."""
    army = load_army(army_path(name))
    commander = army.cards[0].profile.id
    library = _champion_copies(commander, factor - 1, folder)
    lines = [f'name = "{army.name} x{factor}"', f'people = "{army.people}"']
    lines += [f"points = {army.points * factor}", f'profiles = ["{library.name}"]']
    for copy in range(factor):
        for i, card in enumerate(army.cards):
            ident = f"{commander}-bench-{copy + 1}" if i == 0 and copy else card.profile.id
            lines += ["", "[[cards]]", f'profile = "{ident}"', f"count = {card.count}"]
            kit = [a.id for a in card.equipment if copy == 0 or not a.unique]
            if kit:
                lines.append("artifacts = [" + ", ".join(f'"{a}"' for a in kit) + "]")
    path = folder / f"{name}-x{factor}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = validate(load_army(path))
    if not report.valid:
        raise AssertionError(f"the {factor}x list of {name} is not valid: {report.violations}")
    return path


class Timed:
    """An agent whose CPU time in ``choose`` is added up."""

    def __init__(self, inner: Agent) -> None:
        self.inner, self.cpu = inner, 0.0

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        begin = time.process_time()
        try:
            return self.inner.choose(state, question, legal)
        finally:
            self.cpu += time.process_time() - begin


def mcts_thinking(seeds: Sequence[int], rounds: int | None) -> float:
    """Mean CPU seconds the default mcts agent thinks a game against greedy (sides swap)."""
    timed: list[Timed] = []
    original = sim_game.make_agent

    def make(name: str, **kw: object) -> Agent:
        agent = original(name, **kw)  # type: ignore[arg-type]
        if name == "mcts":
            agent = Timed(agent)
            timed.append(agent)
        return agent

    sim_game.make_agent = make
    try:
        for k, seed in enumerate(seeds):
            agents = ("mcts", "greedy") if k % 2 == 0 else ("greedy", "mcts")
            play_game(GameConfig(agents=agents, seed=seed, rounds=rounds))
    finally:
        sim_game.make_agent = original
    return sum(t.cpu for t in timed) / len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    parser.add_argument("--mcts", action="store_true", help="also time the mcts agent")
    parser.add_argument("--mcts-games", type=int, default=2)
    parser.add_argument("--mcts-rounds", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0, help="first seed of every workload")
    parser.add_argument("--games-only", action="store_true", help="skip the 5-second workloads")
    args = parser.parse_args()
    if not args.games_only:
        step_workloads()
    base = args.seed
    ref = Reference(0.5 if args.quick else 1.0)
    n = 3 if args.quick else 6
    rate, steps = random_rate(range(base, base + n), ref)
    print(f"random v random, {n} games: {steps} steps; ratio to chess {rate:.3f}")
    seeds = range(base, base + (2 if args.quick else 4))
    greedy = [game_plies(GameConfig(seed=s), ref) for s in seeds]
    print(
        f"greedy v greedy, 250 AP, {len(greedy)} games: "
        f"{sum(greedy) / len(greedy):,.0f} chess plies a game"
    )
    with tempfile.TemporaryDirectory() as folder:
        big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
        sizes = [sum(c.count for c in load_army(Path(p)).cards) for p in big]
        small = [sum(c.count for c in load_army(army_path(a)).cards) for a in DEFAULT_ARMIES]
        seeds = range(base, base + (1 if args.quick else 2))
        one = sum(game_plies(GameConfig(seed=s), ref) for s in seeds)
        three = sum(game_plies(GameConfig(seed=s, armies=big), ref) for s in seeds)
    print(
        f"scaling, greedy v greedy, {len(seeds)} games: 250 AP ({'+'.join(map(str, small))} "
        f"fighters) {one:,.0f} chess plies, 750 AP ({'+'.join(map(str, sizes))} fighters) "
        f"{three:,.0f}; ratio 3×/1× {three / one:.1f}"
    )
    print(f"python-chess, {len(ref.rates)} slices between the games: {ref.span()} plies/CPU-s")
    chess_s = sum(ref.rates) / len(ref.rates)
    if args.mcts:
        seeds = range(base + 1000, base + 1000 + args.mcts_games)
        think = mcts_thinking(seeds, args.mcts_rounds)
        print(
            f"mcts (default) v greedy, {len(seeds)} games: {think:.1f} CPU-s thinking a game "
            f"= {think * chess_s:,.0f} chess plies"
        )


if __name__ == "__main__":
    main()
