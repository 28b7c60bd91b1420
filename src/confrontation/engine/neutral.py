"""Neutral fighters (Confédé XX-E, C3 "Neutral fighters", C3-NEUTRAL-FIGHTERS): a third side
that no player controls; the rules make its choices.

Neutral fighters are ordinary :class:`~.state.Fighter` records whose ``player`` is
:data:`~.state.NEUTRAL` (2). They have a card of their own (``n-c<k>``) that no player's deck
holds, no :class:`~.state.Side` and no score. They are enemies of both players (the
enemy-contact graph, charges and shots see them as enemies) and friends of each other (XX-E-1:
"ignorez les autres combattants neutres").

**How their choices are made.** The phases ask questions as usual; when a question's
``player`` is the neutral side, :func:`decide` (called by ``step.advance``) answers it at once
with the rule-driven choice below and emits :class:`NeutralDecided` (not an input of the
record: a replay reproduces it). A die the rules call for (the XX-E target roll) is an ordinary
chance step, ``neutral_target_die``. No agent is ever asked for a neutral fighter.

- raises (``contest_raise``, ``attack_raise``, ``defence_raise``): always (XX-E-3,
  CLARIFICATIONS §2);
- ``name_fighter`` (the initiative test of their side, XX-E-4): the best INI + X;
- ``allocate_dice``: every die in attack (XX-E-4; the combat phase offers nothing else);
- ``make_attack``: targets in the XX-E order (``rules.combat.neutral_target_order``: lowest
  strategic value, then the most wounded, then a d6 among those still tied when not
  all of them can be attacked);
- ``defend``: one defence die on each attack, in the order they come (XX-E-4);
- ``pursue``: towards the nearest non-neutral fighter, whatever his side (XX-E-5);
- ``split_melee`` (after a neutral fighter's pursuit, VII-C-6 Note 2): the separation giving
  the pursuer the most opponents (docs/rulings.md "XX-E-5");
- ``activation`` (XX-E-1; ``engine.round.activation`` activates them first, or last when in
  contact): each neutral fighter free of any enemy announces an assault on the nearest
  non-neutral fighter of his level (a charge when he sees him, an engagement otherwise;
  ties in the XX-E order, then a d6: ``neutral_assault_die``); he never disengages, walks,
  runs or shoots; ``assault_contact``: the nearest place in contact; ``rotate_charged``:
  nobody turned; ``redirect``: the nearest non-neutral fighter again, or stay;
  ``take_cover``: never (a move to cover is no assault); ``test_raise``: always (XX-E-3);
- ``attack_scenery``: never (C3; his dice are for fighters, XX-E-4);
- a plug-in's question: the policy it registers (``rules.extension("neutral-policy", kind,
  policy)``), or — answers :class:`UseAbility` — the ability used (XX-E-3: active abilities
  are compulsory).

Targets are ranked by :func:`value_of` (the strategic value with equipment, I-D-2; C3's "total
AP value"). The C3 wording where it differs is a switch of the rules value (``variant``
table, set by the ``c3`` rules, read by :func:`variant`): the activation after the others
when in contact "at the start of the round" (``engine.round.activation``), the distance over
encumbered terrain doubled.

:func:`add_neutrals` puts neutral fighters into a game (a scenario names them as
:class:`NeutralSpec`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from shapely.geometry import LineString

from confrontation.dice import FACES
from confrontation.engine.combat import phase as combat_phase
from confrontation.engine.combat.questions import (
    Defend,
    MakeAttack,
    NameFighter,
    Pursue,
    SplitMelee,
)
from confrontation.engine.combat.scenery_attack import AttackScenery
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import Narrator
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    DieFace,
    EndActivation,
    Option,
    Question,
    Raise,
    Redirect,
    TakeCover,
)
from confrontation.engine.core.registry import (
    EngineError,
    Handler,
    Transition,
)
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import (
    NEUTRAL,
    ActionInProgress,
    ActionStage,
    Activation,
    ActivationStage,
    Card,
    Fighter,
    GameState,
    Pending,
    ProfileSummary,
)
from confrontation.engine.table.contact_limits import check_position
from confrontation.engine.table.field import field_of, has_field
from confrontation.geometry.scenery import crossable
from confrontation.rules.characteristics import Characteristic
from confrontation.rules.combat import draw_groups, neutral_target_order

__all__ = [
    "NeutralAssaultRolled",
    "NeutralDecided",
    "NeutralSpec",
    "NeutralTargetRolled",
    "UseAbility",
    "add_neutrals",
    "decide",
    "is_neutral",
    "nearest_enemies",
    "nearest_enemy",
    "neutrals",
    "value_of",
    "variant",
]


# ---------------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NeutralDecided(Event):
    """The rules answered ``question`` for the neutral side (XX-E): ``choice``."""

    kind = "neutral_decided"
    question: str
    choice: Choice


@dataclass(frozen=True)
class NeutralTargetRolled(Event):
    """XX-E: a d6 chose among the targets of ``attacker`` still tied (``tied``); ``kept`` are
    those the face leaves (one: the target; several: roll again among them; all: the face
    chose nobody, roll again)."""

    kind = "neutral_target_rolled"
    attacker: str
    tied: tuple[str, ...]
    face: int
    kept: tuple[str, ...]


@dataclass(frozen=True)
class NeutralAssaultRolled(Event):
    """XX-E-1, XX-E: a d6 chose which of the nearest non-neutral fighters ``tied`` the
    neutral ``fighter`` assaults; ``kept`` as for :class:`NeutralTargetRolled`."""

    kind = "neutral_assault_rolled"
    fighter: str
    tied: tuple[str, ...]
    face: int
    kept: tuple[str, ...]


# ---------------------------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NeutralSpec:
    """A neutral fighter to put on the table: his reference card and where he stands (the
    centre of his base, cm; facing in degrees; altitude level 0 or 1)."""

    profile: ProfileSummary
    x: float = 0.0
    y: float = 0.0
    facing: float = 0.0
    altitude: int = 0


def add_neutrals(
    state: GameState, specs: Sequence[NeutralSpec], *, on_table: bool | None = None
) -> GameState:
    """``state`` with the neutral fighters of ``specs`` (XX-E), one card each: card ``n-c<k>``,
    fighter ``n-c<k>-1``, numbered after the neutral fighters already there. On a table
    (:func:`~.setup.on_battlefield` first) they stand where the spec says; a position that
    puts a fighter past his contact limit is refused (II-E-3, ``ContactLimitError``).
    ``on_table=False``: not yet on it — the set-up puts them there after the scenery (XX-A-2,
    ``engine.setup.deployment``), at the spec's place or the nearest free one."""
    placed = state.battleground is not None if on_table is None else on_table
    profiles = {p.id: p for p in state.profiles}
    taken = sum(1 for c in state.cards if c.player == NEUTRAL)
    cards: list[Card] = []
    fighters: list[Fighter] = []
    for n, spec in enumerate(specs, start=taken + 1):
        profiles.setdefault(spec.profile.id, spec.profile)
        card_id = f"n-c{n}"
        fighter_id = f"{card_id}-1"
        cards.append(Card(card_id, NEUTRAL, spec.profile.id, (fighter_id,), spec.profile.name))
        fighters.append(
            Fighter(
                id=fighter_id,
                player=NEUTRAL,
                card=card_id,
                profile=spec.profile.id,
                x=float(spec.x),
                y=float(spec.y),
                facing=float(spec.facing),
                altitude=spec.altitude,
                on_table=placed,
            )
        )
    return check_position(
        evolve(
            state,
            profiles=tuple(profiles.values()),
            cards=state.cards + tuple(cards),
            fighters=state.fighters + tuple(fighters),
        )
    )


def is_neutral(state: GameState, fighter_id: str) -> bool:
    """The fighter belongs to the neutral side (XX-E)."""
    return state.fighter(fighter_id).player == NEUTRAL


def neutrals(state: GameState) -> tuple[Fighter, ...]:
    """The neutral fighters of the game, dead or alive."""
    return tuple(f for f in state.fighters if f.player == NEUTRAL)


# ---------------------------------------------------------------------------------------------
# Answering for the neutral side
# ---------------------------------------------------------------------------------------------


def decide(state: GameState) -> Transition:
    """Answer the pending question of the neutral side by the rules (XX-E)."""
    pending = state.pending
    if pending is None or pending.player != NEUTRAL:
        raise EngineError("no question is pending for the neutral side")
    rules = rules_of(state)
    handler = rules.handler(pending.kind)
    legal = list(handler.legal(state))
    policy = POLICIES.get(pending.kind) or rules.extension("neutral-policy", pending.kind)
    if policy is None and any(isinstance(c, UseAbility) and c.use for c in legal):
        policy = _use_ability  # XX-E-3: a plug-in's "use this active ability?"
    if policy is None:
        raise EngineError(f"no rule of XX-E decides {str(pending.kind)!r} for a neutral fighter")
    if pending.kind == QuestionKind.MAKE_ATTACK and _needs_draw(state, legal):
        return _start_draw(state, legal)
    if pending.kind == QuestionKind.ACTIVATION:
        drawn = _assault_draw(state, legal)
        if drawn is not None:
            return drawn
    choice = policy(state, legal)
    if choice not in legal:
        raise EngineError(f"the XX-E rule chose {choice!r}, not a legal {str(pending.kind)!r}")
    state = evolve(state, pending=None)
    state, applied = handler.apply(state, choice)
    return state, [NeutralDecided(pending.kind, choice), *applied]


@dataclass(frozen=True)
class UseAbility(Choice):
    """Whether ``fighter`` uses his active ability ``ability`` now: the answer a plug-in that
    defines an active ability offers (CLARIFICATIONS §5: the documents define none). A
    neutral fighter always uses it (XX-E-3)."""

    kind = "use_ability"
    fighter: str
    ability: str
    use: bool = True


def _use_ability(state: GameState, legal: list[Choice]) -> Choice:
    """XX-E-3: "Les combattants Neutres utilisent obligatoirement leurs compétences actives":
    the first ability offered is used (the plug-in asks again for the next one)."""
    return next(c for c in legal if isinstance(c, UseAbility) and c.use)


def _raise(state: GameState, legal: list[Choice]) -> Choice:
    """XX-E-3: the 6s of a neutral fighter's tests must be re-rolled."""
    return Raise()


def _first(state: GameState, legal: list[Choice]) -> Choice:
    """A question with one answer the rules allow (every die in attack, XX-E-4)."""
    return legal[0]


def _name(state: GameState, legal: list[Choice]) -> Choice:
    """The initiative test of the neutral side (XX-E-4): the best current INI (+ X is the
    same for the whole side), ties to the smallest id."""
    board = combat_phase._fight(state).board
    named = [c for c in legal if isinstance(c, NameFighter)]
    return min(
        named, key=lambda c: (-board.fighter(c.fighter).current(Characteristic.INI), c.fighter)
    )


def _defend(state: GameState, legal: list[Choice]) -> Choice:
    """XX-E-4: a neutral fighter who must defend puts 1 defence die on each attack."""
    one = Defend(1)
    return one if one in legal else Defend(0)


def _split(state: GameState, legal: list[Choice]) -> Choice:
    """After a neutral pursuer's move (VII-C-6 Note 2): the separation in which he fights the
    most enemies (first in canonical order on a tie)."""
    pursuer = combat_phase._progress(state).urgent[-1]

    def opponents(choice: Choice) -> int:
        assert isinstance(choice, SplitMelee)
        combat = next(c for c in choice.combats if pursuer in c.fighters)
        return len(combat.opponents(pursuer))

    return max(legal, key=lambda c: (opponents(c), -legal.index(c)))


# --- XX-E: whom to attack ----------------------------------------------------------------------


def _attacker(legal: list[Choice]) -> str:
    """Several neutral fighters on one side attack in the order of their ids."""
    return min(c.attacker for c in legal if isinstance(c, MakeAttack))


def _priorities(state: GameState, legal: list[Choice]) -> tuple[str, tuple[tuple[str, ...], ...]]:
    """The attacker and his targets still owed in this weapon combat, grouped in the XX-E
    order (lowest strategic value, then most wound levels)."""
    board = combat_phase._fight(state).board
    attacker = _attacker(legal)
    targets = [c.target for c in legal if isinstance(c, MakeAttack) and c.attacker == attacker]
    ranked = neutral_target_order(
        {t: (value_of(state, t), board.fighter(t).health.wound_levels) for t in targets}
    )
    return attacker, ranked


def _needs_draw(state: GameState, legal: list[Choice]) -> bool:
    """A d6 must choose: a draw is under way, or the first group of the XX-E order is larger
    than the attack dice left (VII-C-3: not every one of them can be attacked)."""
    fight = combat_phase._fight(state)
    if fight.draw:
        return True
    attacker, ranked = _priorities(state, legal)
    return len(ranked[0]) > fight.board.fighter(attacker).attack_left


def _start_draw(state: GameState, legal: list[Choice]) -> Transition:
    fight = combat_phase._fight(state)
    if not fight.draw:
        _, ranked = _priorities(state, legal)
        state = combat_phase._set_fight(state, draw=ranked[0])
    return evolve(state, pending=Pending(QuestionKind.NEUTRAL_TARGET_DIE, None)), []


def _attack(state: GameState, legal: list[Choice]) -> Choice:
    """XX-E, VII-C-3: the next attack of a neutral fighter: the first target in the XX-E order
    (every member of the first group will be attacked, so the smallest id goes first)."""
    attacker, ranked = _priorities(state, legal)
    return MakeAttack(attacker, ranked[0][0])


def _target_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    fight = combat_phase._fight(state)
    legal = list(rules_of(state).handler(QuestionKind.MAKE_ATTACK).legal(state))
    attacker = _attacker(legal)
    kept = draw_groups(fight.draw)[choice.face - 1] or fight.draw
    event = NeutralTargetRolled(attacker, fight.draw, choice.face, kept)
    if len(kept) > 1:
        return combat_phase._set_fight(state, draw=kept), [event]
    state = combat_phase._set_fight(state, draw=())
    state, events = combat_phase._declare(state, MakeAttack(attacker, kept[0]))
    return state, [event, *events]


def _target_die_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    fight = combat_phase._fight(state)
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    tied = ", ".join(combat_phase._name(state, f) for f in fight.draw)
    return Question(
        QuestionKind.NEUTRAL_TARGET_DIE,
        None,
        f"a d6 chooses the neutral fighter's target among {tied} (XX-E)",
        options,
    )


# --- XX-E-5: pursuit ---------------------------------------------------------------------------


def value_of(state: GameState, fighter_id: str) -> int:
    """XX-E (C3 "the lowest total AP value"): the strategic value of the fighter with his
    equipment (I-D-2) — the scenario's value of his card, else his profile's AP. Both texts
    rank by this one number (docs/rulings.md "XX-E / C3 — the neutral's targets")."""
    fighter = state.fighter(fighter_id)
    known = state.scenario.card_value(fighter.card) if state.scenario is not None else None
    return known if known is not None else state.profile(fighter.profile).ap


def variant(state: GameState, name: str) -> bool:
    """The game plays the C3 wording of ``name`` ("neutral-timing", "neutral-distance"): an
    entry ``"c3"`` in the rules value's ``variant`` table (the ``c3`` rules set it,
    ``scenarios.c3``); chapter 20 otherwise (CLARIFICATIONS §6)."""
    return bool(rules_of(state).extension("variant", name) == "c3")


def _distance(state: GameState, a: Fighter, b: Fighter, doubled: bool) -> float:
    """Centre to centre; with the C3 wording (``doubled``), the part of the line over
    encumbered terrain counts twice: the scenery ``a`` cannot freely cross (V-A: landforms of
    his size or larger, impassable elements; none at level 1, II-F-1; docs/rulings.md)."""
    straight = math.hypot(a.x - b.x, a.y - b.y)
    if not doubled or a.altitude != 0 or not has_field(state):
        return straight
    here = field_of(state)
    line = LineString([(a.x, a.y), (b.x, b.y)])
    size = state.profile(a.profile).size
    size = size if size in ("small", "normal", "large", "very-large") else "normal"
    over = sum(
        float(line.intersection(s.footprint).length)
        for s in here.scenery
        if not crossable(s, size, False)
    )
    return straight + over


def nearest_enemies(
    state: GameState, fighter_id: str, among: Collection[str] | None = None
) -> tuple[str, ...]:
    """XX-E-1, XX-E-5: the living non-neutral fighters nearest to the neutral ``fighter_id``
    (centre to centre; levels he cannot reach ignored, II-F-1; hidden scouts ignored,
    XX-E-2; on a table only those on it) that come first in the XX-E order (lowest strategic
    value, then most wounded): one, or several a d6 must choose among (sorted ids).
    ``among``: only these fighters count (those he may still assault, II-E-3)."""
    me = state.fighter(fighter_id)
    table = state.battleground is not None
    others = [
        f
        for f in state.fighters
        if f.player != NEUTRAL
        and f.alive
        and f.altitude == me.altitude
        and not f.hidden
        and (f.on_table or not table)
        and (among is None or f.id in among)
    ]
    if not others:
        return ()
    doubled = variant(state, "neutral-distance")
    gaps = {f.id: round(_distance(state, me, f, doubled), 6) for f in others}
    near = min(gaps.values())
    ranked = neutral_target_order(
        {f.id: (value_of(state, f.id), f.wounds) for f in others if gaps[f.id] == near}
    )
    return ranked[0]


def nearest_enemy(state: GameState, fighter_id: str) -> Fighter | None:
    """XX-E-5: the nearest living non-neutral fighter (:func:`nearest_enemies`), ties to the
    smallest id (docs/rulings.md "XX-E-5": a pursuit chooses a direction, not a target)."""
    nearest = nearest_enemies(state, fighter_id)
    return state.fighter(nearest[0]) if nearest else None


def _pursue(state: GameState, legal: list[Choice]) -> Choice:
    """XX-E-5: the pursuit move towards the nearest non-neutral fighter: engage him when a move
    does, otherwise end as near him as the moves allow (staying counts as the present spot)."""
    moves = [c for c in legal if isinstance(c, Pursue)]
    me = state.fighter(moves[0].fighter)
    target = nearest_enemy(state, me.id)
    if target is None:
        return moves[0]
    engaging = [m for m in moves if target.id in m.engage]
    if engaging:
        return min(engaging, key=lambda m: (len(m.engage), m.distance))

    def gap(move: Pursue) -> float:
        x = move.x if move.x is not None else me.x
        y = move.y if move.y is not None else me.y
        return math.hypot(x - target.x, y - target.y)

    return min(moves, key=lambda m: (round(gap(m), 6), moves.index(m)))


# --- XX-E-1: activation ------------------------------------------------------------------------


def _current(state: GameState) -> Activation:
    assert state.activation is not None and state.activation.current is not None
    return state.activation.current


def _next_assault(state: GameState, legal: list[Choice]) -> tuple[str, tuple[str, ...]] | None:
    """XX-E-1: the next neutral fighter of the activation to announce his assault (the first
    in card order free of any enemy with an assault to announce) and the nearest non-neutral
    fighters he may assault (several: a d6 chooses)."""
    current = _current(state)
    if current.action is not None and current.action.kind == "neutral_target":
        return current.action.fighter, current.action.options
    may = {c.fighter for c in legal if isinstance(c, Announce) and c.method is None}
    for fighter in current.fighters:
        if fighter not in may:
            continue
        # II-E-3 (docs/rulings.md): the nearest he may still assault; an enemy touched by
        # his limit is not offered as a target
        open_to = {
            c.target
            for c in legal
            if isinstance(c, Announce) and c.fighter == fighter and c.target is not None
        }
        targets = nearest_enemies(state, fighter, among=open_to)
        if targets:
            return fighter, targets
    return None


def _assault_draw(state: GameState, legal: list[Choice]) -> Transition | None:
    """XX-E: a d6 when several nearest fighters tie in the XX-E order (``neutral_assault_die``);
    the tie is kept in the activation while the die is rolled."""
    if _current(state).stage != ActivationStage.ANNOUNCE:
        return None
    nxt = _next_assault(state, legal)
    if nxt is None or len(nxt[1]) < 2:
        return None
    fighter, tied = nxt
    current = _current(state)
    drawing = ActionInProgress("neutral_target", fighter, ActionStage.DRAW, options=tied)
    assert state.activation is not None
    progress = evolve(state.activation, current=evolve(current, action=drawing))
    return evolve(
        state, activation=progress, pending=Pending(QuestionKind.NEUTRAL_ASSAULT_DIE, None)
    ), []


def _announce(fighter: str, target: str, legal: Sequence[Choice]) -> Choice:
    """XX-E-1: an assault, "charging if possible" (V-B-3: he sees the target)."""
    charge = Announce(fighter, "charge", target)
    return charge if charge in legal else Announce(fighter, "engage", target)


def _activation(state: GameState, legal: list[Choice]) -> Choice:
    """XX-E-1: announce the assault of each free neutral fighter on the nearest non-neutral
    fighter, then resolve them; nothing else (docs/rulings.md "XX-E-1")."""
    if _current(state).stage == ActivationStage.ANNOUNCE:
        nxt = _next_assault(state, legal)
        if nxt is not None:
            return _announce(nxt[0], nxt[1][0], legal)
    for done in (AnnouncementsDone(), EndActivation()):
        if done in legal:
            return done
    return legal[0]


def _assault_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    current = _current(state)
    action = current.action
    assert action is not None and action.kind == "neutral_target"
    kept = draw_groups(action.options)[choice.face - 1] or action.options
    event = NeutralAssaultRolled(action.fighter, action.options, choice.face, kept)
    assert state.activation is not None
    if len(kept) > 1:
        current = evolve(current, action=evolve(action, options=kept))
        return evolve(state, activation=evolve(state.activation, current=current)), [event]
    state = evolve(state, activation=evolve(state.activation, current=evolve(current, action=None)))
    handler = rules_of(state).handler(QuestionKind.ACTIVATION)
    announce = _announce(action.fighter, kept[0], handler.legal(state))
    state, applied = handler.apply(state, announce)
    return state, [event, NeutralDecided(QuestionKind.ACTIVATION, announce), *applied]


def _assault_die_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    action = _current(state).action
    assert action is not None
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    tied = ", ".join(combat_phase._name(state, f) for f in action.options)
    return Question(
        QuestionKind.NEUTRAL_ASSAULT_DIE,
        None,
        f"a d6 chooses whom {combat_phase._name(state, action.fighter)} assaults among "
        f"{tied} (XX-E-1)",
        options,
    )


def _redirect(state: GameState, legal: list[Choice]) -> Choice:
    """V-B-3 for a neutral whose target is gone: the nearest non-neutral fighter he may
    still assault (II-E-3), or stay."""
    assert state.activation is not None and state.activation.current is not None
    action = state.activation.current.action
    assert action is not None
    open_to = {c.to for c in legal if isinstance(c, Redirect) and c.to is not None}
    for target in nearest_enemies(state, action.fighter, among=open_to):
        if Redirect(target) in legal:
            return Redirect(target)
    return Redirect()


def _no_scenery(state: GameState, legal: list[Choice]) -> Choice:
    """XX-E-1, XX-E-4: a neutral fighter's dice are for the fighters he assaults; he never
    attacks an element of scenery (C3)."""
    none = [c for c in legal if isinstance(c, AttackScenery) and not c.attacks]
    return none[0] if none else legal[0]


def _no_cover(state: GameState, legal: list[Choice]) -> Choice:
    """XX-E-1: a neutral fighter always makes an assault; he never moves to cover."""
    return TakeCover(False)


# ---------------------------------------------------------------------------------------------
# The rules' own answers and contributions
# ---------------------------------------------------------------------------------------------

POLICIES: dict[str, Callable[[GameState, list[Choice]], Choice]] = {
    QuestionKind.CONTEST_RAISE: _raise,
    QuestionKind.ATTACK_RAISE: _raise,
    QuestionKind.DEFENCE_RAISE: _raise,
    QuestionKind.NAME_FIGHTER: _name,
    QuestionKind.ALLOCATE_DICE: _first,
    QuestionKind.MAKE_ATTACK: _attack,
    QuestionKind.DEFEND: _defend,
    QuestionKind.PURSUE: _pursue,
    QuestionKind.SPLIT_MELEE: _split,
    QuestionKind.ACTIVATION: _activation,
    QuestionKind.ASSAULT_CONTACT: _first,
    QuestionKind.ROTATE_CHARGED: _first,
    QuestionKind.REDIRECT: _redirect,
    QuestionKind.TAKE_COVER: _no_cover,
    QuestionKind.TEST_RAISE: _raise,
    QuestionKind.ATTACK_SCENERY: _no_scenery,
}


def _faces(state: GameState) -> list[Choice]:
    return [DieFace(face) for face in FACES]


def _tell(n: Narrator, event: Event) -> str | None:
    if isinstance(event, NeutralAssaultRolled):
        tied = ", ".join(n.fighter(f) for f in event.tied)
        then = (
            f"it assaults {n.fighter(event.kept[0])}" if len(event.kept) == 1 else "it rolls again"
        )
        return (
            f"{n.fighter(event.fighter)} (neutral) hesitates between {tied}: the die shows "
            f"{event.face}, {then}."
        )
    if isinstance(event, NeutralTargetRolled):
        tied = ", ".join(n.fighter(f) for f in event.tied)
        if len(event.kept) == 1:
            return (
                f"{n.fighter(event.attacker)} (neutral) hesitates between {tied}: the die shows "
                f"{event.face}, it attacks {n.fighter(event.kept[0])}."
            )
        return (
            f"{n.fighter(event.attacker)} (neutral) hesitates between {tied}: the die shows "
            f"{event.face}, it rolls again."
        )
    return None


def contribute(rules: RulesBuilder) -> None:
    """The neutral side's dice and their narration (XX-E)."""
    rules.handler(
        Handler(
            QuestionKind.NEUTRAL_TARGET_DIE,
            _faces,
            _target_die_apply,
            _target_die_describe,
            subject=lambda state: NEUTRAL,
        )
    )

    rules.handler(
        Handler(
            QuestionKind.NEUTRAL_ASSAULT_DIE,
            _faces,
            _assault_die_apply,
            _assault_die_describe,
            subject=lambda state: NEUTRAL,
        )
    )
    rules.sentence(NeutralTargetRolled.kind, _tell)
    rules.sentence(NeutralAssaultRolled.kind, _tell)
    rules.sentence(NeutralDecided.kind, lambda n, event: None)
