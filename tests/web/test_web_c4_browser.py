"""A C4 game (the unit-based rules) in a real browser: Playwright drives Debian's Chromium
(``make test-browser``; deselected from ``make test``). The game is started from the form
(rules C4, a mode, two companies), questions are answered by clicking — the buttons (the moves
named in words) and the destinations marked on the table, running towards the enemy — with
"What would the AI do?" opened at each unit's action, and the screen is saved as
docs/web/c4.png once an assault within reach shows its odds (the Courage test, the distance,
the melee's expected losses)."""

from __future__ import annotations

import time

import httpx2
import pytest
from browser_support import SHOTS, settled, turn
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1400, "height": 1000}


# For each element the selector finds: is it the one a click at its centre reaches?
_ON_TOP = """sel => [...document.querySelectorAll(sel)].map(c => {
  c.scrollIntoView({block: 'center'});
  const r = c.getBoundingClientRect();
  return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === c;
})"""


def test_a_c4_game_started_and_answered_by_clicks(server: str, page: Page) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    assert page.locator("#c4-options").is_hidden()
    page.select_option("#rules", "c4")
    assert page.locator("#c4-options").is_visible() and page.locator("#army1").is_hidden()
    assert page.locator("#mode").input_value() == "marauder"  # the default mode
    assert page.locator("#mode option").count() == 6
    page.select_option("#company1", "griffin-vanguard")
    page.select_option("#company2", "lion-host")
    page.select_option("#seat1", "person")
    page.select_option("#seat2", "greedy")
    page.fill("#seed", "3")
    page.click("#start")
    page.wait_for_url("**/games/*?seat=*")
    assert settled(page) == "your-turn"
    assert "C4, marauder mode" in page.locator("h2").inner_text()
    assert page.locator("#board svg polygon.formation").count() >= 4  # four units drawn
    assert page.locator("#board svg circle.leader").count() >= 4
    assert "(you)" in page.locator("#players").inner_text()

    answers, by_spot, shot = 0, 0, False
    while answers < 8 or not shot:
        assert settled(page) == "your-turn", "the game ended before the questions were answered"
        assert answers < 40, "no assault within reach was offered"
        before = turn(page)
        spots = page.locator("#board svg circle.spot")
        if spots.count():
            # a unit's action: its choices as buttons (moves in words), its moves as points
            buttons = page.locator("#question .option").all_inner_texts()
            assert len(buttons) > spots.count() and len(set(buttons)) == len(buttons)
            assert page.locator("#question .group").count() >= 2
            assert not any("towards (" in b for b in buttons)  # no coordinates
            assert any(" cm " in b for b in buttons)
            odds = page.locator("#question .odds").all_inner_texts()
            assert odds, "an assault's odds are shown beside it"
            page.locator("#hint summary").click()  # "What would the AI do?"
            said = page.locator("#hint").inner_text()
            assert "The greedy AI, on what you see, would choose:" in said
            page.wait_for_selector("#question .option.hinted", timeout=5000)
            assert page.locator("#question .option.hinted").count() == 1
            if not shot and any("reaches" in o and "melee:" in o for o in odds):
                page.screenshot(path=SHOTS / "c4.png", full_page=True)
                shot = True
            prompt = page.locator("#prompt").inner_text()
            assert "is activated" in prompt
            towards = page.locator("#board svg circle.spot.run title")
            # a spot a player can click at its centre (close spots may overlap)
            on_top = page.evaluate(_ON_TOP, "#board svg circle.spot.run")
            pick = next(
                (
                    k
                    for k in range(towards.count())
                    if on_top[k] and "towards Player" in (towards.nth(k).text_content() or "")
                ),
                None,
            )
            if pick is None:
                spots.nth(page.evaluate(_ON_TOP, "#board svg circle.spot").index(True)).click()
            else:
                page.locator("#board svg circle.spot.run").nth(pick).click()
            by_spot += 1
        else:
            page.locator("#question .option").first.click()
        answers += 1
        settled(page, after=before)
    assert by_spot >= 1 and shot
    story = page.locator("#log").inner_text()
    assert "A C4 game begins in marauder mode." in story and "Round 1 begins." in story
    assert any(verb in story for verb in (" move", " walk", " run"))  # the move clicked


def test_a_c4_game_replayed_round_by_round(server: str, page: Page) -> None:
    """The replay page of a finished C4 game (everything shown, the game being over): the
    slider at each round's start shows that round's table and story; docs/web/c4-replay.png."""
    body = {
        "rules": "c4",
        "mode": "general",
        "armies": [{"id": "griffin-vanguard"}, {"id": "lion-host"}],
        "seats": ["greedy", "greedy"],
        "seed": 3,
        "rounds": 3,
    }
    made = httpx2.post(f"{server}/api/games", json=body, timeout=30)
    assert made.status_code == 201, made.text
    game = made.json()["id"]
    deadline = time.monotonic() + 240
    while httpx2.get(f"{server}/api/games/{game}", timeout=30).json()["status"] != "over":
        assert time.monotonic() < deadline, "the AI game did not end"
        time.sleep(0.2)
    page.goto(f"{server}/games/{game}/replay")
    expect(page.locator("#replay-shows")).to_contain_text("everything shown")
    expect(page.locator("#round-label")).to_have_text("the end (round 3)")
    frames = page.locator(".frame svg")
    assert frames.count() == 4
    page.locator("#round").fill("1")
    expect(page.locator("#round-label")).to_have_text("start of round 2")
    shown = page.locator(".frame-log:not([hidden]) li")
    expect(shown.first).to_have_text("Round 2 begins.")
    expect(page.locator("#dl-svg")).to_have_attribute(
        "href", f"/api/games/{game}/board.svg?round=2"
    )
    visible = page.locator(".frame:not([hidden])")
    assert visible.count() == 1 and visible.get_attribute("data-round") == "2"
    log = " ".join(shown.all_inner_texts())
    assert "Player 1's cards" in log and "Player 2's cards" in log  # the game is over
    page.screenshot(path=str(SHOTS / "c4-replay.png"), full_page=True)
    page.locator("#round").fill("3")
    expect(page.locator("#round-label")).to_have_text("the end (round 3)")
    expect(page.locator("#dl-svg")).to_have_attribute("href", f"/api/games/{game}/board.svg")
