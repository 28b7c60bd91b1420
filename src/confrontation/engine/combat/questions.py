"""The answers players give during the combat phase (chapter VII).

Members of the engine's :class:`~confrontation.engine.core.questions.Choice` family (the codec
finds them by ``kind``). The raise questions reuse :class:`~.questions.Raise` and
:class:`~.questions.KeepResult`; dice are :class:`~.questions.DieFace`.
"""

from __future__ import annotations

from dataclasses import dataclass

from confrontation.engine.core.melee import Combat
from confrontation.engine.core.questions import Choice


@dataclass(frozen=True)
class NameFighter(Choice):
    """Roll the opposed test with this fighter (VII-A Discipline, VII-B Authority: the
    combat chosen is his; VII-C-2 initiative)."""

    kind = "name_fighter"
    fighter: str


@dataclass(frozen=True)
class SplitMelee(Choice):
    """Separate the melee into these combats (VII-A)."""

    kind = "split_melee"
    combats: tuple[Combat, ...]


@dataclass(frozen=True)
class ChooseCombat(Choice):
    """Resolve this combat now (VII-B, VII-C-6 Note 1)."""

    kind = "choose_combat"
    combat: Combat


@dataclass(frozen=True)
class AllocateDice(Choice):
    """Place a fighter's combat dice: ``attack`` in attack, ``defence`` in defence (VII-C-1)."""

    kind = "allocate_dice"
    fighter: str
    attack: int
    defence: int


@dataclass(frozen=True)
class MakeAttack(Choice):
    """Attack ``target`` with one of ``attacker``'s attack dice (VII-C-3, VII-C-4 a)."""

    kind = "make_attack"
    attacker: str
    target: str


@dataclass(frozen=True)
class Defend(Choice):
    """Try to block with ``dice`` defence dice (0: do not block), or a sustained defence
    with the last one (VII-C-4 b, VII-C-5)."""

    kind = "defend"
    dice: int
    sustained: bool = False


@dataclass(frozen=True)
class Pursue(Choice):
    """A pursuit move (VII-C-6): end in contact with ``engage`` (none: stay or move free);
    ``x``/``y``/``facing`` the end position when geometry places the fighter, ``distance``
    the cm his sight travels, ``pushed`` fighters moved aside to make room (id, x, y; II-E-1)."""

    kind = "pursue"
    fighter: str
    engage: tuple[str, ...] = ()
    label: str = "stay in place"
    x: float | None = None
    y: float | None = None
    facing: float | None = None
    distance: float = 0.0
    pushed: tuple[tuple[str, float, float], ...] = ()
