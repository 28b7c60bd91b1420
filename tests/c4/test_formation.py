"""Units and formations (``# Units``, ``# Units > Unit formation``, ``# Moving Miniatures``)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import box

from confrontation.c4.formation import (
    Formation,
    Member,
    change_formation,
    close_problems,
    formation_problems,
    gap,
    lay_out,
    leader_candidates,
    leader_problems,
    new_leader,
    rank_sizes,
    ranks,
    scattered_problems,
)

R = 1.25  # a 25 mm base


def unit(n: int, radius: float = R) -> list[Member]:
    return [Member(f"f{i}", 0.0, 0.0, radius) for i in range(n)]


# --- # Units > Unit formation: scattered -------------------------------------------------


def test_scattered_within_ten_of_leader_and_two_and_a_half_of_another() -> None:
    # Units > Unit formation: both distances edge to edge; exactly 10 / 2.5 cm is in
    lead = Member("L", 0, 0, R)
    a = Member("a", 0 + 2 * R + 2.5, 0, R)  # 2.5 cm from the leader
    b = Member("b", a.x + 2 * R + 2.5, 0, R)  # 2.5 from a, 7.5 from the leader
    c = Member("c", b.x + 2 * R + 2.5, 0, R)  # 12.5 from the leader
    assert scattered_problems([lead, a, b], "L") == []
    bad = scattered_problems([lead, a, b, c], "L")
    assert len(bad) == 1 and "c is 12.50 cm from the leader" in bad[0]


def test_scattered_needs_a_neighbour_within_two_and_a_half() -> None:
    lead = Member("L", 0, 0, R)
    far = Member("x", 2 * R + 2.6, 0, R)  # 2.6 cm from its only neighbour
    bad = scattered_problems([lead, far], "L")
    assert len(bad) == 1 and "nearest fighter" in bad[0]


def test_scattered_exempts_fighters_in_contact_with_an_enemy() -> None:
    # Units > Unit formation: "Any fighter who is in contact with an opponent does not need
    # to stay in formation."
    lead = Member("L", 0, 0, R)
    far = Member("x", 30, 0, R, engaged=True)
    assert scattered_problems([lead, far], "L") == []
    assert scattered_problems([lead, Member("x", 30, 0, R)], "L") != []


def test_overlapping_bases_are_never_a_formation() -> None:
    lead = Member("L", 0, 0, R)
    assert scattered_problems([lead, Member("x", 1.0, 0, R)], "L")


# --- # Units > Unit formation: close ------------------------------------------------------


def test_close_needs_contact() -> None:
    # Units > Unit formation: "The miniatures are supposed to be in contact"
    lead = Member("L", 0, 0, R)
    touching = Member("a", 2 * R, 0, R)
    apart = Member("a", 2 * R + 0.5, 0, R)
    assert close_problems([lead, touching], "L", 90) == []
    assert any("not in contact" in p for p in close_problems([lead, apart], "L", 90))


def test_close_needs_ranks_as_equal_as_possible() -> None:
    # Units > Unit formation: "form ranks as equal a possible" (ruling: differ by one at most)
    line = [Member(f"f{i}", 2 * R * i, 0, R) for i in range(4)]
    behind = Member("b", 0, -2 * R, R)
    second = Member("c", 2 * R, -2 * R, R)
    assert close_problems([*line[:3], behind, second], "f0", 90) == []  # ranks of 3 and 2
    bad = close_problems([*line, behind], "f0", 90)  # ranks of 4 and 1
    assert any("as equal as possible" in p for p in bad)


def test_rank_sizes() -> None:
    assert rank_sizes(10, 4) == [4, 3, 3]
    assert rank_sizes(7, 7) == [7]
    assert rank_sizes(5, 2) == [2, 2, 1]
    assert rank_sizes(0, 3) == []


# --- lay-outs ----------------------------------------------------------------------------


@pytest.mark.parametrize("formation", list(Formation))
def test_lay_out_puts_the_leader_at_the_point_in_the_front_rank(formation: Formation) -> None:
    placed = lay_out(unit(9), "f0", (50, 30), 90, formation)
    assert placed is not None
    lead = placed[0]
    assert (lead.x, lead.y) == pytest.approx((50, 30))
    assert lead in ranks(placed, 90)[0]
    assert formation_problems(placed, "f0", formation, 90) == []


def test_close_lay_out_touches_and_scattered_keeps_one_cm_gaps() -> None:
    close = lay_out(unit(4), "f0", (0, 0), 90, Formation.CLOSE, per_rank=4)
    scattered = lay_out(unit(4), "f0", (0, 0), 90, Formation.SCATTERED, per_rank=4)
    assert close is not None and scattered is not None
    assert min(gap(a, b) for a in close for b in close if a != b) == pytest.approx(0)
    assert min(gap(a, b) for a in scattered for b in scattered if a != b) == pytest.approx(1)


def test_lay_out_avoids_obstacles_by_changing_the_rank_width() -> None:
    # a wall on both sides of a 3 cm corridor: only a file of one fits
    walls = [box(-20, -30, -1.6, 5), box(1.6, -30, 20, 5)]
    placed = lay_out(unit(3), "f0", (0, 0), 90, Formation.CLOSE, per_rank=3, obstacles=walls)
    assert placed is not None
    assert [len(r) for r in ranks(placed, 90)] == [1, 1, 1]


def test_lay_out_stays_on_the_table_or_fails() -> None:
    table = box(0, 0, 120, 60)
    assert lay_out(unit(4), "f0", (0.5, 30), 90, Formation.CLOSE, table=table) is None
    assert lay_out(unit(4), "f0", (10, 30), 90, Formation.CLOSE, table=table) is not None


def test_a_unit_too_big_for_ten_cm_has_no_close_lay_out() -> None:
    # Units > Unit formation: 10 cm of the leader bounds the unit's size
    assert lay_out(unit(40, 2.5), "f0", (0, 0), 90, Formation.CLOSE) is None


def test_change_formation_keeps_the_leader_in_place() -> None:
    # Moving Miniatures: "A unit can change formation at the beginning of its activation."
    close = lay_out(unit(6), "f0", (40, 20), 0, Formation.CLOSE)
    assert close is not None
    spread = change_formation(close, "f0", Formation.SCATTERED, 0)
    assert spread is not None
    assert (spread[0].x, spread[0].y) == pytest.approx((40, 20))
    assert scattered_problems(spread, "f0") == []
    assert close_problems(spread, "f0", 0) != []  # the gaps break the close formation


radii = st.sampled_from([1.0, 1.25, 1.5, 2.0, 2.5])


@given(
    n=st.integers(1, 12),
    radius=radii,
    special=radii,
    formation=st.sampled_from(list(Formation)),
    facing=st.floats(0, 360),
    per_rank=st.none() | st.integers(1, 12),
)
def test_every_lay_out_is_in_formation(
    n: int, radius: float, special: float, formation: Formation, facing: float, per_rank: int | None
) -> None:
    """Invariant: a lay-out, when found, is in its formation, keeps the members (ids, bases,
    order) and puts the leader on the point; small units always find one in the open."""
    members = [Member(f"f{i}", 0, 0, special if i == n - 1 else radius) for i in range(n)]
    placed = lay_out(members, "f0", (60, 30), facing, formation, per_rank=per_rank)
    if n <= 6 and max(radius, special) <= 1.5:
        assert placed is not None
    if placed is None:
        return
    assert [(m.id, m.radius) for m in placed] == [(m.id, m.radius) for m in members]
    assert math.dist(placed[0].centre, (60, 30)) < 1e-9
    assert formation_problems(placed, "f0", formation, facing) == []


# --- # Units: the leader ------------------------------------------------------------------


def test_new_leader_is_the_nearest_standard_fighter() -> None:
    # Units: "the standard fighter closest to the former leader"
    fallen = Member("L", 0, 0, R)
    near_special = Member("s", 2.5, 0, R, standard=False)
    near = Member("a", 3.0, 0, R)
    far = Member("b", 6.0, 0, R)
    assert new_leader([near_special, far, near], fallen) == "a"


def test_new_leader_special_when_only_specials_are_left() -> None:
    # Units: "If there are only special fighters left, the closest ... becomes the leader."
    fallen = Member("L", 0, 0, R)
    s1 = Member("s1", 8, 0, R, standard=False)
    s2 = Member("s2", 3, 0, R, standard=False)
    assert new_leader([s1, s2], fallen) == "s2"
    assert new_leader([], fallen) is None


def test_incarnates_always_lead() -> None:
    # Units: "Incarnates ... are always the leaders of their unit."
    fallen = Member("L", 0, 0, R)
    hero = Member("hero", 9, 0, R, standard=False, incarnate=True)
    assert new_leader([Member("a", 2.6, 0, R), hero], fallen) == "hero"
    members = [Member("a", 0, 0, R), hero]
    assert leader_problems(members, "hero") == []
    assert leader_problems(members, "a") != []


def test_the_leader_is_a_standard_fighter() -> None:
    # Units: "This fighter is a standard fighter"
    members = [Member("a", 0, 0, R), Member("m", 3, 0, R, standard=False)]
    assert leader_problems(members, "a") == []
    assert leader_problems(members, "m") != []
    assert leader_problems(members, "z") != []


def test_equally_close_standards_are_all_candidates() -> None:
    fallen = Member("L", 0, 0, R)
    assert leader_candidates([Member("b", -3, 0, R), Member("a", 3, 0, R)], fallen) == (
        "a",
        "b",
    )


@given(
    st.lists(
        st.tuples(st.floats(-20, 20), st.floats(-20, 20), st.booleans(), st.booleans()),
        min_size=1,
        max_size=8,
    )
)
def test_new_leader_invariants(rows: list[tuple[float, float, bool, bool]]) -> None:
    """Invariant: an Incarnate if any, else a standard if any, and the nearest of those."""
    fallen = Member("L", 0, 0, R)
    rest = [
        Member(f"f{i}", x, y, R, standard=std and not inc, incarnate=inc)
        for i, (x, y, std, inc) in enumerate(rows)
    ]
    chosen = new_leader(rest, fallen)
    by_id = {m.id: m for m in rest}
    assert chosen in by_id
    pick = by_id[chosen]
    if any(m.incarnate for m in rest):
        pool = [m for m in rest if m.incarnate]
    elif any(m.standard for m in rest):
        pool = [m for m in rest if m.standard]
    else:
        pool = rest
    assert pick in pool
    assert gap(pick, fallen) <= min(gap(m, fallen) for m in pool) + 1e-9
