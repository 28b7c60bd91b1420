"""Chapter VI (shooting): range bands and the bow example, the difficulty and its modifiers,
the Alahan Reaper's shot of VI-A-3, the shooting test and the wound roll, the unmoving shot
(VI-B-2, CLARIFICATIONS §1), shooting into a melee (VI-B-1), assault shooting (VI-B-3), and
the exact odds of a shot against brute-force enumeration."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from fractions import Fraction
from itertools import product
from typing import NotRequired, TypedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.armylists.load import bundled_catalog
from confrontation.dice import RaisePolicy, ScriptedRoller
from confrontation.rules.characteristics import Characteristic, current_value
from confrontation.rules.charge import charge_modifiers
from confrontation.rules.shooting import (
    AssaultStep,
    RangeBand,
    ShotTarget,
    Victim,
    assault_shooting_order,
    assault_shot_difficulty,
    assault_shot_problem,
    distribution_odds,
    distribution_victims,
    may_shoot,
    melee_shot_distribution,
    p_hit,
    range_band,
    resolve_shot,
    shot_difficulty,
    shot_distribution,
    unmoving_shot,
    volley,
)
from confrontation.rules.wounds import Location, WoundResult, read_wound

BOW = (20, 40, 60)


# --- VI-A: who shoots, range ----------------------------------------------------------------


@pytest.mark.rule("VI-A")
def test_who_may_shoot() -> None:
    assert may_shoot(True, True, True)
    assert not may_shoot(False, True, True)  # no AIM / ranged weapon
    assert not may_shoot(True, False, True)  # an exclusive action this activation
    assert not may_shoot(True, True, False)  # in contact with an enemy


@pytest.mark.rule("VI-A-1", "VI-A-3")
@pytest.mark.parametrize(
    ("distance", "band"),
    [
        (0, RangeBand.SHORT),
        (20, RangeBand.SHORT),
        (20.1, RangeBand.MEDIUM),
        (40, RangeBand.MEDIUM),
        (40.1, RangeBand.LONG),
        (60, RangeBand.LONG),
        (60.1, None),
    ],
)
def test_the_bow_example(distance: float, band: RangeBand | None) -> None:
    # "The ranges of a bow are noted 20-40-60 ... impossible to hit a target at more than 60cm."
    assert range_band(distance, BOW) is band


@pytest.mark.rule("VI-A-1")
def test_out_of_range_fails_automatically_without_dice() -> None:
    roller = ScriptedRoller([6, 6, 6])
    outcome = resolve_shot(
        roller, aim=4, difficulty=None, aim_str=6, target="W", resistances={"W": 8}
    )
    assert not outcome.hit and outcome.test is None
    assert roller.rolled == 0
    assert p_hit(4, None) == 0


# --- VI-A-3: difficulty ---------------------------------------------------------------------


@pytest.mark.rule("VI-A-3")
@pytest.mark.parametrize(
    ("band", "base"), [(RangeBand.SHORT, 4), (RangeBand.MEDIUM, 7), (RangeBand.LONG, 10)]
)
def test_base_difficulty(band: RangeBand, base: int) -> None:
    assert shot_difficulty(band, ShotTarget()).total == base


@pytest.mark.rule("VI-A-3", "II-F", "V-B-4")
@pytest.mark.parametrize(
    ("target", "difficulty"),
    [
        (ShotTarget(partially_visible=True), 8),
        (ShotTarget(size=1), 7),  # small: no modifier
        (ShotTarget(size=3), 6),  # large
        (ShotTarget(size=4), 5),  # very large
        (ShotTarget(size=5), 5),  # Enormous/2: size 5, still "very large"
        (ShotTarget(other_altitude=True), 9),
        (ShotTarget(target_bonus=1), 8),  # Target/1
        (ShotTarget(in_cover=True), 9),  # moving under cover: Target/+2
        (
            ShotTarget(
                size=4, partially_visible=True, other_altitude=True, target_bonus=1, in_cover=True
            ),
            7 - 2 + 1 + 2 + 1 + 2,
        ),
    ],
)
def test_modifiers_at_medium_range(target: ShotTarget, difficulty: int) -> None:
    assert shot_difficulty(RangeBand.MEDIUM, target).total == difficulty


@pytest.mark.rule("VI-A-3")
def test_the_alahan_reaper_shoots_a_wolfen() -> None:
    # "An Alahan Reaper has just executed a walk and is about to shoot at a partially visible
    # Wolfen located at medium range (15cm). The difficulty of the shot is: 7 (medium range)
    # -1 (large target) +1 (partially visible target) = 7."
    catalog = bundled_catalog()
    reaper = catalog.profiles["alahan-reaper"]
    wolfen = catalog.profiles["wolfen-hunter"]
    assert reaper.ranges is not None
    band = range_band(15, reaper.ranges)
    assert band is RangeBand.MEDIUM
    difficulty = shot_difficulty(band, ShotTarget(size=wolfen.size_value, partially_visible=True))
    assert difficulty.total == 7
    assert difficulty.explain() == "7 - 1 (large target) + 1 (partially visible) = 7"
    # He walked, so no unmoving shot.
    assert not unmoving_shot(moved_this_activation=True, earlier_shots_this_round=0)


@pytest.mark.rule("VI-A-3", "II-B-1")
def test_the_reapers_shot_hits_and_wounds() -> None:
    # AIM 4 against 7: a '3' gives 7, a hit. Wound roll with the bow's STR 6 against the Wolfen
    # hunter's RES 8: dice '3' and '4' -> belly, row 4 + 6 - 8 = 2 ("2/3"): Light.
    roller = ScriptedRoller([3, 3, 4])
    outcome = resolve_shot(
        roller, aim=4, difficulty=7, aim_str=6, target="wolfen", resistances={"wolfen": 8}
    )
    assert roller.remaining == 0
    assert outcome.test is not None and outcome.test.final == 7
    assert outcome.hit and outcome.victim == "wolfen" and outcome.distribution is None
    assert outcome.wound is not None
    assert (outcome.wound.location, outcome.wound.row, outcome.wound.label) == (
        Location.BELLY,
        2,
        "2/3",
    )
    assert outcome.wound.result is WoundResult.LIGHT


@pytest.mark.rule("VI-A-3")
def test_a_missed_shot_rolls_no_wound() -> None:
    roller = ScriptedRoller([2])
    outcome = resolve_shot(
        roller, aim=4, difficulty=7, aim_str=6, target="wolfen", resistances={"wolfen": 8}
    )
    assert outcome.test is not None and outcome.test.final == 6
    assert not outcome.hit and outcome.wound is None


@pytest.mark.rule("VI-A-3", "V-B-3")
def test_a_charged_shooter_aims_one_worse() -> None:
    # Charge penalties include Fire (AIM): AIM 4 becomes 3, and the same '3' misses.
    aim = current_value(Characteristic.AIM, 4, charge_modifiers(Characteristic.AIM, True))
    roller = ScriptedRoller([3])
    outcome = resolve_shot(
        roller, aim=aim, difficulty=7, aim_str=6, target="w", resistances={"w": 8}
    )
    assert not outcome.hit


# --- VI-B-2: the unmoving shot --------------------------------------------------------------


@pytest.mark.rule("VI-B-2")
def test_unmoving_shot_conditions() -> None:
    assert unmoving_shot(moved_this_activation=False, earlier_shots_this_round=0)
    assert not unmoving_shot(moved_this_activation=True, earlier_shots_this_round=0)
    # "only the first of them can benefit from this bonus"
    assert not unmoving_shot(moved_this_activation=False, earlier_shots_this_round=1)


@pytest.mark.rule("VI-B-2", "II-B-1")
def test_unmoving_shot_reads_one_row_more_severe() -> None:
    # CLARIFICATIONS §1: the same '3','4' (belly, row 2 -> "2/3", Light) reads "4/5": Serious.
    roller = ScriptedRoller([3, 3, 4])
    outcome = resolve_shot(
        roller,
        aim=4,
        difficulty=7,
        aim_str=6,
        target="wolfen",
        resistances={"wolfen": 8},
        unmoving=True,
    )
    assert outcome.wound is not None
    assert outcome.wound.label == "4/5"
    assert outcome.wound.result is WoundResult.SERIOUS


@pytest.mark.rule("VI-B-2")
def test_unmoving_shot_18_plus_stays_18_plus() -> None:
    # Row 5 + 20 - 1 = 24 is "18+"; one row more severe is still "18+" (legs: Critical).
    roller = ScriptedRoller([6, 1, 5])
    outcome = resolve_shot(
        roller,
        aim=4,
        difficulty=4,
        aim_str=20,
        target="t",
        resistances={"t": 1},
        unmoving=True,
        decide=RaisePolicy.NEVER,
    )
    assert outcome.wound is not None
    assert outcome.wound.label == "18+"
    assert outcome.wound.result is WoundResult.CRITICAL


# --- VI-B-1: shooting into a melee ----------------------------------------------------------

FRIENDS = {"near": 9.5, "far": 12.0}


@pytest.mark.rule("VI-B-1")
@pytest.mark.parametrize(
    ("face", "victims"),
    [
        (1, ("near",)),
        (2, ("near",)),
        (3, ("near",)),
        (4, ("enemy",)),
        (5, ("enemy",)),
        (6, ("enemy",)),
    ],
)
def test_distribution_roll(face: int, victims: tuple[str, ...]) -> None:
    assert distribution_victims(face, "enemy", FRIENDS) == victims


@pytest.mark.rule("VI-B-1")
def test_equidistant_friends_their_controller_chooses() -> None:
    tie = {"a": 10.0, "b": 10.0, "c": 11.0}
    assert distribution_victims(1, "enemy", tie) == ("a", "b")
    roller = ScriptedRoller([5, 1, 2, 2])
    with pytest.raises(ValueError, match="controller must choose"):
        resolve_shot(
            roller, aim=4, difficulty=7, aim_str=6, target="e", resistances={}, friends=tie
        )
    outcome = resolve_shot(
        ScriptedRoller([5, 1, 2, 2]),
        aim=4,
        difficulty=7,
        aim_str=6,
        target="e",
        resistances={"a": 5, "b": 5, "e": 5},
        friends=tie,
        choose=("b",),
    )
    assert outcome.victim == "b"


@pytest.mark.rule("VI-B-1", "II-B-1")
def test_a_shot_into_a_melee_hits_the_nearest_friend() -> None:
    # Hit with a '5'; distribution '2': the nearest friend; wound '2','5' with STR 6 against
    # his RES 5: arms, row 5 + 6 - 5 = 6 ("6/7"): Serious.
    roller = ScriptedRoller([5, 2, 2, 5])
    outcome = resolve_shot(
        roller,
        aim=4,
        difficulty=7,
        aim_str=6,
        target="enemy",
        resistances={"enemy": 9, "near": 5, "far": 5},
        friends=FRIENDS,
    )
    assert roller.remaining == 0
    assert (outcome.distribution, outcome.victim) == (2, "near")
    assert outcome.wound is not None
    assert (outcome.wound.location, outcome.wound.label) == (Location.ARMS, "6/7")
    assert outcome.wound.result is WoundResult.SERIOUS


@pytest.mark.rule("VI-B-1")
def test_a_missed_shot_into_a_melee_rolls_no_distribution() -> None:
    roller = ScriptedRoller([1])
    outcome = resolve_shot(
        roller, aim=4, difficulty=7, aim_str=6, target="e", resistances={}, friends=FRIENDS
    )
    assert roller.remaining == 0 and outcome.distribution is None


@pytest.mark.rule("VI-B-1")
def test_distribution_odds_are_even() -> None:
    assert distribution_odds() == {Victim.TARGET: Fraction(1, 2), Victim.FRIEND: Fraction(1, 2)}


# --- VI-B-3: assault shooting ---------------------------------------------------------------


@pytest.mark.rule("VI-B-3")
def test_assault_shooting_order() -> None:
    assert assault_shooting_order(charger_courage=True, target_courage=True) == (
        AssaultStep.SIGHT_AT_START,
        AssaultStep.AIM_AT_ASSAULT_TARGET,
        AssaultStep.MEASURE,
        AssaultStep.CHARGER_COURAGE,
        AssaultStep.SHOOT,
        AssaultStep.TARGET_COURAGE,
        AssaultStep.MOVE,
    )
    assert assault_shooting_order() == (
        AssaultStep.SIGHT_AT_START,
        AssaultStep.AIM_AT_ASSAULT_TARGET,
        AssaultStep.MEASURE,
        AssaultStep.SHOOT,
        AssaultStep.MOVE,
    )


@pytest.mark.rule("VI-B-3")
def test_assault_shot_base_difficulty_is_7_whatever_the_range() -> None:
    assert assault_shot_difficulty(ShotTarget()).total == 7
    assert assault_shot_difficulty(ShotTarget(size=3, partially_visible=True)).total == 7
    assert assault_shot_difficulty(ShotTarget(size=3)).total == 6


class AssaultShot(TypedDict):
    """The keyword arguments of ``assault_shot_problem``."""

    sees_target_at_start: bool
    aimed_at_assault_target: bool
    distance: float
    potential: float
    courage_failed: NotRequired[bool]
    shots_this_assault: NotRequired[int]
    target_eliminated: NotRequired[bool]


class AssaultShotChange(TypedDict, total=False):
    """Some of ``assault_shot_problem``'s keyword arguments, to change."""

    sees_target_at_start: bool
    aimed_at_assault_target: bool
    distance: float
    potential: float
    courage_failed: bool
    shots_this_assault: int
    target_eliminated: bool


@pytest.mark.rule("VI-B-3")
def test_when_an_assault_shot_is_not_fired() -> None:
    ok: AssaultShot = {
        "sees_target_at_start": True,
        "aimed_at_assault_target": True,
        "distance": 18.0,
        "potential": 20.0,
    }
    assert assault_shot_problem(**ok) is None
    # Beyond the weapon's range (a bow 5-10-15) but within the charge: still fired.
    assert range_band(18, (5, 10, 15)) is None
    cases: list[tuple[AssaultShotChange, str]] = [
        ({"sees_target_at_start": False}, "line of sight"),
        ({"aimed_at_assault_target": False}, "target of the assault"),
        ({"distance": 20.5}, "beyond the reach"),
        ({"courage_failed": True}, "Courage"),
        ({"shots_this_assault": 1}, "only one shot"),
        ({"target_eliminated": True}, "lost"),
    ]
    for change, reason in cases:
        shot: AssaultShot = {**ok, **change}
        problem = assault_shot_problem(**shot)
        assert problem is not None and reason in problem


@pytest.mark.rule("VI-B-3")
def test_simultaneous_assault_shots() -> None:
    assert volley(["a", "b", "c"], None) == (("a", "b", "c"), ())
    # The target dies to b's shot: c's shot is lost (c may redirect his assault).
    assert volley(["a", "b", "c"], 1) == (("a", "b"), ("c",))


# --- exact odds ------------------------------------------------------------------------------


@pytest.mark.rule("VI-A-3")
def test_p_hit_by_hand() -> None:
    assert p_hit(4, 7) == Fraction(4, 6)  # a natural 3+
    assert p_hit(4, 10) == Fraction(1, 6)  # a 6
    assert p_hit(4, 11) == Fraction(1, 6) * Fraction(5, 6)  # a 6, then 2-6 (a 1 makes it 1)
    assert p_hit(4, 4) == 1  # even a natural 1 gives 1 + 4 = 5 >= 4
    assert p_hit(2, 4) == Fraction(5, 6)  # 1 + 2 = 3 < 4: five faces in six


def _brute_force(
    aim: int, difficulty: int, aim_str: int, res: int, unmoving: bool
) -> dict[WoundResult | None, Fraction]:
    """Enumerate the test die, a possible raise die, and both wound dice (6^4 equal cases);
    the player raises a 6 only while short of the difficulty."""
    out: dict[WoundResult | None, Fraction] = defaultdict(Fraction)
    weight = Fraction(1, 6**4)
    for first, second, w1, w2 in product(range(1, 7), repeat=4):
        natural = first
        if first == 6 and 6 + aim < difficulty:
            natural = 1 if second == 1 else 6 + second
        if natural + aim >= max(difficulty, 1):
            out[read_wound((w1, w2), aim_str, res, unmoving=unmoving).result] += weight
        else:
            out[None] += weight
    return out


@pytest.mark.rule("VI-A-3", "VI-B-2")
@pytest.mark.parametrize(
    ("aim", "difficulty", "aim_str", "res", "unmoving"),
    [(4, 7, 6, 8, False), (4, 7, 6, 8, True), (3, 10, 5, 5, False), (4, 11, 7, 6, True)],
)
def test_shot_distribution_against_brute_force(
    aim: int, difficulty: int, aim_str: int, res: int, unmoving: bool
) -> None:
    exact = shot_distribution(aim, difficulty, aim_str, res, unmoving=unmoving)
    brute = _brute_force(aim, difficulty, aim_str, res, unmoving)
    assert {k: v for k, v in exact.items() if v} == dict(brute)


@pytest.mark.rule("VI-B-1")
def test_melee_shot_distribution_against_enumeration() -> None:
    exact = melee_shot_distribution(4, 7, 6, target_resistance=9, friend_resistance=5)
    brute: dict[tuple[Victim, WoundResult] | None, Fraction] = defaultdict(Fraction)
    weight = Fraction(1, 6**4)
    for test, spread, w1, w2 in product(range(1, 7), repeat=4):
        if test + 4 < 7:
            brute[None] += weight
            continue
        victim, res = (Victim.TARGET, 9) if spread >= 4 else (Victim.FRIEND, 5)
        brute[(victim, read_wound((w1, w2), 6, res).result)] += weight
    assert {k: v for k, v in exact.items() if v} == dict(brute)


# --- properties ------------------------------------------------------------------------------

targets = st.builds(
    ShotTarget,
    size=st.integers(1, 7),
    partially_visible=st.booleans(),
    other_altitude=st.booleans(),
    target_bonus=st.integers(0, 4),
    in_cover=st.booleans(),
)


@pytest.mark.rule("VI-A-3")
@given(band=st.sampled_from(RangeBand), target=targets)
def test_difficulty_never_below_the_band_but_for_size(band: RangeBand, target: ShotTarget) -> None:
    base = shot_difficulty(band, ShotTarget()).total
    total = shot_difficulty(band, target).total
    assert total >= base - 2
    if target.size <= 2:
        assert total >= base


@pytest.mark.rule("VI-A-3")
@given(band=st.sampled_from(RangeBand), target=targets)
def test_more_cover_is_never_easier(band: RangeBand, target: ShotTarget) -> None:
    total = shot_difficulty(band, target).total
    for harder in (
        replace(target, partially_visible=True),
        replace(target, in_cover=True),
        replace(target, other_altitude=True),
        replace(target, target_bonus=target.target_bonus + 1),
    ):
        assert shot_difficulty(band, harder).total >= total


@pytest.mark.rule("VI-A-1", "VI-A-3")
@given(a=st.floats(0, 100), b=st.floats(0, 100))
def test_farther_is_never_a_shorter_band(a: float, b: float) -> None:
    order = [RangeBand.SHORT, RangeBand.MEDIUM, RangeBand.LONG, None]
    near, far = sorted((a, b))
    assert order.index(range_band(near, BOW)) <= order.index(range_band(far, BOW))


@pytest.mark.rule("VI-A-3", "VI-B-1")
@given(
    aim=st.integers(-2, 8),
    difficulty=st.one_of(st.none(), st.integers(2, 16)),
    aim_str=st.integers(0, 14),
    res=st.integers(1, 14),
    unmoving=st.booleans(),
)
def test_distributions_sum_to_one(
    aim: int, difficulty: int | None, aim_str: int, res: int, unmoving: bool
) -> None:
    assert sum(shot_distribution(aim, difficulty, aim_str, res, unmoving=unmoving).values()) == 1
    melee = melee_shot_distribution(aim, difficulty, aim_str, res, res, unmoving=unmoving)
    assert sum(melee.values()) == 1


@pytest.mark.rule("VI-A-3")
@given(aim=st.integers(-2, 8), difficulty=st.integers(1, 16))
def test_a_harder_shot_never_hits_more(aim: int, difficulty: int) -> None:
    assert p_hit(aim, difficulty + 1) <= p_hit(aim, difficulty)
