"""`confrontation tournament …` through the command line: lists checked against the event's
format, Swiss rounds, results by hand and from the program's games, standings as a table,
JSON, CSV and HTML, kept in the store; the AI tournament; bad input is one line, exit 1/2."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.store import open_store
from games_support import SMALL_ARMIES

runner = CliRunner()

THIRD = (
    'name = "Small Guards"\npeople = "lion"\npoints = 100\n\n'
    '[[cards]]\nprofile = "alahan-guard"\ncount = 2\n'
)


def event_file(folder: Path, players: int = 3, points: int = 100) -> Path:
    for name, text in {**SMALL_ARMIES, "small-guards.toml": THIRD}.items():
        (folder / name).write_text(text, encoding="utf-8")
    lists = ["small-lions.toml", "small-jackals.toml", "small-guards.toml"]
    text = f'name = "Test Cup"\npoints = {points}\nscenarios = ["the-hill", "standard"]\nseed = 5\n'
    for n in range(players):
        text += f'\n[[players]]\nname = "P{n + 1}"\nlist = "{lists[n % 3]}"\n'
    path = folder / "cup.toml"
    path.write_text(text, encoding="utf-8")
    return path


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_check_reports_every_list_against_the_events_points(tmp_path: Path) -> None:
    code, out, _ = invoke("tournament", "check", str(event_file(tmp_path)), "--json")
    document = json.loads(out)
    assert [d["player"] for d in document] == ["P1", "P2", "P3"]
    assert code == (0 if all(d["valid"] for d in document) else 1)
    code, out, _ = invoke("tournament", "check", str(event_file(tmp_path, points=10)), "--json")
    assert code == 1
    assert not any(d["valid"] for d in json.loads(out))  # 10 AP: every list is over


def test_an_event_with_invalid_lists_is_refused_unless_allowed(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    path = event_file(tmp_path, points=10)
    code, _, err = invoke("tournament", "new", str(path), "--db", db)
    assert code == 1 and err.startswith("error: invalid lists")
    assert "1:" not in invoke("tournament", "list", "--db", db)[1]
    code, out, _ = invoke("tournament", "new", str(path), "--db", db, "--allow-invalid")
    assert code == 0 and "Registered as tournament 1" in out


def test_a_whole_event_pairs_plays_and_ranks(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    assert (
        invoke("tournament", "new", str(event_file(tmp_path)), "--db", db, "--allow-invalid")[0]
        == 0
    )
    code, out, err = invoke("tournament", "pair", "1", "--db", db)
    assert code == 0, err
    assert "bye" in out and "the-hill" in out
    # the round is not over: no new pairing
    code, _, err = invoke("tournament", "pair", "1", "--db", db)
    assert code == 2 and "without a result: 1" in err
    code, out, err = invoke(
        "tournament",
        "result",
        "1",
        "--table",
        "1",
        "--vp",
        "2",
        "1",
        "--losses",
        "50",
        "20",
        "--bonus",
        "150",
        "0",
        "--db",
        db,
    )
    assert code == 0, err
    assert "7 TP (GA +70)" in out and "3 TP (GA +30)" in out  # XX-A-4; bonus capped at 100
    assert invoke("tournament", "pair", "1", "--db", db)[0] == 0  # round 2
    code, out, err = invoke("tournament", "play", "1", "--db", db)
    assert code == 0, err
    assert "1 game played" in out
    with open_store(db) as store:
        assert store.count() == 1  # the program's game is kept with the others
    code, out, _ = invoke("tournament", "standings", "1", "--db", db, "--format", "json")
    rows = json.loads(out)["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert sum(r["byes"] for r in rows) == 2 and max(r["byes"] for r in rows) == 1
    keys = [(-r["tp"], -r["ga"], -r["bonus"]) for r in rows]
    assert keys == sorted(keys)
    code, out, _ = invoke("tournament", "standings", "1", "--db", db, "--format", "csv")
    table = list(csv.reader(io.StringIO(out)))
    assert table[0][:3] == ["#", "player", "army"] and len(table) == 4
    page = tmp_path / "s.html"
    code, out, _ = invoke(
        "tournament", "standings", "1", "--db", db, "--format", "html", "-o", str(page)
    )
    assert code == 0 and "<table>" in page.read_text() and "Test Cup" in page.read_text()
    after_one = json.loads(
        invoke("tournament", "standings", "1", "--db", db, "--format", "json", "--round", "1")[1]
    )["standings"]
    assert sum(r["played"] for r in after_one) == 2
    code, out, _ = invoke("tournament", "show", "1", "--db", db)
    assert "Round 1" in out and "Round 2" in out
    code, _, err = invoke("tournament", "pair", "1", "--db", db)
    assert code == 2 and "round 2 has tables" not in err  # round 2 is all played: pairs 3?
    assert "all 2 rounds are paired" in err


def test_a_result_taken_from_a_stored_game(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    invoke("tournament", "new", str(event_file(tmp_path, players=2)), "--db", db, "--allow-invalid")
    invoke("tournament", "pair", "1", "--db", db)
    lions, jackals = (str(tmp_path / n) for n in SMALL_ARMIES)
    code, _, err = invoke(
        "play",
        "--allow-invalid",
        "--armies",
        lions,
        jackals,
        "--agents",
        "random,random",
        "--rounds",
        "1",
        "--db",
        db,
        "--seed",
        "1",
    )
    assert code == 0, err
    code, out, err = invoke("tournament", "result", "1", "--table", "1", "--game", "1", "--db", db)
    assert code == 0, err
    assert out.startswith("Round 1, table 1: P1 ")
    with open_store(db) as store:
        outcome = store.load(1).summary.outcome
    assert outcome is not None
    rows = json.loads(invoke("tournament", "standings", "1", "--db", db, "--format", "json")[1])
    assert sorted(r["vp"] for r in rows["standings"]) == sorted(outcome.vp)


def test_an_older_store_gets_the_tournament_tables(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with open_store(str(db)):
        pass
    with sqlite3.connect(db) as connection:
        connection.execute("DROP TABLE tournaments")
    assert invoke("tournament", "list", "--db", str(db))[1].strip() == "No tournament."
    with sqlite3.connect(db) as connection:
        names = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
    assert {"tournaments", "tournament_players", "tournament_games", "games"} <= names


def test_the_ai_tournament_plays_every_pair(tmp_path: Path) -> None:
    for name, text in {**SMALL_ARMIES, "small-guards.toml": THIRD}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    armies = [
        str(tmp_path / n) for n in ("small-lions.toml", "small-jackals.toml", "small-guards.toml")
    ]
    args = ["tournament", "ai", "--armies", *armies, "-n", "2", "--rounds", "1", "--format", "json"]
    code, out, err = invoke(*args)
    assert code == 0, err
    document = json.loads(out)
    rows = document["standings"]
    assert sorted(r["name"] for r in rows) == ["small-guards", "small-jackals", "small-lions"]
    assert all(r["played"] == 4 for r in rows)  # two games against each of two others
    assert "6 games" in document["title"]
    assert invoke(*args)[1] == out  # seeded


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["tournament", "check", "missing.toml"], 2, "missing.toml"),
        (["tournament", "pair", "7"], 2, "no tournament 7"),
        (["tournament", "pair", "99999999999999999999"], 2, "no tournament"),
        (["tournament", "standings", "1", "--format", "pdf"], 2, "--format"),
        (["tournament", "result", "1", "--table", "1"], 2, "no tournament 1"),
        (["tournament", "ai", "--armies", "nope-army", "lion-vanguard"], 2, "nope-army"),
        (["tournament", "ai", "--games", "0"], 2, "--games"),
        (["tournament", "ai", "--jobs", "0"], 2, "--jobs"),
        (["tournament", "ai", "--scenario", "nowhere"], 2, "no scenario 'nowhere'"),
        (["tournament", "ai", "--agents", "greedy"], 2, "--agents"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], code: int, words: str) -> None:
    got, _, err = invoke(
        *args,
        *(["--db", str(tmp_path / "t.db")] if args[1] in ("pair", "standings", "result") else []),
    )
    assert got == code, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert words in err and "Traceback" not in err


def test_a_stored_game_of_other_lists_is_refused_for_a_table(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    invoke("tournament", "new", str(event_file(tmp_path, players=2)), "--db", db, "--allow-invalid")
    invoke("tournament", "pair", "1", "--db", db)
    lions, jackals = (str(tmp_path / n) for n in SMALL_ARMIES)
    for seed, armies in (("1", (lions, jackals)), ("2", (jackals, lions))):
        code, _, err = invoke(
            "play", "--allow-invalid", "--armies", *armies, "--agents", "random,random",
            "--rounds", "1", "--db", db, "--seed", seed,
        )  # fmt: skip
        assert code == 0, err
    codes = [
        invoke("tournament", "result", "1", "--table", "1", "--game", game, "--db", db)
        for game in ("1", "2")
    ]
    refused = [c for c in codes if c[0] != 0]
    assert len(refused) == 1  # one of the two has the table's sides the wrong way round
    code, _, err = refused[0]
    assert code == 2 and err.count("\n") == 1
    assert "not by table 1's lists" in err


def test_the_program_plays_the_lists_as_registered(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    event = event_file(tmp_path, players=2)
    code, _, err = invoke("tournament", "new", str(event), "--db", db, "--allow-invalid")
    assert code == 0, err
    for name in SMALL_ARMIES:  # the files change after registration: the event does not
        (tmp_path / name).write_text("this is no army list", encoding="utf-8")
    invoke("tournament", "pair", "1", "--db", db)
    code, out, err = invoke("tournament", "play", "1", "--db", db)
    assert code == 0, err
    assert "1 game played" in out
    with open_store(db) as store:
        armies = set(store.load(1).summary.armies)
    assert armies == {"Small Lions", "Small Jackals"}
