"""Games of three players (XX-F) built by hand for the result plumbing's tests: the set-up
of a real three-army config, then an end written into the state (no round is played — the
engine's rounds of three players are tested with the engine)."""

from __future__ import annotations

import dataclasses
from typing import Any

from confrontation.engine.core.events import Event, GameEnded, GameStarted
from confrontation.engine.core.outcome import Outcome, Termination
from confrontation.engine.core.state import Phase
from confrontation.sim.game import GameConfig, GameResult, _result, initial_state

ARMIES3 = ("lion-vanguard", "goblin-raiders", "akkylannie-crusade")
AGENTS3 = ("greedy", "greedy", "random")
NAMES3 = ("Lion Vanguard", "No-Dan-Kar Raiders", "Akkylannie Crusade")


def config3(
    seed: int = 4, rounds: int | None = None, agent_options: tuple[dict[str, Any], ...] = ()
) -> GameConfig:
    return GameConfig(
        armies=ARMIES3, agents=AGENTS3, seed=seed, rounds=rounds, agent_options=agent_options
    )


def finished3(
    scores: tuple[int, int, int], winner: int | None, *, killed: int | None = None
) -> GameResult:
    """A three-player game of ``config3()`` that ended after 3 rounds with ``scores`` and
    ``winner``; ``killed``: that player's first fighter is dead (his losses)."""
    config = config3()
    start, scenario, armies = initial_state(config)
    fighters = tuple(start.fighters)
    if killed is not None:
        first = next(i for i, f in enumerate(fighters) if f.player == killed)
        dead = dataclasses.replace(fighters[first], wounds=4)
        fighters = (*fighters[:first], dead, *fighters[first + 1 :])
    end = dataclasses.replace(
        start, fighters=fighters, phase=Phase.OVER, round=3, scores=scores, winner=winner
    )
    outcome = Outcome(Termination.ROUNDS_PLAYED, winner, scores)
    events: list[Event] = [GameStarted(start), GameEnded.of(outcome)]
    return _result(config, scenario, armies, end, events)
