"""The speed shortcuts of issue 22 change no game: seeded games played with each shortcut
turned off (the full computation every time) give the same events."""

from __future__ import annotations

import pytest

from confrontation.agents import greedy
from confrontation.engine.combat import pursuit
from confrontation.engine.table.field import Field
from confrontation.geometry import field as geometry_field
from confrontation.sim.game import GameConfig, play_game


def _events(agents: tuple[str, str], seed: int) -> list[str]:
    return [repr(e) for e in play_game(GameConfig(agents=agents, seed=seed)).events]


def _no_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    never = lambda *args: False  # noqa: E731
    monkeypatch.setattr(pursuit, "beyond", never)
    monkeypatch.setattr(greedy, "beyond", never)
    monkeypatch.setattr(Field, "sees", lambda self, a, b: self.sight(a, b).any)
    geometry_field._SEES.clear()


@pytest.mark.parametrize(("agents", "seed"), [(("random", "random"), 3), (("greedy", "greedy"), 2)])
def test_games_are_the_same_without_the_shortcuts(
    monkeypatch: pytest.MonkeyPatch, agents: tuple[str, str], seed: int
) -> None:
    fast = _events(agents, seed)
    with monkeypatch.context() as patch:
        _no_shortcuts(patch)
        slow = _events(agents, seed)
    assert fast == slow
