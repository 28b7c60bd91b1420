"""Uploaded files kept with the game: a C4 company file and a Confédé scenario file started
from the web are stored as text (``GameSetup``), so the game resumes after a restart once
the upload's temporary file is gone; bad company files refused in one line."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from confrontation.data import data_path
from confrontation.sim.saved import config_of
from confrontation.store import open_store
from confrontation.web.app import create_app

COMPANY = Path(str(data_path("c4/companies"))) / "griffin-vanguard.toml"
SCENARIO = Path(str(data_path("scenarios"))) / "conquest.toml"


def settle(client: TestClient, game_id: int, seats: list[str], timeout: float = 240.0) -> Any:
    """The view once the server waits for a person or the game is over."""
    deadline = time.monotonic() + timeout
    while True:
        view: dict[str, Any] = client.get(f"/api/games/{game_id}", params={"seat": seats}).json()
        if view["status"] in ("your-turn", "waiting", "over", "stopped"):
            return view
        assert time.monotonic() < deadline, f"game {game_id} did not settle: {view['status']}"
        time.sleep(0.05)


def answer(client: TestClient, game_id: int, seat: str, option: int, turn: int) -> Any:
    return client.post(
        f"/api/games/{game_id}/answer", params={"seat": seat}, json={"option": option, "turn": turn}
    )


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "games.db"))) as test_client:
        yield test_client


def c4_body(text: str) -> dict[str, Any]:
    return {
        "rules": "c4",
        "armies": [{"toml": text}, {"id": "lion-host"}],
        "seats": ["person", "greedy"],
        "seed": 4,
    }


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("name = 'x'\nunit = [", "invalid TOML"),
        ("name = 'x'\npeople = 'griffin'\npoints = 300\n", "unit"),
        (
            COMPANY.read_text(encoding="utf-8").replace("griffin-conscripts", "griffin-nobody"),
            "units[1] (griffin-nobody): no such card",
        ),
        (COMPANY.read_text(encoding="utf-8").replace("points = 300", "points = 10"), "points"),
    ],
)
def test_a_bad_company_file_is_refused_in_one_line_naming_file_and_field(
    client: TestClient, text: str, says: str
) -> None:
    before = len(client.get("/api/games").json())
    got = client.post("/api/games", json=c4_body(text))
    detail = got.json()["detail"]
    assert got.status_code == 400 and "\n" not in detail, detail
    assert detail.startswith("army 1: company-") and ".toml" in detail, detail
    assert says in detail, detail
    assert len(client.get("/api/games").json()) == before  # nothing started


def stored_setup(db: str, game: int) -> Any:
    store = open_store(db)
    try:
        return store.load(game).setup
    finally:
        store.close()


def test_an_uploaded_company_resumes_after_a_restart_without_its_file(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    text = COMPANY.read_text(encoding="utf-8").replace("Vanguard of the Griffin", "My Griffins")
    with TestClient(create_app(db)) as first:
        made = first.post("/api/games", json=c4_body(text))
        assert made.status_code == 201, made.text
        game, token = made.json()["id"], made.json()["seats"][0]["token"]
        assert made.json()["reports"][0]["name"] == "My Griffins"
        for _ in range(3):
            view = settle(first, game, [token])
            assert answer(first, game, token, 0, view["turn"]).status_code == 200
        before = settle(first, game, [token])
        assert before["players"][0]["company"] == "My Griffins"
    copy = stored_setup(db, game).armies[0]
    assert copy.source == text and copy.file is not None
    Path(copy.file).unlink()  # the upload's temporary file is gone
    with TestClient(create_app(db)) as second:
        assert second.post(f"/api/games/{game}/resume").json()["status"] == "playing"
        after = settle(second, game, [token])
        assert (after["turn"], after["question"], after["log"]) == (
            before["turn"],
            before["question"],
            before["log"],
        )
        assert after["players"][0]["company"] == "My Griffins"
        answers = 0
        while after["status"] != "over":
            assert after["status"] == "your-turn", after["error"]
            options = len(after["question"]["options"])
            got = answer(second, game, token, answers % options, after["turn"])
            assert got.status_code == 200, got.text
            answers += 1
            after = settle(second, game, [token])
        assert answers > 3 and after["log"][-1].startswith("The game is over")
        listed = next(g for g in second.get("/api/games").json() if g["id"] == game)
        assert listed["status"] == "finished"


def test_the_form_takes_an_uploaded_company(client: TestClient) -> None:
    form = {
        "rules": "c4",
        "company1": "upload",
        "company2": "lion-host",
        "seat1": "greedy",
        "seat2": "random",
        "seed": "2",
        "rounds": "1",
    }
    text = COMPANY.read_text(encoding="utf-8")
    page = client.post("/games", data=form, files={"company_file1": ("mine.toml", text)})
    assert page.status_code == 200, page.text
    refused = client.post("/games", data=form, files={"company_file1": ("bad.toml", "x = [")})
    assert refused.status_code == 400 and "invalid TOML" in refused.text
    assert client.post("/games", data=form).status_code == 400  # no file chosen


def test_an_uploaded_scenario_resumes_after_a_restart_without_its_file(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    text = SCENARIO.read_text(encoding="utf-8")
    body = {
        "rules": "confede",
        "armies": [{"id": "akkylannie-crusade"}, {"id": "bran-o-kor-horde"}],
        "seats": ["person", "greedy"],
        "seed": 3,
        "rounds": 1,
        "scenario_toml": text,
    }
    with TestClient(create_app(db)) as first:
        made = first.post("/api/games", json=body)
        assert made.status_code == 201, made.text
        game, token = made.json()["id"], made.json()["seats"][0]["token"]
        for _ in range(3):
            view = settle(first, game, [token])
            assert answer(first, game, token, 0, view["turn"]).status_code == 200
        before = settle(first, game, [token])
    setup = stored_setup(db, game)
    assert setup.options["scenario_source"] == text
    Path(setup.options["scenario"]).unlink()  # the upload's temporary file is gone
    with config_of(setup) as config:  # as ``play --resume`` sets the game up again
        assert Path(config.scenario).read_text(encoding="utf-8") == text
    with TestClient(create_app(db)) as second:
        assert second.post(f"/api/games/{game}/resume").json()["status"] == "playing"
        after = settle(second, game, [token])
        assert (after["turn"], after["question"]) == (before["turn"], before["question"])
        while after["status"] != "over":
            assert after["status"] == "your-turn", after.get("error")
            got = answer(second, game, token, 0, after["turn"])
            assert got.status_code == 200, got.text
            after = settle(second, game, [token])
        assert after["scenario"] == "Conquest"


def test_a_company_file_gone_is_written_again_from_the_kept_text(tmp_path: Path) -> None:
    """What a game stored before its first event needs to be set up again (``build``)."""
    from confrontation.sim.c4game import C4Config, build
    from confrontation.store import ArmyCopy
    from confrontation.web.c4host import company_label, kept_companies

    text = COMPANY.read_text(encoding="utf-8").replace("Vanguard of the Griffin", "Kept")
    gone = tmp_path / "company-gone.toml"
    config = C4Config(companies=(str(gone), "lion-host"))
    copies = (ArmyCopy("Kept", str(gone), text), ArmyCopy("Host of the Lion", None, None))
    kept = kept_companies(config, copies)
    assert kept.companies[1] == "lion-host" and kept.companies[0] != str(gone)
    assert Path(kept.companies[0]).read_text(encoding="utf-8") == text
    assert company_label(kept.companies[0]) == "Kept"
    assert build(kept).units  # set up from the kept text
    assert kept_companies(config, (ArmyCopy("Kept", str(gone), None), copies[1])) == config
