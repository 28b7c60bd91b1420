"""C4 games (the unit-based rules) through the web server's HTTP API: AI seats playing a
game to its end, a person answering, each seat sent only its own view (``c4.views.redact``:
checked on the JSON and HTML the server sends), bad requests refused in one line, games
listed with their rules and mode and taken up again after a restart."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from confrontation.web.app import create_app

COMPANIES = [{"id": "griffin-vanguard"}, {"id": "lion-host"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "games.db"))) as test_client:
        yield test_client


def new_c4(client: TestClient, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"rules": "c4", "armies": COMPANIES, "seats": seats, "seed": 5, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def view_of(client: TestClient, game_id: int, seats: list[str]) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params={"seat": seats})
    assert response.status_code == 200, response.text
    got: dict[str, Any] = response.json()
    return got


def settle(client: TestClient, game_id: int, seats: list[str], timeout: float = 240.0) -> Any:
    """The view once the server waits for a person or the game is over."""
    deadline = time.monotonic() + timeout
    while True:
        view = view_of(client, game_id, seats)
        if view["status"] in ("your-turn", "waiting", "over", "stopped"):
            return view
        assert time.monotonic() < deadline, f"game {game_id} did not settle: {view['status']}"
        time.sleep(0.05)


def answer(client: TestClient, game_id: int, seat: str, option: int, turn: int) -> Any:
    return client.post(
        f"/api/games/{game_id}/answer", params={"seat": seat}, json={"option": option, "turn": turn}
    )


def test_an_ai_game_to_its_end_listed_with_its_rules_and_mode(client: TestClient) -> None:
    made = new_c4(client, ["greedy", "random"], mode="warlord")
    assert made["hotseat_url"] is None and all(s["token"] is None for s in made["seats"])
    view = settle(client, made["id"], [])
    assert view["status"] == "over", view["error"]
    assert view["rules"] == "c4" and view["mode"] == "warlord"
    assert view["log"][0] == "A C4 game begins in warlord mode."
    assert view["log"][-1].startswith("The game is over")
    assert view["question"] is None and view["scores"] is not None
    assert 'class="formation' in view["svg"] and 'class="leader"' in view["svg"]
    listed = next(g for g in client.get("/api/games").json() if g["id"] == made["id"])
    assert (listed["rules"], listed["mode"], listed["status"]) == ("c4", "warlord", "finished")
    assert listed["winner"] == view["winner"] and listed["agents"] == ["greedy", "random"]
    page = client.get("/").text
    assert "C4, warlord" in page
    svg = client.get(f"/api/games/{made['id']}/board.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text == view["svg"]
    record = client.get(f"/api/games/{made['id']}/record.jsonl")
    assert record.status_code == 200
    assert json.loads(record.text.splitlines()[0])["kind"] == "c4_game_started"


def test_a_scenario_game_between_ais(client: TestClient) -> None:
    made = new_c4(client, ["random", "random"], scenario="bloodbath", seed=2)
    view = settle(client, made["id"], [])
    assert view["status"] == "over" and view["scenario"] == "bloodbath"
    listed = next(g for g in client.get("/api/games").json() if g["id"] == made["id"])
    assert (listed["rules"], listed["mode"]) == ("c4", "marauder")


def test_a_person_answers_and_is_refused_what_is_not_his(client: TestClient) -> None:
    made = new_c4(client, ["person", "greedy"], mode="general")
    game, token = made["id"], made["seats"][0]["token"]
    assert made["seats"][0]["url"] == f"/games/{game}?seat={token}"
    view = settle(client, game, [token])
    assert view["status"] == "your-turn"
    question = view["question"]
    assert question["prompt"].startswith("Place your next card")
    assert all("p1-" not in o["label"] for o in question["options"])  # units by their names
    assert any("Griffin" in o["label"] for o in question["options"])
    pending = client.get(f"/api/games/{game}/question", params={"seat": token}).json()
    assert pending == question
    # refused, nothing changed: a spectator, a stale turn, an option that does not exist
    assert client.post(f"/api/games/{game}/answer", json={"option": 0}).status_code == 403
    stale = answer(client, game, token, 0, view["turn"] + 1)
    assert stale.status_code == 409 and "stale" in stale.json()["detail"]
    missing = answer(client, game, token, 99, view["turn"])
    assert missing.status_code == 400 and missing.json()["detail"].startswith("no option 99")
    wrong = client.get(f"/api/games/{game}", params={"seat": "not-a-seat"})
    assert wrong.status_code == 403
    assert view_of(client, game, [token])["turn"] == view["turn"]
    answered = 0
    kinds = set()
    while answered < 6:
        view = settle(client, game, [token])
        assert view["status"] == "your-turn"
        kinds.add(view["question"]["kind"])
        last = len(view["question"]["options"]) - 1
        got = answer(client, game, token, last, view["turn"])
        assert got.status_code == 200, got.text
        assert got.json()["turn"] > view["turn"]
        answered += 1
    assert "c4_unit_action" in kinds or "c4_turn" in kinds
    mine = view_of(client, game, [token])["players"][0]
    assert mine["you"] and "sequence" in mine


def play_persons(client: TestClient, game: int, tokens: list[str], until: int) -> list[Any]:
    """Answer each person's questions (option 0) from his own link until ``until`` answers
    are given; every view each seat was sent on the way."""
    sent = []
    for _ in range(until):
        views = [settle(client, game, [t]) for t in tokens]
        sent.extend(views)
        if views[0]["status"] == "over":
            break
        who = next(i for i, v in enumerate(views) if v["status"] == "your-turn")
        got = answer(client, game, tokens[who], 0, views[who]["turn"])
        assert got.status_code == 200, got.text
    return sent


def test_each_seat_is_sent_only_its_own_secrets(client: TestClient) -> None:
    """General mode: each player's sequence is laid face down (# C4 Tactical Phase); two
    persons, each on his own link, never receive the other's cards, in JSON or HTML; the
    hot-seat page (both seats) sees both, a spectator neither."""
    made = new_c4(client, ["person", "person"], mode="general")
    game = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    assert made["hotseat_url"] is not None
    sent = play_persons(client, game, tokens, 12)
    both = view_of(client, game, tokens)
    told = " ".join(both["log"])
    assert "Player 1's cards:" in told and "Player 2's cards:" in told  # the referee's story
    for me, token in enumerate(tokens):
        other = 1 - me
        views = [v for v in sent if v["seats"] == [me]]
        views.append(view_of(client, game, [token]))
        for view in views:
            text = json.dumps(view)
            assert f"Player {other + 1}'s cards" not in text
            assert f"Player {me + 1}'s cards" in text or view["round"] == 1
            assert set(view["players"][other]) & {"sequence", "reserve", "drawn"} == set()
            if view["question"] is not None:
                assert view["question"]["player"] == me
        story = " ".join(view_of(client, game, [token])["log"])
        assert f"Player {other + 1} lays out" in story
        page = client.get(f"/games/{game}", params={"seat": token}).text
        assert "cards:" not in page and "sequence" not in page.split("<script")[0]
        question = client.get(f"/api/games/{game}/question", params={"seat": token}).json()
        assert question is None or question["player"] == me
    watcher = view_of(client, game, [])
    assert "cards:" not in json.dumps(watcher) and watcher["question"] is None


def test_marauder_drawn_and_reserve_cards_stay_their_owners(client: TestClient) -> None:
    """Marauder: the card a player drew of his own, and his reserve card, are not revealed
    (# C4 Marauder mode): the other seat is never sent them."""
    made = new_c4(client, ["person", "person"], mode="marauder", seed=11)
    game = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    seen_drawn = False
    for _ in range(30):
        views = [settle(client, game, [t]) for t in tokens]
        if views[0]["status"] == "over":
            break
        who = next(i for i, v in enumerate(views) if v["status"] == "your-turn")
        other = views[1 - who]
        assert set(other["players"][who]) & {"sequence", "reserve", "drawn"} == set()
        assert "You drew" not in json.dumps(other)
        q = views[who]["question"]
        if q["kind"] == "c4_drawn":
            seen_drawn = True
            assert views[who]["players"][who]["drawn"] is not None
            assert q["prompt"].startswith("You drew your own card")
        reserve = next(
            (o["index"] for o in q["options"] if o["label"].startswith("put it in reserve")), 0
        )
        got = answer(client, game, tokens[who], reserve, views[who]["turn"])
        assert got.status_code == 200, got.text
    assert seen_drawn


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"mode": "skirmish"}, "no C4 game mode 'skirmish'"),
        ({"armies": [{"id": "griffin-vanguard"}, {"id": "nobody"}]}, "no C4 company 'nobody'"),
        ({"armies": [{"toml": "x = 1"}, {"id": "lion-host"}]}, "army 1: company-"),
        ({"armies": [{"toml": "x = 1", "id": "lion-host"}, {"id": "lion-host"}]}, "or a file"),
        ({"armies": COMPANIES * 2, "seats": ["greedy"] * 4}, "two companies"),
        ({"seats": ["person", "genius"]}, "unknown seat 'genius'"),
        ({"scenario": "the-hill"}, "does not fit C4 units"),
        ({"scenario_toml": "x = 1"}, "bundled scenario"),
    ],
)
def test_bad_c4_requests_are_refused_in_one_line(
    client: TestClient, body: dict[str, Any], says: str
) -> None:
    request = {"rules": "c4", "armies": COMPANIES, "seats": ["greedy", "greedy"], **body}
    response = client.post("/api/games", json=request)
    assert response.status_code == 400, response.text
    detail = response.json()["detail"]
    assert says in detail and "\n" not in detail
    assert client.get("/api/games").json() == []  # nothing saved


def test_the_form_starts_a_c4_game_and_refuses_bad_values(client: TestClient) -> None:
    form = {
        "rules": "c4",
        "mode": "barbarian",
        "c4scenario": "battle",
        "company1": "wolf-pack",
        "company2": "scorpion-cohort",
        "seat1": "person",
        "seat2": "random",
        "seed": "4",
    }
    started = client.post("/games", data=form, follow_redirects=False)
    assert started.status_code == 303
    assert "?seat=" in started.headers["location"]
    page = client.get(started.headers["location"])
    assert page.status_code == 200 and "c4game.js" in page.text and "barbarian mode" in page.text
    listed = client.get("/api/games").json()[0]
    assert (listed["rules"], listed["mode"]) == ("c4", "barbarian")
    assert listed["armies"] == ["Pack of the Wolf", "Cohort of the Scorpion"] or all(
        listed["armies"]
    )
    for bad, says in (
        ({"mode": "chess"}, "no C4 game mode"),
        ({"company2": "akkylannie-crusade"}, "no C4 company"),
        ({"c4scenario": "fire"}, "does not fit C4 units"),
        ({"seed": "x"}, "numbers"),
        ({"seat2": "oracle"}, "unknown seat"),
    ):
        refused = client.post("/games", data={**form, **bad})
        assert refused.status_code == 400, bad
        assert says in refused.text
    index = client.get("/").text
    assert 'id="mode"' in index and "military-genius" in index and "cp-close-quarters" in index


def test_confede_tools_refuse_a_c4_game(client: TestClient) -> None:
    made = new_c4(client, ["person", "greedy"])
    game, token = made["id"], made["seats"][0]["token"]
    settle(client, game, [token])
    ruler = client.get(f"/api/games/{game}/measure", params={"a": "0,0", "b": "1,1"})
    assert ruler.status_code == 409 and "C4" in ruler.json()["detail"]
    assert client.get(f"/api/games/{game}/replay").status_code == 200  # test_web_c4_replay
    record = client.get(f"/api/games/{game}/record.jsonl")
    assert record.status_code == 403  # a person's game not over: every player's secrets
    facing = client.post(
        f"/api/games/{game}/answer", params={"seat": token}, json={"option": 0, "facing": 10}
    )
    assert facing.status_code == 400 and "facing" in facing.json()["detail"]
    mode = client.post(
        "/api/games",
        json={
            "armies": [{"id": "akkylannie-crusade"}, {"id": "bran-o-kor-horde"}],
            "seats": ["greedy", "greedy"],
            "mode": "general",
        },
    )
    assert mode.status_code == 400 and "C4" in mode.json()["detail"]
    options = client.get("/api/options").json()
    assert "c4" in options["rules"] and options["c4"]["default_mode"] == "marauder"
    assert len(options["c4"]["modes"]) == 6 and "lion-host" in options["c4"]["companies"]


def test_a_c4_game_is_taken_up_after_a_restart_and_played_to_its_end(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    with TestClient(create_app(db)) as first:
        made = new_c4(first, ["person", "greedy"], mode="master-strategist", seed=8)
        game, token = made["id"], made["seats"][0]["token"]
        for _ in range(3):
            view = settle(first, game, [token])
            assert answer(first, game, token, 0, view["turn"]).status_code == 200
        before = settle(first, game, [token])
    with TestClient(create_app(db)) as second:
        listed = next(g for g in second.get("/api/games").json() if g["id"] == game)
        assert listed["status"] == "interrupted" and listed["mode"] == "master-strategist"
        assert second.post(f"/api/games/{game}/resume").json()["status"] == "playing"
        after = settle(second, game, [token])
        assert (after["turn"], after["question"], after["log"]) == (
            before["turn"],
            before["question"],
            before["log"],
        )
        answers = 0
        while after["status"] != "over":
            assert after["status"] == "your-turn", after["error"]
            got = answer(
                second, game, token, answers % len(after["question"]["options"]), after["turn"]
            )
            assert got.status_code == 200, got.text
            answers += 1
            after = settle(second, game, [token])
        assert answers > 3 and after["log"][-1].startswith("The game is over")
        listed = next(g for g in second.get("/api/games").json() if g["id"] == game)
        assert listed["status"] == "finished" and listed["winner"] == after["winner"]


def test_the_salvo_odds_beside_a_shot_are_the_engines_salvo() -> None:
    """# C4 Unit Ranged Attack: the odds shown beside "walk and shoot" use the marksmen,
    range and difficulty the engine then resolves, and are ``c4.odds.salvo_odds`` exactly."""
    from fractions import Fraction

    from confrontation.agents.c4 import C4GreedyAgent
    from confrontation.c4.events import SalvoResolved
    from confrontation.c4.step import game_roller, is_over, question, roll, start, step
    from confrontation.sim.c4game import C4Config, build
    from confrontation.web.c4host import question_doc

    state, _ = start(build(C4Config(seed=3)))
    dice, agent = game_roller(state), C4GreedyAgent(2)
    checked = 0
    while not is_over(state) and checked < 3:
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
            continue
        shown = question_doc(asked, 0, state)["options"] if asked.kind == "c4_unit_action" else []
        shot = next((o for o in shown if "salvos" in o.get("odds", {})), None)
        if shot is None:
            state, _ = step(state, agent.choose(state, asked, asked.choices))
            continue
        first = shot["odds"]["salvos"][0]
        state, happened = step(state, asked.options[shot["index"]].choice)
        while not any(isinstance(e, SalvoResolved) for e in happened):
            state, more = roll(state, dice)
            happened += more
        salvo = next(e for e in happened if isinstance(e, SalvoResolved))
        assert (salvo.profile, salvo.marksmen, salvo.difficulty) == (
            first["profile"],
            first["marksmen"],
            first["difficulty"],
        )
        assert abs(salvo.distance - first["distance"]) < 0.06
        stats = state.stats(salvo.profile)
        assert stats is not None and salvo.dice == stats.ranged_dice * salvo.marksmen
        assert Fraction(first["at_least_one"]) > 0
        checked += 1
    assert checked == 3


def test_a_terminal_c4_game_is_watched_and_a_web_one_deleted(tmp_path: Path) -> None:
    """A C4 game ``play --rules c4`` saved is listed and watched (not played on); a web C4
    game waiting for a person can be deleted, its seat link then answering 404."""
    from confrontation.sim.c4game import C4Config, play_c4_stored
    from confrontation.store import open_store

    db = str(tmp_path / "games.db")
    store = open_store(db)
    cli_game, result = play_c4_stored(C4Config(agents=("random", "random"), seed=4), store)
    store.close()
    with TestClient(create_app(db)) as client:
        listed = next(g for g in client.get("/api/games").json() if g["id"] == cli_game)
        assert (listed["rules"], listed["mode"], listed["status"]) == ("c4", "marauder", "finished")
        view = view_of(client, cli_game, [])
        assert view["status"] == "over" and view["winner"] == result.winner
        assert view["log"][-1].startswith("The game is over")
        assert client.get(f"/games/{cli_game}").status_code == 200
        resumed = client.post(f"/api/games/{cli_game}/resume")  # nothing to play on
        assert resumed.status_code == 200 and resumed.json()["status"] == "over"
        made = new_c4(client, ["person", "random"])
        game, token = made["id"], made["seats"][0]["token"]
        settle(client, game, [token])
        assert client.delete(f"/api/games/{game}").json() == {"id": game, "deleted": True}
        assert client.get(f"/api/games/{game}", params={"seat": token}).status_code == 404


def test_the_odds_beside_a_walk_then_a_shot_are_the_engines_salvo_from_the_walks_end() -> None:
    """# C4 Activating Unit (walk and ranged attack, the shot after the walk): the page offers
    each walk of the menu followed by a shot, its odds those of the salvo the engine then
    resolves from where the walk ends (marksmen, range, difficulty), not from where the unit
    stood."""
    from fractions import Fraction

    from confrontation.agents.c4 import C4GreedyAgent
    from confrontation.c4.choices import UnitAction
    from confrontation.c4.events import SalvoResolved
    from confrontation.c4.step import game_roller, is_over, question, roll, start, step
    from confrontation.sim.c4game import C4Config, build
    from confrontation.web.c4host import question_doc, walk_shots

    state, _ = start(build(C4Config(seed=3)))
    dice, agent = game_roller(state), C4GreedyAgent(2)
    checked = moved = 0
    while not is_over(state) and checked < 3:
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
            continue
        shown = walk_shots(state, asked)
        doc = question_doc(shown, 0, state)
        extra = [o for o in doc["options"] if o["index"] >= len(asked.options)]
        if not extra:
            state, _ = step(state, agent.choose(state, asked, asked.choices))
            continue
        for o in extra:  # each one a walk then a shot, with its salvos' odds
            assert o["action"] == "walk_shoot" and ", then shoot at " in o["label"]
            assert o["odds"]["after_walk"] and o["odds"]["text"].startswith("from the walk's end")
            assert "spot" not in o  # the walk's point on the table stays the walk's
        pick = extra[checked % len(extra)]
        first = pick["odds"]["salvos"][0]
        choice = shown.options[pick["index"]].choice
        assert isinstance(choice, UnitAction) and choice.target is not None
        here = state.fighter(state.unit(choice.unit).leader)
        state, happened = step(state, choice)  # the engine takes it
        while not any(isinstance(e, SalvoResolved) for e in happened):
            state, more = roll(state, dice)
            happened += more
        salvo = next(e for e in happened if isinstance(e, SalvoResolved))
        assert (salvo.profile, salvo.marksmen, salvo.difficulty) == (
            first["profile"],
            first["marksmen"],
            first["difficulty"],
        )
        assert abs(salvo.distance - first["distance"]) < 0.06
        assert Fraction(first["at_least_one"]) > 0
        there = state.fighter(state.unit(choice.unit).leader)
        moved += abs(there.x - here.x) + abs(there.y - here.y) > 1.0
        checked += 1
    assert checked == 3 and moved == 3


def test_a_person_answers_a_walk_then_a_shot(client: TestClient) -> None:
    """The page's walk-then-shoot options (numbered after the engine's menu) are answers a
    person's seat may give."""
    made = new_c4(client, ["person", "random"], mode="barbarian")
    game, token = made["id"], made["seats"][0]["token"]
    for _ in range(40):
        view = settle(client, game, [token])
        if view["status"] == "over":
            break
        asked = view["question"]
        walked = [o for o in asked["options"] if (o.get("odds") or {}).get("after_walk")]
        if walked:
            got = answer(client, game, token, walked[0]["index"], view["turn"])
            assert got.status_code == 200, got.text
            after = settle(client, game, [token])
            assert any(" and shoot" in line for line in after["log"]), after["log"][-5:]
            return
        got = answer(client, game, token, 0, view["turn"])
        assert got.status_code == 200, got.text
    pytest.fail("no walk then shot was offered")


def test_the_page_explains_the_odds_after_a_walk() -> None:
    from confrontation.web import c4host

    text = (Path(c4host.__file__).parent / "static" / "c4game.js").read_text(encoding="utf-8")
    assert "beside a walk then a shot, the same from the walk's end" in text
