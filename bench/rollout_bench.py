"""Imagined combats per second: what the search agent pays for (``agents/mcts.py``).

    .venv/bin/python bench/rollout_bench.py [--rounds 3]

The positions are the dice allocations (VII-C-1) met in a seeded greedy-vs-greedy game
(Conquest, Lion Vanguard mirror); from each, greedy players and seeded dice play the combat
to its end, as the search's rollouts do. Two ways, alternated ``--rounds`` times in the same
run: the engine as it is (``engine.core.frozen.evolve`` copies a record's fields) and the reference,
the same engine with ``dataclasses.replace`` put back in every engine module. Prints engine
steps per CPU second for both and the ratio.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable

from confrontation.agents.greedy import GreedyAgent
from confrontation.agents.mcts import MctsAgent, _fight_of
from confrontation.dice import SeededRoller
from confrontation.engine.combat.phase import stay_in_place
from confrontation.engine.core import frozen
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import GameState
from confrontation.sim.game import GameConfig
from recorded import questions_met


def positions(seed: int) -> list[GameState]:
    """The states of a greedy game where a fighter places his combat dice."""
    config = GameConfig(armies=("lion-vanguard", "lion-vanguard"), seed=seed)
    met = questions_met(
        config, lambda state, asked: asked.kind == "allocate_dice" and _fight_of(state) is not None
    )
    return [state for state, _, _ in met]


def rollouts(states: list[GameState]) -> int:
    """Every position played to the end of its combat; the engine steps taken."""
    steps = 0
    for k, state in enumerate(states):
        imagined = rules_of(state).with_pursuits(stay_in_place)
        agent = MctsAgent(k, 0)
        agent.policies = [GreedyAgent(k, 0), GreedyAgent(k + 1, 1)]
        agent.roller = SeededRoller(k)
        agent._fight = _fight_of(state)
        _, taken = agent._rollout(with_rules(state, imagined), state.phase, 0)
        steps += taken
    return steps


def with_replace(run: Callable[[], int]) -> int:
    """``run`` with ``dataclasses.replace`` in place of ``evolve`` in every engine module."""
    patched = [
        m
        for name, m in sys.modules.items()
        if name.startswith("confrontation.engine.") and getattr(m, "evolve", None) is frozen.evolve
    ]
    for module in patched:
        module.evolve = dataclasses.replace  # type: ignore[attr-defined]
    try:
        return run()
    finally:
        for module in patched:
            module.evolve = frozen.evolve  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2000)
    args = parser.parse_args()
    states = positions(args.seed)
    rollouts(states[:3])  # warm the caches both ways share (odds tables)
    times = {"evolve": 0.0, "replace": 0.0}
    steps = {"evolve": 0, "replace": 0}
    for _ in range(args.rounds):
        for way in ("replace", "evolve"):
            start = time.process_time()
            taken = rollouts(states) if way == "evolve" else with_replace(lambda: rollouts(states))
            times[way] += time.process_time() - start
            steps[way] += taken
    assert steps["evolve"] == steps["replace"], "both ways must play the same combats"
    rate = {way: steps[way] / times[way] for way in times}
    print(f"{len(states)} positions, {steps['evolve'] // args.rounds} steps a pass")
    print(f"dataclasses.replace (reference): {rate['replace']:,.0f} steps/CPU s")
    print(f"evolve:                          {rate['evolve']:,.0f} steps/CPU s")
    print(f"ratio: {rate['evolve'] / rate['replace']:.2f}")


if __name__ == "__main__":
    main()
