"""The garbage collector while a game plays (engine/core/collector.py)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator, Sequence

import pytest

from confrontation.engine.core.collector import YOUNG, fewer_collections
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState
from confrontation.engine.step import Agent
from confrontation.sim.game import GameConfig, play_game


@pytest.fixture
def default_threshold() -> Iterator[tuple[int, int, int]]:
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*saved)


class Watching:
    """In front of an agent: notes the collector's threshold at each question."""

    def __init__(self, inner: Agent, seen: set[tuple[int, int, int]]) -> None:
        self.inner, self.seen = inner, seen

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        self.seen.add(gc.get_threshold())
        return self.inner.choose(state, question, legal)


def test_a_game_plays_with_fewer_collections_and_puts_the_threshold_back(
    default_threshold: tuple[int, int, int],
) -> None:
    seen: set[tuple[int, int, int]] = set()
    config = GameConfig(agents=("random", "random"), seed=3, rounds=1)
    play_game(config, wrap=lambda p, agent: Watching(agent, seen))
    assert seen == {(YOUNG, 10, 10)}
    assert gc.get_threshold() == default_threshold


def test_nested_and_threaded_games_restore_the_threshold_once_the_last_ends(
    default_threshold: tuple[int, int, int],
) -> None:
    inside = threading.Event()
    release = threading.Event()

    def other_game() -> None:
        with fewer_collections():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=other_game)
    with fewer_collections():
        thread.start()
        assert inside.wait(5)
        with fewer_collections():
            assert gc.get_threshold() == (YOUNG, 10, 10)
    assert gc.get_threshold() == (YOUNG, 10, 10)  # the thread's game still plays
    release.set()
    thread.join(5)
    assert gc.get_threshold() == default_threshold


def test_an_error_inside_a_game_puts_the_threshold_back(
    default_threshold: tuple[int, int, int],
) -> None:
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("boom")
    assert gc.get_threshold() == default_threshold


def test_a_higher_or_switched_off_threshold_is_left_alone() -> None:
    saved = gc.get_threshold()
    try:
        for chosen in ((0, 10, 10), (100_000, 5, 5)):
            gc.set_threshold(*chosen)
            with fewer_collections():
                assert gc.get_threshold() == chosen
            assert gc.get_threshold() == chosen
    finally:
        gc.set_threshold(*saved)
