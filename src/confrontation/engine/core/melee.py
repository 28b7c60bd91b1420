"""Melees and their separation into combats (VII-A), re-separation after a pursuit (VII-C-6
Note 2), melees of three or more sides (XX-F-5).

Pure graph code (networkx), no dice and no game state: the combat phase of the engine and the
odds tools call it.

- A **melee** is an unbroken chain of enemies in contact, alternating friend and enemy: a
  connected component of the *enemy-contact graph* (fighters as nodes, an edge for each pair of
  enemies in base contact; friends in contact are no edge, so they break a chain).
- A **combat** is one fighter against one enemy, or one fighter against several enemies, all
  in contact with him: a star of that graph (:class:`Combat`).
- A **split** gives every fighter of the melee exactly one combat: a partition of the melee into
  stars. :func:`splits` enumerates them all, :func:`is_valid_split` checks one.
- Who splits: :func:`who_splits` says whether dice are needed and who may roll;
  :func:`split_winner` reads the Discipline results.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import networkx as nx

from confrontation.dice import RaiseDecision, RaisePolicy, Roller, roll_opposed, roll_test, standing
from confrontation.geometry.bases import max_enemies_in_contact

__all__ = [
    "Combat",
    "Split",
    "SplitRoll",
    "combat_of",
    "contact_limit_problems",
    "enemy_contacts",
    "is_valid_split",
    "melee_of",
    "melees",
    "pursuit_melee",
    "roll_who_splits",
    "split_winner",
    "splits",
    "who_splits",
]

SIDE = "side"
"""The node attribute holding a fighter's side (his player, or "neutral")."""


def enemy_contacts(sides: Mapping[str, Hashable], contacts: Iterable[tuple[str, str]]) -> nx.Graph:
    """The enemy-contact graph: every fighter of ``sides`` is a node (attribute ``side``); each
    pair of ``contacts`` whose fighters are of different sides is an edge (II-E: contact is
    bilateral). Friends in contact give no edge."""
    graph = nx.Graph()
    for fighter, side in sides.items():
        graph.add_node(fighter, **{SIDE: side})
    for a, b in contacts:
        if a not in sides or b not in sides:
            raise ValueError(f"contact {a}-{b} names a fighter with no side")
        if a != b and sides[a] != sides[b]:
            graph.add_edge(a, b)
    return graph


def melees(graph: nx.Graph) -> tuple[frozenset[str], ...]:
    """VII-A: the melees, ordered by their smallest fighter id. A fighter in contact with no
    enemy is in none."""
    found = [frozenset(c) for c in nx.connected_components(graph) if len(c) > 1]
    return tuple(sorted(found, key=min))


def melee_of(graph: nx.Graph, fighter: str) -> frozenset[str] | None:
    """The melee ``fighter`` belongs to, or None when he is free of contact."""
    component = frozenset(nx.node_connected_component(graph, fighter))
    return component if len(component) > 1 else None


@dataclass(frozen=True, order=True)
class Combat:
    """One fighter (``one``) against one or several enemies (``many``), all in contact with him.

    Canonical form: ``many`` sorted; for one against one, ``one`` is the smaller id.
    """

    one: str
    many: tuple[str, ...]

    @classmethod
    def of(cls, one: str, many: Iterable[str]) -> Combat:
        others = tuple(sorted(many))
        if not others or one in others:
            raise ValueError("a combat opposes one fighter to at least one other")
        if len(others) == 1 and others[0] < one:
            return cls(others[0], (one,))
        return cls(one, others)

    @property
    def fighters(self) -> frozenset[str]:
        return frozenset((self.one, *self.many))

    def opponents(self, fighter: str) -> tuple[str, ...]:
        """Whom ``fighter`` fights in this combat."""
        if fighter == self.one:
            return self.many
        if fighter in self.many:
            return (self.one,)
        raise KeyError(fighter)

    def __str__(self) -> str:
        return f"{self.one} vs {', '.join(self.many)}"


Split = tuple[Combat, ...]
"""A separation of a melee into combats, sorted (canonical)."""


def _stars(graph: nx.Graph, free: frozenset[str]) -> Iterable[list[Combat]]:
    """Every partition of ``free`` into stars of ``graph`` (each generated once).

    The smallest free fighter v is either the centre of his combat (with any non-empty set of
    free neighbours), or a leaf of a free neighbour u who fights at least two (u against v alone
    is the first case).
    """
    if not free:
        yield []
        return
    v = min(free)
    near = sorted(n for n in graph[v] if n in free)
    for size in range(1, len(near) + 1):
        for leaves in _subsets(near, size):
            rest = free - {v, *leaves}
            for tail in _stars(graph, rest):
                yield [Combat.of(v, leaves), *tail]
    for u in near:
        others = sorted(n for n in graph[u] if n in free and n != v)
        for size in range(1, len(others) + 1):
            for extra in _subsets(others, size):
                rest = free - {v, u, *extra}
                for tail in _stars(graph, rest):
                    yield [Combat.of(u, (v, *extra)), *tail]


def _subsets(items: Sequence[str], size: int) -> Iterable[tuple[str, ...]]:
    return combinations(items, size)


def splits(graph: nx.Graph, melee: Iterable[str]) -> tuple[Split, ...]:
    """VII-A: every valid separation of ``melee`` into combats, each exactly once (sorted).

    A fighter belongs to one combat only, every fighter of the melee belongs to one, and a
    combat is one fighter against one or several enemies in contact with him.

    The separations depend only on the melee's fighters and the contacts between them: they
    are kept per (fighters, contacts) (:func:`splits_key`; a melee is separated, its
    separator's candidates listed and a separation asked for many times over a phase).
    """
    members = frozenset(melee)
    key = splits_key(graph, members)
    found = _SPLITS.get(key)
    if found is None:
        if len(_SPLITS) >= _SPLITS_SIZE:
            _SPLITS.clear()
        found = _SPLITS[key] = all_splits(graph, members)
    return found


def all_splits(graph: nx.Graph, members: frozenset[str]) -> tuple[Split, ...]:
    """:func:`splits` worked out (every partition of ``members`` into stars, sorted)."""
    found = {tuple(sorted(parts)) for parts in _stars(graph, members)}
    return tuple(sorted(found))


_SplitsKey = tuple[frozenset[str], frozenset[tuple[str, str]]]


def splits_key(graph: nx.Graph, members: frozenset[str]) -> _SplitsKey:
    """What :func:`splits` reads of ``graph``: the members and the edges between them (each
    edge once, as (a, b) with a < b)."""
    edges = frozenset(
        (a, b) for a in members if a in graph for b in graph[a] if b in members and a < b
    )
    return members, edges


_SPLITS: dict[_SplitsKey, tuple[Split, ...]] = {}
_SPLITS_SIZE = 4096


def is_valid_split(graph: nx.Graph, melee: Iterable[str], split: Iterable[Combat]) -> bool:
    """VII-A, checked directly: each combat's enemies are in contact with its lone fighter,
    every fighter of the melee is in exactly one combat, and nobody else is."""
    members = frozenset(melee)
    seen: list[str] = []
    for combat in split:
        for enemy in combat.many:
            if not graph.has_edge(combat.one, enemy):
                return False
        seen.extend(combat.fighters)
    return len(seen) == len(set(seen)) and set(seen) == members


def combat_of(split: Iterable[Combat], fighter: str) -> Combat:
    """The combat of ``fighter`` in a split."""
    for combat in split:
        if fighter in combat.fighters:
            return combat
    raise KeyError(fighter)


def contact_limit_problems(graph: nx.Graph, sizes: Mapping[str, str]) -> list[str]:
    """II-E-3: fighters in contact with more enemies than their size allows (small 3, regular
    4, large 6, very large 8, titan 16). Empty when the contacts are legal."""
    problems = []
    for fighter in sorted(graph.nodes):
        limit = max_enemies_in_contact(sizes[fighter])
        if graph.degree[fighter] > limit:
            problems.append(
                f"{fighter} ({sizes[fighter]}) is in contact with {graph.degree[fighter]} "
                f"enemies, at most {limit} (II-E-3)"
            )
    return problems


# ---------------------------------------------------------------------------------------------
# Who splits (VII-A, XX-F-5)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SplitRoll:
    """Who separates a melee.

    ``splitter`` is set when no dice are needed: the melee has a single valid split (nothing to
    decide, docs/rulings.md "VII-A"), or only one side can name a fighter. Otherwise
    ``contenders`` gives, for each side, the fighters it may name for the Discipline test in
    opposition (VII-A; every side with three or more, XX-F-5).
    """

    melee: frozenset[str]
    options: tuple[Split, ...]
    splitter: Hashable | None
    contenders: Mapping[Hashable, tuple[str, ...]]

    @property
    def needs_roll(self) -> bool:
        return self.splitter is None


def who_splits(
    graph: nx.Graph,
    melee: Iterable[str],
    routed: Iterable[str] = (),
    *,
    pursuer: str | None = None,
) -> SplitRoll:
    """VII-A: what must be rolled or decided to separate ``melee``.

    Each side names one of its fighters of the melee who is not routed (when all of a side's
    fighters there are routed, it names a routed one: docs/rulings.md). After a pursuit the
    pursuer's player splits, no dice (VII-C-6 Note 2).
    """
    members = frozenset(melee)
    options = splits(graph, members)
    if not options:
        raise ValueError("this group of fighters cannot be separated into combats (VII-A)")
    fallen = frozenset(routed)
    by_side: dict[Hashable, list[str]] = {}
    for fighter in sorted(members):
        by_side.setdefault(graph.nodes[fighter][SIDE], []).append(fighter)
    contenders = {
        side: tuple(f for f in fighters if f not in fallen) or tuple(fighters)
        for side, fighters in by_side.items()
    }
    if pursuer is not None:
        if pursuer not in members:
            raise ValueError(f"the pursuer {pursuer} is not in this melee")
        return SplitRoll(members, options, graph.nodes[pursuer][SIDE], contenders)
    if len(options) == 1:
        # Nothing to choose: whoever splits, the split is the same.
        side = graph.nodes[min(members)][SIDE]
        return SplitRoll(members, options, side, contenders)
    return SplitRoll(members, options, None, contenders)


def split_winner(finals: Mapping[Hashable, int]) -> Hashable | None:
    """The side with the best Discipline result (results ≤ 0 count as 0, II-A-4), or None when
    the best result is shared: the tied sides roll again (II-A-3, XX-F-5)."""
    if not finals:
        raise ValueError("no Discipline result")
    best = max(standing(f) for f in finals.values())
    top = [side for side, f in finals.items() if standing(f) == best]
    return top[0] if len(top) == 1 else None


def roll_who_splits(
    roller: Roller,
    discipline: Mapping[Hashable, int],
    decide: Mapping[Hashable, RaiseDecision] | None = None,
) -> Hashable:
    """Roll the Discipline opposition of VII-A (two sides: :func:`~confrontation.dice.roll_opposed`)
    or of XX-F-5 (each side rolls in the given order, told the best result so far; tied best
    sides roll again among themselves). ``discipline``: side → current DIS of its fighter."""
    sides = list(discipline)
    policy = decide or {}
    if len(sides) == 1:
        return sides[0]
    if len(sides) == 2:
        a, b = sides
        result = roll_opposed(
            roller,
            discipline[a],
            discipline[b],
            decide_a=policy.get(a, RaisePolicy.OPTIMAL),
            decide_b=policy.get(b, RaisePolicy.OPTIMAL),
        )
        return a if result.a_wins else b
    while True:
        finals: dict[Hashable, int] = {}
        for side in sides:
            best = max((standing(f) for f in finals.values()), default=0)
            finals[side] = roll_test(
                roller,
                discipline[side],
                difficulty=best + 1,
                decide=policy.get(side, RaisePolicy.OPTIMAL),
            ).final
        winner = split_winner(finals)
        if winner is not None:
            return winner
        top = max(standing(f) for f in finals.values())
        sides = [s for s in sides if standing(finals[s]) == top]


# ---------------------------------------------------------------------------------------------
# After a pursuit move (VII-C-6 c, Note 2)
# ---------------------------------------------------------------------------------------------


def pursuit_melee(graph: nx.Graph, pursuer: str, fought: Iterable[str]) -> frozenset[str] | None:
    """VII-C-6 c: the melee to (re-)separate after ``pursuer``'s pursuit move, or None.

    ``graph`` is the enemy-contact graph after the move; ``fought`` the fighters who have
    already fought this combat phase. Engaged enemies who already fought bring nothing; the
    pursuer counts as not having fought (he "participates as if he had not yet fought"). The
    melee is the pursuer's chain among the others; its pursuer's combat is resolved at once
    (Note 2), and it is separated by the pursuer's player (:func:`who_splits` with ``pursuer``).
    """
    done = frozenset(fought) - {pursuer}
    fresh = graph.subgraph(n for n in graph.nodes if n not in done)
    component = frozenset(nx.node_connected_component(fresh, pursuer))
    return component if len(component) > 1 else None
