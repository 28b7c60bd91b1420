"""The bounds of the data (``data/bounds.toml``): the highest and lowest values a game can
play, checked by the loaders (docs/rulings.md, "I-C / I-D / III-A — the bounds of the
data")."""

from __future__ import annotations

import math
import tomllib
from functools import cache

from confrontation.data import data_path

Bound = tuple[float, float]


@cache
def bounds() -> dict[str, dict[str, Bound]]:
    """Every bound, by table (``characteristics``, ``army``, ``scenario``) and key."""
    raw = tomllib.loads(data_path("bounds.toml").read_text("utf-8"))
    return {
        table: {key: (float(low), float(high)) for key, (low, high) in values.items()}
        for table, values in raw.items()
    }


def bound(table: str, key: str) -> Bound:
    """The ``[lowest, highest]`` of ``table.key``."""
    return bounds()[table][key]


def out_of_bounds(table: str, key: str, value: float) -> str | None:
    """Why ``value`` is out of the bounds of ``table.key`` (one phrase), or None."""
    low, high = bound(table, key)
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} is not a finite number"
    if low <= value <= high:
        return None
    shown = [int(b) if b == int(b) else b for b in (low, high)]
    if isinstance(value, float):
        told = f"{value:g}"
    else:
        told = str(value) if abs(value) < 10**15 else "a huge number"
    return f"{told} is out of bounds: from {shown[0]} to {shown[1]} (data/bounds.toml)"
