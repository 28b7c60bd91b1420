"""Scenery layouts (III-A-3, XX-A-2) and the SVG drawing."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from confrontation.dice import ScriptedRoller, SeededRoller
from confrontation.geometry import Base, Scenery, Table, layout_problems, random_layout
from confrontation.geometry.paths import Path
from confrontation.geometry.render import svg


def _legal() -> list[Scenery]:
    return [
        Scenery.rect("a", 20, 20, 20, 10),
        Scenery.rect("b", 60, 30, 10, 10, 45),
        Scenery.circle("c", 100, 20, 12),
        Scenery.rect("d", 60, 50, 30, 4),
    ]


@pytest.mark.rule("III-A-3", "XX-A-2")
def test_a_legal_layout_has_no_problem() -> None:
    assert layout_problems(Table(), _legal()) == []


@pytest.mark.rule("III-A-3", "XX-A-2")
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda els: els[:3], "at least 4"),
        (lambda els: [*els[:3], Scenery.rect("big", 60, 45, 31, 5)], "exceeds 30"),
        (lambda els: [*els, Scenery.rect("edge", 112, 30, 6, 6)], "table edge"),  # 5 cm
        (lambda els: [*els, Scenery.rect("near", 36, 20, 4, 4)], "apart"),  # 4 cm from a
    ],
)
def test_layout_problems(change: object, message: str) -> None:
    problems = layout_problems(Table(), change(_legal()))  # type: ignore[operator]
    assert any(message in p for p in problems), problems


@pytest.mark.rule("III-A-3")
def test_exactly_6_cm_is_allowed() -> None:
    els = [*_legal(), Scenery.rect("edge", 111, 40, 6, 6)]  # its right side 6 cm from the edge
    assert layout_problems(Table(), els) == []


@pytest.mark.rule("III-A-3", "XX-A-2")
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("fmt", ["120x60", "90x90", "60x60"])
def test_random_layouts_are_legal_and_reproducible(seed: int, fmt: str) -> None:
    table = Table.of(fmt)
    count = 4 if fmt == "60x60" else 6
    one = random_layout(table, SeededRoller(seed), count)
    assert len(one) == count
    assert layout_problems(table, one) == []
    two = random_layout(table, SeededRoller(seed), count)
    assert [e.footprint.wkt for e in one] == [e.footprint.wkt for e in two]


def test_random_layout_from_scripted_dice_or_numpy() -> None:
    faces = [1, 2, 3, 4, 5, 6] * 2
    a = random_layout(Table(), ScriptedRoller(faces), 5)
    b = random_layout(Table(), ScriptedRoller(faces), 5)
    assert [e.name for e in a] == [e.name for e in b]
    c = random_layout(Table(), np.random.default_rng(3), 5)
    assert layout_problems(Table(), c, min_elements=5) == []
    with pytest.raises(ValueError, match="could not place"):
        random_layout(Table.of("60x60"), SeededRoller(1), 40, max_tries=200)


def test_unknown_scenery_height_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown size"):
        Scenery.rect("x", 10, 10, 5, 5, height="huge")


def test_svg_draws_everything() -> None:
    table = Table().with_zones(*Table().line_of_battle())
    fighters = {
        "A": Base.of("normal", "square", 30, 20, 90),
        "B": Base.of("large", "round", 90, 40, 270, level=1),
    }
    text = svg(
        table, fighters, _legal(), sides={"B": 1}, paths=[Path(((30.0, 21.25), (50.0, 40.0)))]
    )
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("width") == "960" and root.get("height") == "480"
    labels = [t.text for t in root.iter(f"{ns}text")]
    assert "A" in labels and "B" in labels and "deployment-1" in labels
    assert any(label and label.startswith("a (normal)") for label in labels)
    polygons = list(root.iter(f"{ns}polygon"))
    assert len(polygons) == 2 + 4 + 2  # zones, scenery, bases
    assert len(list(root.iter(f"{ns}polyline"))) == 1
    sight_dots = list(root.iter(f"{ns}circle"))
    assert len(sight_dots) == 2
    # A's sight (30, 21.25) drawn at 8 px/cm with y flipped
    xs = {(float(c.get("cx", 0)), float(c.get("cy", 0))) for c in sight_dots}
    assert (240.0, 310.0) in xs
