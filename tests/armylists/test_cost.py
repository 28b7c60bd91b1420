"""Cost expressions (I-D-2): safe arithmetic over final characteristics."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.armylists.cost import CostError, evaluate_cost, parse_cost, round_half_up

VALUES = {"att": 9, "def": 5, "res": 8, "str": 7, "mov": 12.5}


@pytest.mark.rule("I-D-2")
@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("att + def + res", 22),
        ("ATT + DEF + RES", 22),
        ("(att + def) * 2 - res", 20),
        ("res / 2", 4),
        ("def / 2", 3),  # 2.5: halves round up (CLARIFICATIONS §2)
        ("att / 4", 2),  # 2.25: nearest
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


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3) -> tuple[str, Fraction]:
    """A random expression and its exact value, computed independently of the module."""
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
    value = {"+": lv + rv, "-": lv - rv, "*": lv * rv, "/": lv / rv if rv else lv}[op]
    return f"({left} {op} {right})", value


@pytest.mark.rule("I-D-2")
@given(expressions())
def test_matches_exact_arithmetic(case: tuple[str, Fraction]) -> None:
    text, value = case
    expected = int((value + Fraction(1, 2)) // 1)
    if expected < 0:
        with pytest.raises(CostError):
            evaluate_cost(text, VALUES)
    else:
        assert evaluate_cost(text, VALUES) == expected


@pytest.mark.rule("I-D-2")
@given(st.fractions(max_denominator=12))
def test_round_half_up(value: Fraction) -> None:
    result = round_half_up(value)
    assert value - Fraction(1, 2) < result <= value + Fraction(1, 2)
