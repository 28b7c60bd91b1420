"""The C4 SVG (``c4.picture``): labels that do not overlap, card names, the legend."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from confrontation.c4.picture import (
    ENGAGED,
    Box,
    _overlap,
    label_box,
    place_labels,
    svg,
    text_box,
)
from confrontation.engine.core.frozen import evolve
from confrontation.sim.c4game import C4Config, build

NS = "{http://www.w3.org/2000/svg}"


def _boxes(anchors: list[tuple[Box, str]], width: float, height: float) -> list[Box]:
    spots = place_labels(anchors, width, height)
    return [label_box(x, b, text) for (_, text), (x, b) in zip(anchors, spots, strict=True)]


def test_labels_of_units_on_one_spot_are_stacked_apart() -> None:
    unit: Box = (300.0, 300.0, 360.0, 340.0)
    anchors = [(unit, f"Unit number {k} (scattered)") for k in range(6)]
    boxes = _boxes(anchors, 720.0, 720.0)
    for a, b in itertools.combinations(boxes, 2):
        assert not _overlap(a, b)
    for box in boxes:  # nor over the unit they name
        assert not _overlap(box, unit)


def test_labels_stay_on_the_table() -> None:
    corner: Box = (0.0, 0.0, 30.0, 20.0)
    anchors = [(corner, "A long name for a unit in the corner")] * 3
    for box in _boxes(anchors, 720.0, 720.0):
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= 720 and box[3] <= 720


def _crowded() -> ET.Element:
    """Every unit of the default game moved into one corner of the table, one engaged."""
    state = build(C4Config())
    fighters = tuple(
        evolve(f, x=10 + (i % 4) * 3.0 + (i // 12) * 1.5, y=10 + (i // 4) * 3.0)
        for i, f in enumerate(state.fighters)
    )
    first = state.units[0]
    state = evolve(state, fighters=fighters).with_unit(evolve(first, engaged=(state.units[-1].id,)))
    return ET.fromstring(svg(state))


def test_the_picture_labels_do_not_overlap_and_use_card_names() -> None:
    doc = _crowded()
    backs = [r for r in doc.iter(f"{NS}rect") if r.get("class") == "label-back"]
    boxes = [
        (
            float(r.get("x", 0)),
            float(r.get("y", 0)),
            float(r.get("x", 0)) + float(r.get("width", 0)),
            float(r.get("y", 0)) + float(r.get("height", 0)),
        )
        for r in backs
    ]
    assert len(boxes) == 4
    for a, b in itertools.combinations(boxes, 2):
        assert not _overlap(a, b)
    labels = [t.text or "" for t in doc.iter(f"{NS}text") if t.get("class") == "unit"]
    assert "Conscripts of the Griffin (scattered)" in labels
    assert not any(label.startswith("p1-") for label in labels)
    assert doc.findall(f".//{NS}line[@class='label-line']")  # moved labels point back
    engaged = [p for p in doc.iter(f"{NS}polygon") if p.get("stroke") == ENGAGED]
    assert len(engaged) == 1


def test_the_legend_explains_colours_and_marks() -> None:
    doc = ET.fromstring(svg(build(C4Config())))
    words = " ".join(t.text or "" for t in doc.iter(f"{NS}text"))
    for text in (
        "Player 1 (Griffin)",
        "Player 2 (Lion)",
        "leader",
        "Incarnate",
        "close formation",
        "scattered formation",
        "engaged",
    ):
        assert text in words
    dashed = [
        r for r in doc.iter(f"{NS}rect") if r.get("stroke-dasharray") and r.get("fill") == "none"
    ]
    assert len(dashed) == 1  # the scattered outline's sample


def _c4_scenarios() -> list[str | None]:
    """The default battle and every bundled scenario (and variation) C4 units can play."""
    from confrontation.scenarios.base import bundled_scenarios, resolve
    from confrontation.sim.c4scenario import C4ScenarioError, c4_battle

    names: list[str | None] = [None]
    for sid in bundled_scenarios():
        for name in (sid, *(f"{sid}:{v}" for v in resolve(sid).variations)):
            try:
                c4_battle(name, 0)
            except C4ScenarioError:
                continue
            names.append(name)
    return names


def _group_box(group: ET.Element) -> Box:
    """A label's box worked out from its texts (centred, font size, length), as drawn."""
    boxes = [
        text_box(
            float(t.get("x", 0)), float(t.get("y", 0)), t.text or "", float(t.get("font-size", 0))
        )
        for t in group.iter(f"{NS}text")
    ]
    assert boxes
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


@pytest.mark.parametrize("seed", [0, 2])
def test_no_two_labels_overlap_on_the_scenarios_opening_positions(seed: int) -> None:
    # a flag's or area's name, a scenery element's and a unit's label never cover one another
    checked = 0
    for name in _c4_scenarios():
        state = build(C4Config(scenario=name, seed=seed))
        doc = ET.fromstring(svg(state))
        groups = [g for g in doc.iter(f"{NS}g") if g.get("class") == "label"]
        zones = state.battle.zones if state.battle is not None else ()
        flags = {z.name for z in zones if z.kind == "flag"}
        scenery = [p for p in state.scenery if p.name not in flags]
        assert len(groups) == len(state.units) + len(zones) + len(scenery), name
        boxes = [_group_box(g) for g in groups]
        for (i, a), (j, b) in itertools.combinations(enumerate(boxes), 2):
            assert not _overlap(a, b), (name, seed, groups[i][-1].text, groups[j][-1].text)
        w, h = state.width * 6, state.height * 6
        for box in boxes:  # on the table (coordinates are written to 0.1 px)
            assert box[0] >= -0.05 and box[1] >= -0.05 and box[2] <= w + 0.05 and box[3] <= h + 0.05
        checked += len(boxes)
    assert checked > 40


@pytest.mark.rule("CP-FLAG")
def test_a_flag_is_named_for_the_player_it_is_friendly_to() -> None:
    # Close Quarters: flag-west stands on Player 1's side (his friendly flag, worth 2-3 CP to
    # Player 2 as the enemy flag); its note names Player 1, not the player it is worth more to
    from confrontation.c4.picture import zone_note

    state = build(C4Config(scenario="cp-close-quarters", seed=0))
    assert state.battle is not None
    notes = {zone.name: zone_note(state, zone) for zone in state.battle.zones}
    assert notes["flag-west"].startswith("flag · Player 1's")
    assert notes["flag-east"].startswith("flag · Player 2's")
