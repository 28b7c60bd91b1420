"""Six-sided dice (II-A): rollers, characteristic tests, raises, opposed tests, exact odds.

Every die in the project is rolled through a :class:`Roller`. Two implementations share
the interface: :class:`SeededRoller` (reproducible pseudo-random faces) and
:class:`ScriptedRoller` (fixed faces, for rulebook examples and tests). Nothing else in
the project may call :mod:`random`.
"""

from __future__ import annotations

import enum
import random
from collections import defaultdict
from collections.abc import Callable, Generator, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from typing import Protocol, TypeVar, runtime_checkable

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


class DiceScriptExhausted(RuntimeError):
    """A :class:`ScriptedRoller` was asked for more dice than its script holds."""


@runtime_checkable
class Roller(Protocol):
    """Source of d6 faces. ``rolled`` counts the dice thrown so far (the stream position)."""

    @property
    def rolled(self) -> int: ...

    def d6(self) -> int:
        """Roll one six-sided die and return its face (1-6)."""
        ...


class SeededRoller:
    """Reproducible d6 stream: the same seed gives the same faces, in the same order."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._rolled = 0

    @property
    def rolled(self) -> int:
        return self._rolled

    def d6(self) -> int:
        self._rolled += 1
        return self._rng.randint(1, 6)

    @classmethod
    def keyed(cls, seed: int, key: str) -> SeededRoller:
        """A stream that depends only on ``seed`` and ``key`` (any text).

        Common random numbers: two imagined games that name the same die alike — "the 2nd
        attack test of p1-c2-1" — roll it alike, whatever happened before it."""
        roller = cls(seed)
        roller._rng = random.Random(f"{seed}/{key}")
        return roller

    @classmethod
    def at(cls, seed: int, position: int) -> SeededRoller:
        """A roller for ``seed`` that has already thrown ``position`` dice (resume a stream)."""
        roller = cls(seed)
        for _ in range(position):
            roller.d6()
        return roller


class ScriptedRoller:
    """Fixed faces in order, e.g. ``ScriptedRoller([6, 6, 4])`` for the Echahÿm example."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        for face in self._faces:
            if face not in FACES:
                raise ValueError(f"a d6 face must be 1-6, not {face!r}")
        self._rolled = 0

    @property
    def rolled(self) -> int:
        return self._rolled

    @property
    def remaining(self) -> int:
        """Faces not yet used."""
        return len(self._faces) - self._rolled

    def d6(self) -> int:
        if self._rolled >= len(self._faces):
            raise DiceScriptExhausted(
                f"the script of {len(self._faces)} dice is used up (die {self._rolled + 1} asked)"
            )
        face = self._faces[self._rolled]
        self._rolled += 1
        return face


# ---------------------------------------------------------------------------------------------
# Characteristic tests (II-A, II-A-1, II-A-2, II-A-4)
# ---------------------------------------------------------------------------------------------


def chain_natural(chain: tuple[int, ...]) -> int:
    """Natural result of one die and its raises (II-A-1).

    Only a 6 is re-rolled, so every face but the last is a 6. The faces add up, except that a
    re-roll showing 1 makes the whole natural result 1 (the Fianna example: 6-6-6-1 → 1).
    """
    return 1 if chain[-1] == 1 else sum(chain)


@dataclass(frozen=True)
class TestResult:
    """A finished characteristic test (II-A).

    ``natural`` is the kept die's natural result, ``value`` the current value of the
    characteristic (II-A-4), ``final`` their sum. ``faces`` are all the faces rolled, in order,
    including dice lost to a raise (II-A-2). ``wound_roll`` switches off the automatic failure
    of a final result ≤ 0 (II-A-4).
    """

    __test__ = False  # not a pytest class

    natural: int
    final: int
    value: int
    faces: tuple[int, ...]
    raised: bool
    wound_roll: bool = False

    @property
    def automatic_failure(self) -> bool:
        """II-A-4: a final result ≤ 0 fails, except on a wound roll."""
        return self.final <= 0 and not self.wound_roll

    def succeeds(self, difficulty: int) -> bool:
        """II-A-3 1): success when the final result is at least the difficulty."""
        return not self.automatic_failure and self.final >= difficulty


@dataclass(frozen=True)
class PendingTest:
    """A characteristic test whose dice are on the table and that may still be raised.

    Immutable: :meth:`raise_sixes` returns a new pending test, :meth:`stop` the result. The
    engine keeps one in its state while it asks the player "raise this 6?".

    ``kept`` holds the chains of faces of the dice still in play (II-A-2: a raise loses every
    die that is not re-rolled); ``faces`` every face rolled so far, in order.
    """

    value: int
    kept: tuple[tuple[int, ...], ...]
    faces: tuple[int, ...]
    raised: bool = False
    wound_roll: bool = False

    @classmethod
    def roll(
        cls, roller: Roller, value: int, dice: int = 1, *, wound_roll: bool = False
    ) -> PendingTest:
        """II-A, II-A-2: roll ``dice`` d6 for a test of a characteristic worth ``value``."""
        if dice < 1:
            raise ValueError(f"a test rolls at least one die, not {dice}")
        faces = tuple(roller.d6() for _ in range(dice))
        return cls(value, tuple((f,) for f in faces), faces, False, wound_roll)

    @property
    def sixes(self) -> int:
        """How many kept dice show a 6 on their last roll: the dice a raise would re-roll."""
        return sum(1 for chain in self.kept if chain[-1] == 6)

    @property
    def can_raise(self) -> bool:
        """II-A-1: a natural 6 may be re-rolled."""
        return self.sixes > 0

    @property
    def natural(self) -> int:
        """The natural result if the player stops now: the best kept die (II-A-2)."""
        return max(chain_natural(chain) for chain in self.kept)

    @property
    def final(self) -> int:
        """The final result if the player stops now."""
        return self.natural + self.value

    def raise_sixes(self, roller: Roller) -> PendingTest:
        """Re-roll every die showing a 6 and lose the others (II-A-1, II-A-2, CLARIFICATIONS §2)."""
        if not self.can_raise:
            raise ValueError("no die shows a 6: nothing to raise")
        kept = []
        faces = list(self.faces)
        for chain in self.kept:
            if chain[-1] == 6:
                face = roller.d6()
                faces.append(face)
                kept.append((*chain, face))
        return replace(self, kept=tuple(kept), faces=tuple(faces), raised=True)

    def stop(self) -> TestResult:
        """Keep the best die: the test is over."""
        return TestResult(
            self.natural, self.final, self.value, self.faces, self.raised, self.wound_roll
        )


def needed_final(difficulty: int, *, wound_roll: bool = False) -> int:
    """The lowest final result that succeeds against ``difficulty`` (II-A-3, II-A-4)."""
    return difficulty if wound_roll else max(difficulty, 1)


class RaisePolicy(enum.Enum):
    """Convenience answers to "raise this 6?".

    ``OPTIMAL`` raises while the test still falls short of the known target (the final result
    ``needed``): a stopped failing test is lost for sure, a raise may still save it, and once the
    target is reached a further raise could only lose it (a re-roll showing 1). ``NEVER`` and
    ``ALWAYS`` are what their names say (neutral fighters always raise: XX-E-3).
    """

    OPTIMAL = "optimal"
    NEVER = "never"
    ALWAYS = "always"

    def __call__(self, pending: PendingTest, needed: int | None) -> bool:
        if self is RaisePolicy.NEVER:
            return False
        if self is RaisePolicy.ALWAYS:
            return True
        if needed is None:
            raise ValueError("the optimal policy needs a target to aim at")
        return pending.final < needed


RaiseDecision = Callable[[PendingTest, int | None], bool]
"""``decide(pending, needed) -> raise?``; ``needed`` is the final result that would be enough
(``None`` when unknown). A :class:`RaisePolicy` is one; the engine's question to a player is
another."""


def raise_dialogue(
    roller: Roller, value: int, dice: int = 1, *, wound_roll: bool = False
) -> Generator[PendingTest, bool, TestResult]:
    """The test as a dialogue: yields each pending test that can be raised; send ``True`` to
    raise, ``False`` to stop. Returns (``StopIteration.value``) the :class:`TestResult`."""
    pending = PendingTest.roll(roller, value, dice, wound_roll=wound_roll)
    while pending.can_raise:
        if not (yield pending):
            break
        pending = pending.raise_sixes(roller)
    return pending.stop()


def finish_test(
    roller: Roller, pending: PendingTest, decide: RaiseDecision, needed: int | None
) -> TestResult:
    """Ask ``decide`` at every 6 until the player stops or no 6 is left."""
    while pending.can_raise and decide(pending, needed):
        pending = pending.raise_sixes(roller)
    return pending.stop()


def roll_test(
    roller: Roller,
    value: int,
    dice: int = 1,
    *,
    difficulty: int | None = None,
    decide: RaiseDecision = RaisePolicy.NEVER,
    wound_roll: bool = False,
) -> TestResult:
    """Roll a whole characteristic test (II-A); ``difficulty`` tells the decision its target."""
    pending = PendingTest.roll(roller, value, dice, wound_roll=wound_roll)
    needed = None if difficulty is None else needed_final(difficulty, wound_roll=wound_roll)
    return finish_test(roller, pending, decide, needed)


# ---------------------------------------------------------------------------------------------
# Opposed tests (II-A-3)
# ---------------------------------------------------------------------------------------------


def standing(final: int) -> int:
    """What a final result is worth in an opposed test: every result ≤ 0 is an automatic
    failure (II-A-4), so they all count as 0: a side that fails loses to a side that does not,
    two failures are a tie, rolled again (CLARIFICATIONS §9)."""
    return max(final, 0)


@dataclass(frozen=True)
class OpposedResult:
    """An opposed test (II-A-3): every round rolled (ties are re-rolled) and the winner."""

    rounds: tuple[tuple[TestResult, TestResult], ...]

    @property
    def a(self) -> TestResult:
        return self.rounds[-1][0]

    @property
    def b(self) -> TestResult:
        return self.rounds[-1][1]

    @property
    def a_wins(self) -> bool:
        return standing(self.a.final) > standing(self.b.final)


S = TypeVar("S", bound=Hashable)


def rank_opposed(finals: Mapping[S, int]) -> tuple[tuple[S, ...], ...]:
    """The sides of an opposed test by decreasing result, tied sides grouped (II-A-3; several
    sides: XX-F-5). Results ≤ 0 all count as 0 (:func:`standing`, CLARIFICATIONS §9). A group
    of more than one side is a tie: those sides roll again among themselves. The one rule of
    every opposed roll: Tactics roll, Discipline, Authority, initiative."""
    groups: dict[int, list[S]] = {}
    for side, final in finals.items():
        groups.setdefault(standing(final), []).append(side)
    return tuple(tuple(groups[key]) for key in sorted(groups, reverse=True))


def first_to_decide(raisers: Mapping[S, int]) -> tuple[S, ...]:
    """II-A-3: of the sides showing a 6 that may be raised (side → current final result), the
    one with the lower result decides first whether to raise. Several sides returned: their
    results are equal (as :func:`standing` counts them) and a roll-off orders them
    (CLARIFICATIONS §9: :class:`RollOff`)."""
    if not raisers:
        return ()
    low = min(standing(f) for f in raisers.values())
    return tuple(side for side, f in raisers.items() if standing(f) == low)


@dataclass(frozen=True)
class RollOff:
    """A roll-off (II-A-3, CLARIFICATIONS §9): sides showing a 6 with equal final results
    each roll a d6, again until the faces differ; the lower face decides first whether to
    raise, as if it were the lower result. It orders the decisions only.

    ``sides`` (in rolling order), ``finals`` their final results when it began (it orders
    them while those results stand), ``faces`` each side's roll-off faces so far. With three
    sides or more, sides whose faces are equal roll again among themselves (the others keep
    their place), so the faces give a full order.
    """

    sides: tuple[int, ...]
    finals: tuple[int, ...]
    faces: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def between(cls, finals: Mapping[int, int]) -> RollOff:
        """A new roll-off between the sides of ``finals`` (side → its current final result)."""
        if len(finals) < 2:
            raise ValueError("a roll-off needs two sides or more")
        return cls(tuple(finals), tuple(finals.values()), ((),) * len(finals))

    @property
    def due(self) -> int | None:
        """The side whose die is due now, or None once the order is settled.

        A side rolls while its faces so far are a prefix of (or equal to) another side's:
        the shortest such first, then by rolling order."""
        waiting = [
            (len(mine), i)
            for i, mine in enumerate(self.faces)
            if any(j != i and theirs[: len(mine)] == mine for j, theirs in enumerate(self.faces))
        ]
        return self.sides[min(waiting)[1]] if waiting else None

    def add(self, face: int) -> RollOff:
        """The due side's die shows ``face``."""
        side = self.due
        if side is None:
            raise ValueError("the roll-off is settled")
        at = self.sides.index(side)
        faces = list(self.faces)
        faces[at] = (*faces[at], face)
        return replace(self, faces=tuple(faces))

    @property
    def order(self) -> tuple[int, ...]:
        """The sides, the one deciding first first (the lower faces, compared in turn)."""
        if self.due is not None:
            raise ValueError("the roll-off is not settled")
        ranked = sorted(range(len(self.sides)), key=lambda i: self.faces[i])
        return tuple(self.sides[i] for i in ranked)

    def covers(self, tied: Mapping[int, int]) -> bool:
        """This roll-off orders ``tied`` (side → current final): every one of them took part
        and still has the final result it had then."""
        finals = dict(zip(self.sides, self.finals, strict=True))
        return all(side in finals and finals[side] == f for side, f in tied.items())


def next_decider(raisers: Mapping[int, int], rolloff: RollOff | None) -> int | RollOff | None:
    """Who decides now whether to raise a 6 (II-A-3, CLARIFICATIONS §9).

    ``raisers``: side → current final result of every side showing a 6 it may still raise;
    ``rolloff``: the roll-off of this test so far, if any. Returns None when nobody may raise,
    the side deciding now, or a :class:`RollOff` whose next die is due (a new one, or the one
    under way): the caller keeps it and asks for ``rolloff_die``.
    """
    tied = first_to_decide(raisers)
    if not tied:
        return None
    if len(tied) == 1:
        return tied[0]
    finals = {side: raisers[side] for side in tied}
    if rolloff is None or not rolloff.covers(finals):
        return RollOff.between(finals)
    if rolloff.due is not None:
        return rolloff
    return next(side for side in rolloff.order if side in finals)


def roll_off(roller: Roller, sides: int = 2) -> tuple[int, ...]:
    """Roll a :class:`RollOff` between ``sides`` sides (numbered 0…) with ``roller``: the
    sides in the order they decide (CLARIFICATIONS §9). Two sides: ``(0, 1)`` when A's face
    is lower, A deciding first."""
    off = RollOff(tuple(range(sides)), (0,) * sides, ((),) * sides)
    while off.due is not None:
        off = off.add(roller.d6())
    return off.order


def roll_opposed_round(
    roller: Roller,
    a_value: int,
    b_value: int,
    dice_a: int = 1,
    dice_b: int = 1,
    *,
    decide_a: RaiseDecision = RaisePolicy.OPTIMAL,
    decide_b: RaiseDecision = RaisePolicy.OPTIMAL,
) -> tuple[TestResult, TestResult]:
    """One round of an opposed test (II-A-3); A rolls its dice before B.

    A side with a 6 waits for the other side's result, so its decision is told
    ``needed`` = the other side's standing + 1. When both show a 6 the lower final result
    decides first (against the other's current result), then the other answers knowing it;
    equal final results (as :func:`standing` counts them) are settled by :func:`roll_off`
    (:func:`first_to_decide`, CLARIFICATIONS §9).
    """
    a = PendingTest.roll(roller, a_value, dice_a)
    b = PendingTest.roll(roller, b_value, dice_b)
    if a.can_raise and b.can_raise:
        first = first_to_decide({0: a.final, 1: b.final})
        if len(first) > 1:
            first = roll_off(roller)
        if first[0] == 0:
            ra = finish_test(roller, a, decide_a, standing(b.final) + 1)
            rb = finish_test(roller, b, decide_b, standing(ra.final) + 1)
        else:
            rb = finish_test(roller, b, decide_b, standing(a.final) + 1)
            ra = finish_test(roller, a, decide_a, standing(rb.final) + 1)
    elif a.can_raise:
        rb = b.stop()
        ra = finish_test(roller, a, decide_a, standing(rb.final) + 1)
    else:
        ra = a.stop()
        rb = finish_test(roller, b, decide_b, standing(ra.final) + 1)
    return ra, rb


def roll_opposed(
    roller: Roller,
    a_value: int,
    b_value: int,
    dice_a: int = 1,
    dice_b: int = 1,
    *,
    decide_a: RaiseDecision = RaisePolicy.OPTIMAL,
    decide_b: RaiseDecision = RaisePolicy.OPTIMAL,
) -> OpposedResult:
    """Roll an opposed test (II-A-3): rounds of :func:`roll_opposed_round` until the tie is
    broken (equal standings are re-rolled)."""
    rounds: list[tuple[TestResult, TestResult]] = []
    while True:
        ra, rb = roll_opposed_round(
            roller, a_value, b_value, dice_a, dice_b, decide_a=decide_a, decide_b=decide_b
        )
        rounds.append((ra, rb))
        if standing(ra.final) != standing(rb.final):
            return OpposedResult(tuple(rounds))


# ---------------------------------------------------------------------------------------------
# Exact distributions
# ---------------------------------------------------------------------------------------------
#
# A test is a chain of rolls. Rolling k dice from a base b (b = 0 for the first roll, b = 6, 12,
# … after raises) ends in one of two ways:
#   * no die shows a 6: the test lands on b + m, m the best face (II-A-2), or on 1 when every
#     face is a 1 (II-A-1: a re-roll showing 1 makes the whole natural result 1; with b = 0 a
#     natural 1 is just 1, so one formula serves both);
#   * j ≥ 1 dice show a 6: a decision state (b + 6, j). Stopping gives the natural b + 6 (the
#     6s are the best dice); raising re-rolls those j dice from base b + 6 and loses the others.
# So a whole test is a Markov chain on (base, live dice) and only the number of 6s and the best
# other face of each roll matter.
#
# A policy that stops once the natural reaches a target t ("optimal") gives a finite chain: the
# base grows by 6 at each raise, so after ⌈t / 6⌉ raises every decision is a stop. "Never" is
# the target 0. "Always" never stops: its 6-chains are unbounded, but each decision state is the
# same problem shifted by 6, so the chance that an endless run of raises ends on a 1 has a closed
# form (:func:`p_ends_on_one`), and everything above a cap is one exact tail mass.


@cache
def _roll_outcomes(
    k: int,
) -> tuple[tuple[tuple[int, Fraction], ...], tuple[tuple[int, Fraction], ...]]:
    """Rolling k dice: ((best face m, p) with no 6, for m = 1..5), ((j sixes, p) for j ≥ 1)."""
    total = 6**k
    landings = tuple((m, Fraction(m**k - (m - 1) ** k, total)) for m in range(1, 6))
    sixes = tuple((j, Fraction(comb(k, j) * 5 ** (k - j), total)) for j in range(1, k + 1))
    return landings, sixes


def _landing(base: int, best: int) -> int:
    """Natural result when no die shows a 6: base + best face, or 1 on a 1 (II-A-1)."""
    return 1 if best == 1 else base + best


@cache
def p_ends_on_one(dice: int) -> Fraction:
    """P(a test that always raises ends with natural 1), starting by rolling ``dice`` dice.

    With q_k = that chance for k dice: q_k = P(all k show 1) + Σ_{j≥1} P(j sixes) · q_j (the
    other dice are lost, the j sixes go on). The j = k term holds q_k itself (all 6s, chance
    6⁻ᵏ), so q_k = (6⁻ᵏ + Σ_{1≤j<k} P(j sixes) q_j) / (1 − 6⁻ᵏ). For one die: 1/5.
    The base does not matter: a 1 is a 1 whatever was added before.
    """
    landings, sixes = _roll_outcomes(dice)
    rest = sum((p * p_ends_on_one(j) for j, p in sixes if j < dice), Fraction(0))
    all_ones = landings[0][1]
    all_sixes = sixes[-1][1]
    return (all_ones + rest) / (1 - all_sixes)


def _chain(
    base: int, live: Mapping[int, Fraction], target: int | None, cap: int
) -> tuple[dict[int, Fraction], Fraction, int]:
    """Roll the chain from ``base`` with ``live[k]`` = P(rolling k dice now).

    Decision states stop once their natural reaches ``target``; with ``target`` None the chain
    always raises and every decision state above ``cap`` is summed up in closed form.
    Returns (exact natural → p, tail mass, tail_from): the tail is P(natural ≥ tail_from) and
    is not itemised; every natural below tail_from is itemised exactly.
    """
    dist: defaultdict[int, Fraction] = defaultdict(Fraction)
    tail = Fraction(0)
    tail_from = 0
    frontier = dict(live)
    while frontier:
        raised: defaultdict[int, Fraction] = defaultdict(Fraction)
        for k, p in frontier.items():
            landings, sixes = _roll_outcomes(k)
            for m, q in landings:
                dist[_landing(base, m)] += p * q
            for j, q in sixes:
                raised[j] += p * q
        base += 6
        frontier = {}
        for j, p in raised.items():
            if target is not None and base >= target:
                dist[base] += p  # stop: the target is reached
            elif target is None and base > cap:
                one = p_ends_on_one(j)  # every landing from here is 1 or ≥ base + 2
                dist[1] += p * one
                tail += p * (1 - one)
                tail_from = base + 2
            else:
                frontier[j] = p
    return dict(dist), tail, tail_from


@dataclass(frozen=True)
class ResultDistribution:
    """Exact distribution of a test's result (natural or final).

    ``probabilities[x]`` is exact for every x below ``tail_from``; ``tail`` is P(result ≥
    ``tail_from``), lumped because endless raises have no largest result (0 when finite).
    """

    probabilities: Mapping[int, Fraction]
    tail: Fraction = Fraction(0)
    tail_from: int | None = None

    def total(self) -> Fraction:
        """Always 1 (a check)."""
        return sum(self.probabilities.values(), Fraction(0)) + self.tail

    def at_least(self, x: int) -> Fraction:
        """P(result ≥ x), exact (the tail must not start above x)."""
        if self.tail and self.tail_from is not None and x > self.tail_from:
            raise ValueError(f"results from {self.tail_from} are not itemised; raise the cap")
        listed = sum((p for r, p in self.probabilities.items() if r >= x), Fraction(0))
        return listed + self.tail

    def shifted(self, by: int) -> ResultDistribution:
        """The same distribution with ``by`` added to every result (natural → final)."""
        return ResultDistribution(
            {r + by: p for r, p in self.probabilities.items()},
            self.tail,
            None if self.tail_from is None else self.tail_from + by,
        )


def _stop_target(policy: RaisePolicy, target: int | None) -> int | None:
    if policy is RaisePolicy.NEVER:
        return 0
    if policy is RaisePolicy.ALWAYS:
        return None
    if target is None:
        raise ValueError("the optimal policy needs a target to aim at")
    return target


def natural_distribution(
    dice: int = 1,
    policy: RaisePolicy = RaisePolicy.NEVER,
    *,
    target: int | None = None,
    cap: int = 36,
) -> ResultDistribution:
    """Exact distribution of the natural result of a test rolling ``dice`` d6 (II-A-1, II-A-2).

    ``OPTIMAL`` raises while the natural is below ``target``; ``ALWAYS`` itemises naturals up
    to about ``cap`` and lumps the rest in the tail.
    """
    if dice < 1:
        raise ValueError(f"a test rolls at least one die, not {dice}")
    stop = _stop_target(policy, target)
    items, tail, tail_from = _natural_chain(dice, stop, cap if stop is None else 0)
    return ResultDistribution(dict(items), tail, tail_from if tail else None)


@cache
def _natural_chain(
    dice: int, stop: int | None, cap: int
) -> tuple[tuple[tuple[int, Fraction], ...], Fraction, int]:
    """:func:`_chain` from ``dice`` dice, kept per (dice, stop, cap): a test's natural
    distribution is asked again and again by the agents' odds (≈ 1,200 a greedy game, a few
    dozen distinct). ``cap`` only matters when the chain never stops (``stop`` None)."""
    dist, tail, tail_from = _chain(0, {dice: Fraction(1)}, stop, cap)
    return tuple(dist.items()), tail, tail_from


def final_distribution(
    value: int,
    dice: int = 1,
    policy: RaisePolicy = RaisePolicy.NEVER,
    *,
    difficulty: int | None = None,
    cap: int = 36,
) -> ResultDistribution:
    """Exact distribution of the final result (natural + ``value``, II-A); ``OPTIMAL`` aims at
    ``difficulty``; ``cap`` bounds the itemised naturals of ``ALWAYS``."""
    target = None if difficulty is None else needed_final(difficulty) - value
    return natural_distribution(dice, policy, target=target, cap=cap).shifted(value)


def p_success(
    value: int,
    difficulty: int,
    dice: int = 1,
    policy: RaisePolicy = RaisePolicy.OPTIMAL,
) -> Fraction:
    """P(a test of ``value`` with ``dice`` d6 succeeds against ``difficulty``) (II-A-3 1).

    Success needs a final result ≥ the difficulty and > 0 (II-A-4), i.e. a natural result ≥
    n = max(difficulty, 1) − value. ``OPTIMAL`` stops as soon as n is reached, so its chain is
    finite. For ``ALWAYS`` the chain from the first decision state at or above n succeeds unless
    it ends on a 1, which :func:`p_ends_on_one` gives in closed form.
    """
    need = needed_final(difficulty) - value
    if need <= 1:
        return Fraction(1)
    return _p_natural_at_least(need, dice, policy)


@lru_cache(maxsize=4096)
def _p_natural_at_least(need: int, dice: int, policy: RaisePolicy) -> Fraction:
    """P(natural result ≥ ``need``) of ``dice`` d6 under ``policy`` (aiming at ``need``),
    kept per question: the agents' odds ask a few dozen of them about a thousand times a
    greedy game (a sum of Fractions each)."""
    return natural_distribution(dice, policy, target=need, cap=need - 1).at_least(need)


def raised_naturals(chains: tuple[tuple[int, ...], ...], target: int) -> dict[int, Fraction]:
    """Exact distribution of the natural result when the 6s of ``chains`` (the dice on the
    table, each a face and its raises) are raised now and every later 6 is raised while the
    natural is below ``target`` (II-A-1, II-A-2: the dice not re-rolled are lost)."""
    sixes = [c for c in chains if c and c[-1] == 6]
    if not sixes:
        raise ValueError("no die shows a 6: nothing to raise")
    return _chain(sum(sixes[0]), {len(sixes): Fraction(1)}, target, 0)[0]


def _decided(base: int, live: int, target: int) -> dict[int, Fraction]:
    """Natural distribution from a decision state (``base``, ``live`` sixes), optimal play."""
    if base >= target:
        return {base: Fraction(1)}
    return _chain(base, {live: Fraction(1)}, target, 0)[0]


@cache
def opposed_round(
    a: int, b: int, dice_a: int = 1, dice_b: int = 1
) -> tuple[Fraction, Fraction, Fraction]:
    """(P(A wins), P(tie), P(B wins)) of one round of an opposed test (II-A-3), both sides
    raising sensibly: a side with a 6 aims at one more than the other side's current standing
    (:func:`standing`); when both show a 6 the lower final result plays first against the
    other's current result, the other answers against that final result; equal final results
    (as :func:`standing` counts them) are settled by a roll-off, each order with chance 1/2
    (:func:`first_to_decide`, CLARIFICATIONS §9).
    """
    if dice_a < 1 or dice_b < 1:
        raise ValueError("each side rolls at least one die")
    land_a, six_a = _roll_outcomes(dice_a)
    land_b, six_b = _roll_outcomes(dice_b)
    win = tie = lose = Fraction(0)

    def score(fa: int, fb: int, p: Fraction) -> None:
        nonlocal win, tie, lose
        sa, sb = standing(fa), standing(fb)
        if sa > sb:
            win += p
        elif sa == sb:
            tie += p
        else:
            lose += p

    def first_then_second(v1: int, j1: int, v2: int, j2: int, p: Fraction, a_first: bool) -> None:
        for n1, q1 in _decided(6, j1, standing(6 + v2) + 1 - v1).items():
            f1 = n1 + v1
            for n2, q2 in _decided(6, j2, standing(f1) + 1 - v2).items():
                f2 = n2 + v2
                if a_first:
                    score(f1, f2, p * q1 * q2)
                else:
                    score(f2, f1, p * q1 * q2)

    for ma, pa in land_a:
        fa = _landing(0, ma) + a
        for mb, pb in land_b:
            score(fa, _landing(0, mb) + b, pa * pb)
        for jb, pb in six_b:
            for nb, q in _decided(6, jb, standing(fa) + 1 - b).items():
                score(fa, nb + b, pa * pb * q)
    for ja, pa in six_a:
        for mb, pb in land_b:
            fb = _landing(0, mb) + b
            for na, q in _decided(6, ja, standing(fb) + 1 - a).items():
                score(na + a, fb, pa * pb * q)
        for jb, pb in six_b:
            p = pa * pb
            first = first_to_decide({0: 6 + a, 1: 6 + b})
            if first == (0,):
                first_then_second(a, ja, b, jb, p, True)
            elif first == (1,):
                first_then_second(b, jb, a, ja, p, False)
            else:
                first_then_second(a, ja, b, jb, p / 2, True)
                first_then_second(b, jb, a, ja, p / 2, False)
    return win, tie, lose


def p_opposed(a: int, b: int, dice_a: int = 1, dice_b: int = 1) -> Fraction:
    """P(side A, value ``a``, wins an opposed test against side B, value ``b``) (II-A-3).

    Ties are re-rolled with the same values and dice, so every round is the same game:
    P(A wins) = P(A wins a round) / (1 − P(tie)) = win / (win + lose).
    """
    win, _, lose = opposed_round(a, b, dice_a, dice_b)
    return win / (win + lose)
