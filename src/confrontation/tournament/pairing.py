"""Swiss pairings, round by round (docs/rulings.md "Tournaments: Swiss pairings").

Players are ranked by the standings; each round pairs every player with one he has not met
while that is possible at all (a rematch only when no pairing of the round avoids one), the
closest in the standings otherwise; with an odd count one player sits out (the bye): the
lowest ranked who has not had one (nobody has two while another has none). It is one maximum
weight matching (networkx, blossom algorithm) whose weights put these rules in that order:
a second bye costs more than every rematch together, a rematch more than every distance in
the standings together. Tables go to the pairs in ranking order (table 1 the top pair); the
player who has been Player 1 less often is Player 1 (the higher ranked when equal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

BYE = -1
"""The opponent of the player who sits out."""


@dataclass(frozen=True)
class Pairing:
    """One table of a round: ``first`` is Player 1, ``second`` Player 2 (None: a bye)."""

    table: int
    first: int
    second: int | None


def pair_round(
    ranking: Sequence[int],
    met: set[frozenset[int]],
    byes: Counter[int] | dict[int, int],
    firsts: Counter[int] | dict[int, int] | None = None,
) -> list[Pairing]:
    """The next round's pairings of the players in ``ranking`` (best first): ``met`` the pairs
    that already played, ``byes`` how many byes each player had, ``firsts`` how often each was
    Player 1. A bye is the last table, ``second`` None."""
    players = list(ranking)
    n = len(players)
    if n < 2:
        raise ValueError("a round needs two players at least")
    if len(set(players)) != n:
        raise ValueError("a player appears twice in the ranking")
    firsts = firsts or {}
    rank = {player: position for position, player in enumerate(players)}
    distance_total = n * n * n + 1  # more than the distances of any whole round
    rematch = distance_total
    second_bye = rematch * (n * n + 1)  # more than every rematch of a round together
    base = second_bye * (n + 1)
    graph = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            cost = (rank[a] - rank[b]) ** 2
            if frozenset((a, b)) in met:
                cost += rematch
            graph.add_edge(a, b, weight=base - cost)
    if n % 2:
        for a in players:
            cost = (n - 1 - rank[a]) ** 2 + second_bye * byes.get(a, 0)
            graph.add_edge(a, BYE, weight=base - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for a, b in matching:
        if BYE in (a, b):
            bye = b if a == BYE else a
            continue
        high, low = (a, b) if rank[a] < rank[b] else (b, a)
        if firsts.get(low, 0) < firsts.get(high, 0):
            high, low = low, high
        pairs.append((high, low))
    pairs.sort(key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
    out: list[Pairing] = [Pairing(t, first, second) for t, (first, second) in enumerate(pairs, 1)]
    if bye is not None:
        out.append(Pairing(len(out) + 1, bye, None))
    return out
