"""One C4 game a player's view could be: the secrets he cannot see dealt at random.

:func:`~.views.redact` deals the hidden cards back in a canonical (sorted) order;
:func:`determinize` deals them in a random one drawn from a :class:`~confrontation.dice.Roller`
(the project's seeded dice: uniform picks read from d6 faces as the draws of a shuffled deck
are, :func:`.handlers.pick`), so a search that plays on many of them averages over what the
other players may hold instead of betting on one order. What it resamples is exactly what
:func:`~.views.redact` hides from ``player`` (``# C4 Tactical Phase``, ``# C4 Drawing the
Cards``):

- another player's sequence while it is being prepared, and its order once laid out face
  down (General, Warlord, the face-down side of Military genius), his reserve card pooled with
  it (the reserve is one of the cards he may hold);
- Marauder: which of another player's cards are his reserve and the card he drew and has not
  yet revealed (dealt from those and his cards still in the deck). The deck itself keeps its
  sorted order: it has no order in the game (a card is drawn from it by a uniform die pick,
  ``c4.activation``), so a shuffled order would deal the same draws with the same chances.

Each player keeps the same cards (the same sets as in the view); only who holds which of his
own hidden cards where changes. The result depends only on ``player``'s view and the dice:
the input is redacted first, and the view of any sample is the view given
(``redact(determinize(s, p, dice), p) == redact(s, p)``).
"""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.c4.handlers import dice_needed, pick
from confrontation.c4.modes import Order, mode
from confrontation.c4.state import C4State
from confrontation.c4.views import order_hidden, redact
from confrontation.dice import Roller
from confrontation.engine.core.frozen import evolve


def index_below(k: int, dice: Roller) -> int:
    """A uniform index in ``range(k)`` read from d6 faces (rejected faces rolled again)."""
    m = dice_needed(k)
    while True:
        index = pick(k, [dice.d6() for _ in range(m)]) if m else 0
        if index is not None:
            return index


def shuffled(cards: Sequence[str], dice: Roller) -> tuple[str, ...]:
    """``cards`` (sorted first, so the order given does not matter) in a uniform random order
    (Fisher-Yates with :func:`index_below`)."""
    deck = sorted(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = index_below(i + 1, dice)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def determinize(state: C4State, player: int, dice: Roller) -> C4State:
    """A game ``player``'s view of ``state`` could be, its hidden cards dealt by ``dice``."""
    state = redact(state, player)
    game_mode = mode(state.mode)
    if game_mode.order is Order.SHARED_DECK:
        for other in range(state.players):
            if other != player:
                state = _deal_marauder(state, other, dice)
        return state
    for other in range(state.players):
        if other == player:
            continue
        hidden = order_hidden(state, other)
        tac = state.tactical
        if tac is not None and game_mode.builds_sequence and (hidden or not tac.built):
            building = list(tac.building)
            building[other] = shuffled(building[other], dice)
            state = evolve(state, tactical=evolve(tac, building=tuple(building)))
        side = state.sides[other]
        if hidden:
            reserve = (side.reserve,) if side.reserve is not None else ()
            dealt = shuffled(side.sequence + reserve, dice)
            if side.reserve is not None:
                side = evolve(side, reserve=dealt[0], sequence=dealt[1:])
            else:
                side = evolve(side, sequence=dealt)
            state = state.with_side(side)
    return state


def _deal_marauder(state: C4State, other: int, dice: Roller) -> C4State:
    """``other``'s reserve and undisclosed drawn card dealt from them and his cards in the
    deck (the deck then holds the rest of his)."""
    act = state.activation
    side = state.sides[other]
    drawn = act.drawn if act is not None and act.drawer == other else None
    if side.reserve is None and drawn is None:
        return state
    deck = act.deck if act is not None else ()
    owned = [c for c in deck if state.unit(c).owner == other]
    secret = [c for c in (side.reserve, drawn) if c is not None]
    dealt = list(shuffled(owned + secret, dice))
    reserve = dealt.pop(0) if side.reserve is not None else None
    new_drawn = dealt.pop(0) if drawn is not None else None
    rest = set(dealt)
    new_deck = tuple(sorted([c for c in deck if state.unit(c).owner != other] + list(rest)))
    state = state.with_side(evolve(side, reserve=reserve))
    if act is not None:
        held = new_drawn if drawn is not None else act.drawn  # another's drawn card stays
        state = evolve(state, activation=evolve(act, deck=new_deck, drawn=held))
    return state
