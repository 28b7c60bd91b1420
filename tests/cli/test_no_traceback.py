"""Issue 26, "No traceback, no hang, no lost or forged record — under any input": every case
the fuzzing found, each answered by one line naming the file, field or option, exit 1 or 2,
quickly. (Stores edited by hand: tests/store/test_tampered_store.py; killed batches:
tests/cli/test_simulate_signals.py; the fuzzers: tests/cli/test_loader_fuzz.py.)"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from confrontation.cli import app
from confrontation.cli.options import MAX_ROUNDS
from confrontation.data import data_path
from confrontation.model.bounds import bound
from confrontation.store import database
from games_support import small_armies

runner = CliRunner()
SRC = Path(__file__).resolve().parents[2] / "src"
LION = Path(str(data_path("armies/lion-vanguard.toml"))).read_text(encoding="utf-8")
CONQUEST = Path(str(data_path("scenarios/conquest.toml"))).read_text(encoding="utf-8")


def one_line(result: Result, *needles: str, codes: tuple[int, ...] = (2,)) -> str:
    """The command failed with one ``error:`` line holding ``needles``, no traceback."""
    assert result.exit_code in codes, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines[0]
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def cli(
    *args: str, stdin: int | None = None, stdout: int | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """The command in its own process (real file descriptors: /dev/full, a closed stdin)."""
    command = [sys.executable, "-c", "from confrontation.cli import main; main()", *args]
    return subprocess.run(
        command,
        stdin=stdin,
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        check=False,
    )


# --- files: the safe TOML reader, the bounds of the data -------------------------------------


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"\xff\xfe\x00binary\x9c", "not UTF-8"),
        (("a = " + "[" * 5000 + "]" * 5000).encode(), "nested too deeply"),
    ],
)
def test_a_wound_table_goes_through_the_safe_reader(
    tmp_path: Path, content: bytes, needle: str
) -> None:
    table = tmp_path / "table.toml"
    table.write_bytes(content)
    result = runner.invoke(
        app, ["odds", "wound", "--str", "3", "--res", "4", "--table", str(table)]
    )
    one_line(result, "--table", str(table), needle)


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "wound", "--str", "3", "--res", "4", "--table", "/dev/full"],
        ["army", "validate", "/dev/full"],
        ["scenarios", "show", "/dev/full.toml"],
    ],
)
def test_an_endless_input_is_refused_not_read_to_the_end(args: list[str]) -> None:
    started = time.monotonic()
    result = runner.invoke(app, args)
    one_line(result, "/dev/full")
    assert time.monotonic() - started < 10


@pytest.mark.rule("I-D-5")
def test_a_huge_count_is_refused_by_the_validator_and_by_play(tmp_path: Path) -> None:
    army = tmp_path / "army.toml"
    army.write_text(LION.replace("count = 3", "count = 1000000000"), encoding="utf-8")
    for args in (
        ["army", "validate", str(army)],
        ["play", "--allow-invalid", "--armies", str(army), "lion-vanguard", "--no-store"],
        [
            "simulate",
            "--allow-invalid",
            "--armies",
            str(army),
            "lion-vanguard",
            "--no-store",
            "--games",
            "1",
        ],
    ):
        one_line(runner.invoke(app, args), str(army), "cards[4].count", "out of bounds")


PROFILE = """
[[profiles]]
id = "titan"
name = "Titan"
people = "lion"
rank = "regular"
ap = 20
mov = 10
ini = 3
att = 3
str = 3
def = 3
res = 5
courage = 3
dis = 3
"""


def profile_army(folder: Path, key: str, value: str) -> Path:
    profiles = folder / "titans.toml"
    profiles.write_text(PROFILE.replace(f"\n{key} = ", f"\n{key} = {value} #"), encoding="utf-8")
    army = folder / "army.toml"
    army.write_text(
        'name = "Titans"\npeople = "lion"\npoints = 200\nprofiles = ["titans.toml"]\n'
        '[[cards]]\nprofile = "titan"\ncount = 2\n',
        encoding="utf-8",
    )
    return army


@pytest.mark.rule("I-C")
@pytest.mark.parametrize(
    ("key", "value"), [("att", "1000000000"), ("def", "1000000000"), ("mov", "inf"), ("res", "31")]
)
def test_characteristics_the_game_cannot_play_are_refused(
    tmp_path: Path, key: str, value: str
) -> None:
    army = profile_army(tmp_path, key, value)
    for args in (
        ["army", "validate", str(army)],
        ["play", "--allow-invalid", "--armies", str(army), str(army), "--no-store"],
    ):
        one_line(runner.invoke(app, args), "titans.toml", f"profiles[1].{key}")


@pytest.mark.rule("I-C")
def test_a_profile_at_the_bounds_plays_a_round(tmp_path: Path) -> None:
    """The bounds are what the game can play: every characteristic at its highest, a round."""
    army = tmp_path / "army.toml"
    profile_army(tmp_path, "ap", "20")
    text = (tmp_path / "titans.toml").read_text(encoding="utf-8")
    for key in ("mov", "ini", "att", "str", "def", "res", "courage", "dis"):
        text = text.replace(f"\n{key} = ", f"\n{key} = {int(bound('characteristics', key)[1])} #")
    (tmp_path / "titans.toml").write_text(text, encoding="utf-8")
    started = time.monotonic()
    result = runner.invoke(
        app,
        [
            "play",
            "--allow-invalid",
            "--armies",
            str(army),
            str(army),
            "--no-store",
            "--rounds",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rounds"] == 1
    assert time.monotonic() - started < 60


@pytest.mark.rule("III-A-3")
def test_a_scenario_with_a_huge_scenery_count_is_refused_at_once(tmp_path: Path) -> None:
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(CONQUEST.replace("scenery = 6", "scenery = 1000"), encoding="utf-8")
    assert "scenery = 1000" in scenario.read_text(encoding="utf-8")
    started = time.monotonic()
    for args in (
        ["scenarios", "show", str(scenario)],
        ["play", "--scenario", str(scenario), "--no-store"],
    ):
        one_line(runner.invoke(app, args), str(scenario), "scenery", "out of bounds")
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("value", ["inf", "nan", "-inf"])
def test_a_coordinate_that_is_no_number_is_refused(tmp_path: Path, value: str) -> None:
    """Found by the fuzzer (test_loader_fuzz.py): an objective at y = inf was an IndexError."""
    text = Path(str(data_path("scenarios/cp-incoming.toml"))).read_text(encoding="utf-8")
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(text.replace("\ny = 35.0\n", f"\ny = {value}\n", 1), encoding="utf-8")
    assert f"y = {value}" in scenario.read_text(encoding="utf-8")
    one_line(runner.invoke(app, ["scenarios", "show", str(scenario)]), "finite number")


def test_the_option_bound_on_rounds_is_the_data_bound() -> None:
    assert bound("scenario", "rounds") == (1, MAX_ROUNDS)


# --- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--db", "mysql://user:secret@nowhere/games"],
        ["simulate", "--db", "mysql://user:secret@nowhere/games", "--games", "1"],
        ["games", "list", "--db", "mysql://user:secret@nowhere/games"],
        ["games", "show", "1", "--db", "mysql://user:secret@nowhere/games"],
    ],
)
def test_a_database_whose_driver_is_missing_is_one_line(args: list[str]) -> None:
    line = one_line(runner.invoke(app, args), "driver is not installed", "MySQLdb")
    assert "secret" not in line


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["games", "show", "99999999999999999999"], "ID"),
        (["games", "replay", "99999999999999999999"], "ID"),
        (["games", "list", "--limit", "99999999999999999999"], "--limit"),
        (["play", "--resume", "99999999999999999999"], "--resume"),
        (["play", "--seed", "99999999999999999999", "--no-store"], "--seed"),
        (["play", "--rounds", "1000000000", "--no-store"], "--rounds"),
        (["simulate", "--rounds", "1000000000", "--no-store"], "--rounds"),
        (["simulate", "--jobs", "99999999999999999999999", "--no-store"], "--jobs"),
        (["simulate", "--games", "99999999999999999999999", "--no-store"], "--games"),
    ],
)
def test_integers_too_large_are_refused(tmp_path: Path, args: list[str], option: str) -> None:
    if args[0] == "games" or "--resume" in args:
        args = [*args, "--db", str(tmp_path / "games.db")]
    started = time.monotonic()
    one_line(runner.invoke(app, args), option)
    assert time.monotonic() - started < 10


def test_the_store_answers_no_game_for_an_id_beyond_sql(tmp_path: Path) -> None:
    store = database.open_store(str(tmp_path / "games.db"))
    with pytest.raises(database.StoreError, match="no game"):
        store.load(10**20)


@pytest.mark.parametrize("option", ["--scenario", "--armies"])
def test_a_name_of_100000_characters_is_one_short_line(option: str) -> None:
    name = "a" * 100_000
    args = ["play", option, name, "--no-store"]
    if option == "--armies":
        args = ["play", "--allow-invalid", "--armies", name, "lion-vanguard", "--no-store"]
    line = one_line(runner.invoke(app, args))
    assert len(line) < 1000


def test_an_agent_option_naming_no_question_kind_is_refused() -> None:
    result = runner.invoke(app, ["play", "--agents", "mcts:kinds=nope", "--no-store"])
    one_line(result, "--agents", "'nope'")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_distance_that_is_no_number_of_cm_is_refused(value: str) -> None:
    result = runner.invoke(
        app, ["odds", "shot", "--shooter", "alahan-reaper", "--res", "4", "--distance", value]
    )
    one_line(result, "--distance")


# --- outputs and inputs that fail ------------------------------------------------------------


@pytest.mark.parametrize("option", ["--log", "--svg"])
def test_a_full_disk_on_an_output_file_is_one_line(tmp_path: Path, option: str) -> None:
    armies = small_armies(tmp_path)
    args = [
        "play",
        "--allow-invalid",
        "--armies",
        *armies,
        "--agents",
        "random",
        "--rounds",
        "1",
        "--no-store",
    ]
    one_line(runner.invoke(app, [*args, option, "/dev/full"]), option, "No space left")


def test_a_full_disk_on_the_plot_is_one_line() -> None:
    args = ["odds", "shot", "--aim", "4", "--aim-str", "5", "--res", "5", "--range", "short"]
    one_line(runner.invoke(app, [*args, "--plot", "/dev/full"]), "--plot", "No space left")


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "test", "--help"],
        ["profiles", "list"],
        ["play", "--agents", "random", "--rounds", "1", "--no-store"],
    ],
)
def test_a_full_disk_on_stdout_is_one_line(tmp_path: Path, args: list[str]) -> None:
    if args[0] == "play":
        args = [*args, "--allow-invalid", "--armies", *small_armies(tmp_path)]
    with open("/dev/full", "w") as full:
        done = cli(*args, stdout=full.fileno())
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: cannot write the output (No space left on device)"
    ]


@pytest.mark.parametrize("closed", [True, False])
def test_the_human_player_with_no_input_left_is_one_line(tmp_path: Path, closed: bool) -> None:
    armies = small_armies(tmp_path)
    args = [
        "play",
        "--allow-invalid",
        "--armies",
        *armies,
        "--agents",
        "human,random",
        "--no-store",
    ]
    if closed:  # stdin closed: `<&-`
        command = [sys.executable, "-c", "from confrontation.cli import main; main()", *args]
        done = subprocess.run(
            ["/bin/sh", "-c", '"$@" <&-', "sh", *command],
            capture_output=True,
            text=True,
            timeout=120,
            env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
            check=False,
        )
    else:  # at the end of the file at once
        done = cli(*args, stdin=subprocess.DEVNULL)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: the input ended before the game did")


def test_a_store_locked_by_another_program_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.db"
    armies = small_armies(tmp_path)
    args = [
        "play",
        "--allow-invalid",
        "--armies",
        *armies,
        "--agents",
        "random",
        "--rounds",
        "1",
        "--db",
        str(db),
    ]
    assert runner.invoke(app, args).exit_code == 0
    monkeypatch.setattr(database, "SQLITE_TIMEOUT", 0.2)
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        result = runner.invoke(app, args)
    finally:
        other.close()
    one_line(result, str(db), "database is locked", codes=(1,))


# --- the end of a game -----------------------------------------------------------------------


@pytest.mark.rule("XX-A-4")
def test_a_game_ends_when_an_army_is_wiped_out() -> None:
    """Seed 7 of Bloodbath (the demo armies, greedy against greedy): Player 1's army is dead
    in round 5 of 50; the game ends there, scored as after the last round (docs/rulings.md,
    "XX-A-4 — an army wiped out")."""
    args = ["play", "--scenario", "bloodbath", "--seed", "7", "--rounds", "50"]
    result = runner.invoke(app, [*args, "--no-store", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["rounds"] == 5
    assert document["outcome"]["termination"] == "wiped_out"
    assert document["outcome"]["reason"] == "army wiped out: Player 1 has no fighter left"
    assert document["winner"] == 1  # the survivor holds the battlefield (III-A-2)
    assert [p["vp"] for p in document["players"]] == [0, 1]
    alive = [f for f in document["fighters"] if f["alive"]]
    assert alive and {f["player"] for f in alive} == {1}


def test_a_tournament_store_locked_by_another_program_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.db"
    event = tmp_path / "cup.toml"
    text = 'name = "Cup"\npoints = 200\nscenarios = ["standard"]\nseed = 5\n'
    for n, army in enumerate(("lion-vanguard", "goblin-raiders")):
        text += f'\n[[players]]\nname = "P{n + 1}"\nlist = "{army}"\n'
    event.write_text(text, encoding="utf-8")
    assert runner.invoke(app, ["tournament", "list", "--db", str(db)]).exit_code == 0
    monkeypatch.setattr(database, "SQLITE_TIMEOUT", 0.2)
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        result = runner.invoke(
            app, ["tournament", "new", str(event), "--db", str(db), "--allow-invalid"]
        )
    finally:
        other.close()
    one_line(result, "database is locked", codes=(1,))


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("mcts:iterations=1000000000", "iterations must be 1 to 100000"),
        ("mcts:seconds=1e9", "seconds must be more than 0 and at most 3600"),
        ("mcts:max_steps=10000000000", "max_steps must be 1 to 1000000"),
        ("mcts:width=100000", "at most 1000"),
    ],
)
def test_a_search_that_would_never_end_is_refused_in_one_line(spec: str, needle: str) -> None:
    result = runner.invoke(app, ["play", "--agents", f"{spec},greedy", "--no-store"])
    one_line(result, needle, codes=(2,))
