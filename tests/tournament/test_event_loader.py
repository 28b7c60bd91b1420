"""The tournament file loader: a good file reads, any other answers with one LoadError line
naming the file (hypothesis: mutated files, random bytes, random values)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.tournament.event import check_lists, load_event

GOOD = """name = "Spring Cup"
points = 300
scenarios = ["the-hill", "standard"]
seed = 3

[[players]]
name = "Alice"
list = "lion-vanguard"

[[players]]
name = "Bob"
list = "bob.toml"
agent = "random"
"""


def write(folder: Path, text: str | bytes) -> Path:
    path = folder / "cup.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_reads(tmp_path: Path) -> None:
    event = load_event(write(tmp_path, GOOD))
    assert event.name == "Spring Cup" and event.seed == 3
    assert event.format.points == 300 and event.format.rounds == 2
    assert [p.name for p in event.players] == ["Alice", "Bob"]
    assert event.players[0].army == "lion-vanguard"  # a bundled id stays an id
    assert event.players[1].army == str(tmp_path / "bob.toml")  # relative to the file
    assert event.players[1].agent == "random"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("points = 300", "points = 0"), "points"),
        (('scenarios = ["the-hill", "standard"]', "scenarios = []"), "scenarios"),
        (('name = "Bob"', 'name = "alice"'), "appears twice"),
        (("seed = 3", 'seed = 3\nrules = "nope"'), "no rules named 'nope'"),
        (("seed = 3", "seed = 3\nround = 4"), "round"),
        (('"standard"]', '"nowhere"]'), "round 2: no scenario 'nowhere'"),
        (('"standard"]', '"missing.toml"]'), "round 2"),
        (('agent = "random"', 'agent = "chess"'), "players[2].agent"),
        (('agent = "random"', 'agent = "human"'), "a person plays his own games"),
        (('agent = "random"', 'agent = "mcts:iterations=-4"'), "players[2].agent"),
    ],
)
def test_bad_fields_are_one_line_naming_them(
    tmp_path: Path, change: tuple[str, str], words: str
) -> None:
    with pytest.raises(LoadError) as caught:
        load_event(write(tmp_path, GOOD.replace(*change)))
    message = str(caught.value)
    assert words in message and "cup.toml" in message and "\n" not in message


def test_every_list_is_checked_against_the_events_points(tmp_path: Path) -> None:
    """I-D against the event's format: the 300 AP Sessair list breaks a 200 AP limit."""
    text = GOOD.replace("points = 300", "points = 200").replace("bob.toml", "sessair-warband")
    checks = check_lists(load_event(write(tmp_path, text)))
    assert checks[0].valid  # Lion Vanguard, 197 AP
    assert not checks[1].valid
    assert checks[1].report is not None
    assert any(v.rule == "I-D-2" or "200" in v.message for v in checks[1].report.violations)


def test_an_unreadable_list_is_reported_not_raised(tmp_path: Path) -> None:
    checks = check_lists(load_event(write(tmp_path, GOOD)))
    assert not checks[1].valid and checks[1].report is None
    assert "bob.toml" in checks[1].error


LINES = GOOD.splitlines()
values = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(max_size=20).map(lambda s: '"' + s.replace("\\", "").replace('"', "") + '"'),
    st.sampled_from(["[]", "{}", "true", "1.5", "nan", "inf", '["x"]', "[[1]]", ""]),
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(line=st.integers(min_value=0, max_value=len(LINES) - 1), value=values)
def test_a_mutated_value_reads_or_is_one_line(tmp_path: Path, line: int, value: str) -> None:
    lines = list(LINES)
    key, sep, _ = lines[line].partition("=")
    lines[line] = f"{key}={value}" if sep else value
    try:
        load_event(write(tmp_path, "\n".join(lines)))
    except LoadError as error:
        assert "\n" not in str(error) and "cup.toml" in str(error)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_random_bytes_are_one_line(tmp_path: Path, data: bytes) -> None:
    try:
        load_event(write(tmp_path, data))
    except LoadError as error:
        assert "\n" not in str(error)
