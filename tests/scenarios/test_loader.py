"""Scenario files: the bundled ones and their variations load; a bad file is one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from confrontation.armylists.load import LoadError
from confrontation.scenarios import bundled_scenarios, load_scenario, resolve

GOOD = """\
name = "Hill"
rounds = 4
goal = "control"

[[areas]]
name = "the hill"
shape = "circle"
x = 60.0
y = 30.0
radius = 12.0
vp = 2
"""


def test_every_bundled_scenario_and_variation_loads() -> None:
    bundled = {"bloodbath", "conquest", "execution", "assassination", "standard", "watchtower"}
    extra = {"fire", "the-hill", "loot", "relics", "escort", "wild-beasts", "sabotage"}
    assert bundled | extra <= set(bundled_scenarios())
    assert bundled_scenarios() == sorted(bundled_scenarios())
    for name in bundled_scenarios():
        scenario = resolve(name)
        assert scenario.id == name and scenario.scenery >= 4  # III-A-3
        for variation in scenario.variations:
            assert resolve(f"{name}:{variation}").id == f"{name}:{variation}"


def test_a_users_file_with_a_variation(tmp_path: Path) -> None:
    path = tmp_path / "hill.toml"
    path.write_text(GOOD + '\n[[variations]]\nid = "long"\nrounds = 8\n', encoding="utf-8")
    assert resolve(str(path)).rounds == 4
    long = resolve(f"{path}:long")
    assert (long.rounds, long.name, long.areas[0].coords) == (8, "Hill (long)", (60.0, 30.0, 12.0))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("rounds = 4", "rounds = 0"),
            "hill.toml:2: rounds: Input should be greater than or equal to 1",
        ),
        (('goal = "control"', 'goal = "loot"'), "hill.toml:3: goal:"),
        (("vp = 2", "vp = 2\ncolour = 1"), "hill.toml:12: areas[1].colour: unknown key"),
        (("radius = 12.0", "radius = 40.0"), "area 'the hill' is not wholly on the 120x60 table"),
        (('shape = "circle"', 'shape = "deployment"'), "a 'deployment' area needs an owner"),
        (
            ("rounds = 4", 'rounds = 4\ntable = "200x20"'),
            "hill.toml:3: table: unknown table format",
        ),
        (
            ("rounds = 4", "rounds = 4\nscenery = 2"),
            "hill.toml:3: scenery: 2 elements of scenery in all (0 scenario, 2 standard): at "
            "least 4 are needed (XX-A-2",
        ),
        (("x = 60.0\n", ""), "a 'circle' area needs x"),
    ],
)
def test_a_bad_file_is_one_line_naming_file_line_and_key(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    path = tmp_path / "hill.toml"
    path.write_text(GOOD.replace(*change), encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        load_scenario(path)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_overlapping_areas_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "two.toml"
    second = (
        GOOD[GOOD.index("[[areas]]") :].replace("the hill", "the tower").replace("60.0", "70.0")
    )
    path.write_text(GOOD + "\n" + second, encoding="utf-8")
    with pytest.raises(LoadError, match="areas 'the hill' and 'the tower' overlap"):
        load_scenario(path)


def test_unknown_names_and_variations() -> None:
    with pytest.raises(LoadError, match=r"no scenario 'siege' \(bundled: [a-z, -]*bloodbath, conq"):
        resolve("siege")
    with pytest.raises(LoadError, match=r"no variation 'night' \(variations: campsites\)"):
        resolve("conquest:night")
    with pytest.raises(LoadError, match="cannot read the file"):
        resolve("missing.toml")


@pytest.mark.rule("XX-A-2")
def test_a_condition_naming_no_scenario_scenery_is_refused(tmp_path: Path) -> None:
    """Only the scenario's own scenery is known before the game (XX-A-2): a ``destroy`` or
    ``intact`` condition naming another element is refused at load, with its line and key."""
    source = resolve("sabotage").path
    assert source is not None
    text = source.read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('element = "the powder store"', 'element = "the shed"', 1))
    with pytest.raises(LoadError) as error:
        load_scenario(bad)
    message = str(error.value)
    assert "\n" not in message
    assert "conditions[1].element" in message and "'the shed'" in message
    assert "'the powder store'" in message and "XX-A-2" in message
