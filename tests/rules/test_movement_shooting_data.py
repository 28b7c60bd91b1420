"""Loading the movement (V-D) and shooting (VI) data files: a user's own file, and one clear
error naming the file and key for a bad one."""

from __future__ import annotations

from pathlib import Path

import pytest

from confrontation.data import data_path
from confrontation.rules.movement import (
    MovementTableError,
    load_movement_table,
    movement_potential,
)
from confrontation.rules.shooting import (
    RangeBand,
    ShootingTableError,
    ShotTarget,
    load_shooting_table,
    shot_difficulty,
)

MOVEMENT = Path(str(data_path("movement.toml"))).read_text(encoding="utf-8")
SHOOTING = Path(str(data_path("shooting.toml"))).read_text(encoding="utf-8")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.rule("V-D")
def test_a_users_movement_table_replaces_the_bundled_one(tmp_path: Path) -> None:
    text = MOVEMENT.replace(
        'id = "run"\nname = "Run"\nsection = "V-B-2"\npotential = 2',
        ('id = "run"\nname = "Run"\nsection = "V-B-2"\npotential = 3'),
    )
    assert text != MOVEMENT
    table = load_movement_table(_write(tmp_path, "m.toml", text))
    assert movement_potential(table["run"], 10) == 30


@pytest.mark.rule("V-D")
@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('contact = "forbidden"', 'contact = "maybe"', "'maybe' is not a valid ContactRule"),
        ("potential = 2", "potential = -2", "key 'potential': must be >= 0"),
        ('kind = "exclusive"', "kind = 3", "key 'kind': expected str"),
        ("target_bonus = 0", "target_bonus = 0\nspeed = 1", "unknown key 'speed'"),
        ('"DEF", "AIM"', '"DEF", "LUCK"', "unknown characteristic 'LUCK'"),
        ('id = "engage"', 'id = "walk"', "duplicate id 'walk'"),
        ("potential_disengaged = 1\n", "", "key 'potential_disengaged': required"),
    ],
)
def test_bad_movement_files(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in MOVEMENT
    path = _write(tmp_path, "m.toml", MOVEMENT.replace(old, new, 1))
    with pytest.raises(MovementTableError, match=r"m\.toml") as error:
        load_movement_table(path)
    assert message in str(error.value)


def test_unreadable_movement_files(tmp_path: Path) -> None:
    with pytest.raises(MovementTableError, match="cannot read"):
        load_movement_table(tmp_path / "missing.toml")
    with pytest.raises(MovementTableError, match="not valid TOML"):
        load_movement_table(_write(tmp_path, "m.toml", "[[action]\n"))
    with pytest.raises(KeyError, match="unknown movement action 'fly'"):
        load_movement_table()["fly"]


@pytest.mark.rule("VI-A-3")
def test_a_users_shooting_table(tmp_path: Path) -> None:
    table = load_shooting_table(
        _write(tmp_path, "s.toml", SHOOTING.replace("medium = 7", "medium = 6"))
    )
    assert shot_difficulty(RangeBand.MEDIUM, ShotTarget(), table).total == 6


@pytest.mark.rule("VI-A-3", "VI-B-1")
@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("short = 4", "short = 'four'", "difficulty: key 'short': expected an integer"),
        ("altitude = 2 ", "altitude = 2\nwind = 1 ", "modifiers: unknown key 'wind'"),
        ("[4, 5, 6]", "[4, 5, 7]", "melee: key 'target_faces'"),
        ("[melee]", "[close]", "unknown key 'close'"),
    ],
)
def test_bad_shooting_files(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in SHOOTING
    path = _write(tmp_path, "s.toml", SHOOTING.replace(old, new, 1))
    with pytest.raises(ShootingTableError, match=r"s\.toml") as error:
        load_shooting_table(path)
    assert message in str(error.value)
