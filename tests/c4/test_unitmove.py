"""Moving a unit and the assault (``# Activation Phase > Moving a Unit``, ``# Moving
Miniatures``, ``# Moving a Unit > Obstacles``, ``# Moving a Unit > Assault``)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import Point

from confrontation.c4.formation import (
    Formation,
    Member,
    formation_problems,
    gap,
    lay_out,
    member_base,
    touching,
)
from confrontation.c4.unitmove import (
    STOP_CM,
    AssaultResult,
    MoveKind,
    OtherUnit,
    Surroundings,
    assault,
    assault_distance,
    max_distance,
    move_unit,
    passes_through,
    unit_mov,
)
from confrontation.geometry import Scenery, Table

R = 1.25
TABLE = Table(120, 60)
OPEN = Surroundings(TABLE)


def block(
    prefix: str, n: int, at: tuple[float, float], facing: float, formation: Formation
) -> tuple[Member, ...]:
    placed = lay_out(
        [Member(f"{prefix}{i}", 0, 0, R) for i in range(n)], f"{prefix}0", at, facing, formation
    )
    assert placed is not None
    return placed


def other(
    uid: str,
    owner: str,
    members: tuple[Member, ...],
    category: str = "infantry",
    formation: Formation = Formation.CLOSE,
) -> OtherUnit:
    return OtherUnit(uid, owner, category, formation, members)


def walk(
    members: tuple[Member, ...],
    goal: tuple[float, float],
    kind: MoveKind = MoveKind.WALK,
    mov: float = 10.0,
    formation: Formation = Formation.CLOSE,
    surroundings: Surroundings = OPEN,
    category: str = "infantry",
) -> tuple[Member, ...]:
    moved = move_unit(
        members,
        members[0].id,
        goal,
        kind,
        mov,
        formation,
        owner="p1",
        category=category,
        surroundings=surroundings,
    )
    assert moved is not None
    return moved.members


def hit(
    start: tuple[Member, ...],
    enemy: OtherUnit,
    *,
    order: list[str] | None = None,
    several: frozenset[str] = frozenset(),
) -> AssaultResult:
    return assault(
        start, start[0].id, 10, enemy, owner="p1", category="infantry",
        formation=Formation.CLOSE, surroundings=Surroundings(TABLE, (), (enemy,)),
        order=order, several=several,
    )  # fmt: skip


# --- # Moving a Unit: Movement and distances ----------------------------------------------


def test_the_units_movement_is_its_slowest_members() -> None:
    # Moving a Unit: "A unit's Movement value is equal to that of its slowest member."
    assert unit_mov([10, 7.5, 12]) == 7.5
    with pytest.raises(ValueError):
        unit_mov([])


def test_walk_run_and_assault_distances() -> None:
    # Moving a Unit: walk MOV, run twice MOV, assault twice MOV
    assert max_distance(MoveKind.WALK, 10) == 10
    assert max_distance(MoveKind.RUN, 10) == 20
    assert max_distance(MoveKind.ASSAULT, 10) == 20


@pytest.mark.parametrize(("kind", "cm"), [(MoveKind.WALK, 10.0), (MoveKind.RUN, 20.0)])
def test_the_leader_moves_its_full_distance_in_the_open(kind: MoveKind, cm: float) -> None:
    start = block("a", 6, (20, 30), 0, Formation.CLOSE)
    moved = walk(start, (100, 30), kind)
    assert moved[0].centre == pytest.approx((20 + cm, 30))
    assert formation_problems(moved, "a0", Formation.CLOSE, 0) == []


def test_a_goal_nearer_than_the_movement_is_reached() -> None:
    start = block("a", 4, (20, 30), 0, Formation.SCATTERED)
    moved = walk(start, (25, 33), formation=Formation.SCATTERED)
    assert moved[0].centre == pytest.approx((25, 33))


def test_obstacles_are_skirted() -> None:
    # Moving a Unit > Obstacles: "A unit skirts around obstacles when it moves"
    wall = Scenery.rect("wall", 30, 30, 2, 16, passable=False)
    sur = Surroundings(TABLE, (wall,))
    start = block("a", 4, (20, 30), 0, Formation.CLOSE)
    moved = move_unit(
        start, "a0", (40, 30), MoveKind.RUN, 10, Formation.CLOSE,
        owner="p1", category="infantry", surroundings=sur,
    )  # fmt: skip
    assert moved is not None
    assert moved.path.length == pytest.approx(20)
    assert len(moved.path.points) > 2  # went round
    for m in moved.members:
        assert member_base(m).polygon.distance(wall.footprint) >= 0
        assert not member_base(m).polygon.buffer(-0.01).intersects(wall.footprint)


def test_passable_scenery_is_no_obstacle() -> None:
    # Moving a Unit > Obstacles: only impassable terrain elements are obstacles (ruling)
    hedge = Scenery.rect("hedge", 30, 30, 2, 16, passable=True)
    start = block("a", 1, (20, 30), 0, Formation.CLOSE)
    moved = walk(start, (100, 30), surroundings=Surroundings(TABLE, (hedge,)), mov=6)
    assert moved[0].centre == pytest.approx((26, 30))


def test_walking_does_not_engage() -> None:
    # Moving a Unit: "Walking does not allow the unit to engage an enemy unit."
    enemy = other("E", "p2", block("e", 4, (35, 30), 180, Formation.CLOSE))
    start = block("a", 4, (20, 30), 0, Formation.CLOSE)
    moved = walk(start, (33.5, 30), surroundings=Surroundings(TABLE, (), (enemy,)), mov=20)
    assert not any(touching(m, e) for m in moved for e in enemy.members)
    assert all(gap(m, e) >= 0 for m in moved for e in enemy.members)


# --- # Moving Miniatures / Obstacles: friendly scattered units -----------------------------


def test_friendly_scattered_infantry_is_passed_through() -> None:
    # Moving Miniatures: "Infantry and cavalry units on the same side and in scattered
    # formation do not hinder each other's movement"
    friend = other(
        "F", "p1", block("f", 9, (27, 30), 90, Formation.SCATTERED), formation=Formation.SCATTERED
    )
    sur = Surroundings(TABLE, (), (friend,))
    start = block("a", 3, (20, 30), 0, Formation.SCATTERED)
    moved = move_unit(
        start, "a0", (60, 30), MoveKind.RUN, 10, Formation.SCATTERED,
        owner="p1", category="infantry", surroundings=sur,
    )  # fmt: skip
    assert moved is not None
    assert len(moved.path.points) == 2  # straight through
    assert moved.members[0].centre == pytest.approx((40, 30))
    # the same unit in close formation must be skirted round
    closed = Surroundings(TABLE, (), (other("F", "p1", friend.members),))
    round_it = move_unit(
        start, "a0", (60, 30), MoveKind.RUN, 10, Formation.SCATTERED,
        owner="p1", category="infantry", surroundings=closed,
    )  # fmt: skip
    assert round_it is not None and len(round_it.path.points) > 2


def test_passing_through_needs_friends_infantry_or_cavalry_both_scattered() -> None:
    s = Formation.SCATTERED
    unit = other("F", "p1", (), formation=s)
    assert passes_through("p1", "cavalry", s, unit)
    assert not passes_through("p2", "infantry", s, unit)
    assert not passes_through("p1", "creature", s, unit)
    assert not passes_through("p1", "infantry", Formation.CLOSE, unit)
    assert not passes_through("p1", "infantry", s, other("F", "p1", (), "titan", s))


def test_a_unit_cannot_end_inside_a_friend_and_stops_one_cm_in_front() -> None:
    # Moving a Unit > Obstacles: "they cannot finish their movement inside one another's
    # formation ... stops 1 cm in front of it"
    friend = other(
        "F", "p1", block("f", 9, (35, 30), 90, Formation.SCATTERED), formation=Formation.SCATTERED
    )
    start = block("a", 3, (20, 30), 0, Formation.SCATTERED)
    moved = move_unit(
        start, "a0", (60, 30), MoveKind.WALK, 15, Formation.SCATTERED,
        owner="p1", category="infantry", surroundings=Surroundings(TABLE, (), (friend,)),
    )  # fmt: skip
    assert moved is not None and moved.stopped
    nearest = min(gap(m, f) for m in moved.members for f in friend.members)
    assert nearest >= STOP_CM - 1e-6
    assert moved.path.length < 15


def test_close_formation_is_kept_to_the_end() -> None:
    # Moving a Unit > Obstacles: a close unit stays in base to base contact
    start = block("a", 9, (20, 30), 0, Formation.CLOSE)
    moved = move_unit(
        start, "a0", (60, 45), MoveKind.WALK, 12, Formation.CLOSE,
        owner="p1", category="infantry", surroundings=Surroundings(TABLE),
    )  # fmt: skip
    assert moved is not None and not moved.stopped
    assert moved.path.length == pytest.approx(12)
    assert formation_problems(moved.members, "a0", Formation.CLOSE, moved.facing) == []


# --- # Moving a Unit > Assault --------------------------------------------------------------


def test_the_assault_distance_is_measured_round_obstacles() -> None:
    # Moving a Unit > Assault: "measures the distance (skirting round obstacles)"
    enemy = other("E", "p2", block("e", 1, (40, 30), 180, Formation.CLOSE))
    start = block("a", 1, (20, 30), 0, Formation.CLOSE)
    open_d = assault_distance(
        start, "a0", enemy, owner="p1", category="infantry", formation=Formation.CLOSE,
        surroundings=Surroundings(TABLE, (), (enemy,)),
    )  # fmt: skip
    wall = Scenery.rect("wall", 30, 30, 2, 20, passable=False)
    walled = assault_distance(
        start, "a0", enemy, owner="p1", category="infantry", formation=Formation.CLOSE,
        surroundings=Surroundings(TABLE, (wall,), (enemy,)),
    )  # fmt: skip
    assert open_d == pytest.approx(20 - 2 * R)
    assert walled is not None and walled > 20 - 2 * R + 5


def test_a_failed_assault_moves_as_close_as_possible_in_formation() -> None:
    # Moving a Unit > Assault: "If this distance is greater than twice the unit's Movement,
    # the assault fails. The unit moves as close as possible ... and remains in formation."
    enemy = other("E", "p2", block("e", 4, (60, 30), 180, Formation.CLOSE))
    start = block("a", 4, (20, 30), 0, Formation.CLOSE)
    done = assault(
        start, "a0", 10, enemy, owner="p1", category="infantry", formation=Formation.CLOSE,
        surroundings=Surroundings(TABLE, (), (enemy,)),
    )  # fmt: skip
    assert not done.success and done.distance is not None and done.distance > 20
    assert done.formation is Formation.CLOSE
    assert done.members[0].x == pytest.approx(40)
    assert not any(m.engaged for m in done.members)
    assert formation_problems(done.members, "a0", Formation.CLOSE, 0) == []


def test_a_successful_assault_goes_scattered_and_engages() -> None:
    # Moving a Unit > Assault: "the unit goes into scattered formation. The assault succeeds
    # and both units are engaged ... each of them who has enough movement is placed in
    # contact with an assaulted fighter"
    enemy = other("E", "p2", block("e", 6, (45, 30), 180, Formation.CLOSE))
    start = block("a", 6, (30, 30), 0, Formation.CLOSE)
    done = assault(
        start, "a0", 10, enemy, owner="p1", category="infantry", formation=Formation.CLOSE,
        surroundings=Surroundings(TABLE, (), (enemy,)),
    )  # fmt: skip
    assert done.success and done.formation is Formation.SCATTERED
    assert all(m.engaged for m in done.members)
    for fid, touched in done.contacts.items():
        me = next(m for m in done.members if m.id == fid)
        assert touched and all(touching(me, e) for e in enemy.members if e.id in touched)
    for before, after in zip(start, done.members, strict=True):
        assert math.dist(before.centre, after.centre) <= 20 + 1e-6


def test_several_enemies_at_once_where_bases_allow() -> None:
    # Moving a Unit > Assault: "If their base allows them to, and if the player wants to, he
    # can engage several fighters at once."
    enemy = other("E", "p2", block("e", 2, (45, 30), 180, Formation.CLOSE))
    start = block("a", 1, (30, 30), 0, Formation.CLOSE)
    one = hit(start, enemy)
    two = hit(start, enemy, several=frozenset({"a0"}))
    assert len(one.contacts["a0"]) == 1
    assert len(two.contacts["a0"]) == 2


def test_the_players_order_decides_who_reaches_the_few_places() -> None:
    # Moving a Unit > Assault: "All of the assaulting fighters are moved in the order chosen
    # by the player" -- a lone enemy has room for six 25 mm bases around it
    enemy = other("E", "p2", (Member("e0", 45, 30, R),))
    start = block("a", 8, (32, 30), 0, Formation.CLOSE)
    ids = [m.id for m in start]
    default = hit(start, enemy)
    late = [i for i in ids if i not in default.contacts]
    assert late, "room for fewer than eight"
    chosen = hit(start, enemy, order=[late[0], *ids])
    assert late[0] in chosen.contacts
    assert len(chosen.contacts) <= 6


def test_an_engaged_units_engaged_fighters_stay_put() -> None:
    # Moving a Unit > Assault: "only the free fighters of the unit can move to engage"
    enemy = other("E", "p2", block("e", 3, (45, 30), 180, Formation.CLOSE))
    # in contact at an angle no contact place of the search lies on (every 5°)
    a = math.radians(182.5)
    stuck = Member("a0", 45 + 2 * R * math.cos(a), 30 + 2 * R * math.sin(a), R, engaged=True)
    free = Member("a1", 36, 30, R)
    done = assault(
        (stuck, free), "a0", 10, enemy, owner="p1", category="infantry",
        formation=Formation.SCATTERED, surroundings=Surroundings(TABLE, (), (enemy,)),
    )  # fmt: skip
    assert done.success
    assert done.members[0].centre == stuck.centre
    assert done.members[1].engaged


def test_out_of_reach_fighters_come_as_close_as_possible_in_formation() -> None:
    # Moving a Unit > Assault: "The assaulting fighters out of reach are moved in as close
    # as possible, respecting the formation rules."
    enemy = other("E", "p2", (Member("e0", 45, 30, R),))
    start = block("a", 8, (32, 30), 0, Formation.CLOSE)
    done = assault(
        start, "a0", 10, enemy, owner="p1", category="infantry", formation=Formation.CLOSE,
        surroundings=Surroundings(TABLE, (), (enemy,)),
    )  # fmt: skip
    e = enemy.members[0]
    for before, after in zip(start, done.members, strict=True):
        if not after.engaged:
            assert gap(after, e) < gap(before, e)
    assert done.problems == ()


@given(
    ex=st.floats(35, 90),
    ey=st.floats(10, 50),
    n=st.integers(1, 6),
    mov=st.sampled_from([5.0, 10.0, 15.0]),
    wall=st.booleans(),
)
def test_assault_invariants(ex: float, ey: float, n: int, mov: float, wall: bool) -> None:
    """Invariants: no bases overlap; nobody moves farther than 2×MOV; success exactly when
    the distance is at most 2×MOV; a failed assault keeps its formation, engages nobody."""
    enemy = other("E", "p2", block("e", 3, (ex, ey), 180, Formation.CLOSE))
    scenery: tuple[Scenery, ...] = (
        (Scenery.rect("wall", 27, 30, 2, 8, passable=False),) if wall else ()
    )
    start = block("a", n, (15, 30), 0, Formation.CLOSE)
    sur = Surroundings(TABLE, scenery, (enemy,))
    done = assault(
        start, "a0", mov, enemy, owner="p1", category="infantry", formation=Formation.CLOSE,
        surroundings=sur,
    )  # fmt: skip
    everyone = [*done.members, *enemy.members]
    for i, a in enumerate(everyone):
        for b in everyone[i + 1 :]:
            assert gap(a, b) >= -1e-3
        disc = Point(a.x, a.y).buffer(a.radius - 0.01)
        assert not any(disc.intersects(e.footprint) for e in scenery)
    for before, after in zip(start, done.members, strict=True):
        assert math.dist(before.centre, after.centre) <= 2 * mov + 1e-6
    assert done.success == (done.distance is not None and done.distance <= 2 * mov + 1e-9)
    if not done.success:
        assert not any(m.engaged for m in done.members)
        assert formation_problems(done.members, "a0", Formation.CLOSE, 0) == [] or any(
            formation_problems(done.members, "a0", Formation.CLOSE, f) == []
            for f in [k * 1.0 for k in range(360)]
        )
    else:
        assert done.contacts


@given(
    gx=st.floats(5, 115),
    gy=st.floats(5, 55),
    n=st.integers(1, 8),
    kind=st.sampled_from(list(MoveKind)),
    formation=st.sampled_from(list(Formation)),
    wall_x=st.floats(25, 95),
)
def test_move_invariants(
    gx: float, gy: float, n: int, kind: MoveKind, formation: Formation, wall_x: float
) -> None:
    """Invariants: the leader's path is no longer than the movement allows, the unit ends in
    formation (for the facing it was laid out with), on the table, off every obstacle and
    other base, and not in contact with an enemy."""
    wall = Scenery.rect("wall", wall_x, 25, 3, 20, passable=False)
    enemy = other("E", "p2", block("e", 3, (60, 50), 180, Formation.CLOSE))
    sur = Surroundings(TABLE, (wall,), (enemy,))
    start = block("a", n, (12, 30), 0, formation)
    moved = move_unit(
        start, "a0", (gx, gy), kind, 10, formation, owner="p1", category="infantry",
        surroundings=sur,
    )  # fmt: skip
    if moved is None:
        return
    assert moved.path.length <= max_distance(kind, 10) + 1e-6
    assert formation_problems(moved.members, "a0", formation, moved.facing) == []
    for m in moved.members:
        disc = Point(m.x, m.y).buffer(m.radius - 0.01)
        assert TABLE.area.covers(disc)
        assert not disc.intersects(wall.footprint)
        assert all(gap(m, e) > 0 for e in enemy.members)
