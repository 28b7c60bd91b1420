"""Saved games in a real browser (marked ``browser``: `make test-browser`): the games list
with its "play" links (the seat links this browser opened), deletion after a confirmation,
a game resumed from the page after the server was stopped, the replay slider and the
downloads. Screenshots: docs/web/games.png, docs/web/replay.png."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx2
import pytest
from browser_support import SHOTS
from playwright.sync_api import Page, expect
from server_support import free_port, serve

from confrontation.engine.record import read_log, replay
from confrontation.engine.step import is_over

pytestmark = pytest.mark.browser

ACCEPT_DOWNLOADS = True
ARMIES = [{"id": "akkylannie-crusade"}, {"id": "bran-o-kor-horde"}]


def start(base: str, seats: list[str], seed: int) -> dict[str, object]:
    body = {"armies": ARMIES, "seats": seats, "seed": seed, "rounds": 2}
    response = httpx2.post(f"{base}/api/games", json=body, timeout=60)
    assert response.status_code == 201, response.text
    made: dict[str, object] = response.json()
    return made


def over(base: str, game_id: object) -> None:
    deadline = time.monotonic() + 120
    while httpx2.get(f"{base}/api/games/{game_id}", timeout=60).json()["status"] != "over":
        assert time.monotonic() < deadline, f"game {game_id} did not end"
        time.sleep(0.2)


def test_saved_games_on_the_page(page: Page, tmp_path: Path) -> None:
    db, log, port = str(tmp_path / "games.db"), tmp_path / "server.log", free_port()
    with serve(db, log, port) as base:
        finished = start(base, ["random", "greedy"], 5)["id"]
        doomed = start(base, ["random", "random"], 6)["id"]
        person = start(base, ["person", "greedy"], 7)
        seat_url = base + str(person["seats"][0]["url"])  # type: ignore[index]
        over(base, finished)
        over(base, doomed)
        page.goto(seat_url)  # this browser now holds the seat
        expect(page.locator("#status")).to_have_class(re.compile("your-turn"))

        page.goto(base + "/")
        row = page.locator(f"#game-{person['id']}")
        expect(row.locator("a.play")).to_have_attribute("href", str(person["seats"][0]["url"]))  # type: ignore[index]
        expect(page.locator(f"#game-{finished} .status-cell")).to_contain_text("finished")

        # deletion asks first: dismissed, nothing changes; accepted, the game is gone
        page.once("dialog", lambda dialog: dialog.dismiss())
        page.click(f"#game-{doomed} button.delete")
        expect(page.locator(f"#game-{doomed}")).to_be_visible()
        assert doomed in [g["id"] for g in httpx2.get(f"{base}/api/games").json()]
        page.once("dialog", lambda dialog: dialog.accept())
        page.click(f"#game-{doomed} button.delete")
        expect(page.locator(f"#game-{doomed}")).to_have_count(0)
        assert doomed not in [g["id"] for g in httpx2.get(f"{base}/api/games").json()]
        page.screenshot(path=str(SHOTS / "games.png"), full_page=True)

        # the replay: the slider goes back to the deployment; the downloads follow it
        page.click(f"#game-{finished} a.replay")
        expect(page.locator("#round-label")).to_contain_text("the end (round 2)")
        page.locator("#round").fill("0")
        expect(page.locator("#round-label")).to_have_text("after the deployment")
        expect(page.locator('.frame[data-index="0"]')).to_be_visible()
        expect(page.locator('.frame[data-index="2"]')).to_be_hidden()
        expect(page.locator("#dl-svg")).to_have_attribute(
            "href", f"/api/games/{finished}/board.svg?round=0"
        )
        page.locator("#round").fill("1")
        expect(page.locator("#round-label")).to_have_text("end of round 1")
        page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)
        with page.expect_download() as png:
            page.click("#dl-png")
        assert Path(png.value.path()).read_bytes().startswith(b"\x89PNG")
        with page.expect_download() as record:
            page.click("#dl-record")
        events = read_log(Path(record.value.path()).read_text(encoding="utf-8").splitlines())
        assert is_over(replay(events))

    # the server stopped: the person's game is interrupted, and resumed from the page
    with serve(db, log, port) as base:
        page.goto(base + "/")
        page.click(f"#game-{person['id']} button.resume")
        page.wait_for_url(seat_url)
        expect(page.locator("#status")).to_have_class(re.compile("your-turn"))
        listed = {g["id"]: g for g in httpx2.get(f"{base}/api/games").json()}
        assert listed[person["id"]]["status"] == "running" and listed[person["id"]]["hosted"]
