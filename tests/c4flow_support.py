"""Small C4 companies and agents for the tests of the C4 flow (tests/c4/)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from confrontation.c4.state import C4State, Fighter, Unit, new_game
from confrontation.engine.core.events import Event
from confrontation.engine.core.questions import Choice, Question


def company(
    player: int,
    units: int = 2,
    size: int = 3,
    *,
    y: float = 20.0,
    authority: int | None = 3,
    strategist: bool = False,
    mov: float = 10.0,
) -> tuple[list[Fighter], list[Unit]]:
    """``units`` units of ``size`` fighters in a row at height ``y``; the first unit is led by
    an Incarnate with ``authority`` (None: no Incarnate at all)."""
    fighters: list[Fighter] = []
    out: list[Unit] = []
    for u in range(units):
        uid = f"p{player + 1}u{u + 1}"
        ids = []
        for k in range(size):
            fid = f"{uid}f{k + 1}"
            incarnate = u == 0 and k == 0 and authority is not None
            fighters.append(
                Fighter(
                    fid,
                    uid,
                    "hero" if incarnate else "trooper",
                    x=15.0 + 30.0 * u + 3.0 * k,
                    y=y,
                    radius=1.25,
                    health=2 if incarnate else 1,
                    max_health=2 if incarnate else 1,
                    kind="incarnate" if incarnate else "standard",
                    mov=mov,
                    authority=authority if incarnate else None,
                    abilities=("strategist",) if incarnate and strategist else (),
                    ranged=u == 1,
                )
            )
            ids.append(fid)
        out.append(Unit(uid, player, uid, "infantry", tuple(ids), ids[0]))
    return fighters, out


def game(mode: str = "marauder", *, units: int = 2, seed: int = 0, **kw: object) -> C4State:
    """A two-player game: player 1 at y=20, player 2 at y=100."""
    f1, u1 = company(0, units, y=20.0)
    f2, u2 = company(1, units, y=100.0)
    return new_game(tuple(f1 + f2), tuple(u1 + u2), mode=mode, seed=seed, **kw)  # type: ignore[arg-type]


class RandomAgent:
    """Answers with a seeded random legal choice."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        return self.rng.choice(list(legal))


class FirstAgent:
    """Always the first legal choice."""

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        return legal[0]


def feed(state: C4State, *answers: Choice | int) -> tuple[C4State, list[Event]]:
    """Answer the pending questions in turn: an int is a die face, a Choice a player's answer."""
    from confrontation.c4.step import step
    from confrontation.engine.core.questions import DieFace

    events: list[Event] = []
    for answer in answers:
        choice = DieFace(answer) if isinstance(answer, int) else answer
        state, happened = step(state, choice)
        events += happened
    return state, events


def kind(state: C4State) -> str | None:
    """The pending question's kind."""
    return None if state.pending is None else str(state.pending.kind)
