"""Strength of the agents: seeded games on mirror armies, sides swapped every game.

    .venv/bin/python bench/ai_strength.py --games 100 --agents mcts,greedy
    .venv/bin/python bench/ai_strength.py --agents "mcts:iterations=48;announcements=false,greedy"

Game ``k`` is played with seed ``base + k``; on odd ``k`` the agents swap sides, so neither
keeps the first speaker's side or the deployment area. Prints the wins of each agent (the
scenario's winner, III-A-2), the draws, the mean material per game, the time and the time
each agent spent thinking. Agents are written as on the command line (``NAME:KEY=VALUE;...``,
``agents/spec.py``). ``confrontation simulate`` runs the same kind of batch; this script adds
the thinking time and ``--mcts-iterations``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from confrontation.agents.spec import parse_agent_spec
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState
from confrontation.engine.step import Agent
from confrontation.sim.game import GameConfig, play_game


class Timed:
    """An agent whose thinking time is added up."""

    def __init__(self, inner: Agent, clock: defaultdict[str, float], name: str) -> None:
        self.inner, self.clock, self.name = inner, clock, name

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        start = time.perf_counter()
        try:
            return self.inner.choose(state, question, legal)
        finally:
            self.clock[self.name] += time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--agents", default="greedy,random")
    parser.add_argument("--army", default="lion-vanguard")
    parser.add_argument("--scenario", default="conquest")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--mcts-iterations", type=int, default=None)
    args = parser.parse_args()
    specs = args.agents.split(",")
    assert len(specs) == 2, "two agents, as A,B"
    names = tuple(specs)
    parsed = {spec: parse_agent_spec(spec) for spec in specs}
    clock: defaultdict[str, float] = defaultdict(float)
    wins: Counter[str] = Counter()
    margin = 0.0

    def options(spec: str) -> dict[str, Any]:
        name, given = parsed[spec]
        if name == "mcts" and args.mcts_iterations:
            return {**given, "iterations": args.mcts_iterations}
        return given

    started = time.perf_counter()
    for k in range(args.games):
        order = names if k % 2 == 0 else names[::-1]
        config = GameConfig(
            scenario=args.scenario,
            armies=(args.army, args.army),
            agents=(parsed[order[0]][0], parsed[order[1]][0]),
            seed=args.seed + k,
            rounds=args.rounds,
            agent_options=(options(order[0]), options(order[1])),
        )

        def timed(p: int, agent: Agent, seats: tuple[str, ...] = order) -> Agent:
            return Timed(agent, clock, seats[p])

        result = play_game(config, wrap=timed)
        winner = "draw" if result.winner is None else order[result.winner]
        wins[winner] += 1
        first = order.index(names[0])
        margin += result.players[1 - first].losses_ap - result.players[first].losses_ap
        print(
            f"game {k + 1:3d} seed {config.seed}: {order[0]} v {order[1]} -> {winner} "
            f"(vp {result.players[0].vp}-{result.players[1].vp}, losses "
            f"{result.players[0].losses_ap}-{result.players[1].losses_ap})",
            flush=True,
        )
    elapsed = time.perf_counter() - started
    games = args.games
    print(
        f"\n{names[0]} {wins[names[0]]}/{games} ({wins[names[0]] / games:.0%}), "
        f"{names[1]} {wins[names[1]]}/{games}, draws {wins['draw']}; "
        f"mean AP margin for {names[0]} {margin / games:+.1f}"
    )
    thinking = ", ".join(f"{n} {clock[n]:.0f} s" for n in names)
    print(f"{elapsed:.0f} s in all ({elapsed / games:.1f} s a game); thinking: {thinking}")


if __name__ == "__main__":
    main()
