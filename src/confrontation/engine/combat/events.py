"""Events of the combat phase (IV-C, chapter VII).

They join the engine's :class:`~confrontation.engine.core.events.Event` family (the codec finds a
member by its ``kind``), so a record holding them reads back once this module is imported —
which the combat phase, imported by ``engine.step``, does. Wounds and deaths are the engine's
shared :class:`~.events.Wounded` and :class:`~.events.FighterKilled` (re-exported here).
Each carries the numbers the book quotes in its worked example: the faces, current values
and final results of every test.
"""

from __future__ import annotations

from dataclasses import dataclass

from confrontation.engine.core.events import Event
from confrontation.engine.core.events import FighterKilled as FighterKilled
from confrontation.engine.core.events import Wounded as Wounded
from confrontation.engine.core.melee import Combat


@dataclass(frozen=True)
class MeleeFound(Event):
    """VII-A: a melee, an unbroken chain of enemies in contact."""

    kind = "melee_found"
    fighters: tuple[str, ...]


@dataclass(frozen=True)
class ContestFighterNamed(Event):
    """A player names the fighter who rolls an opposed test (VII-A, VII-B, VII-C-2) with the
    value he tests (DIS, or INI + X for the initiative)."""

    kind = "contest_fighter_named"
    purpose: str
    player: int
    fighter: str
    value: int


@dataclass(frozen=True)
class ContestTied(Event):
    """The opposed test is tied — equal results, or failures (≤ 0) that count alike: the tied
    sides roll again (II-A-3, II-A-4, CLARIFICATIONS §9)."""

    kind = "contest_tied"
    purpose: str
    finals: tuple[int, ...]


@dataclass(frozen=True)
class SplitRolled(Event):
    """VII-A: the Discipline opposition is decided; ``winner`` separates the melee."""

    kind = "split_rolled"
    fighters: tuple[str, ...]
    finals: tuple[int, ...]
    winner: int


@dataclass(frozen=True)
class CombatSplit(Event):
    """VII-A: a melee is separated into combats; ``by`` is the player who chose (None: it
    could be separated one way only)."""

    kind = "combat_split"
    melee: tuple[str, ...]
    combats: tuple[Combat, ...]
    by: int | None


@dataclass(frozen=True)
class AuthorityRolled(Event):
    """VII-B: the Authority roll; ``winner`` has the first turn to speak."""

    kind = "authority_rolled"
    fighters: tuple[str, ...]
    finals: tuple[int, ...]
    winner: int


@dataclass(frozen=True)
class CombatTurnsSet(Event):
    """XX-F-5: with three players or more no Authority roll is made: the players of the
    combats choose them in turn in the order of their Tactics results, ``order``."""

    kind = "combat_turns_set"
    order: tuple[int, ...]


@dataclass(frozen=True)
class CombatChosen(Event):
    """VII-B: the speaking player designates the combat resolved now; ``pursuit``: a combat
    caused by a pursuit move, resolved within the same turn (VII-C-6 c)."""

    kind = "combat_chosen"
    player: int
    combat: Combat
    turn: int
    pursuit: bool = False


@dataclass(frozen=True)
class DiceAllocated(Event):
    """VII-C-1: a fighter's combat dice, placed in attack and in defence."""

    kind = "dice_allocated"
    fighter: str
    dice: int
    attack: int
    defence: int


@dataclass(frozen=True)
class InitiativeRolled(Event):
    """VII-C-2: the initiative test; ``values`` are INI + X, ``order`` the players in the
    order they attack in every weapon combat."""

    kind = "initiative_rolled"
    fighters: tuple[str, ...]
    values: tuple[int, ...]
    naturals: tuple[int, ...]
    finals: tuple[int, ...]
    order: tuple[int, ...]


@dataclass(frozen=True)
class WeaponCombatStarted(Event):
    """VII-C-3: a new weapon combat of the combat begins."""

    kind = "weapon_combat_started"
    number: int


@dataclass(frozen=True)
class AttackDeclared(Event):
    """VII-C-4 a: the attacker uses one attack die on ``target``."""

    kind = "attack_declared"
    weapon_combat: int
    attacker: str
    target: str


@dataclass(frozen=True)
class DefenceAnnounced(Event):
    """VII-C-4 b: the target tries to block with ``dice`` defence dice (0: no block)."""

    kind = "defence_announced"
    fighter: str
    dice: int


@dataclass(frozen=True)
class SustainedDefence(Event):
    """VII-C-5: the target defends with his last defence die, sustained (DEF-2, the die is
    kept and must defend again against every later attack of the combat)."""

    kind = "sustained_defence"
    fighter: str
    defence: int


@dataclass(frozen=True)
class AttackRolled(Event):
    """VII-C-4 c: the attack test (``faces`` a die and its raises); ``rolled`` False when it
    could not fail and nothing opposed it: the attacker goes straight to the wound roll."""

    kind = "attack_rolled"
    attacker: str
    attack: int
    faces: tuple[int, ...]
    natural: int
    final: int
    automatic_failure: bool
    rolled: bool = True


@dataclass(frozen=True)
class DefenceRolled(Event):
    """VII-C-4 d: the defence test against the attack's final result; ``lost`` defence dice."""

    kind = "defence_rolled"
    fighter: str
    defence: int
    faces: tuple[int, ...]
    natural: int
    final: int
    blocked: bool
    lost: int


@dataclass(frozen=True)
class CombatResolved(Event):
    """VII-C-3: the combat is over. ``dice`` per fighter: (id, allocated, used, lost)."""

    kind = "combat_resolved"
    combat: Combat
    dice: tuple[tuple[str, int, int, int], ...]
    killed: tuple[str, ...]


@dataclass(frozen=True)
class Pursued(Event):
    """VII-C-6: a pursuit move of at most ``reach`` cm (staying in place is a move of 0 cm,
    docs/rulings.md); ``engaged`` the enemies he is in contact with at its end; ``distance``
    the cm he moved (``x``/``y``/``facing``: where he ends, when a table places him)."""

    kind = "pursued"
    fighter: str
    reach: int
    engaged: tuple[str, ...]
    label: str
    distance: float = 0.0
    x: float | None = None
    y: float | None = None
    facing: float | None = None
