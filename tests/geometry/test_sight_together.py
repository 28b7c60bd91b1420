"""Line of sight in a crowd, told in plain arithmetic (issue 22, thirteenth round): barriers
that hide a target together (:func:`_hidden`, each cut to a half-plane between the sight and
the target), a clear disc of the target in a gap between the barriers' spans
(:func:`_clear_gap`) and a disc of it cut by one barrier (:func:`_cut_disc`) give the
answers of the frozen reference (the GEOS shadows), on crowded hypothesis layouts: a target
with bases touching it (squares side to side, gaps and overlaps of up to 0.05 cm), a source
a few centimetres away. Each shortcut's margin has a layout that a version without it
answers wrongly (docs/performance.md, "Speed, thirteenth round (sightgrow)", Tests)."""

from __future__ import annotations

import math

import pytest
import ref_sight
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box
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
    outer_radius,
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


def _angle(source: Base, x: float, y: float) -> float:
    """The direction (radians) from the source's sight to (x, y)."""
    sx, sy = source.sight
    return math.atan2(y - sy, x - sx)


def _least_angle(source: Base, b: Base) -> float:
    """The least direction from the source's sight to a point of the base (its 64-gon's)."""
    return min(_angle(source, x, y) for x, y in shapely.get_coordinates(b.polygon).tolist())


def _most_angle(source: Base, b: Base) -> float:
    """The most direction from the source's sight to a point of the base (its 64-gon's)."""
    return max(_angle(source, x, y) for x, y in shapely.get_coordinates(b.polygon).tolist())


def _edge_at(source: Base, b: Base, angle: float, distance: float, upper: bool) -> Base:
    """The base with its centre ``distance`` from the source's sight, turned about the sight
    until its least (``upper``: most) direction is ``angle`` (bisection)."""
    sx, sy = source.sight
    lo, hi = angle - 1.0, angle + 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        moved = b.moved(sx + distance * math.cos(mid), sy + distance * math.sin(mid))
        edge = _most_angle(source, moved) if upper else _least_angle(source, moved)
        if edge < angle:
            lo = mid
        else:
            hi = mid
    return b.moved(sx + distance * math.cos(hi), sy + distance * math.sin(hi))


def _facing(draw: st.DrawFn, low: float, high: float) -> tuple[Base, Base, float, float]:
    """A source, a target in front of it, a direction between the target's least and most
    (``low`` to ``high`` of the way) and the room between the source's sight and the target's
    outer circle along x."""
    source = Base.of(draw(size), draw(shape), 40.0, 30.0, 0.0)
    target = Base.of(draw(size), draw(shape), draw(st.floats(52, 75)), 30.0, draw(st.floats(0, 90)))
    assume(_in_front(source, target))
    lo, hi = _least_angle(source, target), _most_angle(source, target)
    angle = lo + (hi - lo) * draw(st.floats(low, high))
    return source, target, angle, target.x - outer_radius(target) - source.sight[0]


@st.composite
def meeting_edges(draw: st.DrawFn) -> dict[str, Base]:
    """A source, a target and two bases in front of it, seen edge to edge: the first's most
    direction inside the target's span, the second's least direction that one less a hair
    (-1e-4 to 1e-4 rad: a gap or an overlap of the size of the shortcuts' margins, a round
    base's 64-gon inside its circle, the spans' 1e-7 rad, a clear disc's half-width)."""
    source, target, top, gap = _facing(draw, 0.1, 0.9)
    first = _edge_at(
        source,
        Base.of(draw(size), draw(shape), 0.0, 0.0, draw(st.sampled_from([0.0, 37.0]))),
        top,
        gap * draw(st.floats(0.3, 0.6)),
        upper=True,
    )
    hair = draw(st.sampled_from([-1e-4, -1e-5, -2e-6, -5e-7, 0.0, 5e-7, 2e-6, 1e-5, 1e-4]))
    second = _edge_at(
        source,
        Base.of(draw(size), draw(shape), 0.0, 0.0, draw(st.sampled_from([0.0, 37.0]))),
        top - hair,
        gap * draw(st.floats(0.3, 0.9)),
        upper=False,
    )
    placed = {"s": source, "t": target, "a": first, "b": second}
    shapes = [b.polygon for b in placed.values()]
    assume(not any(p.intersects(q) for i, p in enumerate(shapes) for q in shapes[:i]))
    return placed


@pytest.mark.rule("II-D-3")
@settings(max_examples=120, deadline=None)
@given(meeting_edges())
def test_bases_seen_edge_to_edge_as_the_shadows_do(placed: dict[str, Base]) -> None:
    """Two bases meeting, seen from the source, within a hair of the target's lines: the
    shortcuts agree with the shadows (a version of :func:`_hidden` taking round bases as
    their circles, or of :func:`_clear_gap` without the disc's half-width, does not)."""
    _check(placed, (), [("s", "t")])


def _sliver(source: Base, angle: float, near: float, far: float, thick: float) -> Polygon:
    """A rectangle ``thick`` cm across along the line from the source's sight at ``angle``,
    from ``near`` to ``far`` cm away."""
    sx, sy = source.sight
    ux, uy = math.cos(angle), math.sin(angle)
    nx, ny = -uy * thick / 2, ux * thick / 2
    return Polygon(
        [
            (sx + near * ux - nx, sy + near * uy - ny),
            (sx + far * ux - nx, sy + far * uy - ny),
            (sx + far * ux + nx, sy + far * uy + ny),
            (sx + near * ux + nx, sy + near * uy + ny),
        ]
    )


@st.composite
def slivers(draw: st.DrawFn) -> tuple[dict[str, Base], tuple[Scenery, ...]]:
    """A source, a target and a hair-thin scenery sliver (1e-6 to 1e-4 cm) along a line of
    sight to it: its shadow may be less than AREA_EPS though its span is more than 1e-7 rad."""
    source, target, angle, gap = _facing(draw, 0.2, 0.8)
    near = gap * draw(st.floats(0.2, 0.6))
    thick = draw(st.sampled_from([1e-6, 3e-6, 1e-5, 3e-5, 1e-4]))
    sliver = _sliver(source, angle, near, near + draw(st.floats(0.5, 3.0)), thick)
    assume(not sliver.intersects(source.polygon) and not sliver.intersects(target.polygon))
    return {"s": source, "t": target}, (Scenery("sliver", sliver, height=draw(size)),)


@pytest.mark.rule("II-D-3")
@settings(max_examples=60, deadline=None)
@given(slivers())
def test_a_sliver_cuts_as_its_shadow_does(
    layout: tuple[dict[str, Base], tuple[Scenery, ...]],
) -> None:
    """A hair-thin barrier: the shortcuts agree with the shadows (a version of
    :func:`_cut_disc` without the disc's half-width does not)."""
    placed, elements = layout
    _check(placed, elements, [("s", "t")])


def test_a_sliver_cuts_no_disc() -> None:
    """:func:`_cut_disc` keeps the disc a disc's angular half-width inside the cut span: a
    sliver 5e-6 cm thick along the sight line spans more than the spans' 1e-7 rad, yet its
    shadow is less than AREA_EPS, so the target is seen (not partially)."""
    me = Base.of("normal", "round", 40, 30, 0)
    foe = Base.of("normal", "square", 60, 30, 180)
    sliver = _sliver(me, 0.0, 6.5, 10.5, 5e-6)
    assert 2 * math.atan(2.5e-6 / 6.5) > 4e-7  # a ray and the narrowing fit in its span
    assert not _cut_disc(me, foe, [Barrier(sliver, "normal")])
    assert line_of_sight(me, foe, [Barrier(sliver, "normal")]) is Sight.SEES
    _check({"s": me, "t": foe}, (Scenery("sliver", sliver),), [("s", "t")])


def test_a_hair_between_two_squares_shows_no_disc() -> None:
    """:func:`_clear_gap` keeps the disc a disc's angular half-width inside the gap: two
    squares 2e-5 cm apart along the sight line leave a gap wider than the spans' 1e-7 rad
    (neither :func:`_hidden` nor :func:`_clear_gap` settles it) but less than AREA_EPS of
    the target is seen through it: not seen."""
    me = Base.of("normal", "round", 40, 30, 0)
    foe = Base.of("normal", "square", 60, 30, 180)
    left = Base.of("normal", "square", 55, 28.75 - 1e-5, 0)
    right = Base.of("normal", "square", 55, 31.25 + 1e-5, 0)
    gap = _least_angle(me, right) - _most_angle(me, left)
    assert 4e-7 < gap < 2 * math.asin(0.02 / 20)  # wider than the margins in rad, not a disc
    pair = [Barrier.of_base(left), Barrier.of_base(right)]
    assert not _hidden(me, foe, pair) and not _clear_gap(me, foe, pair)
    assert not sees(me, foe, pair)
    _check({"s": me, "t": foe, "l": left, "r": right}, (), [("s", "t")])


def test_a_round_base_hides_as_its_64_gon() -> None:
    """:func:`_hidden` takes a round base as its 64-gon's inscribed circle: a square whose
    nearest corner is seen between the round base's 64-gon and its circle (the line to the
    circle touching it at the middle of a side) leaves a gap the circle would close: the
    target is partially seen."""
    me = Base.of("normal", "round", 40, 30, 0)
    foe = Base.of("normal", "square", 60, 30, 180)
    sx, sy = me.sight
    side = math.radians(16.5 * 360 / 64)  # the middle of a side of the 64-gon
    tx, ty = sx + 10 * math.cos(side - math.pi / 2), sy + 10 * math.sin(side - math.pi / 2)
    disc = Base.of("normal", "round", tx - 1.5 * math.cos(side), ty - 1.5 * math.sin(side), 0)
    circle = side - math.pi / 2  # the direction of the line touching the circle
    polygon = _most_angle(me, disc)
    assert circle - 3e-4 < polygon < circle - 1e-4  # 0.0018 cm at 10 cm
    corner = (circle + polygon) / 2  # the square's least direction: between the two
    cx, cy = sx + 14 * math.cos(corner), sy + 14 * math.sin(corner)
    square = Base.of("normal", "square", cx - 1.25, cy + 1.25, 0)
    assert _least_angle(me, square) == pytest.approx(corner, abs=1e-12)
    pair = [Barrier.of_base(disc), Barrier.of_base(square)]
    assert not _hidden(me, foe, pair)
    assert line_of_sight(me, foe, pair) is Sight.PARTIAL
    placed = {"s": me, "t": foe, "d": disc, "q": square}
    assert _check(placed, (), [("s", "t")]) == 1  # a disc cut; the gap is no disc wide


def test_a_piece_beside_the_target_blocks_a_gap() -> None:
    """:func:`_clear_gap` leaves out only barriers wholly beyond the target's farthest point:
    a scenery piece 1.995 cm nearer than that, tucked against the round target's edge (no
    half-plane of :func:`_cut_spans` holds it, so :func:`_hidden` cannot use it), hides the
    part of it a wall in front leaves: not seen."""
    me = Base.of("normal", "round", 5, 30, 0)
    foe = Base.of("normal", "round", 106.5, 30, 180)
    sx, _ = me.sight
    piece = Polygon([(106.005, 31.425), (106.02, 31.425), (106.5, 31.62), (106.005, 31.62)])
    assert 0 < piece.distance(foe.polygon) < 0.01
    far = foe.x - sx + outer_radius(foe)
    assert far - 2 < min(x for x, _ in shapely.get_coordinates(piece).tolist()) - sx < far - 1.9
    top = _angle(me, 106.005, 31.425) + 2e-5  # the wall's most direction
    wall = box(40, 25, 42, 30 + 33.5 * math.tan(top))
    elements = (Scenery("piece", piece, height="large"), Scenery("wall", wall, height="large"))
    tall = [Barrier(e.footprint, e.height) for e in elements]
    assert not _hidden(me, foe, tall) and not _clear_gap(me, foe, tall)
    assert not sees(me, foe, tall)
    _check({"s": me, "t": foe}, elements, [("s", "t")])
