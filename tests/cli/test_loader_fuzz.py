"""Fuzzing every loader and the command line's options (issue 26): whatever the input, the
answer is a result (exit 0), a verdict (exit 1) or one ``error:`` line naming the file or the
option (exit 2) — never a traceback, never a hang.

Mutated bundled files (profiles, scenarios, the Injury Table; army lists: test_army_fuzz.py),
random bytes, and odd option values. The budget is small in ``make test`` (a few seconds a
test); ``CONFRONTATION_FUZZ_EXAMPLES`` raises it (``make test-long``).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.cli import play as play_cli
from confrontation.cli.options import fail
from confrontation.data import data_path
from confrontation.sim.game import GameConfig, GameResult

runner = CliRunner()
EXAMPLES = int(os.environ.get("CONFRONTATION_FUZZ_EXAMPLES", "15"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _texts(folder: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(Path(str(data_path(folder))).glob("*"))]


PROFILES = _texts("profiles")
SCENARIOS = _texts("scenarios")
WOUND_TABLE = Path(str(data_path("wound_table.toml"))).read_text(encoding="utf-8")

scalars = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["inf", "-inf", "nan", "1e308", "-0.0", "0", "-1", "31", "1000000000"]),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.booleans().map(lambda b: str(b).lower()),
    st.text(max_size=12).map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'),
    st.sampled_from(["[]", "[1, 2]", '["a"]', "{}", "{ a = 1 }", "1979-05-27", "[[]]", "[" * 50]),
)


def check(args: list[str], named: str, size: int = 0) -> int:
    """Run ``args``; the contract: exit 0, 1 or 2, no exception but SystemExit, and exit 2
    with one ``error:`` line holding ``named``; within a time proportional to the input."""
    started = time.monotonic()
    result = runner.invoke(app, args)
    elapsed = time.monotonic() - started
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("error: "), lines[0]
        assert named in lines[0], lines[0]
    assert elapsed < 20 + size / 1000, elapsed
    return int(result.exit_code)


@contextmanager
def written(content: str | bytes, name: str = "file.toml") -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        yield path


def mutated(text: str, data: st.DataObject) -> str:
    """``text`` with one to three ``key = value`` lines given odd values, or cut short."""
    rows = text.splitlines()
    candidates = [
        i for i, row in enumerate(rows) if "=" in row and not row.lstrip().startswith("#")
    ]
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.sampled_from(candidates))
        key = rows[index].split("=", 1)[0].strip()
        rows[index] = f"{key} = {data.draw(scalars)}"
    if data.draw(st.booleans()):
        rows = rows[: data.draw(st.integers(0, len(rows)))]
    return "\n".join(rows)


# --- the loaders -------------------------------------------------------------------------------


@pytest.mark.rule("I-C")
@FUZZ
@given(st.sampled_from(PROFILES), st.data())
def test_profiles(text: str, data: st.DataObject) -> None:
    with written(mutated(text, data)) as path:
        check(["profiles", "list", "--profiles", str(path)], str(path))


@pytest.mark.rule("III-A-2")
@FUZZ
@given(st.sampled_from(SCENARIOS), st.data())
def test_scenarios(text: str, data: st.DataObject) -> None:
    with written(mutated(text, data)) as path:
        check(["scenarios", "show", str(path)], str(path))


@pytest.mark.rule("II-B-1")
@FUZZ
@given(st.data())
def test_wound_tables(data: st.DataObject) -> None:
    with written(mutated(WOUND_TABLE, data)) as path:
        code = check(["odds", "wound", "--str", "5", "--res", "4", "--table", str(path)], str(path))
        assert code in (0, 2)


@FUZZ
@given(
    st.sampled_from(["profiles-list", "scenarios-show", "odds-wound", "army-validate"]),
    st.one_of(st.binary(max_size=300), st.text(max_size=300)),
)
def test_random_content_for_every_loader(loader: str, content: bytes | str) -> None:
    with written(content) as path:
        args = {
            "profiles-list": ["profiles", "list", "--profiles", str(path)],
            "scenarios-show": ["scenarios", "show", str(path)],
            "odds-wound": ["odds", "wound", "--str", "3", "--res", "4", "--table", str(path)],
            "army-validate": ["army", "validate", str(path)],
        }[loader]
        check(args, str(path), len(content))


# --- the options -------------------------------------------------------------------------------

odd = st.one_of(
    st.integers(-(2**80), 2**80).map(str),
    st.sampled_from(
        ["nan", "inf", "-inf", "", " ", "-", "--", "0", "-1", "1e9", "0x10", "a" * 5000]
    ),
    st.text(
        alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"),
        max_size=30,
    ),
)


@FUZZ
@given(
    st.sampled_from(
        [
            ["odds", "test", "--value", "{}"],
            ["odds", "opposed", "--active", "{}", "--passive", "4"],
            ["odds", "wound", "--str", "{}", "--res", "4"],
            ["odds", "wound", "--str", "3", "--res", "{}"],
            ["odds", "shot", "--shooter", "alahan-reaper", "--res", "4", "--distance", "{}"],
            ["odds", "shot", "--aim", "{}", "--aim-str", "5", "--res", "5", "--range", "short"],
            ["odds", "attack", "--att", "{}", "--str", "4", "--def", "3", "--res", "4"],
            ["odds", "combat", "--attacker", "{}", "--defender", "alahan-reaper"],
            [
                "odds",
                "combat",
                "--attacker",
                "alahan-reaper",
                "--defender",
                "alahan-guard",
                "--rounds",
                "{}",
            ],
            ["profiles", "show", "{}"],
            ["scenarios", "show", "{}"],
            ["army", "validate", "{}"],
        ]
    ),
    odd,
)
def test_option_values(template: list[str], value: str) -> None:
    args = [value if part == "{}" else part for part in template]
    check(args, "")


@FUZZ
@given(st.sampled_from(["show", "replay"]), odd)
def test_game_ids(command: str, value: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        check(["games", command, value, "--db", str(Path(folder) / "games.db")], "")


@pytest.fixture
def no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """``play`` parses and checks its options, sets the game up, and plays nothing."""
    from confrontation.armylists.load import LoadError
    from confrontation.engine.core.registry import EngineError
    from confrontation.sim.game import GameSetupError, initial_state

    def set_up_only(config: GameConfig, **_: object) -> GameResult:
        try:
            initial_state(config)
        except (LoadError, GameSetupError, EngineError) as error:
            fail(str(error))
        raise SystemExit(0)

    monkeypatch.setattr(play_cli, "run_and_show", set_up_only)


@FUZZ
@given(
    st.sampled_from(["--scenario", "--armies", "--agents", "--seed", "--rounds", "--rules"]),
    odd,
)
def test_play_options(no_game: None, option: str, value: str) -> None:
    check(["play", "--no-store", option, value], "")


@FUZZ
@given(st.sampled_from(["--games", "--jobs", "--rounds", "--agents", "--backend"]), odd)
def test_simulate_options(option: str, value: str) -> None:
    """Values that would start games are left out: simulate refuses, or is not run."""
    args = ["simulate", "--no-store", "--games", "0", option, value]
    if option == "--games":
        args = ["simulate", "--no-store", "--jobs", "0", option, value]
    code = check(args, "")
    assert code == 2
