"""The bundled data: nations, ranks, profiles and armies load, and every demo army is valid."""

from __future__ import annotations

import typing

import pytest

from confrontation.armylists.load import (
    bundled_army_files,
    bundled_catalog,
    bundled_nations,
    load_army,
    load_ranks,
)
from confrontation.armylists.validate import validate
from confrontation.model.cost_expression import CHARACTERISTICS
from confrontation.model.profile import Profile, Rank

# Numbers the rule documents print, by profile id (characteristic → value).
BOOK: dict[str, dict[str, int]] = {
    "praetorian-guard": {"ap": 49, "ini": 3, "att": 5, "str": 8, "def": 5, "res": 11},
    "dawn-warrior": {"ap": 19, "ini": 3, "att": 3, "str": 7, "def": 3, "res": 7},
    "arkeon-sanath": {"ap": 74, "ini": 5, "str": 7, "def": 6},
    "ghorak": {"att": 8, "def": 4, "res": 8},
    "alahan-guard": {"ap": 12, "str": 3},
    "goblin-bushi": {"res": 5},
    "goblin-marauder": {"ini": 3},
    "dirz-halberdier": {"ini": 2},
    "echahym": {"att": 5},
    "kelt-fianna": {"att": 3},
    "migail": {"ap": 42},
    "alahan-paladin": {"ap": 25},
    "alahan-sword-player": {"ap": 13},
    "alahan-disciple-of-azel": {"ap": 32},
    "alahan-ballista": {"ap": 51},
    "alahan-ballista-servant": {"ap": 10},
    "griffin-exorcist": {"ap": 34},
    "azzoth": {"ap": 34},
    "shub": {"ap": 36},
    "dirz-clone": {"ap": 10},
    "danakil-sentinel": {"ap": 27},
    "jackal-warrior": {"ap": 23},
    "wolfen-great-fang": {"ap": 34},
    "keltois-warrior": {"ap": 8},
}


def value(profile: Profile, name: str) -> int | float | None:
    return profile.ap if name == "ap" else profile.characteristics().get(name)


@pytest.mark.rule("I-C")
def test_printed_numbers_are_the_books() -> None:
    profiles = bundled_catalog().profiles
    for ident, numbers in BOOK.items():
        profile = profiles[ident]
        assert {k: value(profile, k) for k in numbers} == numbers, ident
        assert set(numbers) <= set(profile.printed), ident


@pytest.mark.rule("I-C")
def test_every_unprinted_number_is_marked_sample() -> None:
    for profile in bundled_catalog().profiles.values():
        if not profile.sample:
            present = {"ap", *profile.characteristics()}
            assert present <= set(profile.printed), profile.id
        assert set(profile.printed) <= {"ap", *CHARACTERISTICS}


@pytest.mark.rule("I-C")
def test_profiles_are_complete_for_play() -> None:
    catalog = bundled_catalog()
    assert len(catalog.profiles) >= 30
    nations = bundled_nations()
    for profile in catalog.profiles.values():
        assert profile.people in nations
        assert profile.mov > 0 and profile.res >= 1, profile.id
        if profile.is_shooter:
            assert profile.aim_str is not None and profile.ranges is not None
        if profile.rank in {"initiate", "adept", "master", "virtuous"}:
            assert profile.power is not None, profile.id
        if profile.rank in {"devout", "zealot", "doyen", "avatar"}:
            assert profile.faith is not None, profile.id
    shooters = {p.people for p in catalog.profiles.values() if p.is_shooter}
    assert {"lion", "griffin", "scorpion", "rat", "minotaur", "jackal"} <= shooters


@pytest.mark.rule("I-C")
def test_ranks_file_matches_the_model() -> None:
    ranks = load_ranks()
    assert set(ranks) == set(typing.get_args(Rank))
    assert ranks["major-ally"].level == 4 and ranks["adept"].category == "magician"


@pytest.mark.rule("I-D")
@pytest.mark.parametrize("path", bundled_army_files(), ids=lambda p: p.stem)
def test_every_bundled_army_is_valid(path: typing.Any) -> None:
    report = validate(load_army(path))
    assert report.valid, [str(v) for v in report.violations]
    assert 200 <= report.points <= 300
    assert report.total_ap <= report.points


@pytest.mark.rule("I-D")
def test_at_least_four_demo_armies_of_different_nations() -> None:
    demos = [load_army(p) for p in bundled_army_files() if p.stem != "alahan-royal-escort"]
    assert len({army.people for army in demos}) >= 4
    for army in demos:
        assert 0.85 * army.points <= validate(army).total_ap <= army.points, army.name
