"""The playing endpoints beside the table: the automatic answers' switch, the ruler, the
line of sight, where a click sends a moving fighter or deploys one (``tools``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from confrontation.engine.core.questions import FREE_FACING, Place, Question
from confrontation.engine.core.state import GameState
from confrontation.engine.step import question, refusal
from confrontation.web.hub import Hub, LiveGame, WebError
from confrontation.web.params import GameId
from confrontation.web.tools import deployment, measure, safe_destination, sight, turned_place

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


def _confede(request: Request, game_id: int) -> LiveGame:
    """A Confédé game (a C4 game has no ruler, line of sight or table clicks: a 409)."""
    return _hub(request).confede(game_id)


def _seat_asked(game: LiveGame, seat: list[str], nothing: str) -> tuple[GameState, Question]:
    """The state and the question pending for this seat (``game.lock`` held), else a 409
    saying ``nothing``: another seat's question, the server playing, or no question."""
    state = game.current()
    asked = question(state)
    if asked is None or asked.player not in game.players_of(seat) or game.running:
        raise WebError(409, nothing)
    return state, asked


def _on_view(
    request: Request,
    game_id: int,
    seat: list[str],
    tool: Callable[[GameState], dict[str, Any]],
) -> dict[str, Any]:
    """``tool`` on what the seat sees of the game (a ``ValueError``: a 400 in one line)."""
    game = _confede(request, game_id)
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
    game = _confede(request, game_id)
    with game.lock:
        state, asked = _seat_asked(game, seat, "this seat is asked no destination now")
        if str(asked.kind) != "destination":
            raise WebError(409, "this seat is asked no destination now")
        return {"turn": game.turn, **safe_destination(state, asked, x, y)}


@router.get("/deployment")
def where_deployed(
    request: Request,
    game_id: GameId,
    x: float,
    y: float,
    seat: SeatQuery = [],  # noqa: B006
) -> dict[str, Any]:
    """A point clicked while this seat deploys a fighter (III-B-2): the listed place it takes
    (``index``), or why the point is refused (``refused``: outside his area, III-A-1; on a
    base or scenery; past a contact limit, II-E-3) with the ``nearest`` place."""
    game = _confede(request, game_id)
    with game.lock:
        state, asked = _seat_asked(game, seat, "this seat is deploying no fighter now")
        if str(asked.kind) != "deploy":
            raise WebError(409, "this seat is deploying no fighter now")
        return {"turn": game.turn, **deployment(state, asked, x, y)}


@router.get("/facing")
def facing_check(
    request: Request,
    game_id: GameId,
    option: Annotated[int, Query(description="The index of the place chosen.")],
    facing: Annotated[float, Query(description="Degrees (0: along the x axis, anticlockwise).")],
    seat: SeatQuery = [],  # noqa: B006
) -> dict[str, Any]:
    """Whether the place ``option`` of this seat's pending question may be turned to
    ``facing`` (V-B-1, V-B-2: any facing at the end of a walk, run or move under cover;
    III-B-2: a fighter deployed; the turned base standing legally): ``refused`` is None, or
    the engine's reason (``engine.step.refusal``). Nothing is answered."""
    game = _confede(request, game_id)
    with game.lock:
        state, asked = _seat_asked(game, seat, "this seat is asked no facing now")
        if asked.free != FREE_FACING:
            raise WebError(409, "this question takes no facing")
        if not 0 <= option < len(asked.options):
            raise WebError(400, f"no option {option}: the question has {len(asked.options)}")
        place = asked.options[option].choice
        if not isinstance(place, Place):
            raise WebError(400, f"option {option} is no place")
        if not (math.isfinite(facing) and 0 <= facing < 360):
            return {"facing": facing, "refused": f"a facing is 0 to 360 degrees, not {facing}"}
        return {
            "facing": facing,
            "refused": refusal(state, turned_place(state, asked, place, facing)),
        }
