"""Cost expressions (I-D-2): safe arithmetic over final characteristics; every division
rounds up where it occurs (II-A-4, CLARIFICATIONS §9 "Rounding")."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.model.cost_expression import CostError, evaluate_cost, parse_cost, round_up

VALUES = {"att": 9, "def": 5, "res": 8, "str": 7, "mov": 12.5}


@pytest.mark.rule("I-D-2")
@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("att + def + res", 22),
        ("ATT + DEF + RES", 22),
        ("(att + def) * 2 - res", 20),
        ("res / 2", 4),
        ("def / 2", 3),  # 2.5: up
        ("att / 4", 3),  # 2.25: up too (CLARIFICATIONS §9), not the nearest (2)
        ("str * 3 / 2 + att / 3", 11 + 3),  # each division where it occurs: 10.5 -> 11, 3
        ("def / 3 + def / 3", 2 + 2),  # 5/3 -> 2 twice (the sum rounded once would be 4 too)
        ("att / 4 + att / 4", 3 + 3),  # 2.25 -> 3 twice, not the 4.5 -> 5 of one rounding
        ("3 / 2 * str", 2 * 7),  # read as written: (3 / 2 -> 2) * STR
        ("mov + 1", 14),  # 13.5 without a division: rounded up as well
        ("-3 + att", 6),
        ("mov * 2", 25),
        (12, 12),
    ],
)
def test_evaluate(expression: str | int, expected: int) -> None:
    assert evaluate_cost(expression, VALUES) == expected


@pytest.mark.rule("I-D-2")
@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os').system('true')",
        "att.real",
        "abs(att)",
        "att ** 2",
        "att // 2",
        "att % 2",
        "1.5 * att",
        "True + att",
        "luck + 1",
        "att +",
        "lambda: 1",
        "[att]",
        "att if def else res",
    ],
)
def test_rejects_anything_but_arithmetic(expression: str) -> None:
    with pytest.raises(CostError):
        parse_cost(expression)


@pytest.mark.rule("I-D-2")
def test_evaluation_errors() -> None:
    with pytest.raises(CostError, match="AIM"):
        evaluate_cost("aim * 2", VALUES)
    with pytest.raises(CostError, match="divides by zero"):
        evaluate_cost("att / (def - 5)", VALUES)
    with pytest.raises(CostError, match="below zero"):
        evaluate_cost("def - att", VALUES)


@pytest.mark.rule("I-D-2", "II-A-4")
def test_a_third_below_one_half_rounds_up() -> None:
    """CLARIFICATIONS §9: "Every division rounds up to the next whole number, not only
    halves: army-list cost expressions (I-D-2) included." 10/3 = 3.33 costs 4 AP (the old
    nearest-AP rounding gave 3)."""
    assert evaluate_cost("str * 10 / 21", {"str": 7}) == 4  # 70/21 = 3.33
    assert evaluate_cost("(att + 1) / 3", VALUES) == 4  # 10/3


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3) -> tuple[str, Fraction]:
    """A random expression and its value, each division rounded up where it occurs,
    computed independently of the module."""
    if depth == 0 or draw(st.booleans()):
        if draw(st.booleans()):
            n = draw(st.integers(0, 20))
            return str(n), Fraction(n)
        name = draw(st.sampled_from(sorted(VALUES)))
        return name, Fraction(VALUES[name])
    left, lv = draw(expressions(depth - 1))
    right, rv = draw(expressions(depth - 1))
    op = draw(st.sampled_from("+-*/"))
    if op == "/" and rv == 0:
        op = "+"
    div = Fraction(math.ceil(lv / rv)) if rv else lv
    value = {"+": lv + rv, "-": lv - rv, "*": lv * rv, "/": div}[op]
    return f"({left} {op} {right})", value


@pytest.mark.rule("I-D-2")
@given(expressions())
def test_matches_exact_arithmetic(case: tuple[str, Fraction]) -> None:
    text, value = case
    expected = math.ceil(value)
    if expected < 0:
        with pytest.raises(CostError):
            evaluate_cost(text, VALUES)
    else:
        assert evaluate_cost(text, VALUES) == expected


@pytest.mark.rule("I-D-2")
@given(st.fractions(max_denominator=12))
def test_round_up(value: Fraction) -> None:
    result = round_up(value)
    assert value <= result < value + 1
