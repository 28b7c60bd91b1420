"""An assault's path searched within the potential first (``movement._assault_path``, issue 22
twelfth round) is the path of the unbounded search whenever the assault can reach: every
assault of whole games (greedy and random, 250 AP) compared with a fresh unbounded search."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter

import pytest

from confrontation.engine.actions import movement
from confrontation.engine.actions.shared import action_of
from confrontation.engine.core.state import GameState
from confrontation.engine.table.field import Field
from confrontation.geometry.paths import Path
from confrontation.sim.game import GameConfig, play_game


@pytest.mark.rule("V-B-3")
@pytest.mark.parametrize(("agents", "seed"), [(("greedy", "greedy"), 0), (("random", "random"), 3)])
def test_the_bounded_assault_path_is_the_unbounded_one(
    monkeypatch: pytest.MonkeyPatch, agents: tuple[str, str], seed: int
) -> None:
    seen: Counter[str] = Counter()
    real = movement._assault_path

    def checked(state: GameState, here: Field, target: str) -> Path | None:
        path = real(state, here, target)
        # the same question on a copy of the field that holds no path answer: unbounded
        fresh = dataclasses.replace(here, _paths={}, _beyond={}, _crossing={})
        full = movement._path(state, fresh, target)
        potential = action_of(state).potential
        if full is not None and full.length <= potential + 1e-6:
            seen["within"] += 1
            assert path is not None and path.points == full.points, (path, full)
        else:  # falls short: the unbounded path, measured and followed
            seen["short"] += 1
            assert (path is None) == (full is None)
            assert path is None or full is None or math.isclose(path.length, full.length)
        return path

    monkeypatch.setattr(movement, "_assault_path", checked)
    checked_events = play_game(GameConfig(agents=agents, seed=seed)).events
    assert seen["within"] > 0, seen
    monkeypatch.setattr(movement, "_assault_path", real)
    monkeypatch.setattr(movement, "BOUNDED_ASSAULT", False)
    assert play_game(GameConfig(agents=agents, seed=seed)).events == checked_events
