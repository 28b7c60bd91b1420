"""`confrontation odds wound`: exact wound odds on the command line (II-B)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.rules.wounds import Location, WoundMode, WoundResult, wound_odds

runner = CliRunner()
RESULTS = ["none", "stunned", "light", "serious", "critical", "killed"]
LOCATIONS = ["legs", "arms", "belly", "chest", "head"]


def wound_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", "wound", *args, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert isinstance(document, dict)
    return document


def expected(strength: int, resistance: int, mode: WoundMode, unmoving: bool) -> dict[str, float]:
    odds = wound_odds(strength, resistance, mode, unmoving)
    return {r.key: float(p) for r, p in odds.outcomes().items()}


@pytest.mark.rule("II-B-1")
def test_json_outcomes_and_by_location() -> None:
    document = wound_json("--str", "6", "--res", "7")
    assert document["mode"] == "normal" and document["unmoving"] is False
    assert "note" not in document
    outcomes = document["outcomes"]
    assert isinstance(outcomes, dict)
    assert list(outcomes) == RESULTS
    assert outcomes == expected(6, 7, WoundMode.NORMAL, False)
    assert sum(outcomes.values()) == pytest.approx(1)
    by_location = document["by_location"]
    assert isinstance(by_location, dict)
    assert list(by_location) == LOCATIONS
    odds = wound_odds(6, 7)
    for location in Location:
        line = by_location[location.key]
        assert line["p_location"] == pytest.approx(float(odds.location(location)))
        assert sum(line[key] for key in RESULTS) == pytest.approx(1)
        for result in WoundResult:
            joint = line["p_location"] * line[result.key]
            assert joint == pytest.approx(float(odds.probability(location, result)))
    # Legs: lowest die 1 (11 of 36 rolls).
    assert by_location["legs"]["p_location"] == pytest.approx(11 / 36)
    fractions = document["fractions"]
    assert isinstance(fractions, dict) and fractions["killed"] == "1/36"


@pytest.mark.rule("II-B-6", "VI-B-2")
def test_amplified_attenuated_and_unmoving() -> None:
    amplified = wound_json("--str", "5", "--res", "4", "--amplified")
    assert amplified["mode"] == "amplified"
    assert amplified["outcomes"] == expected(5, 4, WoundMode.AMPLIFIED, False)
    attenuated = wound_json("--str", "5", "--res", "4", "--attenuated", "--unmoving")
    assert attenuated["mode"] == "attenuated" and attenuated["unmoving"] is True
    assert attenuated["outcomes"] == expected(5, 4, WoundMode.ATTENUATED, True)


@pytest.mark.rule("II-B-6")
def test_both_amplified_and_attenuated_cancel() -> None:
    both = wound_json("--str", "5", "--res", "4", "--amplified", "--attenuated")
    assert both["mode"] == "normal"
    assert "cancel" in str(both["note"])
    assert both["outcomes"] == expected(5, 4, WoundMode.NORMAL, False)
    text = runner.invoke(
        app, ["odds", "wound", "--str", "5", "--res", "4", "--amplified", "--attenuated"]
    )
    assert text.exit_code == 0
    assert "cancel" in text.stdout and "2d6" in text.stdout


@pytest.mark.rule("II-B-1")
def test_text_output_has_a_table_and_a_summary() -> None:
    result = runner.invoke(app, ["odds", "wound", "--str", "4", "--res", "4"])
    assert result.exit_code == 0, result.output
    for word in ("location", *LOCATIONS, *RESULTS):
        assert word in result.stdout
    # STR 4 against RES 4: killed 3/36 = 8.3 %, never "no effect".
    summary = [line for line in result.stdout.splitlines() if "Killed Outright" in line]
    assert len(summary) == 1
    assert "8.3%" in summary[0] and "no effect 0.0%" in summary[0]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--str", "x", "--res", "4"], "--str"),
        (["--str", "4", "--res", "2.5"], "--res"),
        (["--str", "4", "--res", "0"], "--res"),
        (["--str", "4", "--res", "-3"], "--res"),
        (["--str", "99999", "--res", "4"], "--str"),
    ],
)
def test_invalid_options_give_one_line_and_exit_2(args: list[str], fragment: str) -> None:
    result = runner.invoke(app, ["odds", "wound", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.rule("II-B-1")
def test_a_user_table(tmp_path: Path) -> None:
    rows = []
    for number, (low, result) in enumerate([(None, "stunned"), (0, "killed")]):
        rows.append("[[row]]")
        rows.append(f'label = "r{number}"')
        if low is not None:
            rows.append(f"min = {low}")
        rows.extend(f'{loc} = "{result}"' for loc in LOCATIONS)
    path = tmp_path / "mine.toml"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    document = wound_json("--str", "1", "--res", "10", "--table", str(path))
    outcomes = document["outcomes"]
    assert isinstance(outcomes, dict)
    # Rows below 0 are Stunned; 0 or more (highest die 6 + 1 - 10 < 0 always) never happens,
    # except the double 6.
    assert outcomes["stunned"] == pytest.approx(35 / 36)
    assert outcomes["killed"] == pytest.approx(1 / 36)


def test_a_bad_table_file_gives_one_line_naming_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('[[row]]\nlabel = "a"\nlegs = "ouch"\n', encoding="utf-8")
    result = runner.invoke(app, ["odds", "wound", "--str", "4", "--res", "4", "--table", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert str(path) in lines[0] or "broken.toml" in lines[0]
    missing = runner.invoke(
        app, ["odds", "wound", "--str", "4", "--res", "4", "--table", "/no/such.toml"]
    )
    assert missing.exit_code == 2 and len(missing.stderr.strip().splitlines()) == 1
