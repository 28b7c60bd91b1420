"""The cost expressions of artifacts and equipment (I-D-2), the data's little language.

Artifact costs may be expressions such as ``"att + def + res"``. They are parsed with
:mod:`ast` (never ``eval``) and may use integers, characteristic names, ``+ - * /``, unary
minus and parentheses. Arithmetic is exact (fractions), and **every division rounds up**
to the next whole number where it occurs (II-A-4: "the eventual rounding is always done to
the higher integer"; CLARIFICATIONS §9 "Rounding": "army-list cost expressions (I-D-2)
included"): ``str * 3 / 2 + att / 3`` is ⌈3·STR/2⌉ + ⌈ATT/3⌉, read as written (``3 / 2 * str``
is ⌈3/2⌉ × STR = 2 × STR). A value still fractional at the end (a half-centimetre MOV with no
division) is rounded up too.

The reference card checks its artifacts' costs with :func:`parse_cost` when it is loaded;
:mod:`confrontation.armylists.cost` prices a fighter with :func:`evaluate_cost`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from math import ceil

#: Characteristics a cost expression or an artifact modifier may name (I-C ⑤).
CHARACTERISTICS: tuple[str, ...] = (
    "mov",
    "ini",
    "att",
    "str",
    "def",
    "res",
    "courage",
    "fear",
    "dis",
    "aim",
    "aim_str",
    "power",
)


class CostError(ValueError):
    """A cost expression is malformed or cannot be evaluated for this fighter."""


_ALLOWED = (
    ast.Expression,
    ast.Load,
    ast.BinOp,
    ast.UnaryOp,
    ast.UAdd,
    ast.USub,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
)


_KEYWORD = re.compile(r"\bdef\b")  # DEF is a Python keyword: parsed as the name ``def_``


def _name(node: ast.Name) -> str:
    return "def" if node.id == "def_" else node.id


@lru_cache(maxsize=1024)
def parse_cost(expression: str) -> ast.Expression:
    """Parse and check a cost expression; raise :class:`CostError` if it is not allowed.

    Names are case-insensitive (``ATT + DEF + RES`` works too).
    """
    try:
        tree = ast.parse(_KEYWORD.sub("def_", expression.strip().lower()), mode="eval")
    except (SyntaxError, ValueError) as exc:
        raise CostError(f"cost {expression!r} is not an arithmetic expression") from exc
    for node in ast.walk(tree):
        if isinstance(node, _ALLOWED):
            continue
        if isinstance(node, ast.Constant) and type(node.value) is int:
            continue
        if isinstance(node, ast.Name) and _name(node) in CHARACTERISTICS:
            continue
        if isinstance(node, ast.Name):
            raise CostError(f"cost {expression!r} names unknown characteristic {node.id!r}")
        raise CostError(f"cost {expression!r} uses something other than + - * / ( ) and numbers")
    return tree


def _value(node: ast.AST, names: Mapping[str, int | float], expression: str) -> Fraction:
    if isinstance(node, ast.Expression):
        return _value(node.body, names, expression)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return Fraction(node.value)
    if isinstance(node, ast.Name):
        name = _name(node)
        if name not in names:
            raise CostError(f"cost {expression!r} needs {name.upper()}, which the fighter lacks")
        return Fraction(names[name])
    if isinstance(node, ast.UnaryOp):
        inner = _value(node.operand, names, expression)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp):
        left = _value(node.left, names, expression)
        right = _value(node.right, names, expression)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if right == 0:
            raise CostError(f"cost {expression!r} divides by zero")
        return Fraction(round_up(left / right))  # II-A-4, CLARIFICATIONS §9: each division
    raise CostError(f"cost {expression!r} cannot be evaluated")  # parse_cost forbids this


def round_up(value: Fraction) -> int:
    """The next whole number at or above ``value`` (II-A-4, CLARIFICATIONS §9 "Rounding")."""
    return ceil(value)


def evaluate_cost(expression: int | str, characteristics: Mapping[str, int | float]) -> int:
    """The AP cost of ``expression`` for a fighter with these final characteristics."""
    if isinstance(expression, int):
        return expression
    result = round_up(_value(parse_cost(expression), characteristics, expression))
    if result < 0:
        raise CostError(f"cost {expression!r} comes to {result} AP, below zero")
    return result
