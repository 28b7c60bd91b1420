"""Help beside a person's decision: the exact odds of each option (``confrontation.odds``),
what the greedy AI would answer on the seat's own view, and whether the question is trivial
(one legal answer, or a raise that cannot change the outcome) so that the server may answer
it for him.

Odds are computed for dice allocation (VII-C-1), attacks (VII-C-3), defences (VII-C-4 b,
VII-C-5), raises of tests, attacks and defences (II-A-1, VII-C-4 c-d), pursuits (VII-C-6),
shots (VI-A, VI-B) and shots and attacks at elements of scenery (C3); each is
``{"p": chance of the good outcome or None, "text": one line}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import product
from typing import Any

from confrontation.agents.greedy import GreedyAgent, tactics_rivals
from confrontation.dice import p_success, standing
from confrontation.engine.actions.scenery import ShootScenery, scenery_shot_difficulty
from confrontation.engine.actions.shooting import shot_target
from confrontation.engine.combat.questions import AllocateDice, Defend, MakeAttack, Pursue
from confrontation.engine.combat.scenery_attack import AttackScenery, piece_named
from confrontation.engine.core.kinds import QuestionKind as K
from confrontation.engine.core.questions import KeepResult, Question, Raise, Shoot
from confrontation.engine.core.state import GameState, SceneryPiece
from confrontation.engine.table.field import current, field_of, shot_distance
from confrontation.odds.exact import (
    AttackOdds,
    attack_odds,
    attack_raise_odds,
    raise_odds,
    shot_odds,
)
from confrontation.rules.characteristics import Characteristic as C
from confrontation.rules.combat import (
    Combatant,
    CombatState,
    load_structure_points,
    read_scenery_damage,
)
from confrontation.rules.shooting import p_hit as p_shot
from confrontation.rules.wounds import WoundResult

Odds = dict[str, Any]

RAISES = (K.TEST_RAISE, K.ATTACK_RAISE, K.DEFENCE_RAISE, K.CONTEST_RAISE, K.TACTICS_RAISE)
"""The raises whose odds are given here: a test against a known difficulty (II-A-1), the
attack test against the announced defence and the defence test against the attack's result
(VII-C-4 c-d), and an opposed test's (the Tactics roll, a melee's Discipline, Authority or
initiative, II-A-3): the chance to get ahead of the best other result as it stands (another
side still to decide may raise after)."""

SURE = (K.TEST_RAISE, K.ATTACK_RAISE, K.DEFENCE_RAISE)
"""The raises whose outcome the odds settle (an opposed test's margin may still matter)."""


def pct(p: Fraction | float) -> str:
    """A chance as the page writes it: 0%, 100%, else one decimal."""
    value = float(p) * 100
    if value in (0.0, 100.0):
        return f"{value:.0f}%"
    return f"{value:.1f}%"


def _attack_text(odds: AttackOdds) -> str:
    killed = odds.wounds.get(WoundResult.KILLED, Fraction(0))
    wounding = sum(
        (p for r, p in odds.wounds.items() if r.levels > 0), Fraction(0)
    )  # II-B-2: a wound level or more
    return f"hits {pct(odds.hit)} (wounds {pct(wounding)}, kills {pct(killed)})"


def _blow(attacker: Combatant, target: Combatant, dice: int, sustained: bool = False) -> AttackOdds:
    """One attack of ``attacker`` on ``target`` defending with ``dice`` dice (VII-C-4)."""
    return attack_odds(
        att=attacker.current(C.ATT),
        str_=attacker.current(C.STR),
        def_=target.current(C.DEF),
        res=max(target.current(C.RES), 0),
        defence_dice=dice,
        sustained=sustained,
    )


def _board(state: GameState) -> CombatState | None:
    fight = state.combat.fight if state.combat is not None else None
    return fight.board if fight is not None else None


# --- each kind of question ----------------------------------------------------------------


def _raise(state: GameState, asked: Question) -> tuple[Fraction, Fraction, str] | None:
    """(P keeping, P raising, what the chance is of) for a raise question."""
    if asked.kind == K.TEST_RAISE:
        current = state.activation.current if state.activation is not None else None
        action = current.action if current is not None else None
        test = action.test if action is not None else None
        if test is None or not test.chain:
            return None
        keep, go = raise_odds((test.chain,), test.value, test.difficulty)
        return keep, go, f"the test (difficulty {test.difficulty}) succeeds"
    if asked.kind == K.TACTICS_RAISE and state.strategic is not None:
        player = asked.player
        hands = state.strategic.hands
        if player is None or not hands[player].dice:
            return None
        rivals = tactics_rivals(state.strategic, player)
        best = max(standing(hands[p].final) for p in rivals)
        mine = hands[player]
        keep, go = raise_odds((mine.dice,), mine.discipline, best + 1)
        return keep, go, f"ahead of the best other result as it stands ({best})"
    if asked.kind == K.CONTEST_RAISE and state.combat is not None:
        contest = state.combat.contest
        if contest is None or asked.player is None:
            return None
        me = contest.hand(asked.player)
        if me.roll is None:
            return None
        best = max((h.standing for h in contest.hands if h.player != asked.player), default=0)
        chains = tuple(c for c in me.roll.chains if c)
        keep, go = raise_odds(chains, me.roll.value, best + 1)
        return keep, go, f"ahead of the best other result as it stands ({best})"
    fight = state.combat.fight if state.combat is not None else None
    attack = fight.attack if fight is not None else None
    if fight is None or attack is None or attack.attack_test is None:
        return None
    if asked.kind == K.ATTACK_RAISE:
        roll = attack.attack_test
        dice = attack.defence.dice if attack.defence is not None else 0
        target = fight.board.fighter(attack.target)
        def_ = target.current(C.DEF)
        if attack.defence is not None and attack.defence.sustained:
            def_ -= 2  # VII-C-5
        chains = tuple(c for c in roll.chains if c)
        keep, go = attack_raise_odds(chains, roll.value, def_, dice)
        return keep, go, "the attack gets through"
    if asked.kind == K.DEFENCE_RAISE and attack.defence_test is not None:
        roll = attack.defence_test
        chains = tuple(c for c in roll.chains if c)
        needed = attack.attack_test.final  # VII-C-4 d: reach the attack's final result
        keep, go = raise_odds(chains, roll.value, needed)
        return keep, go, f"the defence reaches the attack's {needed}"
    return None


def _allocation(state: GameState, choice: AllocateDice) -> Odds | None:
    """VII-C-1: the expected hits dealt and taken in this weapon combat with this split,
    each attack defended by a defence die while any is left (an opponent who has not
    allocated yet is assumed to split his dice evenly)."""
    board = _board(state)
    fight = state.combat.fight if state.combat is not None else None
    if board is None or fight is None:
        return None
    me = board.fighter(choice.fighter)
    foes = [board.fighter(o) for o in board.opponents(choice.fighter)]
    if not foes:
        return None
    guessed = False
    splits: dict[str, tuple[int, int]] = {}
    for foe in foes:
        if foe.id in fight.to_allocate or foe.attack_left < 0:
            dice = 1 + len(board.opponents(foe.id))
            splits[foe.id] = (dice - dice // 2, dice // 2)
            guessed = True
        else:
            splits[foe.id] = (foe.attack_left, foe.defence_left)
    dealt = Fraction(0)
    parried = {f.id: splits[f.id][1] for f in foes}
    for k in range(choice.attack):  # one attack to each opponent in turn (VII-C-3)
        foe = foes[k % len(foes)]
        die = 1 if parried[foe.id] > 0 else 0
        parried[foe.id] -= die
        dealt += _blow(me, foe, die).hit
    taken = Fraction(0)
    left = choice.defence
    for foe in foes:
        for _ in range(splits[foe.id][0]):
            die = 1 if left > 0 else 0
            left -= die
            taken += _blow(foe, me, die).hit
    text = f"expected hits: you deal {float(dealt):.2f}, you take {float(taken):.2f}"
    if guessed:
        text += " (his split unknown: even assumed)"
    return {"p": None, "dealt": float(dealt), "taken": float(taken), "text": text}


def _defence(state: GameState, choice: Defend) -> Odds | None:
    """VII-C-4 b, VII-C-5: the attack under way against this defence."""
    fight = state.combat.fight if state.combat is not None else None
    if fight is None or fight.attack is None:
        return None
    board = fight.board
    attacker = board.fighter(fight.attack.attacker)
    target = board.fighter(fight.attack.target)
    odds = _blow(attacker, target, choice.dice, choice.sustained)
    safe = 1 - odds.hit
    return {"p": float(safe), "text": f"not hit {pct(safe)}; his attack {_attack_text(odds)}"}


def _make_attack(state: GameState, choice: MakeAttack) -> Odds | None:
    """VII-C-3: this attack, the target defending with a die while he has one."""
    board = _board(state)
    if board is None:
        return None
    target = board.fighter(choice.target)
    die = 1 if target.defence_left > 0 else 0
    odds = _blow(board.fighter(choice.attacker), target, die, target.sustaining and die == 1)
    return {"p": float(odds.hit), "text": _attack_text(odds)}


def _pursuit(state: GameState, choice: Pursue) -> Odds | None:
    """VII-C-6: one attack each way with each enemy he would engage (a defence die each)."""
    if not choice.engage:
        return None
    me = state.fighter(choice.fighter)
    parts = []
    worst = Fraction(1)
    for foe_id in choice.engage:
        foe = state.fighter(foe_id)
        mine = attack_odds(
            att=current(state, me, C.ATT),
            str_=current(state, me, C.STR),
            def_=current(state, foe, C.DEF),
            res=max(current(state, foe, C.RES), 0),
            defence_dice=1,
        )
        theirs = attack_odds(
            att=current(state, foe, C.ATT),
            str_=current(state, foe, C.STR),
            def_=current(state, me, C.DEF),
            res=max(current(state, me, C.RES), 0),
            defence_dice=1,
        )
        worst = min(worst, mine.hit)
        name = state.profile(foe.profile).name
        parts.append(
            f"against {name}: your attack {_attack_text(mine)}; his {_attack_text(theirs)}"
        )
    return {"p": float(worst), "text": "; ".join(parts) + " (one defence die each)"}


def _wound_text(results: Mapping[WoundResult, Fraction]) -> str:
    wounding = sum((p for r, p in results.items() if r.levels > 0), Fraction(0))
    killed = results.get(WoundResult.KILLED, Fraction(0))
    return f"wounds {pct(wounding)}, kills {pct(killed)}"


def shot_advice(state: GameState, choice: Shoot) -> Odds | None:
    """VI-A, VI-B: the Shooting test (its difficulty by the range band and the target,
    VI-A-3) and the wound roll, exactly (``odds.shot_odds``); a target touching the shooter's
    friends may be missed for the friend nearest to him (VI-B-1). The target may still move
    to cover (VI-A-2): the odds are as the table stands."""
    here = field_of(state)
    me, it = state.fighter(choice.fighter), state.fighter(choice.target)
    profile = state.profile(me.profile)
    if profile.aim_str is None or len(profile.ranges) != 3:
        return None
    short, medium, long = profile.ranges
    target = shot_target(state, here, choice.fighter, choice.target)
    friends = [f for f in here.contacts(choice.target) if here.owners[f] == me.player]
    friend_res = None
    if friends:
        nearest = min(friends, key=lambda f: shot_distance(here, choice.fighter, f))
        friend_res = max(current(state, state.fighter(nearest), C.RES), 0)
    odds = shot_odds(
        aim=current(state, me, C.AIM),
        aim_str=profile.aim_str,
        res=max(current(state, it, C.RES), 0),
        distance=shot_distance(here, choice.fighter, choice.target),
        ranges=(short, medium, long),
        size=target.size,
        partial=target.partially_visible,
        altitude=target.other_altitude,
        target_bonus=target.target_bonus,
        cover=target.in_cover,
        unmoving=choice.still,
        friend_res=friend_res,
    )
    if odds.difficulty is None:
        return {"p": 0.0, "text": "beyond the long range: the shot fails (VI-A-1)"}
    hit = sum(odds.target.values(), Fraction(0))
    text = (
        f"Shooting test (difficulty {odds.difficulty}) {pct(odds.hit)}; "
        f"hits him {pct(hit)} ({_wound_text(odds.target)})"
    )
    if odds.friend:
        text += f"; hits a friend {pct(sum(odds.friend.values(), Fraction(0)))} (VI-B-1)"
    return {"p": float(hit), "text": text}


def _sp_lost(strength: int, resistance: int) -> dict[int, Fraction]:
    """C3 "Damaging elements of scenery": the SP one damage roll (two dice) costs."""
    points = load_structure_points()
    out: dict[int, Fraction] = {}
    for dice in product(range(1, 7), repeat=2):
        lost = points(read_scenery_damage(dice, strength, max(resistance, 1)).result)
        out[lost] = out.get(lost, Fraction(0)) + Fraction(1, 36)
    return out


def _damage(
    p_test: Fraction, strength: int, piece: SceneryPiece, attacks: int
) -> tuple[Fraction, Fraction, float]:
    """``attacks`` attacks on ``piece``, each a test passing with ``p_test`` then a damage
    roll: (P at least one SP lost, P destroyed, expected SP lost)."""
    one = {0: 1 - p_test}
    for lost, p in _sp_lost(strength, piece.resistance or 1).items():
        one[lost] = one.get(lost, Fraction(0)) + p_test * p
    total = {0: Fraction(1)}
    for _ in range(attacks):
        step: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in one.items():
                step[a + b] = step.get(a + b, Fraction(0)) + pa * pb
        total = step
    left = piece.structure_points or 0
    some = 1 - total.get(0, Fraction(0))
    destroyed = sum((p for sp, p in total.items() if sp >= left > 0), Fraction(0))
    expected = float(sum((sp * p for sp, p in total.items()), Fraction(0)))
    return some, destroyed, expected


def _shoot_scenery(state: GameState, choice: ShootScenery) -> Odds | None:
    """C3 "Shooting elements of scenery": the Shooting test (range band to the element's
    edge, its height read as a size, VI-A-3), then the damage roll with the weapon's STR."""
    piece = piece_named(state, choice.element)
    me = state.fighter(choice.fighter)
    profile = state.profile(me.profile)
    if piece is None or profile.aim_str is None:
        return None
    found = scenery_shot_difficulty(state, choice.fighter, piece)
    if found is None:
        return {"p": 0.0, "text": "beyond the long range: the shot fails (VI-A-1)"}
    difficulty = found.total
    p_test = p_shot(current(state, me, C.AIM), difficulty)
    some, destroyed, expected = _damage(p_test, profile.aim_str, piece, 1)
    text = (
        f"Shooting test (difficulty {difficulty}) {pct(p_test)}; damages it {pct(some)} "
        f"({expected:.2f} SP expected of {piece.structure_points}; destroys it {pct(destroyed)})"
    )
    return {"p": float(some), "text": text}


def _attack_scenery(state: GameState, choice: AttackScenery) -> Odds | None:
    """C3 "Attacks against elements of scenery": each attack test fails only on a final
    result of 0 or less (no defence), then a damage roll with his STR against its RES."""
    if not choice.attacks:
        return None
    me = state.fighter(choice.fighter)
    p_test = p_success(current(state, me, C.ATT), 1)
    strength = current(state, me, C.STR)
    parts, worst = [], Fraction(1)
    for element, dice in choice.attacks:
        piece = piece_named(state, element)
        if piece is None:
            return None
        some, destroyed, expected = _damage(p_test, strength, piece, dice)
        worst = min(worst, some)
        parts.append(
            f"{element}: damaged {pct(some)}, destroyed {pct(destroyed)} "
            f"({expected:.2f} of {piece.structure_points} SP expected)"
        )
    return {"p": float(worst), "text": "; ".join(parts)}


def option_odds(state: GameState, asked: Question) -> list[Odds | None]:
    """The odds of each option of ``asked`` (None where there are none to give)."""
    out: list[Odds | None] = [None] * len(asked.options)
    try:
        if asked.kind in RAISES:
            found = _raise(state, asked)
            if found is None:
                return out
            keep, go, what = found
            for i, option in enumerate(asked.options):
                p = go if isinstance(option.choice, Raise) else keep
                if isinstance(option.choice, Raise | KeepResult):
                    out[i] = {"p": float(p), "text": f"{what}: {pct(p)}"}
            return out
        for i, option in enumerate(asked.options):
            choice = option.choice
            if isinstance(choice, AllocateDice):
                out[i] = _allocation(state, choice)
            elif isinstance(choice, Defend):
                out[i] = _defence(state, choice)
            elif isinstance(choice, MakeAttack):
                out[i] = _make_attack(state, choice)
            elif isinstance(choice, Pursue):
                out[i] = _pursuit(state, choice)
            elif isinstance(choice, Shoot):
                out[i] = shot_advice(state, choice)
            elif isinstance(choice, ShootScenery):
                out[i] = _shoot_scenery(state, choice)
            elif isinstance(choice, AttackScenery):
                out[i] = _attack_scenery(state, choice)
    except (KeyError, ValueError, AttributeError):  # a state these odds do not model
        return [None] * len(asked.options)
    return out


# --- the AI's hint and the trivial questions -------------------------------------------------


def hint(view: GameState, asked: Question, seed: int = 0) -> int | None:
    """The option the greedy AI would choose, asked on ``view`` — the seat's own redacted
    view (``engine.core.views.redact``), so it never uses what the seat may not see."""
    if asked.player is None:
        return None
    agent = GreedyAgent(seed=seed, player=asked.player)
    try:
        choice = agent.choose(view, asked, asked.choices)
    except Exception:  # a hint is help, never a reason to fail the page
        return None
    choices = asked.choices
    return choices.index(choice) if choice in choices else None


def trivial(state: GameState, asked: Question) -> tuple[int, str] | None:
    """The option to take without asking, and why: the only legal answer, or keeping a
    result when raising cannot change whether the test succeeds (exactly, both 0% or both
    100%)."""
    if asked.player is None:
        return None
    if len(asked.options) == 1:
        return 0, "the only answer"
    if asked.kind in SURE:
        found = _raise(state, asked)
        if found is None:
            return None
        keep, go, what = found
        if keep == go and keep in (0, 1):
            index = _index(asked.choices, KeepResult())
            if index is not None:
                verdict = "certain" if keep == 1 else "impossible"
                return index, f"raising cannot change it: {what} is {verdict} either way"
    return None


def _index(choices: Sequence[object], wanted: object) -> int | None:
    return choices.index(wanted) if wanted in choices else None
