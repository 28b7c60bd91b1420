"""The server under load (marked ``load``: `make test-load`): `confrontation serve` as a real
uvicorn process, 50 AI-against-AI games started at once through the HTTP API, on SQLite and
on PostgreSQL. Every game must end with no error and lose no event: its record, as the
server gives it and as the store keeps it, replays event by event (``engine.replay``) to its
end and to its stored result. The timings are printed (docs/performance.md)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import postgres, serve

from confrontation.engine.record import read_log, replay
from confrontation.engine.step import is_over
from confrontation.store import FINISHED, open_store

pytestmark = pytest.mark.load

GAMES = 50
ROUNDS = 2
ARMIES = [{"id": "akkylannie-crusade"}, {"id": "bran-o-kor-horde"}]


def start(base: str, seed: int) -> int:
    body = {"armies": ARMIES, "seats": ["random", "random"], "seed": seed, "rounds": ROUNDS}
    response = httpx2.post(f"{base}/api/games", json=body, timeout=120)
    assert response.status_code == 201, response.text
    game_id: int = response.json()["id"]
    return game_id


def load(db: str, log: Path) -> dict[str, float]:
    """Play the 50 games on a server over ``db``; check them; the timings."""
    timings: dict[str, float] = {}
    with serve(db, log) as base:
        began = time.monotonic()
        with ThreadPoolExecutor(max_workers=GAMES) as pool:
            ids = list(pool.map(lambda seed: start(base, seed), range(GAMES)))
        timings["started"] = time.monotonic() - began
        assert len(set(ids)) == GAMES
        deadline = time.monotonic() + 240
        while True:
            listed = {g["id"]: g for g in httpx2.get(f"{base}/api/games", timeout=60).json()}
            if all(listed[i]["status"] == FINISHED for i in ids):
                break
            assert time.monotonic() < deadline, "the games did not all end in time"
            time.sleep(1)
        timings["finished"] = time.monotonic() - began
        records: dict[int, str] = {}
        for game_id in ids:
            view: dict[str, Any] = httpx2.get(f"{base}/api/games/{game_id}", timeout=60).json()
            assert view["status"] == "over" and view["error"] is None, view["error"]
            assert view["round"] == ROUNDS
            got = httpx2.get(f"{base}/api/games/{game_id}/record.jsonl", timeout=60)
            assert got.status_code == 200
            records[game_id] = got.text
            assert listed[game_id]["events"] == len(got.text.splitlines())
    began = time.monotonic()
    with open_store(db) as store:
        for game_id in ids:
            stored = store.load(game_id)
            assert stored.status == FINISHED and stored.summary.events == len(stored.events)
            assert stored.events == read_log(records[game_id].splitlines())  # none lost
            final = replay(stored.events)  # each event checked against the engine's
            assert is_over(final) and final.round == ROUNDS
            outcome = stored.summary.outcome
            assert outcome is not None
            assert (outcome.winner, outcome.vp) == (final.winner, tuple(final.scores))
    timings["checked"] = time.monotonic() - began
    server_log = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in server_log and "ERROR" not in server_log, server_log[-3000:]
    return timings


def report(name: str, timings: dict[str, float]) -> None:
    print(
        f"\n{name}: {GAMES} games of {ROUNDS} rounds started in {timings['started']:.1f} s, "
        f"all over after {timings['finished']:.1f} s, records checked in "
        f"{timings['checked']:.1f} s"
    )


def test_fifty_concurrent_games_on_sqlite(tmp_path: Path) -> None:
    report("SQLite", load(str(tmp_path / "games.db"), tmp_path / "server.log"))


def test_fifty_concurrent_games_on_postgresql(tmp_path: Path) -> None:
    with postgres() as url:
        report("PostgreSQL", load(url, tmp_path / "server.log"))
