"""What a player knows: the state with the other players' secrets hidden.

The activation sequences are built face down (IV-A-1) and the reserve card lies face down
(IV-B-1). :func:`redact` keeps which cards each other player still holds but not their order
nor which one is in reserve: a search agent fills them in again (determinization).
"""

from __future__ import annotations

from typing import Any

from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.state import GameState, Side, StrategicProgress


def redact(state: GameState, player: int) -> GameState:
    """``state`` as ``player`` sees it: every other player's deck order and reserve hidden.

    One copy of the state; its hidden sides (and hands being built) are kept per sides and
    strategic records (:func:`_hidden`: most steps change neither, so a view is one
    ``evolve``). The view keeps the state's battlefield (``evolve`` carries it over: the
    fighters and the battleground, which the view does not hide, are the same objects)."""
    sides, strategic = _hidden(state.sides, state.strategic, player)
    if strategic is state.strategic:
        return evolve(state, sides=sides)
    return evolve(state, sides=sides, strategic=strategic)


_HIDDEN: dict[tuple[int, int, int], tuple[Any, Any, tuple[Side, ...], Any]] = {}
"""(id of the sides, id of the strategic record, player) → those two records (kept so that
their ids are not reused while the entry lives) and what ``player`` sees of them."""
_HIDDEN_SIZE = 1024


def _hidden(
    sides: tuple[Side, ...], strategic: StrategicProgress | None, player: int
) -> tuple[tuple[Side, ...], StrategicProgress | None]:
    """The sides and the strategic record as ``player`` sees them (kept per records)."""
    key = (id(sides), id(strategic), player)
    found = _HIDDEN.get(key)
    if found is not None and found[0] is sides and found[1] is strategic:
        return found[2], found[3]
    made = hide(sides, strategic, player)
    if len(_HIDDEN) >= _HIDDEN_SIZE:
        _HIDDEN.clear()
    _HIDDEN[key] = (sides, strategic, made[0], made[1])
    return made


def hide(
    sides: tuple[Side, ...], strategic: StrategicProgress | None, player: int
) -> tuple[tuple[Side, ...], StrategicProgress | None]:
    """Every other player's deck order and reserve hidden (the cards he holds sorted, the
    first in reserve if he has one); the hands being built sorted (IV-A-1, IV-B-1)."""
    hidden_sides = list(sides)
    building = list(strategic.building) if strategic is not None else []
    for other in range(len(sides)):
        if other == player:
            continue
        side = sides[other]
        pool = sorted(side.deck + ((side.reserve,) if side.reserve is not None else ()))
        if side.reserve is not None:
            hidden = evolve(side, reserve=pool[0], deck=tuple(pool[1:]))
        else:
            hidden = evolve(side, deck=tuple(pool))
        hidden_sides[hidden.player] = hidden
        if strategic is not None:
            building[other] = tuple(sorted(building[other]))
    if strategic is None:
        return tuple(hidden_sides), None
    return tuple(hidden_sides), evolve(strategic, building=tuple(building))
