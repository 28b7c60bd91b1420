"""Movement actions (V-A, V-B, V-D) as data, and the arithmetic around them.

The summary table of V-D (with the conditions of V-B-1..4) lives in
``confrontation/data/movement.toml``; :func:`load_movement_table` reads it (a user may pass
their own file). The functions here are pure: the engine asks them what a fighter may do, how
far he may go, and whether the place where a move ends is legal. Geometry (paths, contact,
sight) is the caller's business; this module only sees its answers (distances, booleans).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TypeVar

from confrontation.rules.characteristics import Characteristic

__all__ = [
    "ActionKind",
    "ContactRule",
    "MoveSituation",
    "MovementAction",
    "MovementTable",
    "MovementTableError",
    "ShootingAfter",
    "activation_problem",
    "allowed_actions",
    "can_cross_landform",
    "default_movement_table",
    "end_position_legal",
    "load_movement_table",
    "may_rotate",
    "may_take_cover_as_reaction",
    "movement_potential",
    "passable_friends",
]


class ContactRule(Enum):
    """V-D "Contact with the enemy after moving"."""

    FORBIDDEN = "forbidden"
    REQUIRED = "required"


class ActionKind(Enum):
    """Cumulative actions combine in one activation; an exclusive one is the only action."""

    CUMULATIVE = "cumulative"
    EXCLUSIVE = "exclusive"


class ShootingAfter(Enum):
    """Which shots the action allows in the same activation (V-B-1, VI-A, VI-B-3)."""

    ANY = "any"
    NONE = "none"
    ASSAULT = "assault"


class MovementTableError(ValueError):
    """A movement data file is unreadable or malformed; the message names file and key."""


@dataclass(frozen=True, slots=True)
class MovementAction:
    """One row of V-D, with the conditions of its V-B section."""

    id: str
    name: str
    section: str
    potential: int
    """Movement potential = MOV x ``potential`` cm."""
    potential_disengaged: int | None
    """Potential after a successful disengagement (V-C); None when not allowed after one."""
    contact: ContactRule
    after_disengagement: bool
    kind: ActionKind
    free_at_activation: bool
    sight_at_activation: bool
    once_per_round: bool
    shooting: ShootingAfter
    target_bonus: int
    """Target/+X gained until the fighter's next activation (V-B-4)."""

    @property
    def is_assault(self) -> bool:
        """A charge or an engagement (V-B-3): it must end in contact."""
        return self.contact is ContactRule.REQUIRED


@dataclass(frozen=True, slots=True)
class MovementTable:
    """The movement actions by id, and the charge penalty (V-B-3)."""

    actions: Mapping[str, MovementAction]
    charge_malus: int
    charge_penalised: frozenset[Characteristic]
    source: str = "<built-in>"

    def __getitem__(self, action_id: str) -> MovementAction:
        try:
            return self.actions[action_id]
        except KeyError:
            known = ", ".join(self.actions)
            raise KeyError(f"unknown movement action {action_id!r} (known: {known})") from None

    def __iter__(self) -> Iterator[MovementAction]:
        return iter(self.actions.values())


_ACTION_KEYS = {
    "id",
    "name",
    "section",
    "potential",
    "potential_disengaged",
    "contact",
    "after_disengagement",
    "kind",
    "free_at_activation",
    "sight_at_activation",
    "once_per_round",
    "shooting",
    "target_bonus",
}


def _get(row: Mapping[str, object], key: str, kind: type, where: str) -> object:
    value = row.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MovementTableError(f"{where}: key {key!r}: expected {kind.__name__}")
    return value


def _parse_action(row: object, where: str) -> MovementAction:
    if not isinstance(row, dict):
        raise MovementTableError(f"{where}: expected an [[action]] table")
    extra = sorted(set(row) - _ACTION_KEYS)
    if extra:
        raise MovementTableError(f"{where}: unknown key {extra[0]!r}")
    ident = str(_get(row, "id", str, where))
    where = f"{where} ({ident})"
    potential = _get(row, "potential", int, where)
    assert isinstance(potential, int)
    if potential < 0:
        raise MovementTableError(f"{where}: key 'potential': must be >= 0")
    after = bool(_get(row, "after_disengagement", bool, where))
    disengaged: int | None = None
    if "potential_disengaged" in row:
        value = _get(row, "potential_disengaged", int, where)
        assert isinstance(value, int)
        disengaged = value
    if after and disengaged is None:
        raise MovementTableError(
            f"{where}: key 'potential_disengaged': required when after_disengagement is true"
        )
    if not after and disengaged is not None:
        raise MovementTableError(
            f"{where}: key 'potential_disengaged': only for actions allowed after disengagement"
        )
    try:
        contact = ContactRule(_get(row, "contact", str, where))
        kind = ActionKind(_get(row, "kind", str, where))
        shooting = ShootingAfter(_get(row, "shooting", str, where))
    except ValueError as error:
        raise MovementTableError(f"{where}: {error}") from None
    bonus = _get(row, "target_bonus", int, where)
    assert isinstance(bonus, int)
    return MovementAction(
        id=ident,
        name=str(_get(row, "name", str, where)),
        section=str(_get(row, "section", str, where)),
        potential=potential,
        potential_disengaged=disengaged,
        contact=contact,
        after_disengagement=after,
        kind=kind,
        free_at_activation=bool(_get(row, "free_at_activation", bool, where)),
        sight_at_activation=bool(_get(row, "sight_at_activation", bool, where)),
        once_per_round=bool(_get(row, "once_per_round", bool, where)),
        shooting=shooting,
        target_bonus=bonus,
    )


def _parse(data: Mapping[str, object], source: str) -> MovementTable:
    unknown = sorted(set(data) - {"action", "charge_penalty"})
    if unknown:
        raise MovementTableError(f"{source}: unknown key {unknown[0]!r}")
    rows = data.get("action")
    if not isinstance(rows, list) or not rows:
        raise MovementTableError(f"{source}: key 'action': expected [[action]] tables")
    actions: dict[str, MovementAction] = {}
    for number, row in enumerate(rows, start=1):
        action = _parse_action(row, f"{source}: action {number}")
        if action.id in actions:
            raise MovementTableError(f"{source}: action {number}: duplicate id {action.id!r}")
        actions[action.id] = action
    penalty = data.get("charge_penalty")
    where = f"{source}: charge_penalty"
    if not isinstance(penalty, dict):
        raise MovementTableError(f"{where}: expected a [charge_penalty] table")
    malus = _get(penalty, "malus", int, where)
    assert isinstance(malus, int)
    names = penalty.get("characteristics")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise MovementTableError(f"{where}: key 'characteristics': expected a list of strings")
    try:
        penalised = frozenset(Characteristic.parse(str(n)) for n in names)
    except ValueError as error:
        raise MovementTableError(f"{where}: key 'characteristics': {error}") from None
    return MovementTable(actions, malus, penalised, source)


def load_movement_table(path: str | Path | None = None) -> MovementTable:
    """Read the movement table (V-D) from ``path``, or the bundled ``movement.toml``."""
    if path is None:
        text = resources.files("confrontation.data").joinpath("movement.toml").read_text("utf-8")
        source = "movement.toml"
    else:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise MovementTableError(f"{source}: cannot read ({error.strerror})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MovementTableError(f"{source}: not valid TOML ({error})") from None
    return _parse(data, source)


@cache
def default_movement_table() -> MovementTable:
    """The bundled table (read once)."""
    return load_movement_table()


def movement_potential(action: MovementAction, mov: float, *, disengaged: bool = False) -> float:
    """The distance (cm) ``action`` allows a fighter of current MOV ``mov`` (V-B, V-D).

    ``disengaged``: the action follows a successful disengagement (V-C: MOV x 1).
    """
    if mov < 0:
        raise ValueError(f"a current MOV is at least 0 (II-A-4), not {mov}")
    if disengaged:
        if action.potential_disengaged is None:
            raise ValueError(f"{action.name} cannot follow a disengagement (V-D)")
        return mov * action.potential_disengaged
    return mov * action.potential


_T = TypeVar("_T")


def passable_friends(
    others: Iterable[_T],
    friend: Callable[[_T], bool],
    activated: Callable[[_T], bool],
    free: Callable[[_T], bool],
) -> list[_T]:
    """V-A: "A combatant can pass "through" friendly combatants free of any enemy if they are
    activated during the same turn as him."

    The fighters among ``others`` the mover may pass through; each test is asked only when
    the ones before it hold (``free`` is the costly one: it looks at the bases in contact).
    """
    return [other for other in others if friend(other) and activated(other) and free(other)]


@dataclass(frozen=True, slots=True)
class MoveSituation:
    """What the referee knows about a fighter when he is activated (V-B, V-C).

    ``in_contact``: in contact with at least one enemy at the start of his activation.
    ``attacked_this_phase``: charged or engaged in the current activation phase (V-B-1, V-C).
    ``at_contact_limit``: in contact with the most enemies his size allows (II-E-3, V-C).
    ``walked_this_round``: he has already walked this round (V-B-1: one walk per round).
    ``sees_an_enemy``: at least one enemy is in sight, even partially (V-B-3, charge).
    """

    in_contact: bool = False
    attacked_this_phase: bool = False
    at_contact_limit: bool = False
    walked_this_round: bool = False
    sees_an_enemy: bool = True


def _may_disengage(situation: MoveSituation) -> bool:
    """V-C conditions (the test itself is rules.disengage)."""
    return (
        situation.in_contact
        and not situation.attacked_this_phase
        and not situation.at_contact_limit
    )


def allowed_actions(
    situation: MoveSituation, table: MovementTable | None = None
) -> list[tuple[MovementAction, bool]]:
    """The movement actions open to the fighter, each with "needs a disengagement first".

    V-B-1..4 and V-D: a fighter free of enemies may take any action whose conditions he meets
    (a charge needs an enemy in sight); a fighter in contact may only take the actions allowed
    after disengagement, and only if V-C lets him try.
    """
    table = table or default_movement_table()
    options: list[tuple[MovementAction, bool]] = []
    for action in table.actions.values():
        if action.once_per_round and situation.walked_this_round:
            continue
        if action.sight_at_activation and not situation.sees_an_enemy:
            continue
        if not situation.in_contact:
            options.append((action, False))
        elif (
            action.after_disengagement
            and not action.free_at_activation
            and _may_disengage(situation)
        ):
            options.append((action, True))
    return options


def end_position_legal(action: MovementAction, in_contact_with_enemy: bool) -> bool:
    """V-D "Contact with the enemy after moving": a walk, run or move under cover never ends
    in contact; an assault that reaches its target ends in contact (V-B-3; one that falls
    short is :func:`confrontation.rules.charge.assault_move`'s business)."""
    if action.contact is ContactRule.FORBIDDEN:
        return not in_contact_with_enemy
    return True


_NON_MOVEMENT_CUMULATIVE = frozenset({"shoot", "spell", "miracle"})
"""Cumulative actions of other chapters that combine with a walk (V-B-1, VI-A)."""


def activation_problem(
    actions: Sequence[str], table: MovementTable | None = None, *, assault_shots: int = 0
) -> str | None:
    """Why this list of actions cannot make up one activation, or None when it can (IV-B-2).

    ``actions`` are movement action ids and the cumulative ``shoot``, ``spell``, ``miracle``.
    An exclusive action is the fighter's only action, except the one assault shot of a charge
    or an engagement (VI-B-3, given as ``assault_shots``); at most one walk (V-B-1).
    """
    table = table or default_movement_table()
    moves: list[MovementAction] = []
    for name in actions:
        if name in _NON_MOVEMENT_CUMULATIVE:
            continue
        if name not in table.actions:
            return f"unknown action {name!r}"
        moves.append(table.actions[name])
    exclusive = [m for m in moves if m.kind is ActionKind.EXCLUSIVE]
    if assault_shots < 0:
        return "a negative number of assault shots"
    if exclusive:
        if len(actions) > 1:
            return f"{exclusive[0].name} is exclusive: it is the fighter's only action (IV-B-2)"
        if assault_shots > 1:
            return "only one shot during an assault (VI-B-3)"
        if assault_shots and exclusive[0].shooting is not ShootingAfter.ASSAULT:
            return f"no shot with a {exclusive[0].name.lower()} (V-D)"
        return None
    if assault_shots:
        return "an assault shot needs a charge or an engagement (VI-B-3)"
    for action in moves:
        if action.once_per_round and sum(1 for m in moves if m.id == action.id) > 1:
            return f"only one {action.name.lower()} per round ({action.section})"
    return None


def may_take_cover_as_reaction(activated: bool, free_of_enemy: bool) -> bool:
    """V-B-4 note, VI-A-2: a fighter shot at before his activation, free of any enemy, may
    announce a move under cover: Target/+2 for that shot, and he must move under cover when
    activated."""
    return not activated and free_of_enemy


def can_cross_landform(landform_size: int, fighter_size: int, distance: float, mov: float) -> bool:
    """V-A: a smaller landform is crossed freely; one of the fighter's size only by a move of
    at most MOV x 1; a larger one never. ``distance`` is what the fighter actually moves in
    that movement, whatever the action (CLARIFICATIONS §9), not the action's potential."""
    if landform_size < fighter_size:
        return True
    if landform_size == fighter_size:
        return distance <= mov
    return False


def may_rotate(mov: float) -> bool:
    """V-A: turning the base about its sight is part of a move (a turn alone counts as a
    move), so a fighter whose current MOV is 0 cannot turn: his sight cannot move."""
    return mov > 0
