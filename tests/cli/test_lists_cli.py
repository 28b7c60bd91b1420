"""Lists and cards for players and organisers (issue 26): `army show --format`, `army validate`
of many files at an event's format, `--allow-invalid`, whole profile ids, "did you mean …",
peoples by their usual names, `artifacts list|show`, `armies list`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from games_support import small_armies

runner = CliRunner(env={"COLUMNS": "200"})
narrow = CliRunner(env={"COLUMNS": "40"})

GRIFFIN_WITH_ROBES = (
    'name = "Robed Templars"\npeople = "griffin"\npoints = 300\n'
    '[[cards]]\nprofile = "griffin-templar-commander"\nartifacts = ["heavenly-robes"]\n'
)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- army show --format -------------------------------------------------------------------


@pytest.mark.rule("I-D-9")
def test_show_json_is_the_whole_roster() -> None:
    result = runner.invoke(app, ["army", "show", "alahan-royal-escort", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["name"] == "Alahan Royal Escort"
    assert doc["people"] == {"key": "lion", "totem": "Lion", "name": "The Kingdom of Alahan"}
    assert (doc["points"], doc["total_ap"], doc["fighters"], doc["quota"]) == (300, 298, 12, 15)
    assert (doc["champions_ap"], doc["champions_minimum_ap"]) == (62, 60)
    assert (doc["allies_ap"], doc["allies_maximum_ap"], doc["fighter_maximum_ap"]) == (34, 90, 120)
    assert doc["valid"] is True and doc["violations"] == []
    assert [c["profile"] for c in doc["cards"]] == [
        "migail",
        "alahan-paladin",
        "alahan-sword-player",
        "alahan-guard",
        "alahan-disciple-of-azel",
        "alahan-ballista",
        "alahan-ballista-servant",
        "griffin-exorcist",
    ]
    migail = doc["cards"][0]
    assert migail["equipment"] == [
        {
            "id": "heavenly-robes",
            "name": "Heavenly Robes",
            "kind": "artifact",
            "cost": 20,
            "people": ["lion"],
        }
    ]
    assert (migail["card_ap"], migail["unit_ap"], migail["champion"]) == (42, 62, True)
    assert migail["spells"] == ["Elemental Aegis"]
    guards = doc["cards"][3]
    assert (guards["count"], guards["max_per_card"], guards["total_ap"]) == (3, 3, 36)
    assert doc["cards"][-1]["ally"] is True
    assert sum(c["total_ap"] for c in doc["cards"] if c["recruited"]) == doc["total_ap"]


@pytest.mark.rule("I-D-6")
def test_show_markdown_and_html_carry_cards_costs_shares_and_verdict(tmp_path: Path) -> None:
    md = runner.invoke(app, ["army", "show", "lion-vanguard", "--format", "md"])
    assert md.exit_code == 0, md.output
    assert md.stdout.startswith("# Lion Vanguard\n")
    assert "| 1 | Migail the Moonling (`migail`) | 1 (max 1) |" in md.stdout
    assert "Heavenly Robes (20 AP)" in md.stdout
    assert "- Fighters: 9/10 (I-D-1" in md.stdout
    assert "- Champions: 62 AP = 31 % (at least 40 AP, I-D-4)" in md.stdout
    assert "**Valid army list.**" in md.stdout
    army = write(tmp_path, "robes.toml", GRIFFIN_WITH_ROBES.replace('"Robed', '"<b>Robed'))
    html = runner.invoke(app, ["army", "show", army, "--format", "html"])
    assert html.exit_code == 0, html.output
    page = html.stdout
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<b>" not in page and "&lt;b&gt;Robed Templars" in page  # names are escaped
    assert "INVALID army list." in page
    assert "I-D-6: Heavenly Robes is reserved for lion" in page
    assert "<script" not in page


def test_show_text_is_the_table_and_bad_format_is_refused() -> None:
    text = runner.invoke(app, ["army", "show", "lion-vanguard"])
    assert text.exit_code == 0 and "Valid army list." in text.stdout
    bad = runner.invoke(app, ["army", "show", "lion-vanguard", "--format", "pdf"])
    assert bad.exit_code == 2


# --- army validate: many files, --points -----------------------------------------------------


@pytest.mark.rule("I-D")
def test_validate_many_files_at_the_events_format(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.toml", 'name = "x"\npeople = "lion"\n')
    args = ["army", "validate", "lion-vanguard", "alahan-royal-escort", "--points", "250"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1  # the escort's 298 AP do not fit 250
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "lion-vanguard: Lion Vanguard: valid — 197/250 AP, 9/15 fighters, champions 62 AP, "
        "allies 0 AP (checked at 250 AP; the file says 200 AP)"
    )
    assert lines[1].startswith("alahan-royal-escort: Alahan Royal Escort: INVALID — 298/250 AP")
    assert "I-D: the army is worth 298 AP, above the format of 250 AP" in lines
    assert lines[-1] == "2 lists at 250 AP: 1 valid, 1 invalid, 0 unreadable"
    result = runner.invoke(app, ["army", "validate", "lion-vanguard", broken, "--json"])
    assert result.exit_code == 2  # unreadable wins over invalid
    doc = json.loads(result.stdout)
    assert doc["valid"] is False and doc["points"] is None
    assert doc["counts"] == {"valid": 1, "invalid": 0, "unreadable": 1}
    assert doc["lists"][0]["file"] == "lion-vanguard" and doc["lists"][0]["valid"] is True
    assert doc["lists"][1]["error"].endswith("points: missing key")
    ok = runner.invoke(
        app, ["army", "validate", "lion-vanguard", "sessair-warband", "--points", "300"]
    )
    assert ok.exit_code == 0, ok.output


def test_validate_points_must_be_positive() -> None:
    result = runner.invoke(app, ["army", "validate", "lion-vanguard", "--points", "0"])
    assert result.exit_code == 2


# --- play and simulate refuse an invalid list --------------------------------------------------


@pytest.mark.rule("I-D-4")
def test_play_and_simulate_refuse_an_invalid_list(tmp_path: Path) -> None:
    lions, jackals = small_armies(tmp_path)  # no champion: I-D-4
    play = ["play", "--armies", lions, jackals, "--rounds", "1", "--seed", "1", "--no-store"]
    refused = runner.invoke(app, play)
    assert refused.exit_code == 1
    assert refused.stderr == (
        f"error: {lions}: invalid army list: I-D-4: champions are worth 0 AP, below 20 % of "
        "100 AP (20 AP; allied champions do not count); play it anyway with --allow-invalid\n"
    )
    assert runner.invoke(app, [*play, "--allow-invalid", "--json"]).exit_code == 0
    simulate = ["simulate", "-n", "1", "--armies", "lion-vanguard", jackals, "--no-store"]
    refused = runner.invoke(app, [*simulate, "--rounds", "1"])
    assert refused.exit_code == 1
    assert refused.stderr.startswith(f"error: {jackals}: invalid army list: I-D-4:")
    allowed = runner.invoke(app, [*simulate, "--rounds", "1", "--allow-invalid", "--json"])
    assert allowed.exit_code == 0, allowed.output


# --- profile ids, did you mean, peoples by their names -------------------------------------------

LONG_ID = "an-extraordinarily-long-profile-identifier-for-a-test"


def test_profile_ids_are_never_truncated(tmp_path: Path) -> None:
    lib = write(
        tmp_path,
        "lib.toml",
        f'[[profiles]]\nid = "{LONG_ID}"\nname = "Long"\npeople = "Akkylannie"\n'
        'rank = "regular"\nap = 10\nmov = 10\nini = 1\natt = 1\nstr = 1\ndef = 1\nres = 1\n'
        "courage = 1\ndis = 1\n",
    )
    table = narrow.invoke(app, ["profiles", "list", "--profiles", lib, "--people", "griffin"])
    assert table.exit_code == 0, table.output
    assert LONG_ID in table.stdout
    plain = narrow.invoke(app, ["profiles", "list", "--profiles", lib, "--plain"])
    assert f"{LONG_ID}\tLong\tgriffin\tregular\t10\t\n" in plain.stdout
    listed = json.loads(narrow.invoke(app, ["profiles", "list", "--json"]).stdout)
    assert {"griffin-templar-commander", "praetorian-guard"} <= {p["id"] for p in listed}
    row = next(p for p in listed if p["id"] == "griffin-templar-commander")
    assert row == {
        "id": "griffin-templar-commander",
        "name": "Templar Commander",
        "people": "griffin",
        "rank": "living-legend",
        "ap": 58,
        "champion": True,
        "sample": True,
    }
    both = runner.invoke(app, ["profiles", "list", "--json", "--plain"])
    assert both.exit_code == 2


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["profiles", "show", "praetorian-gard"], "did you mean 'praetorian-guard'?"),
        (["profiles", "show", "templar"], "did you mean 'griffin-templar-commander'?"),
        (["artifacts", "show", "heavenly-robe"], "did you mean 'heavenly-robes'?"),
        (["army", "show", "lion-vangard"], "did you mean 'lion-vanguard'?"),
        (["scenarios", "show", "conqest"], "did you mean 'conquest'?"),
        (["profiles", "list", "--people", "Grifin"], "did you mean 'griffin'?"),
        (
            ["play", "--armies", "lion-vanguard", "goblin-raider", "--no-store"],
            "did you mean 'goblin-raiders'?",
        ),
    ],
)
def test_unknown_ids_suggest_the_close_ones(args: list[str], expected: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert expected in result.stderr and len(result.stderr.splitlines()) == 1


def test_unknown_ids_in_an_army_file_suggest_too(tmp_path: Path) -> None:
    army = write(
        tmp_path,
        "a.toml",
        'name = "x"\npeople = "Alahan"\npoints = 300\n[[cards]]\nprofile = "migial"\n',
    )
    result = runner.invoke(app, ["army", "validate", army])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {army}:5: cards[1].profile: unknown profile id 'migial'; did you mean 'migail'?\n"
    )
    nothing_close = army.replace("a.toml", "b.toml")
    Path(nothing_close).write_text(
        'name = "x"\npeople = "lion"\npoints = 300\n[[cards]]\nprofile = "qqqqqq"\n'
    )
    result = runner.invoke(app, ["army", "validate", nothing_close])
    assert result.stderr.endswith("unknown profile id 'qqqqqq'\n")


@pytest.mark.rule("I-D-8")
@pytest.mark.parametrize("people", ["griffin", "Griffin", "GRIFFIN", "Akkylannie", "akkylannie"])
def test_peoples_by_their_usual_names(tmp_path: Path, people: str) -> None:
    army = write(
        tmp_path,
        "a.toml",
        f'name = "x"\npeople = "{people}"\npoints = 300\n'
        '[[cards]]\nprofile = "griffin-templar-commander"\n'
        '[[cards]]\nprofile = "praetorian-guard"\n[[cards]]\nprofile = "griffin-inquisitor"\n',
    )
    result = runner.invoke(app, ["army", "validate", army, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["allies_ap"] == 0  # the guard is no ally: same people
    listed = runner.invoke(app, ["profiles", "list", "--people", people, "--plain"])
    assert {line.split("\t")[2] for line in listed.stdout.splitlines()} == {"griffin"}


def test_an_unknown_people_in_a_list_suggests(tmp_path: Path) -> None:
    army = write(tmp_path, "a.toml", 'name = "x"\npeople = "Akylanie"\npoints = 300\n')
    result = runner.invoke(app, ["army", "validate", army])
    assert result.exit_code == 2
    assert "people: unknown people 'Akylanie'; did you mean 'griffin'" in result.stderr


# --- artifacts ------------------------------------------------------------------------------


@pytest.mark.rule("I-D-6")
def test_a_lion_artifact_on_a_griffin_champion_is_invalid(tmp_path: Path) -> None:
    army = write(tmp_path, "robes.toml", GRIFFIN_WITH_ROBES)
    result = runner.invoke(app, ["army", "validate", army])
    assert result.exit_code == 1
    assert (
        "I-D-6: Heavenly Robes is reserved for lion; Templar Commander is griffin"
        in result.stdout.splitlines()
    )
    lion = write(
        tmp_path, "lion.toml", GRIFFIN_WITH_ROBES.replace("griffin-templar-commander", "migail")
    )
    assert "I-D-6" not in runner.invoke(app, ["army", "validate", lion]).stdout


@pytest.mark.rule("I-D-6")
def test_artifacts_list_and_show_their_restrictions() -> None:
    listed = runner.invoke(app, ["artifacts", "list", "--json"])
    assert listed.exit_code == 0, listed.output
    rows = {row["id"]: row for row in json.loads(listed.stdout)}
    assert rows["heavenly-robes"]["people"] == ["lion"]
    assert rows["alchemical-blade"]["people"] == ["scorpion"]
    assert "migail" in rows["heavenly-robes"]["carriers"]
    assert "griffin-templar-commander" not in rows["heavenly-robes"]["carriers"]
    assert "praetorian-guard" in rows["iron"]["carriers"]  # 'Artifact/1', any people
    assert "alahan-paladin" not in rows["iron"]["carriers"]  # no 'Artifact/X'
    griffin = runner.invoke(app, ["artifacts", "list", "--people", "Griffin", "--json"])
    assert {row["id"] for row in json.loads(griffin.stdout)} == {"iron"}
    table = runner.invoke(app, ["artifacts", "list"])
    assert "reserved for Lion; takes an Artifact/X slot; one copy a list" in table.stdout
    shown = runner.invoke(app, ["artifacts", "show", "iron"])
    assert shown.exit_code == 0
    assert "ATT +1, DEF +1" in shown.stdout and "any people" in shown.stdout
    doc = json.loads(runner.invoke(app, ["artifacts", "show", "iron", "--json"]).stdout)
    assert (doc["cost"], doc["unique"], doc["kind"]) == ("att + def + res", True, "artifact")


# --- armies list ------------------------------------------------------------------------------


def test_armies_list() -> None:
    result = runner.invoke(app, ["armies", "list", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in json.loads(result.stdout)}
    assert rows["lion-vanguard"]["name"] == "Lion Vanguard"
    assert rows["goblin-raiders"]["champions"] == ["azzoth", "shub"]
    assert all(row["valid"] for row in rows.values())
    lions = runner.invoke(
        app, ["armies", "list", "--people", "Alahan", "--points", "300", "--json"]
    )
    assert {row["id"] for row in json.loads(lions.stdout)} == {"alahan-royal-escort", "lion-300"}
    table = runner.invoke(app, ["armies", "list"])
    assert "alahan-royal-escort" in table.stdout and "INVALID" not in table.stdout


@pytest.mark.rule("I-D-8")
def test_armies_peoples_lists_the_23_with_their_names_and_allies() -> None:
    result = runner.invoke(app, ["armies", "peoples", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["key"]: row for row in json.loads(result.stdout)}
    assert len(rows) == 24  # the 23 of I-D-8 and the neutral creatures (XX-E)
    assert "Akkylannie" in rows["griffin"]["aliases"]
    assert rows["griffin"]["allies"] == ["lion", "boar", "dragon", "minotaur", "sphinx"]
    assert "stag" not in rows["scorpion"]["allies"]  # the I-D-8 example
    assert rows["immobilis"]["allies"] == []
    assert rows["elemental"]["recruited_by"] == "Elemental"
    table = runner.invoke(app, ["armies", "peoples"])
    assert "through 'Immortal/X'" in table.stdout
