"""The enemy-contact graph kept per the records it is made of (``phase.contact_graph``,
VII-A) is the graph worked out again at every call of whole games; a key that forgets the
fighters is caught."""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from confrontation.engine.combat import phase
from confrontation.engine.core.state import GameState
from confrontation.sim.game import GameConfig, play_game


def _same(a: nx.Graph, b: nx.Graph) -> bool:
    return list(a.nodes(data=True)) == list(b.nodes(data=True)) and sorted(
        map(sorted, a.edges)
    ) == sorted(map(sorted, b.edges))


def _compared(monkeypatch: pytest.MonkeyPatch, seeds: tuple[int, ...]) -> tuple[int, int]:
    """Play greedy games, comparing every kept graph with a fresh one: (calls, wrong)."""
    kept = phase.contact_graph
    counts = [0, 0]

    def checked(state: GameState) -> nx.Graph:
        graph = kept(state)
        counts[0] += 1
        counts[1] += not _same(graph, phase._contact_graph(state))
        return graph

    monkeypatch.setattr(phase, "contact_graph", checked)
    monkeypatch.setattr(phase, "_GRAPHS", {})
    for seed in seeds:
        play_game(GameConfig(agents=("greedy", "greedy"), seed=seed))
    return counts[0], counts[1]


def test_the_kept_graph_is_the_fresh_one_along_whole_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls, wrong = _compared(monkeypatch, (0, 1, 2))
    assert calls > 100 and wrong == 0


def test_a_key_without_the_fighters_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(state: GameState) -> tuple[Any, ...]:
        return (state.battleground, state.profiles)

    monkeypatch.setattr(phase, "graph_records", broken)
    _, wrong = _compared(monkeypatch, (0, 1, 2))
    assert wrong > 0
