"""Close combat arithmetic (chapter VII-B, VII-C), scenery attacks (C3) and combats of three or
more sides (XX-E-4, XX-F-5): pure functions and frozen records, no engine.

The pieces, in the order of a combat:

- VII-B: :func:`authority_candidates` (who may roll the Authority test), :func:`speaker`.
- VII-C-1: :func:`combat_dice`, :func:`allocation_order`, :func:`allocation_choices`.
- VII-C-2: :func:`initiative_value`, :func:`rank_results` (several sides, XX-F-5).
- VII-C-3: :class:`CombatState`, :func:`attacks_due`, :func:`check_plan`, :func:`combat_over`.
- VII-C-4: :func:`roll_block` (attack and defence tests), :func:`resolve_attack` (a-e, one
  frozen :class:`AttackRecord`), :func:`apply_attack`, :func:`attack`.
- VII-C-5: :func:`may_sustain`, :func:`defence_choices`.
- VII-C-6: :func:`pursuit_distance`, :func:`may_pursue`, :func:`pursuit_contact`.
- Scenery: :func:`attack_scenery` with the structure-points table (``data/structure_points.toml``).
- Odds: :func:`p_hit`, :func:`attack_outcomes` (exact, from :mod:`confrontation.dice`).

:func:`fight` chains the steps with decision callbacks: the rulebook replay, the property tests
and the odds calculator use it; the engine asks its questions between the same steps.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from functools import cache
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import TypeVar

from confrontation.dice import (
    FACES,
    PendingTest,
    RaiseDecision,
    RaisePolicy,
    Roller,
    TestResult,
    finish_test,
    natural_distribution,
    p_success,
    rank_opposed,
)
from confrontation.rules.characteristics import (
    HEALTHY,
    NO_MODIFIERS,
    Characteristic,
    HealthState,
    Modifiers,
    current_value,
)
from confrontation.rules.wounds import (
    InjuryTable,
    Location,
    WoundMode,
    WoundResult,
    WoundRoll,
    apply_wound,
    default_injury_table,
    read_wound,
    roll_wound,
    wound_distribution,
)

__all__ = [
    "NO_DEFENCE",
    "SUSTAINED_DEFENCE_MALUS",
    "Allocant",
    "Allocation",
    "AllocationRule",
    "AttackRecord",
    "CombatDecisions",
    "CombatState",
    "Combatant",
    "DefenceChoice",
    "PursuitContact",
    "SceneryAttack",
    "Stats",
    "StructurePoints",
    "StructurePointsError",
    "allocation_choices",
    "allocation_order",
    "allocation_rule",
    "apply_attack",
    "attack",
    "attack_hits",
    "attack_outcomes",
    "attack_scenery",
    "attacks_due",
    "authority_candidates",
    "authority_ranking",
    "check_plan",
    "combat_dice",
    "combat_over",
    "defence_choices",
    "draw_groups",
    "end_combat",
    "fight",
    "initiative_value",
    "load_structure_points",
    "may_pursue",
    "may_sustain",
    "neutral_target_order",
    "p_hit",
    "pursuit_contact",
    "pursuit_distance",
    "rank_results",
    "read_attack",
    "read_scenery_damage",
    "resolve_attack",
    "roll_block",
    "speaker",
]

C = Characteristic
S = TypeVar("S")

# ---------------------------------------------------------------------------------------------
# VII-B Order of resolution
# ---------------------------------------------------------------------------------------------


def authority_candidates(fighters: Iterable[tuple[str, str, bool]], player: str) -> tuple[str, ...]:
    """VII-B: the fighters ``player`` may name for the Authority roll in the combat he chose.

    ``fighters`` are (id, player, routed) of that combat's fighters. Only the player's fighters
    who are not routed qualify (an ally or a Pariah too: VII-B Note). When every one of his
    fighters there is routed, he names one of them (docs/rulings.md, "VII-B").
    """
    own = [(fid, routed) for fid, owner, routed in fighters if owner == player]
    if not own:
        raise ValueError(f"player {player!r} has no fighter in this combat")
    steady = tuple(fid for fid, routed in own if not routed)
    return steady or tuple(fid for fid, _ in own)


def speaker(order: Sequence[str], turn: int) -> str:
    """VII-B / XX-F-5: who chooses the combat of speaking turn ``turn`` (0 = the first).

    ``order`` is (winner of the Authority roll, the other player) with two players, or the
    players by decreasing Tactics result with three or more (XX-F-5); they take turns.
    """
    if not order:
        raise ValueError("no player to speak")
    return order[turn % len(order)]


def rank_results(finals: Mapping[S, int]) -> tuple[tuple[S, ...], ...]:
    """Sides by decreasing final result, tied sides grouped (XX-F-5 initiative per side,
    XX-F-5 Discipline test of a melee). Every result ≤ 0 counts as 0 (II-A-4). A group of more
    than one side must roll again among themselves (docs/rulings.md, "XX-F-5"). The rule of
    every opposed test: :func:`confrontation.dice.rank_opposed` (CLARIFICATIONS §9)."""
    return rank_opposed(finals)


def authority_ranking(entries: Mapping[S, tuple[bool, int]]) -> tuple[tuple[S, ...], ...]:
    """XX-F-5 Note: in the Authority roll, fighters with the ability "Authority" are placed
    before every fighter without it; each group is ordered by its Discipline results.

    ``entries``: side → (its fighter has "Authority", final result of its Discipline test).
    """
    holders = {s: f for s, (auth, f) in entries.items() if auth}
    others = {s: f for s, (auth, f) in entries.items() if not auth}
    return rank_results(holders) + rank_results(others)


# ---------------------------------------------------------------------------------------------
# VII-C-1 Allocation of combat dice
# ---------------------------------------------------------------------------------------------


def combat_dice(opponents: int, *, scenery: bool = False, bonus: int = 0) -> int:
    """VII-C-1: 1 + the number of opponents engaged in the same combat.

    C3 scenery: a fighter engaged only against an element of scenery gets his normal dice (the
    element counts as one opponent); scenery adds no die to a fighter who also has enemies.
    ``bonus``: dice given by game effects (abilities are carried as data).
    """
    if opponents < 0 or bonus < 0:
        raise ValueError("opponents and bonus dice cannot be negative")
    if opponents == 0 and not scenery:
        raise ValueError("a fighter with no opponent and no scenery is not in a combat")
    return 1 + max(opponents, 1 if scenery else 0) + bonus


@dataclass(frozen=True, slots=True)
class Allocant:
    """A fighter about to allocate his combat dice (VII-C-1).

    ``timing`` < 0 / > 0: a game effect makes him allocate before / after every fighter with
    timing 0 (VII-C-1 Note); fighters sharing a timing go in ascending strategic value.
    """

    fighter: str
    player: str
    strategic_value: int
    timing: int = 0


def allocation_order(fighters: Sequence[Allocant], chooser: str) -> tuple[str, ...]:
    """VII-C-1: the order in which dice are allocated: ascending strategic value; between
    enemies of equal value, the player who did not choose the combat allocates first.

    Friends of equal value keep the given order (their player's choice, docs/rulings.md).
    """
    ranked = sorted(
        range(len(fighters)),
        key=lambda i: (
            fighters[i].timing,
            fighters[i].strategic_value,
            fighters[i].player == chooser,
            i,
        ),
    )
    return tuple(fighters[i].fighter for i in ranked)


@dataclass(frozen=True, slots=True)
class Allocation:
    """Combat dice placed in attack and in defence (VII-C-1)."""

    attack: int
    defence: int

    def __post_init__(self) -> None:
        if self.attack < 0 or self.defence < 0:
            raise ValueError(f"dice cannot be negative: {self.attack}/{self.defence}")

    @property
    def dice(self) -> int:
        return self.attack + self.defence


class AllocationRule(Enum):
    """Who decides where the dice go."""

    FREE = "free"
    """The controlling player splits them as he likes (VII-C-1)."""
    ALL_DEFENCE = "all-defence"
    """A Defense counter (failed disengagement, V-C) or a passive individual (XX-E-6)."""
    ALL_ATTACK = "all-attack"
    """A neutral fighter (XX-E-4), unless a game effect forces him to defend."""


def allocation_rule(
    *, defence_counter: bool = False, neutral: bool = False, passive: bool = False
) -> AllocationRule:
    """The allocation rule of a fighter: a Defense counter (V-C) or a passive individual
    (XX-E-6, even if forced to attack) puts every die in defence; a neutral fighter puts every
    die in attack unless forced to defend (XX-E-4)."""
    if passive or defence_counter:
        return AllocationRule.ALL_DEFENCE
    if neutral:
        return AllocationRule.ALL_ATTACK
    return AllocationRule.FREE


def allocation_choices(
    dice: int, rule: AllocationRule = AllocationRule.FREE
) -> tuple[Allocation, ...]:
    """Every legal allocation of ``dice`` combat dice (VII-C-1, V-C, XX-E-4, XX-E-6)."""
    if dice < 1:
        raise ValueError(f"a fighter in combat has at least one die, not {dice}")
    if rule is AllocationRule.ALL_DEFENCE:
        return (Allocation(0, dice),)
    if rule is AllocationRule.ALL_ATTACK:
        return (Allocation(dice, 0),)
    return tuple(Allocation(a, dice - a) for a in range(dice, -1, -1))


# ---------------------------------------------------------------------------------------------
# VII-C-2 Initiative
# ---------------------------------------------------------------------------------------------


def initiative_value(ini: int, fighters_on_side: int) -> int:
    """VII-C-2: the tester's current INI + X, X = the other fighters of his side in the combat.

    The book: Arkeon Sanath, INI 5, with two Dawn Warriors: 5 + 2 = 7.
    """
    if fighters_on_side < 1:
        raise ValueError("a side in a combat has at least one fighter")
    return ini + fighters_on_side - 1


# ---------------------------------------------------------------------------------------------
# Fighters in a combat
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stats:
    """The reference values the combat reads (I-C): INI, ATT, STR, DEF, RES."""

    ini: int
    att: int
    str_: int
    def_: int
    res: int

    def reference(self, characteristic: Characteristic) -> int:
        return int(getattr(self, _STAT_BY_VALUE[characteristic._value_]))


_STAT_FIELDS: dict[Characteristic, str] = {
    C.INI: "ini",
    C.ATT: "att",
    C.STR: "str_",
    C.DEF: "def_",
    C.RES: "res",
}
"""The :class:`Stats` field of each characteristic a combat reads."""

_STAT_BY_VALUE: dict[str, str] = {c._value_: name for c, name in _STAT_FIELDS.items()}
"""The same, keyed by the characteristic's value (a str hashes in C, an Enum in Python)."""


SUSTAINED_DEFENCE_MALUS = 2
"""VII-C-5: a sustained defence costs DEF-2 until the end of the combat."""


@dataclass(frozen=True, slots=True)
class Combatant:
    """One fighter in a combat, his dice and his health.

    Dice bookkeeping: ``allocation`` = dice left (``attack_left`` + ``defence_left``) + dice
    ``used`` (rolled in an attack, or defence dice spent on a block) + dice ``lost`` (killed
    with dice left, or unused at the end of the combat).
    """

    id: str
    side: str
    stats: Stats
    allocation: Allocation
    health: HealthState = HEALTHY
    modifiers: tuple[tuple[Characteristic, Modifiers], ...] = ()
    """Game effects of the moment (e.g. charge penalties, V-B-3), per characteristic."""
    strategic_value: int = 0
    attack_left: int = -1
    defence_left: int = -1
    used: int = 0
    lost: int = 0
    sustaining: bool = False
    """Has made a sustained defence (VII-C-5): DEF-2 and the die is kept for the combat."""

    def __post_init__(self) -> None:
        if self.attack_left < 0:
            object.__setattr__(self, "attack_left", self.allocation.attack)
        if self.defence_left < 0:
            object.__setattr__(self, "defence_left", self.allocation.defence)

    @property
    def alive(self) -> bool:
        return not self.health.killed

    @property
    def dice_left(self) -> int:
        return self.attack_left + self.defence_left

    def current(self, characteristic: Characteristic) -> int:
        """The current value (II-A-4) with the wound penalties of the moment (II-B-4)."""
        if not self.modifiers and not (self.sustaining and characteristic is C.DEF):
            return current_value(  # no effect of the moment: the common case
                characteristic, self.stats.reference(characteristic), NO_MODIFIERS, self.health
            )
        mods = Modifiers()
        for c, m in self.modifiers:
            if c is characteristic:
                mods = mods + m
        if characteristic is C.DEF and self.sustaining:
            mods = mods + Modifiers(penalties=SUSTAINED_DEFENCE_MALUS)
        return current_value(
            characteristic, self.stats.reference(characteristic), mods, self.health
        )


@dataclass(frozen=True, slots=True)
class CombatState:
    """A combat being resolved (VII-C-3): one fighter (``centre``) against one or many.

    ``side_order``: the sides by initiative, the first attacks first in every weapon combat
    (VII-C-2, XX-F-5). ``weapon_pass`` counts the weapon combats (1 = the first).
    """

    centre: str
    fighters: tuple[Combatant, ...]
    side_order: tuple[str, ...]
    weapon_pass: int = 1

    def __post_init__(self) -> None:
        ids = [f.id for f in self.fighters]
        if len(set(ids)) != len(ids) or self.centre not in ids:
            raise ValueError("a combat's fighters have distinct ids and include its centre")
        if set(self.side_order) != {f.side for f in self.fighters}:
            raise ValueError("side_order must list every side of the combat once")

    def fighter(self, fighter_id: str) -> Combatant:
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        raise KeyError(fighter_id)

    def opponents(self, fighter_id: str) -> tuple[str, ...]:
        """The living opponents of a fighter: the centre fights every other fighter, each of
        them fights the centre only (VII-A: one against one or one against many)."""
        if fighter_id == self.centre:
            return tuple(f.id for f in self.fighters if f.id != self.centre and f.alive)
        centre = self.fighter(self.centre)
        return (centre.id,) if centre.alive else ()

    def side_fighters(self, side: str) -> tuple[Combatant, ...]:
        return tuple(f for f in self.fighters if f.side == side)

    def replaced(self, fighter: Combatant) -> CombatState:
        return replace(
            self, fighters=tuple(fighter if f.id == fighter.id else f for f in self.fighters)
        )


def combat_over(state: CombatState) -> bool:
    """VII-C-3: the combat is over when a side is wiped out or no attack die can be used
    (no living fighter has both an attack die and a living opponent)."""
    return not any(f.alive and f.attack_left > 0 and state.opponents(f.id) for f in state.fighters)


def end_combat(state: CombatState) -> CombatState:
    """Discard the dice left when the combat is over (they count as lost)."""
    fighters = tuple(
        replace(f, attack_left=0, defence_left=0, lost=f.lost + f.dice_left) for f in state.fighters
    )
    return replace(state, fighters=fighters)


# ---------------------------------------------------------------------------------------------
# VII-C-3 Weapon combats
# ---------------------------------------------------------------------------------------------


def attacks_due(state: CombatState, fighter_id: str) -> tuple[frozenset[str], ...]:
    """VII-C-3: the sets of enemies ``fighter_id`` may attack in this weapon combat.

    One attack on each living opponent if he has enough attack dice, otherwise he chooses
    which opponents get his remaining dice; no die, no attack.
    """
    fighter = state.fighter(fighter_id)
    targets = state.opponents(fighter_id) if fighter.alive else ()
    n = min(fighter.attack_left, len(targets))
    if n == len(targets):
        return (frozenset(targets),)
    return tuple(frozenset(c) for c in combinations(sorted(targets), n))


def check_plan(state: CombatState, side: str, plan: Sequence[tuple[str, str]]) -> None:
    """Refuse a side's attacks for a weapon combat that VII-C-3 does not allow.

    ``plan`` lists (attacker, target) in the order the player chose; each fighter of the side
    must attack exactly one of his :func:`attacks_due` sets, each target once.
    """
    by_attacker: dict[str, list[str]] = {}
    for attacker, target in plan:
        if state.fighter(attacker).side != side:
            raise ValueError(f"{attacker} is not on side {side}")
        by_attacker.setdefault(attacker, []).append(target)
    for fighter in state.side_fighters(side):
        targets = by_attacker.get(fighter.id, [])
        if len(set(targets)) != len(targets):
            raise ValueError(f"{fighter.id} attacks an enemy twice in one weapon combat (VII-C-3)")
        if frozenset(targets) not in attacks_due(state, fighter.id):
            raise ValueError(
                f"{fighter.id} must attack one of "
                f"{[sorted(s) for s in attacks_due(state, fighter.id)]}, not {sorted(targets)}"
            )


# ---------------------------------------------------------------------------------------------
# VII-C-5 Sustained defence, VII-C-4 b announcement of the defence
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DefenceChoice:
    """VII-C-4 b: how many defence dice try to block; ``sustained`` = a sustained defence."""

    dice: int
    sustained: bool = False


NO_DEFENCE = DefenceChoice(0)


def may_sustain(fighter: Combatant) -> bool:
    """VII-C-5: at least as many dice in defence as in attack when allocated, and this is his
    last defence die (docs/rulings.md, "VII-C-5")."""
    return fighter.allocation.defence >= fighter.allocation.attack and fighter.defence_left == 1


def defence_choices(fighter: Combatant) -> tuple[DefenceChoice, ...]:
    """VII-C-4 b, VII-C-5: what the target may announce against an attack.

    After a sustained defence the same die must defend again, sustained, against every new
    attack of the combat.
    """
    if fighter.sustaining:
        return (DefenceChoice(1, True),)
    choices = [DefenceChoice(n) for n in range(fighter.defence_left + 1)]
    if may_sustain(fighter):
        choices.append(DefenceChoice(1, True))
    return tuple(choices)


# ---------------------------------------------------------------------------------------------
# VII-C-4 An attack
# ---------------------------------------------------------------------------------------------


def roll_block(
    roller: Roller,
    attack_value: int,
    defence_value: int,
    defence_dice: int,
    decide_attack: RaiseDecision,
    decide_defence: RaiseDecision,
) -> tuple[TestResult | None, TestResult | None]:
    """VII-C-4 c-d: the attack test (one die, its 6s raised first), then the defence test with
    ``defence_dice`` dice against the attack's final result.

    No attack test is rolled when the target does not defend and the test cannot fail
    (current ATT ≥ 0: the smallest natural result is 1), as in the book's example where the
    Dawn Warrior "goes directly to the wound roll" (docs/rulings.md, "VII-C-4"). No defence
    test is rolled against an automatic failure (it is blocked anyway).
    ``decide_attack`` is told ``needed`` = 1 without defence, ``None`` otherwise (the defence
    is rolled after); ``decide_defence`` is told the attack's final result.
    """
    if defence_dice == 0 and attack_value >= 0:
        return None, None
    pending = PendingTest.roll(roller, attack_value)
    attack_test = finish_test(roller, pending, decide_attack, 1 if defence_dice == 0 else None)
    if defence_dice == 0 or attack_test.automatic_failure:
        return attack_test, None
    defence = PendingTest.roll(roller, defence_value, defence_dice)
    return attack_test, finish_test(roller, defence, decide_defence, max(attack_test.final, 1))


@dataclass(frozen=True, slots=True)
class AttackRecord:
    """Everything rolled and decided in one attack (VII-C-4 a-e)."""

    weapon_pass: int
    attacker: str
    target: str
    attack_value: int
    """The attacker's current ATT."""
    strength: int
    """The attacker's current STR (the wound roll's strength, VII-C-4 e)."""
    defence_value: int
    """The target's current DEF (sustained defence included)."""
    resistance: int
    defence: DefenceChoice
    attack_test: TestResult | None
    """None when it could not fail and nothing opposed it (VII-C-4 c, the book's example)."""
    defence_test: TestResult | None
    blocked: bool
    defence_dice_lost: int
    wound: WoundRoll | None
    health_before: HealthState
    health_after: HealthState
    dice_lost_on_death: int
    """The target's combat dice lost when he is killed (VII-C-4 e)."""

    @property
    def automatic_failure(self) -> bool:
        return self.attack_test is not None and self.attack_test.automatic_failure

    @property
    def hit(self) -> bool:
        """The attack is successful: not an automatic failure and not blocked (VII-C-4 d)."""
        return not self.automatic_failure and not self.blocked

    @property
    def killed(self) -> bool:
        return self.health_after.killed and not self.health_before.killed


def resolve_attack(
    roller: Roller,
    state: CombatState,
    attacker_id: str,
    target_id: str,
    defence: DefenceChoice,
    decide_attack: RaiseDecision,
    decide_defence: RaiseDecision,
    *,
    mode: WoundMode = WoundMode.NORMAL,
    table: InjuryTable | None = None,
) -> AttackRecord:
    """One attack, VII-C-4 a-e, with the fighters' current values (they change with every
    wound: VII-C-4 Caution). Nothing is changed: :func:`apply_attack` books the record."""
    attacker, target = state.fighter(attacker_id), state.fighter(target_id)
    if not attacker.alive or attacker.attack_left < 1:
        raise ValueError(f"{attacker_id} has no attack die left or is dead")
    if target_id not in state.opponents(attacker_id):
        raise ValueError(f"{target_id} is not a living opponent of {attacker_id} (VII-C-4 a)")
    if defence not in defence_choices(target):
        raise ValueError(f"{target_id} cannot announce {defence} (VII-C-4 b, VII-C-5)")
    att, strength = attacker.current(C.ATT), attacker.current(C.STR)
    defender = replace(target, sustaining=True) if defence.sustained else target
    def_, res = defender.current(C.DEF), defender.current(C.RES)
    attack_test, defence_test = roll_block(
        roller, att, def_, defence.dice, decide_attack, decide_defence
    )
    wound = None
    if attack_hits(attack_test, defence_test):
        wound = roll_wound(roller, strength, res, mode, table=table)
    return read_attack(state, attacker_id, target_id, defence, attack_test, defence_test, wound)


def attack_hits(attack_test: TestResult | None, defence_test: TestResult | None) -> bool:
    """VII-C-4 d: the attack succeeds unless it is an automatic failure or the defence test
    equals or beats its final result (no attack test: nothing opposed it, it hits)."""
    if attack_test is not None and attack_test.automatic_failure:
        return False
    return defence_test is None or not defence_test.succeeds(
        attack_test.final if attack_test is not None else 0
    )


def read_attack(
    state: CombatState,
    attacker_id: str,
    target_id: str,
    defence: DefenceChoice,
    attack_test: TestResult | None,
    defence_test: TestResult | None,
    wound: WoundRoll | None,
) -> AttackRecord:
    """VII-C-4 a-e from tests already rolled (the engine rolls them one die at a time):
    the record :func:`apply_attack` books. ``wound`` is given exactly when the attack hits."""
    attacker, target = state.fighter(attacker_id), state.fighter(target_id)
    att, strength = attacker.current(C.ATT), attacker.current(C.STR)
    defender = replace(target, sustaining=True) if defence.sustained else target
    def_, res = defender.current(C.DEF), defender.current(C.RES)
    automatic_failure = attack_test is not None and attack_test.automatic_failure
    hit = attack_hits(attack_test, defence_test)
    if hit != (wound is not None):
        raise ValueError("a wound roll is made exactly when the attack hits (VII-C-4 e)")
    blocked = not automatic_failure and not hit
    # VII-C-4 d: defence dice are lost whatever the result, except against an automatic
    # failure; VII-C-5: a sustained defence die is never lost.
    lost = 0 if automatic_failure or defence.sustained else defence.dice
    health = target.health
    dice_lost = 0
    if wound is not None:
        health = apply_wound(target.health, wound.result)
        if health.killed:
            dice_lost = target.dice_left - lost
    return AttackRecord(
        state.weapon_pass,
        attacker_id,
        target_id,
        att,
        strength,
        def_,
        res,
        defence,
        attack_test,
        defence_test,
        blocked,
        lost,
        wound,
        target.health,
        health,
        dice_lost,
    )


def apply_attack(state: CombatState, record: AttackRecord) -> CombatState:
    """Book an attack: the attacker's die is used, the defence dice spent, the wound applied
    and, when the target is killed, all his remaining combat dice lost (VII-C-3, VII-C-4)."""
    attacker = state.fighter(record.attacker)
    state = state.replaced(
        replace(attacker, attack_left=attacker.attack_left - 1, used=attacker.used + 1)
    )
    target = state.fighter(record.target)
    target = replace(
        target,
        defence_left=target.defence_left - record.defence_dice_lost,
        used=target.used + record.defence_dice_lost,
        health=record.health_after,
        sustaining=target.sustaining or record.defence.sustained,
    )
    if record.killed:
        target = replace(target, attack_left=0, defence_left=0, lost=target.lost + target.dice_left)
    return state.replaced(target)


def attack(
    roller: Roller,
    state: CombatState,
    attacker_id: str,
    target_id: str,
    defence: DefenceChoice,
    decide_attack: RaiseDecision,
    decide_defence: RaiseDecision,
    *,
    mode: WoundMode = WoundMode.NORMAL,
    table: InjuryTable | None = None,
) -> tuple[CombatState, AttackRecord]:
    """:func:`resolve_attack` then :func:`apply_attack`."""
    record = resolve_attack(
        roller,
        state,
        attacker_id,
        target_id,
        defence,
        decide_attack,
        decide_defence,
        mode=mode,
        table=table,
    )
    return apply_attack(state, record), record


# ---------------------------------------------------------------------------------------------
# A whole combat, driven by decision callbacks
# ---------------------------------------------------------------------------------------------


def _first_due_plan(state: CombatState, side: str) -> list[tuple[str, str]]:
    return [
        (f.id, target)
        for f in state.side_fighters(side)
        for target in sorted(attacks_due(state, f.id)[0])
    ]


def _no_defence(
    state: CombatState, attacker: str, target: str, choices: tuple[DefenceChoice, ...]
) -> DefenceChoice:
    return choices[0]


@dataclass(frozen=True)
class CombatDecisions:
    """The players' answers during a combat (VII-C-3, VII-C-4): the attacks of a side for a
    weapon combat (in order), the defence announced against an attack, the raises."""

    plan: Callable[[CombatState, str], Sequence[tuple[str, str]]] = _first_due_plan
    defend: Callable[[CombatState, str, str, tuple[DefenceChoice, ...]], DefenceChoice] = (
        _no_defence
    )
    raise_attack: RaiseDecision = field(default=RaisePolicy.NEVER)
    raise_defence: RaiseDecision = field(default=RaisePolicy.OPTIMAL)


def fight(
    roller: Roller,
    state: CombatState,
    decisions: CombatDecisions,
    *,
    table: InjuryTable | None = None,
) -> tuple[CombatState, tuple[AttackRecord, ...]]:
    """Resolve a combat from the allocated dice to its end (VII-C-3, VII-C-4).

    Each weapon combat, the sides attack in ``state.side_order``; a side's planned attacks are
    checked against VII-C-3 and made in order, an attack on an opponent killed meanwhile is
    dropped, and the combat stops as soon as it is over. Returns the final state (unused dice
    discarded as lost) and every attack.
    """
    records: list[AttackRecord] = []
    while not combat_over(state):
        for side in state.side_order:
            if combat_over(state):
                break
            plan = list(decisions.plan(state, side))
            check_plan(state, side, plan)
            for attacker_id, target_id in plan:
                if combat_over(state):
                    break
                if not state.fighter(attacker_id).alive:
                    continue
                if target_id not in state.opponents(attacker_id):
                    continue
                choices = defence_choices(state.fighter(target_id))
                defence = decisions.defend(state, attacker_id, target_id, choices)
                state, record = attack(
                    roller,
                    state,
                    attacker_id,
                    target_id,
                    defence,
                    decisions.raise_attack,
                    decisions.raise_defence,
                    table=table,
                )
                records.append(record)
        state = replace(state, weapon_pass=state.weapon_pass + 1)
    return end_combat(state), tuple(records)


# ---------------------------------------------------------------------------------------------
# XX-E neutral fighters: whom they attack
# ---------------------------------------------------------------------------------------------


def neutral_target_order(
    candidates: Mapping[str, tuple[int, int]],
) -> tuple[tuple[str, ...], ...]:
    """XX-E: the targets of a neutral fighter, by priority: lowest strategic value first, then
    the highest wound level; fighters still tied are grouped (a d6 decides among them).

    ``candidates``: fighter → (strategic value, wound levels).
    """
    groups: dict[tuple[int, int], list[str]] = {}
    for fighter, (value, wounds) in candidates.items():
        groups.setdefault((value, -wounds), []).append(fighter)
    return tuple(tuple(sorted(groups[key])) for key in sorted(groups))


def draw_groups(tied: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """What each face of the XX-E d6 keeps among ``tied`` (faces 1..6, in order; an empty
    group: roll again). Up to six targets share the faces evenly (2 targets: 1-3 and 4-6;
    4 targets: 1 to 4, 5 and 6 roll again); more are cut into six near-equal groups, the face
    keeping one group to roll again among (docs/rulings.md "XX-E")."""
    items = tuple(sorted(tied))
    k = len(items)
    if k < 2:
        raise ValueError("a die chooses among two targets or more")
    if k <= len(FACES):
        per = len(FACES) // k
        return tuple((items[(face - 1) // per],) if face <= per * k else () for face in FACES)
    size, extra = divmod(k, len(FACES))
    groups: list[tuple[str, ...]] = []
    at = 0
    for face in FACES:
        take = size + (1 if face <= extra else 0)
        groups.append(items[at : at + take])
        at += take
    return tuple(groups)


# ---------------------------------------------------------------------------------------------
# VII-C-6 Pursuit
# ---------------------------------------------------------------------------------------------


def pursuit_distance(mov: float) -> int:
    """VII-C-6 a: MOV/2 cm, rounded up to the next cm."""
    if mov < 0:
        raise ValueError(f"MOV cannot be negative, not {mov}")
    return math.ceil(mov / 2)


def may_pursue(state: CombatState, fighter_id: str, *, pursued_this_round: bool = False) -> bool:
    """VII-C-6: at the end of the combat, a living fighter whose opponents there were all
    killed may pursue, once per round (a). With three or more sides, only a fighter whose
    every opponent in the combat died (XX-F-6, docs/rulings.md). Destroying scenery grants no
    pursuit (C3): scenery is not a fighter of the combat."""
    fighter = state.fighter(fighter_id)
    if not fighter.alive or pursued_this_round:
        return False
    if fighter_id == state.centre:
        others = [f for f in state.fighters if f.id != state.centre]
    else:
        others = [state.fighter(state.centre)]
    return all(not f.alive for f in others)


class PursuitContact(Enum):
    """VII-C-6 c: what a contact at the end of a pursuit move brings."""

    NOTHING = "nothing"
    """The engaged fighter has already fought this combat phase."""
    NEW_COMBAT = "new-combat"
    """He is free and has not fought: a combat is resolved at once with the pursuer."""
    JOIN_COMBAT = "join-combat"
    """He is in a combat not yet resolved: it is resolved at once, the pursuer joins it."""


def pursuit_contact(*, has_fought: bool, in_unresolved_combat: bool) -> PursuitContact:
    """VII-C-6 c for one engaged enemy (XX-F-6: an enemy of the combat just fought has fought)."""
    if has_fought:
        return PursuitContact.NOTHING
    if in_unresolved_combat:
        return PursuitContact.JOIN_COMBAT
    return PursuitContact.NEW_COMBAT


# ---------------------------------------------------------------------------------------------
# Scenery (C3 "Assault and combat with elements of scenery", CLARIFICATIONS §6)
# ---------------------------------------------------------------------------------------------


class StructurePointsError(ValueError):
    """A structure-points file is unreadable or malformed (names file and key)."""


@dataclass(frozen=True, slots=True)
class StructurePoints:
    """Structure points lost per damage result (C3 table), loaded from data."""

    lost: tuple[int, ...]
    """Indexed by :class:`WoundResult`."""
    source: str = "<built-in>"

    def __call__(self, result: WoundResult) -> int:
        return self.lost[result]


def _parse_structure_points(data: Mapping[str, object], source: str) -> StructurePoints:
    lost = data.get("lost")
    if not isinstance(lost, dict) or set(data) != {"lost"}:
        raise StructurePointsError(f"{source}: expected exactly one [lost] table")
    values: list[int] = []
    for result in WoundResult:
        value = lost.get(result.key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise StructurePointsError(
                f"{source}: key 'lost.{result.key}': expected a whole number >= 0"
            )
        values.append(value)
    extra = sorted(set(lost) - {r.key for r in WoundResult})
    if extra:
        raise StructurePointsError(f"{source}: unknown key 'lost.{extra[0]}'")
    return StructurePoints(tuple(values), source)


def load_structure_points(path: str | Path | None = None) -> StructurePoints:
    """Load a structure-points table (TOML); without ``path`` the built-in C3 table."""
    if path is None:
        return _default_structure_points()
    source = str(path)
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise StructurePointsError(f"{source}: cannot read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise StructurePointsError(f"{source}: not valid TOML ({error})") from None
    return _parse_structure_points(data, source)


@cache
def _default_structure_points() -> StructurePoints:
    resource = resources.files("confrontation.data").joinpath("structure_points.toml")
    return _parse_structure_points(
        tomllib.loads(resource.read_text(encoding="utf-8")),
        "confrontation/data/structure_points.toml",
    )


@dataclass(frozen=True, slots=True)
class SceneryAttack:
    """An attack on an element of scenery: no defence, damage read on the Injury Table."""

    attack_test: TestResult
    wound: WoundRoll | None
    points_before: int
    points_lost: int

    @property
    def hit(self) -> bool:
        return not self.attack_test.automatic_failure

    @property
    def points_after(self) -> int:
        return max(self.points_before - self.points_lost, 0)

    @property
    def destroyed(self) -> bool:
        return self.points_after == 0


def read_scenery_damage(
    dice: Sequence[int], strength: int, resistance: int, table: InjuryTable | None = None
) -> WoundRoll:
    """Read a damage roll against scenery: like a wound roll, but a double is not exceptional
    (a 6-6 is read on the table, head column, not Killed Outright)."""
    roll = read_wound(dice, strength, resistance, table=table)
    if not roll.double_six:
        return roll
    table = table or default_injury_table()
    return replace(roll, result=table.result(Location.HEAD, roll.band))


def attack_scenery(
    roller: Roller,
    attack_value: int,
    strength: int,
    resistance: int,
    structure_points: int,
    decide: RaiseDecision = RaisePolicy.OPTIMAL,
    *,
    points: StructurePoints | None = None,
    table: InjuryTable | None = None,
) -> SceneryAttack:
    """C3 + CLARIFICATIONS §6: scenery never defends; the attack test is still rolled and fails
    only on a final result ≤ 0; a hit makes a damage roll whose result costs structure points.

    ``resistance``: the element's RES, given by the scenario (the documents set no default).
    """
    if structure_points < 0:
        raise ValueError("structure points cannot be negative")
    points = points or _default_structure_points()
    test = finish_test(roller, PendingTest.roll(roller, attack_value), decide, 1)
    if test.automatic_failure:
        return SceneryAttack(test, None, structure_points, 0)
    dice = (roller.d6(), roller.d6())
    wound = read_scenery_damage(dice, strength, max(resistance, 1), table)
    return SceneryAttack(test, wound, structure_points, points(wound.result))


# ---------------------------------------------------------------------------------------------
# Exact odds of one attack
# ---------------------------------------------------------------------------------------------


def p_hit(
    attack_value: int,
    defence_value: int,
    defence_dice: int,
    *,
    attack_policy: RaisePolicy = RaisePolicy.NEVER,
    attack_target: int | None = None,
) -> Fraction:
    """P(an attack succeeds), exact (VII-C-4 c-d): the attack test is not an automatic failure
    and the defence test (``defence_dice`` dice, the defender raising while below the attack's
    result) does not reach it. The attacker raises per ``attack_policy`` (``OPTIMAL`` aims at
    the final result ``attack_target``; ``ALWAYS`` has no finite distribution and is refused).
    """
    if defence_dice < 0:
        raise ValueError("defence dice cannot be negative")
    if attack_policy is RaisePolicy.ALWAYS:
        raise ValueError("an attacker who always raises has no finite distribution here")
    if defence_dice == 0:
        if attack_value >= 0:
            return Fraction(1)
        target = 1 if attack_policy is RaisePolicy.OPTIMAL else None
        policy = attack_policy
        dist = natural_distribution(
            1, policy, target=None if target is None else target - attack_value
        )
        return dist.shifted(attack_value).at_least(1)
    target = None
    if attack_policy is RaisePolicy.OPTIMAL:
        if attack_target is None:
            raise ValueError("an optimal attacker needs a target (attack_target)")
        target = attack_target - attack_value
    attack = natural_distribution(1, attack_policy, target=target).shifted(attack_value)
    total = Fraction(0)
    for final, p in attack.probabilities.items():
        if final <= 0:
            continue  # automatic failure (II-A-4)
        total += p * (1 - p_success(defence_value, final, defence_dice, RaisePolicy.OPTIMAL))
    return total


def attack_outcomes(
    attack_value: int,
    strength: int,
    defence_value: int,
    resistance: int,
    defence_dice: int,
    *,
    attack_policy: RaisePolicy = RaisePolicy.NEVER,
    attack_target: int | None = None,
    mode: WoundMode = WoundMode.NORMAL,
) -> dict[WoundResult | None, Fraction]:
    """Exact distribution of one attack's outcome: None = no hit, else the wound result."""
    hit = p_hit(
        attack_value,
        defence_value,
        defence_dice,
        attack_policy=attack_policy,
        attack_target=attack_target,
    )
    outcome: dict[WoundResult | None, Fraction] = {None: 1 - hit}
    for result, p in wound_distribution(strength, resistance, mode).items():
        outcome[result] = hit * p
    return outcome
