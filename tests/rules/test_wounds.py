"""The wound roll (II-B-1), amplified/attenuated rolls (II-B-6), the unmoving shot (VI-B-2),
wound levels (II-B-2, II-B-3), the Injury Table file, and the exact distributions."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.dice import ScriptedRoller, SeededRoller
from confrontation.rules.characteristics import HealthState
from confrontation.rules.wounds import (
    InjuryTableError,
    Location,
    WoundMode,
    WoundResult,
    apply_wound,
    default_injury_table,
    health_distribution,
    load_injury_table,
    net_mode,
    read_wound,
    roll_wound,
    wound_distribution,
    wound_odds,
)

R = WoundResult

# CLARIFICATIONS §1, copied cell by cell (rows: < 0, 0/1, 2/3, ..., 16/17, 18+).
CLARIFICATIONS_TABLE = """
none S S L L
S S L L G
S L L G C
L L G G C
L G G C K
L G C C K
G G C K K
G C C K K
G C K K K
C C K K K
C K K K K
"""
_CODE = {"none": R.NONE, "S": R.STUNNED, "L": R.LIGHT, "G": R.SERIOUS, "C": R.CRITICAL}
_CODE["K"] = R.KILLED
REFERENCE = [[_CODE[c] for c in line.split()] for line in CLARIFICATIONS_TABLE.strip().splitlines()]
SEVERITY = list(WoundResult)


def reference_read(low: int, high: int, margin: int, unmoving: bool) -> WoundResult:
    """An independent reading of CLARIFICATIONS §1 for two kept dice."""
    if low == high == 6:
        return R.KILLED
    value = high + margin
    band = 0 if value < 0 else min(value // 2 + 1, 10)
    if unmoving:
        band = min(band + 1, 10)
    return REFERENCE[band][min(low, 5) - 1]


def brute_force(margin: int, mode: WoundMode, unmoving: bool) -> dict[WoundResult, Fraction]:
    n = 2 if mode is WoundMode.NORMAL else 3
    counts: Counter[WoundResult] = Counter()
    for faces in product(range(1, 7), repeat=n):
        ordered = sorted(faces)
        low, high = ordered[-2:] if mode is WoundMode.AMPLIFIED else ordered[:2]
        counts[reference_read(low, high, margin, unmoving)] += 1
    return {r: Fraction(counts[r], 6**n) for r in WoundResult}


def at_least(dist: dict[WoundResult, Fraction], threshold: WoundResult) -> Fraction:
    return sum((p for r, p in dist.items() if r >= threshold), Fraction(0))


def dominates(a: dict[WoundResult, Fraction], b: dict[WoundResult, Fraction]) -> bool:
    """``a`` is at least as severe as ``b`` in distribution (first-order dominance)."""
    return all(at_least(a, t) >= at_least(b, t) for t in WoundResult)


modes = st.sampled_from(list(WoundMode))


# --- the table and the roll ----------------------------------------------------------


@pytest.mark.rule("II-B-1")
def test_built_in_table_is_the_clarifications_table_cell_by_cell() -> None:
    table = default_injury_table()
    assert table.labels[0] == "< 0" and table.labels[-1] == "18+"
    assert [list(line) for line in table.cells] == REFERENCE
    # Every cell reached through a roll: lowest die = column, row value = band.
    for band, value in enumerate([-1, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18]):
        for location in Location:
            high = 5 if location is Location.HEAD else 6
            wound = read_wound((location.value, high), value - high + 1, 1)
            assert wound.row == value and wound.band == band
            assert wound.result is REFERENCE[band][location - 1], (value, location)


@pytest.mark.rule("II-B-1")
@pytest.mark.parametrize(("value", "band"), [(-7, 0), (-1, 0), (0, 1), (1, 1), (17, 9), (40, 10)])
def test_row_bands(value: int, band: int) -> None:
    assert default_injury_table().band(value) == band


@pytest.mark.rule("II-B-1")
def test_dice_order_does_not_matter_and_bad_dice_are_refused() -> None:
    swapped, ordered = read_wound((5, 3), 3, 5), read_wound((3, 5), 3, 5)
    assert swapped.dice == (5, 3) and swapped.kept == ordered.kept == (3, 5)
    assert (swapped.location, swapped.row, swapped.result) == (
        ordered.location,
        ordered.row,
        ordered.result,
    )
    with pytest.raises(ValueError, match="reads 2 dice"):
        read_wound((3, 5, 1), 3, 5)
    with pytest.raises(ValueError, match="reads 3 dice"):
        read_wound((3, 5), 3, 5, WoundMode.AMPLIFIED)
    with pytest.raises(ValueError, match="1-6"):
        read_wound((0, 5), 3, 5)
    with pytest.raises(ValueError, match="RES is at least 1"):
        read_wound((3, 5), 3, 0)


@pytest.mark.rule("II-B-6")
def test_amplified_keeps_the_two_highest() -> None:
    roller = ScriptedRoller([1, 5, 3])
    wound = roll_wound(roller, 3, 5, WoundMode.AMPLIFIED)
    assert roller.rolled == 3
    assert wound.dice == (1, 5, 3) and wound.kept == (3, 5)
    assert wound.location is Location.BELLY and wound.result is R.LIGHT


@pytest.mark.rule("II-B-6")
def test_attenuated_keeps_the_two_lowest() -> None:
    wound = roll_wound(ScriptedRoller([6, 2, 4]), 6, 7, WoundMode.ATTENUATED)
    assert wound.kept == (2, 4)
    assert wound.location is Location.ARMS and wound.row == 3 and wound.result is R.LIGHT


@pytest.mark.rule("II-B-6", "II-B-1")
def test_a_kept_double_six_kills_and_a_dropped_one_does_not() -> None:
    assert read_wound((6, 1, 6), 0, 10, WoundMode.AMPLIFIED).result is R.KILLED
    dropped = read_wound((6, 1, 6), 0, 10, WoundMode.ATTENUATED)
    assert dropped.kept == (1, 6) and dropped.result is R.NONE


@pytest.mark.rule("II-B-6")
@pytest.mark.parametrize(
    ("amplified", "attenuated", "mode"),
    [
        (0, 0, WoundMode.NORMAL),
        (1, 1, WoundMode.NORMAL),
        (1, 0, WoundMode.AMPLIFIED),
        (3, 2, WoundMode.AMPLIFIED),
        (0, 1, WoundMode.ATTENUATED),
        (1, 2, WoundMode.ATTENUATED),
    ],
)
def test_amplified_and_attenuated_cancel_one_for_one(
    amplified: int, attenuated: int, mode: WoundMode
) -> None:
    assert net_mode(amplified, attenuated) is mode


@pytest.mark.rule("VI-B-2")
def test_unmoving_shot_reads_one_row_more_severe() -> None:
    # Goblin bûshi example read as an unmoving shot: belly, row 3 read as 4/5 → Serious.
    moving = read_wound((3, 5), 3, 5)
    unmoving = read_wound((3, 5), 3, 5, unmoving=True)
    assert unmoving.row == moving.row == 3
    assert (moving.label, unmoving.label) == ("2/3", "4/5")
    assert unmoving.result is R.SERIOUS
    # 18+ stays 18+: legs at 18+ is Critical, not off the table.
    top = read_wound((1, 6), 20, 1, unmoving=True)
    assert top.label == "18+" and top.result is R.CRITICAL


@pytest.mark.rule("II-B-2", "II-B-3")
def test_wound_levels_of_each_result() -> None:
    assert [r.levels for r in WoundResult] == [0, 0, 1, 2, 3, 4]
    assert apply_wound(HealthState(), R.KILLED).killed
    assert apply_wound(HealthState(3), R.NONE) == HealthState(3)
    assert apply_wound(HealthState(4), R.STUNNED) == HealthState(4)
    assert apply_wound(HealthState(1, True), R.SERIOUS) == HealthState(3, True)


@pytest.mark.rule("II-B-3")
@given(st.lists(st.sampled_from(list(WoundResult)), max_size=12))
def test_wound_levels_stay_between_zero_and_four(results: list[WoundResult]) -> None:
    health = HealthState()
    total = 0
    for result in results:
        health = apply_wound(health, result)
        total += result.levels
        assert 0 <= health.wound_levels <= 4
        assert health.wound_levels == min(total, 4)
        assert health.killed == (total >= 4)
    stunned_before_death = any(
        r is R.STUNNED and sum(x.levels for x in results[:i]) < 4 for i, r in enumerate(results)
    )
    assert health.stunned == stunned_before_death


# --- the table file ------------------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def row(label: str, result: str, low: int | None = None, **cells: str) -> str:
    lines = ["[[row]]", f'label = "{label}"']
    if low is not None:
        lines.append(f"min = {low}")
    for location in Location:
        lines.append(f'{location.key} = "{cells.get(location.key, result)}"')
    return "\n".join(lines) + "\n"


@pytest.mark.rule("II-B-1")
def test_the_package_file_is_the_default_table() -> None:
    import confrontation.data

    path = Path(confrontation.data.__file__).parent / "wound_table.toml"
    loaded = load_injury_table(path)
    assert loaded.cells == default_injury_table().cells
    assert loaded.mins[1:] == default_injury_table().mins[1:]
    assert loaded.source == str(path)
    assert load_injury_table() is default_injury_table()


@pytest.mark.rule("II-B-1")
def test_a_replaced_table_changes_the_results(tmp_path: Path) -> None:
    text = row("mild", "none") + row("harsh", "killed", 100, head="critical")
    table = load_injury_table(write(tmp_path, text))
    assert table.labels == ("mild", "harsh")
    assert read_wound((3, 5), 3, 5, table=table).result is R.NONE
    assert read_wound((5, 5), 200, 5, table=table).result is R.CRITICAL
    assert read_wound((6, 6), 0, 5, table=table).result is R.KILLED  # the rule, not the table
    dist = wound_distribution(3, 5, table=table)
    assert dist[R.NONE] == Fraction(35, 36) and dist[R.KILLED] == Fraction(1, 36)
    assert dist != wound_distribution(3, 5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[row]\n", "invalid TOML"),
        ("title = 'x'\n", "unknown key 'title'"),
        (row("a", "none"), "at least two"),
        (row("a", "none") + row("b", "deadly", 2), r"row 2: key 'legs': unknown wound result"),
        (row("a", "none", 0) + row("b", "light", 2), "row 1: key 'min'"),
        (row("a", "none") + row("b", "light"), "row 2: key 'min': expected an integer"),
        (
            row("a", "none") + row("b", "light", 4) + row("c", "light", 4),
            "row 3: key 'min': 4 must be greater",
        ),
        (
            row("a", "none") + row("b", "light", 2).replace('head = "light"\n', ""),
            "row 2: key 'head'",
        ),
        (row("a", "none") + row("b", "light", 2) + "colour = 'red'\n", "row 2: unknown key"),
    ],
)
def test_a_malformed_table_names_the_file_and_the_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InjuryTableError, match=message) as caught:
        load_injury_table(path)
    assert str(caught.value).startswith(str(path))


def test_a_missing_table_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InjuryTableError, match="cannot read"):
        load_injury_table(tmp_path / "nowhere.toml")


# --- exact distributions -------------------------------------------------------------


@pytest.mark.rule("II-B-1")
def test_a_distribution_computed_by_hand() -> None:
    # STR 4 against RES 4: killed by 6-6 (1/36) or by head 5-6 (row 6: 2/36); head 5-5
    # (row 5) is Critical; chest 4-6 (row 6) Critical.
    dist = wound_distribution(4, 4)
    assert dist[R.KILLED] == Fraction(3, 36)
    assert dist[R.NONE] == 0
    odds = wound_odds(4, 4)
    assert odds.location(Location.LEGS) == Fraction(11, 36)
    assert odds.location(Location.HEAD) == Fraction(4, 36)  # 5-5, 5-6, 6-5, 6-6
    assert odds.given(Location.HEAD) == {
        R.NONE: 0,
        R.STUNNED: 0,
        R.LIGHT: 0,
        R.SERIOUS: 0,
        R.CRITICAL: Fraction(1, 4),
        R.KILLED: Fraction(3, 4),
    }


@pytest.mark.rule("II-B-1", "II-B-6", "VI-B-2")
@pytest.mark.parametrize("mode", list(WoundMode))
@pytest.mark.parametrize("unmoving", [False, True])
@pytest.mark.parametrize("margin", [-12, -7, -4, -1, 0, 1, 3, 6, 9, 13, 20])
def test_exact_matches_brute_force_over_every_face(
    margin: int, mode: WoundMode, unmoving: bool
) -> None:
    assert wound_distribution(margin + 5, 5, mode, unmoving) == brute_force(margin, mode, unmoving)


@pytest.mark.rule("II-B-1", "II-B-6")
@pytest.mark.parametrize("mode", list(WoundMode))
def test_by_location_matches_brute_force_through_read_wound(mode: WoundMode) -> None:
    n = 2 if mode is WoundMode.NORMAL else 3
    counts: Counter[tuple[Location, WoundResult]] = Counter()
    for faces in product(range(1, 7), repeat=n):
        wound = read_wound(faces, 6, 7, mode, unmoving=True)
        counts[wound.location, wound.result] += 1
    odds = wound_odds(6, 7, mode, unmoving=True)
    for location in Location:
        for result in WoundResult:
            assert odds.probability(location, result) == Fraction(counts[location, result], 6**n)
        assert sum(odds.given(location).values()) == 1


@pytest.mark.rule("II-B-1", "II-B-6")
@pytest.mark.parametrize(
    ("strength", "resistance", "mode", "unmoving"),
    [(7, 11, WoundMode.NORMAL, False), (5, 4, WoundMode.AMPLIFIED, True)],
)
def test_monte_carlo_agrees_with_exact(
    strength: int, resistance: int, mode: WoundMode, unmoving: bool
) -> None:
    # 20,000 seeded rolls; tolerance: 5 standard errors of each frequency (plus 0.002).
    n = 20_000
    roller = SeededRoller(2024)
    counts = Counter(
        roll_wound(roller, strength, resistance, mode, unmoving).result for _ in range(n)
    )
    for result, p in wound_distribution(strength, resistance, mode, unmoving).items():
        tolerance = 5 * math.sqrt(float(p * (1 - p)) / n) + 0.002
        assert abs(counts[result] / n - float(p)) <= tolerance, result


@pytest.mark.rule("II-B-3")
def test_health_distribution() -> None:
    after = health_distribution(HealthState(2), 4, 4)
    dist = wound_distribution(4, 4)
    assert sum(after.values()) == 1
    assert after[HealthState(2, True)] == dist[R.STUNNED]
    assert after[HealthState(3)] == dist[R.LIGHT]
    assert after[HealthState(4)] == dist[R.SERIOUS] + dist[R.CRITICAL] + dist[R.KILLED]


@pytest.mark.rule("II-B-1")
def test_distributions_are_cached() -> None:
    assert wound_odds(5, 6) is wound_odds(6, 7)  # only STR - RES matters


# --- properties ----------------------------------------------------------------------


@pytest.mark.rule("II-B-1", "II-B-6")
@given(st.integers(-10, 30), st.integers(1, 20), modes, st.booleans())
def test_probabilities_sum_to_one(strength: int, resistance: int, mode: WoundMode, u: bool) -> None:
    odds = wound_odds(strength, resistance, mode, u)
    assert sum(odds.outcomes().values()) == 1
    assert sum(odds.location(loc) for loc in Location) == 1
    assert all(p >= 0 for p in odds.outcomes().values())


@pytest.mark.rule("II-B-1")
@given(st.integers(-10, 30), st.integers(1, 20), modes, st.booleans())
def test_more_strength_is_never_less_severe(
    strength: int, resistance: int, mode: WoundMode, unmoving: bool
) -> None:
    weaker = wound_distribution(strength, resistance, mode, unmoving)
    stronger = wound_distribution(strength + 1, resistance, mode, unmoving)
    assert dominates(stronger, weaker)
    tougher = wound_distribution(strength, resistance + 1, mode, unmoving)
    assert dominates(weaker, tougher)


@pytest.mark.rule("II-B-6", "VI-B-2")
@given(st.integers(-10, 30), st.integers(1, 20), st.booleans())
def test_amplified_dominates_normal_dominates_attenuated(
    strength: int, resistance: int, unmoving: bool
) -> None:
    amplified, normal, attenuated = (
        wound_distribution(strength, resistance, mode, unmoving)
        for mode in (WoundMode.AMPLIFIED, WoundMode.NORMAL, WoundMode.ATTENUATED)
    )
    assert dominates(amplified, normal)
    assert dominates(normal, attenuated)
    moving = wound_distribution(strength, resistance, WoundMode.NORMAL, False)
    assert dominates(wound_distribution(strength, resistance, WoundMode.NORMAL, True), moving)
