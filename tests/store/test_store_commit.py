"""`Store.commit`: every buffered event committed at once (a game waiting for a person)."""

from __future__ import annotations

from pathlib import Path

from confrontation.engine.step import start
from confrontation.sim.game import GameConfig, initial_state
from confrontation.store import ArmyCopy, GameSetup, open_store


def test_commit_writes_every_buffered_event(tmp_path: Path) -> None:
    url = str(tmp_path / "games.db")
    _, events = start(initial_state(GameConfig(seed=2))[0])
    setup = GameSetup("conquest", 2, ("human", "greedy"), (ArmyCopy("a"), ArmyCopy("b")))
    store = open_store(url)
    game_id = store.begin(setup)
    for event in events:
        store.append(game_id, event)
    with open_store(url) as other:
        assert other.load(game_id).events == []  # buffered: a step is not known to be whole
    store.commit(game_id)
    with open_store(url) as other:
        assert other.load(game_id).events == events
    store.close()
