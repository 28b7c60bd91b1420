"""The greedy agent's tenth-round shortcuts (issue 22) choose as the full computation does:
near enemies told for all at once from the field's centres (``assess.not_surely_apart``),
announcement worths and bounds kept per status, shots whose bound is below what is asked
not looked at (``best_of``'s ``floor``, ``greedy._shot_reaches``), the destinations'
objective distances measured at once, the status key's rows kept per record. Whole games
are played with and without them, and each check is shown to catch a broken shortcut."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kept_answers import _playing

from confrontation.agents import assess, greedy
from confrontation.engine.core.state import Fighter, GameState
from confrontation.engine.table.field import field_of
from confrontation.sim.game import GameConfig, play_game

T = TypeVar("T")


def _scalar_apart(
    state: GameState, fighter_id: str, others: Sequence[Fighter], cm: float
) -> list[Fighter]:
    """What ``not_surely_apart`` replaces: ``surely_apart`` pair by pair."""
    here = field_of(state)
    mine = here.base(fighter_id)
    return [e for e in others if not assess.surely_apart(mine, here.base(e.id), cm)]


def _full_best_of(
    items: Sequence[T],
    bound: Callable[[T], float],
    exact: Callable[[T], float],
    floor: float = -math.inf,
) -> float:
    """``best_of`` without its floor (every value above the others' bounds worked out)."""
    return assess.best_of(items, bound, exact)


def _without_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every tenth-round shortcut replaced by the computation it stands for."""
    monkeypatch.setattr(greedy, "_kept_worth", greedy.announce_worth)
    monkeypatch.setattr(greedy, "_maybe_near", lambda state, fighter_id, parts: parts)
    monkeypatch.setattr(
        greedy,
        "_kept_bound",
        lambda state, f, t: (
            greedy._assault_bound(state, state.fighter(f), state.fighter(t))
            if greedy._near(state, state.fighter(f), state.fighter(t))
            else None
        ),
    )
    monkeypatch.setattr(
        greedy, "_shot_reaches", lambda state, f, value: greedy._best_shot(state, f) >= value
    )
    monkeypatch.setattr(greedy, "best_of", _full_best_of)
    monkeypatch.setattr(greedy, "_prime_objectives", lambda state, player, points: None)
    monkeypatch.setattr(greedy, "not_surely_apart", _scalar_apart)
    monkeypatch.setattr(assess, "not_surely_apart", _scalar_apart)
    monkeypatch.setattr(assess, "_status_row", assess._status_row_now)


def _fresh_caches() -> None:
    assess._KEPT.clear()
    assess._PAIRS[:] = [None, None, None, {}]
    assess._WORTHS[:] = [None, None, {}]
    assess._ROWS[:] = [None, None, {}]
    assess._DUELS.clear()
    assess._CENTRES.clear()


@pytest.mark.parametrize(("scenario", "seed"), [("standard", 0), ("execution", 2), ("the-hill", 3)])
def test_the_shortcuts_play_the_games_of_the_full_computation(
    monkeypatch: pytest.MonkeyPatch, scenario: str, seed: int
) -> None:
    """A whole game with the shortcuts equals the game without any of them, and the one with
    ``CHECK_KEPT`` (every shortcut's answer compared with the full one as it is given); the
    shortcuts were taken (the comparison is not empty)."""
    config = GameConfig(scenario=scenario, seed=seed)
    taken: Counter[str] = Counter()
    real_bound = greedy._best_shot_bound
    real_near = greedy._maybe_near
    real_prime = greedy._prime_objectives

    def bound(state: GameState, fighter: Fighter) -> float:
        taken["bounds"] += 1
        return real_bound(state, fighter)

    def near(state: GameState, fighter_id: str, parts: list[Any]) -> list[Any]:
        kept = real_near(state, fighter_id, parts)
        taken["left out"] += len(parts) - len(kept)
        return kept

    def prime(state: GameState, player: int, points: Sequence[tuple[float, float]]) -> None:
        taken["primed"] += len(points)
        real_prime(state, player, points)

    _fresh_caches()
    with monkeypatch.context() as m:
        m.setattr(greedy, "_best_shot_bound", bound)
        m.setattr(greedy, "_maybe_near", near)
        m.setattr(greedy, "_prime_objectives", prime)
        quick = play_game(config).events
    assert taken["bounds"] > 0 and taken["left out"] > 0
    if scenario == "execution":  # (with victory conditions the goal is the aims)
        assert taken["primed"] > 0
    with monkeypatch.context() as m:
        m.setattr(assess, "CHECK_KEPT", True)
        _fresh_caches()
        assert play_game(config).events == quick
    with monkeypatch.context() as m:
        _without_shortcuts(m)
        _fresh_caches()
        assert play_game(config).events == quick


@settings(max_examples=60, deadline=None)
@given(
    which=st.integers(min_value=0, max_value=200),
    shift=st.sampled_from([0.0, 1e-12, -1e-12, 1e-10, -1e-10, 0.5, -0.5, 5.0, -5.0]),
)
def test_not_surely_apart_is_the_pair_by_pair_test(which: int, shift: float) -> None:
    """For a fighter of a game and every other fighter, at reaches on and about the bound
    of one pair, the bulk test keeps exactly
    the fighters the pair-by-pair test keeps, in order."""
    state = _state()
    here = field_of(state)
    in_play = [f for f in state.fighters if f.in_play]
    me = in_play[which % len(in_play)]
    others = [f for f in in_play if f is not me]
    one = others[which % len(others)]
    a, b = here.base(me.id), here.base(one.id)
    slack = assess._outer_radius(a) + assess._outer_radius(b) + 1e-6
    cm = math.hypot(a.x - b.x, a.y - b.y) - slack + shift  # one pair right on the bound
    assert assess.not_surely_apart(state, me.id, others, cm) == _scalar_apart(
        state, me.id, others, cm
    )


_STATES: list[GameState] = []


def _state() -> GameState:
    if not _STATES:
        _STATES.append(_playing(0))
    return _STATES[0]


def test_a_broken_bulk_bound_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: centres whose radii are left out (a bound too tight) keep fewer
    fighters than the pair-by-pair test, and ``CHECK_KEPT`` finds it."""
    state = _state()
    real = assess.centres

    def shrunk(here: Any) -> assess.Centres:
        return {i: (x, y, 0.0) for i, (x, y, _) in real(here).items()}

    me = next(f for f in state.fighters if f.in_play)
    others = [f for f in state.fighters if f.in_play and f is not me]
    here = field_of(state)
    gaps = sorted(
        math.hypot(here.base(e.id).x - here.base(me.id).x, here.base(e.id).y - here.base(me.id).y)
        for e in others
    )
    cm = gaps[len(gaps) // 2] - 0.1  # the middle fighter just within the radii's reach
    monkeypatch.setattr(assess, "centres", shrunk)
    assert assess.not_surely_apart(state, me.id, others, cm) != _scalar_apart(
        state, me.id, others, cm
    )
    monkeypatch.setattr(assess, "CHECK_KEPT", True)
    with pytest.raises(AssertionError):
        assess.not_surely_apart(state, me.id, others, cm)


def test_broken_shot_bounds_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks of the shots left unlooked-at can fail: with every shot's bound (or the
    best shot's) taken as 0.0, a game with ``CHECK_KEPT`` meets a shot whose value reaches
    what was asked, and the check says so."""
    config = GameConfig(seed=0)
    with monkeypatch.context() as m:
        m.setattr(assess, "CHECK_KEPT", True)
        m.setattr(greedy, "shot_value_bound", lambda *a, **k: 0.0)
        _fresh_caches()
        with pytest.raises(AssertionError):
            play_game(config)
    with monkeypatch.context() as m:
        m.setattr(assess, "CHECK_KEPT", True)
        m.setattr(greedy, "_best_shot_bound", lambda state, fighter: -1.0)
        _fresh_caches()
        with pytest.raises(AssertionError):
            play_game(config)
    _fresh_caches()


def test_wrong_primed_distances_and_status_rows_are_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An objective distance primed wrong and a status row kept wrong are what is read
    unchecked, and are found different with ``CHECK_KEPT``."""
    state = _state()
    fighter = next(f for f in state.fighters if f.in_play)
    greedy._prime_objectives(state, fighter.player, [(fighter.x, fighter.y)])
    primed = state.scratch[f"objective-at:{fighter.player}"]
    right = primed[(fighter.x, fighter.y)]
    assert right is not None
    primed[(fighter.x, fighter.y)] = right + 1.0
    row = assess._status_row(state, fighter)
    assess._ROWS[2][id(fighter)] = (fighter, (*row[:-1], row[-1] + 1.0))
    try:
        assert greedy._objective_distance(state, fighter.player, fighter.x, fighter.y) == right + 1
        assert assess._status_row(state, fighter)[-1] == row[-1] + 1.0
        monkeypatch.setattr(assess, "CHECK_KEPT", True)
        with pytest.raises(AssertionError):
            greedy._objective_distance(state, fighter.player, fighter.x, fighter.y)
        with pytest.raises(AssertionError):
            assess._status_row(state, fighter)
    finally:
        primed[(fighter.x, fighter.y)] = right
        _fresh_caches()
