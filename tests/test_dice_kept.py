"""``p_success`` keeps its answers per (natural needed, dice, policy) (issue 22, eleventh
round): every kept answer, asked in any order, is the distribution's own sum."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from confrontation.dice import RaisePolicy, natural_distribution, needed_final, p_success

QUESTION = st.tuples(
    st.integers(-3, 12),  # value
    st.integers(-2, 14),  # difficulty
    st.integers(1, 4),  # dice
    st.sampled_from([RaisePolicy.OPTIMAL, RaisePolicy.NEVER, RaisePolicy.ALWAYS]),
)


def _fresh(value: int, difficulty: int, dice: int, policy: RaisePolicy) -> Fraction:
    """II-A-3, II-A-4 written out: a final result at least the difficulty and above 0."""
    need = needed_final(difficulty) - value
    if need <= 1:
        return Fraction(1)
    return natural_distribution(dice, policy, target=need, cap=need - 1).at_least(need)


@given(st.lists(QUESTION, min_size=1, max_size=12))
def test_kept_success_odds_are_the_fresh_ones(
    questions: list[tuple[int, int, int, RaisePolicy]],
) -> None:
    for value, difficulty, dice, policy in questions + questions[::-1]:
        kept = p_success(value, difficulty, dice, policy)
        assert kept == _fresh(value, difficulty, dice, policy)
