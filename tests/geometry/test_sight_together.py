"""Line of sight in a crowd, told in plain arithmetic (issue 22, thirteenth round): barriers
that hide a target together (:func:`_hidden`, each cut to a half-plane between the sight and
the target), a clear disc of the target in a gap between the barriers' spans
(:func:`_clear_gap`) and a disc of it cut by one barrier (:func:`_cut_disc`) give the
answers of the frozen reference (the GEOS shadows), on crowded hypothesis layouts: a target
with bases touching it (squares side to side, gaps and overlaps of up to 0.05 cm), a source
a few centimetres away."""

from __future__ import annotations

import math

import pytest
import ref_sight
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_fast_equivalence import fighters, scenery, shape, size

from confrontation.geometry import Barrier, Base, Scenery, Sight
from confrontation.geometry.contact import in_contact
from confrontation.geometry.sight import (
    _clear_gap,
    _cut_disc,
    _hidden,
    _in_front,
    _taller,
    line_of_sight,
    sees,
)


@st.composite
def crowd(draw: st.DrawFn) -> dict[str, Base]:
    """A target at the table's middle, bases around it touching it (a square beside a
    square target side to side, facing as it does), a source facing it from 3-30 cm."""
    facing = draw(st.sampled_from([0.0, 90.0, 37.0, 180.0, 211.0]))
    target = Base.of(draw(size), draw(shape), 60.0, 30.0, facing)
    out = {"t": target}
    for k in range(draw(st.integers(1, 7))):
        b = Base.of(draw(size), draw(shape), 0.0, 0.0, facing)
        gap = draw(st.sampled_from([0.0, 0.0, 1e-9, 0.01, 0.05, -0.01, -1e-9]))
        if target.shape == b.shape == "square" and draw(st.booleans()):
            side = draw(st.integers(0, 3))
            a = math.radians(facing + 90.0 * side)
            across = (
                target.depth_mm + b.depth_mm if side % 2 == 0 else target.width_mm + b.width_mm
            ) / 20.0
            slide = draw(st.floats(-1.5, 1.5))
            x = target.x + math.cos(a) * (across + gap) - math.sin(a) * slide
            y = target.y + math.sin(a) * (across + gap) + math.cos(a) * slide
        else:
            a = math.radians(draw(st.floats(0, 360)))
            reach = _outer(target) + _outer(b) + gap
            if target.shape == b.shape == "round":
                reach = (target.width_mm + b.width_mm) / 20.0 + gap
            x, y = target.x + math.cos(a) * reach, target.y + math.sin(a) * reach
        b = b.moved(x, y)
        if any(b.polygon.intersects(o.polygon.buffer(-0.06)) for o in out.values()):
            continue
        out[f"b{k}"] = b
    distance = draw(st.floats(3, 30))
    a = math.radians(draw(st.floats(0, 360)))
    sx, sy = target.x + math.cos(a) * distance, target.y + math.sin(a) * distance
    turn = math.degrees(math.atan2(target.y - sy, target.x - sx)) + draw(st.floats(-60, 60))
    source = Base.of(draw(size), draw(shape), sx, sy, turn)
    assume(not any(source.polygon.intersects(o.polygon.buffer(-0.06)) for o in out.values()))
    out["s"] = source
    return out


def _outer(b: Base) -> float:
    if b.shape == "round":
        return b.width_mm / 20.0
    return math.hypot(b.width_mm, b.depth_mm) / 20.0


def _check(
    placed: dict[str, Base], elements: tuple[Scenery, ...], pairs: list[tuple[str, str]]
) -> int:
    """Each shortcut agrees with the reference for each pair; how many it settled."""
    settled = 0
    for a, b in pairs:
        s, t = placed[a], placed[b]
        others = [placed[i] for i in placed if i not in (a, b)]
        ref = [ref_sight.Barrier(o.polygon, o.size) for o in others]
        ref += [ref_sight.Barrier(e.footprint, e.height) for e in elements]
        want = ref_sight.line_of_sight(s, t, ref)
        barriers = [Barrier.of_base(o) for o in others]
        barriers += [Barrier(e.footprint, e.height) for e in elements]
        assert sees(s, t, barriers) == (want is not ref_sight.Sight.NONE)
        assert line_of_sight(s, t, barriers).value == want.value
        if not _in_front(s, t) or s.level != 0 or t.level != 0 or in_contact(s, t):
            continue
        tall = _taller(s, t, barriers)
        if _hidden(s, t, tall):
            assert want is ref_sight.Sight.NONE, (a, b)
            settled += 1
        if _clear_gap(s, t, tall):
            assert want is not ref_sight.Sight.NONE, (a, b)
            settled += 1
        if _cut_disc(s, t, barriers):
            assert want is not ref_sight.Sight.SEES, (a, b)
            settled += 1
    return settled


@pytest.mark.rule("II-D-3", "II-D-4")
@settings(max_examples=150, deadline=None)
@given(crowd())
def test_a_crowd_hides_or_shows_the_target_as_the_shadows_do(placed: dict[str, Base]) -> None:
    """The source looking at the target and at each base of the crowd, and each base of
    the crowd at the target."""
    pairs = [("s", i) for i in placed if i != "s"] + [(i, "t") for i in placed if i not in "st"]
    _check(placed, (), pairs)


@pytest.mark.rule("II-D-3")
@settings(max_examples=40, deadline=None)
@given(fighters(), scenery())
def test_scattered_bases_and_scenery_as_the_shadows_do(
    placed: dict[str, Base], elements: tuple[Scenery, ...]
) -> None:
    _check(placed, elements, [(a, b) for a in placed for b in placed if a != b])


def test_the_crowd_layouts_reach_both_shortcuts() -> None:
    """Fixed examples of the crowd (not left to hypothesis's draws): each shortcut settles
    some of them, so the checks above check something."""
    me = Base.of("normal", "round", 40, 30, 0)
    foe = Base.of("normal", "square", 60, 30, 180)
    # two squares side by side in front of the target: neither hides it alone
    left = Base.of("normal", "square", 55, 29.25, 0)
    right = Base.of("normal", "square", 55, 31.75, 0)
    pair = [Barrier.of_base(left), Barrier.of_base(right)]
    assert _hidden(me, foe, pair)
    assert not _hidden(me, foe, pair[:1]) and not _hidden(me, foe, pair[1:])
    assert line_of_sight(me, foe, pair) is Sight.NONE
    # pulled 0.3 cm apart: a clear disc seen between them, no single line test finds it
    apart = [Barrier.of_base(left.moved(55, 29.1)), Barrier.of_base(right.moved(55, 31.9))]
    assert not _hidden(me, foe, apart) and _clear_gap(me, foe, apart)
    assert sees(me, foe, apart) and line_of_sight(me, foe, apart) is Sight.PARTIAL
    assert _cut_disc(me, foe, apart)  # a disc behind one of them
    assert not _cut_disc(me, foe, [Barrier.of_base(left.moved(55, 26))])  # aside
    # a square touching the target's facing side, beyond its nearest corner: the part on
    # the sight's side of that side hides it, together with a round base beside it
    touching = Base.of("normal", "square", 60 - 2.5, 30.3, 180)
    beside = Base.of("normal", "round", 55, 27.2, 0)
    crowd = [Barrier.of_base(touching), Barrier.of_base(beside)]
    assert _hidden(me, foe, crowd) is (line_of_sight(me, foe, crowd) is Sight.NONE)
    # a large square wholly behind the target spans more than it: no part of it is on the
    # sight's side of the target's facing side, so it hides nothing
    behind = [Barrier.of_base(Base.of("very-large", "square", 65, 30, 0))]
    assert not _hidden(me, foe, behind)
    assert line_of_sight(me, foe, behind) is Sight.SEES
    placed = {"s": me, "t": foe, "l": left, "r": right}
    assert _check(placed, (), [("s", "t")]) == 2  # hidden, and a disc cut
