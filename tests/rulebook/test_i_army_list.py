"""Chapter I (material, reference cards, army list): every worked example of I-C and I-D."""

from __future__ import annotations

from pathlib import Path

import pytest

from confrontation.armylists.cost import final_characteristics, strategic_value
from confrontation.armylists.load import (
    bundled_alliances,
    bundled_catalog,
    bundled_nations,
    load_army,
    load_library,
)
from confrontation.armylists.validate import Report, validate
from confrontation.data import data_path

DATA = Path(__file__).parent / "data"
ARMIES = Path(str(data_path("armies")))


def army(path: Path, libraries: tuple[Path, ...] = ()) -> Report:
    return validate(load_army(path, libraries))


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- I-C: size and power ---------------------------------------------------------------------


@pytest.mark.rule("I-C")
@pytest.mark.parametrize(
    ("size", "abilities", "expected_size", "expected_power"),
    [
        ("small", [], 1, 1),
        ("normal", [], 2, 1),
        ("large", [], 3, 2),
        ("very-large", ["Enormous/1"], 4, 3),
        ("very-large", ["Enormous/2"], 5, 4),
    ],
)
def test_size_and_power(
    tmp_path: Path, size: str, abilities: list[str], expected_size: int, expected_power: int
) -> None:
    quoted = ", ".join(f'"{a}"' for a in abilities)
    lib = write(
        tmp_path,
        "lib.toml",
        f"""[[profiles]]
id = "x"
name = "X"
people = "lion"
rank = "regular"
size = "{size}"
ap = 10
mov = 10
ini = 1
att = 1
str = 1
def = 1
res = 1
courage = 1
dis = 1
abilities = [{quoted}]
""",
    )
    profile = load_library(lib).profiles["x"]
    assert (profile.size_value, profile.size_power) == (expected_size, expected_power)


# -- I-D-1 -----------------------------------------------------------------------------------


@pytest.mark.rule("I-D-1")
@pytest.mark.parametrize(
    ("points", "quota"), [(100, 5), (200, 10), (300, 15), (400, 20), (250, 15), (101, 10)]
)
def test_quota_table(points: int, quota: int) -> None:
    assert Report("x", "lion", points, []).quota == quota


# -- I-D-2: the Iron example -----------------------------------------------------------------


@pytest.mark.rule("I-D-2")
def test_iron_on_ghorak_costs_22_ap() -> None:
    catalog = bundled_catalog()
    ghorak, iron = catalog.profiles["ghorak"], catalog.artifacts["iron"]
    assert (ghorak.att, ghorak.def_, ghorak.res) == (8, 4, 8)
    final = final_characteristics(ghorak, [iron])
    assert (final["att"], final["def"], final["res"]) == (9, 5, 8)
    priced = strategic_value(ghorak, [iron])
    assert priced.equipment[0][1] == 9 + 5 + 8 == 22
    assert priced.total == ghorak.ap + 22


@pytest.mark.rule("I-D-2")
def test_iron_in_a_bundled_army_is_priced_on_the_final_profile() -> None:
    report = army(ARMIES / "bran-o-kor-horde.toml")
    ghorak = next(line for line in report.lines if line.card.profile.id == "ghorak")
    assert ghorak.unit_ap == 55 + 22


@pytest.mark.rule("I-D-2", "II-A-4")
def test_a_cost_expression_with_a_third_rounds_up_in_the_army_list(tmp_path: Path) -> None:
    """CLARIFICATIONS §9: "Every division rounds up to the next whole number, not only
    halves: army-list cost expressions (I-D-2) included." Arkeon Sanath (RES 9) with a relic
    costing (RES + 1) / 3 + 43 AP: 10/3 = 3.33 is 4 AP, so he is worth 74 + 47 = 121 AP, over
    40 % of 300 AP (I-D-3); rounded to the nearest AP he would have been worth exactly 120."""
    write(
        tmp_path,
        "lib.toml",
        '[[artifacts]]\nid = "relic"\nname = "Relic"\ncost = "(res + 1) / 3 + 43"\n',
    )
    text = (
        'name = "x"\npeople = "scorpion"\npoints = 300\nprofiles = ["lib.toml"]\n'
        '[[cards]]\nprofile = "arkeon-sanath"\nartifacts = ["relic"]\n'
    )
    report = army(write(tmp_path, "army.toml", text))
    [line] = report.lines
    assert line.unit_ap == 74 + 4 + 43
    assert [str(v) for v in report.violations] == [
        "I-D-3: Arkeon Sanath is worth 121 AP, above 40 % of 300 AP (120 AP)"
    ]


# -- I-D-3 -----------------------------------------------------------------------------------


@pytest.mark.rule("I-D-3")
def test_at_300_ap_no_fighter_above_120(tmp_path: Path) -> None:
    write(
        tmp_path,
        "lib.toml",
        """[[artifacts]]
id = "heavy"
name = "Heavy relic"
cost = 46

[[artifacts]]
id = "light"
name = "Light relic"
cost = 45
""",
    )
    # Arkeon Sanath (74 AP, Artifact/2): 74 + 46 = 120 passes, 74 + 46 + 45 = 165 does not.
    base = 'name = "x"\npeople = "scorpion"\npoints = 300\nprofiles = ["lib.toml"]\n'
    ok = write(
        tmp_path, "ok.toml", base + '[[cards]]\nprofile = "arkeon-sanath"\nartifacts = ["heavy"]\n'
    )
    assert army(ok).valid
    over = write(
        tmp_path,
        "over.toml",
        base + '[[cards]]\nprofile = "arkeon-sanath"\nartifacts = ["heavy", "light"]\n',
    )
    report = army(over)
    assert [str(v) for v in report.violations] == [
        "I-D-3: Arkeon Sanath is worth 165 AP, above 40 % of 300 AP (120 AP)"
    ]


# -- I-D-4: the Goblin example ---------------------------------------------------------------


@pytest.mark.rule("I-D-4")
def test_goblin_champions_pass_at_300_ap() -> None:
    report = army(DATA / "i_d_4_goblin_champions.toml")
    assert [line.card.profile.name for line in report.lines] == [
        "Azzoth, the Treacherous",
        "Shûb, Goblin Prophet",
    ]
    assert [line.unit_ap for line in report.lines] == [34, 36]
    assert report.champions_ap == 70
    assert 70 >= 300 * 20 // 100 == 60
    assert report.valid


@pytest.mark.rule("I-D-4")
def test_azzoth_alone_does_not_reach_the_minimum(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "a.toml",
        'name = "x"\npeople = "rat"\npoints = 300\n[[cards]]\nprofile = "azzoth"\n',
    )
    report = army(path)
    assert [v.rule for v in report.violations] == ["I-D-4"]


# -- I-D-5: the Sessair example --------------------------------------------------------------

SESSAIR = 'name = "x"\npeople = "minotaur"\npoints = 300\n[[cards]]\nprofile = "gwenlaen"\n'


@pytest.mark.rule("I-D-5")
@pytest.mark.parametrize(
    "cards",
    [
        [("giant-barbarian", 1), ("giant-barbarian", 1), ("kelt-fianna", 1)]
        + [("kelt-fianna", 1)] * 2,
        [("giant-barbarian", 2), ("kelt-fianna", 3)],
        [("giant-barbarian", 2), ("kelt-fianna", 2), ("kelt-fianna", 1)],
    ],
)
def test_sessair_cards(tmp_path: Path, cards: list[tuple[str, int]]) -> None:
    text = SESSAIR + "".join(f'[[cards]]\nprofile = "{p}"\ncount = {n}\n' for p, n in cards)
    report = army(write(tmp_path, "s.toml", text))
    assert report.valid, report.violations
    assert report.fighters == 1 + 2 + 3


@pytest.mark.rule("I-D-5")
def test_gwenlaen_has_her_own_card(tmp_path: Path) -> None:
    text = SESSAIR + "count = 2\n"
    report = army(write(tmp_path, "g.toml", text))
    assert "I-D-5" in [v.rule for v in report.violations]


# -- I-D-6: the Galhyan example --------------------------------------------------------------


@pytest.mark.rule("I-D-6")
def test_a_champion_adept_with_artifact_2_carries_up_to_two(tmp_path: Path) -> None:
    write(
        tmp_path,
        "galhyan.toml",
        """[[profiles]]
id = "galhyan"
name = "Galhyan"
people = "dragon"
rank = "adept"
champion = true
ap = 60
mov = 10
ini = 3
att = 2
str = 3
def = 3
res = 6
courage = 4
dis = 4
power = 4
abilities = ["Artifact/2"]
sample = true

[[artifacts]]
id = "a1"
name = "A1"
cost = 1

[[artifacts]]
id = "a2"
name = "A2"
cost = 1

[[artifacts]]
id = "a3"
name = "A3"
cost = 1
""",
    )
    base = (
        'name = "x"\npeople = "dragon"\npoints = 300\nprofiles = ["galhyan.toml"]\n'
        '[[cards]]\nprofile = "galhyan"\n'
    )
    assert army(write(tmp_path, "two.toml", base + 'artifacts = ["a1", "a2"]\n')).valid
    report = army(write(tmp_path, "three.toml", base + 'artifacts = ["a1", "a2", "a3"]\n'))
    assert [v.rule for v in report.violations] == ["I-D-6"]


# -- I-D-8: alliances ------------------------------------------------------------------------


@pytest.mark.rule("I-D-8")
def test_the_three_alliance_ways() -> None:
    nations = bundled_nations()
    ways = {
        way: sorted(k for k, n in nations.items() if n.way == way)
        for way in ("darkness", "light", "doom")
    }
    assert ways["darkness"] == sorted(
        ["aries", "scorpion", "spider", "stag", "hydra", "snake", "hyena"]
    )
    assert ways["light"] == sorted(["lion", "griffin", "boar", "dragon", "minotaur", "sphinx"])
    assert ways["doom"] == sorted(
        ["scarab", "jackal", "wolf", "rat", "spirit-tree", "eagle", "owl"]
    )
    assert nations["immobilis"].way == "none"


@pytest.mark.rule("I-D-8")
def test_acheron_may_ally_with_dirz_and_mid_nor_but_not_dirz_and_drune() -> None:
    alliances = bundled_alliances()
    assert alliances.compatible("aries", "scorpion")
    assert alliances.compatible("aries", "hydra")
    assert alliances.compatible("scorpion", "hydra")
    assert not alliances.compatible("scorpion", "stag")
    assert not alliances.compatible("immobilis", "lion")  # Cadwallon: no declared allies


@pytest.mark.rule("I-D-8")
def test_acheron_army_with_allies(tmp_path: Path) -> None:
    write(
        tmp_path,
        "lib.toml",
        "".join(
            f"""[[profiles]]
id = "{ident}"
name = "{ident}"
people = "{people}"
rank = "regular"
champion = {str(champion).lower()}
ap = {ap}
mov = 10
ini = 2
att = 2
str = 4
def = 2
res = 6
courage = 3
dis = 2
sample = true

"""
            for ident, people, champion, ap in [
                ("acheron-champion", "aries", True, 60),
                ("dirz-ally", "scorpion", False, 20),
                ("mid-nor-ally", "hydra", False, 20),
                ("drune-ally", "stag", False, 20),
            ]
        ),
    )
    base = (
        'name = "x"\npeople = "aries"\npoints = 300\nprofiles = ["lib.toml"]\n'
        '[[cards]]\nprofile = "acheron-champion"\n'
    )
    good = base + '[[cards]]\nprofile = "dirz-ally"\n[[cards]]\nprofile = "mid-nor-ally"\n'
    assert army(write(tmp_path, "good.toml", good)).valid
    bad = base + '[[cards]]\nprofile = "dirz-ally"\n[[cards]]\nprofile = "drune-ally"\n'
    report = army(write(tmp_path, "bad.toml", bad))
    assert [str(v) for v in report.violations] == [
        "I-D-8: allies from scorpion and stag cannot ally together"
    ]


@pytest.mark.rule("I-D-8", "I-D-4")
def test_allied_champions_count_as_allies_not_as_champions(tmp_path: Path) -> None:
    # "These 90 AP of Allies can be allocated in their entirety to Allied Champions. They are
    # not counted as part of the 60 AP of Champions required in the army." Here 91 AP: over.
    text = (
        'name = "x"\npeople = "lion"\npoints = 300\n'
        '[[cards]]\nprofile = "migail"\nartifacts = ["heavenly-robes"]\n'
        '[[cards]]\nprofile = "griffin-templar-commander"\n'
        '[[cards]]\nprofile = "griffin-conscript"\ncount = 2\n'
        '[[cards]]\nprofile = "griffin-conscript"\ncount = 1\n'
    )
    report = army(write(tmp_path, "a.toml", text))
    assert report.allies_ap == 58 + 33 == 91
    assert report.champions_ap == 62
    assert [v.rule for v in report.violations] == ["I-D-8"]


# -- I-D-9: the Alahan Royal Escort ----------------------------------------------------------


@pytest.mark.rule("I-D-9")
def test_alahan_royal_escort() -> None:
    report = army(ARMIES / "alahan-royal-escort.toml")
    assert report.valid
    assert report.quota == 15  # "Maximum strength: fifteen fighters."
    assert report.points * 20 // 100 == 60 and report.points * 30 // 100 == 90
    lines = {line.card.profile.id: line for line in report.lines}
    # Every line of the book, in AP.
    assert lines["migail"].card.profile.ap == 42
    assert lines["migail"].price is not None
    assert lines["migail"].price.equipment[0][1] == 20  # 'Heavenly Robes'
    book = {
        "migail": (1, 62),
        "alahan-paladin": (2, 50),
        "alahan-sword-player": (1, 13),
        "alahan-guard": (3, 36),
        "alahan-disciple-of-azel": (1, 32),
        "alahan-ballista": (1, 51),
        "alahan-ballista-servant": (2, 20),
        "griffin-exorcist": (1, 34),
    }
    assert {k: (v.card.count, v.total_ap) for k, v in lines.items()} == book
    soldiers = sum(x.total_ap for x in report.lines if not x.card.profile.champion and not x.ally)
    assert (report.champions_ap, soldiers, report.allies_ap) == (62, 202, 34)
    assert report.fighters == 12
    # The book prints "Total = 295 AP", but its own lines add up to 298 (docs/rulings.md).
    assert report.total_ap == 62 + 202 + 34 == 298


# -- I-D-7: spells and miracles --------------------------------------------------------------


@pytest.mark.rule("I-D-7")
def test_spells_are_free() -> None:
    report = army(ARMIES / "alahan-royal-escort.toml")
    migail = next(line for line in report.lines if line.card.profile.id == "migail")
    assert migail.card.spells == ("Elemental Aegis",)
    assert migail.unit_ap == 42 + 20  # the spell adds nothing


@pytest.mark.rule("I-D-7")
def test_spells_for_wizards_and_miracles_for_devouts(tmp_path: Path) -> None:
    base = (
        'name = "x"\npeople = "lion"\npoints = 300\n'
        '[[cards]]\nprofile = "migail"\nartifacts = ["heavenly-robes"]\n'
    )
    good = base + (
        'spells = ["Elemental Aegis"]\n'
        '[[cards]]\nprofile = "alahan-disciple-of-azel"\nmiracles = ["Blessing"]\n'
    )
    report = army(write(tmp_path, "good.toml", good))
    assert report.valid and report.total_ap == 62 + 32
    bad = base + (
        'miracles = ["Blessing"]\n'
        '[[cards]]\nprofile = "alahan-paladin"\nspells = ["Elemental Aegis"]\n'
    )
    report = army(write(tmp_path, "bad.toml", bad))
    assert [str(v) for v in report.violations] == [
        "I-D-7: Migail the Moonling calls miracles but is no devout (no FAITH)",
        "I-D-7: Paladin learns spells but is no wizard (no POW)",
    ]
