"""Sight answers kept across steps (II-D-3, issue 22).

A field (:class:`~confrontation.engine.table.field.Field`) answers each sight question of
its arrangement of fighters once. When a fighter moves, comes or goes, the next field
takes over, when asked, the old field's answers that the change cannot alter: an answer between two
fighters depends only on their two bases and on the barriers that may stand between them
(:class:`~confrontation.geometry.sight.Corridors`: the bases at level 0 and scenery, not
flat, near the hull of the source's sight and the target's base). So it stands while
neither fighter changed (place, facing, size, level: every field of the base) and no base
that changed stands, before or after, where it might be such a barrier
(:func:`~confrontation.geometry.sight.may_stand_between`). Scenery does not change within
a battlefield (a field only inherits from one of the same battleground).
"""

from __future__ import annotations

from collections.abc import Mapping

from confrontation.geometry.bases import Base
from confrontation.geometry.sight import may_stand_between


def changed_bases(
    before: Mapping[str, Base], now: Mapping[str, Base]
) -> tuple[set[str], list[Base]]:
    """The fighters whose base differs between two arrangements (moved, turned, changed
    size or level, came or went), and their bases in both (where there is one)."""
    changed = {i for i in before.keys() | now.keys() if before.get(i) != now.get(i)}
    bases = [b for i in changed for b in (before.get(i), now.get(i)) if b is not None]
    return changed, bases


def stands(
    source: str, target: str, now: Mapping[str, Base], changed: set[str], moved: list[Base]
) -> bool:
    """Does an answer from ``source`` to ``target`` stand in the arrangement ``now``, after
    the ``changed`` fighters' change (``moved``: their bases before and after)?"""
    if source in changed or target in changed:
        return False
    s, t = now[source], now[target]
    return not any(may_stand_between(s, t, b) for b in moved)
