"""Fuzzing `confrontation army validate`: no input ever produces a traceback.

Random TOML, truncated files and wrong types: the exit code is 0, 1 or 2, and exit 2 comes
with exactly one line on stderr naming the file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.data import data_path

runner = CliRunner()
ARMIES = sorted(Path(str(data_path("armies"))).glob("*.toml"))
TEXTS = [p.read_text(encoding="utf-8") for p in ARMIES]
FUZZ = settings(  # CONFRONTATION_FUZZ_EXAMPLES: a longer run (make test-long)
    max_examples=int(os.environ.get("CONFRONTATION_FUZZ_EXAMPLES", "60")),
    suppress_health_check=[HealthCheck.too_slow],
    deadline=None,
)


def run(content: str | bytes) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "army.toml"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        result = runner.invoke(app, ["army", "validate", str(path)])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(
            result.exception
        )
        assert "Traceback" not in result.output
        assert result.exit_code in (0, 1, 2)
        if result.exit_code == 2:
            lines = result.stderr.splitlines()
            assert len(lines) == 1, result.stderr
            assert str(path) in lines[0]
        return result.exit_code, result.stdout, result.stderr


keys = st.sampled_from(
    ["name", "people", "points", "profiles", "cards", "profile", "count", "artifacts", "x", "def"]
)
scalars = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True).map(lambda f: repr(f).replace("inf", "inf").replace("nan", "nan")),
    st.booleans().map(lambda b: str(b).lower()),
    st.text(max_size=12).map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'),
    st.sampled_from(["[]", "[1, 2]", '["a"]', "{}", "{ a = 1 }", "1979-05-27", '"lion"']),
)
lines = st.one_of(
    st.tuples(keys, scalars).map(lambda kv: f"{kv[0]} = {kv[1]}"),
    st.sampled_from(["[[cards]]", "[cards]", "[[profiles]]", "[x]", "# comment", ""]),
    st.text(max_size=20),
)


@pytest.mark.rule("I-D")
@FUZZ
@given(st.lists(lines, max_size=12))
def test_random_toml(body: list[str]) -> None:
    run("\n".join(body))


@pytest.mark.rule("I-D")
@FUZZ
@given(st.sampled_from(TEXTS), st.floats(0, 1))
def test_truncated_files(text: str, fraction: float) -> None:
    run(text[: int(len(text) * fraction)])


@pytest.mark.rule("I-D")
@FUZZ
@given(st.sampled_from(TEXTS), st.data())
def test_wrong_types(text: str, data: st.DataObject) -> None:
    rows = text.splitlines()
    candidates = [
        i
        for i, row in enumerate(rows)
        if "=" in row and not row.startswith(("#", "name"))  # any string is a fine name
    ]
    index = data.draw(st.sampled_from(candidates))
    key = rows[index].split("=", 1)[0].strip()
    value = data.draw(
        st.sampled_from(["true", "3.5", '"3"', "[1]", "{ a = 1 }", "-1", "0", '"nobody"', "[[]]"])
    )
    rows[index] = f"{key} = {value}"
    code, _, _ = run("\n".join(rows))
    assert code in (1, 2)  # 0 only if the change kept the list valid, which none of these do


@pytest.mark.rule("I-D")
@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes(content: bytes) -> None:
    run(content)
