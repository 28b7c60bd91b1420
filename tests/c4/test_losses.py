"""The order of removal (``# Unit Ranged Attack > Removal of the losses``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from confrontation.c4.formation import Member, gap
from confrontation.c4.losses import nearest_first, removal_order

R = 1.25


def test_the_fighters_closest_to_the_marksmens_leader_go_first() -> None:
    # Unit Ranged Attack > Removal of the losses: "The fighters closest to the leader of the
    # unit of marksmen are eliminated first."
    leader = Member("m0", 0, 0, R)
    targets = [Member("far", 30, 0, R), Member("near", 20, 0, R), Member("mid", 25, 0, R)]
    assert removal_order(targets, leader) == ("near", "mid", "far")


def test_edge_to_edge_not_centre_to_centre() -> None:
    # Measuring Distance: "from the edge of one element to the edge of another"
    leader = Member("m0", 0, 0, R)
    big = Member("big", 22, 0, 3.0)  # centre farther, edge nearer
    small = Member("small", 20, 0, 0.5)
    assert removal_order([small, big], leader) == ("big", "small")


def test_ties_by_id() -> None:
    leader = Member("m0", 0, 0, R)
    assert nearest_first([Member("b", 0, 10, R), Member("a", 0, -10, R)], leader) == ("a", "b")


@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(-50, 50)), max_size=12))
def test_removal_order_is_a_permutation_nearest_first(xy: list[tuple[float, float]]) -> None:
    """Invariant: every target once, distances to the marksmen's leader never decreasing."""
    leader = Member("m0", 0, 0, R)
    targets = [Member(f"t{i}", x, y, R) for i, (x, y) in enumerate(xy)]
    order = removal_order(targets, leader)
    assert sorted(order) == sorted(m.id for m in targets)
    by_id = {m.id: m for m in targets}
    gaps = [gap(by_id[i], leader) for i in order]
    assert gaps == sorted(gaps)
