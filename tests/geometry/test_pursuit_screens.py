"""The screens of the tenth speed round (pursuit2) drop nothing that counts: the numpy screen
of the bases near a contact search (``contact._maybe_near``) keeps every base the exact box
test of ``contact._near`` keeps, and the numpy screen of a pursuer's enemies
(``pursuit.within_reach``) drops only enemies :func:`pursuit_placement` would refuse --
checked on random bases and on every call of whole games, and shown to catch broken
screens."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np
import pytest
import ref_contact_31
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry.base import BaseGeometry
from test_fast_equivalence import fighters

from confrontation.engine.combat import pursuit
from confrontation.engine.core.state import GameState
from confrontation.engine.table import field as table_field
from confrontation.geometry import Base, Table, contact
from confrontation.sim.game import GameConfig, play_game

Window = tuple[float, float, float, float]
TABLE = Table()


def _near_in_full(others: Sequence[Base], window: Window) -> list[Base]:
    """The exact box test of ``contact._near`` asked of every base."""
    x0, y0, x1, y1 = window
    return [
        o
        for o in others
        if (b := o.polygon.bounds)[0] <= x1 and b[2] >= x0 and b[1] <= y1 and b[3] >= y0
    ]


def _screened(others: Sequence[Base], window: Window) -> list[Base]:
    """The screen, then the exact test: what ``contact._near`` keeps."""
    return _near_in_full(contact._maybe_near(others, window), window)


@pytest.mark.rule("II-E-1")
@settings(max_examples=80, deadline=None)
@given(
    fighters(n_max=14),
    st.floats(0, 120),
    st.floats(0, 120),
    st.floats(0.1, 12),
    st.floats(0.1, 12),
)
def test_the_near_screen_keeps_every_base_the_box_test_keeps(
    placed: dict[str, Base], x: float, y: float, w: float, h: float
) -> None:
    others = list(placed.values())
    window = (x, y, x + w, y + h)
    assert _screened(others, window) == _near_in_full(others, window)


def _corners_in(window: Window) -> list[Base]:
    """Square bases turned 45 degrees right of ``window``, each with only its corner (a
    point at its outer radius from the centre) 1e-4 cm inside the window."""
    _, y0, x1, y1 = window
    out = []
    for k in range(10):
        b = Base.of("normal", "square", 0, 0, 45.0)
        r = contact.outer_radius(b)
        out.append(b.moved(x1 + r - 1e-4, y0 + k * (y1 - y0) / 9))
    return out


def test_a_broken_near_screen_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    window = (10.0, 10.0, 20.0, 20.0)
    others = _corners_in(window)
    assert len(_near_in_full(others, window)) == 10
    assert _screened(others, window) == _near_in_full(others, window)
    # a screen that takes a base for its inscribed circle drops bases the box test keeps
    monkeypatch.setattr(contact, "outer_radius", lambda b: b.width / 2.0)
    assert _screened(others, window) != _near_in_full(others, window)


@pytest.fixture
def checked_screens(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every ``_near`` and every pursuit screen of the games played checked against the full
    computation; yields [near calls, near bases screened out, pursuit calls, enemies
    dropped, enemies engaged that a screen by centres would have dropped]."""
    counts = [0, 0, 0, 0, 0]
    maybe_near = contact._maybe_near
    within_reach = pursuit.within_reach
    placement = pursuit.pursuit_placement

    def near_checked(others: Sequence[Base], window: Window) -> list[Base]:
        got = maybe_near(others, window)
        assert _near_in_full(got, window) == _near_in_full(others, window)
        counts[0] += 1
        counts[1] += len(others) - len(got)
        return got

    def reach_checked(
        state: GameState, fighter: str, enemies: list[str], reach: float
    ) -> list[str]:
        got = within_reach(state, fighter, enemies, reach)
        assert got == [e for e in enemies if e in got]  # their order
        for enemy in sorted(set(enemies) - set(got)):
            assert placement(state, fighter, enemy, reach) is None
        # a broken screen (each enemy taken for its centre) would drop enemies he can engage
        here = table_field.field_of(state)
        sx, sy = here.base(fighter).sight
        for enemy in got:
            e = here.base(enemy)
            if math.hypot(e.x - sx, e.y - sy) > reach + 1e-5:
                counts[4] += placement(state, fighter, enemy, reach) is not None
        counts[2] += 1
        counts[3] += len(enemies) - len(got)
        return got

    monkeypatch.setattr(contact, "_maybe_near", near_checked)
    monkeypatch.setattr(pursuit, "within_reach", reach_checked)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    yield counts
    table_field._FIELDS.clear()
    table_field._LAST.clear()


def _play(seeds: Sequence[int], agents: tuple[str, str]) -> None:
    for seed in seeds:
        play_game(GameConfig(agents=agents, seed=seed))


def test_every_screen_of_whole_games_drops_nothing_that_counts(
    checked_screens: list[int],
) -> None:
    _play((0, 1, 2), ("greedy", "greedy"))
    _play((2,), ("random", "random"))
    near, dropped, pursuits, skipped, missed = checked_screens
    assert near > 50 and dropped > 200
    assert pursuits > 10 and skipped > 20
    assert missed > 0  # the check above would catch a screen by centres


@pytest.fixture
def checked_deep_screens(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every screen of a contact search in the games played (with its boxes and discs)
    checked against the screen by GEOS alone; yields [screens, candidates flagged,
    candidates a screen taking bases for their outer discs would flag wrongly]."""
    counts = [0, 0, 0]
    screen = contact._Edge.surely_blocked

    def checked(
        edge: contact._Edge,
        ks: np.ndarray,
        blocker: BaseGeometry,
        room: contact._Room | None = None,
    ) -> np.ndarray:
        got = screen(edge, ks, blocker, room)
        if room is not None:
            full = screen(edge, ks, blocker)
            assert got.tolist() == full.tolist()
            counts[0] += 1
            counts[1] += int(got.sum())
            # discs as large as the bases' outer circles flag free places as blocked
            wrong = contact._Room(
                room.boxes,
                room.inside,
                np.array(
                    [(x, y, r / math.cos(math.pi / 4)) for x, y, r in room.discs.tolist()]
                ).reshape(-1, 3),
            )
            counts[2] += int((screen(edge, ks, blocker, wrong) & ~full).sum())
        return got

    monkeypatch.setattr(contact._Edge, "surely_blocked", checked)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    yield counts
    table_field._FIELDS.clear()
    table_field._LAST.clear()


def test_the_disc_screen_of_whole_games_flags_what_geos_flags(
    checked_deep_screens: list[int],
) -> None:
    _play((0, 1), ("greedy", "greedy"))
    _play((2,), ("random", "random"))
    screens, flagged, wrong = checked_deep_screens
    assert screens > 50 and flagged > 1000
    assert wrong > 0  # the comparison catches a screen whose discs are too large


def test_a_deep_overlap_is_flagged_without_geos(monkeypatch: pytest.MonkeyPatch) -> None:
    mover = Base.of("normal", "square", 50, 10)
    target = Base.of("large", "square", 50, 30)
    # a neighbour of the target where a place in contact would stand
    neighbour = Base.of("normal", "square", 50, 30 - 3.75 - 1.25, 90)
    search = contact.ContactSearch(mover, target, [neighbour], table=TABLE.area)
    blocker = search.blocker()
    assert search.room is not None and len(search.room.discs) == 1
    edge = contact._Edge(mover, target, mover.sight)
    ks = np.arange(edge.count)
    full = edge.surely_blocked(ks, blocker)
    asked: list[int] = []
    screen = contact._Edge.surely_blocked

    def counted(
        e: contact._Edge, k: np.ndarray, b: BaseGeometry, room: contact._Room | None = None
    ) -> np.ndarray:
        if room is None:
            asked.append(len(k))
        return screen(e, k, b, room)

    monkeypatch.setattr(contact._Edge, "surely_blocked", counted)
    got = edge.surely_blocked(ks, blocker, search.room)
    assert got.tolist() == full.tolist() and full.sum() > 10
    assert sum(asked) < int(full.sum())  # the deep ones never reached GEOS


@pytest.mark.rule("II-E-1", "V-B-3")
@settings(max_examples=60, deadline=None)
@given(fighters(n_max=2), st.floats(-20, 140), st.floats(-20, 140))
def test_the_candidates_built_from_arrays_are_the_old_ones(
    placed: dict[str, Base], rx: float, ry: float
) -> None:
    """``_Edge`` without its per-place lists gives every candidate of the frozen search, the
    same numbers of the same types (a numpy scalar stays one: events show them), and the
    same approximate places."""
    mover, target = list(placed.values())[:2]
    new = contact._Edge(mover, target, (rx, ry))
    old = ref_contact_31._Edge(mover, target, (rx, ry))
    assert new.count == old.count
    made = [new.make(k) for k in range(new.count)]
    assert repr(made) == repr([old.make(k) for k in range(old.count)])
    for name in ("approx_x", "approx_y", "approx_cx", "approx_cy", "approx_facing"):
        assert getattr(new, name).tolist() == getattr(old, name).tolist()


_KINDS = ["small", "normal", "large", "cavalry", "ophidian", "very-large", "war-machine", "titan"]
_SQUARE_SIZE = {"cavalry": "normal", "ophidian": "large", "war-machine": "very-large"}


def _square(kind: str, x: float, y: float, facing: float) -> Base:
    size = _SQUARE_SIZE.get(kind, kind)
    return Base.of(size, "square", x, y, facing, kind=kind)


@pytest.mark.rule("II-E-1")
@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(_KINDS),
    st.sampled_from(_KINDS),
    st.floats(0, 360),
    st.floats(0, 360),
    st.floats(-15, 15),
    st.floats(-15, 15),
)
def test_every_candidate_of_two_square_bases_is_in_contact(
    mover_kind: str, target_kind: str, facing: float, turned: float, rx: float, ry: float
) -> None:
    """The claim of ``contact._flush``: the full contact test keeps every candidate."""
    mover = _square(mover_kind, 10, 10, turned)
    target = _square(target_kind, 40, 40, facing)
    assert contact._flush(mover, target)
    edge = contact._Edge(mover, target, (40 + rx, 40 + ry))
    cands = [edge.make(k) for k in range(edge.count)]
    assert contact._in_contact_with(cands, target).all()
    assert all(ref_contact_31.in_contact(c, target) for c in cands)
    # the test can fail: the same places slid along their side by 60 % of their width
    slid = [
        c.moved(c.x - c.front[1] * 0.6 * c.width, c.y + c.front[0] * 0.6 * c.width) for c in cands
    ]
    assert not all(ref_contact_31.in_contact(c, target) for c in slid)


def test_the_contact_test_skipped_for_square_bases_keeps_all_in_whole_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``_flush`` asked in whole games (greedy and random): where it
    says yes, the full test it skips keeps every candidate."""
    flush = contact._flush
    in_contact_with = contact._in_contact_with
    checked = [0, 0]

    def never(mover: Base, target: Base) -> bool:
        checked[0] += flush(mover, target)
        return False

    def full(cands: list[Base], target: Base) -> np.ndarray:
        got = in_contact_with(cands, target)
        if cands and flush(cands[0], target):
            assert got.all()
            checked[1] += len(cands)
        return got

    monkeypatch.setattr(contact, "_flush", never)
    monkeypatch.setattr(contact, "_in_contact_with", full)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    try:
        _play((0, 1), ("greedy", "greedy"))
        _play((2,), ("random", "random"))
    finally:
        table_field._FIELDS.clear()
        table_field._LAST.clear()
    assert checked[0] > 50 and checked[1] > 300
