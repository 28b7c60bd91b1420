"""Saved games through the HTTP API: replays round by round, the record and the table to
download (SVG, PNG), deletion (refused while the server plays the game), resuming an
interrupted game, and the games list on the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from fastapi.testclient import TestClient
from web_support import new_game, settle

from confrontation.engine.core.events import Event
from confrontation.engine.record import read_log, replay
from confrontation.sim.game import GameConfig, play_game
from confrontation.sim.saved import outcome_of, setup_of
from confrontation.store import FINISHED, INTERRUPTED, RUNNING, Outcome, open_store
from confrontation.web.app import create_app
from confrontation.web.board import board_svg

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as test_client:
        yield test_client


def one_line(response: httpx2.Response, status: int) -> str:
    assert response.status_code == status, response.text
    detail: str = response.json()["detail"]
    assert detail and "\n" not in detail
    return detail


def test_a_finished_game_replays_round_by_round_and_downloads(client: TestClient, db: str) -> None:
    made = new_game(client, ["random", "random"], rounds=2)
    game_id = made["id"]
    assert settle(client, game_id, [])["status"] == "over"
    with open_store(db) as store:
        events = store.load(game_id).events
    final = replay(events)

    replayed = client.get(f"/api/games/{game_id}/replay").json()
    assert replayed["over"] is True
    frames = replayed["frames"]
    assert [f["round"] for f in frames] == [0, 1, 2]
    assert frames[0]["label"] == "after the deployment"
    assert frames[-1]["label"] == "the end (round 2)"
    assert frames[-1]["svg"] == board_svg(final) and frames[-1]["scores"] == list(final.scores)
    assert frames[0]["svg"] != frames[1]["svg"] != frames[2]["svg"]
    assert frames[1]["log"] and "Tactics roll" in frames[1]["log"][0]

    svg = client.get(f"/api/games/{game_id}/board.svg", params={"round": 1})
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text == frames[1]["svg"]
    assert "game-1-round-1.svg" in svg.headers["content-disposition"]
    missing = one_line(client.get(f"/api/games/{game_id}/board.svg", params={"round": 7}), 404)
    assert missing == f"game {game_id} has no round 7 (rounds: 0, 1, 2)"

    png = client.get(f"/api/games/{game_id}/board.png", params={"round": 2})
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content.startswith(PNG_MAGIC) and len(png.content) > 10_000
    now = client.get(f"/api/games/{game_id}/board.png")
    assert now.content.startswith(PNG_MAGIC)

    record = client.get(f"/api/games/{game_id}/record.jsonl")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    assert read_log(record.text.splitlines()) == events  # as `confrontation play --log` writes

    page = client.get(f"/games/{game_id}/replay")
    assert page.status_code == 200 and 'id="round"' in page.text
    assert page.text.count('class="board frame"') == 3
    assert f"/api/games/{game_id}/record.jsonl" in page.text


def test_deleting_games(client: TestClient, db: str) -> None:
    finished = new_game(client, ["random", "random"], rounds=1)["id"]
    settle(client, finished, [])
    person = new_game(client, ["person", "random"], rounds=1)
    token = person["seats"][0]["token"]
    view = settle(client, person["id"], [token])
    assert view["status"] == "your-turn"

    # the server playing a game (an AI thinking): refused, nothing changed
    hosted = client.app.state.hub.hosted(person["id"])  # type: ignore[attr-defined]
    with hosted.lock:
        hosted.running = True
    busy = one_line(client.delete(f"/api/games/{person['id']}"), 409)
    assert "being played by the server" in busy
    with hosted.lock:
        hosted.running = False
    assert settle(client, person["id"], [token])["turn"] == view["turn"]

    # a game waiting for a person: deleted, his seat link now answers 404
    gone = client.delete(f"/api/games/{person['id']}")
    assert gone.status_code == 200 and gone.json() == {"id": person["id"], "deleted": True}
    answer = client.post(
        f"/api/games/{person['id']}/answer", params={"seat": token}, json={"option": 0}
    )
    assert one_line(answer, 404) == f"no game {person['id']}"
    assert client.delete(f"/api/games/{finished}").status_code == 200
    assert [g["id"] for g in client.get("/api/games").json()] == []
    for path in ("", "/replay", "/record.jsonl", "/board.svg"):
        assert one_line(client.get(f"/api/games/{finished}{path}"), 404).startswith("no game")
    assert one_line(client.delete(f"/api/games/{finished}"), 404) == f"no game {finished}"
    with open_store(db) as store:
        assert store.count() == 0

    # a game a terminal is recording: refused until it stops
    with open_store(db) as store:
        terminal = store.begin(setup_of(GameConfig(agents=("random", "random"), seed=1)))
    refused = one_line(client.delete(f"/api/games/{terminal}"), 409)
    assert "another program" in refused
    with open_store(db) as store:
        assert store.load(terminal).status == RUNNING
        store.interrupt(terminal)
    assert client.delete(f"/api/games/{terminal}").status_code == 200


def test_an_interrupted_game_is_resumed_from_the_page(db: str) -> None:
    with TestClient(create_app(db)) as client:
        made = new_game(client, ["person", "greedy"], rounds=1)
        token = made["seats"][0]["token"]
        view = settle(client, made["id"], [token])
        client.post(
            f"/api/games/{made['id']}/answer",
            params={"seat": token},
            json={"option": 0, "turn": view["turn"]},
        )
        view = settle(client, made["id"], [token])
        # its record holds the AI's secrets: not given while the game goes on
        secret = one_line(client.get(f"/api/games/{made['id']}/record.jsonl"), 403)
        assert "not over" in secret
    with open_store(db) as store:
        assert store.load(made["id"]).status == INTERRUPTED
        finished = store.save(
            setup_of(GameConfig(agents=("random", "random"), seed=1)),
            *_a_finished_game(),
        )
        terminal = store.begin(setup_of(GameConfig(agents=("random", "random"), seed=2)))
        store.interrupt(terminal)
    with TestClient(create_app(db)) as client:
        index = client.get("/")
        assert f'<button type="button" class="resume" data-game="{made["id"]}">' in index.text
        assert f'class="resume" data-game="{finished}"' not in index.text
        assert f'class="delete" data-game="{finished}"' in index.text
        listed = {g["id"]: g for g in client.get("/api/games").json()}
        assert listed[made["id"]]["hosted"] is False

        replayed = client.get(f"/api/games/{made['id']}/replay").json()  # not taken up
        assert replayed["over"] is False and replayed["frames"][-1]["label"].startswith("now")
        assert client.get("/api/games").json()[-1]["status"] == INTERRUPTED

        resumed = client.post(f"/api/games/{made['id']}/resume")
        assert resumed.status_code == 200
        url = f"/games/{made['id']}"
        assert resumed.json() == {"id": made["id"], "status": "playing", "url": url}
        again = settle(client, made["id"], [token])
        assert again["turn"] == view["turn"] and again["question"] == view["question"]
        assert {g["id"]: g for g in client.get("/api/games").json()}[made["id"]]["hosted"]

        done = one_line(client.post(f"/api/games/{finished}/resume"), 409)
        assert done == f"game {finished} is finished: there is nothing to resume"
        other = one_line(client.post(f"/api/games/{terminal}/resume"), 409)
        assert f"confrontation play --resume {terminal}" in other
        assert one_line(client.post("/api/games/999/resume"), 404) == "no game 999"
    with open_store(db) as store:
        assert store.load(made["id"]).status == INTERRUPTED  # the server stopped again
        assert store.load(finished).status == FINISHED


def _a_finished_game() -> tuple[Outcome, list[Event]]:
    played = play_game(GameConfig(agents=("random", "random"), seed=1, rounds=1))
    return outcome_of(played), list(played.events)


def test_what_the_fuzz_found_is_refused_in_one_line(client: TestClient) -> None:
    """Found by tests/web/test_web_fuzz.py: a game number too big for the database was a
    500; a 405 named only the first route's methods."""
    for path in ("/api/games/9223372036854775808", "/api/games/0/replay"):
        assert one_line(client.get(path), 422).startswith("path.game_id: Input should be")
    refused = client.request("PUT", "/api/games")
    assert one_line(refused, 405) == "Method Not Allowed"
    assert refused.headers["allow"] == "GET, POST"
    assert one_line(client.get("/api/nothing"), 404) == "Not Found"
