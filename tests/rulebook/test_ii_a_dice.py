"""Worked examples of II-A (characteristic tests) replayed with fixed dice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from confrontation.dice import (
    PendingTest,
    RaiseDecision,
    RaisePolicy,
    ScriptedRoller,
    p_success,
    raise_dialogue,
    roll_opposed,
    roll_test,
)
from confrontation.dice import TestResult as CharacteristicTest  # not collected by pytest


def play(roller: ScriptedRoller, value: int, dice: int, answers: list[bool]) -> CharacteristicTest:
    """Run the raise dialogue, answering the "raise?" questions in order; return the result."""
    steps = raise_dialogue(roller, value, dice)
    questions = 0
    try:
        next(steps)
        for answer in answers:
            questions += 1
            steps.send(answer)
    except StopIteration as done:
        assert questions == len(answers), "the test ended before every answer was used"
        assert isinstance(done.value, CharacteristicTest)
        return done.value
    raise AssertionError("the test asked more questions than scripted")


@pytest.mark.rule("II-A")
def test_initiative_test_natural_and_final_result() -> None:
    # INI 3 rolls a '4': natural 4, final 4 + 3 = 7.
    result = roll_test(ScriptedRoller([4]), 3)
    assert (result.natural, result.final, result.value) == (4, 7, 3)
    assert result.faces == (4,)
    assert not result.raised


@pytest.mark.rule("II-A-1")
def test_echahym_raises_twice_for_21() -> None:
    # ATT 5: '6', raise, '6', raise, '4' → natural 16, final 21.
    roller = ScriptedRoller([6, 6, 4])
    result = play(roller, 5, 1, [True, True])
    assert (result.natural, result.final) == (16, 21)
    assert result.faces == (6, 6, 4)
    assert result.raised
    assert roller.remaining == 0


@pytest.mark.rule("II-A-1")
def test_fianna_raise_ending_on_one_is_one() -> None:
    # ATT 3: '6', raise, '6', raise, '6', raise, '1' → natural 1, final 4.
    result = roll_test(ScriptedRoller([6, 6, 6, 1]), 3, decide=RaisePolicy.ALWAYS)
    assert (result.natural, result.final) == (1, 4)
    assert result.faces == (6, 6, 6, 1)


@pytest.mark.rule("II-A-1")
def test_raise_is_a_decision_a_six_may_be_kept() -> None:
    roller = ScriptedRoller([6, 6, 4])
    result = play(roller, 5, 1, [False])
    assert (result.natural, result.final, result.raised) == (6, 11, False)
    assert roller.remaining == 2  # nothing re-rolled


@pytest.mark.rule("II-A-2")
@pytest.mark.parametrize(("raise_faces", "natural"), [((1, 3), 9), ((1, 1), 1)])
def test_four_dice_raise_both_sixes_loses_the_others(
    raise_faces: tuple[int, int], natural: int
) -> None:
    # 4d6 '1','4','6','6'; both 6s re-rolled, the '1' and '4' lost. '1','3' → 9; '1','1' → 1.
    roller = ScriptedRoller([1, 4, 6, 6, *raise_faces])
    pending = PendingTest.roll(roller, 0, 4)
    assert (pending.natural, pending.sixes) == (6, 2)  # "could have just rolled a natural 6"
    raised = pending.raise_sixes(roller)
    assert raised.kept == ((6, raise_faces[0]), (6, raise_faces[1]))  # '1' and '4' are gone
    result = raised.stop()
    assert result.natural == natural
    assert result.faces == (1, 4, 6, 6, *raise_faces)


@pytest.mark.rule("II-A-2")
def test_several_dice_keep_one_never_add() -> None:
    result = roll_test(ScriptedRoller([2, 5, 3]), 1, 3)
    assert (result.natural, result.final) == (5, 6)


@pytest.mark.rule("II-A-3")
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_discipline_4_against_difficulty_7_needs_a_3(face: int) -> None:
    result = roll_test(ScriptedRoller([face]), 4, difficulty=7)
    assert result.succeeds(7) == (face >= 3)


@pytest.mark.rule("II-A-3")
def test_discipline_4_against_difficulty_7_odds_without_raise() -> None:
    # "at least a '3'": four faces of six.
    assert p_success(4, 7, policy=RaisePolicy.NEVER) == Fraction(4, 6)


@pytest.mark.rule("II-A-3")
def test_dirz_halberdier_beats_goblin_marauder_7_to_6() -> None:
    # Dirz INI 2 rolls '5' → 7; Goblin INI 3 rolls '3' → 6.
    result = roll_opposed(ScriptedRoller([5, 3]), 2, 3)
    assert (result.a.final, result.b.final) == (7, 6)
    assert result.a_wins
    assert len(result.rounds) == 1


@pytest.mark.rule("II-A-3")
def test_opposed_tie_is_rerolled() -> None:
    result = roll_opposed(ScriptedRoller([4, 4, 2, 5]), 3, 3)
    assert len(result.rounds) == 2
    assert (result.rounds[0][0].final, result.rounds[0][1].final) == (7, 7)
    assert not result.a_wins


@pytest.mark.rule("II-A-3")
def test_a_six_waits_for_the_enemy_result() -> None:
    # A (value 0) rolls a 6, B (value 3) a 5: A decides knowing B's 8; it needs a 9.
    seen: list[tuple[str, int | None]] = []

    def decide_a(pending: PendingTest, needed: int | None) -> bool:
        seen.append(("a", needed))
        return RaisePolicy.OPTIMAL(pending, needed)

    result = roll_opposed(ScriptedRoller([6, 5, 3]), 0, 3, decide_a=decide_a)
    assert seen == [("a", 9)]
    assert (result.a.final, result.b.final) == (9, 8)
    assert result.a_wins


@pytest.mark.rule("II-A-3")
def test_both_sixes_the_lower_final_result_decides_first() -> None:
    # A (value 1) and B (value 3) both roll a 6: A's 7 is lower than B's 9, so A decides first,
    # B waits for A's decision and its re-roll. A raises ('4' → 11); B then needs 12, raises
    # ('5' → 6 + 5 + 3 = 14) and wins.
    order: list[tuple[str, int, int | None]] = []

    def recorder(side: str) -> RaiseDecision:
        def decide(pending: PendingTest, needed: int | None) -> bool:
            order.append((side, pending.final, needed))
            return RaisePolicy.OPTIMAL(pending, needed)

        return decide

    roller = ScriptedRoller([6, 6, 4, 5])
    result = roll_opposed(roller, 1, 3, decide_a=recorder("a"), decide_b=recorder("b"))
    assert order == [("a", 7, 10), ("b", 9, 12)]
    assert (result.a.final, result.b.final) == (11, 14)
    assert not result.a_wins


@pytest.mark.rule("II-A-3")
def test_both_sixes_the_higher_result_decides_first_when_it_is_a() -> None:
    order: list[str] = []

    def recorder(side: str) -> RaiseDecision:
        def decide(pending: PendingTest, needed: int | None) -> bool:
            order.append(side)
            return RaisePolicy.OPTIMAL(pending, needed)

        return decide

    # A (value 4) 10 against B (value 2) 8: B decides first, raises ('3' → 11); A needs 12,
    # raises ('2' → 12) and wins.
    result = roll_opposed(
        ScriptedRoller([6, 6, 3, 2]), 4, 2, decide_a=recorder("a"), decide_b=recorder("b")
    )
    assert order == ["b", "a"]
    assert (result.a.final, result.b.final) == (12, 11)
    assert result.a_wins


@pytest.mark.rule("II-A-4")
def test_attack_3_with_serious_wound_scores_5() -> None:
    # ATT 3, Serious wound (−2): current value 1; a '4' gives 4 + 1 = 5.
    result = roll_test(ScriptedRoller([4]), 3 - 2)
    assert (result.value, result.final) == (1, 5)
    assert not result.automatic_failure


@pytest.mark.rule("II-A-4")
def test_attack_1_with_critical_wound_fails_automatically() -> None:
    # ATT 1, Critical wound (−3): current value −2; a '2' gives 0: failure.
    result = roll_test(ScriptedRoller([2]), 1 - 3)
    assert result.final == 0
    assert result.automatic_failure
    assert not result.succeeds(0)  # even a difficulty of 0 is failed


@pytest.mark.rule("II-A-4")
def test_wound_rolls_escape_the_automatic_failure() -> None:
    result = roll_test(ScriptedRoller([2]), -2, wound_roll=True)
    assert result.final == 0
    assert not result.automatic_failure
    assert result.succeeds(0)
