"""Tokens (XX-D "Prise de guerre", C3 "Looting") as data: the scenario file's keys and the
plain records the game state carries (``BasicScenario.loot``). The rules that move them are
:mod:`~.tokens`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field


class TokenSpec(BaseModel):
    """A token (or a stack of ``count`` tokens) the scenario places, at ``x``, ``y`` cm from
    the table's lower-left corner, on the ground (level 0, XX-D-1)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    x: float
    y: float
    count: int = Field(default=1, ge=1, le=20)


@dataclass(frozen=True)
class Token:
    """One token: on the ground at (``x``, ``y``), or carried by ``carrier`` (a fighter id;
    x and y then keep where it last lay). ``dropped``: put down after being carried
    (XX-D-3: picked up again unless the scenario says otherwise). Tokens at the same spot
    are a stack."""

    id: str
    x: float
    y: float
    carrier: str | None = None
    dropped: bool = False


@dataclass(frozen=True)
class Loot:
    """The tokens of a game (XX-D). ``carry``: the X of Carry/X, how many tokens one fighter
    may carry (XX-D-2; C3: 1 unless the scenario says otherwise); ``again``: a dropped token
    may be picked up again (XX-D-3). ``picking``: the fighter asked whether he picks up the
    tokens he ended his move on (XX-D-1); ``asked`` and ``done``: the players who have said
    which tokens they put down in this maintenance phase and the carriers who did (XX-D-3)."""

    tokens: tuple[Token, ...]
    carry: int = 1
    again: bool = True
    picking: str | None = None
    asked: tuple[int, ...] = ()
    done: tuple[str, ...] = ()


def placed_tokens(specs: list[TokenSpec]) -> tuple[Token, ...]:
    """The tokens of a scenario file, numbered ``token-1``, ``token-2``… in the file's order
    (a stack of ``count`` gives as many tokens at one spot)."""
    out: list[Token] = []
    for spec in specs:
        for _ in range(spec.count):
            out.append(Token(f"token-{len(out) + 1}", float(spec.x), float(spec.y)))
    return tuple(out)
