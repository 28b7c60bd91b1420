"""Whole-game engine speed against python-chess, measured in the same run (issue 22).

Prints, each as a ratio to python-chess's random plies per CPU-second measured first:
- random-v-random whole games (``play_game``, defaults: Conquest, 250 AP): engine steps
  (answers and dice, every ``ChoiceMade`` / ``DieRolled``) per CPU-second ÷ chess plies/CPU-s;
- a greedy-v-greedy game's CPU, in chess plies (how many random plies chess plays in it);
- army scaling: greedy-v-greedy at 3× the points (``scaled_army``: every bundled default
  army's cards but its commander multiplied, trimmed until the I-D validator accepts it at
  750 AP) against the same at 250 AP, CPU ratio, with the fighters on each side;
- with ``--mcts``: the mcts agent's thinking time (default settings) against greedy over
  ``--mcts-games`` games (CPU of its ``choose`` calls), in chess plies.

CPU time (``time.process_time``) throughout: the machine is shared.
Run: ``PYTHONPATH=src .venv/bin/python bench/game_speed.py [--quick] [--mcts]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path

import chess

from confrontation.agents.random import uniform_index
from confrontation.armylists.load import bundled_library_files, load_army
from confrontation.armylists.validate import validate
from confrontation.dice import SeededRoller
from confrontation.engine.core.events import ChoiceMade, DieRolled
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState
from confrontation.engine.step import Agent
from confrontation.sim import game as sim_game
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, army_path, play_game


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


def _steps(events: Sequence[object]) -> int:
    return sum(isinstance(e, ChoiceMade | DieRolled) for e in events)


def random_rate(seeds: Sequence[int]) -> tuple[float, int]:
    """(steps per CPU-second, steps) of random-v-random whole games."""
    steps = 0
    begin = time.process_time()
    for seed in seeds:
        result = play_game(GameConfig(agents=("random", "random"), seed=seed))
        steps += _steps(result.events)
    return steps / (time.process_time() - begin), steps


def game_cpu(config: GameConfig) -> float:
    """CPU seconds of one game."""
    begin = time.process_time()
    play_game(config)
    return time.process_time() - begin


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

    sim_game.make_agent = make  # type: ignore[assignment]
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
    args = parser.parse_args()
    base = args.seed
    chess_s = chess_rate(3.0 if args.quick else 5.0)
    print(f"python-chess: {chess_s:,.0f} random plies/CPU-s")
    n = 3 if args.quick else 6
    rate, steps = random_rate(range(base, base + n))
    print(
        f"random v random, {n} games: {rate:,.0f} steps/CPU-s ({steps} steps); "
        f"ratio to chess {rate / chess_s:.3f}"
    )
    greedy = [game_cpu(GameConfig(seed=s)) for s in range(base, base + (2 if args.quick else 4))]
    mean = sum(greedy) / len(greedy)
    print(
        f"greedy v greedy, 250 AP, {len(greedy)} games: {mean:.2f} CPU-s a game "
        f"= {mean * chess_s:,.0f} chess plies"
    )
    with tempfile.TemporaryDirectory() as folder:
        big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
        sizes = [sum(c.count for c in load_army(Path(p)).cards) for p in big]
        small = [sum(c.count for c in load_army(army_path(a)).cards) for a in DEFAULT_ARMIES]
        seeds = range(base, base + (1 if args.quick else 2))
        one = sum(game_cpu(GameConfig(seed=s)) for s in seeds)
        three = sum(game_cpu(GameConfig(seed=s, armies=big)) for s in seeds)
    print(
        f"scaling, greedy v greedy, {len(seeds)} games: 250 AP ({'+'.join(map(str, small))} "
        f"fighters) {one:.2f} CPU-s, 750 AP ({'+'.join(map(str, sizes))} fighters) "
        f"{three:.2f} CPU-s; ratio 3×/1× {three / one:.1f}"
    )
    if args.mcts:
        seeds = range(base + 1000, base + 1000 + args.mcts_games)
        think = mcts_thinking(seeds, args.mcts_rounds)
        print(
            f"mcts (default) v greedy, {len(seeds)} games: {think:.1f} CPU-s thinking a game "
            f"= {think * chess_s:,.0f} chess plies"
        )


if __name__ == "__main__":
    main()
