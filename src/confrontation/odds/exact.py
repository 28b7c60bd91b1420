"""Exact odds of one shot (VI) and one close-combat attack (VII-C-4), as Fractions.

Everything here is built from :mod:`confrontation.dice` (tests with raises),
:mod:`confrontation.rules.wounds` (the wound roll) and :mod:`confrontation.rules.shooting`
(difficulty, distribution roll): no dice arithmetic of its own.

The raises (II-A-1) are played well by both sides:

- the defender raises while his final result is below the attack's (the known target,
  :data:`confrontation.dice.RaisePolicy.OPTIMAL`);
- the attacker rolls first, so he does not know the defence result: at each 6 he raises when
  that gives the attack a better chance to get through (see :func:`attack_stop_natural`).
  Without defence dice he raises while his final result is 0 or less (II-A-4).

>>> odds = attack_odds(att=3, str_=7, def_=5, res=11, defence_dice=1)
>>> odds.blocked + odds.hit + odds.failed == 1
True
>>> attack_odds(att=3, str_=7, def_=5, res=11, defence_dice=0).hit  # no defence: always hits
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from confrontation.dice import (
    PendingTest,
    RaisePolicy,
    chain_natural,
    natural_distribution,
    p_success,
    raised_naturals,
)
from confrontation.rules.shooting import (
    RangeBand,
    ShotTarget,
    Victim,
    melee_shot_distribution,
    range_band,
    shot_difficulty,
    shot_distribution,
)
from confrontation.rules.wounds import WoundMode, WoundResult, wound_distribution

__all__ = [
    "AttackOdds",
    "AttackRaise",
    "BlockOdds",
    "ShotOdds",
    "attack_odds",
    "attack_raise_odds",
    "attack_stop_natural",
    "block_odds",
    "raise_odds",
    "shot_odds",
]


# --- one attack (VII-C-4 c-e) -----------------------------------------------------------------


def _p_through(att: int, def_: int, defence_dice: int, natural: int) -> Fraction:
    """P(the attack gets through | its natural result): not an automatic failure (II-A-4) and
    the defence test (``defence_dice`` dice, raising while below) does not reach it."""
    final = natural + att
    if final <= 0:
        return Fraction(0)
    if defence_dice == 0:
        return Fraction(1)
    return 1 - p_success(def_, final, defence_dice, RaisePolicy.OPTIMAL)


@lru_cache(maxsize=4096)
def attack_stop_natural(att: int, def_: int, defence_dice: int) -> int:
    """The natural result at which the attacker stops raising (he raises every 6 below it).

    The attacker maximises P(the attack gets through): the attack test's result has no other
    use (VII-C-4 c-d). With h(n) = P(through | natural n), standing on a 6 at natural b is worth
    h(b); raising is worth (h(1) + h(b+2) + … + h(b+5) + V(b+6)) / 6 (a re-rolled 1 makes the
    natural 1, II-A-1). Once h(b) ≥ (h(1) + 5) / 6 no raise can do better, so the optimum is
    found by backward induction from there. Equal values: stop. The first 6-chain base where
    stopping is best is the answer; as every later base is unreachable, the optimal play is
    "raise while the natural is below it" (:data:`RaisePolicy.OPTIMAL` with this target).

    >>> attack_stop_natural(5, 3, 1)  # a strong attack against a weak defence keeps its 6
    6
    >>> attack_stop_natural(-7, 0, 0)  # ATT -7 needs a natural 8: raise the first 6
    12
    """
    h1 = _p_through(att, def_, defence_dice, 1)
    bound = (h1 + 5) / 6
    cap = 6
    while _p_through(att, def_, defence_dice, cap) < bound:
        cap += 6
    value = _p_through(att, def_, defence_dice, cap)
    stop_at = cap
    for base in range(cap - 6, 0, -6):
        stand = _p_through(att, def_, defence_dice, base)
        rest = sum((_p_through(att, def_, defence_dice, base + r) for r in range(2, 6)), h1)
        go = (rest + value) / 6
        if go > stand:
            value = go
        else:
            value = stand
            stop_at = base
    return stop_at


class AttackRaise:
    """The attacker's raise decision for one attack, as :func:`confrontation.dice.finish_test`
    asks it (``decide(pending, needed)``): raise while the natural is below
    :func:`attack_stop_natural`."""

    def __init__(self, att: int, def_: int, defence_dice: int) -> None:
        self.stop_at = attack_stop_natural(att, def_, defence_dice)

    def __call__(self, pending: PendingTest, needed: int | None) -> bool:
        return pending.natural < self.stop_at


def raise_odds(
    chains: tuple[tuple[int, ...], ...], value: int, needed: int
) -> tuple[Fraction, Fraction]:
    """(P(success) keeping the result, P(success) raising now) of a test of ``value`` whose
    dice stand as ``chains`` and that needs a final result of ``needed`` (II-A-1; later 6s
    raised while short of it, II-A-4: a final result ≤ 0 fails).

    A 6 on a test of value 0 needing 7: keeping fails, raising needs the re-roll not be 1.

    >>> raise_odds(((6,),), 0, 7)
    (Fraction(0, 1), Fraction(5, 6))
    """
    need = max(needed, 1) - value
    natural = max(chain_natural(c) for c in chains if c)
    keep = Fraction(1 if natural >= need else 0)
    dist = raised_naturals(chains, need)
    return keep, sum((p for n, p in dist.items() if n >= need), Fraction(0))


def attack_raise_odds(
    chains: tuple[tuple[int, ...], ...], att: int, def_: int, defence_dice: int
) -> tuple[Fraction, Fraction]:
    """(P(the attack gets through) keeping, raising now) of an attack test of ``att`` whose
    dice stand as ``chains``, against ``defence_dice`` dice of ``def_`` (VII-C-4 c-d), the
    attacker raising later 6s as :func:`attack_stop_natural` says."""
    natural = max(chain_natural(c) for c in chains if c)
    keep = _p_through(att, def_, defence_dice, natural)
    stop = attack_stop_natural(att, def_, defence_dice)
    dist = raised_naturals(chains, stop)
    go = sum((p * _p_through(att, def_, defence_dice, n) for n, p in dist.items()), Fraction(0))
    return keep, go


@dataclass(frozen=True, slots=True)
class BlockOdds:
    """The attack and defence tests of one attack (VII-C-4 c-d): three exclusive outcomes."""

    failed: Fraction
    """The attack test is an automatic failure (final ≤ 0): no defence die is lost."""
    blocked: Fraction
    """The defence test reaches the attack's final result: the defence dice are lost."""
    hit: Fraction
    """The attack is successful: a wound roll follows."""


@lru_cache(maxsize=4096)
def block_odds(att: int, def_: int, defence_dice: int) -> BlockOdds:
    """Exact odds of the attack and defence tests (VII-C-4 c-d), both raising well.

    ``att`` and ``def_`` are current values (wounds, charge, sustained defence included);
    ``defence_dice`` = 0 when the target does not defend. As in the engine
    (:func:`confrontation.rules.combat.roll_block`), no test is rolled when the target does
    not defend and ATT ≥ 0: the attack cannot fail.

    ATT 5 against DEF 3 with one die: the attacker keeps his 6 and the defender, raising,
    needs a natural of 3, 4, 5, 6, 7 or 8 against the attack's 1-6:

    >>> block_odds(5, 3, 1).blocked == (Fraction(4 + 3 + 2 + 1, 6) + Fraction(5 + 5, 36)) / 6
    True
    """
    if defence_dice < 0:
        raise ValueError("defence dice cannot be negative")
    if defence_dice == 0 and att >= 0:
        return BlockOdds(Fraction(0), Fraction(0), Fraction(1))
    stop = attack_stop_natural(att, def_, defence_dice)
    naturals = natural_distribution(1, RaisePolicy.OPTIMAL, target=stop)
    failed = hit = Fraction(0)
    for natural, p in naturals.probabilities.items():
        if natural + att <= 0:
            failed += p
        else:
            hit += p * _p_through(att, def_, defence_dice, natural)
    return BlockOdds(failed, 1 - failed - hit, hit)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """The exact outcome of one attack (VII-C-4): failed, blocked, or a hit and its wound."""

    failed: Fraction
    blocked: Fraction
    wounds: Mapping[WoundResult, Fraction]
    """P(hit and this wound result), every result listed (mildest first)."""

    @property
    def hit(self) -> Fraction:
        return sum(self.wounds.values(), Fraction(0))

    def outcomes(self) -> dict[str, Fraction]:
        """Every outcome by name: failed, blocked, then the wound results."""
        return {
            "failed": self.failed,
            "blocked": self.blocked,
            **{r.key: p for r, p in self.wounds.items()},
        }


def attack_odds(
    *,
    att: int,
    str_: int,
    def_: int,
    res: int,
    defence_dice: int = 0,
    sustained: bool = False,
    mode: WoundMode = WoundMode.NORMAL,
) -> AttackOdds:
    """One attack with current ATT/STR against current DEF/RES with ``defence_dice`` dice
    (VII-C-4 c-e). ``sustained``: a sustained defence (VII-C-5: one die, DEF-2).

    >>> odds = attack_odds(att=5, str_=8, def_=3, res=7, defence_dice=1)
    >>> odds.blocked
    Fraction(35, 108)
    >>> odds.hit == 1 - odds.blocked and odds.failed == 0
    True
    """
    if sustained:
        if defence_dice != 1:
            raise ValueError("a sustained defence uses exactly one die (VII-C-5)")
        def_ -= 2
    block = block_odds(att, def_, defence_dice)
    wounds = {r: block.hit * p for r, p in wound_distribution(str_, res, mode).items()}
    return AttackOdds(block.failed, block.blocked, wounds)


# --- one shot (VI) -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShotOdds:
    """The exact outcome of one shot (VI-A-3, VI-B-1, VI-B-2)."""

    difficulty: int | None
    """None: beyond the long range, the shot automatically fails (VI-A-1)."""
    explain: str
    miss: Fraction
    target: Mapping[WoundResult, Fraction]
    """P(the chosen target is hit with this result)."""
    friend: Mapping[WoundResult, Fraction]
    """P(the shooter's friend is hit with this result) (VI-B-1; empty outside a melee)."""

    @property
    def hit(self) -> Fraction:
        return 1 - self.miss

    def outcomes(self) -> dict[str, Fraction]:
        """miss, then ``target:<result>`` (and ``friend:<result>`` into a melee)."""
        rows = {"miss": self.miss}
        rows.update({f"target:{r.key}": p for r, p in self.target.items()})
        rows.update({f"friend:{r.key}": p for r, p in self.friend.items()})
        return rows


def shot_odds(
    *,
    aim: int,
    aim_str: int,
    res: int,
    band: RangeBand | None = None,
    distance: float | None = None,
    ranges: tuple[float, float, float] | None = None,
    assault: bool = False,
    size: int = 2,
    partial: bool = False,
    altitude: bool = False,
    target_bonus: int = 0,
    cover: bool = False,
    unmoving: bool = False,
    friend_res: int | None = None,
    dice: int = 1,
) -> ShotOdds:
    """One shot, exactly: the range band (given, or from ``distance`` and the weapon's
    ``ranges``), the difficulty and its modifiers (VI-A-3: partial sight, size, other altitude
    level, Target/X, cover), the Shooting test (optimal raises), the distribution roll when
    shooting into a melee (``friend_res`` = RES of the friend nearest to the shooter, VI-B-1),
    and the wound roll with the weapon's Strength, one row more severe when ``unmoving``
    (VI-B-2). ``assault``: an assault shot, base difficulty 7 (VI-B-3).

    The Alahan Reaper's shot (VI-A-3): medium range, large, partially visible → difficulty 7.

    >>> odds = shot_odds(aim=4, aim_str=7, res=10, band=RangeBand.MEDIUM, size=3, partial=True)
    >>> odds.difficulty, odds.hit  # AIM 4 needs a natural 3 or more
    (7, Fraction(2, 3))
    """
    from confrontation.rules.shooting import assault_shot_difficulty

    target = ShotTarget(size, partial, altitude, target_bonus, cover)
    if assault:
        diff = assault_shot_difficulty(target)
    else:
        if band is None:
            if distance is None or ranges is None:
                raise ValueError("give a range band, or a distance and the weapon's ranges")
            band = range_band(distance, ranges)
        if band is None:
            return ShotOdds(None, "beyond the long range", Fraction(1), {}, {})
        diff = shot_difficulty(band, target)
    difficulty = diff.total
    if friend_res is None:
        plain = shot_distribution(aim, difficulty, aim_str, res, unmoving=unmoving, dice=dice)
        wounds = {r: p for r, p in plain.items() if r is not None}
        return ShotOdds(difficulty, diff.explain(), plain[None], wounds, {})
    melee = melee_shot_distribution(
        aim, difficulty, aim_str, res, friend_res, unmoving=unmoving, dice=dice
    )
    on_target: dict[WoundResult, Fraction] = {}
    on_friend: dict[WoundResult, Fraction] = {}
    for key, p in melee.items():
        if key is None:
            continue
        victim, result = key
        (on_target if victim is Victim.TARGET else on_friend)[result] = p
    return ShotOdds(difficulty, diff.explain(), melee[None], on_target, on_friend)
