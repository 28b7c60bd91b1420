"""The web server's HTTP API (FastAPI TestClient): every endpoint, whole games through it,
seats and their secrets, and the bad requests (a 4xx, one line, nothing changed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_support import BUNDLED, new_game, settle

from confrontation.engine.record import replay
from confrontation.scenarios import bundled_scenarios
from confrontation.sim.game import GameConfig, play_game
from confrontation.store import FINISHED, open_store
from confrontation.web.app import create_app

ARMIES = Path(__file__).parents[2] / "src/confrontation/data/armies"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as test_client:
        yield test_client


def test_options_list_every_bundled_scenario_rules_armies_and_seats(client: TestClient) -> None:
    options = client.get("/api/options").json()
    assert [s["id"] for s in options["scenarios"]] == bundled_scenarios()
    conquest = next(s for s in options["scenarios"] if s["id"] == "conquest")
    assert "campsites" in conquest["variations"]
    assert {"confede", "c3"} <= set(options["rules"])
    assert "goblin-raiders" in options["armies"]
    assert options["seats"] == ["person", "random", "greedy", "mcts"]


def test_an_ai_game_started_through_the_api_finishes_and_is_stored(
    client: TestClient, db: str
) -> None:
    made = new_game(client, ["random", "greedy"], rounds=2, scenario="conquest:campsites")
    assert made["hotseat_url"] is None and all(s["token"] is None for s in made["seats"])
    view = settle(client, made["id"], [])
    assert view["status"] == "over" and view["round"] == 2
    assert view["question"] is None and view["log"]
    assert view["log"][-1]["text"].startswith("The game ends")
    listed = client.get("/api/games").json()
    assert listed[0]["id"] == made["id"] and listed[0]["status"] == FINISHED
    with open_store(db) as store:
        stored = store.load(made["id"])
    assert stored.status == FINISHED
    assert replay(stored.events).round == 2  # the whole record, checked event by event
    config = GameConfig(
        scenario="conquest:campsites", agents=("random", "greedy"), seed=3, rounds=2
    )
    assert stored.events == list(play_game(config).events)  # as `confrontation play` plays it


def test_concurrent_ai_games_lose_no_event(client: TestClient, db: str) -> None:
    made = [new_game(client, ["random", "random"], seed=seed, rounds=1) for seed in range(6)]
    for game in made:
        assert settle(client, game["id"], [])["status"] == "over"
    with open_store(db) as store:
        for seed, game in enumerate(made):
            config = GameConfig(agents=("random", "random"), seed=seed, rounds=1)
            assert store.load(game["id"]).events == list(play_game(config).events)


def test_a_person_plays_a_whole_game_through_the_api(client: TestClient) -> None:
    made = new_game(client, ["person", "random"], rounds=1, rules="c3")
    token = made["seats"][0]["token"]
    assert made["seats"][0]["url"] == f"/games/{made['id']}?seat={token}"
    answers = facings = 0
    view = settle(client, made["id"], [token])
    while view["status"] != "over":
        assert view["status"] == "your-turn", view
        asked = client.get(f"/api/games/{made['id']}/question", params={"seat": token}).json()
        assert asked["prompt"] == view["question"]["prompt"] and asked["turn"] == view["turn"]
        body: dict[str, object] = {"option": 0, "turn": view["turn"]}
        if asked["free"] == "facing":
            body["facing"] = asked["options"][0]["place"]["facing"] + 0.5
            facings += 1
        url = f"/api/games/{made['id']}/answer"
        response = client.post(url, params={"seat": token}, json=body)
        if response.status_code == 400 and "facing" in body:  # that turn stands illegally
            del body["facing"]
            response = client.post(url, params={"seat": token}, json=body)
        assert response.status_code == 200, response.text
        answers += 1
        view = settle(client, made["id"], [token])
    assert answers > 20 and facings > 0


def test_deployment_places_are_places_on_the_table(client: TestClient) -> None:
    made = new_game(client, ["person", "greedy"])
    token = made["seats"][0]["token"]
    view = settle(client, made["id"], [token])
    while view["question"]["kind"] != "deploy":
        client.post(
            f"/api/games/{made['id']}/answer",
            params={"seat": token},
            json={"option": 0, "turn": view["turn"]},
        )
        view = settle(client, made["id"], [token])
    places = [o["place"] for o in view["question"]["options"]]
    assert places and all(p is not None and 0 <= p["x"] <= 120 for p in places)
    empty = client.get(f"/api/games/{made['id']}/board.svg", params={"seat": token}).text
    spot = view["question"]["options"][3]["place"]
    client.post(
        f"/api/games/{made['id']}/answer",
        params={"seat": token},
        json={"option": 3, "turn": view["turn"]},
    )
    svg = client.get(f"/api/games/{made['id']}/board.svg", params={"seat": token})
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and svg.text.count('class="fighter"') > empty.count(
        'class="fighter"'
    )
    deployed = [
        f
        for f in client.get(f"/api/games/{made['id']}", params={"seat": token}).json()["fighters"]
        if f["on_table"] and f["player"] == 0
    ]
    assert [(f["x"], f["y"]) for f in deployed] == [(spot["x"], spot["y"])]


def test_a_seat_sees_only_its_players_secrets(client: TestClient) -> None:
    made = new_game(client, ["person", "person"])
    first, second = (s["token"] for s in made["seats"])
    assert made["hotseat_url"] == f"/games/{made['id']}?seat={first}&seat={second}"
    view = settle(client, made["id"], [first, second])
    while view["phase"] != "activation" or not view["players"][0]["sequence"]:
        client.post(
            f"/api/games/{made['id']}/answer",
            params={"seat": [first, second]},
            json={"option": 0},
        )
        view = settle(client, made["id"], [first, second])
    mine = client.get(f"/api/games/{made['id']}", params={"seat": first}).json()
    assert mine["players"][0]["sequence"] and mine["players"][1]["sequence"] is None
    theirs = client.get(f"/api/games/{made['id']}", params={"seat": second}).json()
    assert theirs["players"][0]["sequence"] is None and theirs["players"][1]["sequence"]
    watcher = client.get(f"/api/games/{made['id']}").json()
    assert all(p["sequence"] is None for p in watcher["players"])


def test_a_seat_cannot_answer_the_other_players_question(client: TestClient) -> None:
    made = new_game(client, ["person", "person"])
    first, second = (s["token"] for s in made["seats"])
    view = settle(client, made["id"], [first, second])
    asked = view["question"]["player"]
    other = second if asked == 0 else first
    url = f"/api/games/{made['id']}/answer"
    refused = client.post(url, params={"seat": other}, json={"option": 0})
    assert refused.status_code == 403
    whose = f"Player {asked + 1}'s"
    assert refused.json()["detail"] == f"the pending question is {whose}, not this seat's"
    assert client.get(f"/api/games/{made['id']}", params={"seat": [first, second]}).json() == view


def test_bad_requests_get_a_4xx_with_one_line_and_change_nothing(client: TestClient) -> None:
    made = new_game(client, ["person", "greedy"])
    token, game = made["seats"][0]["token"], made["id"]
    before = settle(client, game, [token])
    url = f"/api/games/{game}/answer"

    def refused(response: object, status: int, words: str) -> None:
        assert getattr(response, "status_code") == status  # noqa: B009
        detail = getattr(response, "json")()["detail"]  # noqa: B009
        assert isinstance(detail, str) and "\n" not in detail and words in detail, detail

    refused(client.get("/api/games/999"), 404, "no game 999")
    refused(client.post("/api/games/999/answer", json={"option": 0}), 404, "no game 999")
    refused(client.get(f"/api/games/{game}", params={"seat": "forged"}), 403, "not one of game")
    refused(client.post(url, json={"option": 0}), 403, "a seat link is needed")
    refused(client.post(url, params={"seat": token}, json={"option": 99}), 400, "no option 99")
    stale = {"option": 0, "turn": before["turn"] + 5}
    refused(client.post(url, params={"seat": token}, json=stale), 409, "stale answer")
    facing = {"option": 0, "facing": 90}
    refused(client.post(url, params={"seat": token}, json=facing), 400, "takes no facing")
    refused(client.post(url, params={"seat": token}, json={"choice": 0}), 422, "option")
    bad_seat = {"armies": BUNDLED, "seats": ["person", "chess"]}
    refused(client.post("/api/games", json=bad_seat), 400, "unknown seat 'chess'")
    bad_scenario = {"armies": BUNDLED, "seats": ["random", "random"], "scenario": "nowhere"}
    refused(client.post("/api/games", json=bad_scenario), 400, "no scenario 'nowhere'")
    bad_rules = {"armies": BUNDLED, "seats": ["random", "random"], "rules": "c9"}
    refused(client.post("/api/games", json=bad_rules), 400, "unknown rules 'c9'")
    unknown_army = {"armies": [{"id": "nobody"}, BUNDLED[1]], "seats": ["random", "random"]}
    refused(client.post("/api/games", json=unknown_army), 400, "no bundled army 'nobody'")
    broken = {"armies": [{"toml": "name = [unclosed"}, BUNDLED[1]], "seats": ["random", "random"]}
    refused(client.post("/api/games", json=broken), 400, "army 1:")
    after = settle(client, game, [token])
    assert after == before
    assert [g["id"] for g in client.get("/api/games").json()] == [game]  # nothing else saved


def test_an_uploaded_army_is_checked_by_the_validator(client: TestClient) -> None:
    text = (ARMIES / "goblin-raiders.toml").read_text(encoding="utf-8")
    report = client.post("/api/armies/check", files={"file": ("raiders.toml", text)}).json()
    assert report["valid"] and report["summary"].startswith("No-Dan-Kar Raiders: valid")
    over = text.replace("points = 250", "points = 100")
    report = client.post("/api/armies/check", files={"file": ("raiders.toml", over)}).json()
    assert not report["valid"] and report["violations"]
    refused = client.post(
        "/api/games",
        json={"armies": [{"toml": over}, BUNDLED[1]], "seats": ["random", "random"]},
    )
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("army 1 breaks the army-list rules (I-D): ")
    made = new_game(client, ["random", "random"], armies=[{"toml": text}, BUNDLED[1]], rounds=1)
    assert made["reports"][0]["name"] == "No-Dan-Kar Raiders"
    assert settle(client, made["id"], [])["status"] == "over"
    binary = client.post("/api/armies/check", files={"file": ("x.toml", b"\xff\xfe\x00")})
    assert binary.status_code == 400 and binary.json()["detail"] == "the file is not UTF-8 text"
    garbage = client.post("/api/armies/check", files={"file": ("x.toml", "name = ")})
    assert garbage.status_code == 400 and "\n" not in garbage.json()["detail"]


def test_a_game_goes_on_after_the_server_restarts(db: str) -> None:
    with TestClient(create_app(db)) as client:
        made = new_game(client, ["person", "greedy"])
        token = made["seats"][0]["token"]
        view = settle(client, made["id"], [token])
        for _ in range(6):
            client.post(
                f"/api/games/{made['id']}/answer",
                params={"seat": token},
                json={"option": 0, "turn": view["turn"]},
            )
            view = settle(client, made["id"], [token])
    with TestClient(create_app(db)) as client:
        again = settle(client, made["id"], [token])
        assert again["turn"] == view["turn"] and again["question"] == view["question"]
        assert again["log"] == view["log"]
        answered = client.post(
            f"/api/games/{made['id']}/answer",
            params={"seat": token},
            json={"option": 0, "turn": again["turn"]},
        )
        assert answered.status_code == 200


def test_the_pages(client: TestClient) -> None:
    index = client.get("/")
    assert index.status_code == 200 and "Start a game" in index.text
    assert 'value="conquest:campsites"' in index.text
    text = (ARMIES / "goblin-raiders.toml").read_text(encoding="utf-8")
    form = {
        "scenario": "conquest",
        "rules": "confede",
        "army1": "upload",
        "army2": "bran-o-kor-horde",
        "seat1": "person",
        "seat2": "person",
        "seed": "7",
    }
    files = {"file1": ("raiders.toml", text)}
    created = client.post("/games", data=form, files=files)
    assert created.status_code == 200 and "hot-seat" in created.text
    assert "No-Dan-Kar Raiders: valid" in created.text
    alone = client.post("/games", data={**form, "army1": "lion-vanguard", "seat2": "random"})
    assert alone.status_code == 200 and "Game " in alone.text  # redirected to the seat's page
    assert alone.url.path.startswith("/games/") and "seat=" in str(alone.url)
    missing = client.get("/games/999")
    assert missing.status_code == 404 and "no game 999" in missing.text
    unread = client.post("/games", data={**form, "seed": "x"})
    assert unread.status_code == 400
    openapi = client.get("/openapi.json").json()
    assert "/api/games/{game_id}/answer" in openapi["paths"]
