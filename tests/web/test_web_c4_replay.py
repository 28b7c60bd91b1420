"""The round-by-round replay of a C4 game (docs/web.md "C4 games"): each round's frame is the
state at its start rebuilt by ``c4.step.replay`` of the record's prefix (checked here against
the stored record independently), its SVG and that round's narration; each seat sees only its
own view while a person plays and the game is not over; a finished game shows everything."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from confrontation.c4.events import C4RoundStarted
from confrontation.c4.picture import svg
from confrontation.c4.step import replay
from confrontation.c4.views import redact
from confrontation.store import open_store
from confrontation.web.app import create_app

COMPANIES = [{"id": "griffin-vanguard"}, {"id": "lion-host"}]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as test_client:
        yield test_client


def new_c4(client: TestClient, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"rules": "c4", "armies": COMPANIES, "seats": seats, "seed": 5, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def settle(client: TestClient, game: int, seats: list[str]) -> Any:
    deadline = time.monotonic() + 240
    while True:
        view = client.get(f"/api/games/{game}", params={"seat": seats}).json()
        if view["status"] in ("your-turn", "waiting", "over", "stopped"):
            return view
        assert time.monotonic() < deadline, view["status"]
        time.sleep(0.05)


def stored_events(db: str, game: int) -> list[Any]:
    store = open_store(db)
    try:
        return list(store.load(game).events)
    finally:
        store.close()


def replay_of(client: TestClient, game: int, seats: list[str]) -> dict[str, Any]:
    got = client.get(f"/api/games/{game}/replay", params={"seat": seats})
    assert got.status_code == 200, got.text
    body: dict[str, Any] = got.json()
    return body


def test_each_round_is_the_state_at_its_start_rebuilt_from_the_record(
    client: TestClient, db: str
) -> None:
    made = new_c4(client, ["greedy", "random"], rounds=3, seed=3)
    game = made["id"]
    assert settle(client, game, [])["status"] == "over"
    body = replay_of(client, game, [])
    events = stored_events(db, game)
    starts = [(i, e.round) for i, e in enumerate(events) if isinstance(e, C4RoundStarted)]
    frames = body["frames"]
    assert body["over"] and len(frames) == len(starts) + 1 == 4
    for frame, (index, number) in zip(frames, starts, strict=False):
        state = replay(events[:index])
        assert state.round == number == frame["round"]
        assert frame["label"] == f"start of round {number}"
        assert frame["svg"] == svg(state)  # a finished game: everything shown
        assert frame["log"][0] == f"Round {number} begins."
        assert not any(line.startswith("Round") for line in frame["log"][1:])
    assert frames[1]["svg"] != frames[0]["svg"]  # the units moved in round 1
    last = frames[-1]
    assert last["label"] == "the end (round 3)" and last["svg"] == svg(replay(events))
    assert last["log"][0].startswith("The game is over")
    table = client.get(f"/api/games/{game}/board.svg", params={"round": 2})
    assert table.status_code == 200 and table.text == frames[1]["svg"]
    missing = client.get(f"/api/games/{game}/board.svg", params={"round": 9})
    assert missing.status_code == 404 and "no round 9" in missing.json()["detail"]
    page = client.get(f"/games/{game}/replay")
    assert page.status_code == 200 and "start of round 2" in page.text
    assert "everything shown: the game is over" in page.text


def test_each_seat_replays_only_its_own_view_until_the_game_is_over(
    client: TestClient, db: str
) -> None:
    """General mode: the sequences are face down (# C4 Tactical Phase)."""
    made = new_c4(client, ["person", "person"], mode="general")
    game = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    answered = 0
    while answered < 40:  # into round 2
        views = [settle(client, game, [t]) for t in tokens]
        if views[0]["round"] >= 2 and views[0]["phase"] != "tactical":
            break
        who = next(i for i, v in enumerate(views) if v["status"] == "your-turn")
        got = client.post(
            f"/api/games/{game}/answer",
            params={"seat": tokens[who]},
            json={"option": 0, "turn": views[who]["turn"]},
        )
        assert got.status_code == 200, got.text
        answered += 1
    events = stored_events(db, game)
    starts = [i for i, e in enumerate(events) if isinstance(e, C4RoundStarted)]
    assert len(starts) >= 2
    for me, token in enumerate(tokens):
        other = 1 - me
        body = replay_of(client, game, [token])
        text = json.dumps(body)
        assert f"Player {me + 1}'s cards" in text and f"Player {other + 1}'s cards" not in text
        second = replay(events[: starts[1]])
        assert body["frames"][1]["svg"] == svg(redact(second, me))
        page = client.get(f"/games/{game}/replay", params={"seat": token}).text
        assert f"Player {other + 1}'s cards" not in page and "as your seat saw it" in page
    watcher = json.dumps(replay_of(client, game, []))
    assert "cards:" not in watcher
    both = json.dumps(replay_of(client, game, tokens))
    assert "Player 1's cards" in both and "Player 2's cards" in both
    refused = client.get(f"/api/games/{game}/replay", params={"seat": "not-a-seat"})
    assert refused.status_code == 403


def test_an_interrupted_game_replays_without_being_taken_up(db: str) -> None:
    with TestClient(create_app(db)) as first:
        made = new_c4(first, ["person", "greedy"])
        game, token = made["id"], made["seats"][0]["token"]
        settle(first, game, [token])
    with TestClient(create_app(db)) as second:
        body = replay_of(second, game, [token])
        assert not body["over"] and body["frames"][-1]["label"].startswith("now (round")
        listed = next(g for g in second.get("/api/games").json() if g["id"] == game)
        assert listed["status"] == "interrupted" and not listed["hosted"]
