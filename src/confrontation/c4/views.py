"""What a player knows of a C4 game: :func:`redact` hides the other players' secrets.

Hidden from ``player`` (``# C4 Tactical Phase``, ``# C4 Drawing the Cards``):

- another player's sequence while it is being prepared (every mode that builds one: "in
  secret", "face down");
- its order once laid out face down: General; Military genius for the side not in
  ``state.face_up``; Warlord holds no order at all (a random card is drawn when revealed);
- another player's reserve card ("The card is not revealed") — except where it was the
  first card of a face-up sequence, which everybody saw (Master strategist, the face-up side
  of Military genius; ruling);
- Marauder: the card another player drew of his own and has not yet revealed or reserved,
  and his reserve card; the shared deck has no order (a random card is drawn when drawn).

A hidden card is not erased: the cards a player may hold stay the same set, dealt back in a
canonical order (sorted), so a view is a valid game state a search agent may play on
(determinization) and two states that differ only in secrets have the same view.

Sections (docs/rules-index.toml): C4-ORDERING-THE-ACTIVATION-SEQUENCE, C4-MARAUDER-MODE,
C4-ANY-OTHER-MODE.
"""

from __future__ import annotations

from confrontation.c4.modes import Faces, Order, mode
from confrontation.c4.state import C4State
from confrontation.engine.core.frozen import evolve


def order_hidden(state: C4State, owner: int) -> bool:
    """Is ``owner``'s laid-out sequence face down (its order secret to the others)?"""
    game_mode = mode(state.mode)
    if game_mode.order is not Order.CHOSEN:
        return game_mode.order is Order.SHUFFLED
    if game_mode.faces is Faces.DOWN:
        return True
    if game_mode.faces is Faces.ONE_SIDE_UP:
        return owner not in state.face_up
    return False


def redact(state: C4State, player: int) -> C4State:
    """``state`` as ``player`` sees it (see the module docstring)."""
    game_mode = mode(state.mode)
    for other in range(state.players):
        if other == player:
            continue
        if game_mode.order is Order.SHARED_DECK:
            state = _redact_marauder(state, other)
            continue
        hidden = order_hidden(state, other)
        tac = state.tactical
        if tac is not None and game_mode.builds_sequence and (hidden or not tac.built):
            building = list(tac.building)
            building[other] = tuple(sorted(building[other]))
            state = evolve(state, tactical=evolve(tac, building=tuple(building)))
        side = state.sides[other]
        if hidden:
            cards = side.sequence + ((side.reserve,) if side.reserve is not None else ())
            pool = tuple(sorted(cards))
            if side.reserve is not None:
                side = evolve(side, reserve=pool[0], sequence=pool[1:])
            else:
                side = evolve(side, sequence=pool)
            state = state.with_side(side)
    return state


def _redact_marauder(state: C4State, other: int) -> C4State:
    act = state.activation
    side = state.sides[other]
    drawn = act.drawn if act is not None and act.drawer == other else None
    if side.reserve is None and drawn is None:
        return state
    deck = act.deck if act is not None else ()
    owned = [c for c in deck if state.unit(c).owner == other]
    secret = [c for c in (side.reserve, drawn) if c is not None]
    pool = sorted(owned + secret)
    fake = pool[: len(secret)]
    rest = set(pool[len(secret) :])
    reserve = fake.pop(0) if side.reserve is not None else None
    fake_drawn = fake.pop(0) if drawn is not None else None
    new_deck = tuple(sorted([c for c in deck if state.unit(c).owner != other] + list(rest)))
    state = state.with_side(evolve(side, reserve=reserve))
    if act is not None:
        # the viewer's own drawn card stays
        held = fake_drawn if drawn is not None else act.drawn
        state = evolve(state, activation=evolve(act, deck=new_deck, drawn=held))
    return state
