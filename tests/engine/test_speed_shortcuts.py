"""The speed shortcuts of issue 22 change no game: seeded games played with each shortcut
turned off (the full computation every time) give the same events."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from confrontation.agents import assess, greedy
from confrontation.agents.random import RandomAgent
from confrontation.engine.actions import movement
from confrontation.engine.actions.shooting import ShootingProvider
from confrontation.engine.combat import pursuit
from confrontation.engine.core.questions import Announce, AnnouncementsDone, Choice
from confrontation.engine.core.state import Activation, GameState
from confrontation.engine.table import field as table_field
from confrontation.engine.table.field import Field
from confrontation.geometry import field as geometry_field
from confrontation.sim.game import GameConfig, play_game

_announce_choices = movement.announce_choices


def _events(agents: tuple[str, str], seed: int) -> list[str]:
    return [repr(e) for e in play_game(GameConfig(agents=agents, seed=seed)).events]


def _eager_announce(self: greedy.GreedyAgent, state: GameState, legal: Sequence[Choice]) -> Choice:
    """The greedy announcement as it was: every option's value, paths included."""
    options: list[tuple[float, Choice]] = []
    for c in legal:
        if not isinstance(c, Announce):
            continue
        score = greedy.announce_value(state, c)
        if score is not None:
            options.append((score, c))
    if not options:
        return AnnouncementsDone() if AnnouncementsDone() in legal else legal[0]
    table = {c: v for v, c in options}
    return self.best([c for _, c in options], lambda c: table[c])


def _eager_choices(state: GameState, activation: Activation) -> list[Choice]:
    """The announcements as they were: every "charge or engage?" worked out at once."""
    return list(_announce_choices(state, activation))


def _no_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    never = lambda *args: False  # noqa: E731
    monkeypatch.setattr(movement, "announce_choices", _eager_choices)
    lazy_shots = ShootingProvider.choices
    monkeypatch.setattr(
        ShootingProvider, "choices", lambda self, s, a: list(lazy_shots(self, s, a))
    )
    monkeypatch.setattr(greedy.GreedyAgent, "judges_choices", False)
    monkeypatch.setattr(RandomAgent, "judges_choices", False)
    monkeypatch.setattr(greedy, "fighter_eagerness", greedy._fighter_eagerness)
    monkeypatch.setattr(movement, "BOUNDED_ASSAULT", False)
    monkeypatch.setattr(greedy, "_best_shot", greedy._best_shot_now)
    monkeypatch.setattr(assess, "_shot_values", assess._shot_values_now)
    monkeypatch.setattr(greedy.GreedyAgent, "_announce", _eager_announce)
    monkeypatch.setattr(pursuit, "beyond", never)
    monkeypatch.setattr(greedy, "beyond", never)
    monkeypatch.setattr(Field, "sees", lambda self, a, b: self.sight(a, b).any)
    geometry_field._SEES.clear()
    monkeypatch.setattr(
        pursuit,
        "iter_destinations",
        lambda *args, batch=None, **kw: iter(table_field.destinations(*args, **kw)),
    )


@pytest.mark.parametrize(
    ("agents", "seed"),
    [(("random", "random"), 3), (("greedy", "greedy"), 2), (("greedy", "greedy"), 5)],
)
def test_games_are_the_same_without_the_shortcuts(
    monkeypatch: pytest.MonkeyPatch, agents: tuple[str, str], seed: int
) -> None:
    fast = _events(agents, seed)
    with monkeypatch.context() as patch:
        _no_shortcuts(patch)
        slow = _events(agents, seed)
    assert fast == slow
