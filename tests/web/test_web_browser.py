"""The table in a real browser: Playwright drives Debian's Chromium (``make test-browser``;
deselected from ``make test``). A game against the AI is started from the page, deployed by
clicking the table, played on by clicks to its end with a reload in the middle; a hot-seat
game and a seat link that sees only its own player's question. Screenshots of the main
screens go to docs/web/."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import SHOTS, settled, turn
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser


def click_the_table(page: Page) -> None:
    """Click the board a little off one of the marked places: the nearest is taken."""
    spot = page.locator("#board .spot").nth(1).bounding_box()
    assert spot is not None
    page.mouse.click(spot["x"] + spot["width"] / 2 + 2, spot["y"] + spot["height"] / 2 + 1)


def answer(page: Page) -> None:
    """Answer the question on the page: a place by clicking the table, else the first
    option's button."""
    before = turn(page)
    if page.locator("#board .spot").count():
        click_the_table(page)
        if kind(page) in ("destination", "deploy"):  # shown first (a path, a facing): confirm
            for _ in range(3):  # a redraw of the question (the story arriving) drops the choice
                try:
                    page.wait_for_selector("#confirm", state="visible", timeout=5_000)
                    break
                except PlaywrightTimeout:
                    click_the_table(page)
            page.click("#confirm")
    else:
        page.locator("#question .option").first.click()
    settled(page, after=before)


def drag_facing(page: Page) -> str:
    """Drag the facing handle round the chosen place; the facing it set once the engine
    allowed it (blank: refused there, the offered facing kept)."""
    handle = page.locator("#facing-handle").bounding_box()
    assert handle is not None
    hx, hy = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    page.mouse.move(hx, hy)
    page.mouse.down()
    page.mouse.move(hx - 20, hy - 40, steps=5)
    page.mouse.move(hx - 30, hy - 60, steps=5)
    page.mouse.up()
    facing = page.locator("#facing").input_value()
    assert facing != ""
    page.wait_for_function("document.getElementById('facing-check').textContent.includes('°')")
    checked = page.locator("#facing-check").inner_text()
    assert checked.startswith(f"Facing {facing}°")
    if "refused" in checked:  # the rules refuse it there: as offered
        assert page.locator("#confirm").is_disabled()
        page.fill("#facing", "")
        page.dispatch_event("#facing", "change")
        return ""
    assert f"turned to {facing}°" in page.locator("#confirm").inner_text()
    return facing


def facing_of(page: Page, fighter: str) -> float:
    """The fighter's facing as the API gives it to this page's seat."""
    return float(
        page.evaluate(
            """async ([id, seat]) => {
                const game = document.getElementById('game').dataset.game;
                const r = await fetch(`/api/games/${game}?seat=${seat}`);
                const v = await r.json();
                return v.fighters.find((f) => f.id === id).facing;
            }""",
            [fighter, page.url.split("seat=")[1]],
        )
    )


def test_a_game_against_the_ai_by_clicks(server: str, page: Page) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    page.select_option("#seat1", "person")
    page.select_option("#seat2", "greedy")
    page.fill("#seed", "3")
    page.fill("#rounds", "2")
    page.click("#start")
    page.wait_for_url("**/games/*?seat=*")
    settled(page)

    deployed = reloaded = hovered = False
    answers = 0
    while page.locator("#game").get_attribute("data-status") != "over":
        prompt = page.locator("#prompt").inner_text()
        if "where do you deploy" in prompt and not deployed:
            # the middle of the table: refused, with the reason (III-A-1)
            board = page.locator("#board svg").bounding_box()
            assert board is not None
            page.mouse.click(board["x"] + board["width"] / 2, board["y"] + board["height"] / 2)
            page.wait_for_selector("#refusal:not([hidden])")
            refusal = page.locator("#refusal").inner_text()
            assert "refused" in refusal and "deployment area" in refusal and "III-A-1" in refusal
            assert page.locator("#prompt").inner_text() == prompt  # nothing answered
            page.screenshot(path=SHOTS / "deployment.png", full_page=True)
            on_table = page.locator("#board g.fighter").count()
            # a point near a marked place: chosen, then turned by the handle and confirmed
            first = turn(page)
            click_the_table(page)
            page.wait_for_selector("#confirm")
            assert page.locator("#refusal").is_hidden()
            facing = drag_facing(page)
            who = prompt.split("(")[-1].split(")")[0]
            page.click("#confirm")
            settled(page, after=first)
            assert page.locator("#board g.fighter").count() > on_table  # he stands there
            if facing:
                assert abs(facing_of(page, who) - float(facing)) < 0.06
            deployed = True
            continue
        if deployed and not hovered and "Round 1" in page.locator("#status").inner_text():
            page.locator("#board g.fighter").first.hover()
            page.wait_for_selector("#card:not([hidden])")
            assert "MOV" in page.locator("#card").inner_text()
            page.screenshot(path=SHOTS / "game.png", full_page=True)
            hovered = True
        if answers == 40 and not reloaded:
            before = (turn(page), prompt)
            page.reload()
            settled(page)
            assert (turn(page), page.locator("#prompt").inner_text()) == before
            reloaded = True
        answer(page)
        answers += 1
    assert deployed and reloaded and hovered
    assert "The game is over" in page.locator("#status").inner_text()
    assert page.locator("#log li").count() > 50
    page.screenshot(path=SHOTS / "over.png", full_page=True)


def test_hot_seat_and_a_seat_link_that_sees_only_its_own(server: str, page: Page) -> None:
    page.goto(server + "/")
    page.select_option("#seat1", "person")
    page.select_option("#seat2", "person")
    page.click("#start")
    page.wait_for_selector("#hotseat")
    links = page.locator(".seat-link")
    second_link = server + str(links.nth(1).get_attribute("href"))
    page.click("#hotseat")
    settled(page)
    for _ in range(40):  # both players answer on one screen, till both sequences are set
        if page.locator(".player .sequence").count() == 2:
            break
        answer(page)
    assert page.locator(".player .sequence").count() == 2  # the hot-seat page sees both
    asked = page.locator("#prompt").inner_text()
    player = 1 if asked.startswith("Player 1") else 2
    other = page.context.new_page()
    other.goto(second_link)
    other.wait_for_selector("#question p, #question h3")
    if player == 1:  # Player 2's page shows no options for Player 1's question
        assert other.locator("#question .option").count() == 0
        assert "Player 1 (person) is to answer" in other.locator("#question").inner_text()
    else:
        assert other.locator("#prompt").inner_text() == asked
    assert other.locator(".player.yours").count() == 1
    assert other.locator(".player.p1 .sequence").count() == 1  # his own sequence
    assert other.locator(".player.p0 .sequence").count() == 0  # not Player 1's


# --- acting by clicks: a walk to a clicked point, a charge, dice allocation, the ruler ------


def kind(page: Page) -> str:
    return str(page.locator("#game").get_attribute("data-kind") or "")


def answer_by_hint(page: Page) -> None:
    """Answer as the AI would (its hinted option; else the first), by the buttons."""
    before = turn(page)
    hinted = page.locator("#question .options .option.hinted")
    if page.locator("#board .spot").count() and kind(page) != "destination":
        click_the_table(page)
        if kind(page) == "deploy":
            page.click("#confirm")
    elif hinted.count():  # in the folded list of places, maybe: its button's own click
        hinted.first.dispatch_event("click")
    else:
        page.locator("#question .option").first.click()
    settled(page, after=before)


def start_against_the_ai(server: str, page: Page, seed: str = "3") -> None:
    page.goto(server + "/")
    page.select_option("#seat1", "person")
    page.select_option("#seat2", "greedy")
    page.fill("#seed", seed)
    page.fill("#rounds", "3")
    page.click("#start")
    page.wait_for_url("**/games/*?seat=*")
    settled(page)


def fighter_centre(page: Page, fighter: str) -> tuple[float, float]:
    box = page.locator(f'#board g.fighter[data-fighter="{fighter}"]').bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_walk_charge_allocate_and_measure_by_clicks(server: str, page: Page) -> None:
    start_against_the_ai(server, page)
    walked = charged = allocated = measured = False
    for _ in range(400):
        if page.locator("#game").get_attribute("data-status") == "over":
            break
        if walked and charged and allocated and measured:
            break
        asked = kind(page)
        if (
            asked == "activation"
            and not measured
            and page.locator("#board g.fighter.can-target").count()
        ):
            # the ruler between two fighters' bases, then the line of sight
            page.click("#ruler")
            ids = page.locator("#board g.fighter.can-act").first.get_attribute("data-fighter")
            other = page.locator("#board g.fighter.can-target").first.get_attribute("data-fighter")
            assert ids and other
            page.mouse.click(*fighter_centre(page, ids))
            page.mouse.click(*fighter_centre(page, other))
            page.wait_for_function(
                "document.getElementById('tool-result').textContent.includes(' cm (bases)')"
            )
            assert page.locator("#board .ruler-line").count() == 1
            page.screenshot(path=SHOTS / "ruler.png", full_page=True)
            page.click("#sight")
            page.mouse.click(*fighter_centre(page, ids))
            page.mouse.click(*fighter_centre(page, other))
            page.wait_for_function(
                "document.getElementById('tool-result').textContent.includes('sight')"
            )
            page.click("#sight")  # the tool off again
            measured = True
            continue
        if asked == "activation" and not charged:
            charges = [
                i
                for i in range(page.locator("#question .option").count())
                if ": charge " in page.locator("#question .option").nth(i).inner_text()
            ]
            if charges:
                label = page.locator("#question .option").nth(charges[0]).inner_text()
                mine = label.split(" (")[1].split(")")[0]
                target = label.split("charge ")[1].split(" (")[1].split(")")[0]
                before = turn(page)
                page.mouse.click(*fighter_centre(page, mine))  # his actions highlighted
                page.wait_for_selector("#question .option.focus")
                assert page.locator(f'#board g.fighter.selected[data-fighter="{mine}"]').count()
                page.mouse.click(*fighter_centre(page, target))  # the enemy: charge him
                if page.locator("#choices:not([hidden])").count():
                    page.locator("#choices .option", has_text="charge").first.click()
                settled(page, after=before)
                assert any("charge" in t.lower() for t in page.locator("#log li").all_inner_texts())
                charged = True
                continue
        if asked == "destination" and not walked:
            spot = page.locator("#board .spot").nth(1).bounding_box()
            assert spot is not None
            board = page.locator("#board svg").bounding_box()
            assert board is not None
            # a click far from any offered place: refused with the engine's reason
            page.mouse.click(board["x"] + 3, board["y"] + 3)
            page.wait_for_selector("#refusal:not([hidden])")
            assert "refused" in page.locator("#refusal").inner_text()
            # a click beside a listed place: the path drawn, then confirmed
            page.mouse.click(spot["x"] + spot["width"] / 2 + 2, spot["y"] + spot["height"] / 2)
            page.wait_for_selector("#board .move-path")
            page.wait_for_selector("#confirm")
            assert "cm along the drawn path" in page.locator("#confirm").inner_text()
            # the facing: the handle dragged round the chosen place (V-B-1), checked by the
            # engine before it is sent
            facing = drag_facing(page)
            assert page.locator("#board .move-path").count() == 1  # no new destination
            page.screenshot(path=SHOTS / "walk.png", full_page=True)
            mover = page.locator("#prompt").inner_text().split("(")[-1].split(")")[0]
            before = turn(page)
            page.click("#confirm")
            settled(page, after=before)
            if facing:
                assert abs(facing_of(page, mover) - float(facing)) < 0.06
            walked = True
            continue
        if asked == "allocate_dice" and not allocated:
            odds = page.locator("#question .option .odds")
            assert odds.count() == page.locator("#question .options .option").count()
            assert "expected hits" in odds.first.inner_text()
            page.locator("#hint summary").click()
            assert "would choose" in page.locator("#hint").inner_text()
            assert page.locator("#question .option.hinted").count() == 1
            page.screenshot(path=SHOTS / "allocation.png", full_page=True)
            allocated = True
        answer_by_hint(page)
    assert walked and charged and allocated and measured
    sections = page.locator("#log .section").all_inner_texts()
    assert "IV-B-1" in sections and page.locator("#log .dice").count() > 0


# --- the start form: three to six players, an uploaded scenario ----------------------------


def test_start_three_players_and_an_uploaded_scenario(
    server: str, page: Page, tmp_path: Path
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    assert page.locator('tr.seat-row[data-player="3"]').is_hidden()
    page.select_option("#player-count", "3")
    assert page.locator('tr.seat-row[data-player="3"]').is_visible()
    assert page.locator('tr.seat-row[data-player="4"]').is_hidden()
    assert page.locator("#scenario-upload").is_hidden()
    page.select_option("#scenario", "upload")
    assert page.locator("#scenario-upload").is_visible()
    bad = tmp_path / "broken.toml"
    bad.write_text("name = 'x'\nbad = [", encoding="utf-8")
    page.set_input_files("#scenario_file", str(bad))
    page.select_option("#seat1", "person")
    page.select_option("#seat2", "greedy")
    page.select_option("#seat3", "random")
    page.fill("#seed", "4")
    page.fill("#rounds", "1")
    page.click("#start")
    assert "invalid TOML" in page.locator("main").inner_text()  # the loader's one line
    page.go_back()
    page.select_option("#player-count", "3")
    page.select_option("#scenario", "upload")
    conquest = Path(__file__).parents[2] / "src/confrontation/data/scenarios/conquest.toml"
    page.set_input_files("#scenario_file", str(conquest))
    page.select_option("#seat1", "person")
    page.select_option("#seat2", "greedy")
    page.select_option("#seat3", "random")
    page.fill("#seed", "4")
    page.fill("#rounds", "1")
    page.screenshot(path=SHOTS / "start.png", full_page=True)
    page.click("#start")
    page.wait_for_url("**/games/*?seat=*")
    settled(page)
    assert page.locator("#players .player").count() == 3
    assert "Conquest" in page.locator(".top h2").inner_text()
    assert page.locator(".player.yours").count() == 1
    for _ in range(40):  # to the deployment: three areas round the table (XX-F-1)
        if kind(page) == "deploy":
            break
        answer(page)
    assert kind(page) == "deploy" and page.locator("#board .spot").count() > 0
    page.screenshot(path=SHOTS / "three.png", full_page=True)
