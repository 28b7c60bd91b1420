"""The separations of a melee kept per (fighters, contacts between them) (``melee.splits``,
VII-A) are the separations worked out again, along whole games and for random graphs; a key
that forgets the contacts is caught."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.engine.core import melee
from confrontation.engine.core.melee import all_splits, enemy_contacts, melees, splits
from confrontation.sim.game import GameConfig, play_game


@st.composite
def _graphs(draw: st.DrawFn) -> nx.Graph:
    n = draw(st.integers(2, 7))
    names = [f"f{i}" for i in range(n)]
    sides = {name: draw(st.sampled_from(["a", "b"])) for name in names}
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    contacts = draw(st.lists(st.sampled_from(pairs), unique=True))
    return enemy_contacts(sides, contacts)


@given(st.lists(_graphs(), min_size=1, max_size=6))
def test_kept_splits_are_the_splits_worked_out(graphs: list[nx.Graph]) -> None:
    for graph in graphs:  # the same names again and again: the key must tell the contacts
        for group in melees(graph):
            assert splits(graph, group) == all_splits(graph, frozenset(group))


def test_kept_splits_along_whole_games(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[nx.Graph, frozenset[str]]] = []
    key_of = melee.splits_key

    def spy(graph: nx.Graph, members: frozenset[str]) -> melee._SplitsKey:
        seen.append((graph.copy(), members))
        return key_of(graph, members)

    monkeypatch.setattr(melee, "splits_key", spy)
    for seed in (0, 1, 2):
        play_game(GameConfig(agents=("greedy", "greedy"), seed=seed))
    assert len(seen) > 20
    monkeypatch.setattr(melee, "splits_key", key_of)
    distinct = {key_of(g, m) for g, m in seen}
    assert len(distinct) < len(seen)  # asked again: kept answers were used
    for graph, members in seen:
        assert splits(graph, members) == all_splits(graph, members)


def test_a_key_without_the_contacts_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def members_only(graph: nx.Graph, members: frozenset[str]) -> melee._SplitsKey:
        return members, frozenset()

    monkeypatch.setattr(melee, "splits_key", members_only)
    monkeypatch.setattr(melee, "_SPLITS", {})
    sides = {"a": 0, "b": 1, "c": 0}
    chain = enemy_contacts(sides, [("a", "b"), ("b", "c")])
    star = enemy_contacts({"a": 0, "b": 1, "c": 1}, [("a", "b"), ("a", "c")])
    group = frozenset("abc")
    assert splits(chain, group) == all_splits(chain, group)
    assert splits(star, group) != all_splits(star, group)
