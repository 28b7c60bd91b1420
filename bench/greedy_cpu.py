"""The greedy agent's own CPU (``GreedyAgent.choose``, timed by ``engine_bench.Timed``) and
the whole games' CPU, at 250 AP (seeds 0-3) and 750 AP (``engine_bench.scaled_army``, seeds
0-1), with the sha-256 of the games' events; run it on two trees, alternating (issue 22,
tenth round). Run from the worktree root:
``PYTHONPATH=<tree>/src .venv/bin/python bench/greedy_cpu.py [--profile FILE]``.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import tempfile
import time
from pathlib import Path

from confrontation.sim import game as sim_game
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import Timed, scaled_army


class Judging(Timed):
    """:class:`engine_bench.Timed` that says, as the agent it times does, whether it judges
    the legal choices without their wording (``judges_choices``): without it the engine
    describes every option, working out every lazy part of the activation lists (their
    sight questions) before the agent is asked, and the agent sees plain lists."""

    def __init__(self, inner: object) -> None:
        super().__init__(inner)  # type: ignore[arg-type]
        self.judges_choices = getattr(inner, "judges_choices", False)


def played(configs: list[GameConfig]) -> tuple[float, float, str]:
    """The agents' CPU, the games' CPU and the events' hash of ``configs``."""
    timed: list[Judging] = []
    original = sim_game.make_agent

    def make(name: str, **kw: object) -> object:
        agent = Judging(original(name, **kw))  # type: ignore[arg-type]
        timed.append(agent)
        return agent

    sim_game.make_agent = make  # type: ignore[assignment]
    digest = hashlib.sha256()
    try:
        begin = time.process_time()
        for config in configs:
            digest.update(repr(play_game(config).events).encode())
        spent = time.process_time() - begin
    finally:
        sim_game.make_agent = original
    return sum(t.cpu for t in timed), spent, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profile", help="write a cProfile of the games to this file")
    parser.add_argument("--only", choices=("250", "750"), help="play one size only")
    args = parser.parse_args()
    play_game(GameConfig(seed=100))  # warm-up
    profile = cProfile.Profile() if args.profile else None
    if profile is not None:
        profile.enable()
    with tempfile.TemporaryDirectory() as folder:
        if args.only != "750":
            agent, spent, digest = played([GameConfig(seed=s) for s in range(4)])
            print(f"250 AP, 4 games: agent {agent:.2f} of {spent:.2f} CPU-s, events {digest}")
        if args.only != "250":
            big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
            agent, spent, digest = played([GameConfig(seed=s, armies=big) for s in (0, 1)])
            print(f"750 AP, 2 games: agent {agent:.2f} of {spent:.2f} CPU-s, events {digest}")
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile)


if __name__ == "__main__":
    main()
