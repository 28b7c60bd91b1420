"""VII-C worked example, the opening position answered: how likely is the Praetorian Guard
(3 dice in attack, 1 in defence) to survive the two Dawn Warriors (2:0 and 1:1) and Arkeon
Sanath (1:1), with the book's allocations, each fighter defending the first attack on him
with his die (as in the book), the initiative rolled (INI 3 against 5 + 2)?"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest

from confrontation.armylists.load import bundled_catalog
from confrontation.dice import p_opposed
from confrontation.odds import DefencePolicy, Fighter, combat_odds, simulate_engine
from confrontation.rules.combat import Allocation, Stats


def _fighter(profile_id: str, name: str, allocation: Allocation) -> Fighter:
    p = bundled_catalog().profiles[profile_id]
    stats = Stats(p.ini, p.att, p.str_, p.def_, p.res)
    return Fighter(name, stats, allocation, DefencePolicy.ONE, strategic_value=p.ap)


GUARD = _fighter("praetorian-guard", "guard", Allocation(3, 1))
ENEMIES = [
    _fighter("dawn-warrior", "dawn-warrior-1", Allocation(2, 0)),
    _fighter("dawn-warrior", "dawn-warrior-2", Allocation(1, 1)),
    _fighter("arkeon-sanath", "arkeon-sanath", Allocation(1, 1)),
]


@pytest.fixture(scope="module")
def odds():  # type: ignore[no-untyped-def]
    return combat_odds(GUARD, ENEMIES)


@pytest.mark.rule("VII-C-1", "VII-C-2")
def test_the_book_values_and_the_initiative(odds) -> None:  # type: ignore[no-untyped-def]
    # The book's numbers (VII-C-2 example): Guard INI 3, Arkeon 5 + 2 others = 7.
    assert (GUARD.stats.ini, ENEMIES[2].stats.ini) == (3, 5)
    assert odds.p_first == p_opposed(3, 7)
    assert Fraction(1, 10) < odds.p_first < Fraction(1, 8)


@pytest.mark.rule("VII-C", "VII-C-3", "VII-C-4", "II-B-4")
def test_the_guard_survives_about_four_times_in_five(odds) -> None:  # type: ignore[no-untyped-def]
    survive = odds.p_alive("guard")
    # The README quotes the number: it must be the one computed.
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    quoted = re.search(r"Praetorian Guard survives[^%]*?([0-9.]+) %", readme)
    assert quoted is not None and quoted.group(1) == f"{100 * float(survive):.2f}"
    # The engine itself, playing the same combat 2000 times with a seeded roller.
    mc = simulate_engine(GUARD, ENEMIES, runs=2000, seed=2024)
    p = float(survive)
    assert abs((1 - mc.p_killed("guard").estimate) - p) <= 4.5 * math.sqrt(p * (1 - p) / 2000)
    # Striking first would help him: his 3 attacks come before the warriors' second ones.
    first = combat_odds(GUARD, ENEMIES, first=True)
    later = combat_odds(GUARD, ENEMIES, first=False)
    assert first.p_alive("guard") > survive > later.p_alive("guard")
    assert survive == odds.p_first * first.p_alive("guard") + (1 - odds.p_first) * later.p_alive(
        "guard"
    )
