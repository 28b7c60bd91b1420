"""Agents: anything that answers the engine's questions (``choose(state, question, legal)``).

:func:`make` builds one by name — ``random``, ``greedy``, ``mcts``, ``human`` — for the play
and simulate commands. Every agent is deterministic given its seed: its randomness comes
only from :mod:`confrontation.dice` rollers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from confrontation.engine.core.state import MAX_PLAYERS
from confrontation.engine.step import Agent

__all__ = ["AGENTS", "Agent", "UnknownAgent", "make"]


class UnknownAgent(ValueError):
    """No agent of that name; the message lists the known ones."""


def _random(seed: int, player: int, **options: Any) -> Agent:
    from confrontation.agents.random import RandomAgent

    _no_options("random", options)
    return RandomAgent(seed)


def _greedy(seed: int, player: int, **options: Any) -> Agent:
    from confrontation.agents.greedy import GreedyAgent

    _no_options("greedy", options)
    return GreedyAgent(seed, player)


def _mcts(seed: int, player: int, **options: Any) -> Agent:
    from confrontation.agents.mcts import MctsAgent

    return MctsAgent(seed, player, **options)


def _human(seed: int, player: int, **options: Any) -> Agent:
    from confrontation.agents.human import HumanAgent

    return HumanAgent(seed, player, **options)


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": _random,
    "greedy": _greedy,
    "mcts": _mcts,
    "human": _human,
}
"""The agents by name."""


def _no_options(name: str, options: dict[str, Any]) -> None:
    if options:
        raise UnknownAgent(f"agent {name!r} takes no options (got {', '.join(sorted(options))})")


def make(name: str, *, seed: int, player: int, **options: Any) -> Agent:
    """The agent called ``name`` for ``player`` (0 to ``MAX_PLAYERS - 1``: a game has two to
    six players, XX-F), seeded with ``seed``.

    >>> make("greedy", seed=1, player=0).__class__.__name__
    'GreedyAgent'
    >>> make("chess", seed=1, player=0)
    Traceback (most recent call last):
    ...
    confrontation.agents.UnknownAgent: unknown agent 'chess' (known: greedy, human, mcts, random)
    """
    maker = AGENTS.get(name.strip().lower())
    if maker is None:
        known = ", ".join(sorted(AGENTS))
        raise UnknownAgent(f"unknown agent {name!r} (known: {known})")
    if player not in range(MAX_PLAYERS):
        raise ValueError(f"player must be 0 to {MAX_PLAYERS - 1}, not {player!r}")
    return maker(seed, player, **options)
