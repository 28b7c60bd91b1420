"""The table's last pieces through the HTTP API: a clicked deployment point (taken, or
refused with its reason), a facing checked and given (V-B-1), the automatic answers' switch
kept across a restart, three to six players (XX-F), a scenario file uploaded."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_support import BUNDLED, new_game, settle

from confrontation.engine.actions.shared import action_of
from confrontation.engine.core.questions import Place
from confrontation.engine.step import question, refusal
from confrontation.web import tools
from confrontation.web.app import create_app
from confrontation.web.hub import Hub
from confrontation.web.tools import deployment

SCENARIOS = Path(__file__).parents[2] / "src/confrontation/data/scenarios"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as test_client:
        yield test_client


def answer(client: TestClient, game: int, token: str, view: dict[str, Any], **body: Any) -> Any:
    response = client.post(
        f"/api/games/{game}/answer",
        params={"seat": token},
        json={"option": 0, "turn": view["turn"], **body},
    )
    assert response.status_code == 200, response.text
    return settle(client, game, [token])


def until(client: TestClient, kind: str, **extra: Any) -> tuple[int, str, dict[str, Any]]:
    """A person's game against the greedy AI, answered by the hint, up to a question of
    ``kind``: (game, token, view)."""
    made = new_game(client, ["person", "greedy"], **extra)
    game, token = made["id"], made["seats"][0]["token"]
    view = settle(client, game, [token])
    for _ in range(400):
        assert view["status"] == "your-turn", view["status"]
        if view["question"]["kind"] == kind:
            return game, token, view
        hint = view["question"]["hint"]
        view = answer(client, game, token, view, option=hint if hint is not None else 0)
    raise AssertionError(f"no {kind} question")


# --- deployment by clicking (III-B-2) ---------------------------------------------------------


def test_a_deployment_click_takes_a_place_or_says_why_not(client: TestClient) -> None:
    game, token, view = until(client, "deploy")
    url = f"/api/games/{game}/deployment"
    places = [o["place"] for o in view["question"]["options"]]
    spot = places[4]
    near = client.get(url, params={"seat": token, "x": spot["x"] + 1.0, "y": spot["y"] + 0.5})
    assert near.status_code == 200 and near.json()["index"] == 4
    assert near.json()["refused"] is None
    # the middle of the table: outside his area, whose lines are open (III-A-1)
    middle = client.get(url, params={"seat": token, "x": 60.0, "y": 30.0}).json()
    assert middle["index"] is None and "deployment area" in middle["refused"]
    assert "III-A-1" in middle["refused"] and middle["nearest"] is not None
    # refused for a spectator and the other seat; a non-deployment question is a 409
    assert client.get(url, params={"x": 1.0, "y": 1.0}).status_code == 409
    view = answer(client, game, token, view, option=4)
    while view["question"]["kind"] != "deploy":
        view = answer(client, game, token, view)
    # on the fighter just deployed: his base would overlap
    mine = [f for f in view["fighters"] if f["on_table"] and f["player"] == 0]
    on = client.get(url, params={"seat": token, "x": mine[0]["x"], "y": mine[0]["y"]}).json()
    assert on["index"] is None and "overlap" in on["refused"], on


def test_a_deployment_point_past_a_contact_limit_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _, _ = until(client, "deploy")
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    state = hub.confede(game).current()
    asked = question(state)
    assert asked is not None
    spots = [o.choice for o in asked.options if isinstance(o.choice, Place)]
    # between four places of the grid (4.2 cm from each): a point his base may stand on
    # takes the nearest; one past a contact limit (II-E-3, the engine's check) is refused
    x, y = spots[0].x + 3.0, spots[0].y + 3.0
    assert deployment(state, asked, x, y)["index"] is not None
    asked_about = []

    def crowded(state: object, here: object, moved: dict[str, object]) -> str:
        asked_about.append(sorted(moved))
        return "II-E-3: fighter p2-c1-1 (normal) is in contact with 5 enemies, more than 4"

    monkeypatch.setattr(tools, "placement_problem", crowded)
    found = deployment(state, asked, x, y)
    assert found["index"] is None and found["nearest"] is not None
    assert found["refused"].startswith("someone would be past his contact limit: II-E-3")
    assert len(asked_about) == 1 and len(asked_about[0]) == 1  # the fighter being deployed


# --- the facing (V-B-1): checked, then given --------------------------------------------------


def test_a_facing_is_checked_by_the_engine_then_given(client: TestClient) -> None:
    game, token, view = until(client, "destination", rounds=2)
    asked = view["question"]
    assert asked["free"] == "facing"
    index = next(o["index"] for o in asked["options"] if o["place"])
    url = f"/api/games/{game}/facing"
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.confede(game)
    allowed = None
    for angle in range(0, 360, 15):
        checked = client.get(url, params={"seat": token, "option": index, "facing": angle})
        assert checked.status_code == 200
        if checked.json()["refused"] is None:
            allowed = angle
            break
    assert allowed is not None
    bad = client.get(url, params={"seat": token, "option": index, "facing": 400}).json()
    assert "0 to 360" in bad["refused"]
    missing = client.get(url, params={"seat": token, "option": 999, "facing": 10})
    assert missing.status_code == 400
    assert client.get(url, params={"option": index, "facing": 10}).status_code == 409
    who = action_of(live.current()).fighter
    turn = view["turn"]
    after = answer(client, game, token, view, option=index, facing=float(allowed))
    assert after["turn"] > turn
    moved = next(f for f in after["fighters"] if f["id"] == who)
    assert math.isclose(moved["facing"], allowed % 360, abs_tol=0.05)
    # a question that takes no facing: a 409
    if after["question"] and after["question"].get("free") != "facing":
        assert client.get(url, params={"seat": token, "option": 0, "facing": 0}).status_code == 409


# --- the automatic answers' switch, kept with the game -----------------------------------------


def test_the_automatic_answers_switch_survives_a_restart(db: str) -> None:
    with TestClient(create_app(db)) as client:
        made = new_game(client, ["person", "greedy"])
        token = made["seats"][0]["token"]
        settle(client, made["id"], [token])
        off = client.post(
            f"/api/games/{made['id']}/auto", params={"seat": token}, json={"auto": False}
        )
        assert off.json() == {"auto": {"0": False}}
    with TestClient(create_app(db)) as client:
        view = settle(client, made["id"], [token])
        assert view["auto"] == {"0": False} and view["question"]["auto"] is False
        for _ in range(300):  # switched off: a one-answer question is asked
            if len(view["question"]["options"]) == 1:
                break
            view = answer(client, made["id"], token, view)
        assert len(view["question"]["options"]) == 1
        client.post(f"/api/games/{made['id']}/auto", params={"seat": token}, json={"auto": True})
    with TestClient(create_app(db)) as client:
        assert settle(client, made["id"], [token])["auto"] == {"0": True}


# --- three to six players (XX-F) -----------------------------------------------------------


THREE = [*BUNDLED, {"id": "goblin-raiders"}]


def test_three_to_six_players_through_the_api(client: TestClient) -> None:
    made = new_game(client, ["person", "greedy", "random"], armies=THREE, rounds=1)
    assert [s["player"] for s in made["seats"]] == [0, 1, 2]
    token = made["seats"][0]["token"]
    view = settle(client, made["id"], [token])
    assert len(view["players"]) == 3 and view["status"] == "your-turn"
    assert [p["yours"] for p in view["players"]] == [True, False, False]
    six = [{"id": a} for a in ("akkylannie-crusade", "bran-o-kor-horde", "goblin-raiders")] * 2
    ai = new_game(client, ["random"] * 6, armies=six, rounds=1)
    over = settle(client, ai["id"], [])
    assert over["status"] == "over" and len(over["players"]) == 6
    seven = client.post("/api/games", json={"armies": [*six, six[0]], "seats": ["random"] * 7})
    assert seven.status_code == 422
    uneven = client.post("/api/games", json={"armies": THREE, "seats": ["random"] * 2})
    assert uneven.status_code == 400 and "one seat per army" in uneven.json()["detail"]


def test_the_start_form_takes_three_players(client: TestClient) -> None:
    page = client.get("/").text
    assert 'id="player-count"' in page and 'name="army6"' in page and 'name="seat6"' in page
    form = {
        "scenario": "conquest",
        "rules": "confede",
        "players": "3",
        "army1": "akkylannie-crusade",
        "army2": "bran-o-kor-horde",
        "army3": "goblin-raiders",
        "seat1": "person",
        "seat2": "person",
        "seat3": "greedy",
        "army4": "goblin-raiders",  # a row beyond the number of players: ignored
        "seat4": "person",
        "seed": "5",
    }
    created = client.post("/games", data=form)
    assert created.status_code == 200 and "hot-seat" in created.text
    assert created.text.count("seat-link") == 2  # the two persons' links
    assert client.post("/games", data={**form, "players": "7"}).status_code == 400
    assert client.post("/games", data={**form, "seat3": "robot"}).status_code == 400


# --- a scenario file uploaded ------------------------------------------------------------------


def test_a_game_from_an_uploaded_scenario_file(client: TestClient) -> None:
    text = (SCENARIOS / "conquest.toml").read_text(encoding="utf-8")
    made = new_game(client, ["random", "random"], scenario_toml=text, rounds=1)
    view = settle(client, made["id"], [])
    assert view["status"] == "over" and view["scenario"] == "Conquest"
    body = {"armies": BUNDLED, "seats": ["random", "random"]}
    broken = client.post("/api/games", json={**body, "scenario_toml": "name = 'x'\nbad = ["})
    detail = broken.json()["detail"]
    assert broken.status_code == 400 and detail.startswith("scenario: the uploaded file:2:")
    assert "\n" not in detail and "invalid TOML" in detail
    missing = client.post("/api/games", json={**body, "scenario_toml": "name = 'x'\n"})
    assert missing.status_code == 400 and "missing key" in missing.json()["detail"]
    before = len(client.get("/api/games").json())
    form = {
        "scenario": "upload",
        "rules": "confede",
        "players": "2",
        "army1": "akkylannie-crusade",
        "army2": "bran-o-kor-horde",
        "seat1": "person",
        "seat2": "greedy",
        "seed": "3",
    }
    page = client.post("/games", data=form, files={"scenario_file": ("mine.toml", text)})
    assert page.status_code == 200 and "Conquest" in page.text  # the seat's page
    refused = client.post("/games", data=form, files={"scenario_file": ("bad.toml", "x = [")})
    assert refused.status_code == 400 and "invalid TOML" in refused.text
    assert client.post("/games", data=form).status_code == 400  # no file chosen
    assert len(client.get("/api/games").json()) == before + 1  # the refused made nothing


def test_a_deployed_fighter_may_face_any_way_his_base_allows(client: TestClient) -> None:
    # docs/rulings.md "III-B-2 — the facing of a fighter deployed"
    game, token, view = until(client, "deploy")
    asked = view["question"]
    assert asked["free"] == "facing"
    url = f"/api/games/{game}/facing"
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    state = hub.confede(game).current()
    pending = question(state)
    assert pending is not None
    # a place on the edge of his area: turned by 45 degrees his square base's corners leave it
    places = [o.choice for o in pending.options if isinstance(o.choice, Place)]
    edge = min(range(len(places)), key=lambda i: places[i].x)
    turned = client.get(url, params={"seat": token, "option": edge, "facing": 45.0}).json()
    assert turned["refused"] is not None and "III-A-1" in turned["refused"], turned
    assert refusal(state, Place(places[edge].x + 0.5, places[edge].y, 90.0)) is not None
    assert refusal(state, Place(places[edge].x, places[edge].y, 360.0)) is not None
    # squarely turned, he stands as well: given, he faces that way
    square = client.get(url, params={"seat": token, "option": edge, "facing": 90.0}).json()
    assert square["refused"] is None
    refused = client.post(
        f"/api/games/{game}/answer",
        params={"seat": token},
        json={"option": edge, "turn": view["turn"], "facing": 45.0},
    )
    assert refused.status_code == 400 and "III-A-1" in refused.json()["detail"]
    who = asked["prompt"].split("(")[-1].split(")")[0]
    after = answer(client, game, token, view, option=edge, facing=90.0)
    placed = next(f for f in after["fighters"] if f["id"] == who)
    assert placed["on_table"] and placed["facing"] == 90.0
    assert (placed["x"], placed["y"]) == (round(places[edge].x, 2), round(places[edge].y, 2))
