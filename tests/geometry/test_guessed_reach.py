"""The twelfth round's guessed reach (issue 22, randstep): an unbounded path search first
searches within a guessed reach (``GUESS_STRETCH`` x the straight distance +
``GUESS_MARGIN``, only the corners that may lie on a way that short) and takes a path found
well within it; else it searches among all corners. The answers must be those of the search
among all corners, whatever the guess (too short, tight, loose)."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from test_exact_paths import TABLE, battle

from confrontation.geometry import Base, paths

Drawn = tuple[Base, tuple[float, float] | Base, list[shapely.Geometry]]


def _answer(drawn: Drawn, guess: tuple[float, float] | None) -> object:
    """The search's answer with the guess (stretch, margin), or without any (None)."""
    mover, goal, obstacles = drawn
    with pytest.MonkeyPatch.context() as mp:
        if guess is None:
            mp.setattr(paths, "GUESS_CORNERS", 10**9)
        else:
            mp.setattr(paths, "GUESS_STRETCH", guess[0])
            mp.setattr(paths, "GUESS_MARGIN", guess[1])
        paths.path_search.cache_clear()
        path = paths.shortest_path(mover.sight, goal, obstacles, mover.width, table=TABLE.area)
    paths.path_search.cache_clear()
    return None if path is None else path.points


@pytest.mark.rule("V-A")
@settings(max_examples=80, deadline=None)
@given(
    battle(),
    st.sampled_from([(0.5, 0.0), (1.0, 0.0), (1.0, 0.5), (1.1, 1.0), (1.5, 2.0), (3.0, 5.0)]),
)
def test_a_guessed_reach_gives_the_answer_of_the_whole_search(
    drawn: Drawn, guess: tuple[float, float]
) -> None:
    assert _answer(drawn, guess) == _answer(drawn, None)


@pytest.mark.rule("V-A")
def test_a_guess_too_short_falls_back_on_the_whole_search() -> None:
    """A wall across the straight way: a guess of the straight distance finds nothing within
    it, and the answer (round the wall) is the whole search's."""
    wall = shapely.box(50.0, 10.0, 56.0, 50.0)
    mover = Base.of("normal", "square", 20.0, 30.0, 0.0)
    drawn: Drawn = (mover, (90.0, 30.0), [wall])
    whole = _answer(drawn, None)
    assert whole is not None and len(whole) > 2  # type: ignore[arg-type]
    assert _answer(drawn, (1.0, 0.0)) == whole
    assert _answer(drawn, (1.0, 0.0)) == _answer(drawn, (1.5, 2.0))


def test_the_guess_is_used() -> None:
    """The first search is bounded by the guess (the far corners left out: fewer given to
    the A*), and the second is not asked when the first finds the path."""
    wall = shapely.box(50.0, 25.0, 56.0, 35.0)
    far = [shapely.box(104.0, y, 110.0, y + 4.0) for y in (4.0, 14.0, 42.0, 52.0)]
    mover = Base.of("normal", "square", 20.0, 30.0, 0.0)

    def given_to_the_astar(guess: bool) -> list[tuple[float, int]]:
        seen: list[tuple[float, int]] = []
        astar = paths._astar

        def spy(q: paths._Question, corners: object, heur: object) -> paths.Path | None:
            seen.append((q.bound, len(corners)))  # type: ignore[arg-type]
            return astar(q, corners, heur)  # type: ignore[arg-type]

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(paths, "_astar", spy)
            if not guess:
                mp.setattr(paths, "GUESS_CORNERS", 10**9)
            paths.path_search.cache_clear()
            path = paths.shortest_path(mover.sight, (90.0, 30.0), [wall, *far], mover.width)
        paths.path_search.cache_clear()
        assert path is not None
        return seen

    guessed, whole = given_to_the_astar(True), given_to_the_astar(False)
    assert len(guessed) == 1 and len(whole) == 1
    assert guessed[0][0] < math.inf and whole[0][0] == math.inf
    assert guessed[0][1] < whole[0][1]
