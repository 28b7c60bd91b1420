"""A battlefield builds what its queries share on the first query that needs it (issue 22,
eleventh round): the parts it builds, in whatever order the questions come, are those of
the whole construction written out here, and so are its answers."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import Base, Battlefield, Scenery
from confrontation.geometry import field as geometry_field

QUESTIONS = ("contacts", "sight", "sees", "path", "scenery")


def _eager_parts(field: Battlefield) -> dict[str, object]:
    """The shared parts as the battlefield built them all at once before (reference)."""
    ids = list(field.fighters)
    keys: list[Base | Scenery] = [field.fighters[i] for i in ids] + list(field.scenery)
    barriers = [geometry_field._base_barrier(field.fighters[i]) for i in ids]
    barriers += [geometry_field._scenery_barrier(s) for s in field.scenery]
    levels = sorted({b.level for b in field.fighters.values()} | {0, 1})
    level_ids = {lv: [i for i in ids if field.fighters[i].level == lv] for lv in levels}
    return {
        "_keys": keys,
        "_barriers": barriers,
        "_key_ids": [geometry_field._key_id(k) for k in keys],
        "_level_ids": level_ids,
        "_level_index": {lv: {i: k for k, i in enumerate(v)} for lv, v in level_ids.items()},
    }


def _ask(field: Battlefield, question: str, a: str, b: str) -> object:
    if question == "contacts":
        return sorted(field.contacts(a))
    if question == "sight":
        return field.sight(a, b)
    if question == "sees":
        return field.sees(a, b)
    if question == "path":
        found = field.path(a, b)
        return None if found is None else round(found.length, 9)
    if field.scenery:
        return field.sight_to_scenery(a, field.scenery[0])
    return None


@settings(max_examples=30, deadline=None)
@given(fighters(n_max=8), scenery(), st.data())
def test_lazy_parts_and_answers_are_the_eager_ones(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    ids = sorted(placed)
    # some fighters a level up (II-F-1): paths are searched per level
    lifted = data.draw(st.sets(st.sampled_from(ids), max_size=2))
    placed = {i: dataclasses.replace(b, level=1) if i in lifted else b for i, b in placed.items()}
    questions = data.draw(
        st.lists(
            st.tuples(st.sampled_from(QUESTIONS), st.sampled_from(ids), st.sampled_from(ids)),
            min_size=1,
            max_size=5,
        )
    )
    lazy = Battlefield(TABLE, placed, elements)
    eager = Battlefield(TABLE, placed, elements)
    for name in ("_keys", "_barriers", "_key_ids", "_level_ids", "_level_index"):
        getattr(eager, name)  # every part built before any question
    for question, a, b in questions:
        if a == b and question != "contacts":
            continue
        assert _ask(lazy, question, a, b) == _ask(eager, question, a, b)
    for name, value in _eager_parts(lazy).items():
        assert getattr(lazy, name) == value, name
