"""Melees and their separation into combats (engine/core/melee.py, VII-A)."""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.dice import ScriptedRoller
from confrontation.engine.core.melee import (
    Combat,
    combat_of,
    contact_limit_problems,
    enemy_contacts,
    is_valid_split,
    melee_of,
    melees,
    roll_who_splits,
    split_winner,
    splits,
    who_splits,
)


def _partitions(items: list[str]) -> Iterator[list[list[str]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]
        yield [[first], *part]


def _brute_splits(graph: nx.Graph, melee: frozenset[str]) -> set[frozenset[frozenset[str]]]:
    """Every partition of the melee whose blocks are one fighter against his enemies in
    contact (stars), straight from VII-A's definition."""
    found = set()
    for partition in _partitions(sorted(melee)):
        ok = True
        for block in partition:
            if len(block) < 2:
                ok = False
                break
            centres = [c for c in block if all(graph.has_edge(c, o) for o in block if o != c)]
            if not centres:
                ok = False
                break
        if ok:
            found.add(frozenset(frozenset(b) for b in partition))
    return found


@st.composite
def _graphs(draw: st.DrawFn) -> nx.Graph:
    n = draw(st.integers(2, 8))
    names = [f"f{i}" for i in range(n)]
    sides = {
        name: draw(st.sampled_from(["a", "b", "c"] if n > 5 else ["a", "b"])) for name in names
    }
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    contacts = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    return enemy_contacts(sides, contacts)


@pytest.mark.rule("VII-A")
@given(_graphs())
def test_every_split_is_valid_distinct_and_none_is_missing(graph: nx.Graph) -> None:
    for melee in melees(graph):
        options = splits(graph, melee)
        assert len(set(options)) == len(options)
        for split in options:
            assert is_valid_split(graph, melee, split)
            fighters = [f for combat in split for f in combat.fighters]
            assert sorted(fighters) == sorted(melee)  # every fighter in exactly one combat
            for combat in split:
                assert all(
                    graph.nodes[e]["side"] != graph.nodes[combat.one]["side"] for e in combat.many
                )
        as_sets = {frozenset(c.fighters for c in split) for split in options}
        assert as_sets == _brute_splits(graph, melee)


@pytest.mark.rule("VII-A")
@given(_graphs())
def test_melees_are_alternating_chains(graph: nx.Graph) -> None:
    found = melees(graph)
    covered = set().union(*found) if found else set()
    for fighter in graph.nodes:
        assert (fighter in covered) == (graph.degree[fighter] > 0)
        assert (melee_of(graph, fighter) is not None) == (fighter in covered)
    for a, b in graph.edges:
        assert graph.nodes[a]["side"] != graph.nodes[b]["side"]


@pytest.mark.rule("VII-A")
def test_split_validity_rejects_bad_splits() -> None:
    graph = enemy_contacts({"A": 1, "B": 1, "X": 2, "Y": 2}, [("A", "X"), ("B", "Y"), ("A", "Y")])
    melee = frozenset("ABXY")
    assert splits(graph, melee) == ((Combat.of("A", ["X"]), Combat.of("B", ["Y"])),)
    assert not is_valid_split(graph, melee, [Combat.of("A", ["X", "Y"])])  # B left out
    assert not is_valid_split(graph, melee, [Combat.of("A", ["X"]), Combat.of("A", ["Y"])])
    assert not is_valid_split(graph, melee, [Combat.of("B", ["X"]), Combat.of("A", ["Y"])])
    assert combat_of(splits(graph, melee)[0], "Y") == Combat.of("B", ["Y"])
    # Friends in contact make no edge.
    assert not enemy_contacts({"A": 1, "B": 1}, [("A", "B")]).edges


@pytest.mark.rule("VII-A")
def test_combat_canonical_form() -> None:
    assert Combat.of("Z", ["A"]) == Combat.of("A", ["Z"])
    assert Combat.of("A", ["Z", "Y"]).many == ("Y", "Z")
    assert Combat.of("A", ["Y", "Z"]).opponents("Y") == ("A",)
    with pytest.raises(ValueError):
        Combat.of("A", [])


@pytest.mark.rule("VII-A", "XX-F-5")
def test_who_splits() -> None:
    graph = enemy_contacts(
        {"A": "p1", "B": "p1", "X": "p2", "Y": "p2"},
        [("A", "X"), ("A", "Y"), ("B", "X"), ("B", "Y")],
    )
    decision = who_splits(graph, "ABXY", routed={"A"})
    assert decision.needs_roll and len(decision.options) == 2
    assert decision.contenders == {"p1": ("B",), "p2": ("X", "Y")}
    # A single way to split: nothing to decide, no dice.
    chain = enemy_contacts({"A": 1, "B": 1, "X": 2, "Y": 2}, [("A", "X"), ("X", "B"), ("B", "Y")])
    assert not who_splits(chain, "ABXY").needs_roll
    # Every fighter of a side routed: it names one anyway.
    assert who_splits(graph, "ABXY", routed={"A", "B"}).contenders["p1"] == ("A", "B")
    # Discipline results.
    assert split_winner({"p1": 7, "p2": 5}) == "p1"
    assert split_winner({"p1": 7, "p2": 7, "p3": 2}) is None
    assert split_winner({"p1": -1, "p2": 0}) is None  # both automatic failures
    # Two sides: an opposed test (A rolls 2 + DIS 3 = 5, B rolls 4 + DIS 2 = 6).
    assert roll_who_splits(ScriptedRoller([2, 4]), {"p1": 3, "p2": 2}) == "p2"
    # Three sides: p1 and p3 tie at 7, they roll again: 1 + 5 = 6 against 3 + 2 = 5.
    assert roll_who_splits(ScriptedRoller([2, 3, 5, 1, 3]), {"p1": 5, "p2": 2, "p3": 2}) == "p1"


@pytest.mark.rule("II-E-3")
def test_contact_limits() -> None:
    hub = {"H": "a", **{f"e{i}": "b" for i in range(5)}}
    graph = enemy_contacts(hub, [("H", f"e{i}") for i in range(5)])
    sizes = {"H": "normal", **{f"e{i}": "small" for i in range(5)}}
    assert contact_limit_problems(graph, sizes) == [
        "H (normal) is in contact with 5 enemies, at most 4 (II-E-3)"
    ]
    assert contact_limit_problems(graph, {**sizes, "H": "large"}) == []
