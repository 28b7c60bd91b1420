"""The 23 peoples of I-D-8 and their usual names, the alliance matrix over all of them, and a
valid 300 AP list with a choice of champions for every people with bundled profiles."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.armylists.load import (
    LoadError,
    bundled_alliances,
    bundled_army_files,
    bundled_catalog,
    bundled_nations,
    load_army,
    load_nations,
)
from confrontation.armylists.names import did_you_mean, people_key
from confrontation.armylists.validate import validate

# I-D-8, in the rulebook's order: the three alliance ways, then the "other nations".
I_D_8 = {
    "darkness": ["Aries", "Scorpion", "Spider", "Stag", "Hydra", "Snake", "Hyena"],
    "light": ["Lion", "Griffin", "Boar", "Dragon", "Minotaur", "Sphinx"],
    "doom": ["Scarab", "Jackal", "Wolf", "Rat", "Spirit Tree", "Eagle", "Owl"],
    "none": ["Immobilis", "Elemental", "Immortal"],
}


@pytest.mark.rule("I-D-8")
def test_the_nations_are_the_23_peoples_of_i_d_8() -> None:
    nations = bundled_nations()
    totems = {n.totem: n for n in nations.values()}
    listed = [totem for way in I_D_8.values() for totem in way]
    assert len(listed) == 23
    for way, members in I_D_8.items():
        for totem in members:
            assert totems[totem].way == way, totem
    # the only other people is the neutral creatures' (XX-E), which allies with nobody
    assert set(totems) - set(listed) == {"Wild"}


@pytest.mark.rule("I-D-8")
def test_the_alliance_matrix_answers_for_every_pair_of_the_23() -> None:
    alliances = bundled_alliances()
    keys = [k for k, n in bundled_nations().items() if n.totem != "Wild"]
    for first, second in itertools.product(keys, repeat=2):
        a, b = alliances.nations[first], alliances.nations[second]
        expected = first == second or (
            a.way == b.way != "none" and {first, second} != {"scorpion", "stag"}
        )
        assert alliances.compatible(first, second) is expected, (first, second)
        assert alliances.compatible(second, first) is expected


@pytest.mark.rule("I-D-8")
@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("griffin", "griffin"),
        ("Griffin", "griffin"),
        ("Akkylannie", "griffin"),
        ("THE EMPIRE OF AKKYLANNIE", "griffin"),
        ("Alahan", "lion"),
        ("Bran-O-Kor", "jackal"),
        ("bran-ô-kor", "jackal"),
        ("Spirit Tree", "spirit-tree"),
        ("spirit_tree", "spirit-tree"),
        ("Cadwallon", "immobilis"),
        ("Mid-Nor", "hydra"),
        ("Sessair", "minotaur"),
        ("Gryphon", None),
        ("", None),
    ],
)
def test_peoples_by_key_totem_name_or_alias(name: str, key: str | None) -> None:
    assert people_key(name, bundled_nations()) == key


def test_did_you_mean_names_close_ids_only() -> None:
    known = ["lion-vanguard", "goblin-raiders", "conquest"]
    assert did_you_mean("lion-vangard", known) == "; did you mean 'lion-vanguard'?"
    assert did_you_mean("LION VANGUARD", known) == "; did you mean 'lion-vanguard'?"
    assert did_you_mean("raiders", known) == "; did you mean 'goblin-raiders'?"
    assert did_you_mean("zzz", known) == ""
    assert did_you_mean("zz", ["zz-top"]) == ""  # too short to be a part


def _nations_file(tmp_path: Path, aliases: str) -> Path:
    path = tmp_path / "nations.toml"
    path.write_text(
        '[[nations]]\nkey = "lion"\ntotem = "Lion"\nname = "Alahan"\nway = "light"\n'
        f"aliases = {aliases}\n"
        '[[nations]]\nkey = "griffin"\ntotem = "Griffin"\nname = "Akkylannie"\nway = "light"\n',
        encoding="utf-8",
    )
    return path


def test_aliases_are_names_each_of_one_people(tmp_path: Path) -> None:
    nations = load_nations(_nations_file(tmp_path, '["Kingdom"]'))
    assert nations["lion"].aliases == ("Kingdom",)
    with pytest.raises(LoadError, match=r"nations.toml:6: nations\[1\].aliases: expected an"):
        load_nations(_nations_file(tmp_path, '"Kingdom"'))
    with pytest.raises(LoadError, match="the name 'akkylannie' is both 'lion' and 'griffin'"):
        load_nations(_nations_file(tmp_path, '["Akkylannie"]'))


_toml_values = st.recursive(
    st.one_of(
        st.booleans(),
        st.integers(-(10**6), 10**6),
        st.text(max_size=8),
        st.floats(allow_nan=False, allow_infinity=False),
    ),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=6,
)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + "".join(c if c.isalnum() or c in " -" else "" for c in value) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)


@settings(max_examples=60, deadline=None)
@given(value=_toml_values)
def test_any_aliases_value_loads_or_is_one_line(value: object) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = _nations_file(Path(folder), _toml(value))
        tomllib.loads(path.read_text(encoding="utf-8"))  # the test writes valid TOML
        try:
            nations = load_nations(path)
        except LoadError as error:
            assert "\n" not in str(error) and str(error).startswith(str(path))
        else:
            assert all(isinstance(a, str) and a.strip() for a in nations["lion"].aliases)


# --- a 300 AP list for every people -------------------------------------------------------------


def _peoples_with_profiles() -> list[str]:
    peoples = {p.people for p in bundled_catalog().profiles.values()}
    return sorted(peoples - {"wild"})  # neutral creatures (XX-E) are no army


def test_the_peoples_with_profiles_are_nine() -> None:
    assert _peoples_with_profiles() == [
        "griffin",
        "immobilis",
        "jackal",
        "lion",
        "minotaur",
        "rat",
        "scarab",
        "scorpion",
        "wolf",
    ]


@pytest.mark.rule("I-D-4")
@pytest.mark.parametrize("people", _peoples_with_profiles())
def test_every_people_fields_a_valid_300_ap_list_with_a_choice_of_champions(people: str) -> None:
    champions = [
        p for p in bundled_catalog().profiles.values() if p.people == people and p.champion
    ]
    assert len(champions) >= 2, people  # a choice of champions
    lists = [load_army(path) for path in bundled_army_files()]
    full = [army for army in lists if army.people == people and army.points == 300]
    assert full, f"no bundled 300 AP list of {people}"
    for army in full:
        report = validate(army)
        assert report.valid, [str(v) for v in report.violations]
        assert not report.notes, [str(n) for n in report.notes]
        assert 0.75 * 300 <= report.total_ap <= 300
    fielded = {line.card.profile.id for army in full for line in validate(army).recruited} & {
        c.id for c in champions
    }
    assert len(fielded) >= 2, people  # the list fields at least two of them


@pytest.mark.rule("I-D-6")
def test_the_heavenly_robes_are_a_lion_artifact() -> None:
    assert bundled_catalog().artifacts["heavenly-robes"].people == ["lion"]


@settings(max_examples=80, deadline=None)
@given(people=st.text(max_size=30))
def test_any_people_in_a_list_loads_or_is_one_line(people: str) -> None:
    import tempfile

    escaped = people.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "army.toml"
        path.write_text(f'name = "x"\npeople = "{escaped}"\npoints = 100\n', encoding="utf-8")
        try:
            army = load_army(path)
        except LoadError as error:
            assert "\n" not in str(error) and str(error).startswith(str(path))
        else:
            assert army.people in bundled_nations()
            assert people_key(people, bundled_nations()) == army.people
