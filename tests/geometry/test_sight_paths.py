"""Line of sight by size class (II-D-3) and movement paths (V-A) -- table-driven."""

from __future__ import annotations

import pytest
from shapely.geometry import LineString, box
from shapely.geometry.base import BaseGeometry

from confrontation.geometry import (
    Barrier,
    Base,
    Scenery,
    Sight,
    Table,
    crossable,
    line_of_sight,
    move_obstacles,
    shortest_path,
)
from confrontation.geometry.paths import Path

RANKED = ["small", "normal", "large", "very-large"]


@pytest.mark.rule("II-D-3")
@pytest.mark.parametrize("source", RANKED)
@pytest.mark.parametrize("target", RANKED)
@pytest.mark.parametrize("wall", RANKED)
def test_a_wall_across_every_line(source: str, target: str, wall: str) -> None:
    s = Base.of(source, "square", 30, 10, 90)
    t = Base.of(target, "square", 30, 40, 270)
    barrier = Barrier(box(0, 24, 60, 26), wall)
    expected = (
        Sight.NONE
        if wall in RANKED[max(RANKED.index(source), RANKED.index(target)) :]
        else (Sight.PARTIAL)
    )
    assert line_of_sight(s, t, [barrier]) is expected


@pytest.mark.rule("II-D-3")
@pytest.mark.parametrize(
    ("wall", "expected"),
    [
        (box(0, 24, 29.8, 26), Sight.PARTIAL),  # covers part of the cone (29.42-30.58 there)
        (box(0, 24, 29.3, 26), Sight.SEES),  # just misses it
        (box(0, 24, 10.0, 26), Sight.SEES),  # beside the cone
        (box(29.9, 24, 30.1, 26), Sight.PARTIAL),  # a thin post in the middle
        (box(0, 50, 60, 52), Sight.SEES),  # behind the target
        (box(0, 0, 60, 5), Sight.SEES),  # behind the source
    ],
)
def test_walls_cutting_some_lines(wall: BaseGeometry, expected: Sight) -> None:
    s = Base.of("normal", "square", 30, 10, 90)
    t = Base.of("normal", "square", 30, 40, 270)
    assert line_of_sight(s, t, [Barrier(wall, "very-large")]) is expected


@pytest.mark.rule("II-D-3")
def test_two_barriers_together_block_every_line() -> None:
    s = Base.of("normal", "square", 30, 10, 90)
    t = Base.of("normal", "square", 30, 40, 270)
    left, right = (
        Barrier(box(0, 24, 30.05, 26), "normal"),
        Barrier(box(29.95, 24, 60, 26), "normal"),
    )
    assert line_of_sight(s, t, [left]) is Sight.PARTIAL
    assert line_of_sight(s, t, [left, right]) is Sight.NONE
    low = Barrier(box(29.95, 24, 60, 26), "small")
    assert line_of_sight(s, t, [left, low]) is Sight.PARTIAL  # one part only small


@pytest.mark.rule("II-D-2", "II-D-3")
def test_target_partly_out_of_view_and_flat_scenery() -> None:
    s = Base.of("normal", "square", 30, 10, 90)
    beside = Base.of("normal", "square", 40, 11.25, 90)  # straddles the front line
    assert line_of_sight(s, beside) is Sight.PARTIAL
    t = Base.of("normal", "square", 30, 40)
    assert line_of_sight(s, t, [Barrier(box(0, 20, 60, 30), "flat")]) is Sight.SEES


@pytest.mark.rule("V-A")
@pytest.mark.parametrize(
    ("shape", "size", "kind"),
    [
        ("square", "normal", None),
        ("round", "normal", None),
        ("square", "large", None),
        ("round", "very-large", None),
        ("square", "large", "cavalry"),
    ],
)
@pytest.mark.parametrize("margin", [0.1, -0.1])
def test_gap_just_wider_or_narrower_than_the_base(
    shape: str, size: str, kind: str | None, margin: float
) -> None:
    mover = Base.of(size, shape, 10, 30, 0, kind=kind)  # type: ignore[arg-type]
    gap = mover.width + margin
    walls = [box(30, 0, 32, 30 - gap / 2), box(30, 30 + gap / 2, 32, 60)]
    path = shortest_path(mover.sight, (50, 30), walls, mover.width, table=Table().area)
    if margin > 0:
        assert path is not None
        assert path.length == pytest.approx(50 - mover.sight[0])
    else:
        assert path is None  # the walls reach the table's edges: no way round


@pytest.mark.rule("V-A")
@pytest.mark.parametrize("mover_size", RANKED)
@pytest.mark.parametrize("wall_size", RANKED)
@pytest.mark.parametrize("at_most_mov", [True, False])
def test_walls_of_each_size_class(mover_size: str, wall_size: str, at_most_mov: bool) -> None:
    mover = Base.of(mover_size, "round", 10, 30, 0)
    wall = Scenery("wall", box(30, 10, 31, 50), height=wall_size)
    smaller = RANKED.index(wall_size) < RANKED.index(mover_size)
    same = wall_size == mover_size
    assert crossable(wall, mover_size, at_most_mov) is (smaller or (same and at_most_mov))
    obstacles = move_obstacles(mover, [], [wall], move_at_most_mov=at_most_mov)
    path = shortest_path(mover.sight, (50, 30), obstacles, mover.width, table=Table().area)
    assert path is not None
    straight = 50 - mover.sight[0]
    if smaller or (same and at_most_mov):
        assert path.length == pytest.approx(straight)
    else:
        assert path.length > straight + 1  # round the wall's end
        assert not path.line().intersects(wall.footprint)


@pytest.mark.rule("V-A")
def test_impassable_scenery_and_friends_passed_through() -> None:
    mover = Base.of("very-large", "round", 10, 30, 0)
    house = Scenery("house", box(30, 20, 35, 40), height="small", passable=False)
    assert move_obstacles(mover, [], [house]) == [house.footprint]
    friend = Base.of("normal", "square", 20, 30)
    assert move_obstacles(mover, [], []) == []  # the caller left the friend out: free
    assert move_obstacles(mover, [friend], []) == [friend.polygon]
    flier = Base.of("normal", "square", 20, 30, level=1)
    assert move_obstacles(mover, [flier], []) == []  # another altitude level


@pytest.mark.rule("V-A")
def test_path_to_a_base_ends_on_its_edge_and_how_far_n_cm_goes() -> None:
    mover = Base.of("normal", "square", 10, 10, 0)
    target = Base.of("normal", "round", 40, 10)
    path = shortest_path(mover.sight, target, [], mover.width)
    assert path is not None
    assert path.length == pytest.approx(40 - 1.5 - 11.25)
    assert path.point_at(10) == pytest.approx((21.25, 10))
    assert path.truncated(100).end == pytest.approx(path.end)
    assert not path.reachable_with(27) and path.reachable_with(27.25)
    bent = Path(((0.0, 0.0), (3.0, 4.0), (3.0, 10.0)))
    assert bent.length == pytest.approx(11)
    assert bent.point_at(7) == pytest.approx((3, 6))
    assert bent.heading_at(7) == pytest.approx(90)
    assert bent.truncated(2.5).end == pytest.approx((1.5, 2))


@pytest.mark.rule("V-A")
def test_leaving_base_contact_with_a_friend_and_unreachable_goals() -> None:
    mover = Base.of("normal", "square", 10, 10, 90)
    friend = Base.of("normal", "square", 12.5, 10, 90)  # flush on the right
    path = shortest_path(mover.sight, (10, 30), [friend.polygon], mover.width)
    assert path is not None and path.length == pytest.approx(30 - 11.25)
    boxed = [box(0, 20, 60, 22), box(0, 0, 2, 22), box(18, 0, 20, 22)]
    assert shortest_path(mover.sight, (10, 30), boxed, mover.width, table=Table().area) is None
    inside = shortest_path(mover.sight, (35, 35), [box(30, 30, 40, 40)], mover.width)
    assert inside is None
    line = LineString([(10, 11.25), (10, 30)])
    assert line.length == pytest.approx(path.length)
