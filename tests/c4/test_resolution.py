"""# C4 Universal table of resolution (002_…) with CLARIFICATIONS §7's default table."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.c4.resolution import (
    C4Test,
    chain_successes,
    default_table,
    die_law,
    load_universal_table,
    minimum_roll,
    roll_courage,
    roll_test,
    successes_distribution,
)
from confrontation.dice import ScriptedRoller, SeededRoller

# CLARIFICATIONS §7: ≤ −4 → 6, −3..−2 → 5, −1..+1 → 4, +2..+3 → 3, ≥ +4 → 2.
SECTION7 = {-9: 6, -4: 6, -3: 5, -2: 5, -1: 4, 0: 4, 1: 4, 2: 3, 3: 3, 4: 2, 12: 2}


@pytest.mark.rule("C4-UNIVERSAL-TABLE-OF-RESOLUTION")
@pytest.mark.parametrize(("column", "minimum"), sorted(SECTION7.items()))
def test_every_column_of_the_default_table(column: int, minimum: int) -> None:
    # "action value – difficulty" is the column: the same column from different pairs.
    assert minimum_roll(column, 0) == minimum
    assert minimum_roll(5 + column, 5) == minimum
    assert load_universal_table().minimum(column) == minimum


@pytest.mark.rule("C4-UNIVERSAL-TABLE-OF-RESOLUTION")
def test_courage_test_8_example() -> None:
    # The document's example "Courage test (8)": difficulty 8, action the unit's Courage.
    assert minimum_roll(4, 8) == 6  # column −4
    assert minimum_roll(6, 8) == 5  # column −2
    assert minimum_roll(9, 8) == 4  # column +1


def test_a_natural_one_fails_even_on_the_best_column() -> None:
    test = roll_test(ScriptedRoller([1, 2]), 2, 20, 0)
    assert test.minimum == 2
    assert test.successes == 1  # the 1 fails, the 2 succeeds


def test_a_natural_six_succeeds_even_on_the_worst_column_and_rolls_again() -> None:
    # Minimum 6: the 6 succeeds, its re-roll (a 6 again) adds one, the next (5) fails.
    test = roll_test(ScriptedRoller([6, 6, 5]), 1, 0, 20)
    assert test.chains == ((6, 6, 5),)
    assert test.successes == 2


@pytest.mark.parametrize(
    ("chain", "minimum", "successes"),
    [
        ((3,), 4, 0),
        ((4,), 4, 1),
        ((6, 4), 4, 2),  # the re-roll succeeds: one more
        ((6, 3), 4, 1),  # the re-roll fails: nothing more, nothing lost
        ((6, 1), 2, 1),  # a re-rolled 1 fails too (ruling: it takes nothing away)
        ((6, 6, 6, 2), 3, 3),
        ((6, 6, 6, 3), 3, 4),
        ((1,), 2, 0),
    ],
)
def test_chain_successes(chain: tuple[int, ...], minimum: int, successes: int) -> None:
    assert chain_successes(chain, minimum) == successes


def test_attack_test_counts_each_die() -> None:
    # "Each die that shows a result equal to or greater than that indicated … is a success."
    roller = ScriptedRoller([4, 5, 3, 6, 2, 1])
    test = roll_test(roller, 5, 3, 3)  # column 0 → 4+
    assert test.chains == ((4,), (5,), (3,), (6, 2), (1,))
    assert test.successes == 3
    assert test.faces == (4, 5, 3, 6, 2, 1)
    assert roller.remaining == 0


def test_no_dice_no_success() -> None:
    test = roll_test(ScriptedRoller([]), 0, 3, 3)
    assert test.successes == 0 and test.chains == ()


def test_negative_dice_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        roll_test(ScriptedRoller([]), -1, 3, 3)


@pytest.mark.rule("C4-UNIVERSAL-TABLE-OF-RESOLUTION")
def test_courage_keeps_only_the_best_die() -> None:
    # "only the one showing the best result is used and all the others are discarded".
    test = roll_courage(ScriptedRoller([2, 6, 5, 3]), 3, 3, dice=3)
    assert isinstance(test, C4Test)
    assert test.chains == ((6, 5),)
    assert test.successes == 2
    assert roll_courage(ScriptedRoller([3]), 3, 3).successes == 0
    with pytest.raises(ValueError):
        roll_courage(ScriptedRoller([3]), 3, 3, dice=0)


# --- exact laws -------------------------------------------------------------------------------


def brute_die(minimum: int, depth: int) -> list[Fraction]:
    """P(one die gives k successes), k < depth, by enumerating chains of faces."""
    law = [Fraction(0)] * depth
    for length in range(1, depth + 1):
        for faces in itertools.product(range(1, 7), repeat=length):
            if any(f != 6 for f in faces[:-1]) or (length < depth and faces[-1] == 6):
                continue  # not a finished chain (only a 6 is rolled again)
            k = chain_successes(faces, minimum)
            if k < depth:
                law[k] += Fraction(1, 6**length)
    return law


@pytest.mark.parametrize("minimum", [2, 3, 4, 5, 6])
def test_one_die_law_matches_enumeration(minimum: int) -> None:
    depth = 5
    assert list(die_law(minimum).coefficients(depth)) == brute_die(minimum, depth)


@pytest.mark.parametrize(("dice", "action", "difficulty"), [(2, 3, 3), (3, 5, 2), (3, 1, 6)])
def test_several_dice_law_matches_convolution(dice: int, action: int, difficulty: int) -> None:
    cap = 5
    one = brute_die(minimum_roll(action, difficulty), cap)
    law = [Fraction(1)] + [Fraction(0)] * (cap - 1)
    for _ in range(dice):
        law = [sum((law[i] * one[k - i] for i in range(k + 1)), Fraction(0)) for k in range(cap)]
    dist = successes_distribution(dice, action, difficulty, cap=cap)
    assert list(dist.probabilities) == law
    assert dist.tail == 1 - sum(law, Fraction(0))


def test_law_agrees_with_seeded_rolls() -> None:
    roller = SeededRoller(25)
    runs = 20_000
    counts = [0] * 12
    for _ in range(runs):
        counts[min(roll_test(roller, 4, 4, 3).successes, 11)] += 1
    dist = successes_distribution(4, 4, 3, cap=11)
    for k in range(5):
        assert abs(counts[k] / runs - float(dist.probabilities[k])) < 0.015


@pytest.mark.parametrize(("column", "minimum"), [(-4, 6), (-2, 5), (0, 4), (2, 3), (4, 2)])
def test_mean_of_one_die(column: int, minimum: int) -> None:
    # E = P(success) + P(6)·E, so E = (7 − m)/6 ÷ 5/6 = (7 − m)/5; the tail at cap 40 is tiny.
    dist = successes_distribution(1, column, 0, cap=40)
    assert abs(dist.mean() - Fraction(7 - minimum, 5)) < Fraction(1, 10**25)


def test_at_least_refuses_beyond_the_cap() -> None:
    dist = successes_distribution(1, 3, 3, cap=4)
    assert dist.at_least(0) == 1
    with pytest.raises(ValueError, match="cap"):
        dist.at_least(5)


@given(
    dice=st.integers(0, 12),
    action=st.integers(-10, 10),
    difficulty=st.integers(-10, 10),
)
def test_laws_are_probability_laws(dice: int, action: int, difficulty: int) -> None:
    dist = successes_distribution(dice, action, difficulty)
    assert sum(dist.probabilities, Fraction(0)) + dist.tail == 1
    assert all(p >= 0 for p in dist.probabilities) and dist.tail >= 0
    # A better column never makes at least k successes less likely.
    better = successes_distribution(dice, action + 1, difficulty, cap=dist.cap)
    for k in range(dist.cap + 1):
        assert better.at_least(k) >= dist.at_least(k)


# --- the table as data ------------------------------------------------------------------------

GOOD = """
[[column]]
up_to = 0
minimum = 5

[[column]]
from = 1
minimum = 3
"""


def test_a_user_table_replaces_the_default(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(GOOD, encoding="utf-8")
    table = load_universal_table(path)
    assert table.minimum(-50) == 5 and table.minimum(0) == 5 and table.minimum(1) == 3
    assert minimum_roll(3, 3, table) == 5
    assert roll_test(ScriptedRoller([4]), 1, 3, 3, table).successes == 0
    assert default_table().minimum(0) == 4  # the bundled table is untouched


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[column]]\nminimum = 4\nfrom = 0\n", "first column"),
        ("[[column]]\nminimum = 4\nup_to = 3\n", "last column"),
        ("[[column]]\nup_to = 0\nminimum = 5\n[[column]]\nfrom = 2\nminimum = 3\n", "right after"),
        ("[[column]]\nup_to = 0\nminimum = 3\n[[column]]\nfrom = 1\nminimum = 5\n", "higher die"),
        ("[[column]]\nminimum = 7\n", "less than or equal to 6"),
        ("[[column]]\nminimum = 1\n", "greater than or equal to 2"),
        ("[[column]]\nminimum = '4'\n", "expected a whole number"),
        ("column = []\n", "at least 1"),
        ("[[column]]\nminimum = 4\nextra = 1\n", "unknown key"),
        ("[[column\n", "invalid TOML"),
    ],
)
def test_bad_tables_are_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LoadError) as error:
        load_universal_table(path)
    assert message in str(error.value)
    assert "\n" not in str(error.value) and str(error.value).startswith(str(path))


column = st.fixed_dictionaries(
    {},
    optional={
        "from": st.integers(-8, 8) | st.text(max_size=2),
        "up_to": st.integers(-8, 8) | st.booleans(),
        "minimum": st.integers(0, 8),
        "junk": st.integers(),
    },
)


@given(st.lists(column, max_size=6))
def test_any_table_loads_or_is_one_line_error(columns: list[dict[str, object]]) -> None:
    import tempfile

    lines: list[str] = []
    for col in columns:
        lines.append("[[column]]")
        for key, value in col.items():
            shown = repr(value).lower() if isinstance(value, bool) else repr(value)
            lines.append(f'"{key}" = {shown}')
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.toml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            table = load_universal_table(path)
        except LoadError as error:
            assert "\n" not in str(error)
            return
    # A valid table answers every column with a face 2-6, never better on a worse column.
    faces = [table.minimum(c) for c in range(-12, 13)]
    assert all(2 <= f <= 6 for f in faces)
    assert faces == sorted(faces, reverse=True)
