"""`confrontation army validate|show` and `confrontation profiles list|show`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.data import data_path

runner = CliRunner(env={"COLUMNS": "200"})
ESCORT = str(Path(str(data_path("armies"))) / "alahan-royal-escort.toml")


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.rule("I-D-9")
def test_validate_the_royal_escort() -> None:
    result = runner.invoke(app, ["army", "validate", ESCORT])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Alahan Royal Escort: valid — 298/300 AP, 12/15 fighters")
    result = runner.invoke(app, ["army", "validate", ESCORT, "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "valid": True,
        "total_ap": 298,
        "fighters": 12,
        "champions_ap": 62,
        "allies_ap": 34,
        "violations": [],
    }


@pytest.mark.rule("I-D-3")
def test_an_invalid_list_exits_1_and_names_the_rule(tmp_path: Path) -> None:
    lib = write(tmp_path, "relics.toml", '[[artifacts]]\nid = "relic"\nname = "Relic"\ncost = 60\n')
    army = write(
        tmp_path,
        "army.toml",
        'name = "Dirz"\npeople = "scorpion"\npoints = 300\n'
        '[[cards]]\nprofile = "arkeon-sanath"\nartifacts = ["relic"]\n',
    )
    result = runner.invoke(app, ["army", "validate", army, "--profiles", lib])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:] == [
        "I-D-3: Arkeon Sanath is worth 134 AP, above 40 % of 300 AP (120 AP)"
    ]
    result = runner.invoke(app, ["army", "validate", army, "--profiles", lib, "--json"])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["valid"] is False and document["total_ap"] == 134
    assert document["violations"] == [
        {"rule": "I-D-3", "message": "Arkeon Sanath is worth 134 AP, above 40 % of 300 AP (120 AP)"}
    ]


@pytest.mark.rule("I-D")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('name = "x"\npeople = "lion"\npoints = "300"\n', "army.toml:3: points: expected a whole"),
        ('name = "x"\npeople = "lion"\npoints = 300\nfoo = 1\n', "army.toml:4: foo: unknown key"),
        (
            'name = "x"\npeople = "lion"\npoints = 300\n[[cards]]\nprofile = "zorg"\n',
            "army.toml:5: cards[1].profile: unknown profile id 'zorg'",
        ),
        ('name = "x"\npeople = "lion"\npoints = 30', None),  # valid TOML, an empty army
        ('name = "x"\npeople = "li', "army.toml:2: invalid TOML"),
    ],
)
def test_unreadable_lists_exit_2_with_one_line(
    tmp_path: Path, text: str, expected: str | None
) -> None:
    path = write(tmp_path, "army.toml", text)
    result = runner.invoke(app, ["army", "validate", path])
    if expected is None:
        assert result.exit_code == 1  # 30 AP: no champion (I-D-4)
        return
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and expected in lines[0], result.stderr
    assert "Traceback" not in result.output


@pytest.mark.rule("I-D")
def test_a_broken_extra_library_exits_2(tmp_path: Path) -> None:
    lib = write(tmp_path, "lib.toml", "[[profiles]]\nid = 3\n")
    result = runner.invoke(app, ["army", "validate", ESCORT, "--profiles", lib])
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "lib.toml:2: profiles[1].id: expected a string, got an integer (3)"
    )


@pytest.mark.rule("I-D")
def test_show() -> None:
    result = runner.invoke(app, ["army", "show", ESCORT])
    assert result.exit_code == 0, result.output
    for text in (
        "Migail the Moonling",
        "Heavenly Robes 20 AP",
        "ally (griffin)",
        "298/300 AP",
        "fighters 12/15",
        "champions 62 AP",
        "allies 34 AP",
        "Carried, not applied",
    ):
        assert text in result.stdout, text


@pytest.mark.rule("I-C")
def test_profiles_list_and_show() -> None:
    result = runner.invoke(app, ["profiles", "list", "--people", "rat"])
    assert result.exit_code == 0
    assert "goblin-bushi" in result.stdout and "praetorian-guard" not in result.stdout
    result = runner.invoke(app, ["profiles", "list"])
    assert "praetorian-guard" in result.stdout
    result = runner.invoke(app, ["profiles", "show", "praetorian-guard"])
    assert result.exit_code == 0
    for text in ("Praetorian Guard", "ATT / STR", "5 / 8", "DEF / RES", "5 / 11", "49"):
        assert text in result.stdout
    result = runner.invoke(app, ["profiles", "show", "alahan-ballista"])
    assert "Enormous/1" in result.stdout and "size 4, power 3" in result.stdout
    assert "Inalterable" in result.stdout


@pytest.mark.rule("I-C")
def test_profiles_bad_input() -> None:
    result = runner.invoke(app, ["profiles", "show", "nobody"])
    assert result.exit_code == 2
    assert (
        result.stderr
        == "error: ID: unknown profile id 'nobody' (see `confrontation profiles list`)\n"
    )
    result = runner.invoke(app, ["profiles", "list", "--people", "moon"])
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1


@pytest.mark.rule("I-D")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["army", "validate"], "error: confrontation army validate: Missing argument 'FILE'."),
        (["army", "show", ESCORT, "--bogus"], "error: confrontation army show: No such option"),
        (["profiles", "show"], "error: confrontation profiles show: Missing argument 'ID'."),
    ],
)
def test_usage_errors_are_one_line(args: list[str], expected: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(expected)
