"""Victory conditions and bonuses of a chapter-20 scenario (XX-A-4, XX-A-5; C3 "Victory
Conditions", C3-VICTORY-CONDITIONS) as data. The special rules of XX-B (Commander, counters,
summoned fighters) and the mechanics' own kinds plug in here.

A scenario whose ``goal`` is ``conditions`` lists its victory conditions (``[[conditions]]``)
and its bonuses (``[[bonus]]``). Each names a *kind*: the rule that says whether a player
fulfils it. Kinds live in the rules value, in the extension tables ``condition`` and
``bonus`` (``RulesBuilder.extension``): a scenario module contributes its kinds, a user's
plug-in derives a ruleset with ``Ruleset.with_extension``, and ``c3`` may replace one.

When a condition is checked (``when``):

- ``end``: when the game ends;
- ``round``: at the end of every round's maintenance phase ("à remplir en cours de partie",
  XX-A-4); once met it stays met (``BasicScenario.met``) — docs/rulings.md "XX-A-4".

A condition scores its ``vp`` to every player it concerns (``players``, empty: all) who
fulfils it; a bonus adds its ``ap`` to the goal-average of each player who fulfils it when
the game ends (XX-A-5; the total is capped by the scoring rules).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from shapely.geometry.base import BaseGeometry

from confrontation.engine.core.state import GameState

When = Literal["end", "round"]

CONDITION = "condition"
"""The extension table of the condition kinds."""
BONUS = "bonus"
"""The extension table of the bonus kinds."""


@dataclass(frozen=True)
class Condition:
    """One victory condition in play (plain data, part of the scenario record).

    ``players``: the engine players (0-based) it concerns, empty: every player; ``params``:
    its kind's parameters as JSON text (read with :func:`params_of`)."""

    id: str
    kind: str
    text: str = ""
    vp: int = 1
    when: str = "end"
    players: tuple[int, ...] = ()
    params: str = "{}"

    def concerns(self, player: int) -> bool:
        """The condition is one ``player`` may fulfil."""
        return not self.players or player in self.players


@dataclass(frozen=True)
class Bonus:
    """A bonus in play (XX-A-5): ``ap`` added to the goal-average of whoever fulfils it."""

    id: str
    kind: str
    text: str = ""
    ap: int = 0
    players: tuple[int, ...] = ()
    params: str = "{}"

    def concerns(self, player: int) -> bool:
        """The bonus is one ``player`` may claim."""
        return not self.players or player in self.players


Check = Callable[[GameState, Any, int, BaseModel], bool]
"""``check(state, condition_or_bonus, player, params)``: does ``player`` fulfil it now?"""


class NoParams(BaseModel):
    """A kind without parameters."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


Aim = Callable[[GameState, Any, int, BaseModel], Sequence[BaseGeometry]]
"""``aim(state, item, player, params)``: where ``player``'s fighters should stand to fulfil it
(the computer players walk there, docs/ai.md)."""

Prey = Callable[[GameState, Any, int, BaseModel], Sequence[str]]
"""``prey(state, item, player, params)``: the fighters whose death fulfils it for ``player``
(worth more to the computer players, as an Execution target is); the same signature for
``spare``: the fighters ``player`` must keep alive to fulfil it (a capture target, XX-C-4),
and for ``wreck``: the elements of scenery (by name) whose destruction fulfils it (C3)."""


@dataclass(frozen=True)
class ConditionKind:
    """A rule that checks conditions (or bonuses) of one kind: ``section`` cites the rule,
    ``params`` validates the keys a scenario file gives besides the common ones, ``check``
    answers for one player; ``aim``, ``prey``, ``spare`` and ``wreck`` (optional) tell the
    computer players what it asks of them; ``commander``: it reads the players' Commanders, so a
    scenario using it designates them (XX-B-1)."""

    name: str
    section: str
    check: Check
    params: type[BaseModel] = NoParams
    summary: str = ""
    aim: Aim | None = None
    prey: Prey | None = None
    spare: Prey | None = None
    wreck: Prey | None = None
    commander: bool = False


@lru_cache(maxsize=1024)
def _decoded(kind: type[BaseModel], text: str) -> BaseModel:
    return kind.model_validate(json.loads(text))


def params_of(kind: ConditionKind, item: Condition | Bonus) -> BaseModel:
    """The parameters of ``item`` as its kind's model (cached)."""
    return _decoded(kind.params, item.params)


def validate_params(kind: ConditionKind, raw: Mapping[str, Any]) -> str:
    """``raw`` checked against ``kind``'s parameters: their JSON text, or a ``ValueError``
    naming the first bad key in one line."""
    try:
        model = kind.params.model_validate(dict(raw))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or kind.name
        raise ValueError(f"{where}: {first['msg']} (condition kind {kind.name!r})") from None
    return json.dumps(model.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))


# --- the file's sections ---------------------------------------------------------------------


class ConditionSpec(BaseModel):
    """A ``[[conditions]]`` entry as written: the common keys; any other key is a parameter
    of its ``kind`` (checked against the kind when the scenario is loaded)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True, allow_inf_nan=False)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    kind: str = Field(min_length=1)
    text: str = ""
    vp: int = Field(default=1, ge=0)
    when: When = "end"
    players: list[int] = Field(default_factory=list)

    def extras(self) -> dict[str, Any]:
        """The kind's parameters as written."""
        return dict(self.model_extra or {})


class BonusSpec(BaseModel):
    """A ``[[bonus]]`` entry as written (XX-A-5): the common keys and the kind's parameters."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True, allow_inf_nan=False)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    kind: str = Field(min_length=1)
    text: str = ""
    ap: int = Field(ge=0)
    players: list[int] = Field(default_factory=list)

    def extras(self) -> dict[str, Any]:
        """The kind's parameters as written."""
        return dict(self.model_extra or {})
