"""What a player knows: the state with the other players' secrets hidden.

The activation sequences are built face down (IV-A-1) and the reserve card lies face down
(IV-B-1). :func:`redact` keeps which cards each other player still holds but not their order
nor which one is in reserve: a search agent fills them in again (determinization).
"""

from __future__ import annotations

from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.state import GameState


def redact(state: GameState, player: int) -> GameState:
    """``state`` as ``player`` sees it: every other player's deck order and reserve hidden."""
    for other in state.enemies(player):
        side = state.sides[other]
        pool = sorted(side.deck + ((side.reserve,) if side.reserve is not None else ()))
        if side.reserve is not None:
            hidden = evolve(side, reserve=pool[0], deck=tuple(pool[1:]))
        else:
            hidden = evolve(side, deck=tuple(pool))
        state = state.with_side(hidden)
        if state.strategic is not None:
            building = list(state.strategic.building)
            building[other] = tuple(sorted(building[other]))
            state = evolve(state, strategic=evolve(state.strategic, building=tuple(building)))
    return state
