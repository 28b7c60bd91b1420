"""The sight caches of issue 22's third speed round: shadows kept per sight point are the
shadows computed afresh, and answers keyed by interned ids are the answers of a new
battlefield with the caches emptied."""

from __future__ import annotations

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import Base, Battlefield, Scenery
from confrontation.geometry import field as geometry_field
from confrontation.geometry import sight as geometry_sight


@settings(max_examples=40)
@given(
    st.lists(
        st.tuples(st.floats(0, 100), st.floats(0, 50), st.floats(0.2, 10), st.floats(0.2, 10)),
        min_size=1,
        max_size=6,
    ),
    st.tuples(st.floats(-20, 120), st.floats(-20, 70)),
    st.data(),
)
def test_kept_shadows_are_the_fresh_shadows(
    boxes: list[tuple[float, float, float, float]],
    source: tuple[float, float],
    data: st.DataObject,
) -> None:
    geometry_sight._SHADOWS.clear()
    pieces = [box(x, y, x + w, y + h) for x, y, w, h in boxes]
    sx, sy = source
    # a first question on some of the pieces, then one on all of them
    some = data.draw(st.lists(st.sampled_from(pieces), max_size=len(pieces), unique_by=id))
    geometry_sight._kept_shadows(sx, sy, some)
    kept = geometry_sight._kept_shadows(sx, sy, pieces)
    fresh = geometry_sight._shadows(sx, sy, pieces)
    assert len(kept) == len(fresh)
    assert all(shapely.equals_exact(k, f, 0.0) for k, f in zip(kept, fresh, strict=True))
    again = geometry_sight._kept_shadows(sx, sy, pieces)
    assert all(a is k for a, k in zip(again, kept, strict=True))  # no new shape


def test_a_different_sight_point_gets_its_own_shadows() -> None:
    geometry_sight._SHADOWS.clear()
    piece = box(10, 10, 12, 12)
    one = geometry_sight._kept_shadows(0.0, 0.0, [piece])[0]
    other = geometry_sight._kept_shadows(0.0, 30.0, [piece])[0]
    assert not shapely.equals(one, other)
    assert shapely.equals_exact(other, geometry_sight._shadows(0.0, 30.0, [piece])[0], 0.0)


@settings(max_examples=25, deadline=None)
@given(fighters(), scenery())
def test_answers_kept_across_battlefields_are_the_fresh_ones(
    placed: dict[str, Base], elements: tuple[Scenery, ...]
) -> None:
    first = Battlefield(TABLE, placed, elements)
    warm = {(a, b): first.sight(a, b) for a in placed for b in placed if a != b}
    # a second battlefield of equal bases (new objects) answers from the kept answers
    copies = {
        i: Base(**{k: getattr(b, k) for k in b.__dataclass_fields__}) for i, b in placed.items()
    }
    second = Battlefield(TABLE, copies, elements)
    assert second._key_ids == first._key_ids
    kept = {(a, b): second.sight(a, b) for a in copies for b in copies if a != b}
    geometry_field._SIGHTS.clear()
    geometry_field._SEES.clear()
    geometry_field._KEY_IDS.clear()
    cold = Battlefield(TABLE, copies, elements)
    fresh = {(a, b): cold.sight(a, b) for a in copies for b in copies if a != b}
    assert warm == kept == fresh
    assert all(cold.sees(a, b) == fresh[a, b].any for a, b in fresh)
