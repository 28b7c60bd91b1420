"""The activation phase (``# C4 Activation Phase``): drawing, revealing or picking cards per
game mode, the reserve, activating the unit, handing the lead on, the end of the phase.

For the integrator: :func:`drive` is the phase's driver; :data:`HANDLERS` its questions
(``c4_turn``, ``c4_draw_die``, ``c4_drawn``, ``c4_unit_action``); the unit's action itself
is :func:`confrontation.c4.fight.perform` (its dice: ``c4_action_die`` chance steps). The
phase ends (``phase`` becomes ``control``) when every sequence and reserve is played — in
Marauder when the deck is empty and every reserve card has been played. A unit in rout is not
asked for an action: its activation is its rally test or its flight (``c4.morale``).

The lead (``# C4 Activating Unit``): after an activation the lead goes to the player on the
left of the active player; in Marauder to the left of the player who drew the card. A player
with nothing left to play is passed over.

Sections (docs/rules-index.toml): C4-ACTIVATION-PHASE, C4-DRAWING-THE-CARDS, C4-BARBARIAN-MODE,
C4-MARAUDER-MODE, C4-ANY-OTHER-MODE, C4-ACTIVATING-UNIT.
"""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.c4 import actions, control, fight
from confrontation.c4.battle import assassinated
from confrontation.c4.choices import (
    DieFace,
    DrawCard,
    PickCard,
    PlayReserve,
    PlayTop,
    PutInReserve,
    RevealDrawn,
    UnitAction,
)
from confrontation.c4.events import (
    ActivationEnded,
    C4PhaseStarted,
    CardDrawn,
    CardHanded,
    CardReserved,
    CardRevealed,
    UnitActed,
    UnitGone,
)
from confrontation.c4.handlers import (
    Handler,
    Transition,
    ask,
    dice_needed,
    die_describe,
    die_legal,
    pick,
)
from confrontation.c4.modes import Order, Reserve, mode
from confrontation.c4.state import Activation, C4State, Kind, Phase
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import Choice, Option, Question

FREE_DESTINATION = "destination"
"""``Question.free`` of a unit's action: a walk, run or walk-and-shoot may aim at any point
of the battlefield, not only the listed ones (``actions.free_answer``)."""


def _act(state: C4State) -> Activation:
    assert state.activation is not None
    return state.activation


def marauder(state: C4State) -> bool:
    return mode(state.mode).order is Order.SHARED_DECK


def finished(state: C4State) -> bool:
    """``# C4 Activating Unit``: every sequence revealed (Marauder: deck empty, reserves played)."""
    act = _act(state)
    if marauder(state):
        return not act.deck and act.drawn is None and all(s.reserve is None for s in state.sides)
    return all(s.done for s in state.sides)


def _has_turn(state: C4State, player: int) -> bool:
    side = state.sides[player]
    if marauder(state):
        return bool(_act(state).deck) or side.reserve is not None
    return not side.done


def _next_with_turn(state: C4State, player: int) -> int:
    """``player`` or, if he has nothing to play, the next one round the table who has."""
    for k in range(state.players):
        p = (player + k) % state.players
        if _has_turn(state, p):
            return p
    return player


def drive(state: C4State) -> Transition:
    """Move the activation phase on: the next turn, or the end of the phase."""
    act = _act(state)
    if act.unit is not None:
        return ask(state, Kind.UNIT_ACTION, state.unit(act.unit).owner), []
    if finished(state) or assassinated(state):  # c4scen: CP-ASSASSINATION-VICTORY, at once
        state = evolve(state, phase=Phase.CONTROL, activation=None)
        return state, [C4PhaseStarted(state.round, Phase.CONTROL)]
    if marauder(state):
        drawer = _next_with_turn(state, act.drawer)
        state = evolve(state, activation=evolve(act, drawer=drawer, active=drawer))
        return ask(state, Kind.TURN, drawer), []
    active = _next_with_turn(state, act.active)
    state = evolve(state, activation=evolve(act, active=active, drawer=active))
    return ask(state, Kind.TURN, active), []


def _activate(state: C4State, player: int, card: str, from_reserve: bool = False) -> Transition:
    """Reveal ``card`` and activate its unit (``# C4 Activation Phase`` step 2)."""
    side = state.sides[player]
    side = evolve(side, revealed=(*side.revealed, card))
    state = state.with_side(side)
    events: list[Event] = [CardRevealed(player, card, from_reserve)]
    act = evolve(_act(state), active=player, drawn=None)
    if not state.members(card):  # the unit was wiped out before its card came up
        events.append(UnitGone(card))
        state, ended = _end_activation(evolve(state, activation=act), None, player)
        return state, events + ended
    state = state.with_unit(evolve(state.unit(card), activated=True))
    state = evolve(state, activation=evolve(act, unit=card))
    if state.unit(card).rout:  # c4.morale (ruling): no action; its rally test, or it flees
        state, rallied = _carry_on(state, UnitAction(card, "rally"), 0, ())
        return state, events + rallied
    return state, events


def _end_activation(state: C4State, unit: str | None, player: int) -> Transition:
    """Step 3: the lead goes to the player on the left (Marauder: left of the drawer)."""
    act = _act(state)
    if marauder(state):
        nxt = state.left_of(act.drawer)
        act = evolve(act, unit=None, drawer=nxt, active=nxt)
    else:
        act = evolve(act, unit=None, active=state.left_of(act.active))
    return evolve(state, activation=act), [ActivationEnded(unit, player)]


def _pass(state: C4State, player: int) -> Transition:
    """A card put in reserve: the player passes his turn."""
    return _end_activation(state, None, player)


# --- c4_turn --------------------------------------------------------------------------------


def _turn_legal(state: C4State) -> list[Choice]:
    assert state.pending is not None and state.pending.player is not None
    p = state.pending.player
    side = state.sides[p]
    game_mode = mode(state.mode)
    out: list[Choice] = []
    if (
        game_mode.order is Order.NONE
    ):  # C4 Ordering the activation sequence > Barbarian: the card of his choice
        return [PickCard(c) for c in side.sequence]
    if game_mode.order is Order.SHARED_DECK:
        if _act(state).deck:
            out.append(DrawCard())
        if side.reserve is not None:
            out.append(PlayReserve())
        return out
    if side.sequence:
        out.append(PlayTop())
        if game_mode.reserve is Reserve.SEQUENCE and not side.reserve_used:
            out.append(PutInReserve())
    if side.reserve is not None:
        out.append(PlayReserve())
    return out


def _turn_apply(state: C4State, choice: Choice) -> Transition:
    act = _act(state)
    p = act.active
    side = state.sides[p]
    if isinstance(choice, PickCard):
        seq = tuple(c for c in side.sequence if c != choice.card)
        return _activate(state.with_side(evolve(side, sequence=seq)), p, choice.card)
    if isinstance(choice, PlayReserve):
        assert side.reserve is not None
        card = side.reserve
        return _activate(state.with_side(evolve(side, reserve=None)), p, card, True)
    if isinstance(choice, DrawCard):
        return _start_draw(state, "reveal", [CardDrawn(p)])
    if (
        mode(state.mode).order is Order.SHUFFLED
    ):  # C4 Ordering the activation sequence > Warlord: the top card is a random one
        return _start_draw(state, "reveal" if isinstance(choice, PlayTop) else "reserve", [])
    card = side.sequence[0]
    rest = side.sequence[1:]
    if isinstance(choice, PlayTop):
        return _activate(state.with_side(evolve(side, sequence=rest)), p, card)
    assert isinstance(choice, PutInReserve)
    state = state.with_side(evolve(side, sequence=rest, reserve=card, reserve_used=True))
    state, passed = _pass(state, p)
    return state, [CardReserved(p), *passed]


def _turn_describe(state: C4State, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None
    labels = {
        PlayTop: "reveal the first card of your sequence",
        PutInReserve: "put the first card in reserve and pass",
        PlayReserve: "play your reserve card",
        DrawCard: "draw the next card",
    }
    options = []
    for c in choices:
        if isinstance(c, PickCard):
            options.append(Option(c, f"reveal {c.card}"))
        else:
            options.append(Option(c, labels[type(c)]))
    return Question(Kind.TURN, state.pending.player, "Your turn to play a card", tuple(options))


# --- random draws (Marauder's deck, Warlord's sequence) ---------------------------------------


def _pool(state: C4State) -> tuple[str, ...]:
    act = _act(state)
    return act.deck if marauder(state) else state.sides[act.active].sequence


def _start_draw(state: C4State, purpose: str, events: list[Event]) -> Transition:
    state = evolve(state, activation=evolve(_act(state), draw=purpose, digits=()))
    if dice_needed(len(_pool(state))) == 0:
        return _drawn(state, 0, events)
    return ask(state, Kind.DRAW_DIE, None), events


def _draw_die_apply(state: C4State, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    act = _act(state)
    digits = (*act.digits, choice.face)
    k = len(_pool(state))
    if len(digits) < dice_needed(k):
        return ask(evolve(state, activation=evolve(act, digits=digits)), Kind.DRAW_DIE, None), []
    index = pick(k, digits)
    if index is None:  # rejected: roll again
        return ask(evolve(state, activation=evolve(act, digits=())), Kind.DRAW_DIE, None), []
    return _drawn(state, index, [])


def _drawn(state: C4State, index: int, events: list[Event]) -> Transition:
    act = _act(state)
    purpose = act.draw
    card = _pool(state)[index]
    act = evolve(act, draw=None, digits=())
    if marauder(state):
        deck = act.deck[:index] + act.deck[index + 1 :]
        state = evolve(state, activation=evolve(act, deck=deck))
        owner = state.unit(card).owner
        if owner != act.drawer:  # an enemy card: revealed and handed to its owner
            state, activated = _activate(state, owner, card)
            return state, [*events, CardHanded(act.drawer, card, owner), *activated]
        state = evolve(state, activation=evolve(_act(state), drawn=card))
        return ask(state, Kind.DRAWN, act.drawer), events
    p = act.active
    side = state.sides[p]
    seq = side.sequence[:index] + side.sequence[index + 1 :]
    state = evolve(state, activation=act)
    if purpose == "reserve":
        state = state.with_side(evolve(side, sequence=seq, reserve=card, reserve_used=True))
        state, passed = _pass(state, p)
        return state, [*events, CardReserved(p), *passed]
    state, activated = _activate(state.with_side(evolve(side, sequence=seq)), p, card)
    return state, [*events, *activated]


def _draw_subject(state: C4State) -> int | None:
    act = _act(state)
    return act.drawer


# --- c4_drawn (Marauder: one's own card) --------------------------------------------------------


def _drawn_legal(state: C4State) -> list[Choice]:
    assert state.pending is not None and state.pending.player is not None
    side = state.sides[state.pending.player]
    out: list[Choice] = [RevealDrawn()]
    if not side.reserve_used:  # once per round and per player
        out.append(PutInReserve())
    return out


def _drawn_apply(state: C4State, choice: Choice) -> Transition:
    act = _act(state)
    card = act.drawn
    assert card is not None
    p = act.drawer
    if isinstance(choice, RevealDrawn):
        return _activate(state, p, card)
    side = state.sides[p]
    state = state.with_side(evolve(side, reserve=card, reserve_used=True))
    state = evolve(state, activation=evolve(act, drawn=None))
    state, passed = _pass(state, p)
    return state, [CardReserved(p), *passed]


def _drawn_describe(state: C4State, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None
    card = _act(state).drawn
    labels = {RevealDrawn: f"reveal {card} and activate it", PutInReserve: "put it in reserve"}
    return Question(
        Kind.DRAWN,
        state.pending.player,
        f"You drew your own card {card}",
        tuple(Option(c, labels[type(c)]) for c in choices),
    )


# --- c4_unit_action ---------------------------------------------------------------------------


def _unit_legal(state: C4State) -> list[Choice]:
    unit = _act(state).unit
    assert unit is not None
    return list(actions.options(state, unit))


def _unit_apply(state: C4State, choice: Choice) -> Transition:
    assert isinstance(choice, UnitAction)
    events: list[Event] = [UnitActed(choice.unit, choice.action, choice.target)]
    state, done = _carry_on(state, choice, 0, ())
    return state, events + done


def _carry_on(state: C4State, act: UnitAction, start: int, faces: tuple[int, ...]) -> Transition:
    """Run the action from stage ``start``; a salvo or combat that needs one more die asks
    for it (a chance step), else the activation ends."""
    owner = state.unit(act.unit).owner
    state, events, waiting = fight.perform(state, act, start, faces)
    if waiting is not None:
        act_now = evolve(_act(state), doing=act, stage=waiting, faces=faces)
        return ask(evolve(state, activation=act_now), Kind.ACTION_DIE, None), events
    state = evolve(state, activation=evolve(_act(state), doing=None, stage=0, faces=()))
    state, ended = _end_activation(state, act.unit, owner)
    return state, events + ended


def _action_die_apply(state: C4State, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    act = _act(state)
    assert act.doing is not None
    return _carry_on(state, act.doing, act.stage, (*act.faces, choice.face))


def _action_die_subject(state: C4State) -> int | None:
    doing = _act(state).doing
    return None if doing is None else state.unit(doing.unit).owner


def _unit_free(state: C4State, choice: Choice) -> str | None:
    unit = _act(state).unit
    if not isinstance(choice, UnitAction) or choice.unit != unit:
        return f"{choice!r} is not an action of the activated unit {unit}"
    return actions.free_answer(state, choice)


def _unit_describe(state: C4State, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None
    options = []
    for c in choices:
        assert isinstance(c, UnitAction)
        if c.action in ("walk", "run"):
            label = f"{c.action} towards ({c.x:.1f}, {c.y:.1f})"
        elif c.target is not None:
            label = f"{c.action.replace('_', ' and ')} {c.target}"
        else:
            label = "do nothing" if not state.unit(c.unit).engaged else "stay and fight"
        options.append(Option(c, label))
    return Question(
        Kind.UNIT_ACTION,
        state.pending.player,
        f"Unit {_act(state).unit} is activated: its action?",
        tuple(options),
        free=FREE_DESTINATION,
    )


HANDLERS: dict[str, Handler] = {
    Kind.TURN: Handler(Kind.TURN, _turn_legal, _turn_apply, _turn_describe),
    Kind.DRAW_DIE: Handler(
        Kind.DRAW_DIE, die_legal, _draw_die_apply, die_describe("Card draw"), _draw_subject
    ),
    Kind.DRAWN: Handler(Kind.DRAWN, _drawn_legal, _drawn_apply, _drawn_describe),
    Kind.UNIT_ACTION: Handler(
        Kind.UNIT_ACTION, _unit_legal, _unit_apply, _unit_describe, free=_unit_free
    ),
    Kind.ACTION_DIE: Handler(
        Kind.ACTION_DIE,
        die_legal,
        _action_die_apply,
        die_describe("A die of a salvo or a combat"),
        _action_die_subject,
    ),
    **control.HANDLERS,  # the control phase's questions (Incursion's flag die, CP-DOMINATE)
}
