"""Loading: errors name the file, the key and the line; find_line locates keys in the text."""

from __future__ import annotations

from pathlib import Path

import pytest

from confrontation.armylists.load import LoadError, find_line, key_name, load_army, load_library

ARMY = """name = "Test"
people = "lion"
points = 300
profiles = ["lib.toml"]

[[cards]]
profile = "champion-60"

[[cards]]
profile = "soldier-10"
count = 3
"""


def write(tmp_path: Path, text: str, name: str = "army.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path) -> LoadError:
    with pytest.raises(LoadError) as info:
        load_army(path)
    return info.value


@pytest.mark.rule("I-D")
def test_find_line() -> None:
    assert find_line(ARMY, ["points"]) == 3
    assert find_line(ARMY, ["cards", 0]) == 6
    assert find_line(ARMY, ["cards", 1, "count"]) == 11
    assert find_line(ARMY, ["cards", 1, "artifacts"]) == 9  # missing: the table header
    assert find_line(ARMY, ["profiles", 0]) == 4
    assert find_line(ARMY, ["nothing"]) == 1
    assert key_name(["cards", 1, "count"]) == "cards[2].count"


@pytest.mark.rule("I-D")
@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("count = 3", 'count = "3"', ":11: cards[2].count: expected a whole number, got a string"),
        ("count = 3", "count = true", ":11: cards[2].count: expected a whole number"),
        ("count = 3", "count = 0", ":11: cards[2].count: Input should be greater than or equal"),
        ("count = 3", "cont = 3", ":11: cards[2].cont: unknown key"),
        ("points = 300", "points = 300\ncolour = 1", ":4: colour: unknown key"),
        ('name = "Test"\n', "", ":1: name: missing key"),
        ('profile = "soldier-10"', 'profile = "nobody"', ":10: cards[2].profile: unknown profile"),
        ('people = "lion"', 'people = "lions"', ":2: people: unknown people 'lions'"),
        ("count = 3", 'count = 3\nartifacts = ["x"]', ":12: cards[2].artifacts: unknown artifact"),
        ("count = 3", "count = [", ":11: invalid TOML"),
    ],
)
def test_errors_name_file_key_and_line(
    tmp_path: Path, library: Path, old: str, new: str, expected: str
) -> None:
    error = error_of(write(tmp_path, ARMY.replace(old, new)))
    assert str(error).startswith(str(tmp_path / "army.toml") + expected), str(error)
    assert "\n" not in str(error)


@pytest.mark.rule("I-D")
def test_unreadable_and_not_utf8(tmp_path: Path) -> None:
    assert "cannot read the file" in str(error_of(tmp_path / "missing.toml"))
    path = tmp_path / "bad.toml"
    path.write_bytes(b'name = "x"\npeople = "\xff"\n')
    assert str(error_of(path)).endswith("bad.toml:2: the file is not UTF-8 text")


PROFILE = """[[profiles]]
id = "a"
name = "A"
people = "lion"
rank = "regular"
ap = 10
mov = 10
ini = 1
att = 1
str = 1
def = 1
res = 1
courage = 1
dis = 1
"""


@pytest.mark.rule("I-C")
@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('rank = "regular"', 'rank = "general"', ":5: profiles[1].rank: Input should be"),
        ("courage = 1", "courage = 1\nfear = 2", ":13: profiles[1].courage: a profile has exactly"),
        ("dis = 1", "dis = 1\naim = 3", ":15: profiles[1].aim: a shooter needs"),
        ("dis = 1", 'dis = 1\nabilities = ["Enormous/1"]', ":1: profiles[1].size: a fighter"),
        ("dis = 1", 'dis = 1\nabilities = ["/2"]', ":15: profiles[1].abilities: ability"),
        ("def = 1", "def = 1.5", ":11: profiles[1].def: expected a whole number, got a number"),
        ('people = "lion"', 'people = "moon"', ":4: profiles[1].people: unknown people"),
    ],
)
def test_profile_errors(tmp_path: Path, old: str, new: str, expected: str) -> None:
    path = write(tmp_path, PROFILE.replace(old, new), "lib.toml")
    with pytest.raises(LoadError) as info:
        load_library(path)
    assert str(info.value).startswith(str(path) + expected), str(info.value)


@pytest.mark.rule("I-D-2")
def test_artifact_cost_errors_point_at_the_cost_line(tmp_path: Path) -> None:
    text = '[[artifacts]]\nid = "a"\nname = "A"\ncost = "att + __import__(\'os\')"\n'
    path = write(tmp_path, text, "lib.toml")
    with pytest.raises(LoadError) as info:
        load_library(path)
    assert ":4: artifacts[1].cost: cost" in str(info.value)


@pytest.mark.rule("I-D")
def test_duplicate_ids_in_one_library(tmp_path: Path) -> None:
    path = write(tmp_path, PROFILE + "\n" + PROFILE, "lib.toml")
    with pytest.raises(LoadError) as info:
        load_library(path)
    assert ":17: profiles[2].id: duplicate id 'a'" in str(info.value)


@pytest.mark.rule("I-D")
def test_later_libraries_replace_bundled_profiles(tmp_path: Path) -> None:
    lib = write(tmp_path, PROFILE.replace('id = "a"', 'id = "dawn-warrior"'), "lib.toml")
    text = 'name = "x"\npeople = "lion"\npoints = 100\n[[cards]]\nprofile = "dawn-warrior"\n'
    army = load_army(write(tmp_path, text), [lib])
    assert army.cards[0].profile.ap == 10
    assert load_army(write(tmp_path, text)).cards[0].profile.ap == 19


@pytest.mark.rule("I-D")
def test_a_missing_library_is_reported_at_the_army_key(tmp_path: Path) -> None:
    text = 'name = "x"\npeople = "lion"\npoints = 100\nprofiles = ["gone.toml"]\n'
    error = error_of(write(tmp_path, text))
    assert str(error).startswith(str(tmp_path / "army.toml") + ":4: profiles[1]: cannot use")


@pytest.mark.rule("I-D")
def test_order_of_libraries(tmp_path: Path) -> None:
    # bundled < the army's own libraries < extra libraries (--profiles)
    own = write(tmp_path, PROFILE.replace('id = "a"', 'id = "dawn-warrior"'), "own.toml")
    extra = write(
        tmp_path,
        PROFILE.replace('id = "a"', 'id = "dawn-warrior"').replace("ap = 10", "ap = 11"),
        "extra.toml",
    )
    text = (
        f'name = "x"\npeople = "lion"\npoints = 100\nprofiles = ["{own.name}"]\n'
        '[[cards]]\nprofile = "dawn-warrior"\n'
    )
    path = write(tmp_path, text)
    assert load_army(path).cards[0].profile.ap == 10
    assert load_army(path, [extra]).cards[0].profile.ap == 11


@pytest.mark.rule("I-D")
def test_control_characters_are_escaped(tmp_path: Path) -> None:
    text = 'name = "x"\npeople = "li\\u0001on"\npoints = 100\n'
    assert "'li\\x01on'" in str(error_of(write(tmp_path, text)))
