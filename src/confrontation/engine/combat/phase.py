"""The combat phase (IV-C, chapter VII) through the engine's questions, dice and events.

The phase driver (the ruleset's driver of ``Phase.COMBAT``) runs chapter VII in order:

1. **Melees** (VII-A): the enemy-contact graph (:func:`contact_graph`, from the contact
   finder of :mod:`.seam` plus the contacts of pursuit moves) gives the melees
   (``MeleeFound``). A melee with one valid separation is separated at once; otherwise each
   player names a fighter who is not routed and they roll Discipline in opposition (raises
   are questions, ties re-rolled, a roll-off orders equal 6s: ``engine.core.rolloff``); the
   winner chooses a separation among every valid one (``split_melee``; ``CombatSplit``).
2. **Order** (VII-B): each player names a fighter, and so the combat he wants to start
   with; the Authority roll (Discipline in opposition) gives the first turn to speak, whose
   combat is resolved first. Then the players take turns choosing a combat; combats caused
   by a pursuit move are resolved in the same turn (VII-C-6 c, Note 1: the speaker orders
   them).
3. **Resolution** (VII-C): dice allocated fighter by fighter in ascending strategic value
   (tie: the player who did not choose the combat first; a Defense counter puts every die in
   defence); the initiative test with INI + X; weapon combats, the initiative winner's side
   first, each attack a-e as questions and chance steps (target, defence announced — a
   sustained defence when VII-C-5 allows —, attack test with its raises before any defence
   die, defence test with several dice, wound roll with the current values); a killed
   fighter's dice are lost at once and he leaves the table.
4. **Pursuit** (VII-C-6): each survivor whose every opponent was killed may make one pursuit
   move a round, MOV/2 rounded up, engaging (not charging). The moves come from the
   ruleset's **pursuit finder** (``rules.with_pursuits``): without a table a fighter stays in
   place (a move of 0 cm, which engages the enemies already in contact with him); on a table
   :mod:`.pursuit` (the ``confede`` default) offers moves into contact along legal
   paths. A fighter who ends in contact with enemies who have not fought makes a new melee,
   separated by his player without dice (Note 2), and his combat is resolved at once.
   When fighters of both players killed a neutral fighter, the player with the best
   initiative result chooses whose fighters pursue first (``pursue_first``, XX-E-5).

5. **Scenery** (C3): attacks on elements of scenery with structure points,
   :mod:`.scenery_attack` (hooks at the start of the phase, after each allocation and once
   the combats are over).

The combat arithmetic is :mod:`confrontation.rules.combat` and :mod:`.melee`; this module
only asks, rolls and books.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from confrontation.dice import FACES, RollOff, next_decider
from confrontation.engine.combat import (
    narrate,  # noqa: F401  (the events' sentences)
    scenery_attack,
)
from confrontation.engine.combat.events import (
    AttackDeclared,
    AttackRolled,
    AuthorityRolled,
    CombatChosen,
    CombatResolved,
    CombatSplit,
    CombatTurnsSet,
    ContestFighterNamed,
    ContestTied,
    DefenceAnnounced,
    DefenceRolled,
    DiceAllocated,
    FighterKilled,
    InitiativeRolled,
    MeleeFound,
    Pursued,
    SplitRolled,
    SustainedDefence,
    WeaponCombatStarted,
    Wounded,
)
from confrontation.engine.combat.questions import (
    AllocateDice,
    ChooseCombat,
    Defend,
    MakeAttack,
    NameFighter,
    Pursue,
    SplitMelee,
)
from confrontation.engine.combat.seam import fighters_in_contact
from confrontation.engine.core.combat_state import (
    AttackInProgress,
    AttackStage,
    CombatProgress,
    Contest,
    DiceOnTable,
    Fight,
    FightStage,
    Hand,
)
from confrontation.engine.core.events import Event, PhaseEnded, PhaseStarted, TestRaised
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.hooks import move_ended
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.melee import (
    Combat,
    enemy_contacts,
    melees,
    pursuit_melee,
    splits,
    who_splits,
)
from confrontation.engine.core.questions import Choice, DieFace, KeepResult, Option, Question, Raise
from confrontation.engine.core.registry import (
    EngineError,
    Handler,
    Transition,
)
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import (
    NEUTRAL,
    Fighter,
    GameState,
    MaintenanceProgress,
    Pending,
    Phase,
    player_name,
)
from confrontation.engine.table import passive
from confrontation.engine.table.field import base_of, has_field, movement
from confrontation.engine.table.field import enemy_contacts as field_contacts
from confrontation.rules.characteristics import (
    Characteristic,
    HealthState,
    Modifiers,
    current_value,
)
from confrontation.rules.charge import charge_modifiers
from confrontation.rules.combat import (
    Allocant,
    Allocation,
    Combatant,
    CombatState,
    DefenceChoice,
    Stats,
    allocation_choices,
    allocation_order,
    allocation_rule,
    apply_attack,
    attack_hits,
    authority_candidates,
    combat_dice,
    combat_over,
    defence_choices,
    end_combat,
    initiative_value,
    may_pursue,
    pursuit_distance,
    rank_results,
    read_attack,
)
from confrontation.rules.wounds import read_wound

C = Characteristic

__all__ = [
    "DiceBonus",
    "PursuitFinder",
    "contact_graph",
    "drive",
    "stay_in_place",
]

# ---------------------------------------------------------------------------------------------
# Seams: the pursuit finder
# ---------------------------------------------------------------------------------------------

PursuitFinder = Callable[[GameState, str, int], list[Pursue]]
"""``finder(state, fighter, reach_cm)``: the pursuit moves open to ``fighter`` (VII-C-6)."""


def stay_in_place(state: GameState, fighter: str, reach: int) -> list[Pursue]:
    """Without geometry the only move is to stay (0 cm): the pursuer remains in contact with
    the enemies already touching him (VII-C-6 b, example 1)."""
    return [Pursue(fighter, _touching(state, fighter), "stay in place")]


DiceBonus = Callable[[GameState, str], int]
"""``bonus(state, fighter)``: combat dice a game effect adds to ``fighter`` (VII-C-1), e.g. an
ability a user's plug-in defines (CLARIFICATIONS §5: abilities are carried, not applied)."""


def no_bonus(state: GameState, fighter: str) -> int:
    """No game effect adds combat dice (the default)."""
    return 0


# ---------------------------------------------------------------------------------------------
# Reading the state
# ---------------------------------------------------------------------------------------------


def _progress(state: GameState) -> CombatProgress:
    if state.combat is None:
        raise EngineError("the combat phase is not under way")
    return state.combat


def _set(state: GameState, **changes: Any) -> GameState:
    return evolve(state, combat=evolve(_progress(state), **changes))


def _set_fight(state: GameState, **changes: Any) -> GameState:
    fight = _progress(state).fight
    assert fight is not None
    return _set(state, fight=evolve(fight, **changes))


def _fight(state: GameState) -> Fight:
    fight = _progress(state).fight
    if fight is None:
        raise EngineError("no combat is being resolved")
    return fight


def _attack(state: GameState) -> AttackInProgress:
    attack = _fight(state).attack
    if attack is None:
        raise EngineError("no attack is under way")
    return attack


def contacts(state: GameState) -> list[tuple[str, str]]:
    """The pairs of living fighters in contact: the contact finder's and those made by
    pursuit moves this phase."""
    made = state.combat.engaged if state.combat is not None else ()
    pairs = [*fighters_in_contact(state), *made]
    return [(a, b) for a, b in pairs if state.fighter(a).alive and state.fighter(b).alive]


def contact_graph(state: GameState) -> nx.Graph:
    """The enemy-contact graph of the living fighters (VII-A); not to be changed by callers.

    With the rules' own contact finder (``engine.table.field.enemy_contacts``: the contacts
    of the state's battlefield, made of its fighters, battleground and profiles) the graph is
    kept per those records and the pursuit contacts made this phase (the very objects): the
    steps of a combat phase that move nobody share one graph."""
    if rules_of(state).contacts is not field_contacts:
        return _contact_graph(state)
    made_of = graph_records(state)
    key = tuple(map(id, made_of))
    found = _GRAPHS.get(key)
    if found is not None and all(a is b for a, b in zip(found[0], made_of, strict=True)):
        return found[1]
    graph = _contact_graph(state)
    if len(_GRAPHS) >= _GRAPHS_SIZE:
        _GRAPHS.clear()
    _GRAPHS[key] = (made_of, graph)
    return graph


def graph_records(state: GameState) -> tuple[Any, ...]:
    """What the contact graph is made of with the rules' contact finder: the fighters, the
    battleground, the profiles and the pursuit contacts of the phase."""
    engaged = state.combat.engaged if state.combat is not None else ()
    return (state.fighters, state.battleground, state.profiles, engaged)


_GRAPHS: dict[tuple[int, ...], tuple[tuple[Any, ...], nx.Graph]] = {}
"""The graphs :func:`contact_graph` kept, by the ids of the records they are made of (kept
with them, so that the ids are not reused while an entry lives)."""
_GRAPHS_SIZE = 256


def _contact_graph(state: GameState) -> nx.Graph:
    """:func:`contact_graph` worked out."""
    sides = {f.id: f.player for f in state.fighters if f.alive}
    return enemy_contacts(sides, contacts(state))


def _touching(state: GameState, fighter: str) -> tuple[str, ...]:
    graph = contact_graph(state)
    return tuple(sorted(graph[fighter])) if fighter in graph else ()


def health(fighter: Fighter) -> HealthState:
    """A fighter's wound levels and Stunned state (II-B)."""
    return HealthState(min(fighter.wounds, 4), fighter.stunned)


def _discipline(state: GameState, fighter_id: str) -> int:
    fighter = state.fighter(fighter_id)
    return current_value(C.DIS, state.profile(fighter.profile).discipline, health=health(fighter))


def _name(state: GameState, fighter_id: str) -> str:
    return f"{state.profile(state.fighter(fighter_id).profile).name} ({fighter_id})"


def _combat_label(state: GameState, combat: Combat) -> str:
    many = ", ".join(_name(state, f) for f in combat.many)
    return f"{_name(state, combat.one)} against {many}"


def _player_of(state: GameState, fighter_id: str) -> int:
    return state.fighter(fighter_id).player


# ---------------------------------------------------------------------------------------------
# The driver
# ---------------------------------------------------------------------------------------------


def drive(state: GameState) -> Transition:
    """Move the combat phase on to its next question or die, or end it."""
    progress = state.combat
    if progress is None:
        return _begin(state)
    if progress.scenery.busy:  # C3: an attack on an element of scenery under way
        return scenery_attack.drive(state)
    if progress.contest is not None:
        return _drive_contest(state)
    if progress.melees:
        return _drive_split(state)
    if progress.fight is not None:
        return _drive_fight(state)
    if not progress.combats:
        # C3: fighters in contact with scenery and no enemy attack it once the combats end.
        attacking = scenery_attack.standalone(state)
        return (attacking, []) if attacking is not None else _end(state)
    if not progress.speakers:
        players = _players_in(state)
        if len(players) == 1:  # alone against neutral fighters: nothing to decide (XX-E)
            return _set(state, speakers=players, turn=0), []
        if len(state.players) > 2:  # XX-F-5: the Tactics results, no Authority roll
            strategic = state.strategic
            ranked = strategic.order if strategic and strategic.order else state.speaking_order()
            speakers = tuple(p for p in ranked if p in players)
            return _set(state, speakers=speakers, turn=0), [CombatTurnsSet(speakers)]
        contest = Contest("authority", tuple(Hand(p) for p in players))
        return _set(state, contest=contest), []
    return _next_combat(state)


def _begin(state: GameState) -> Transition:
    events: list[Event] = [PhaseStarted(state.round, Phase.COMBAT.value)]
    found = tuple(tuple(sorted(m)) for m in melees(contact_graph(state)))
    events.extend(MeleeFound(m) for m in found)
    state = evolve(state, combat=CombatProgress(started=True, melees=found))
    return scenery_attack.at_start(state), events  # C3: contacts with scenery at the start


def _end(state: GameState) -> Transition:
    ended = PhaseEnded(state.round, Phase.COMBAT.value)
    return (
        evolve(state, phase=Phase.MAINTENANCE, combat=None, maintenance=MaintenanceProgress()),
        [ended],
    )


def _players_in(state: GameState) -> tuple[int, ...]:
    """The players in the combats (the Authority roll); neutral fighters are no player."""
    players = {state.fighter(f).player for c in _progress(state).combats for f in c.fighters}
    return tuple(sorted(players - {NEUTRAL}))


# --- VII-A: separating the melees ----------------------------------------------------------


def _routed(state: GameState) -> tuple[str, ...]:
    return tuple(f.id for f in state.fighters if f.routed)


def _drive_split(state: GameState) -> Transition:
    progress = _progress(state)
    melee = progress.melees[0]
    graph = contact_graph(state)
    if progress.splitter is None:
        decision = who_splits(graph, melee, _routed(state))
        if decision.needs_roll:
            # XX-F-5: every *player* involved rolls; neutral fighters separate nothing
            # (docs/rulings.md "XX-E-4"): alone against them a player separates, no dice.
            players = sorted({state.fighter(f).player for f in melee} - {NEUTRAL})
            if len(players) == 1:
                return _set(state, splitter=players[0]), []
            return _set(state, contest=Contest("split", tuple(Hand(p) for p in players))), []
        return _apply_split(state, decision.options[0], None)
    options = splits(graph, melee)
    if not options:
        raise EngineError(f"the melee {', '.join(melee)} cannot be separated (VII-A)")
    if len(options) == 1:
        return _apply_split(state, options[0], None)
    return evolve(state, pending=Pending(QuestionKind.SPLIT_MELEE, progress.splitter)), []


def _apply_split(state: GameState, combats: Sequence[Combat], by: int | None) -> Transition:
    progress = _progress(state)
    melee = progress.melees[0]
    members = frozenset(melee)
    kept = tuple(c for c in progress.combats if not (c.fighters & members))
    state = _set(state, melees=progress.melees[1:], splitter=None, combats=kept + tuple(combats))
    return state, [CombatSplit(melee, tuple(combats), by)]


def _split_legal(state: GameState) -> list[Choice]:
    progress = _progress(state)
    return [SplitMelee(s) for s in splits(contact_graph(state), progress.melees[0])]


def _split_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, SplitMelee)
    return _apply_split(state, choice.combats, _progress(state).splitter)


def _split_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    player = _progress(state).splitter
    assert player is not None
    options = tuple(
        Option(c, "; ".join(_combat_label(state, k) for k in c.combats))
        for c in choices
        if isinstance(c, SplitMelee)
    )
    melee = ", ".join(_name(state, f) for f in _progress(state).melees[0])
    prompt = f"{player_name(player)}: separate the melee of {melee} into combats (VII-A)."
    return Question(QuestionKind.SPLIT_MELEE, player, prompt, options)


# --- opposed tests: Discipline (VII-A), Authority (VII-B), initiative (VII-C-2) --------------


def _candidates(state: GameState, contest: Contest, player: int) -> list[tuple[str, int]]:
    """The fighters ``player`` may name for ``contest`` and the value each would test."""
    progress = _progress(state)
    routed = set(_routed(state))
    if contest.purpose == "split":
        decision = who_splits(contact_graph(state), progress.melees[0], routed)
        return [(f, _discipline(state, f)) for f in decision.contenders[player]]
    if contest.purpose == "authority":
        named: list[str] = []
        for combat in progress.combats:
            fighters = [
                (f, str(state.fighter(f).player), f in routed) for f in sorted(combat.fighters)
            ]
            if any(owner == str(player) for _, owner, _ in fighters):
                named.extend(authority_candidates(fighters, str(player)))
        return [(f, _discipline(state, f)) for f in named]
    board = _fight(state).board
    side = [f for f in board.side_fighters(str(player)) if f.alive]
    return [(f.id, initiative_value(f.current(C.INI), len(side))) for f in side]


def _drive_contest(state: GameState) -> Transition:
    contest = _progress(state).contest
    assert contest is not None
    for hand in contest.hands:
        if not hand.named:
            candidates = _candidates(state, contest, hand.player)
            if len(candidates) == 1:
                return _name_fighter(state, hand.player, *candidates[0])
            return evolve(state, pending=Pending(QuestionKind.NAME_FIGHTER, hand.player)), []
    if any(h.roll is not None and h.roll.awaiting for h in contest.hands):
        return evolve(state, pending=Pending(QuestionKind.CONTEST_DIE, None)), []
    decider = _contest_decider(contest)
    if isinstance(decider, RollOff):  # CLARIFICATIONS §9: the roll-off's dice
        contest = evolve(contest, rolloff=decider)
        return _set(
            evolve(state, pending=Pending(QuestionKind.ROLLOFF_DIE, None)), contest=contest
        ), []
    if decider is not None:
        return evolve(state, pending=Pending(QuestionKind.CONTEST_RAISE, decider.player)), []
    finals = tuple(h.roll.final if h.roll else 0 for h in contest.hands)
    ranking = _ranking(contest)
    # II-A-3: equal results roll again. With three or more sides (XX-F-5) only the tied sides
    # roll again, among themselves; the initiative orders every side, the other tests only
    # need the best one.
    ordering = ranking if contest.purpose == "initiative" else ranking[:1]
    again = {p for group in ordering if len(group) > 1 for p in group}
    if again:
        hands = tuple(
            evolve(h, roll=DiceOnTable.start(h.value)) if h.player in again else h
            for h in contest.hands
        )
        tied = evolve(contest, hands=hands, ties=contest.ties + 1, ranking=ranking, rolloff=None)
        return _set(state, contest=tied), [ContestTied(contest.purpose, finals)]
    order = tuple(p for group in ranking for p in group)
    return _contest_won(state, contest, order, finals)


def _ranking(contest: Contest) -> tuple[tuple[int, ...], ...]:
    """The players by decreasing result, tied ones grouped (XX-F-5): groups settled by earlier
    rolls keep their place, a tied group is ordered by its new roll."""
    standings = {h.player: h.standing for h in contest.hands}
    groups = contest.ranking or (tuple(h.player for h in contest.hands),)
    ranked: list[tuple[int, ...]] = []
    for group in groups:
        if len(group) == 1:
            ranked.append(group)
        else:
            ranked.extend(rank_results({p: standings[p] for p in group}))
    return tuple(ranked)


def _contest_decider(contest: Contest) -> Hand | RollOff | None:
    """II-A-3: who decides now whether to raise a 6: the one showing it; when several do, the
    lower final result first; equal results: the roll-off (CLARIFICATIONS §9, as in the
    Tactics roll), a :class:`RollOff` while its dice are due."""
    raisers = {
        h.player: h.roll.final for h in contest.hands if h.roll is not None and h.roll.may_raise
    }
    decider = next_decider(raisers, contest.rolloff)
    if decider is None or isinstance(decider, RollOff):
        return decider
    return contest.hand(decider)


def _contest_won(
    state: GameState, contest: Contest, order: tuple[int, ...], finals: tuple[int, ...]
) -> Transition:
    winner = order[0]
    fighters = tuple(h.fighter or "" for h in contest.hands)
    state = _set(state, contest=None)
    if contest.purpose == "split":
        return _set(state, splitter=winner), [SplitRolled(fighters, finals, winner)]
    if contest.purpose == "authority":
        named = contest.hand(winner).fighter
        opening = next(c for c in _progress(state).combats if named in c.fighters)
        state = _set(state, speakers=order, opening=opening, turn=0)
        return state, [AuthorityRolled(fighters, finals, winner)]
    fight = _fight(state)
    board = evolve(fight.board, side_order=tuple(str(p) for p in order))
    state = _set_fight(state, board=board, stage=FightStage.ATTACKS, side=0, made=())
    values = tuple(h.value for h in contest.hands)
    naturals = tuple(h.roll.result().natural if h.roll else 0 for h in contest.hands)
    return state, [
        InitiativeRolled(fighters, values, naturals, finals, order),
        WeaponCombatStarted(1),
    ]


def _name_fighter(state: GameState, player: int, fighter: str, value: int) -> Transition:
    contest = _progress(state).contest
    assert contest is not None
    hand = Hand(player, fighter, value, DiceOnTable.start(value))
    state = _set(state, contest=contest.with_hand(hand))
    return state, [ContestFighterNamed(contest.purpose, player, fighter, value)]


def _name_legal(state: GameState) -> list[Choice]:
    assert state.pending is not None and state.pending.player is not None
    contest = _progress(state).contest
    assert contest is not None
    return [NameFighter(f) for f, _ in _candidates(state, contest, state.pending.player)]


def _name_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, NameFighter)
    contest = _progress(state).contest
    assert contest is not None
    player = _player_of(state, choice.fighter)
    value = dict(_candidates(state, contest, player))[choice.fighter]
    return _name_fighter(state, player, choice.fighter, value)


_PURPOSES = {
    "split": ("separate the melee (Discipline in opposition, VII-A)", "DIS"),
    "authority": (
        "the Authority roll: your fighter's combat is the one you start with (VII-B)",
        "DIS",
    ),
    "initiative": ("the initiative test (VII-C-2)", "INI+X"),
}


def _name_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None and state.pending.player is not None
    player = state.pending.player
    contest = _progress(state).contest
    assert contest is not None
    what, value_name = _PURPOSES[contest.purpose]
    values = dict(_candidates(state, contest, player))
    options = []
    for c in choices:
        assert isinstance(c, NameFighter)
        detail = f"{value_name} {values[c.fighter]}"
        if contest.purpose == "authority":
            combat = next(k for k in _progress(state).combats if c.fighter in k.fighters)
            detail += f"; combat: {_combat_label(state, combat)}"
        options.append(Option(c, _name(state, c.fighter), detail))
    prompt = f"{player_name(player)}: who rolls for {what}?"
    return Question(QuestionKind.NAME_FIGHTER, player, prompt, tuple(options))


def _faces(state: GameState) -> list[Choice]:
    return [DieFace(face) for face in FACES]


def _contest_roller(state: GameState) -> int | None:
    contest = _progress(state).contest
    assert contest is not None
    return next(h.player for h in contest.hands if h.roll is not None and h.roll.awaiting)


def _contest_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    contest = _progress(state).contest
    assert contest is not None
    hand = contest.hand(_contest_roller(state) or 0)
    assert hand.roll is not None
    hand = evolve(hand, roll=hand.roll.add(choice.face))
    return _set(state, contest=contest.with_hand(hand)), []


def _die_describe(kind: str, what: Callable[[GameState], str]) -> Callable[..., Question]:
    def describe(state: GameState, choices: Sequence[Choice]) -> Question:
        options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
        return Question(kind, None, what(state), options)

    return describe


def _contest_die_what(state: GameState) -> str:
    contest = _progress(state).contest
    assert contest is not None
    return f"{player_name(_contest_roller(state) or 0)} rolls for {_PURPOSES[contest.purpose][0]}"


def _raise_legal(state: GameState) -> list[Choice]:
    return [Raise(), KeepResult()]


def _contest_raise_apply(state: GameState, choice: Choice) -> Transition:
    contest = _progress(state).contest
    assert contest is not None
    hand = _contest_decider(contest)
    assert isinstance(hand, Hand) and hand.roll is not None
    roll = hand.roll
    events: list[Event] = []
    if isinstance(choice, Raise):
        roll = roll.raise_sixes()
        events.append(TestRaised(hand.player, contest.purpose))
    else:
        roll = roll.keep()
    hand = evolve(hand, roll=roll)
    return _set(state, contest=contest.with_hand(hand)), events


def _raise_options(final: int) -> tuple[Option, ...]:
    return (
        Option(Raise(), "raise", "roll the 6 again and add it; a 1 makes the natural result 1"),
        Option(KeepResult(), "keep", f"keep {final}"),
    )


def _contest_raise_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    contest = _progress(state).contest
    assert contest is not None
    hand = _contest_decider(contest)
    assert isinstance(hand, Hand) and hand.roll is not None
    others = ", ".join(
        f"{player_name(h.player)} has {h.roll.final if h.roll else 0}"
        for h in contest.hands
        if h.player != hand.player
    )
    prompt = (
        f"{player_name(hand.player)}: your roll for {_PURPOSES[contest.purpose][0]} shows a 6 "
        f"(result {hand.roll.final}); {others}. Raise?"
    )
    return Question(
        QuestionKind.CONTEST_RAISE, hand.player, prompt, _raise_options(hand.roll.final)
    )


# --- VII-B: choosing the combats -------------------------------------------------------------


def _urgent_combats(state: GameState) -> list[Combat]:
    progress = _progress(state)
    urgent = set(progress.urgent)
    return [c for c in progress.combats if c.fighters & urgent]


def _speaker(state: GameState) -> int:
    progress = _progress(state)
    return progress.speakers[progress.turn % len(progress.speakers)]


def _next_combat(state: GameState) -> Transition:
    progress = _progress(state)
    speaker = _speaker(state)
    urgent = _urgent_combats(state)
    if urgent:
        if len(urgent) == 1:
            return _start_fight(state, urgent[0], speaker)
        return evolve(state, pending=Pending(QuestionKind.CHOOSE_COMBAT, speaker)), []
    if progress.turn == 0 and progress.opening in progress.combats:
        assert progress.opening is not None
        return _start_fight(state, progress.opening, speaker)
    if len(progress.combats) == 1:
        return _start_fight(state, progress.combats[0], speaker)
    return evolve(state, pending=Pending(QuestionKind.CHOOSE_COMBAT, speaker)), []


def _choose_legal(state: GameState) -> list[Choice]:
    urgent = _urgent_combats(state)
    return [ChooseCombat(c) for c in (urgent or _progress(state).combats)]


def _choose_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, ChooseCombat)
    return _start_fight(state, choice.combat, _speaker(state))


def _choose_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    speaker = _speaker(state)
    options = tuple(
        Option(c, _combat_label(state, c.combat)) for c in choices if isinstance(c, ChooseCombat)
    )
    why = (
        "which combat caused by the pursuit is resolved next (VII-C-6 Note 1)?"
        if _urgent_combats(state)
        else "which combat is resolved now (VII-B)?"
    )
    return Question(QuestionKind.CHOOSE_COMBAT, speaker, f"{player_name(speaker)}: {why}", options)


def _combatant(state: GameState, fighter_id: str) -> Combatant:
    fighter = state.fighter(fighter_id)
    profile = state.profile(fighter.profile)
    stats = Stats(profile.ini, profile.att, profile.strength, profile.defense, profile.res)
    # V-B-3: a fighter who charged fights with the charge penalty until the end of the round.
    penalties = tuple(
        (c, charge_modifiers(c, fighter.charged)) for c in (C.INI, C.ATT, C.STR, C.DEF, C.RES)
    )
    return Combatant(
        fighter_id,
        str(fighter.player),
        stats,
        Allocation(0, 0),
        health=health(fighter),
        modifiers=tuple((c, m) for c, m in penalties if m != Modifiers()),
        strategic_value=profile.ap,
    )


def _start_fight(state: GameState, combat: Combat, speaker: int) -> Transition:
    progress = _progress(state)
    pursuit = bool(combat.fighters & set(progress.urgent))
    ids = (combat.one, *combat.many)
    fighters = tuple(_combatant(state, f) for f in ids)
    sides = tuple(sorted({f.side for f in fighters}))
    board = CombatState(combat.one, fighters, sides)
    order = allocation_order(
        [Allocant(f.id, f.side, f.strategic_value) for f in sorted(fighters, key=lambda f: f.id)],
        chooser=str(speaker),
    )
    fight = Fight(combat, speaker, board, FightStage.ALLOCATE, order)
    fought = progress.fought + tuple(f for f in sorted(combat.fighters) if f not in progress.fought)
    state = _set(
        state,
        fight=fight,
        combats=tuple(c for c in progress.combats if c != combat),
        urgent=tuple(f for f in progress.urgent if f not in combat.fighters),
        fought=fought,
    )
    return state, [CombatChosen(speaker, combat, progress.turn, pursuit)]


# --- VII-C: resolving a combat -----------------------------------------------------------------


def _drive_fight(state: GameState) -> Transition:
    fight = _fight(state)
    if fight.stage == FightStage.ALLOCATE:
        if not fight.to_allocate:
            sides = sorted({int(f.side) for f in fight.board.fighters})
            contest = Contest("initiative", tuple(Hand(p) for p in sides))
            return _set(_set_fight(state, stage=FightStage.INITIATIVE), contest=contest), []
        fighter = fight.to_allocate[0]
        options = _allocations(state, fighter)
        if len(options) == 1:
            return _allocate(state, fighter, options[0])
        return evolve(
            state, pending=Pending(QuestionKind.ALLOCATE_DICE, _player_of(state, fighter))
        ), []
    if fight.stage == FightStage.ATTACKS:
        return _drive_attacks(state)
    if fight.stage == FightStage.PURSUIT:
        return _drive_pursuit(state)
    raise EngineError(f"the combat is stuck at its {str(fight.stage)!r} stage")


def _allocations(state: GameState, fighter_id: str) -> tuple[Allocation, ...]:
    board = _fight(state).board
    bonus = rules_of(state).dice_bonus(state, fighter_id)
    dice = combat_dice(len(board.opponents(fighter_id)), bonus=bonus)
    fighter = state.fighter(fighter_id)
    # XX-E-4: a neutral fighter puts every die in attack unless forced to defend (V-C).
    # XX-E-6: a passive individual puts them all in defence, even if forced to attack.
    rule = allocation_rule(
        defence_counter=fighter.defence,
        neutral=fighter.player == NEUTRAL,
        passive=fighter.passive,
    )
    return allocation_choices(dice, rule)


def _allocate(state: GameState, fighter_id: str, allocation: Allocation) -> Transition:
    fight = _fight(state)
    combatant = evolve(
        fight.board.fighter(fighter_id),
        allocation=allocation,
        attack_left=allocation.attack,
        defence_left=allocation.defence,
    )
    state = _set_fight(
        state, board=fight.board.replaced(combatant), to_allocate=fight.to_allocate[1:]
    )
    # C3: attack dice for an element of scenery are assigned "at the same time".
    state = scenery_attack.after_allocation(state, fighter_id, allocation.attack)
    return state, [
        DiceAllocated(fighter_id, allocation.dice, allocation.attack, allocation.defence)
    ]


def _allocate_legal(state: GameState) -> list[Choice]:
    fighter = _fight(state).to_allocate[0]
    return [AllocateDice(fighter, a.attack, a.defence) for a in _allocations(state, fighter)]


def _allocate_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, AllocateDice)
    return _allocate(state, choice.fighter, Allocation(choice.attack, choice.defence))


def _allocate_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    fighter = _fight(state).to_allocate[0]
    player = _player_of(state, fighter)
    options = tuple(
        Option(c, f"{c.attack} in attack, {c.defence} in defence")
        for c in choices
        if isinstance(c, AllocateDice)
    )
    dice = len(options) - 1
    prompt = (
        f"{player_name(player)}: place the {dice} combat dice of {_name(state, fighter)} (VII-C-1)."
    )
    return Question(QuestionKind.ALLOCATE_DICE, player, prompt, options)


def _attack_candidates(state: GameState) -> list[MakeAttack]:
    """VII-C-3: the attacks the side whose turn it is still owes in this weapon combat: one
    die on each living opponent of each of its fighters, while dice last."""
    fight = _fight(state)
    board = fight.board
    side = board.side_order[fight.side]
    found = []
    for fighter in board.side_fighters(side):
        if not fighter.alive or fighter.attack_left < 1:
            continue
        for target in sorted(board.opponents(fighter.id)):
            if (fighter.id, target) not in fight.made:
                found.append(MakeAttack(fighter.id, target))
    return found


def _drive_attacks(state: GameState) -> Transition:
    fight = _fight(state)
    if fight.attack is not None:
        return _drive_attack(state)
    board = fight.board
    if combat_over(board):
        return _end_fight(state)
    candidates = _attack_candidates(state)
    if not candidates:
        if fight.side + 1 < len(board.side_order):
            return _set_fight(state, side=fight.side + 1, made=()), []
        board = evolve(board, weapon_pass=board.weapon_pass + 1)
        state = _set_fight(state, board=board, side=0, made=())
        return state, [WeaponCombatStarted(board.weapon_pass)]
    if len(candidates) == 1:
        return _declare(state, candidates[0])
    side = int(board.side_order[fight.side])
    return evolve(state, pending=Pending(QuestionKind.MAKE_ATTACK, side)), []


def _declare(state: GameState, choice: MakeAttack) -> Transition:
    fight = _fight(state)
    attack = AttackInProgress(choice.attacker, choice.target)
    state = _set_fight(state, attack=attack, made=(*fight.made, (choice.attacker, choice.target)))
    return state, [AttackDeclared(fight.board.weapon_pass, choice.attacker, choice.target)]


def _attack_legal(state: GameState) -> list[Choice]:
    return list(_attack_candidates(state))


def _attack_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, MakeAttack)
    return _declare(state, choice)


def _attack_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    fight = _fight(state)
    player = int(fight.board.side_order[fight.side])
    options = []
    for c in choices:
        assert isinstance(c, MakeAttack)
        target = fight.board.fighter(c.target)
        detail = f"{target.defence_left} defence dice" + (
            ", sustaining" if target.sustaining else ""
        )
        options.append(
            Option(c, f"{_name(state, c.attacker)} attacks {_name(state, c.target)}", detail)
        )
    prompt = (
        f"{player_name(player)}: weapon combat {fight.board.weapon_pass}, your next attack "
        "(VII-C-3, VII-C-4 a)?"
    )
    return Question(QuestionKind.MAKE_ATTACK, player, prompt, tuple(options))


def _values(board: CombatState, attack: AttackInProgress) -> tuple[int, int]:
    """The attacker's current ATT and the target's current DEF (a sustained defence: DEF-2)."""
    target = board.fighter(attack.target)
    if attack.defence is not None and attack.defence.sustained:
        target = evolve(target, sustaining=True)
    return board.fighter(attack.attacker).current(C.ATT), target.current(C.DEF)


def _drive_attack(state: GameState) -> Transition:
    board = _fight(state).board
    attack = _attack(state)
    if attack.stage == AttackStage.DEFENCE:
        choices = defence_choices(board.fighter(attack.target))
        if len(choices) == 1:
            return _announce(state, choices[0])
        return evolve(
            state, pending=Pending(QuestionKind.DEFEND, _player_of(state, attack.target))
        ), []
    if attack.stage == AttackStage.ATTACK:
        roll = attack.attack_test
        assert roll is not None
        if roll.awaiting:
            return evolve(state, pending=Pending(QuestionKind.ATTACK_DIE, None)), []
        if roll.may_raise:  # VII-C-4 c Note: the attack's 6s before any defence die
            return evolve(
                state,
                pending=Pending(QuestionKind.ATTACK_RAISE, _player_of(state, attack.attacker)),
            ), []
        return _attack_rolled(state)
    if attack.stage == AttackStage.DEFENCE_TEST:
        roll = attack.defence_test
        assert roll is not None
        if roll.awaiting:
            return evolve(state, pending=Pending(QuestionKind.DEFENCE_DIE, None)), []
        if roll.may_raise:
            return evolve(
                state, pending=Pending(QuestionKind.DEFENCE_RAISE, _player_of(state, attack.target))
            ), []
        return _defence_rolled(state)
    if attack.stage == AttackStage.WOUND:
        if len(attack.wound) < 2:
            return evolve(state, pending=Pending(QuestionKind.COMBAT_WOUND_DIE, None)), []
        return _finish_attack(state)
    raise EngineError(f"an attack is stuck at its {str(attack.stage)!r} stage")


def _announce(state: GameState, defence: DefenceChoice) -> Transition:
    attack = _attack(state)
    board = _fight(state).board
    events: list[Event] = []
    if defence.sustained:
        target = evolve(board.fighter(attack.target), sustaining=True)
        events.append(SustainedDefence(attack.target, target.current(C.DEF)))
    elif defence.dice:
        events.append(DefenceAnnounced(attack.target, defence.dice))
    attack = evolve(attack, defence=defence, stage=AttackStage.ATTACK)
    att, _ = _values(board, attack)
    if defence.dice == 0 and att >= 0:
        # VII-C-4 c and the book's example: the test cannot fail and nothing opposes it.
        attack = evolve(attack, stage=AttackStage.WOUND)
        events.append(AttackRolled(attack.attacker, att, (), 0, 0, False, rolled=False))
    else:
        attack = evolve(attack, attack_test=DiceOnTable.start(att))
    return _set_fight(state, attack=attack), events


def _defend_legal(state: GameState) -> list[Choice]:
    target = _fight(state).board.fighter(_attack(state).target)
    return [Defend(c.dice, c.sustained) for c in defence_choices(target)]


def _defend_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, Defend)
    return _announce(state, DefenceChoice(choice.dice, choice.sustained))


def _defend_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    attack = _attack(state)
    board = _fight(state).board
    target = board.fighter(attack.target)
    player = _player_of(state, attack.target)
    options = []
    for c in choices:
        assert isinstance(c, Defend)
        if c.sustained:
            label = "sustained defence with the last die"
            detail = f"DEF {target.current(C.DEF) - 2} to the end of the combat; the die is kept"
        elif c.dice == 0:
            label, detail = "do not block", f"keep {target.defence_left} defence dice"
        else:
            label = f"block with {c.dice} defence {'die' if c.dice == 1 else 'dice'}"
            detail = f"DEF {target.current(C.DEF)}; the dice are lost whatever the result"
        options.append(Option(c, label, detail))
    prompt = (
        f"{player_name(player)}: {_name(state, attack.attacker)} attacks "
        f"{_name(state, attack.target)}; announce the defence (VII-C-4 b)."
    )
    return Question(QuestionKind.DEFEND, player, prompt, tuple(options))


def _attack_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    attack = _attack(state)
    assert attack.attack_test is not None
    attack = evolve(attack, attack_test=attack.attack_test.add(choice.face))
    return _set_fight(state, attack=attack), []


def _defence_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    attack = _attack(state)
    assert attack.defence_test is not None
    attack = evolve(attack, defence_test=attack.defence_test.add(choice.face))
    return _set_fight(state, attack=attack), []


def _wound_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    attack = _attack(state)
    return _set_fight(state, attack=evolve(attack, wound=(*attack.wound, choice.face))), []


def _attack_raise_apply(state: GameState, choice: Choice) -> Transition:
    attack = _attack(state)
    assert attack.attack_test is not None
    if isinstance(choice, Raise):
        roll = attack.attack_test.raise_sixes()
        events: list[Event] = [TestRaised(_player_of(state, attack.attacker), "attack")]
    else:
        roll, events = attack.attack_test.keep(), []
    return _set_fight(state, attack=evolve(attack, attack_test=roll)), events


def _defence_raise_apply(state: GameState, choice: Choice) -> Transition:
    attack = _attack(state)
    assert attack.defence_test is not None
    if isinstance(choice, Raise):
        roll = attack.defence_test.raise_sixes()
        events: list[Event] = [TestRaised(_player_of(state, attack.target), "defence")]
    else:
        roll, events = attack.defence_test.keep(), []
    return _set_fight(state, attack=evolve(attack, defence_test=roll)), events


def _attack_raise_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    attack = _attack(state)
    assert attack.attack_test is not None
    player = _player_of(state, attack.attacker)
    final = attack.attack_test.final
    if attack.defence is not None and attack.defence.dice:
        against = f"{_name(state, attack.target)} will defend with {attack.defence.dice} dice"
    else:
        against = "nobody defends: a final result of 1 is enough"
    prompt = (
        f"{player_name(player)}: the attack test of {_name(state, attack.attacker)} shows a 6 "
        f"(result {final}); {against}. Raise?"
    )
    return Question(QuestionKind.ATTACK_RAISE, player, prompt, _raise_options(final))


def _defence_raise_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    attack = _attack(state)
    assert attack.defence_test is not None and attack.attack_test is not None
    player = _player_of(state, attack.target)
    final = attack.defence_test.final
    prompt = (
        f"{player_name(player)}: the defence test of {_name(state, attack.target)} shows a 6 "
        f"(result {final}) against an attack of {attack.attack_test.final}. Raise?"
    )
    return Question(QuestionKind.DEFENCE_RAISE, player, prompt, _raise_options(final))


def _attack_rolled(state: GameState) -> Transition:
    attack = _attack(state)
    board = _fight(state).board
    assert attack.attack_test is not None and attack.defence is not None
    result = attack.attack_test.result()
    event = AttackRolled(
        attack.attacker,
        result.value,
        result.faces,
        result.natural,
        result.final,
        result.automatic_failure,
    )
    if result.automatic_failure:
        state, events = _finish_attack(state)
        return state, [event, *events]
    if attack.defence.dice == 0:
        return _set_fight(state, attack=evolve(attack, stage=AttackStage.WOUND)), [event]
    _, def_ = _values(board, attack)
    defence_test = DiceOnTable.start(def_, attack.defence.dice)
    attack = evolve(attack, stage=AttackStage.DEFENCE_TEST, defence_test=defence_test)
    return _set_fight(state, attack=attack), [event]


def _defence_rolled(state: GameState) -> Transition:
    attack = _attack(state)
    assert attack.attack_test is not None and attack.defence_test is not None
    assert attack.defence is not None
    attack_test, defence_test = attack.attack_test.result(), attack.defence_test.result()
    blocked = not attack_hits(attack_test, defence_test)
    lost = 0 if attack.defence.sustained else attack.defence.dice
    event = DefenceRolled(
        attack.target,
        defence_test.value,
        defence_test.faces,
        defence_test.natural,
        defence_test.final,
        blocked,
        lost,
    )
    if blocked:
        state, events = _finish_attack(state)
        return state, [event, *events]
    return _set_fight(state, attack=evolve(attack, stage=AttackStage.WOUND)), [event]


def _finish_attack(state: GameState) -> Transition:
    """Book the attack (VII-C-4 d-e): dice used and lost, the wound, a death."""
    fight = _fight(state)
    board = fight.board
    attack = _attack(state)
    assert attack.defence is not None
    attack_test = attack.attack_test.result() if attack.attack_test is not None else None
    defence_test = attack.defence_test.result() if attack.defence_test is not None else None
    wound = None
    if attack.wound:
        attacker, target = board.fighter(attack.attacker), board.fighter(attack.target)
        sustaining = attack.defence.sustained or target.sustaining
        res = evolve(target, sustaining=sustaining).current(C.RES)
        wound = read_wound(attack.wound, attacker.current(C.STR), res)
    record = read_attack(
        board, attack.attacker, attack.target, attack.defence, attack_test, defence_test, wound
    )
    board = apply_attack(board, record)
    events: list[Event] = []
    victim = state.fighter(attack.target)
    if record.wound is not None:
        after = record.health_after
        events.append(
            Wounded(
                attack.target,
                attack.attacker,
                record.wound.kept,
                record.wound.location.key,
                record.wound.result.key,
                after.wound_levels,
                strength=record.strength,
                resistance=record.resistance,
                row=record.wound.row,
                stunned=after.stunned,
            )
        )
        victim = evolve(victim, wounds=after.wound_levels, stunned=after.stunned)
    if record.killed:
        events.append(
            FighterKilled(attack.target, attack.attacker, dice_lost=record.dice_lost_on_death)
        )
    state = state.with_fighters(victim)
    return _set_fight(state, board=board, attack=None), events


def _end_fight(state: GameState) -> Transition:
    fight = _fight(state)
    progress = _progress(state)
    board = end_combat(fight.board)
    dice = tuple((f.id, f.allocation.dice, f.used, f.lost) for f in board.fighters)
    killed = tuple(f.id for f in board.fighters if not f.alive)
    # XX-F-6, XX-E-5: the side with the best initiative result pursues first.
    rank = {side: n for n, side in enumerate(board.side_order)}
    pursuers = tuple(
        f.id
        for f in sorted(board.fighters, key=lambda f: rank[f.side])
        if may_pursue(board, f.id, pursued_this_round=f.id in progress.pursued)
    )
    state = _set_fight(state, board=board, stage=FightStage.PURSUIT, pursuers=pursuers)
    # XX-E-5: a neutral killed by fighters of several players: the best initiative chooses
    # who pursues first. XX-F-6: a player's fighter killed by fighters of several other
    # players: they pursue in the order of their initiative results (docs/rulings.md).
    players = _pursuing_players(state)
    if len(players) > 1 and any(_player_of(state, f) == NEUTRAL for f in killed):
        state = evolve(state, pending=Pending(QuestionKind.PURSUE_FIRST, players[0]))
    return state, [CombatResolved(fight.combat, dice, killed)]


# --- VII-C-6: pursuit --------------------------------------------------------------------------


def _reach(state: GameState, fighter_id: str) -> int:
    # VII-C-6 a, II-A-4: the current MOV (12.5 cm stays 12.5: no wound penalty, II-B-4)
    # halved and rounded up: 7 cm, not the 6 of a MOV rounded to a whole number first
    return pursuit_distance(movement(state, state.fighter(fighter_id)))


def _drive_pursuit(state: GameState) -> Transition:
    fight = _fight(state)
    if not fight.pursuers:
        more = bool(_urgent_combats(state))
        progress = _progress(state)
        return _set(state, fight=None, turn=progress.turn + (0 if more else 1)), []
    fighter = fight.pursuers[0]
    if _engaged_by_a_pursuer(state, fighter):
        # XX-F-6, XX-E-5 (docs/rulings.md): a pursuer of his own combat engaged him first:
        # he is engaged and makes no pursuit move.
        return _set_fight(state, pursuers=fight.pursuers[1:]), []
    moves = _pursuit_moves(state)
    if len(moves) == 1 and moves[0].x is None and not moves[0].engage:
        # Nowhere to go and nobody to engage: no pursuit move is made.
        return _set_fight(state, pursuers=fight.pursuers[1:]), []
    if len(moves) == 1:
        return _pursue(state, moves[0])
    asking = evolve(state, pending=Pending(QuestionKind.PURSUE, _player_of(state, fighter)))
    # the question's state differs only by its pending question: its legal list is these
    # moves (found once, not again when the question is asked)
    asking.scratch[_PURSUIT_MOVES] = moves
    return asking, []


def _engaged_by_a_pursuer(state: GameState, fighter: str) -> bool:
    """An enemy of the same combat pursued into contact with ``fighter`` (XX-F-6)."""
    fight = _fight(state)
    pursued = set(_progress(state).pursued) & fight.combat.fighters
    if not pursued:
        return False
    graph = contact_graph(state)
    return fighter in graph and any(n in pursued for n in graph.neighbors(fighter))


_PURSUIT_MOVES = "combat.pursuit_moves"
"""``state.scratch`` key: the pursuit moves :func:`_drive_pursuit` found for the state that
asks the pursuit question."""


def _pursuit_moves(state: GameState) -> list[Pursue]:
    kept: list[Pursue] | None = state.scratch.get(_PURSUIT_MOVES)
    if kept is not None:
        return kept
    fighter = _fight(state).pursuers[0]
    moves = rules_of(state).pursuits(state, fighter, _reach(state, fighter))
    if state.fighter(fighter).passive:
        moves = _passive_pursuit(state, fighter, moves)
    return moves


def _passive_pursuit(state: GameState, fighter: str, moves: list[Pursue]) -> list[Pursue]:
    """XX-E-6 (docs/rulings.md): a passive individual engages nobody (no assault) and, unless
    routed, ends his move within 15 cm of a defender; staying in place is always left."""
    kept = []
    for move in moves:
        if move.x is None or move.y is None:
            kept.append(move)  # stays
            continue
        if move.engage:
            continue
        if not passive.leashed(state, fighter):
            kept.append(move)
            continue
        me = state.fighter(fighter)
        at = base_of(state, evolve(me, x=move.x, y=move.y, facing=move.facing or me.facing))
        if passive.near_a_defender(state, fighter, at, None):
            kept.append(move)
    return kept or [Pursue(fighter)]


def _pursue(state: GameState, move: Pursue) -> Transition:
    progress = _progress(state)
    fight = _fight(state)
    fighter = state.fighter(move.fighter)
    if move.x is not None and move.y is not None:
        facing = move.facing if move.facing is not None else fighter.facing
        # II-E-1: fighters touching the engaged enemy may be pushed slightly to make room.
        pushed = [evolve(state.fighter(i), x=x, y=y) for i, x, y in move.pushed]
        moved = evolve(fighter, x=move.x, y=move.y, facing=facing)
        state = state.with_fighters(*pushed, moved)
    # On a table the contact finder sees the new contacts; without one they are recorded.
    new = tuple(
        (move.fighter, e)
        for e in move.engage
        if not has_field(state)
        and (move.fighter, e) not in progress.engaged
        and (e, move.fighter) not in progress.engaged
    )
    state = _set(
        state,
        fight=evolve(fight, pursuers=fight.pursuers[1:]),
        pursued=(*progress.pursued, move.fighter),
        engaged=progress.engaged + new,
    )
    events: list[Event] = [
        Pursued(
            move.fighter,
            _reach(state, move.fighter),
            move.engage,
            move.label,
            move.distance,
            move.x,
            move.y,
            move.facing,
        )
    ]
    melee = pursuit_melee(contact_graph(state), move.fighter, _progress(state).fought)
    if melee is not None:  # VII-C-6 c, Note 2
        progress = _progress(state)
        state = _set(
            state,
            melees=(tuple(sorted(melee)), *progress.melees),
            splitter=fighter.player,
            urgent=(*progress.urgent, move.fighter),
        )
        events.append(MeleeFound(tuple(sorted(melee))))
    if move.x is not None and move.y is not None:
        # XX-D-1: the end of a pursuit move is the end of a move (a token may be picked up)
        state, ended = move_ended(state, move.fighter, "pursuit")
        events.extend(ended)
    return state, events


def _pursue_legal(state: GameState) -> list[Choice]:
    return list(_pursuit_moves(state))


@dataclass(frozen=True)
class PursueFirst(Choice):
    """XX-E-5: the fighters of ``player`` make their pursuit moves first."""

    kind = "pursue_first"
    player: int


def _pursuing_players(state: GameState) -> list[int]:
    pursuers = _fight(state).pursuers
    return [p for p in dict.fromkeys(_player_of(state, f) for f in pursuers) if p != NEUTRAL]


def _first_legal(state: GameState) -> list[Choice]:
    """XX-E-5: the player with the best initiative result pursues first or lets his opponent
    (the pursuers are in initiative order, so his fighters come first)."""
    return [PursueFirst(p) for p in _pursuing_players(state)]


def _first_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, PursueFirst)
    pursuers = _fight(state).pursuers
    first = tuple(f for f in pursuers if _player_of(state, f) == choice.player)
    rest = tuple(f for f in pursuers if _player_of(state, f) != choice.player)
    return _set_fight(state, pursuers=first + rest), []


def _first_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    asker = _pursuing_players(state)[0]
    options = tuple(
        Option(c, "pursue first" if c.player == asker else f"let {player_name(c.player)} first")
        for c in choices
        if isinstance(c, PursueFirst)
    )
    prompt = (
        f"{player_name(asker)}: the neutral fighter is dead; your best initiative lets you "
        "pursue first or let another player pursue first (XX-E-5)."
    )
    return Question(QuestionKind.PURSUE_FIRST, asker, prompt, options)


def _pursue_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, Pursue)
    return _pursue(state, choice)


def _pursue_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    fighter = _fight(state).pursuers[0]
    player = _player_of(state, fighter)
    options = []
    for c in choices:
        assert isinstance(c, Pursue)
        detail = (
            "engages " + ", ".join(_name(state, e) for e in c.engage) if c.engage else "no contact"
        )
        if c.distance:
            detail = f"{c.distance:g} cm; {detail}"
        options.append(Option(c, c.label, detail))
    prompt = (
        f"{player_name(player)}: {_name(state, fighter)} may pursue up to "
        f"{_reach(state, fighter)} cm (VII-C-6)."
    )
    return Question(QuestionKind.PURSUE, player, prompt, tuple(options))


def _attack_die_what(state: GameState) -> str:
    return f"attack test of {_name(state, _attack(state).attacker)}"


def _defence_die_what(state: GameState) -> str:
    return f"defence test of {_name(state, _attack(state).target)}"


def _wound_die_what(state: GameState) -> str:
    attack = _attack(state)
    return f"wound roll of {_name(state, attack.attacker)} on {_name(state, attack.target)}"


def _attacker_player(state: GameState) -> int | None:
    return _player_of(state, _attack(state).attacker)


def _target_player(state: GameState) -> int | None:
    return _player_of(state, _attack(state).target)


def contribute(rules: RulesBuilder) -> None:
    """The combat phase of chapter VII: its driver, questions and default finders."""
    rules.phase(Phase.COMBAT, drive)
    rules.pursuits(stay_in_place)
    rules.dice_bonus(no_bonus)
    for handler in (
        Handler(QuestionKind.SPLIT_MELEE, _split_legal, _split_apply, _split_describe),
        Handler(QuestionKind.NAME_FIGHTER, _name_legal, _name_apply, _name_describe),
        Handler(
            QuestionKind.CONTEST_DIE,
            _faces,
            _contest_die_apply,
            _die_describe(QuestionKind.CONTEST_DIE, _contest_die_what),
            subject=_contest_roller,
        ),
        Handler(
            QuestionKind.CONTEST_RAISE, _raise_legal, _contest_raise_apply, _contest_raise_describe
        ),
        Handler(QuestionKind.CHOOSE_COMBAT, _choose_legal, _choose_apply, _choose_describe),
        Handler(QuestionKind.ALLOCATE_DICE, _allocate_legal, _allocate_apply, _allocate_describe),
        Handler(QuestionKind.MAKE_ATTACK, _attack_legal, _attack_apply, _attack_describe),
        Handler(QuestionKind.DEFEND, _defend_legal, _defend_apply, _defend_describe),
        Handler(
            QuestionKind.ATTACK_DIE,
            _faces,
            _attack_die_apply,
            _die_describe(QuestionKind.ATTACK_DIE, _attack_die_what),
            subject=_attacker_player,
        ),
        Handler(
            QuestionKind.ATTACK_RAISE, _raise_legal, _attack_raise_apply, _attack_raise_describe
        ),
        Handler(
            QuestionKind.DEFENCE_DIE,
            _faces,
            _defence_die_apply,
            _die_describe(QuestionKind.DEFENCE_DIE, _defence_die_what),
            subject=_target_player,
        ),
        Handler(
            QuestionKind.DEFENCE_RAISE, _raise_legal, _defence_raise_apply, _defence_raise_describe
        ),
        Handler(
            QuestionKind.COMBAT_WOUND_DIE,
            _faces,
            _wound_die_apply,
            _die_describe(QuestionKind.COMBAT_WOUND_DIE, _wound_die_what),
            subject=_attacker_player,
        ),
        Handler(QuestionKind.PURSUE, _pursue_legal, _pursue_apply, _pursue_describe),
        Handler(QuestionKind.PURSUE_FIRST, _first_legal, _first_apply, _first_describe),
    ):
        rules.handler(handler)
