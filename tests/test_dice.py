"""Exact dice distributions (II-A) against brute force, Monte Carlo and invariants."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from itertools import pairwise, product
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.dice import (
    DiceScriptExhausted,
    PendingTest,
    RaiseDecision,
    RaisePolicy,
    RollOff,
    ScriptedRoller,
    SeededRoller,
    _chain,
    final_distribution,
    first_to_decide,
    natural_distribution,
    next_decider,
    opposed_round,
    p_ends_on_one,
    p_opposed,
    p_success,
    rank_opposed,
    roll_off,
    roll_opposed,
    roll_opposed_round,
    roll_test,
    standing,
)

T = TypeVar("T")

# --- brute force: the rules written out literally, every face of every die ----------------


def brute_natural(
    dice: int, stop: Callable[[int], bool], max_raises: int
) -> tuple[dict[int, Fraction], Fraction]:
    """Enumerate every face (II-A-1, II-A-2): keep the best die; a raise re-rolls every die
    showing a 6 and loses the others; a chain ending on 1 is worth 1. Returns the natural
    distribution of the chains resolved within ``max_raises`` raises and the unresolved mass."""
    dist: defaultdict[int, Fraction] = defaultdict(Fraction)
    unresolved = Fraction(0)

    def natural_of(chain: tuple[int, ...]) -> int:
        return 1 if chain[-1] == 1 else sum(chain)

    def go(chains: list[tuple[int, ...]], p: Fraction, raises: int) -> None:
        nonlocal unresolved
        best = max(natural_of(c) for c in chains)
        sixes = [c for c in chains if c[-1] == 6]
        if not sixes or stop(best):
            dist[best] += p
            return
        if raises == max_raises:
            unresolved += p
            return
        for faces in product(range(1, 7), repeat=len(sixes)):
            go(
                [(*c, f) for c, f in zip(sixes, faces, strict=True)],
                p / 6 ** len(sixes),
                raises + 1,
            )

    for faces in product(range(1, 7), repeat=dice):
        go([(f,) for f in faces], Fraction(1, 6**dice), 0)
    return dict(dist), unresolved


def script_paths(
    play: Callable[[ScriptedRoller], T], max_dice: int
) -> tuple[list[tuple[T, Fraction]], Fraction]:
    """Every script of faces on which ``play`` finishes, with its chance; plus the mass of the
    scripts still unfinished after ``max_dice`` dice."""
    finished: list[tuple[T, Fraction]] = []
    unresolved = Fraction(0)
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        try:
            outcome = play(ScriptedRoller(prefix))
        except DiceScriptExhausted:
            if len(prefix) == max_dice:
                unresolved += Fraction(1, 6 ** len(prefix))
            else:
                stack.extend((*prefix, f) for f in range(1, 7))
            continue
        finished.append((outcome, Fraction(1, 6 ** len(prefix))))
    return finished, unresolved


@pytest.mark.rule("II-A-1", "II-A-2")
@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_never_raise_matches_enumeration(dice: int) -> None:
    dist, unresolved = brute_natural(dice, lambda best: True, 0)
    assert unresolved == 0
    assert natural_distribution(dice, RaisePolicy.NEVER).probabilities == dist


@pytest.mark.rule("II-A-1", "II-A-2")
@pytest.mark.parametrize(("dice", "target"), [(1, 7), (1, 13), (1, 20), (2, 9), (2, 17), (3, 12)])
def test_optimal_raise_matches_enumeration(dice: int, target: int) -> None:
    dist, unresolved = brute_natural(dice, lambda best: best >= target, 10)
    assert unresolved == 0
    exact = natural_distribution(dice, RaisePolicy.OPTIMAL, target=target)
    assert exact.tail == 0
    assert exact.probabilities == dist


@pytest.mark.rule("II-A-1", "II-A-2")
@pytest.mark.parametrize(("dice", "raises"), [(1, 4), (2, 3), (3, 2)])
def test_always_raise_matches_enumeration_within_the_bound(dice: int, raises: int) -> None:
    # Enumeration stops after `raises` raises; the chains still going (mass `unresolved`) end
    # on 1 or on a natural ≥ 6 (raises + 1) + 2. Everything between 2 and that is exact.
    dist, unresolved = brute_natural(dice, lambda best: False, raises)
    assert unresolved > 0
    exact = natural_distribution(dice, RaisePolicy.ALWAYS, cap=60)
    assert exact.total() == 1
    horizon = 6 * (raises + 1) + 2
    for natural in range(2, horizon):
        assert exact.probabilities.get(natural, 0) == dist.get(natural, 0), natural
    assert dist[1] <= exact.probabilities[1] <= dist[1] + unresolved
    assert exact.at_least(horizon) <= unresolved
    assert exact.at_least(horizon) + exact.probabilities[1] - dist[1] == unresolved


@pytest.mark.rule("II-A-1")
def test_endless_raises_end_on_one_with_chance_one_fifth() -> None:
    # One die: 1 now (1/6), or 6 then the same problem again (1/6): q = 1/6 + q/6.
    assert p_ends_on_one(1) == Fraction(1, 5)


@pytest.mark.rule("II-A-1", "II-A-2")
@pytest.mark.parametrize("dice", [2, 3, 4])
def test_endless_raises_end_on_one_between_iterated_bounds(dice: int) -> None:
    # q_k = Σ over every face tuple of k dice: 1 if all show 1, q_j if j of them show 6, else 0.
    # Iterating that map from 0 climbs to q, from 1 falls to q: the exact value lies between.
    def step(q: dict[int, Fraction]) -> dict[int, Fraction]:
        new = {}
        for k in range(1, dice + 1):
            total = Fraction(0)
            for faces in product(range(1, 7), repeat=k):
                sixes = faces.count(6)
                if sixes:
                    total += q[sixes]
                elif set(faces) == {1}:
                    total += 1
            new[k] = total / 6**k
        return new

    low = dict.fromkeys(range(1, dice + 1), Fraction(0))
    high = dict.fromkeys(range(1, dice + 1), Fraction(1))
    for _ in range(12):
        low, high = step(low), step(high)
    assert low[dice] <= p_ends_on_one(dice) <= high[dice]
    assert high[dice] - low[dice] < Fraction(1, 10**6)


@pytest.mark.rule("II-A-1", "II-A-2", "II-A-3", "II-A-4")
@pytest.mark.parametrize(
    ("value", "difficulty", "dice"),
    [(3, 7, 1), (0, 10, 1), (2, 15, 1), (-3, 0, 1), (1, 9, 2), (0, 14, 2), (4, 12, 3)],
)
def test_rolled_optimal_tests_match_p_success(value: int, difficulty: int, dice: int) -> None:
    # The rolling code (PendingTest + RaisePolicy.OPTIMAL), run on every script of faces.
    def play(roller: ScriptedRoller) -> bool:
        return roll_test(
            roller, value, dice, difficulty=difficulty, decide=RaisePolicy.OPTIMAL
        ).succeeds(difficulty)

    paths, unresolved = script_paths(play, 12)
    assert unresolved == 0
    assert sum((p for won, p in paths if won), Fraction(0)) == p_success(value, difficulty, dice)


@pytest.mark.rule("II-A-3")
@pytest.mark.parametrize(
    ("a", "b", "dice_a", "dice_b"), [(2, 3, 1, 1), (5, 1, 1, 1), (0, 4, 2, 1), (3, 3, 1, 1)]
)
def test_rolled_opposed_rounds_match_exact_round(a: int, b: int, dice_a: int, dice_b: int) -> None:
    def play(roller: ScriptedRoller) -> int:
        ra, rb = roll_opposed_round(roller, a, b, dice_a, dice_b)
        sa, sb = standing(ra.final), standing(rb.final)
        return (sa > sb) - (sa < sb)

    # Equal values use a roll-off when both roll a 6: endless in principle, bounded here.
    paths, unresolved = script_paths(play, 9)
    brute = {k: sum((p for o, p in paths if o == k), Fraction(0)) for k in (1, 0, -1)}
    exact = dict(zip((1, 0, -1), opposed_round(a, b, dice_a, dice_b), strict=True))
    if a != b:
        assert unresolved == 0
    for k in (1, 0, -1):
        assert brute[k] <= exact[k] <= brute[k] + unresolved
    assert unresolved < Fraction(1, 1000)


@pytest.mark.rule("II-A-3")
def test_equal_sixes_roll_off_decides_who_raises_first() -> None:
    # Both value 2 roll a 6 (8 each): roll-off '5' against '2': B is lower and decides first.
    order: list[str] = []

    def recorder(side: str) -> RaiseDecision:
        def decide(pending: PendingTest, needed: int | None) -> bool:
            order.append(side)
            return RaisePolicy.OPTIMAL(pending, needed)

        return decide

    roller = ScriptedRoller([6, 6, 5, 2, 3, 4])
    result = roll_opposed(roller, 2, 2, decide_a=recorder("a"), decide_b=recorder("b"))
    assert order == ["b", "a"]
    assert (result.b.final, result.a.final) == (11, 12)


# --- Monte Carlo on cases too large to enumerate ----------------------------------------------

SAMPLES = 20_000
SIGMAS = 4.5  # tolerance: |observed − exact| ≤ 4.5 standard errors (false alarm < 1e-5)


def within_tolerance(hits: int, p: Fraction) -> bool:
    sigma = math.sqrt(float(p) * (1 - float(p)) / SAMPLES)
    return abs(hits / SAMPLES - float(p)) <= SIGMAS * sigma


@pytest.mark.rule("II-A-2", "II-A-3")
def test_four_dice_test_against_monte_carlo() -> None:
    roller = SeededRoller(2026)
    hits = sum(
        roll_test(roller, 2, 4, difficulty=14, decide=RaisePolicy.OPTIMAL).succeeds(14)
        for _ in range(SAMPLES)
    )
    assert within_tolerance(hits, p_success(2, 14, 4))


@pytest.mark.rule("II-A-3")
def test_opposed_four_dice_against_monte_carlo() -> None:
    roller = SeededRoller(7)
    hits = sum(roll_opposed(roller, 3, 6, 4, 2).a_wins for _ in range(SAMPLES))
    assert within_tolerance(hits, p_opposed(3, 6, 4, 2))


@pytest.mark.rule("II-A-1")
def test_always_raise_distribution_against_monte_carlo() -> None:
    roller = SeededRoller(11)
    dist = natural_distribution(2, RaisePolicy.ALWAYS, cap=40)
    naturals = [roll_test(roller, 0, 2, decide=RaisePolicy.ALWAYS).natural for _ in range(SAMPLES)]
    for x in (1, 6, 8, 12):
        assert within_tolerance(sum(n >= x for n in naturals), dist.at_least(x)), x


# --- invariants ---------------------------------------------------------------------------------

values = st.integers(-8, 12)
difficulties = st.integers(-3, 24)
dice_counts = st.integers(1, 4)


@pytest.mark.rule("II-A-1", "II-A-2")
@given(dice=dice_counts, policy=st.sampled_from(RaisePolicy), target=st.integers(-2, 30))
def test_probabilities_sum_to_one(dice: int, policy: RaisePolicy, target: int) -> None:
    dist = natural_distribution(dice, policy, target=target, cap=24)
    assert dist.total() == 1
    assert all(p > 0 for p in dist.probabilities.values())


@pytest.mark.rule("II-A-3")
@given(value=values, difficulty=difficulties, dice=dice_counts)
def test_optimal_raising_never_does_worse(value: int, difficulty: int, dice: int) -> None:
    best = p_success(value, difficulty, dice, RaisePolicy.OPTIMAL)
    assert best >= p_success(value, difficulty, dice, RaisePolicy.NEVER)
    assert best >= p_success(value, difficulty, dice, RaisePolicy.ALWAYS)


@pytest.mark.rule("II-A-3", "II-A-4")
@given(value=values, difficulty=difficulties, dice=dice_counts, policy=st.sampled_from(RaisePolicy))
def test_higher_value_never_lowers_success(
    value: int, difficulty: int, dice: int, policy: RaisePolicy
) -> None:
    assert p_success(value + 1, difficulty, dice, policy) >= p_success(
        value, difficulty, dice, policy
    )


@pytest.mark.rule("II-A-2")
@given(value=values, difficulty=difficulties, dice=st.integers(1, 3))
def test_more_dice_never_lower_success(value: int, difficulty: int, dice: int) -> None:
    assert p_success(value, difficulty, dice + 1) >= p_success(value, difficulty, dice)


@pytest.mark.rule("II-A-3", "II-A-4")
@given(value=values, difficulty=difficulties, dice=dice_counts)
def test_final_distribution_agrees_with_p_success(value: int, difficulty: int, dice: int) -> None:
    dist = final_distribution(value, dice, RaisePolicy.OPTIMAL, difficulty=difficulty)
    assert dist.at_least(max(difficulty, 1)) == p_success(value, difficulty, dice)


@pytest.mark.rule("II-A-3")
@given(a=values, b=values, dice_a=st.integers(1, 3), dice_b=st.integers(1, 3))
def test_opposed_is_complementary(a: int, b: int, dice_a: int, dice_b: int) -> None:
    assert p_opposed(a, b, dice_a, dice_b) + p_opposed(b, a, dice_b, dice_a) == 1
    assert sum(opposed_round(a, b, dice_a, dice_b)) == 1


@pytest.mark.rule("II-A-3")
@given(value=values, dice=st.integers(1, 3))
def test_opposed_equal_sides_are_even(value: int, dice: int) -> None:
    assert p_opposed(value, value, dice, dice) == Fraction(1, 2)


@pytest.mark.rule("II-A-3")
@given(a=values, b=values, dice=st.integers(1, 2))
def test_opposed_higher_value_never_lowers_the_chance(a: int, b: int, dice: int) -> None:
    assert p_opposed(a + 1, b, dice, dice) >= p_opposed(a, b, dice, dice)


# --- API edges ------------------------------------------------------------------------------


@pytest.mark.rule("II-A")
def test_invalid_requests_are_refused() -> None:
    with pytest.raises(ValueError):
        natural_distribution(0)
    with pytest.raises(ValueError):
        natural_distribution(1, RaisePolicy.OPTIMAL)  # no target to aim at
    with pytest.raises(ValueError):
        PendingTest.roll(ScriptedRoller([3]), 2).raise_sixes(ScriptedRoller([4]))
    with pytest.raises(ValueError):
        natural_distribution(1, RaisePolicy.ALWAYS, cap=12).at_least(30)


def test_keyed_rollers_depend_on_seed_and_key_only() -> None:
    def stream(seed: int, key: str) -> list[int]:
        roller = SeededRoller.keyed(seed, key)
        return [roller.d6() for _ in range(20)]

    assert stream(3, "attack test of A#1") == stream(3, "attack test of A#1")
    assert stream(3, "attack test of A#1") != stream(3, "attack test of A#2")
    assert stream(3, "attack test of A#1") != stream(4, "attack test of A#1")
    faces = [SeededRoller.keyed(5, f"die {k}").d6() for k in range(600)]
    assert all(60 <= faces.count(f) <= 140 for f in range(1, 7))


@pytest.mark.rule("II-A-3")
def test_a_roll_off_among_three_sides_re_rolls_only_equal_faces() -> None:
    """CLARIFICATIONS §9: "each side rolls a d6, again until the faces differ, and the lower
    face decides first". Three sides: 3, 3, 5 — the two 3s roll again (2 against 4); the 5
    keeps its place."""
    roller = ScriptedRoller([3, 3, 5, 2, 4])
    assert roll_off(roller, 3) == (0, 1, 2)
    assert roller.remaining == 0
    off = RollOff.between({0: 9, 1: 9})
    assert off.due == 0
    off = off.add(4).add(4)
    assert off.due == 0  # equal faces: again
    off = off.add(5).add(2)
    assert off.due is None and off.order == (1, 0)
    assert off.covers({0: 9, 1: 9}) and not off.covers({0: 9, 1: 10})


@pytest.mark.rule("II-A-3", "II-A-4")
def test_results_of_zero_or_less_are_equal_for_the_order_and_the_ranking() -> None:
    """CLARIFICATIONS §9: "A final result ≤ 0 is an automatic failure in every test, opposed
    ones included … two failures are a tie": −1 and 0 are equal results, 1 beats both."""
    assert rank_opposed({"a": -1, "b": 0, "c": 1}) == (("c",), ("a", "b"))
    assert first_to_decide({"a": -1, "b": 0}) == ("a", "b")
    assert first_to_decide({"a": 3, "b": 2}) == ("b",)


@given(
    sides=st.integers(min_value=2, max_value=5),
    faces=st.lists(st.integers(min_value=1, max_value=6), min_size=60, max_size=60),
)
def test_a_settled_roll_off_orders_every_side_by_strictly_lower_faces(
    sides: int, faces: list[int]
) -> None:
    """Property (CLARIFICATIONS §9 roll-off): whatever the faces, a settled roll-off orders
    every side once, each one's faces strictly before the next's (no tie left), and only
    sides whose faces were equal so far ever rolled again."""
    off = RollOff.between(dict.fromkeys(range(sides), 7))
    stream = iter(faces)
    while off.due is not None:
        face = next(stream, None)
        if face is None:
            return  # a long run of equal faces: not settled within the script
        off = off.add(face)
    order = off.order
    assert sorted(order) == list(range(sides))
    ranked = [off.faces[off.sides.index(side)] for side in order]
    assert all(a < b for a, b in pairwise(ranked))
    for mine in off.faces:  # a side rolled again only while it tied another's faces so far
        for k in range(1, len(mine)):
            assert any(t[:k] == mine[:k] for t in off.faces if t is not mine)


@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(-8, 12), min_size=1))
def test_the_opposed_ranking_counts_every_failure_as_zero(finals: dict[str, int]) -> None:
    """Property (CLARIFICATIONS §9, II-A-4): the ranking groups every side exactly once, in
    strictly decreasing results, every result ≤ 0 in one group (two failures are a tie), and
    the side deciding first on a raise is among the lowest."""
    groups = rank_opposed(finals)
    assert sorted(s for g in groups for s in g) == sorted(finals)
    levels = [max(finals[g[0]], 0) for g in groups]
    assert levels == sorted(set(levels), reverse=True)
    for group in groups:
        assert len({max(finals[s], 0) for s in group}) == 1
    failed = {s for s, f in finals.items() if f <= 0}
    assert not failed or any(set(g) == failed for g in groups)
    first = first_to_decide(finals)
    assert first and set(first) == set(groups[-1])


@pytest.mark.rule("II-A-3")
def test_next_decider_is_the_pure_rule_the_phases_ask() -> None:
    """CLARIFICATIONS §9: "each side rolls a d6, again until the faces differ, and the lower
    face decides first whether to raise, as if it were the lower result." ``next_decider``
    (in ``dice``, beside ``RollOff``) names the side deciding now, or the roll-off due."""
    assert next_decider({}, None) is None
    assert next_decider({0: 9, 1: 7}, None) == 1  # the lower result decides first
    due = next_decider({0: 9, 1: 9}, None)
    assert due == RollOff.between({0: 9, 1: 9})
    assert isinstance(due, RollOff)
    settled = due.add(5).add(2)  # Player 2's face is lower: he decides first
    assert next_decider({0: 9, 1: 9}, settled) == 1
    assert next_decider({0: 9, 1: 10}, settled) == 0  # results changed: no roll-off needed


@given(
    dice=dice_counts,
    policy=st.sampled_from(RaisePolicy),
    target=st.integers(-2, 30),
    cap=st.integers(6, 40),
)
def test_kept_natural_distributions_are_the_chain_handed_out_fresh(
    dice: int, policy: RaisePolicy, target: int, cap: int
) -> None:
    """``natural_distribution`` keeps its chains per (dice, stop, cap): the same answer as
    rolling the chain anew, the cap read only by ``ALWAYS``, and a dict of the caller's own."""
    stop = {RaisePolicy.NEVER: 0, RaisePolicy.ALWAYS: None}.get(policy, target)
    dist, tail, tail_from = _chain(0, {dice: Fraction(1)}, stop, cap)
    first = natural_distribution(dice, policy, target=target, cap=cap)
    assert first.probabilities == dist and list(first.probabilities) == list(dist)
    assert (first.tail, first.tail_from) == (tail, tail_from if tail else None)
    assert isinstance(first.probabilities, dict)
    first.probabilities[1] = Fraction(7)  # a caller's change stays his
    again = natural_distribution(dice, policy, target=target, cap=cap)
    assert again.probabilities == dist and again.probabilities is not first.probabilities
