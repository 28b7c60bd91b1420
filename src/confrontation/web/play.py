"""The playing endpoints beside the table: the automatic answers' switch, the ruler, the
line of sight, and where a click sends a moving fighter (``tools``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from confrontation.engine.core.state import GameState
from confrontation.engine.step import question
from confrontation.web.hub import Hub, WebError
from confrontation.web.params import GameId
from confrontation.web.tools import measure, safe_destination, sight

router = APIRouter(prefix="/api/games/{game_id}", tags=["play"])

SeatQuery = Annotated[
    list[str], Query(description="Seat tokens (the secret links); none: a spectator.")
]


class AutoAnswers(BaseModel):
    auto: bool = Field(
        description="True: the server answers this seat's trivial questions (one legal "
        "answer, a raise that cannot change the outcome); False: every question is asked."
    )


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _on_view(
    request: Request,
    game_id: int,
    seat: list[str],
    tool: Callable[[GameState], dict[str, Any]],
) -> dict[str, Any]:
    """``tool`` on what the seat sees of the game (a ``ValueError``: a 400 in one line)."""
    game = _hub(request).get(game_id)
    with game.lock:
        state = game.view_state(game.players_of(seat))
    try:
        return tool(state)
    except ValueError as error:
        raise WebError(400, str(error)) from None


@router.post("/auto")
def auto(
    request: Request,
    game_id: GameId,
    body: AutoAnswers,
    seat: SeatQuery = [],  # noqa: B006
) -> dict[str, Any]:
    """Switch the automatic answers of the given seats on or off."""
    game = _hub(request).get(game_id)
    players = game.players_of(seat)
    if not players:
        raise WebError(403, "a seat link is needed to change its automatic answers")
    game.set_auto(players, body.auto)
    return {"auto": {str(p): on for p, on in game.auto.items() if p in players}}


@router.get("/measure")
def ruler(
    request: Request,
    game_id: GameId,
    a: Annotated[str, Query(description="A fighter's id or a point 'x,y' in cm.")],
    b: Annotated[str, Query(description="A fighter's id or a point 'x,y' in cm.")],
    seat: SeatQuery = [],  # noqa: B006
) -> dict[str, Any]:
    """The distance in cm between two points or bases (edge to edge, I-B)."""
    return _on_view(request, game_id, seat, lambda state: measure(state, a, b))


@router.get("/sight")
def line_of_sight(
    request: Request,
    game_id: GameId,
    a: Annotated[str, Query(description="The fighter who looks.")],
    b: Annotated[str, Query(description="The fighter looked at.")],
    seat: SeatQuery = [],  # noqa: B006
) -> dict[str, Any]:
    """What fighter ``a`` sees of fighter ``b``: full, partial or none (II-D-3)."""
    return _on_view(request, game_id, seat, lambda state: sight(state, a, b))


@router.get("/destination")
def where_to(
    request: Request,
    game_id: GameId,
    x: float,
    y: float,
    seat: SeatQuery = [],  # noqa: B006
) -> dict[str, Any]:
    """A point clicked while this seat is asked where a walk, run or move under cover ends:
    the listed place it takes (``index``) with the path the engine will use (``path``,
    points in cm, ``length``), or why it is refused (``refused``)."""
    game = _hub(request).get(game_id)
    players = game.players_of(seat)
    with game.lock:
        state = game.current()
        asked = question(state)
        if asked is None or asked.player not in players or game.running:
            raise WebError(409, "this seat is asked no destination now")
        if str(asked.kind) != "destination":
            raise WebError(409, "this seat is asked no destination now")
        return {"turn": game.turn, **safe_destination(state, asked, x, y)}
