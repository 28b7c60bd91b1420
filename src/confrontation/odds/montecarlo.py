"""Monte Carlo combats, for what is too large to enumerate (many enemies, several rounds).

Two simulators play the same combat with the same decisions as :mod:`confrontation.odds.combat`:

- :func:`simulate` plays many combats at once with numpy (vectorised over runs): the same
  attacks in the same order (weapon combats, the lone fighter's most-wounded-first plan, each
  fighter's defence policy), wound penalties, sustained defence, killed fighters losing their
  dice, several rounds with the dice allocated again. Each attack's outcome (automatic
  failure, blocked, or a hit and its wound result) is drawn from its exact odds, those of
  :func:`confrontation.odds.exact.block_odds` (attack and defence tests, both sides raising
  well) and of the Injury Table (:func:`confrontation.rules.wounds.wound_distribution`): the
  same random process as rolling the dice, drawn in one step. ``roll_dice=True`` rolls every
  die instead (tests with raises, several defence dice, the wound roll), slower, and counts
  them. The initiative of each combat is drawn from its exact odds
  (:func:`confrontation.dice.p_opposed`).
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
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache

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
    initiative_odds,
    penalised,
)
from confrontation.odds.exact import attack_stop_natural, block_odds
from confrontation.rules.characteristics import KILLED_AT, Characteristic, HealthState
from confrontation.rules.combat import (
    Allocation,
    Combatant,
    DefenceChoice,
    combat_dice,
    defence_choices,
    fight,
    initiative_value,
)
from confrontation.rules.wounds import (
    InjuryTable,
    Location,
    WoundResult,
    apply_wound,
    default_injury_table,
    wound_distribution,
)

__all__ = ["Estimate", "MonteCarloOdds", "simulate", "simulate_engine"]

C = Characteristic
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
    """Dice thrown by ``simulate(..., roll_dice=True)`` (the initiative, drawn from its odds,
    not counted); 0 when each attack was drawn from its exact odds."""

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
#
# Each fighter's state in a combat is one small integer, his *code*: wound levels (0-3) and
# Stunned, whether he may make a sustained defence (VII-C-5, fixed by his allocation), whether
# he is sustaining, his defence and attack dice left; two more codes for "killed" (Stunned or
# not). Every combat of the batch is one column of ``codes[fighter, run]``.
#
# One attack (VII-C-4) is then one transition of the pair (attacker code, target code). Both
# codes are read through per-fighter tables into the row of an *outcome table*: the attacker's
# wound state (or "cannot attack": dead, no attack die) and the target's wound state with the
# defence his policy announces (or "dead"). A row holds the exact probabilities of the attack's
# nine outcomes: automatic failure, blocked, a hit with each wound result, and "no attack"
# (the planned attack is dropped: VII-C-3). The target's next code is a table read on (target
# code, outcome); the attacker's is his code minus one attack die.
#
# Two ways to draw an attack's outcome from its row:
#
# - ``roll_dice=False`` (the default): one 64-bit random word per attack, sampled with the alias
#   method from the row's exact probabilities (:func:`confrontation.odds.exact.block_odds` and
#   :func:`confrontation.rules.wounds.wound_distribution`): the same process as rolling the
#   dice, drawn in one step.
# - ``roll_dice=True``: every die is rolled (the attack test with the attacker's raises, the
#   defence test with several dice and the defender's raises, the two wound dice read on the
#   Injury Table), and counted: the reference the fast draw is checked against.

_W = 16  # outcome columns (a power of two: the column is the top 4 bits of the random word)
_SHIFT = 4
_FAILED, _BLOCKED, _WOUNDED, _NOOP = 0, 1, 2, 8  # outcome = _WOUNDED + WoundResult
_HEALTHS = 8  # (wound levels 0-3) x Stunned
_CANNOT = _HEALTHS  # the attacker's row block of "no attack"
_UNBUILT = _W - 1  # what a row not computed yet draws
_FRACTION_BITS = 53
_FRACTION_MASK = np.uint64((1 << _FRACTION_BITS) - 1)
_COLUMN_SHIFT = np.uint64(64 - _SHIFT)
_CHUNK = 1 << 16  # combats simulated together (the state stays in the CPU cache)
_ROW_MIN, _ROW_MAX = -60, 80  # wound-table rows beyond these read as the first/last band


@dataclass(frozen=True)
class _Layout:
    """The codes of a fighter with ``dice`` combat dice (attack and defence dice 0..dice)."""

    dice: int

    @property
    def alive_codes(self) -> int:
        return _HEALTHS * 4 * (self.dice + 1) ** 2

    @property
    def size(self) -> int:
        return self.alive_codes + 2  # + killed, killed while Stunned

    def encode(
        self, health: HealthState, allowed: bool, sustaining: bool, dfn: int, atk: int
    ) -> int:
        if health.killed:
            return self.alive_codes + int(health.stunned)
        d = self.dice + 1
        high = ((health.wound_levels * 2 + health.stunned) * 2 + allowed) * 2 + sustaining
        return (high * d + dfn) * d + atk  # the attack dice last: using one is code - 1

    def decode(self, code: int) -> tuple[HealthState, bool, bool, int, int]:
        if code >= self.alive_codes:
            return HealthState(KILLED_AT, code == self.alive_codes + 1), False, False, 0, 0
        d = self.dice + 1
        rest, atk = divmod(code, d)
        rest, dfn = divmod(rest, d)
        rest, sustaining = divmod(rest, 2)
        rest, allowed = divmod(rest, 2)
        levels, stunned = divmod(rest, 2)
        return HealthState(levels, bool(stunned)), bool(allowed), bool(sustaining), dfn, atk


def _health_index(health: HealthState) -> int:
    return health.wound_levels * 2 + health.stunned


def _health(index: int) -> HealthState:
    return HealthState(index // 2, bool(index % 2))


def _stand_in(
    fighter: Combatant, health: HealthState, allowed: bool, sustaining: bool, dfn: int, atk: int
) -> Combatant:
    """The engine's Combatant in a code's state; its allocation only carries VII-C-5's
    condition (at least as many dice in defence as in attack), all the rules read of it here."""
    return replace(
        fighter,
        allocation=Allocation(0, 0) if allowed else Allocation(1, 0),
        health=health,
        sustaining=sustaining,
        defence_left=dfn,
        attack_left=atk,
    )


@dataclass(frozen=True)
class _Role:
    """A fighter's tables: as a target (announced defence, next code per outcome), as an
    attacker (wound state or "cannot attack"), his current INI, and his code's end health."""

    layout: _Layout
    choice: tuple[DefenceChoice | None, ...]  # per code, None when killed
    target_row: Ints  # health x announced defence, or the last ("killed")
    next_code: Ints  # [code << _SHIFT | outcome]
    attacker_row: Ints  # health index, or _CANNOT
    levels: Ints
    stunned: Bools
    level_key: Ints  # wound levels, -1 when killed (the lone fighter's target order)

    @property
    def defences(self) -> int:
        return self.layout.dice + 2  # 0..dice dice, then one sustained die

    @property
    def target_rows(self) -> int:
        return _HEALTHS * self.defences + 1


@cache
def _role(fighter: Combatant, policy: DefencePolicy) -> _Role:
    layout = _Layout(fighter.allocation.dice)
    n = layout.size
    choices: list[DefenceChoice | None] = []
    target_row = np.zeros(n, dtype=np.intp)
    next_code = np.zeros(n << _SHIFT, dtype=np.intp)
    attacker_row = np.full(n, _CANNOT, dtype=np.intp)
    levels = np.zeros(n, dtype=np.intp)
    stunned = np.zeros(n, dtype=np.bool_)
    dead_row = _HEALTHS * (layout.dice + 2)
    for code in range(n):
        health, allowed, sustaining, dfn, atk = layout.decode(code)
        levels[code], stunned[code] = health.wound_levels, health.stunned
        next_code[code << _SHIFT : (code + 1) << _SHIFT] = code
        if health.killed:
            choices.append(None)
            target_row[code] = dead_row
            continue
        if atk > 0:
            attacker_row[code] = _health_index(health)
        # VII-C-4 b: the defence announced, by the fighter's own policy (DefencePolicy.choose)
        me = _stand_in(fighter, health, allowed, sustaining, dfn, atk)
        choice = policy.choose(me, defence_choices(me))
        choices.append(choice)
        column = layout.dice + 1 if choice.sustained else choice.dice
        target_row[code] = _health_index(health) * (layout.dice + 2) + column
        lost = 0 if choice.sustained else choice.dice  # VII-C-4 d, VII-C-5
        for outcome in range(_NOOP):
            after, left = health, dfn - lost
            if outcome == _FAILED:
                left = dfn  # no die lost against an automatic failure
            elif outcome >= _WOUNDED:
                after = apply_wound(health, WoundResult(outcome - _WOUNDED))
            nxt = layout.encode(after, allowed, sustaining or choice.sustained, left, atk)
            next_code[(code << _SHIFT) | outcome] = nxt
    level_key = np.where(levels >= KILLED_AT, -1, levels)
    return _Role(
        layout, tuple(choices), target_row, next_code, attacker_row, levels, stunned, level_key
    )


_Spec = tuple[Combatant, Combatant, DefenceChoice] | None
"""An outcome row: attacker and target (in their wound states) and the defence, or no attack."""


@dataclass
class _Rows:
    """The outcome rows of a kind of round, listed before any is computed."""

    specs: list[_Spec] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.specs)

    def add_noop(self) -> None:
        self.specs.append(None)

    def add_attack(self, attacker: Combatant, target: Combatant, choice: DefenceChoice) -> None:
        self.specs.append((attacker, target, choice))


@cache
def _noop_alias() -> tuple[NDArray[np.int64], Ints]:
    p = [Fraction(0)] * _W
    p[_NOOP] = Fraction(1)
    return _alias(p)


@lru_cache(maxsize=4096)
def _attack_alias(
    att: int, def_: int, k: int, strength: int, res: int, table: InjuryTable
) -> tuple[NDArray[np.int64], Ints]:
    block = block_odds(att, def_, k)
    wounds = wound_distribution(strength, res, table=table)
    p = [Fraction(0)] * _W
    p[_FAILED], p[_BLOCKED] = block.failed, block.blocked
    for result, q in wounds.items():
        p[_WOUNDED + result] = block.hit * q
    return _alias(p)


def _alias(p: Sequence[Fraction]) -> tuple[NDArray[np.int64], Ints]:
    """Walker's alias table of ``p`` (len ``_W``, sum 1): column ``c`` keeps itself when the
    53-bit fraction is below ``prob[c]`` (in units of 2^-53), else goes to ``alias[c]``."""
    scaled = [q * _W for q in p]
    prob = [Fraction(1)] * _W
    alias = list(range(_W))
    small = [i for i, q in enumerate(scaled) if q < 1]
    large = [i for i, q in enumerate(scaled) if q >= 1]
    while small and large:
        s, g = small.pop(), large.pop()
        prob[s], alias[s] = scaled[s], g
        scaled[g] -= 1 - scaled[s]
        (small if scaled[g] < 1 else large).append(g)
    threshold = [round(q * (1 << _FRACTION_BITS)) for q in prob]
    return np.array(threshold, dtype=np.int64), np.array(alias, dtype=np.intp)


@dataclass(frozen=True)
class _Tables:
    """Everything one kind of round needs (the first round has the charge penalties).

    The outcome rows are computed when a combat first reaches them (most wound states are
    never met): a row is built before its first draw (unbuilt, it holds :data:`_UNBUILT`).
    """

    specs: tuple[_Spec, ...]
    table: InjuryTable
    built: Bools
    prob: NDArray[np.int64]  # [row << _SHIFT | column]
    alias: Ints
    values: Ints  # [row]: ATT, DEF, defence dice (-1: no attack), raise target, STR, RES
    centre_rows: Ints  # the lone fighter's attacker rows (absolute, << _SHIFT)
    enemies_rows: Ints  # [enemy * codes + code]: enemy targets (relative, << _SHIFT)
    enemies_next: Ints  # [(enemy * codes + code) << _SHIFT | outcome]
    enemy_rows: tuple[Ints, ...]  # each enemy's attacker rows against the lone fighter
    centre_target: Ints
    centre_next: Ints
    ini: tuple[Ints, ...]  # current INI per fighter and code (killed: a large negative)
    first_odds: NDArray[np.float64]  # [INI - lowest, INI + friends - lowest]; NaN: not yet
    ini_low: tuple[int, int]  # the lone fighter's lowest INI, his enemies' lowest

    def build(self, rows: Ints) -> None:
        """Compute the outcome rows ``rows`` (VII-C-4 c-e) with the engine's current values."""
        for row in np.unique(rows).tolist():
            if self.built[row]:
                continue
            spec = self.specs[row]
            if spec is None:
                prob, alias = _noop_alias()
                values = (0, 0, -1, 0, 0, 1)
            else:
                attacker, target, choice = spec
                defender = replace(target, sustaining=True) if choice.sustained else target
                att, strength = attacker.current(C.ATT), attacker.current(C.STR)
                def_, res = defender.current(C.DEF), defender.current(C.RES)
                prob, alias = _attack_alias(att, def_, choice.dice, strength, res, self.table)
                stop = attack_stop_natural(att, def_, choice.dice)
                values = (att, def_, choice.dice, stop, strength, res)
            self.prob[row << _SHIFT : (row + 1) << _SHIFT] = prob
            self.alias[row << _SHIFT : (row + 1) << _SHIFT] = alias
            self.values[row] = values
            self.built[row] = True


def _tables(
    fighters: Sequence[Combatant], policies: Sequence[DefencePolicy], table: InjuryTable
) -> _Tables:
    roles = [_role(f, p) for f, p in zip(fighters, policies, strict=True)]
    centre, enemies = roles[0], roles[1:]
    rows = _Rows()
    # the lone fighter attacking: [his health or _CANNOT] x [enemy, its target row]
    span = sum(r.target_rows for r in enemies)
    centre_start = rows.count
    for a_health in range(_HEALTHS + 1):
        for fighter, role in zip(fighters[1:], enemies, strict=True):
            _add_rows(rows, fighters[0], a_health, fighter, role)
    enemy_rows = []
    for e, role in enumerate(enemies, start=1):
        start = rows.count
        for a_health in range(_HEALTHS + 1):
            _add_rows(rows, fighters[e], a_health, fighters[0], centre)
        enemy_rows.append((start + role.attacker_row * centre.target_rows) << _SHIFT)
    offsets = np.cumsum([0] + [r.target_rows for r in enemies])[:-1]
    size = enemies[0].layout.size
    enemies_rows = np.concatenate(
        [(o + r.target_row) << _SHIFT for o, r in zip(offsets, enemies, strict=True)]
    )
    enemies_next = np.concatenate(
        [r.next_code for r in enemies]
    )  # codes of every enemy share one layout (2 dice each)
    assert all(r.layout.size == size for r in enemies)
    ini = tuple(_ini_values(f, r) for f, r in zip(fighters, roles, strict=True))
    mine = ini[0][: centre.layout.alive_codes]
    theirs = np.concatenate(
        [v[: r.layout.alive_codes] for v, r in zip(ini[1:], enemies, strict=True)]
    )
    n = len(enemies)
    count = rows.count
    tables = _Tables(
        tuple(rows.specs),
        table,
        np.zeros(count, dtype=np.bool_),
        np.zeros(count << _SHIFT, dtype=np.int64),
        np.full(count << _SHIFT, _UNBUILT, dtype=np.intp),
        np.zeros((count, 6), dtype=np.intp),
        (centre_start + centre.attacker_row * span) << _SHIFT,
        enemies_rows,
        enemies_next,
        tuple(enemy_rows),
        centre.target_row << _SHIFT,
        centre.next_code,
        ini,
        np.full((int(mine.max() - mine.min()) + 1, int(theirs.max() - theirs.min()) + n), np.nan),
        (int(mine.min()), int(theirs.min())),
    )
    tables.build(np.array([i for i, spec in enumerate(rows.specs) if spec is None], np.intp))
    return tables


def _add_rows(
    rows: _Rows,
    attacker: Combatant,
    a_health: int,
    target: Combatant,
    role: _Role,
) -> None:
    """The target rows of one attacker state against one target (see :class:`_Role`)."""
    for t_health in range(_HEALTHS):
        for column in range(role.defences):
            if a_health == _CANNOT:
                rows.add_noop()
                continue
            a = replace(attacker, health=_health(a_health))
            t = replace(target, health=_health(t_health))
            sustained = column == role.layout.dice + 1
            rows.add_attack(a, t, DefenceChoice(1 if sustained else column, sustained))
    rows.add_noop()  # the target is killed


def _ini_values(fighter: Combatant, role: _Role) -> Ints:
    out = np.full(role.layout.size, -(10**6), dtype=np.intp)
    for code in range(role.layout.alive_codes):
        health = role.layout.decode(code)[0]
        out[code] = replace(fighter, health=health).current(C.INI)
    return out


@cache
def _p_first(a: int, b: int) -> float:
    return float(p_opposed(a, b))


class _Batch:
    """Up to :data:`_CHUNK` combats of the same fighters, as codes ``[fighter, run]``."""

    def __init__(
        self, codes: Ints, rng: np.random.Generator, roll_dice: bool, table: InjuryTable
    ) -> None:
        self.codes = codes
        self.rng = rng
        self.roll_dice = roll_dice
        self.dice_rolled = 0
        self.lookup = _wound_lookup(table)

    def outcome(self, tables: _Tables, row: Ints) -> Ints:
        """The outcome of the attacks of rows ``row`` (<< _SHIFT)."""
        index = row >> _SHIFT
        missing = index[~tables.built[index]]
        if missing.size:  # rows met for the first time: compute them before any draw, so
            tables.build(missing)  # the random stream never depends on what was cached
        if self.roll_dice:
            return self._rolled(tables, index)
        return self._draw(tables, row)

    def _draw(self, tables: _Tables, row: Ints) -> Ints:
        """One 64-bit word per attack: its top bits pick a column of the row's alias table,
        the next 53 bits a fraction kept below the column's threshold or sent to its alias."""
        word = self.rng.bit_generator.random_raw(len(row))
        column = (word >> _COLUMN_SHIFT).view(np.int64)
        fraction = (word & _FRACTION_MASK).view(np.int64)
        at = row + column
        out: Ints = np.where(fraction < tables.prob[at], column, tables.alias[at])
        return out

    def attack(
        self,
        tables: _Tables,
        attacker: Ints,
        target: Ints,
        rows: Ints,
        target_rows: Ints,
        nxt: Ints,
        key: Ints | None = None,
    ) -> Ints:
        """One attack in every run (VII-C-4): ``attacker`` is updated in place; returns the
        target's new codes (``key``: the target's index in ``target_rows``/``nxt``)."""
        key = target if key is None else key
        outcome = self.outcome(tables, rows[attacker] + target_rows[key])
        attacker -= outcome != _NOOP
        new: Ints = nxt[(key << _SHIFT) | outcome]
        return new

    def _rolled(self, tables: _Tables, row: Ints) -> Ints:
        """Every die rolled (II-A-1, II-A-2, II-B-1), like :func:`~confrontation.rules.combat.
        resolve_attack` with the same raise decisions (see :class:`~confrontation.odds.combat.
        Tactics`)."""
        out = np.full(len(row), _NOOP, dtype=np.intp)
        go = np.flatnonzero(tables.values[row, 2] >= 0)
        if len(go) == 0:
            return out
        att, def_, k, stop, strength, res = tables.values[row[go]].T
        # c) the attack test: none when it cannot fail and nothing opposes it
        final = np.ones(len(go), dtype=np.intp)
        tested = np.flatnonzero((k > 0) | (att < 0))
        final[tested] = self._chain(stop[tested], np.ones(len(tested), np.intp)) + att[tested]
        failed = final <= 0
        # d) the defence test, k dice, raising while below the attack's final result
        blocked = np.zeros(len(go), dtype=np.bool_)
        idx = np.flatnonzero((k > 0) & ~failed)
        if len(idx):
            natural = self._chain(final[idx] - def_[idx], k[idx])
            blocked[idx] = natural + def_[idx] >= final[idx]
        result = np.where(failed, _FAILED, _BLOCKED)
        # e) the wound roll
        hit = np.flatnonzero(~failed & ~blocked)
        dice = self.d6(len(hit), 2)
        low, high = dice.min(axis=1), dice.max(axis=1)
        line = np.clip(high + strength[hit] - res[hit], _ROW_MIN, _ROW_MAX) - _ROW_MIN
        result[hit] = _WOUNDED + self.lookup[line, low, high]
        out[go] = result
        return out

    def d6(self, *shape: int) -> Ints:
        self.dice_rolled += math.prod(shape)
        faces: Ints = self.rng.integers(1, 7, size=shape, dtype=np.intp)
        return faces

    def _chain(self, stop: Ints, dice: Ints) -> Ints:
        """Natural results of tests of ``dice`` d6 that raise every 6 while the natural is
        below ``stop`` (II-A-1, II-A-2: a raise re-rolls the 6s and loses the other dice)."""
        n = len(stop)
        natural = np.zeros(n, dtype=np.intp)
        base = np.zeros(n, dtype=np.intp)
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


@cache
def _wound_lookup(table: InjuryTable) -> Ints:
    """``lookup[row - _ROW_MIN, low, high]`` = the :class:`WoundResult` of a wound roll whose
    lowest die is ``low`` and highest ``high`` on table row ``row`` = high + STR - RES (II-B-1);
    a double 6 is Killed Outright whatever the row."""
    rows = _ROW_MAX - _ROW_MIN + 1
    out = np.zeros((rows, 7, 7), dtype=np.intp)
    for i in range(rows):
        band = table.band(i + _ROW_MIN)
        for low in range(1, 7):
            for high in range(low, 7):
                if low == high == 6:
                    out[i, low, high] = WoundResult.KILLED
                else:
                    out[i, low, high] = table.cells[band][Location.of_lowest_die(low) - 1]
    return out


@dataclass(frozen=True)
class _Round:
    """One kind of round: its tables, its number of weapon combats at most, and (later
    rounds) each fighter's new code when the dice are allocated again."""

    tables: _Tables
    passes: int
    level_key: Ints
    enemy_size: int
    realloc: tuple[Ints, ...] = ()  # the lone fighter's [enemies alive, code]; each enemy's


@lru_cache(maxsize=64)
def _round(
    fighters: tuple[Combatant, ...],
    policies: tuple[DefencePolicy, ...],
    wanted: tuple[int, ...],
    first: bool,
    table: InjuryTable,
) -> _Round:
    """The first round (``fighters`` as allocated, charge penalties included) or a later one
    (no charge penalty, II-B-5 and V-B-3; dice allocated again, ``wanted`` defence dice each)."""
    if not first:
        fighters = tuple(replace(f, modifiers=()) for f in fighters)
    tables = _tables(fighters, policies, table)
    roles = [_role(f, p) for f, p in zip(fighters, policies, strict=True)]
    enemy = roles[1]
    if first:
        passes = max(f.allocation.attack for f in fighters)
        return _Round(tables, passes, enemy.level_key, enemy.layout.size)
    n = len(fighters) - 1
    realloc = []
    passes = 0
    for i, role in enumerate(roles):
        counts = range(n + 1) if i == 0 else (1,)
        grid = np.tile(np.arange(role.layout.size, dtype=np.intp), (len(counts), 1))
        for row, alive in enumerate(counts):
            if alive == 0:
                continue  # the combat is over: nothing changes
            dice = combat_dice(alive)
            defence = min(wanted[i], dice)
            passes = max(passes, dice - defence)
            for code in range(role.layout.alive_codes):
                health = role.layout.decode(code)[0].end_of_round()  # II-B-5
                grid[row, code] = role.layout.encode(
                    health, defence >= dice - defence, False, defence, dice - defence
                )
        realloc.append(grid if i == 0 else grid[0])
    return _Round(tables, passes, enemy.level_key, enemy.layout.size, tuple(realloc))


def _initiative(
    tables: _Tables, codes: Ints, enemies_alive: Ints, live: Bools
) -> NDArray[np.float64]:
    """P(the lone fighter's side attacks first) in the combats still undecided (VII-C-2),
    exactly; 1 in the others."""
    grid, (low_a, low_b) = tables.first_odds, tables.ini_low
    mine = np.where(live, tables.ini[0][codes[0]] - low_a, 0)
    best = np.max([ini[c] for ini, c in zip(tables.ini[1:], codes[1:], strict=True)], axis=0)
    theirs = np.where(live, best + enemies_alive - 1 - low_b, 0)
    cell = mine * grid.shape[1] + theirs
    odds = grid.ravel()[cell]
    missing = np.isnan(odds)
    if missing.any():
        for c in np.unique(cell[missing]).tolist():
            a, b = divmod(c, grid.shape[1])
            grid[a, b] = _p_first(a + low_a, b + low_b)
        odds = grid.ravel()[cell]
    out: NDArray[np.float64] = np.where(live, odds, 1.0)
    return out


def _weapon_combats(batch: _Batch, kind: _Round, lo: int, hi: int, centre_first: bool) -> None:
    """VII-C-3 in combats ``lo:hi`` whose side order is the same: every weapon combat, each
    side's attacks in turn (a planned attack on a killed fighter, or by one, is dropped)."""
    if lo == hi:
        return
    for _ in range(kind.passes):
        if centre_first:
            _centre_turn(batch, kind, lo, hi)
            _enemies_turn(batch, kind.tables, lo, hi)
        else:
            _enemies_turn(batch, kind.tables, lo, hi)
            _centre_turn(batch, kind, lo, hi)


def _enemies_turn(batch: _Batch, tables: _Tables, lo: int, hi: int) -> None:
    """Each enemy with an attack die attacks the lone fighter, in order (Tactics.plan)."""
    codes = batch.codes
    for e, rows in enumerate(tables.enemy_rows, start=1):
        codes[0, lo:hi] = batch.attack(
            tables, codes[e, lo:hi], codes[0, lo:hi], rows, tables.centre_target, tables.centre_next
        )


def _centre_turn(batch: _Batch, kind: _Round, lo: int, hi: int) -> None:
    """The lone fighter attacks the living enemies, the most wounded first (then in order),
    one attack each while his attack dice last (Tactics.plan)."""
    codes, tables = batch.codes, kind.tables
    me = codes[0, lo:hi]
    n = len(codes) - 1
    if n == 1:
        codes[1, lo:hi] = batch.attack(
            tables,
            me,
            codes[1, lo:hi],
            tables.centre_rows,
            tables.enemies_rows,
            tables.enemies_next,
        )
        return
    runs = np.arange(lo, hi)
    wounded = kind.level_key[codes[1:, lo:hi]]
    order = np.argsort(-wounded, axis=0, kind="stable")
    for j in range(n):
        enemy = order[j]
        target = codes[1 + enemy, runs]
        key = enemy * kind.enemy_size + target
        codes[1 + enemy, runs] = batch.attack(
            tables, me, target, tables.centre_rows, tables.enemies_rows, tables.enemies_next, key
        )


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
    roll_dice: bool = False,
) -> MonteCarloOdds:
    """``runs`` combats at once with numpy (see the module); ``rounds`` > 1: the survivors
    fight again in later rounds (Stunned and charge penalties gone, II-B-5, V-B-3).
    ``roll_dice``: roll every die instead of drawing each attack's outcome from its exact odds
    (the same process, about 10 times slower; :attr:`MonteCarloOdds.dice` counts them)."""
    if runs < 2 or rounds < 1:
        raise ValueError("at least 2 runs and 1 round")
    table = table or default_injury_table()
    marked = penalised(attacker, defenders, charge=charge, charged=charged)
    start = initial_state(attacker, defenders, penalties=marked)  # checks VII-C-1
    fighters = start.fighters
    policies = tuple(f.defence for f in (attacker, *defenders))
    wanted = tuple(
        f.allocation.defence if f.allocation is not None else 0 for f in (attacker, *defenders)
    )
    first_round = _round(fighters, policies, wanted, True, table)
    later = _round(fighters, policies, wanted, False, table) if rounds > 1 else None
    roles = [_role(f, p) for f, p in zip(fighters, policies, strict=True)]
    begin = np.array(
        [
            r.layout.encode(
                f.health,
                f.allocation.defence >= f.allocation.attack,
                False,
                f.allocation.defence,
                f.allocation.attack,
            )
            for f, r in zip(fighters, roles, strict=True)
        ],
        dtype=np.intp,
    )
    p_first = float(initiative_odds(start))
    rng = np.random.default_rng(seed)
    levels = np.zeros((runs, len(fighters)), dtype=np.int64)
    stunned = np.zeros((runs, len(fighters)), dtype=np.bool_)
    dice = 0
    for lo in range(0, runs, _CHUNK):
        m = min(_CHUNK, runs - lo)
        batch = _Batch(np.repeat(begin[:, None], m, axis=1), rng, roll_dice, table)
        ahead = int(rng.binomial(m, p_first))  # VII-C-2: the same odds in every combat
        _weapon_combats(batch, first_round, 0, ahead, True)
        _weapon_combats(batch, first_round, ahead, m, False)
        for _ in range(rounds - 1):
            assert later is not None
            ahead = _next_round(batch, later, roles)
            _weapon_combats(batch, later, 0, ahead, True)
            _weapon_combats(batch, later, ahead, m, False)
        for i, role in enumerate(roles):
            levels[lo : lo + m, i] = role.levels[batch.codes[i]]
            stunned[lo : lo + m, i] = role.stunned[batch.codes[i]]
        dice += batch.dice_rolled
    return MonteCarloOdds(tuple(f.id for f in fighters), levels, stunned, dice)


def _next_round(batch: _Batch, kind: _Round, roles: Sequence[_Role]) -> int:
    """The survivors of combats still undecided fight again: Stunned is gone (II-B-5), each
    keeps his defence dice (capped) and the rest in attack, the initiative is rolled again.
    The combats are reordered, those whose lone fighter attacks first ahead; returns how many."""
    codes = batch.codes
    alive = np.stack([codes[i] < r.layout.alive_codes for i, r in enumerate(roles)])
    enemies_alive = alive[1:].sum(axis=0)
    live = alive[0] & (enemies_alive > 0)
    codes[0] = np.where(live, kind.realloc[0][enemies_alive, codes[0]], codes[0])
    for e in range(1, len(roles)):
        codes[e] = np.where(live, kind.realloc[e][codes[e]], codes[e])
    first = batch.rng.random(codes.shape[1]) < _initiative(kind.tables, codes, enemies_alive, live)
    ahead = np.flatnonzero(first)
    batch.codes = codes[:, np.concatenate([ahead, np.flatnonzero(~first)])]
    return len(ahead)


def allocation_of(text: str) -> Allocation:
    """``"2:1"`` → 2 dice in attack, 1 in defence (the CLI's --alloc)."""
    try:
        attack, defence = (int(x) for x in text.split(":"))
    except ValueError:
        raise ValueError(f"an allocation is ATTACK:DEFENCE dice, e.g. 2:1, not {text!r}") from None
    return Allocation(attack, defence)
