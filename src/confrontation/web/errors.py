"""The web server's refusals: :class:`WebError` (an HTTP status and one line saying why)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class WebError(Exception):
    """A request the server refuses, with its HTTP status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def refuse_answer(
    game: str,
    *,
    over: bool,
    error: str | None,
    asked: AskedLike | None,
    serving: bool,
    players: frozenset[int],
    turn: int | None,
    now: int,
    index: int,
) -> None:
    """The refusals both hosted games (Confédé and C4) give a person's answer ``index`` to
    the pending question ``asked`` of ``game``, checked in this order; nothing if it stands."""
    if over:
        raise WebError(409, f"game {game} is over")
    if error is not None:
        raise WebError(409, f"game {game} stopped: {error}")
    if asked is None or asked.player is None or serving:
        raise WebError(409, "no question for a person is pending: the server is playing")
    if asked.player not in players:
        raise WebError(403, f"the pending question is Player {asked.player + 1}'s, not this seat's")
    if turn is not None and turn != now:
        raise WebError(409, f"stale answer: it was given at turn {turn}, the game is at {now}")
    if not 0 <= index < len(asked.options):
        raise WebError(400, f"no option {index}: the question has {len(asked.options)} options")


class AskedLike(Protocol):
    """What :func:`refuse_answer` reads of a question."""

    @property
    def player(self) -> int | None: ...

    @property
    def options(self) -> Sequence[object]: ...
