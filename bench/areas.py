"""Who holds the areas at the start and at the end of the last round of seeded games.

    .venv/bin/python bench/areas.py --games 10 --seed 1000

For each game (seed ``base + k``, the two agents of ``--agents``, sides not swapped): the
powers and strategic values of each side in each scored area (III-A-2) and who controls it,
at the first question of the last round and at the end; the fighters alive and those free
of contact. It shows where Conquest is decided between these agents.
"""

from __future__ import annotations

import argparse

from confrontation.agents.spec import parse_agent_spec
from confrontation.engine.core.state import GameState
from confrontation.engine.step import game_roller
from confrontation.engine.table.field import field_of
from confrontation.scenarios.control import control, scenario_of
from confrontation.sim.game import GameConfig, play_on, play_until


def report(state: GameState, when: str) -> str:
    scenario = scenario_of(state)
    assert scenario is not None
    here = field_of(state)
    parts = [f"{when:5s}"]
    for area in scenario.areas:
        held = control(state, area)
        who = "-" if held.controller is None else f"P{held.controller + 1}"
        parts.append(f"{area.name[:18]:18s} power {held.powers} value {held.values} {who:2s}")
    for p in (0, 1):
        alive = [f for f in state.fighters if f.player == p and f.in_play]
        free = [f for f in alive if not here.enemies_in_contact(f.id)]
        parts.append(f"P{p + 1} {len(alive)} alive, {len(free)} free")
    return " | ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--agents", default="greedy,greedy")
    parser.add_argument("--army", default="lion-vanguard")
    parser.add_argument("--scenario", default="conquest")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    parsed = [parse_agent_spec(s) for s in args.agents.split(",")]
    for k in range(args.games):
        config = GameConfig(
            scenario=args.scenario,
            armies=(args.army, args.army),
            agents=(parsed[0][0], parsed[1][0]),
            seed=args.seed + k,
            agent_options=(parsed[0][1], parsed[1][1]),
        )
        state, players = play_until(config, rounds_left=1)
        print(f"seed {config.seed}")
        print("  " + report(state, "start"))
        end = play_on(state, players, game_roller(state))
        print("  " + report(end, "end"))
        print(f"  victory points {end.scores[0]}-{end.scores[1]}", flush=True)


if __name__ == "__main__":
    main()
