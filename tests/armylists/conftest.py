"""Fixtures for army-list tests: a small synthetic profile library and an army writer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest


def _profile(
    ident: str,
    ap: int,
    *,
    people: str = "lion",
    champion: bool = False,
    abilities: Sequence[str] = (),
    extra: str = "",
) -> str:
    quoted = ", ".join(f'"{a}"' for a in abilities)
    return f"""
[[profiles]]
id = "{ident}"
name = "{ident}"
people = "{people}"
rank = "{"elite" if champion else "regular"}"
champion = {"true" if champion else "false"}
ap = {ap}
mov = 10
ini = 3
att = 4
str = 5
def = 4
res = 8
courage = 4
dis = 3
abilities = [{quoted}]
sample = true
{extra}
"""


LIBRARY = "".join(
    [
        _profile("champion-60", 60, champion=True, abilities=["Artifact/2"]),
        _profile("champion-30", 30, champion=True, abilities=["Artifact/1"]),
        _profile("soldier-10", 10),
        _profile("soldier-30", 30),
        _profile("soldier-31", 31),
        _profile("soldier-50", 50),
        _profile("soldier-51", 51),
        _profile("soldier-121", 121),
        _profile("soldier-10-x4", 10, extra="max_per_card = 4"),
        _profile("summoned-130", 130, extra="summoned = true"),
        _profile("griffin-20", 20, people="griffin"),
        _profile(
            "griffin-champion-40", 40, people="griffin", champion=True, abilities=["Artifact/1"]
        ),
        _profile("wolf-10", 10, people="wolf"),
        _profile("aries-champion-60", 60, people="aries", champion=True),
        _profile("scorpion-10", 10, people="scorpion"),
        _profile("hydra-10", 10, people="hydra"),
        _profile("stag-10", 10, people="stag"),
        _profile("elemental-10", 10, people="elemental"),
        _profile("elemental-ok-10", 10, people="elemental", abilities=["Elemental/Fire"]),
        """
[[artifacts]]
id = "art-5"
name = "Art five"
cost = 5

[[artifacts]]
id = "art-6"
name = "Art six"
cost = 6

[[artifacts]]
id = "art-many"
name = "Common charm"
cost = 2
unique = false

[[artifacts]]
id = "equip-3"
name = "Treatment"
cost = 3
kind = "equipment"
unique = false

[[artifacts]]
id = "needs-aim"
name = "Sight"
cost = "aim * 2"

[[artifacts]]
id = "lion-only"
name = "Lion banner"
cost = 4
people = ["lion"]
""",
    ]
)

ArmyWriter = Callable[..., Path]


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """The synthetic library file."""
    path = tmp_path / "lib.toml"
    path.write_text(LIBRARY, encoding="utf-8")
    return path


@pytest.fixture
def write_army(tmp_path: Path, library: Path) -> ArmyWriter:
    """Write an army list using the synthetic library; cards are (profile, count, artifacts)."""

    def write(
        cards: Sequence[tuple[str, int] | tuple[str, int, Sequence[str]]],
        *,
        points: int = 300,
        people: str = "lion",
        name: str = "army.toml",
    ) -> Path:
        lines = [f'name = "Test"\npeople = "{people}"\npoints = {points}\nprofiles = ["lib.toml"]']
        for card in cards:
            artifacts = ", ".join(f'"{a}"' for a in (card[2] if len(card) > 2 else ()))
            lines.append(
                f'[[cards]]\nprofile = "{card[0]}"\ncount = {card[1]}\nartifacts = [{artifacts}]'
            )
        path = tmp_path / name
        path.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
        return path

    return write
