"""II-E-3: how many enemies may be in contact with a fighter, checked for every placement.

"According to its size, the number of enemies that can come into contact with a fighter is
limited (whatever the "real size" of its base): Small size: 3. Regular size: 4. Large size: 6.
Very large or Enormous/X: 8. Titan: 16." (II-E-3; the numbers are ``bases.toml``
``[contact_limits]``). CLARIFICATIONS §9: the limit "binds every placement that creates
contact: charges, engagements, pursuits, disengagements followed by an engagement,
deployment and any game effect. A fighter already touched by his limit cannot be charged or
engaged by one more enemy, and a multiple charge may not bring a target past his limit."

This is the one place that says whether a placement keeps every fighter within his limit:

- :func:`limit_of` — the fighter's limit (from the size class of his reference card);
- :func:`is_full` — already touched by his limit (announcements and redirections use it);
- :func:`placement_problem` — the problem, if any, of putting some fighters at new bases
  (an assault's place with the fighters it pushes, II-E-1; a pursuit move; a deployment
  spot): only the moved fighters' contacts are measured again, the others come from the
  cached :class:`~.field.Field`, so move generation stays cheap;
- :func:`position_problems` / :func:`check_position` — a whole position (a scripted one:
  :func:`~.setup.place`, :func:`~.neutral.add_neutrals`), reported with the section.

Only enemies count (II-E-3), at the same level (II-F-1: contact exists only within a level);
neutral fighters are enemies of both players (XX-E).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from confrontation.engine.core.state import GameState
from confrontation.engine.table.field import Field, field_of, has_field
from confrontation.geometry.bases import Base, max_enemies_in_contact
from confrontation.geometry.contact import ContactPlacement, in_contact

__all__ = [
    "ContactLimitError",
    "check_position",
    "is_full",
    "limit_of",
    "placement_filter",
    "placement_problem",
    "position_problems",
]


class ContactLimitError(ValueError):
    """A position with a fighter in contact with more enemies than II-E-3 allows."""


def limit_of(state: GameState, fighter_id: str) -> int:
    """II-E-3: the most enemies that may be in contact with this fighter (his size class;
    Enormous/X is very large, I-C)."""
    return max_enemies_in_contact(_size(state, fighter_id))


def _size(state: GameState, fighter_id: str) -> str:
    return state.profile(state.fighter(fighter_id).profile).size


def is_full(state: GameState, here: Field, fighter_id: str, leaving: tuple[str, ...] = ()) -> bool:
    """II-E-3: is this fighter already touched by his limit of enemies (not counting those in
    ``leaving``, e.g. a disengaging fighter who will move away)? No more enemy may then come
    into contact with him."""
    count = sum(1 for e in here.enemies_in_contact(fighter_id) if e not in leaving)
    return count >= limit_of(state, fighter_id)


def _reach(base: Base) -> float:
    """From a base's centre to its farthest point."""
    if base.shape == "round":
        return base.radius
    return math.hypot(base.width, base.depth) / 2.0


def _message(state: GameState, fighter_id: str, count: int) -> str:
    size = _size(state, fighter_id)
    return (
        f"II-E-3: fighter {fighter_id} ({size}) is in contact with {count} enemies, "
        f"more than {max_enemies_in_contact(size)}"
    )


def placement_problem(state: GameState, here: Field, moved: Mapping[str, Base]) -> str | None:
    """II-E-3: what is wrong with putting the fighters of ``moved`` at those bases (the
    others where ``here`` has them), or None when every fighter stays within his limit.

    Counted again: each moved fighter's enemies in contact at his new base, and each enemy
    he touches there (his other contacts as they are, those with moved fighters as they
    become)."""
    touched: dict[str, list[str]] = {}
    for mover, base in moved.items():
        me = state.fighter(mover).player  # (a fighter being deployed is not on the field yet)
        reach = _reach(base)
        mine = []
        for other in here.ids():
            if other == mover or here.owners[other] == me:
                continue
            there = moved[other] if other in moved else here.base(other)
            # centres farther apart than the outer radii cannot touch: not measured
            if math.hypot(there.x - base.x, there.y - base.y) > reach + _reach(there) + 0.01:
                continue
            if in_contact(base, there):
                mine.append(other)
        touched[mover] = mine
    for mover in sorted(touched):
        if len(touched[mover]) > limit_of(state, mover):
            return _message(state, mover, len(touched[mover]))
    reached = sorted({e for foes in touched.values() for e in foes if e not in moved})
    for enemy in reached:
        count = sum(1 for e in here.enemies_in_contact(enemy) if e not in moved)
        count += sum(1 for foes in touched.values() if enemy in foes)
        if count > limit_of(state, enemy):
            return _message(state, enemy, count)
    return None


def placement_filter(
    state: GameState, here: Field, mover: str, target: str
) -> Callable[[ContactPlacement], bool]:
    """II-E-3 as the ``accept`` test of :meth:`~.field.Field.contact_position`: does this
    place of ``mover`` in contact with ``target`` (with the fighters it pushes, II-E-1) keep
    everybody within his limit?"""
    others = [i for i in here.ids() if i not in (mover, target)]

    def within(placement: ContactPlacement) -> bool:
        moved = {mover: placement.base}
        moved.update((others[k], base) for k, base in placement.pushed)
        return placement_problem(state, here, moved) is None

    return within


def position_problems(state: GameState) -> list[str]:
    """II-E-3: every fighter on the table in contact with more enemies than he may be (an
    empty list for a legal position, or a game without a table)."""
    if not has_field(state):
        return []
    here = field_of(state)
    problems = []
    for fighter_id in sorted(here.ids()):
        count = len(here.enemies_in_contact(fighter_id))
        if count > limit_of(state, fighter_id):
            problems.append(_message(state, fighter_id, count))
    return problems


def check_position(state: GameState) -> GameState:
    """``state`` unchanged, or :class:`ContactLimitError` naming the first fighter over his
    II-E-3 limit (a scripted position, a game effect's placement)."""
    problems = position_problems(state)
    if problems:
        raise ContactLimitError(problems[0])
    return state
