"""Monte Carlo combats, for what is too large to enumerate (many enemies, several rounds).

Two simulators play the same combat with the same decisions as :mod:`confrontation.odds.combat`:

- :func:`simulate` rolls every die with numpy, many combats at once (vectorised over runs):
  attack tests with the attacker's raises, defence tests with several dice and the defender's
  raises, wound rolls read on the Injury Table, wound penalties, sustained defence, killed
  fighters losing their dice, several rounds. The initiative of each combat is drawn from its
  exact odds (:func:`confrontation.dice.p_opposed`).
- :func:`simulate_engine` plays the engine's own :func:`confrontation.rules.combat.fight` with a
  :class:`~confrontation.dice.SeededRoller`, one combat at a time: slow, but the reference.

Both return a :class:`MonteCarloOdds` with 95 % intervals (normal approximation).

>>> from confrontation.rules.combat import Stats
>>> lone = Fighter("a", Stats(ini=3, att=4, str_=6, def_=4, res=6))
>>> enemy = Fighter("b", Stats(ini=3, att=4, str_=6, def_=4, res=6))
>>> mc = simulate(lone, [enemy], runs=2000, seed=1)
>>> 0 <= mc.p_attacker_killed.low <= mc.p_attacker_killed.estimate <= mc.p_attacker_killed.high
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from confrontation.dice import SeededRoller, p_opposed, roll_opposed
from confrontation.odds.combat import (
    CENTRE_SIDE,
    ENEMY_SIDE,
    DefencePolicy,
    Fighter,
    Tactics,
    initial_state,
    penalised,
)
from confrontation.odds.exact import attack_stop_natural
from confrontation.rules.characteristics import KILLED_AT, Characteristic
from confrontation.rules.charge import charge_modifiers
from confrontation.rules.combat import (
    SUSTAINED_DEFENCE_MALUS,
    Allocation,
    combat_dice,
    fight,
    initiative_value,
)
from confrontation.rules.wounds import InjuryTable, Location, WoundResult, default_injury_table

__all__ = ["Estimate", "MonteCarloOdds", "simulate", "simulate_engine"]

C = Characteristic
T = TypeVar("T")
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A Monte Carlo estimate and its 95 % interval (normal approximation)."""

    estimate: float
    low: float
    high: float

    @classmethod
    def of_mean(cls, values: NDArray[np.float64]) -> Estimate:
        n = len(values)
        mean = float(values.mean())
        half = Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
        return cls(mean, mean - half, mean + half)

    def contains(self, value: float | Fraction) -> bool:
        return self.low <= float(value) <= self.high


@dataclass(frozen=True)
class MonteCarloOdds:
    """End states of ``runs`` simulated combats: ``levels[run, fighter]`` (4 = killed) and
    ``stunned[run, fighter]``, fighters in the order of ``names`` (the lone fighter first)."""

    names: tuple[str, ...]
    levels: Ints
    stunned: Bools
    dice: int = 0
    """Dice thrown (numpy simulation; the initiative, drawn from its odds, not counted)."""

    @property
    def runs(self) -> int:
        return len(self.levels)

    def _column(self, name: str) -> Ints:
        return self.levels[:, self.names.index(name)]

    def p_killed(self, name: str) -> Estimate:
        return Estimate.of_mean((self._column(name) >= KILLED_AT).astype(np.float64))

    @property
    def p_attacker_killed(self) -> Estimate:
        return Estimate.of_mean((self.levels[:, 0] >= KILLED_AT).astype(np.float64))

    @property
    def p_defenders_killed(self) -> Estimate:
        every: Bools = np.all(self.levels[:, 1:] >= KILLED_AT, axis=1)
        return Estimate.of_mean(every.astype(np.float64))

    def expected_levels(self, name: str) -> Estimate:
        return Estimate.of_mean(self._column(name).astype(np.float64))

    def frequencies(self) -> dict[tuple[tuple[int, bool], ...], float]:
        """How often each end state (levels, stunned per fighter) came up."""
        keys, counts = np.unique(
            np.concatenate([self.levels, self.stunned.astype(np.int64)], axis=1),
            axis=0,
            return_counts=True,
        )
        f = len(self.names)
        return {
            tuple((int(row[i]), bool(row[f + i])) for i in range(f)): int(c) / self.runs
            for row, c in zip(keys, counts, strict=True)
        }

    def to_json(self) -> dict[str, object]:
        def est(e: Estimate) -> dict[str, float]:
            return {"estimate": e.estimate, "low95": e.low, "high95": e.high}

        return {
            "fighters": list(self.names),
            "runs": self.runs,
            "p_defender_killed": est(self.p_defenders_killed),
            "p_attacker_killed": est(self.p_attacker_killed),
            "p_killed": {n: est(self.p_killed(n)) for n in self.names},
            "expected_levels": {n: est(self.expected_levels(n)) for n in self.names},
        }


# --- the engine, one combat at a time ------------------------------------------------------------


def simulate_engine(
    attacker: Fighter,
    defenders: Sequence[Fighter],
    *,
    runs: int,
    seed: int,
    charge: bool = False,
    charged: bool = False,
) -> MonteCarloOdds:
    """``runs`` combats played by :func:`confrontation.rules.combat.fight` with a seeded roller
    (initiative rolled with :func:`confrontation.dice.roll_opposed`), one round each."""
    roller = SeededRoller(seed)
    names = (attacker.name, *(d.name for d in defenders))
    marked = penalised(attacker, defenders, charge=charge, charged=charged)
    start = initial_state(attacker, defenders, penalties=marked)
    centre = start.fighter(attacker.name)
    others = [f for f in start.fighters if f.id != attacker.name]
    a_ini = initiative_value(centre.current(C.INI), 1)
    b_ini = initiative_value(max(f.current(C.INI) for f in others), len(others))
    policies = {attacker.name: attacker.defence, **{d.name: d.defence for d in defenders}}
    levels = np.zeros((runs, len(names)), dtype=np.int64)
    stunned = np.zeros((runs, len(names)), dtype=np.bool_)
    for run in range(runs):
        first = roll_opposed(roller, a_ini, b_ini).a_wins
        order = (CENTRE_SIDE, ENEMY_SIDE) if first else (ENEMY_SIDE, CENTRE_SIDE)
        tactics = Tactics(attacker.name, policies, names[1:])
        end, _ = fight(roller, replace(start, side_order=order), tactics.decisions())
        for i, name in enumerate(names):
            health = end.fighter(name).health
            levels[run, i] = health.wound_levels
            stunned[run, i] = health.stunned
    return MonteCarloOdds(names, levels, stunned)


# --- numpy, many combats at once ---------------------------------------------------------------

_POLICY_CODE = {p: i for i, p in enumerate(DefencePolicy)}
_ROW_MIN, _ROW_MAX = -60, 80  # wound-table rows beyond these read as the first/last band


@cache
def _wound_lookup(table: InjuryTable) -> Ints:
    """``lookup[row - _ROW_MIN, low, high]`` = the :class:`WoundResult` of a wound roll whose
    lowest die is ``low`` and highest ``high`` on table row ``row`` = high + STR - RES (II-B-1);
    a double 6 is Killed Outright whatever the row."""
    rows = _ROW_MAX - _ROW_MIN + 1
    out = np.zeros((rows, 7, 7), dtype=np.int64)
    for i in range(rows):
        band = table.band(i + _ROW_MIN)
        for low in range(1, 7):
            for high in range(low, 7):
                if low == high == 6:
                    out[i, low, high] = WoundResult.KILLED
                else:
                    out[i, low, high] = table.cells[band][Location.of_lowest_die(low) - 1]
    return out


_LEVELS = np.array([r.levels for r in WoundResult], dtype=np.int64)


class _Batch:
    """The state of many combats of the same fighters (index 0 = the lone fighter)."""

    def __init__(
        self,
        stats: Sequence[tuple[int, int, int, int, int]],
        policies: Sequence[DefencePolicy],
        runs: int,
        rng: np.random.Generator,
        table: InjuryTable,
    ) -> None:
        self.rng = rng
        self.f = len(stats)
        base = np.array(stats, dtype=np.int64)  # ini, att, str, def, res
        self.ini, self.att, self.str_, self.def_, self.res = (base[:, i] for i in range(5))
        self.policy = np.array([_POLICY_CODE[p] for p in policies], dtype=np.int64)
        shape = (runs, self.f)
        self.levels = np.zeros(shape, dtype=np.int64)
        self.stunned = np.zeros(shape, dtype=np.bool_)
        self.charged = np.zeros(shape, dtype=np.bool_)
        self.att_left = np.zeros(shape, dtype=np.int64)
        self.def_left = np.zeros(shape, dtype=np.int64)
        self.alloc_att = np.zeros(shape, dtype=np.int64)
        self.alloc_def = np.zeros(shape, dtype=np.int64)
        self.sustaining = np.zeros(shape, dtype=np.bool_)
        self.lookup = _wound_lookup(table)
        self.charge_malus = charge_modifiers(C.ATT, True).penalties
        self.dice_rolled = 0

    # current values (II-A-4, II-B-4, V-B-3, VII-C-5) of fighter column ``f`` in runs ``r``
    def _penalty(self, r: Ints, f: Ints) -> Ints:
        return self.levels[r, f] + self.stunned[r, f]

    def current(self, name: str, r: Ints, f: Ints) -> Ints:
        charge = self.charged[r, f] * self.charge_malus
        value: Ints
        if name == "res":
            value = np.maximum(self.res[f], 1)
        elif name == "str":
            value = self.str_[f] - self._penalty(r, f)
        elif name == "ini":
            value = self.ini[f] - self._penalty(r, f) - charge
        elif name == "att":
            value = self.att[f] - self._penalty(r, f) - charge
        else:
            sustain = self.sustaining[r, f] * SUSTAINED_DEFENCE_MALUS
            value = self.def_[f] - self._penalty(r, f) - charge - sustain
        return value

    def d6(self, *shape: int) -> Ints:
        self.dice_rolled += math.prod(shape)
        faces: Ints = self.rng.integers(1, 7, size=shape, dtype=np.int64)
        return faces

    # one attack in runs ``r``: attacker column ``a``, target column ``t`` (VII-C-4)
    def attack(self, r: Ints, a: Ints, t: Ints) -> None:
        if len(r) == 0:
            return
        # b) the defence announced, per the target's policy (DefencePolicy.choose)
        left = self.def_left[r, t]
        forced = self.sustaining[r, t]
        pol = self.policy[t]
        may_sustain = (self.alloc_def[r, t] >= self.alloc_att[r, t]) & (left == 1)
        k = np.where(pol == _POLICY_CODE[DefencePolicy.NONE], 0, np.minimum(left, 1))
        k = np.where(pol == _POLICY_CODE[DefencePolicy.ALL], left, k)
        sus = (pol == _POLICY_CODE[DefencePolicy.SUSTAIN]) & may_sustain
        k = np.where(forced, 1, k)
        sus = (sus | forced) & (k == 1)
        att = self.current("att", r, a)
        strength = self.current("str", r, a)
        self.sustaining[r, t] |= sus
        def_ = self.current("def", r, t)
        res = self.current("res", r, t)
        # c) the attack test: none when it cannot fail and nothing opposes it
        tested = (k > 0) | (att < 0)
        final = np.full(len(r), 1, dtype=np.int64)
        idx = np.flatnonzero(tested)
        if len(idx):
            stops = _lookup(attack_stop_natural, att[idx], def_[idx], k[idx])
            final[idx] = self._chain(stops, np.ones(len(idx), dtype=np.int64)) + att[idx]
        failed = final <= 0
        # d) the defence test, k dice, raising while below the attack's final result
        blocked = np.zeros(len(r), dtype=np.bool_)
        idx = np.flatnonzero((k > 0) & ~failed)
        if len(idx):
            need = final[idx] - def_[idx]
            nat = self._chain(need, k[idx])
            blocked[idx] = nat + def_[idx] >= final[idx]
        lost = np.where(failed | sus, 0, k)
        self.def_left[r, t] -= lost
        self.att_left[r, a] -= 1
        # e) the wound roll
        hit = np.flatnonzero(~failed & ~blocked)
        if len(hit) == 0:
            return
        rh, th = r[hit], t[hit]
        dice = self.d6(len(hit), 2)
        low, high = dice.min(axis=1), dice.max(axis=1)
        row = np.clip(high + strength[hit] - res[hit], _ROW_MIN, _ROW_MAX) - _ROW_MIN
        result = self.lookup[row, low, high]
        self.stunned[rh, th] |= result == WoundResult.STUNNED
        self.levels[rh, th] = np.minimum(self.levels[rh, th] + _LEVELS[result], KILLED_AT)
        dead = self.levels[rh, th] >= KILLED_AT
        self.att_left[rh[dead], th[dead]] = 0
        self.def_left[rh[dead], th[dead]] = 0

    def _chain(self, stop: Ints, dice: Ints) -> Ints:
        """Natural results of tests of ``dice`` d6 that raise every 6 while the natural is
        below ``stop`` (II-A-1, II-A-2: a raise re-rolls the 6s and loses the other dice)."""
        n = len(stop)
        natural = np.zeros(n, dtype=np.int64)
        base = np.zeros(n, dtype=np.int64)
        live = dice.copy()
        todo = np.arange(n)
        while len(todo):
            width = int(live[todo].max())
            faces = self.d6(len(todo), width)
            valid = np.arange(width)[None, :] < live[todo][:, None]
            sixes = ((faces == 6) & valid).sum(axis=1)
            best = np.where(valid & (faces < 6), faces, 0).max(axis=1)
            landed = sixes == 0
            b = base[todo]
            natural[todo[landed]] = np.where(best[landed] == 1, 1, b[landed] + best[landed])
            stand = ~landed & (b + 6 >= stop[todo])
            natural[todo[stand]] = b[stand] + 6
            go = ~landed & ~stand
            base[todo[go]] += 6
            live[todo[go]] = sixes[go]
            todo = todo[go]
        return natural

    def alive(self) -> Bools:
        return self.levels < KILLED_AT

    def over(self) -> Bools:
        """VII-C-3: no living fighter has an attack die and a living opponent."""
        alive = self.alive()
        centre_can = alive[:, 0] & (self.att_left[:, 0] > 0) & alive[:, 1:].any(axis=1)
        others_can = (alive[:, 1:] & (self.att_left[:, 1:] > 0)).any(axis=1) & alive[:, 0]
        return ~(centre_can | others_can)

    def fight(self, runs: Ints, centre_first: Bools) -> None:
        """Resolve the allocated combats of ``runs`` (VII-C-3), in weapon combats."""
        f = self.f
        todo = runs[~self.over()[runs]]
        while len(todo):
            for slot in (0, 1):
                go = todo[~self.over()[todo]]
                centre_now = centre_first[go] == (slot == 0)
                self._centre_turn(go[centre_now])
                theirs = go[~centre_now]
                for e in range(1, f):
                    alive = self.alive()
                    ok = theirs[
                        alive[theirs, e] & (self.att_left[theirs, e] > 0) & alive[theirs, 0]
                    ]
                    self.attack(ok, np.full(len(ok), e), np.zeros(len(ok), dtype=np.int64))
            todo = todo[~self.over()[todo]]
        self.att_left[runs] = 0
        self.def_left[runs] = 0

    def _centre_turn(self, runs: Ints) -> None:
        """The lone fighter's attacks (:meth:`Tactics.plan`): the most wounded enemies first."""
        if len(runs) == 0:
            return
        f = self.f
        alive = self.alive()[runs, 1:]
        key = np.where(alive, -self.levels[runs, 1:] * f + np.arange(f - 1), 10**6)
        order = np.argsort(key, axis=1, kind="stable") + 1
        count = np.minimum(self.att_left[runs, 0], alive.sum(axis=1))
        for j in range(f - 1):
            sel = count > j
            r = runs[sel]
            self.attack(r, np.zeros(len(r), dtype=np.int64), order[sel, j])


def _p_first(a: int, b: int, _: int) -> float:
    return float(p_opposed(a, b))


_CODE = 1 << 12  # packs three small integers (|x| < 2048) into one key


def _lookup(function: Callable[[int, int, int], T], x: Ints, y: Ints, z: Ints) -> NDArray[Any]:
    """``function`` applied to each (x, y, z), computed once per distinct triple."""
    codes = ((x + _CODE // 2) * _CODE + (y + _CODE // 2)) * _CODE + z
    uniq, inverse = np.unique(codes, return_inverse=True)
    values = []
    for code in uniq.tolist():
        rest, c = divmod(code, _CODE)
        a, b = divmod(rest, _CODE)
        values.append(function(a - _CODE // 2, b - _CODE // 2, c))
    return np.asarray(values)[inverse]


def _initiative_first(batch: _Batch, runs: Ints) -> Bools:
    """Who attacks first in each combat (VII-C-2), drawn from the exact opposed-test odds."""
    alive = batch.alive()[runs]
    cols = np.arange(batch.f)
    ini = np.stack([batch.current("ini", runs, np.full(len(runs), c)) for c in cols], axis=1)
    mine = ini[:, 0]
    theirs = np.where(alive[:, 1:], ini[:, 1:], -(10**6)).max(axis=1) + alive[:, 1:].sum(axis=1) - 1
    first = np.zeros(len(runs), dtype=np.bool_)
    odds = _lookup(_p_first, mine, theirs, np.zeros(len(runs), dtype=np.int64))
    first = batch.rng.random(len(runs)) < odds
    return first


def _allocate(batch: _Batch, runs: Ints, fighters: Sequence[Fighter], first_round: bool) -> None:
    """VII-C-1 for ``runs``: the given allocation in the first round; later, each fighter keeps
    his number of defence dice (capped) and puts the rest in attack."""
    alive = batch.alive()[runs]
    enemies = alive[:, 1:].sum(axis=1)
    for i, fighter in enumerate(fighters):
        dice = combat_dice(1) if i else None
        count = np.full(len(runs), dice) if dice is not None else 1 + enemies
        allocation = fighter.allocation
        wanted = allocation.defence if allocation is not None else 0
        defence = np.minimum(wanted, count)
        if first_round and allocation is not None:
            defence = np.full(len(runs), allocation.defence)
        batch.alloc_def[runs, i] = np.where(alive[:, i], defence, 0)
        batch.alloc_att[runs, i] = np.where(alive[:, i], count - defence, 0)
    batch.att_left[runs] = batch.alloc_att[runs]
    batch.def_left[runs] = batch.alloc_def[runs]
    batch.sustaining[runs] = False


def simulate(
    attacker: Fighter,
    defenders: Sequence[Fighter],
    *,
    runs: int,
    seed: int,
    rounds: int = 1,
    charge: bool = False,
    charged: bool = False,
    table: InjuryTable | None = None,
) -> MonteCarloOdds:
    """``runs`` combats at once with numpy (see the module); ``rounds`` > 1: the survivors
    fight again in later rounds (Stunned and charge penalties gone, II-B-5, V-B-3)."""
    if runs < 2 or rounds < 1:
        raise ValueError("at least 2 runs and 1 round")
    fighters = (attacker, *defenders)
    start = initial_state(attacker, defenders)  # checks the allocations (VII-C-1)
    del start
    batch = _Batch(
        [(f.stats.ini, f.stats.att, f.stats.str_, f.stats.def_, f.stats.res) for f in fighters],
        [f.defence for f in fighters],
        runs,
        np.random.default_rng(seed),
        table or default_injury_table(),
    )
    for i, f in enumerate(fighters):
        batch.levels[:, i] = f.health.wound_levels
        batch.stunned[:, i] = f.health.stunned
    marked = penalised(attacker, defenders, charge=charge, charged=charged)
    for i, f in enumerate(fighters):
        batch.charged[:, i] = f.name in marked
    every = np.arange(runs)
    for round_ in range(rounds):
        alive = batch.alive()
        live = every[alive[:, 0] & alive[:, 1:].any(axis=1)]
        if round_:
            batch.stunned[live] = False  # II-B-5
            batch.charged[live] = False  # V-B-3: until the end of the round
        _allocate(batch, live, fighters, round_ == 0)
        batch.fight(live, _initiative_first_full(batch, live, runs))
    return MonteCarloOdds(
        tuple(f.name for f in fighters),
        batch.levels.copy(),
        batch.stunned.copy(),
        batch.dice_rolled,
    )


def _initiative_first_full(batch: _Batch, runs: Ints, total: int) -> Bools:
    first = np.zeros(total, dtype=np.bool_)
    if len(runs):
        first[runs] = _initiative_first(batch, runs)
    return first


def allocation_of(text: str) -> Allocation:
    """``"2:1"`` → 2 dice in attack, 1 in defence (the CLI's --alloc)."""
    try:
        attack, defence = (int(x) for x in text.split(":"))
    except ValueError:
        raise ValueError(f"an allocation is ATTACK:DEFENCE dice, e.g. 2:1, not {text!r}") from None
    return Allocation(attack, defence)
