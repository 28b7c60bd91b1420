"""The greedy agent's answers kept across states (``agents.assess`` :func:`keep`: eagerness
and best shot; the shot values kept per pair of fighters; the worths; the threats' duels
kept per state) are the answers worked out afresh: whole games played with
every kept answer checked against the uncached computation, and the keys shown to follow
what the answers read."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from confrontation.agents import assess, greedy
from confrontation.engine.core.state import GameState, Phase
from confrontation.engine.core.views import redact
from confrontation.engine.step import game_roller, question, roll, start, step
from confrontation.engine.table.field import field_of
from confrontation.sim.game import GameConfig, initial_state, make_players, play_game


def _counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, counts: Counter[str]) -> None:
    real: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


@pytest.mark.parametrize(("scenario", "seed"), [("standard", 1), ("execution", 2), ("the-hill", 3)])
def test_kept_answers_are_the_fresh_ones_over_whole_games(
    monkeypatch: pytest.MonkeyPatch, scenario: str, seed: int
) -> None:
    """With ``CHECK_KEPT`` every kept eagerness, best shot, shot value, worth and threat duel
    is worked out again and compared (assertions in ``keep``, ``_shot_values``, ``worth``
    and ``threat_at``); the game is the one played
    without the check, and the kept answers were used (fewer fresh computations than
    questions), so the comparison is not empty."""
    config = GameConfig(scenario=scenario, seed=seed)
    asked: Counter[str] = Counter()
    for module, name in [
        (greedy, "eagerness"),
        (greedy, "_card_eagerness"),
        (greedy, "fighter_eagerness"),
        (greedy, "_best_shot"),
        (assess, "_shot_values"),
        (greedy, "_fighter_eagerness"),
        (greedy, "_best_shot_now"),
        (assess, "_shot_values_now"),
        (assess, "_pair_shot_values"),
        (assess, "duel"),
        (greedy, "duel"),
        (assess, "_duel_now"),
    ]:
        _counted(monkeypatch, module, name, asked)
    assess._KEPT.clear()
    assess._PAIRS[:] = [None, None, None, {}]
    assess._DUELS.clear()
    plain = play_game(config).events
    # the shot values kept per status and the duels kept per pair of blows were used
    assert 0 < asked["_pair_shot_values"] < asked["_shot_values"]
    assert 0 < asked["_duel_now"] < asked["duel"]
    # the kept answers were used: fewer fresh computations than questions
    assert 0 < asked["_card_eagerness"] < asked["eagerness"]
    assert 0 < asked["_fighter_eagerness"] <= asked["fighter_eagerness"]
    assert 0 < asked["_shot_values_now"] < asked["_shot_values"]
    assert asked["_best_shot_now"] <= asked["_best_shot"]
    monkeypatch.setattr(assess, "CHECK_KEPT", True)
    assess._KEPT.clear()
    assess._PAIRS[:] = [None, None, None, {}]
    assess._WORTHS[:] = [None, None, {}]
    assess._DUELS.clear()
    assert play_game(config).events == plain


def _playing(seed: int) -> GameState:
    """The first state of round 1's activation phase of a greedy game (fighters placed)."""
    config = GameConfig(seed=seed)
    players = make_players(config)
    state, _ = start(initial_state(config)[0])
    roller = game_roller(state)
    while state.round < 1 or state.phase is not Phase.ACTIVATION:
        pending = state.pending
        assert pending is not None
        if pending.player is None:
            state, _ = roll(state, roller)
            continue
        asked = question(state)
        assert asked is not None
        choice = players[pending.player].choose(redact(state, pending.player), asked, asked.choices)
        state, _ = step(state, choice)
    return state


def test_the_status_key_follows_what_the_answers_read() -> None:
    """Equal for a state that differs by an announcement flag (``activated``), different
    when a fighter is wounded, Stunned, in cover or moved."""
    state = _playing(0)
    key = assess.status_key(state)
    one = next(f for f in state.fighters if f.in_play)

    def changed(**fields: Any) -> tuple[Any, ...]:
        others = tuple(dataclasses.replace(f, **fields) if f is one else f for f in state.fighters)
        return assess.status_key(dataclasses.replace(state, fighters=others))

    assert changed(activated=not one.activated) == key
    assert changed(wounds=one.wounds + 1) != key
    assert changed(stunned=not one.stunned) != key
    assert changed(cover=not one.cover) != key
    moved = changed(x=one.x + 0.5)
    assert moved[0] is not field_of(state)


def test_a_wrong_kept_answer_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a kept eagerness altered by hand is found different."""
    state = _playing(1)
    fighter = next(f for f in state.fighters if f.in_play)
    greedy.fighter_eagerness(state, fighter)
    assess.kept(state)[("eager", fighter.id)] += 1.0
    monkeypatch.setattr(assess, "CHECK_KEPT", True)
    with pytest.raises(AssertionError):
        greedy.fighter_eagerness(state, fighter)


def test_wrong_kept_card_eagerness_status_rows_and_fighters_in_play_are_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The checks of a card's eagerness kept per status, of the status rows kept for a
    tuple of fighter records and of the fighters in play kept for it can fail: each
    altered by hand is read unchecked, and found different with ``CHECK_KEPT``."""
    state = _playing(1)
    card = next(c for c in state.cards_of(0) if c.fighters)
    one = next(f for f in state.fighters if f.in_play)
    try:
        right = greedy.eagerness(state, card.id)
        assess.kept(state)[("card-eager", card.fighters)] = right + 1.0
        assert greedy.eagerness(state, card.id) == right + 1.0
        rows = assess._status_rows(state)
        assess._LAST_ROWS[3] = rows[1:]
        assert assess._status_rows(state) == rows[1:]
        foes, friends = assess._in_play(state, one.player)
        assess._IN_PLAY[1][one.player] = (friends, foes)
        assert assess.enemies_in_play(state, one.player) == friends
        monkeypatch.setattr(assess, "CHECK_KEPT", True)
        with pytest.raises(AssertionError):
            greedy.eagerness(state, card.id)
        with pytest.raises(AssertionError):
            assess._status_rows(state)
        with pytest.raises(AssertionError):
            assess.enemies_in_play(state, one.player)
    finally:  # the altered answers must not reach other tests
        assess._KEPT.clear()
        assess._LAST_ROWS[:] = [None, None, None, ()]
        assess._IN_PLAY[:] = [None, {}]


def test_wrong_kept_duels_gaps_and_shot_values_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks of the duels kept per pair of blows, the gaps kept per pair of bases and
    the shot values kept per status can fail: each altered by hand is found different."""
    state = _playing(1)
    here = field_of(state)
    mine = next(f for f in state.fighters if f.in_play and state.profile(f.profile).shooter)
    foe = next(f for f in state.fighters if f.in_play and f.player != mine.player)
    one, other = assess.blow_of(state, mine), assess.blow_of(state, foe)
    try:
        right = assess.duel(one, other)
        assess._DUELS[(one, other)] = right + 1.0
        gap = assess.gap(state, mine.id, foe.id)
        assess._pair_answers(state)[("gap", here.base(mine.id), here.base(foe.id))] = gap + 1.0
        shots = assess.shot_value_bound(state, mine.id, foe.id, unmoving=True)
        assess.kept(state)[("shots", mine.id, foe.id, True, (False, True))] = [shots + 1.0] * 2
        # unchecked, the altered answers are what is read: the keys are the ones asked
        assert assess.duel(one, other) == right + 1.0
        assert assess.gap(state, mine.id, foe.id) == gap + 1.0
        assert assess.shot_value_bound(state, mine.id, foe.id, unmoving=True) == shots + 1.0
        monkeypatch.setattr(assess, "CHECK_KEPT", True)
        with pytest.raises(AssertionError):
            assess.duel(one, other)
        with pytest.raises(AssertionError):
            assess.gap(state, mine.id, foe.id)
        with pytest.raises(AssertionError):
            assess.shot_value_bound(state, mine.id, foe.id, unmoving=True)
    finally:  # the altered answers must not reach other tests
        assess._DUELS.clear()
        assess._KEPT.clear()
        assess._PAIRS[:] = [None, None, None, {}]
