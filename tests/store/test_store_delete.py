"""`Store.delete`: a game forgotten with its whole record, the others untouched."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from confrontation.store import StoreError, open_store
from confrontation.store.schema import EventRow
from games_support import outcome, play, setup


def test_a_deleted_game_is_gone_with_its_record_and_the_others_stay(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "games.db"))
    final, log = play(1)
    kept = store.save(setup(1), outcome(final), log)
    gone = store.save(setup(2), outcome(final), log)
    running = store.begin(setup(3))
    for event in log[:5]:
        store.append(running, event)
    store.delete(gone)
    store.delete(running)  # its buffered events are dropped too
    assert [g.id for g in store.list()] == [kept]
    with pytest.raises(StoreError, match=f"no game {gone}"):
        store.load(gone)
    with store.engine.connect() as connection:
        rows = connection.scalar(select(func.count()).select_from(EventRow))
    assert rows == len(log)  # only the kept game's record is left
    assert store.load(kept).events == log
    with pytest.raises(StoreError, match=f"no game {gone}"):
        store.delete(gone)
    with pytest.raises(StoreError, match="not being recorded"):
        store.append(running, log[5])
    store.close()


def test_a_deleted_games_id_is_never_given_again(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "games.db"))
    final, log = play(1)
    first = store.save(setup(1), outcome(final), log)
    last = store.save(setup(2), outcome(final), log)
    store.delete(last)  # the highest id: plain SQLite rowids would hand it out again
    again = store.save(setup(3), outcome(final), log)
    assert again > last > first
    store.close()
