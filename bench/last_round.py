"""The last round replayed: the same games up to the last round, then each variant of an agent.

    .venv/bin/python bench/last_round.py --games 20 --variants "finale=false" "finale=true"

Game ``k`` (seed ``base + k``, sides swapped on odd ``k``, as in ``bench/ai_strength.py``)
is played by ``--agents`` up to the first question of its last round (of the last
``--rounds-left`` rounds). From that position
the game is finished once per variant: the first agent's options are changed as the variant
says (``KEY=VALUE;...``, read as on the command line) and everything else — position, dice,
both agents' own dice streams — is copied. What differs is only what the variants decide in
the last round, so two variants are compared game by game: the results they change, and
in which direction. Prints each game's results, then each variant's wins, draws and losses
and, against the first variant, the games won or lost by the change.
"""

from __future__ import annotations

import argparse
import copy
import time

from confrontation.agents.spec import parse_agent_spec
from confrontation.engine.core.state import GameState
from confrontation.engine.step import game_roller
from confrontation.sim.game import GameConfig, play_on, play_until


def result(state: GameState, seat: int) -> int:
    """+1 the first agent won, -1 lost, 0 a draw."""
    if state.winner is None:
        return 0
    return 1 if state.winner == seat else -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--agents", default="mcts,greedy")
    parser.add_argument("--army", default="lion-vanguard")
    parser.add_argument("--scenario", default="conquest")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--variants", nargs="+", required=True)
    parser.add_argument("--rounds-left", type=int, default=1, help="replay the last N rounds")
    args = parser.parse_args()
    specs = args.agents.split(",")
    assert len(specs) == 2, "two agents, as A,B"
    parsed = [parse_agent_spec(s) for s in specs]
    variants = [parse_agent_spec(f"{parsed[0][0]}:{v}")[1] for v in args.variants]
    tally = [[0, 0, 0] for _ in variants]  # wins, draws, losses
    flips = [[0, 0] for _ in variants]  # better, worse than the first variant
    started = time.perf_counter()
    for k in range(args.games):
        seat = 0 if k % 2 == 0 else 1
        order = parsed if seat == 0 else parsed[::-1]
        config = GameConfig(
            scenario=args.scenario,
            armies=(args.army, args.army),
            agents=(order[0][0], order[1][0]),
            seed=args.seed + k,
            agent_options=(order[0][1], order[1][1]),
        )
        state, players = play_until(config, args.rounds_left)
        outcomes = []
        for v, options in enumerate(variants):
            agents = copy.deepcopy(players)
            for key, value in options.items():
                setattr(agents[seat], key, value)
            end = play_on(state, agents, game_roller(state))
            outcomes.append((result(end, seat), end.scores[seat], end.scores[1 - seat]))
            tally[v][1 - outcomes[-1][0]] += 1
            if outcomes[-1][0] > outcomes[0][0]:
                flips[v][0] += 1
            elif outcomes[-1][0] < outcomes[0][0]:
                flips[v][1] += 1
        shown = "  ".join(f"{r:+d} ({a}-{b})" for r, a, b in outcomes)
        print(f"game {k + 1:3d} seed {config.seed}: {shown}", flush=True)
    print()
    for text, (w, d, lost), (better, worse) in zip(args.variants, tally, flips, strict=True):
        print(
            f"{text:40s} wins {w} draws {d} losses {lost}; against the first: "
            f"{better} better, {worse} worse"
        )
    print(f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
