"""Engine speed: steps (questions answered and dice rolled) per second with random agents,
next to python-chess random-game plies per second measured in the same run.

Two engine workloads: table-less rounds (chapter IV only: sequences, Tactics roll, card
drawing) and games on a table (set-up, deployment, movement, shooting; chapter VII is not
plugged in yet, so a bench-only combat phase resolves nothing). The chess reference plays
uniformly random legal moves with ``chess.Board`` until the game ends.
Run: ``.venv/bin/python bench/engine_bench.py`` (or ``make bench``).
"""

from __future__ import annotations

import dataclasses
import time

import chess

from confrontation.agents.random import RandomAgent, uniform_index
from confrontation.armylists.load import bundled_catalog
from confrontation.dice import SeededRoller
from confrontation.engine.core.events import PhaseEnded
from confrontation.engine.core.registry import Transition
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import GameState, MaintenanceProgress, Phase, ProfileSummary
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, summarise
from confrontation.engine.step import game_roller, is_chance, is_over, question, start, step

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


def main() -> None:
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


if __name__ == "__main__":
    main()
