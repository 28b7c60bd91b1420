"""The store with games of three players (XX-F): per-player lists as long as the game has
players, and the two-player rows older stores hold read as before (no migration)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from confrontation.sim.saved import outcome_of, setup_of
from confrontation.store import FINISHED, Outcome, open_store
from players_support import AGENTS3, NAMES3, config3, finished3


@pytest.mark.rule("XX-F")
def test_a_three_player_game_round_trips(tmp_path: Path) -> None:
    """XX-F: every player's agent, army, VP and losses are kept."""
    result = finished3((1, 3, 0), 1, killed=2)
    setup = setup_of(config3())
    store = open_store(str(tmp_path / "games.db"))
    saved = store.save(setup, outcome_of(result), result.events)
    running = store.begin(setup)
    for event in result.events:
        store.append(running, event)
    store.finish(running, outcome_of(result))

    again = open_store(str(tmp_path / "games.db"))
    for game_id in (saved, running):
        game = again.load(game_id)
        assert game.status == FINISHED
        assert game.setup == setup
        assert game.events == list(result.events)
        summary = game.summary
        assert summary.agents == AGENTS3 and summary.armies == NAMES3
        assert summary.outcome == outcome_of(result)
        assert summary.outcome.vp == (1, 3, 0) and len(summary.outcome.losses) == 3
    assert [g.armies for g in again.list()] == [NAMES3, NAMES3]


def test_a_two_player_row_as_older_stores_wrote_it_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    open_store(str(path)).close()  # the tables, as every version has created them
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO games (id, created, updated, scenario, seed, agents, armies, options, "
            "status, winner, vp, losses, rounds, events_count) VALUES (1, '2024-01-02 03:04:05',"
            " '2024-01-02 03:04:05', 'Conquest', 7, ?, ?, '{}', 'finished', 0, '[3, 1]',"
            " '[0, 40]', 6, 0)",
            (
                json.dumps(["greedy", "random"]),
                json.dumps([{"name": "Lions", "file": None, "source": None}, {"name": "Wolves"}]),
            ),
        )
    (summary,) = open_store(str(path)).list()
    assert summary.agents == ("greedy", "random") and summary.armies == ("Lions", "Wolves")
    assert summary.outcome == Outcome(0, (3, 1), (0, 40), 6)
