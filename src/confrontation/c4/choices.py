"""The answers a C4 game accepts (``engine.core.questions.Choice`` records).

Reused from the engine: ``DieFace`` (every chance step), ``PlaceCard`` (next card of a
sequence), ``Raise``/``KeepResult`` (re-roll an Authority 6 or keep it), ``ChooseFirst`` (the
first active player), ``PlayTop`` (reveal the first card of one's sequence), ``PutInReserve``
and ``PlayReserve``. Defined here: :class:`PickCard` (Barbarian), :class:`DrawCard` and
:class:`RevealDrawn` (Marauder), :class:`UnitAction` (``# C4 Activating Unit``),
:class:`DominateZone` (a scenario's CP-DOMINATE choice).
"""

from __future__ import annotations

from dataclasses import dataclass

from confrontation.engine.core.questions import (
    Choice,
    ChooseFirst,
    DieFace,
    KeepResult,
    PlaceCard,
    PlayReserve,
    PlayTop,
    PutInReserve,
    Raise,
)

__all__ = [
    "ACTIONS",
    "Choice",
    "ChooseFirst",
    "DieFace",
    "DominateZone",
    "DrawCard",
    "KeepResult",
    "PickCard",
    "PlaceCard",
    "PlayReserve",
    "PlayTop",
    "PutInReserve",
    "Raise",
    "RevealDrawn",
    "UnitAction",
]


@dataclass(frozen=True)
class PickCard(Choice):
    """Barbarian: reveal this card of one's deck and activate its unit."""

    kind = "c4_pick_card"
    card: str


@dataclass(frozen=True)
class DrawCard(Choice):
    """Marauder: draw the next card of the shared deck."""

    kind = "c4_draw_card"


@dataclass(frozen=True)
class RevealDrawn(Choice):
    """Marauder: reveal one's own drawn card and activate its unit."""

    kind = "c4_reveal_drawn"


ACTIONS = ("hold", "walk", "walk_shoot", "run", "assault")
"""``# C4 Activating Unit``: do nothing (or fight where engaged), walk, walk and/or ranged attack,
run, assault."""


@dataclass(frozen=True)
class UnitAction(Choice):
    """The activated unit's action: ``action`` one of :data:`ACTIONS`; walk and run move the
    leader towards (``x``, ``y``) cm; ``target``: the enemy unit assaulted or shot at.

    ``formation``: the formation taken at the beginning of the activation, ``after``: the one
    taken after the movement (a free unit; ``# C4 Moving Miniatures``), None: kept.
    ``order``: the player's order — the assaulting fighters' ids (``# C4 Moving a Unit >
    Assault``), the profiles whose salvos or combats come first (``# C4 Unit Ranged Attack``,
    ``# C4 Combat``); what it leaves out follows in the default order. ``several``: the
    assaulting fighters who engage several fighters at once where their bases allow.
    ``hold_fire``: profiles that do not shoot. ``shoot_first``: the salvos come before the
    walk."""

    kind = "c4_unit_action"
    unit: str
    action: str
    x: float = 0.0
    y: float = 0.0
    target: str | None = None
    formation: str | None = None
    after: str | None = None
    order: tuple[str, ...] = ()
    several: tuple[str, ...] = ()
    hold_fire: tuple[str, ...] = ()
    shoot_first: bool = False


@dataclass(frozen=True)
class DominateZone(Choice):
    """CP-DOMINATE in a C4 battle: the element the player's Commander dominates at this
    scoring, when he could dominate several."""

    kind = "c4_dominate_zone"
    zone: str
