"""`simulate --checkpoint FILE`: an interrupted sweep goes on where it stopped, with the
figures of an uninterrupted one; a file of another batch, or a bad line, is one line naming
the file, the line and the field (sim/checkpoint.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.cli import simulate as simulate_cli
from confrontation.sim.batch import GameOutcome, GameSpec, plan, play_spec
from confrontation.sim.checkpoint import (
    CheckpointError,
    CheckpointWriter,
    batch_key,
    read_checkpoint,
)
from confrontation.store import open_store
from confrontation.store.records import Outcome
from games_support import small_armies

runner = CliRunner()
GAMES = 6
MACHINE = ("elapsed_s", "games_per_second", "resumed", "stored")
"""The keys of ``--json`` that tell this run, not the batch's games."""


def command(folder: Path, *args: str, seed: str = "4") -> list[str]:
    return [
        "simulate",
        "--armies",
        *small_armies(folder),
        "--agents",
        "random,greedy",
        "--rounds",
        "2",
        "--games",
        str(GAMES),
        "--seed",
        seed,
        "--json",
        "--allow-invalid",  # two fighters a side: quick games, too small a list for I-D
        *args,
    ]


def figures(output: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(output)
    for key in MACHINE:
        document.pop(key, None)
    return document


class Counted:
    """``play_spec`` counting the games it plays and raising Ctrl-C (KeyboardInterrupt) when
    asked for game number ``stop`` (1-based) of this run."""

    def __init__(self, stop: int | None = None) -> None:
        self.played: list[int] = []
        self.stop = stop

    def __call__(self, spec: GameSpec) -> GameOutcome:
        if self.stop is not None and len(self.played) + 1 == self.stop:
            raise KeyboardInterrupt
        self.played.append(spec.index)
        return play_spec(spec)


def run(monkeypatch: pytest.MonkeyPatch, args: list[str], counted: Counted) -> Any:
    monkeypatch.setattr(simulate_cli, "play_spec", counted)
    return runner.invoke(app, args)


def test_an_interrupted_batch_goes_on_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = runner.invoke(app, command(tmp_path, "--no-store"))
    assert whole.exit_code == 0, whole.output
    saved = tmp_path / "sweep.jsonl"
    first = run(monkeypatch, command(tmp_path, "--checkpoint", str(saved)), Counted(stop=3))
    assert first.exit_code == 2
    assert first.stderr.strip().splitlines() == [
        f"error: interrupted: 2 of the {GAMES} games are kept in {saved}; the same command "
        "plays the others"
    ]
    assert len(saved.read_text().splitlines()) == 1 + 2
    second = Counted()
    again = run(monkeypatch, command(tmp_path, "--checkpoint", str(saved)), second)
    assert again.exit_code == 0, again.output
    assert second.played == [2, 3, 4, 5]  # the games the first run did not finish
    assert figures(again.stdout) == figures(whole.stdout)
    assert json.loads(again.stdout)["resumed"] == 2
    third = Counted()
    done = run(monkeypatch, command(tmp_path, "--checkpoint", str(saved)), third)
    assert done.exit_code == 0 and third.played == []
    assert figures(done.stdout) == figures(whole.stdout)


def test_the_report_says_which_games_were_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "sweep.jsonl"
    args = [a for a in command(tmp_path, "--checkpoint", str(saved)) if a != "--json"]
    run(monkeypatch, args, Counted(stop=2))
    shown = run(monkeypatch, args, Counted())
    assert shown.exit_code == 0, shown.output
    assert f"1 of the {GAMES} games were read from the checkpoint" in shown.stdout
    assert f"{GAMES - 1} games in " in shown.stdout
    again = run(monkeypatch, args, Counted())
    assert "No game left to play." in again.stdout


def test_stored_games_are_stored_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    saved = tmp_path / "sweep.jsonl"
    args = command(tmp_path, "--checkpoint", str(saved), "--db", db)
    assert run(monkeypatch, args, Counted(stop=4)).exit_code == 2
    again = run(monkeypatch, args, Counted())
    assert again.exit_code == 0, again.output
    with open_store(db) as store:
        seeds = [g.seed for g in store.list()]
    assert len(seeds) == GAMES == len(set(seeds))
    assert len(json.loads(again.stdout)["stored"]) == GAMES - 3


def test_a_checkpoint_of_another_batch_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "sweep.jsonl"
    args = command(tmp_path, "--checkpoint", str(saved))
    assert run(monkeypatch, args, Counted(stop=3)).exit_code == 2
    before = saved.read_text()
    other = run(monkeypatch, command(tmp_path, "--checkpoint", str(saved), seed="5"), Counted())
    assert other.exit_code == 2
    lines = other.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --checkpoint: {saved}: the checkpoint")
    assert "another batch" in lines[0]
    # an army list edited between two runs is another batch too
    lions = tmp_path / "small-lions.toml"
    lions.write_text(lions.read_text().replace('"Small Lions"', '"Lions, edited"'))
    edited = run(monkeypatch, args, Counted())
    assert edited.exit_code == 2 and "another batch" in edited.stderr
    assert saved.read_text() == before  # nothing lost
    lions.write_text(lions.read_text().replace('"Lions, edited"', '"Small Lions"'))
    assert run(monkeypatch, args, Counted()).exit_code == 0


def test_a_last_line_cut_short_is_played_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "sweep.jsonl"
    whole = run(monkeypatch, command(tmp_path, "--checkpoint", str(saved)), Counted())
    text = saved.read_text()
    last = json.loads(text.splitlines()[-1])
    saved.write_text(text[: len(text) - 9])  # killed while writing the last game's line
    counted = Counted()
    again = run(monkeypatch, command(tmp_path, "--checkpoint", str(saved)), counted)
    assert again.exit_code == 0, again.output
    assert counted.played == [last["index"]]
    assert saved.read_text() == text  # the line written anew, whole
    assert figures(again.stdout) == figures(whole.stdout)


def test_a_checkpoint_that_cannot_be_written_stops_the_batch_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "sweep.jsonl"
    real = CheckpointWriter.add

    def full(self: CheckpointWriter, index: int, outcome: Outcome) -> None:
        if self.kept >= 2:
            raise OSError(28, "No space left on device")
        real(self, index, outcome)

    monkeypatch.setattr(CheckpointWriter, "add", full)
    stopped = run(monkeypatch, command(tmp_path, "--checkpoint", str(saved)), Counted())
    assert stopped.exit_code == 2
    assert stopped.stderr.strip().splitlines() == [
        f"error: --checkpoint: {saved}: cannot be written (No space left on device); "
        f"interrupted: 2 of the {GAMES} games are kept in {saved}; the same command plays "
        "the others"
    ]


def test_a_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    folder = runner.invoke(app, command(tmp_path, "--checkpoint", str(tmp_path)))
    assert folder.exit_code == 2
    assert folder.stderr.strip() == (
        f"error: --checkpoint: {tmp_path}: a folder, not a checkpoint file"
    )


# --- the file's lines (read_checkpoint) ---------------------------------------------------------

SPECS = plan(4, ["greedy", "random"], seed=9)
KEY = batch_key(SPECS, [])
LINES: list[dict[str, object]] = [
    {"index": 0, "winner": 1, "vp": [1, 3], "losses": [20, 0], "rounds": 6, "tp": None, "ga": None},
    {
        "index": 2,
        "winner": None,
        "vp": [1, 1],
        "losses": [0, 0],
        "rounds": 6,
        "tp": [4, 4],
        "ga": [0, 0],
    },
]


def written(path: Path, lines: list[object]) -> None:
    header = {"checkpoint": 1, "batch": KEY, "games": 4, "seed": 9}
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, *lines]), encoding="utf-8")


def test_a_written_checkpoint_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    writer = CheckpointWriter(read_checkpoint(path, KEY, 4, 2, 9))
    outcomes = {
        0: Outcome(1, (1, 3), (20, 0), 6),
        2: Outcome(None, (1, 1), (0, 0), 6, (4, 4), (0, 0)),
    }
    for index, outcome in outcomes.items():
        writer.add(index, outcome)
    writer.close()
    assert read_checkpoint(path, KEY, 4, 2, 9).done == outcomes
    written(tmp_path / "d.jsonl", list(LINES))
    assert read_checkpoint(tmp_path / "d.jsonl", KEY, 4, 2, 9).done == outcomes


BAD_FIELDS = [
    ("index", 4, "index: 4 is not a game of this batch"),
    ("index", -1, "index: -1 is not a game of this batch"),
    ("index", "0", "index: Input should be a valid integer"),
    ("winner", 2, "winner: 2 is not a player of the game"),
    ("winner", True, "winner: Input should be a valid integer"),
    ("vp", [1], "vp: 1 values for 2 players"),
    ("vp", "13", "vp: Input should be a valid list"),
    ("losses", [1, 2, 3], "losses: 3 values for 2 players"),
    ("rounds", 0, "rounds: 0 (a game lasts one round or more)"),
    ("tp", [1], "tp: 1 values for 2 players"),
    ("colour", "red", "colour: Extra inputs are not permitted"),
]


@pytest.mark.parametrize(("field", "value", "message"), BAD_FIELDS)
def test_a_bad_line_names_the_file_the_line_and_the_field(
    tmp_path: Path, field: str, value: object, message: str
) -> None:
    path = tmp_path / "c.jsonl"
    written(path, [LINES[0], LINES[1] | {field: value}])
    with pytest.raises(CheckpointError) as caught:
        read_checkpoint(path, KEY, 4, 2, 9)
    assert str(caught.value) == f"{path}: line 3: {message}"


def test_a_game_twice_with_two_results_and_a_foreign_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    written(path, [LINES[0], LINES[0] | {"winner": 0}])
    with pytest.raises(CheckpointError, match="line 3: index: game 0 is already in the file"):
        read_checkpoint(path, KEY, 4, 2, 9)
    written(path, [LINES[0], LINES[0]])  # the same line twice: one game
    assert list(read_checkpoint(path, KEY, 4, 2, 9).done) == [0]
    path.write_text('{"name": "Small Lions"}\n', encoding="utf-8")
    with pytest.raises(CheckpointError, match="line 1: not a checkpoint of confrontation"):
        read_checkpoint(path, KEY, 4, 2, 9)
    path.write_text('{"checkpoint": 2, "batch": "x", "games": 4, "seed": 9}\n')
    with pytest.raises(CheckpointError, match=r"line 1: checkpoint: Input should be 1"):
        read_checkpoint(path, KEY, 4, 2, 9)


@settings(max_examples=200)
@given(st.binary(max_size=400), st.sampled_from([b"", b"\n", b"}\n", b'{"index": 1}\n']))
def test_any_bytes_are_read_or_refused_in_one_line(data: bytes, tail: bytes) -> None:
    """Whatever a checkpoint file holds: its results, or a CheckpointError of one line
    naming it; never another exception."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.jsonl"
        header = json.dumps({"checkpoint": 1, "batch": KEY, "games": 4, "seed": 9}).encode()
        for content in (data + tail, header + b"\n" + data + tail):
            path.write_bytes(content)
            try:
                found = read_checkpoint(path, KEY, 4, 2, 9)
            except CheckpointError as error:
                assert str(error).startswith(f"{path}: ") and "\n" not in str(error)
            else:
                assert set(found.done) <= {0, 1, 2, 3}


# --- C4 batches (simulate --rules c4 --checkpoint) -------------------------------------------


def test_an_interrupted_c4_batch_goes_on_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from confrontation.cli import c4play
    from confrontation.sim import c4game

    args = ["simulate", "--rules", "c4", "-n", "3", "--rounds", "1", "--seed", "2", "--json"]
    whole = runner.invoke(app, args)
    assert whole.exit_code == 0, whole.output
    saved = tmp_path / "c4.jsonl"
    played: list[int] = []
    real = c4game.play_c4

    def play(config: Any, **kw: Any) -> Any:
        if stop is not None and len(played) + 1 == stop:
            raise KeyboardInterrupt
        played.append(config.seed)
        return real(config, **kw)

    monkeypatch.setattr(c4play, "play_c4", play)
    stop: int | None = 2
    first = runner.invoke(app, [*args, "--checkpoint", str(saved)])
    assert first.exit_code == 2
    assert first.stderr.strip() == (
        f"error: interrupted: 1 of the 3 games are kept in {saved}; the same command plays "
        "the others"
    )
    played.clear()
    stop = None
    again = runner.invoke(app, [*args, "--checkpoint", str(saved)])
    assert again.exit_code == 0, again.output
    assert played == [3, 4]  # seeds of games 1 and 2 (game k: seed + k)
    resumed = json.loads(again.stdout)
    assert resumed.pop("resumed") == 1
    assert resumed == json.loads(whole.stdout)
    other = runner.invoke(app, [*args[:-2], "3", "--json", "--checkpoint", str(saved)])
    assert other.exit_code == 2 and "the checkpoint of another batch" in other.stderr


def test_a_bad_c4_line_names_the_file_the_line_and_the_field(tmp_path: Path) -> None:
    from confrontation.sim.checkpoint import c4_batch_key, read_c4_checkpoint

    key = c4_batch_key({"games": 2}, [])
    path = tmp_path / "c4.jsonl"
    header = {"checkpoint": 1, "batch": key, "games": 2, "seed": 0}
    good: dict[str, object] = {"index": 1, "winner": 0, "left": [3, 0], "scores": [3, 0]}
    changes: list[tuple[dict[str, object], str]] = [
        ({"left": [3]}, "left: 1 values for 2 players"),
        ({"left": [3, -1]}, "left: -1 fighters left"),
        ({"unit": "AP"}, "unit: Input should be '', 'VP' or 'CP'"),
        ({"winner": 2}, "winner: 2 is not a player of the game"),
    ]
    for change, message in changes:
        path.write_text(json.dumps(header) + "\n" + json.dumps(good | change) + "\n")
        with pytest.raises(CheckpointError) as caught:
            read_c4_checkpoint(path, key, 2, 0)
        assert str(caught.value) == f"{path}: line 2: {message}"
    path.write_text(json.dumps(header) + "\n" + json.dumps(good) + "\n")
    assert read_c4_checkpoint(path, key, 2, 0).done[1].left == (3, 0)
