"""Swiss pairings (docs/rulings.md "Tournaments: Swiss pairings"): every player once a round,
no rematch while a pairing without one exists, at most one bye each, the bye to the lowest
ranked who has not had one."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.tournament.pairing import Pairing, pair_round


def perfect_without_rematch(players: list[int], met: set[frozenset[int]]) -> bool:
    """Brute force: can ``players`` (an even count) all be paired with no rematch?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    for other in rest:
        if frozenset((first, other)) not in met:
            left = [p for p in rest if p != other]
            if perfect_without_rematch(left, met):
                return True
    return False


def avoidable(players: list[int], met: set[frozenset[int]], byes: Counter[int]) -> bool:
    """A round without rematch (and without a second bye) exists."""
    if len(players) % 2 == 0:
        return perfect_without_rematch(players, met)
    return any(
        perfect_without_rematch([p for p in players if p != bye], met)
        for bye in players
        if byes[bye] == 0
    )


def check_round(ranking: list[int], pairings: list[Pairing]) -> None:
    seen = [p for pairing in pairings for p in (pairing.first, pairing.second) if p is not None]
    assert sorted(seen) == sorted(ranking)  # everyone exactly once
    assert [p.table for p in pairings] == list(range(1, len(pairings) + 1))
    assert sum(1 for p in pairings if p.second is None) == len(ranking) % 2


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=9),
    rounds=st.integers(min_value=1, max_value=9),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_no_rematch_while_avoidable_and_one_bye_each(n: int, rounds: int, seed: int) -> None:
    """A whole event played with random results: each round is checked against brute force."""
    rng = random.Random(seed)
    players = list(range(n))
    score = Counter[int]()
    met: set[frozenset[int]] = set()
    byes = Counter[int]()
    firsts = Counter[int]()
    for _ in range(min(rounds, n)):
        ranking = sorted(players, key=lambda p: (-score[p], p))
        could = avoidable(players, met, byes)
        pairings = pair_round(ranking, met, byes, firsts)
        check_round(ranking, pairings)
        rematches = [
            p for p in pairings if p.second is not None and frozenset((p.first, p.second)) in met
        ]
        if could:
            assert not rematches, (ranking, met, byes, pairings)
        for pairing in pairings:
            if pairing.second is None:
                byes[pairing.first] += 1
                score[pairing.first] += 6
                continue
            met.add(frozenset((pairing.first, pairing.second)))
            firsts[pairing.first] += 1
            score[pairing.first] += rng.randint(0, 9)
            score[pairing.second] += rng.randint(0, 9)
    assert max(byes.values(), default=0) <= 1  # rounds ≤ players: nobody sits out twice


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    pairings = pair_round([0, 1, 2, 3, 4], set(), {})
    assert pairings[-1] == Pairing(3, 4, None)
    pairings = pair_round([0, 1, 2, 3, 4], set(), {4: 1})
    assert pairings[-1] == Pairing(3, 3, None)


def test_neighbours_in_the_standings_meet_and_table_one_is_the_top_pair() -> None:
    pairings = pair_round([5, 2, 7, 1], set(), {})
    assert [(p.first, p.second) for p in pairings] == [(5, 2), (7, 1)]


def test_a_rematch_is_avoided_by_going_down_the_standings() -> None:
    pairings = pair_round([0, 1, 2, 3], {frozenset((0, 1))}, {})
    pairs = {frozenset((p.first, p.second)) for p in pairings}
    assert frozenset((0, 1)) not in pairs


def test_when_every_pairing_is_a_rematch_the_round_is_still_paired() -> None:
    met = {frozenset(pair) for pair in combinations(range(4), 2)}
    pairings = pair_round([0, 1, 2, 3], met, {})
    assert len(pairings) == 2


def test_player_1_is_who_has_been_player_1_less_often() -> None:
    assert pair_round([0, 1], set(), {}, {0: 2, 1: 0}) == [Pairing(1, 1, 0)]
    assert pair_round([0, 1], set(), {}, {}) == [Pairing(1, 0, 1)]
