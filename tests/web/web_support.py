"""Helpers of the web server's tests: an app on a temporary store, games started and played
through the HTTP API."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

BUNDLED = [{"id": "akkylannie-crusade"}, {"id": "bran-o-kor-horde"}]


def new_game(client: TestClient, seats: list[str], **extra: Any) -> dict[str, Any]:
    """Start a game through the API (Conquest, the demo armies, seed 3 unless given)."""
    body = {"armies": BUNDLED, "seats": seats, "seed": 3, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def settle(client: TestClient, game_id: int, seats: list[str], timeout: float = 120.0) -> Any:
    """The game's view once the server waits for a person or the game is over."""
    deadline = time.monotonic() + timeout
    while True:
        view = client.get(f"/api/games/{game_id}", params={"seat": seats}).json()
        if view["status"] in ("your-turn", "over", "stopped"):
            return view
        pending = view["question"]
        if pending is not None and "waiting" in pending and "is to answer" in pending["waiting"]:
            return view  # another person's question
        assert time.monotonic() < deadline, f"game {game_id} did not settle: {view['status']}"
        time.sleep(0.05)
