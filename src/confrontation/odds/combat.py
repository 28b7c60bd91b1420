"""The exact end state of a whole combat (VII-C): one fighter against one to three enemies.

The combat is the engine's :func:`confrontation.rules.combat.fight`, read as a Markov decision
process: a memoised recursion over :class:`~confrontation.rules.combat.CombatState` follows
fight()'s loop step by step (weapon combats, each side's planned attacks, an attack on a
killed fighter dropped, the end as soon as no attack die can be used), branches on chance with
the exact per-attack odds (:func:`confrontation.odds.exact.block_odds` and the wound table)
and books every branch with the engine's own :func:`~confrontation.rules.combat.apply_attack`,
so wound penalties change the values mid-combat (II-B-4, VII-C-4 Caution), a killed fighter
loses his dice (VII-C-4 e) and a sustained defence keeps its die at DEF-2 (VII-C-5).

The players' decisions are a :class:`Tactics`: the same object drives the exact recursion and
``fight()`` (brute force, Monte Carlo), so the two agree by construction of the rules, not of
the odds code. Initiative (VII-C-2) is the opposed test of :func:`confrontation.dice.p_opposed`.

>>> guard = Fighter("guard", Stats(ini=3, att=5, str_=8, def_=5, res=11), Allocation(2, 0))
>>> warrior = Fighter("warrior", Stats(ini=3, att=3, str_=7, def_=3, res=7), Allocation(1, 1))
>>> odds = combat_odds(guard, [warrior])
>>> sum(odds.outcomes.values())
Fraction(1, 1)
>>> odds.p_killed("guard") + odds.p_alive("guard") == 1
True
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import Any

from confrontation.dice import RaisePolicy, p_opposed
from confrontation.odds.exact import attack_stop_natural, block_odds
from confrontation.rules.characteristics import (
    HEALTHY,
    Characteristic,
    HealthState,
    Modifiers,
)
from confrontation.rules.charge import Charge, charge_modifiers, penalised_fighters
from confrontation.rules.combat import (
    Allocation,
    AttackRecord,
    Combatant,
    CombatDecisions,
    CombatState,
    DefenceChoice,
    Stats,
    apply_attack,
    check_plan,
    combat_dice,
    combat_over,
    defence_choices,
    initiative_value,
    may_sustain,
)
from confrontation.rules.wounds import apply_wound, wound_distribution

__all__ = [
    "CENTRE_SIDE",
    "ENEMY_SIDE",
    "CombatOdds",
    "DefencePolicy",
    "EndState",
    "Fighter",
    "Tactics",
    "combat_odds",
    "initial_state",
    "initiative_odds",
]

C = Characteristic
CENTRE_SIDE = "attacker"
ENEMY_SIDE = "defenders"

EndState = tuple[HealthState, ...]
"""The health of every fighter at the end, in the order of :attr:`CombatOdds.names`."""


class DefencePolicy(Enum):
    """How a fighter announces his defence dice against each attack (VII-C-4 b, VII-C-5).

    After a sustained defence the same die must defend again, sustained (VII-C-5): every
    policy obeys that.
    """

    NONE = "none"
    """Never defend."""
    ONE = "one"
    """One die against each attack while dice remain (the book's example)."""
    ALL = "all"
    """Every defence die left against the first attack."""
    SUSTAIN = "sustain"
    """One die against each attack; the last one as a sustained defence when allowed."""

    def choose(self, fighter: Combatant, choices: tuple[DefenceChoice, ...]) -> DefenceChoice:
        """The choice among the legal ``choices`` (:func:`~confrontation.rules.combat.
        defence_choices`)."""
        if fighter.sustaining:
            return choices[0]  # the sustained die must defend again (VII-C-5)
        if self is DefencePolicy.NONE or fighter.defence_left == 0:
            return DefenceChoice(0)
        if self is DefencePolicy.ALL:
            return DefenceChoice(fighter.defence_left)
        if self is DefencePolicy.SUSTAIN and may_sustain(fighter):
            return DefenceChoice(1, True)
        return DefenceChoice(1)


@dataclass(frozen=True)
class Fighter:
    """A fighter as the odds see him: reference values, dice allocation, decisions.

    ``allocation`` None: every die in attack. ``defence``: his :class:`DefencePolicy`.
    ``health``: his state when the combat begins (e.g. Stunned by a shot, II-B-4).
    ``power``: Power of his size (I-C), for charge penalties (V-B-3).
    """

    name: str
    stats: Stats
    allocation: Allocation | None = None
    defence: DefencePolicy = DefencePolicy.ONE
    health: HealthState = HEALTHY
    power: int = 1
    strategic_value: int = 0


@dataclass
class Tactics:
    """The players' decisions, as :class:`~confrontation.rules.combat.CombatDecisions` callbacks.

    - plan (VII-C-3): the fighters of the many-side each attack the lone fighter, in the given
      order; the lone fighter attacks every enemy when he has the dice, the most wounded
      first (then the given order), and otherwise the most wounded ones.
    - defence: each fighter's :class:`DefencePolicy`.
    - raises: the defender raises while below the attack (``RaisePolicy.OPTIMAL``), the
      attacker per :func:`~confrontation.odds.exact.attack_stop_natural` for the defence just
      announced (the callbacks share it: ``defend`` is always asked just before the attack).
    """

    centre: str
    policies: Mapping[str, DefencePolicy]
    order: tuple[str, ...]
    _stop_at: int = field(default=6, init=False, repr=False)

    def plan(self, state: CombatState, side: str) -> list[tuple[str, str]]:
        centre = state.fighter(self.centre)
        if side == centre.side:
            targets = sorted(
                state.opponents(centre.id),
                key=lambda t: (-state.fighter(t).health.wound_levels, self.order.index(t)),
            )
            return [(centre.id, t) for t in targets[: max(centre.attack_left, 0)]]
        if not centre.alive:
            return []
        return [
            (f.id, centre.id)
            for f in state.side_fighters(side)
            if f.alive and f.attack_left > 0 and f.id != centre.id
        ]

    def choice(
        self, state: CombatState, attacker: str, target: str, choices: tuple[DefenceChoice, ...]
    ) -> DefenceChoice:
        """The defence announced (no side effect)."""
        return self.policies[target].choose(state.fighter(target), choices)

    def defend(
        self, state: CombatState, attacker: str, target: str, choices: tuple[DefenceChoice, ...]
    ) -> DefenceChoice:
        choice = self.choice(state, attacker, target, choices)
        att, def_ = attack_values(state, attacker, target, choice)[:2]
        self._stop_at = attack_stop_natural(att, def_, choice.dice)
        return choice

    def raise_attack(self, pending: Any, needed: int | None) -> bool:
        return bool(pending.natural < self._stop_at)

    def decisions(self) -> CombatDecisions:
        return CombatDecisions(
            plan=self.plan,
            defend=self.defend,
            raise_attack=self.raise_attack,
            raise_defence=RaisePolicy.OPTIMAL,
        )


def attack_values(
    state: CombatState, attacker: str, target: str, choice: DefenceChoice
) -> tuple[int, int, int, int]:
    """Current ATT, DEF, STR, RES of an attack, as :func:`~confrontation.rules.combat.
    resolve_attack` reads them (a sustained defence counts its DEF-2 at once)."""
    a, t = state.fighter(attacker), state.fighter(target)
    defender = replace(t, sustaining=True) if choice.sustained else t
    return a.current(C.ATT), defender.current(C.DEF), a.current(C.STR), defender.current(C.RES)


# --- building the combat -----------------------------------------------------------------------

_CHARGE_PENALISED = (C.INI, C.ATT, C.DEF)


def _charge_mods(charged: bool) -> tuple[tuple[Characteristic, Modifiers], ...]:
    if not charged:
        return ()
    return tuple((c, charge_modifiers(c, True)) for c in _CHARGE_PENALISED)


def penalised(
    attacker: Fighter, defenders: Sequence[Fighter], *, charge: bool, charged: bool
) -> frozenset[str]:
    """Who suffers charge penalties (V-B-3): ``charge`` = the lone fighter charged his
    enemies this round, ``charged`` = each enemy charged him."""
    charges: list[Charge] = []
    if charge:
        charges.append(
            Charge(1, attacker.name, attacker.power, {d.name: d.power for d in defenders})
        )
    if charged:
        charges.extend(
            Charge(1, d.name, d.power, {attacker.name: attacker.power}) for d in defenders
        )
    return penalised_fighters(charges, 1)


def _allocation(fighter: Fighter, dice: int) -> Allocation:
    if fighter.allocation is None:
        return Allocation(dice, 0)
    if fighter.allocation.dice != dice:
        raise ValueError(
            f"{fighter.name} has {dice} combat dice (VII-C-1), not {fighter.allocation.dice}"
        )
    return fighter.allocation


def initial_state(
    attacker: Fighter,
    defenders: Sequence[Fighter],
    side_order: tuple[str, str] = (CENTRE_SIDE, ENEMY_SIDE),
    penalties: Iterable[str] = (),
) -> CombatState:
    """The allocated combat (VII-C-1) as the engine's :class:`CombatState`: the lone fighter
    has 1 + n dice, each enemy 2; ``penalties`` names the fighters under charge penalties."""
    if not defenders or len({attacker.name, *(d.name for d in defenders)}) != len(defenders) + 1:
        raise ValueError("a combat has one fighter against one or more, all named differently")
    charged = frozenset(penalties)
    centre = Combatant(
        attacker.name,
        CENTRE_SIDE,
        attacker.stats,
        _allocation(attacker, combat_dice(len(defenders))),
        attacker.health,
        _charge_mods(attacker.name in charged),
        attacker.strategic_value,
    )
    enemies = tuple(
        Combatant(
            d.name,
            ENEMY_SIDE,
            d.stats,
            _allocation(d, combat_dice(1)),
            d.health,
            _charge_mods(d.name in charged),
            d.strategic_value,
        )
        for d in defenders
    )
    return CombatState(attacker.name, (centre, *enemies), side_order)


def initiative_odds(state: CombatState) -> Fraction:
    """P(the lone fighter's side wins the initiative test) (VII-C-2): his current INI against
    the best current INI of the many + the number of his friends, both raising sensibly."""
    centre = state.fighter(state.centre)
    others = [f for f in state.fighters if f.id != state.centre and f.alive]
    best = max(f.current(C.INI) for f in others)
    return p_opposed(
        initiative_value(centre.current(C.INI), 1), initiative_value(best, len(others))
    )


# --- the recursion -------------------------------------------------------------------------------


def _record(
    state: CombatState,
    attacker: str,
    target: str,
    choice: DefenceChoice,
    values: tuple[int, int, int, int],
    lost: int,
    health: HealthState,
    blocked: bool,
) -> AttackRecord:
    """An :class:`AttackRecord` for :func:`apply_attack` (the dice themselves are not kept)."""
    before = state.fighter(target)
    dice_lost = before.dice_left - lost if health.killed and not before.health.killed else 0
    att, def_, strength, res = values
    return AttackRecord(
        state.weapon_pass,
        attacker,
        target,
        att,
        strength,
        def_,
        res,
        choice,
        None,
        None,
        blocked,
        lost,
        None,
        before.health,
        health,
        dice_lost,
    )


def _attack_branches(
    state: CombatState, attacker: str, target: str, choice: DefenceChoice
) -> list[tuple[Fraction, CombatState]]:
    """Every state after one attack, with its exact probability (VII-C-4 c-e)."""
    values = attack_values(state, attacker, target, choice)
    att, def_, strength, res = values
    block = block_odds(att, def_, choice.dice)
    spent = 0 if choice.sustained else choice.dice
    health = state.fighter(target).health
    branches: list[tuple[Fraction, CombatState]] = []
    if block.failed:  # automatic failure: no defence die lost (VII-C-4 d)
        record = _record(state, attacker, target, choice, values, 0, health, False)
        branches.append((block.failed, apply_attack(state, record)))
    if block.blocked:
        record = _record(state, attacker, target, choice, values, spent, health, True)
        branches.append((block.blocked, apply_attack(state, record)))
    if block.hit:
        after: dict[HealthState, Fraction] = {}
        for result, p in wound_distribution(strength, res).items():
            if p:
                new = apply_wound(health, result)
                after[new] = after.get(new, Fraction(0)) + p
        for new, p in after.items():
            record = _record(state, attacker, target, choice, values, spent, new, False)
            branches.append((block.hit * p, apply_attack(state, record)))
    return branches


def _key(state: CombatState) -> tuple[object, ...]:
    """What the rest of the combat depends on (the dice counters ``used``/``lost`` do not)."""
    return (
        state.weapon_pass,
        tuple((f.health, f.attack_left, f.defence_left, f.sustaining) for f in state.fighters),
    )


Plan = tuple[tuple[str, str], ...]
_PLANNING = -1  # the stage before a side's attacks are planned


def fixed_order_odds(state: CombatState, tactics: Tactics) -> dict[EndState, Fraction]:
    """The exact end states of a combat whose side order (initiative) is already known.

    fight()'s loop (VII-C-3) swept forwards: every position of the loop (weapon combat, side,
    attacks of its plan still to make) is a node; the nodes are visited in the loop's order,
    so each one's probability is complete before it moves on, and identical positions reached
    by different dice are merged.
    """
    buckets: dict[tuple[int, int, int], dict[object, tuple[CombatState, Plan | None, Fraction]]]
    buckets = {}
    queue: list[tuple[int, int, int]] = []
    ends: dict[EndState, Fraction] = {}

    def push(after: CombatState, side: int, plan: Plan | None, p: Fraction) -> None:
        stage = _PLANNING if plan is None else -len(plan)
        where = (after.weapon_pass, side, stage)
        bucket = buckets.get(where)
        if bucket is None:
            bucket = buckets[where] = {}
            heapq.heappush(queue, where)
        key = (_key(after), plan)
        held = bucket.get(key)
        bucket[key] = (after, plan, p if held is None else held[2] + p)

    push(state, 0, None, Fraction(1))
    while queue:
        where = heapq.heappop(queue)
        for current, plan, p in buckets.pop(where).values():
            side = where[1]
            if combat_over(current):
                end = tuple(f.health for f in current.fighters)
                ends[end] = ends.get(end, Fraction(0)) + p
            elif plan is None:
                if side == len(current.side_order):  # the weapon combat is over: the next one
                    push(replace(current, weapon_pass=current.weapon_pass + 1), 0, None, p)
                    continue
                name = current.side_order[side]
                steps = tuple(tactics.plan(current, name))
                check_plan(current, name, steps)
                push(current, side, steps, p)
            elif not plan:
                push(current, side + 1, None, p)
            else:
                (attacker, target), rest = plan[0], plan[1:]
                if not current.fighter(attacker).alive or target not in current.opponents(attacker):
                    push(current, side, rest, p)
                    continue
                choices = defence_choices(current.fighter(target))
                choice = tactics.choice(current, attacker, target, choices)
                for q, after in _attack_branches(current, attacker, target, choice):
                    push(after, side, rest, p * q)
    return ends


# --- the answer --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CombatOdds:
    """The exact distribution of a combat's end state.

    ``names``: the lone fighter first, then his enemies; ``outcomes`` maps each end state (the
    health of every fighter, same order) to its probability; ``p_first``: P(the lone
    fighter's side won the initiative), 1 or 0 when it was given.
    """

    names: tuple[str, ...]
    outcomes: Mapping[EndState, Fraction]
    p_first: Fraction

    def _index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(
                f"no fighter {name!r} in this combat ({', '.join(self.names)})"
            ) from None

    def p(self, event: Any) -> Fraction:
        """P(``event(end_state)``)."""
        return sum((p for s, p in self.outcomes.items() if event(s)), Fraction(0))

    def p_killed(self, name: str) -> Fraction:
        i = self._index(name)
        return self.p(lambda s: s[i].killed)

    def p_alive(self, name: str) -> Fraction:
        return 1 - self.p_killed(name)

    @property
    def p_attacker_killed(self) -> Fraction:
        """P(the lone fighter is killed)."""
        return self.p(lambda s: s[0].killed)

    @property
    def p_defenders_killed(self) -> Fraction:
        """P(every one of his enemies is killed)."""
        return self.p(lambda s: all(h.killed for h in s[1:]))

    def expected_levels(self, name: str) -> Fraction:
        """Expected wound levels of a fighter at the end (killed = 4, II-B-2)."""
        i = self._index(name)
        return sum((p * s[i].wound_levels for s, p in self.outcomes.items()), Fraction(0))

    @property
    def expected_balance(self) -> Fraction:
        """Expected wound levels dealt by the lone fighter minus those he takes."""
        dealt = sum((self.expected_levels(n) for n in self.names[1:]), Fraction(0))
        return dealt - self.expected_levels(self.names[0])

    def to_json(self) -> dict[str, object]:
        """The `odds combat --json` document (README)."""
        rows = sorted(self.outcomes.items(), key=lambda item: (-item[1], repr(item[0])))
        return {
            "fighters": list(self.names),
            "outcomes": [
                {
                    "state": {
                        name: {
                            "wound_levels": h.wound_levels,
                            "stunned": h.stunned,
                            "killed": h.killed,
                        }
                        for name, h in zip(self.names, end, strict=True)
                    },
                    "p": float(p),
                }
                for end, p in rows
            ],
            "p_defender_killed": float(self.p_defenders_killed),
            "p_attacker_killed": float(self.p_attacker_killed),
            "p_killed": {n: float(self.p_killed(n)) for n in self.names},
            "expected_levels": {n: float(self.expected_levels(n)) for n in self.names},
            "p_attacker_first": float(self.p_first),
        }


def _next_round(
    attacker: Fighter, defenders: Sequence[Fighter], end: EndState
) -> tuple[Fighter, list[Fighter]] | None:
    """The same fighters meet again next round (II-B-5: Stunned is gone), survivors only, each
    keeping his number of defence dice (capped) and the rest in attack; None when over."""
    if end[0].killed or all(h.killed for h in end[1:]):
        return None

    def again(f: Fighter, health: HealthState, dice: int) -> Fighter:
        defence = min(f.allocation.defence, dice) if f.allocation is not None else 0
        return replace(
            f, health=health.end_of_round(), allocation=Allocation(dice - defence, defence)
        )

    alive = [(d, h) for d, h in zip(defenders, end[1:], strict=True) if not h.killed]
    return again(attacker, end[0], combat_dice(len(alive))), [again(d, h, 2) for d, h in alive]


def combat_odds(
    attacker: Fighter,
    defenders: Sequence[Fighter],
    *,
    charge: bool = False,
    charged: bool = False,
    first: bool | None = None,
    rounds: int = 1,
) -> CombatOdds:
    """The exact end state of a combat of ``attacker`` against ``defenders`` (VII-C).

    ``charge``: the lone fighter charged them this round; ``charged``: they charged him
    (V-B-3 penalties, -1 INI/ATT/DEF, for whoever the Powers say). ``first``: force the
    initiative (True: the lone fighter's side attacks first); None rolls it (VII-C-2).
    ``rounds`` > 1: the survivors fight again in the next rounds' combat phases.
    """
    if rounds < 1:
        raise ValueError("at least one round")
    names = (attacker.name, *(d.name for d in defenders))
    order = names[1:]
    policies = {attacker.name: attacker.defence, **{d.name: d.defence for d in defenders}}
    marked = penalised(attacker, defenders, charge=charge, charged=charged)
    total: dict[EndState, Fraction] = {}
    start = initial_state(attacker, defenders, penalties=marked)
    p_first = initiative_odds(start) if first is None else Fraction(int(first))
    for order_p, side_order in (
        (p_first, (CENTRE_SIDE, ENEMY_SIDE)),
        (1 - p_first, (ENEMY_SIDE, CENTRE_SIDE)),
    ):
        if not order_p:
            continue
        state = replace(start, side_order=side_order)
        tactics = Tactics(attacker.name, policies, order)
        for end, p in fixed_order_odds(state, tactics).items():
            total[end] = total.get(end, Fraction(0)) + order_p * p
    if rounds > 1:
        total = _more_rounds(attacker, defenders, total, rounds - 1, names)
    return CombatOdds(names, total, p_first)


def _more_rounds(
    attacker: Fighter,
    defenders: Sequence[Fighter],
    ends: Mapping[EndState, Fraction],
    rounds: int,
    names: tuple[str, ...],
) -> dict[EndState, Fraction]:
    """Play ``rounds`` more combats from every end state where both sides still stand."""
    out: dict[EndState, Fraction] = {}
    for end, p in ends.items():
        again = _next_round(attacker, defenders, end)
        if again is None:
            out[end] = out.get(end, Fraction(0)) + p
            continue
        lone, others = again
        sub = combat_odds(lone, others, rounds=rounds)
        for sub_end, q in sub.outcomes.items():
            by_name = dict(zip(sub.names, sub_end, strict=True))
            full = tuple(by_name.get(n, h) for n, h in zip(names, end, strict=True))
            out[full] = out.get(full, Fraction(0)) + p * q
    return out
