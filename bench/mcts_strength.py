"""Strength and thinking time of an mcts agent against greedy, game by game.

    PYTHONPATH=src .venv/bin/python bench/mcts_strength.py --games 24 --seed 7100
    PYTHONPATH=src .venv/bin/python bench/mcts_strength.py --agent "mcts:iterations=48" --rounds 3

Game ``k`` is played with seed ``seed + k`` (Conquest, Lion Vanguard mirror), the mcts agent
first on even ``k``, second on odd ``k``. Prints each game's result and the CPU seconds
(``time.process_time``) the mcts agent thought, then its wins, draws and losses, the win
rate with its 95 % Wilson interval (a draw counts half), the mean AP margin and the mean
thinking CPU a game. Two runs on the same seeds (before and after a change, side by side)
compare game by game.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from confrontation.agents.spec import parse_agent_spec
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState
from confrontation.engine.step import Agent
from confrontation.sim.batch import wilson
from confrontation.sim.game import GameConfig, play_game


class Timed:
    """An agent whose thinking CPU is added up."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.cpu = 0.0

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        begin = time.process_time()
        try:
            return self.inner.choose(state, question, legal)
        finally:
            self.cpu += time.process_time() - begin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seed", type=int, default=7100)
    parser.add_argument("--agent", default="mcts", help="the searching agent's spec")
    parser.add_argument("--army", default="lion-vanguard")
    parser.add_argument("--scenario", default="conquest")
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args()
    name, options = parse_agent_spec(args.agent)
    score = 0.0
    wins = draws = 0
    margin = thinking = 0.0
    for k in range(args.games):
        me = k % 2
        agents = (name, "greedy") if me == 0 else ("greedy", name)
        config = GameConfig(
            scenario=args.scenario,
            armies=(args.army, args.army),
            agents=agents,
            seed=args.seed + k,
            rounds=args.rounds,
            agent_options=(options, {}) if me == 0 else ({}, options),
        )
        timed: list[Timed] = []

        def wrap(p: int, agent: Agent, seat: int = me, timed: list[Timed] = timed) -> Agent:
            if p != seat:
                return agent
            timed.append(Timed(agent))
            return timed[-1]

        result = play_game(config, wrap=wrap)
        cpu = sum(t.cpu for t in timed)
        thinking += cpu
        gain = result.players[1 - me].losses_ap - result.players[me].losses_ap
        margin += gain
        if result.winner is None:
            draws += 1
            outcome = "draw"
        elif result.winner == me:
            wins += 1
            outcome = "win"
        else:
            outcome = "loss"
        score += {"win": 1.0, "draw": 0.5, "loss": 0.0}[outcome]
        print(
            f"game {k + 1:3d} seed {config.seed} mcts p{me + 1}: {outcome:4s} "
            f"vp {result.players[me].vp}-{result.players[1 - me].vp} "
            f"AP margin {gain:+d} thinking {cpu:.1f} CPU-s",
            flush=True,
        )
    games = args.games
    low, high = wilson(round(score), games)
    print(
        f"\n{args.agent} v greedy, seeds {args.seed}-{args.seed + games - 1}: "
        f"{wins} wins, {draws} draws, {games - wins - draws} losses; "
        f"score {score / games:.0%} (95 % {low:.0%}-{high:.0%}); "
        f"mean AP margin {margin / games:+.1f}; thinking {thinking / games:.1f} CPU-s a game"
    )


if __name__ == "__main__":
    main()
