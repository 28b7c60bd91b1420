"""What a player knows: the state with the other players' secrets hidden.

The activation sequences are built face down (IV-A-1) and the reserve card lies face down
(IV-B-1). :func:`redact` keeps which cards each other player still holds but not their order
nor which one is in reserve: a search agent fills them in again (determinization).
"""

from __future__ import annotations

from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.state import GameState


def redact(state: GameState, player: int) -> GameState:
    """``state`` as ``player`` sees it: every other player's deck order and reserve hidden.

    The view keeps the state's battlefield (``scratch["field"]``: the fighters and the
    battleground, which the view does not hide, are the same), so the agent does not look it
    up again."""
    sides = list(state.sides)
    strategic = state.strategic
    building = list(strategic.building) if strategic is not None else []
    for other in state.enemies(player):
        side = state.sides[other]
        pool = sorted(side.deck + ((side.reserve,) if side.reserve is not None else ()))
        if side.reserve is not None:
            hidden = evolve(side, reserve=pool[0], deck=tuple(pool[1:]))
        else:
            hidden = evolve(side, deck=tuple(pool))
        sides[hidden.player] = hidden
        if strategic is not None:
            building[other] = tuple(sorted(building[other]))
    if strategic is None:  # one copy of the state, not one per player hidden
        view = evolve(state, sides=tuple(sides))
    else:
        hand = evolve(strategic, building=tuple(building))
        view = evolve(state, sides=tuple(sides), strategic=hand)
    scratch = state.__dict__.get("scratch")
    if scratch is not None and "field" in scratch:
        view.scratch["field"] = scratch["field"]
    return view
