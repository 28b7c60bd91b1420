"""Exact odds of one attack and one shot against brute force over every die face, fed to the
engine's own functions (rules.combat.roll_block / attack, rules.shooting.resolve_shot)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from odds_brute import PrefixRoller, enumerate_faces

from confrontation.dice import RaisePolicy, natural_distribution
from confrontation.odds import attack_odds, attack_stop_natural, block_odds, shot_odds
from confrontation.odds.exact import AttackRaise
from confrontation.rules.combat import (
    Allocation,
    Combatant,
    CombatState,
    DefenceChoice,
    Stats,
    attack,
    roll_block,
)
from confrontation.rules.shooting import RangeBand, resolve_shot
from confrontation.rules.wounds import WoundResult


def _brute_block(att: int, def_: int, k: int) -> dict[str, Fraction]:
    decide = AttackRaise(att, def_, k)

    def run(roller: PrefixRoller) -> str:
        test, defence = roll_block(roller, att, def_, k, decide, RaisePolicy.OPTIMAL)
        if test is not None and test.automatic_failure:
            return "failed"
        if defence is not None and defence.succeeds(test.final if test else 0):
            return "blocked"
        return "hit"

    return enumerate_faces(run)


@pytest.mark.rule("VII-C-4", "II-A-1", "II-A-2", "II-A-4")
@pytest.mark.parametrize(
    ("att", "def_", "k"),
    [(5, 3, 1), (3, 5, 1), (0, 8, 1), (-2, 3, 1), (-7, 0, 0), (2, 2, 0), (3, 5, 2), (4, 6, 3)],
)
def test_block_odds_equal_every_face_through_roll_block(att: int, def_: int, k: int) -> None:
    odds = block_odds(att, def_, k)
    brute = _brute_block(att, def_, k)
    assert brute.get("failed", 0) == odds.failed
    assert brute.get("blocked", 0) == odds.blocked
    assert brute.get("hit", 0) == odds.hit


def _one_attack_state(att: Stats, target: Stats, defence: int) -> CombatState:
    return CombatState(
        "a",
        (
            Combatant("a", "x", att, Allocation(1, 0)),
            Combatant("t", "y", target, Allocation(0, defence)),
        ),
        ("x", "y"),
    )


@pytest.mark.rule("VII-C-4", "VII-C-5", "II-B-1")
@pytest.mark.parametrize(
    ("a_stats", "t_stats", "choice"),
    [
        (Stats(3, 3, 7, 3, 7), Stats(3, 5, 8, 5, 11), DefenceChoice(1)),
        (Stats(3, 5, 8, 5, 11), Stats(3, 3, 7, 3, 7), DefenceChoice(1, True)),
        (Stats(3, -1, 4, 3, 7), Stats(3, 3, 7, 1, 4), DefenceChoice(0)),
    ],
)
def test_one_whole_attack_equals_every_face_through_the_engine(
    a_stats: Stats, t_stats: Stats, choice: DefenceChoice
) -> None:
    state = _one_attack_state(a_stats, t_stats, 1)
    def_ = t_stats.def_ - (2 if choice.sustained else 0)
    decide = AttackRaise(a_stats.att, def_, choice.dice)

    def run(roller: PrefixRoller) -> str:
        _, record = attack(roller, state, "a", "t", choice, decide, RaisePolicy.OPTIMAL)
        if record.automatic_failure:
            return "failed"
        if record.blocked:
            return "blocked"
        assert record.wound is not None
        return record.wound.result.key

    brute = enumerate_faces(run)
    exact = attack_odds(
        att=a_stats.att,
        str_=a_stats.str_,
        def_=t_stats.def_,
        res=t_stats.res,
        defence_dice=choice.dice,
        sustained=choice.sustained,
    ).outcomes()
    assert {k: v for k, v in exact.items() if v} == brute


@pytest.mark.rule("VII-C-4", "II-A-1")
@pytest.mark.parametrize(("att", "def_", "k"), [(5, 3, 1), (3, 5, 1), (0, 8, 2), (-4, 2, 1)])
def test_the_attackers_stopping_point_is_the_best_threshold(att: int, def_: int, k: int) -> None:
    # Every "raise while the natural is below t" play, scored by brute force over the faces
    # through roll_block: none gets the attack through more often than attack_stop_natural's.
    def p_through(stop: int) -> Fraction:
        def run(roller: PrefixRoller) -> bool:
            decide = RaisePolicy.OPTIMAL

            def attacker(pending, needed):  # type: ignore[no-untyped-def]
                return pending.natural < stop

            test, defence = roll_block(roller, att, def_, k, attacker, decide)
            failed = test is not None and test.automatic_failure
            blocked = defence is not None and defence.succeeds(test.final if test else 0)
            return not failed and not blocked

        return enumerate_faces(run).get(True, Fraction(0))

    best = attack_stop_natural(att, def_, k)
    scores = {stop: p_through(stop) for stop in (6, 12, 18, 24)}
    assert scores[min(best, 24)] == max(scores.values())
    assert block_odds(att, def_, k).hit == scores[min(best, 24)]


@pytest.mark.rule("VII-C-4", "II-A-2")
@given(
    att=st.integers(-8, 10),
    def_=st.integers(-4, 10),
    k=st.integers(0, 4),
)
def test_block_odds_add_up_and_more_dice_block_more(att: int, def_: int, k: int) -> None:
    odds = block_odds(att, def_, k)
    assert odds.failed + odds.blocked + odds.hit == 1
    assert min(odds.failed, odds.blocked, odds.hit) >= 0
    assert block_odds(att, def_, k + 1).hit <= odds.hit
    # the attacker's own play never does worse than never raising
    never = natural_distribution(1, RaisePolicy.NEVER)
    if k:
        from confrontation.dice import p_success

        plain = sum(
            (
                p * (1 - p_success(def_, n + att, k))
                for n, p in never.probabilities.items()
                if n + att > 0
            ),
            Fraction(0),
        )
        assert odds.hit >= plain


# --- shots -------------------------------------------------------------------------------------


@pytest.mark.rule("VI-A-3", "VI-B-2")
@pytest.mark.parametrize("unmoving", [False, True])
def test_shot_odds_equal_every_face_through_resolve_shot(unmoving: bool) -> None:
    # The Reaper example's difficulty (medium, large, partially visible: 7), AIM 3.
    odds = shot_odds(
        aim=3, aim_str=7, res=10, band=RangeBand.MEDIUM, size=3, partial=True, unmoving=unmoving
    )
    assert odds.difficulty == 7

    def run(roller: PrefixRoller) -> str:
        shot = resolve_shot(
            roller,
            aim=3,
            difficulty=7,
            aim_str=7,
            target="t",
            resistances={"t": 10},
            unmoving=unmoving,
        )
        return "miss" if shot.wound is None else f"target:{shot.wound.result.key}"

    brute = enumerate_faces(run)
    assert {k: v for k, v in odds.outcomes().items() if v} == brute


@pytest.mark.rule("VI-B-1")
def test_shot_into_a_melee_splits_hits_between_target_and_friend() -> None:
    odds = shot_odds(aim=4, aim_str=6, res=6, band=RangeBand.SHORT, friend_res=9)

    def run(roller: PrefixRoller) -> str:
        shot = resolve_shot(
            roller,
            aim=4,
            difficulty=4,
            aim_str=6,
            target="t",
            resistances={"t": 6, "f": 9},
            friends={"f": 3.0},
        )
        if shot.wound is None:
            return "miss"
        who = "target" if shot.victim == "t" else "friend"
        return f"{who}:{shot.wound.result.key}"

    assert {k: v for k, v in odds.outcomes().items() if v} == enumerate_faces(run)
    assert sum(odds.friend.values()) == sum(odds.target.values()) == odds.hit / 2


@pytest.mark.rule("VI-A-1", "VI-A-3", "VI-B-3")
def test_shot_range_from_distance_and_beyond_the_long_range() -> None:
    bow = (20.0, 40.0, 60.0)
    near = shot_odds(aim=3, aim_str=5, res=5, distance=20.0, ranges=bow)
    mid = shot_odds(aim=3, aim_str=5, res=5, distance=20.1, ranges=bow)
    assert (near.difficulty, mid.difficulty) == (4, 7)
    gone = shot_odds(aim=3, aim_str=5, res=5, distance=60.1, ranges=bow)
    assert gone.difficulty is None and gone.miss == 1
    # an assault shot: base 7 whatever the distance; Target/1 and another level add up
    assault = shot_odds(aim=3, aim_str=5, res=5, assault=True, target_bonus=1, altitude=True)
    assert assault.difficulty == 7 + 1 + 2
    assert assault.target[WoundResult.KILLED] > 0
