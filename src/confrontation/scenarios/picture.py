"""The battlefield as a picture (SVG): the table to scale, the scenery, the scenario's areas,
objectives, tokens and control-point elements, the fighters in play with their sides, the
Commanders, neutral fighters and passive individuals (XX-B-1, XX-C, XX-D, XX-E; the 003
pack). ``play --svg``, ``games replay --svg-dir`` and the terminal player's ``map`` draw it."""

from __future__ import annotations

from confrontation.engine.core.state import NEUTRAL, GameState, SceneryPiece
from confrontation.engine.table.field import base_of, has_field, scenery_of
from confrontation.geometry import render
from confrontation.scenarios import commander, control_points, tokens
from confrontation.scenarios.control import drawn_table
from confrontation.scenarios.occupation import marks


def battlefield_svg(state: GameState) -> str:
    """The battlefield of ``state``: scenery, the scenario's areas, the fighters in play."""
    ground = state.battleground
    assert ground is not None
    drawn = drawn_table(state)
    fighters = {f.id: base_of(state, f) for f in state.fighters if f.in_play}
    sides = {f.id: f.player for f in state.fighters}
    drawn_marks = marks(state) + control_points.marks(state)  # XX-C; the 003 pack's elements
    marked = {m.name for m in drawn_marks}  # drawn as marks, not as plain scenery
    scenery = [scenery_of(p) for p in ground.scenery or () if p.name not in marked]
    notes = {
        p.name: scenery_note(p) for p in ground.scenery or () if p.scenario and p.name not in marked
    }
    stacks, carried = tokens.drawn(state)  # XX-D
    chiefs = [f for f in commander.commanders(state) if f in fighters]  # XX-B-1
    return render.svg(
        drawn,
        fighters,
        scenery,
        sides=sides,
        commanders=chiefs,
        scenario=notes,
        marks=drawn_marks,
        title=control_points.title(state),
        tokens=stacks,
        carried=carried,
        neutral={f.id for f in state.fighters if f.player == NEUTRAL},  # XX-E
        passive={f.id for f in state.fighters if f.passive},  # XX-E-6
    )


def scenery_note(piece: SceneryPiece) -> str:
    """What the SVG says of an element of scenario scenery (XX-A-2): an objective or not, its
    structure points left or Inalterable (C3)."""
    parts = ["objective"] if piece.objective else []
    sp = piece.structure_points
    parts.append("Inalterable" if sp is None else f"{sp} SP, RES {piece.resistance}")
    return ", ".join(parts)


def table_svg(state: GameState) -> str | None:
    """:func:`battlefield_svg`, or None for a game with no table yet (before the set-up)."""
    return battlefield_svg(state) if has_field(state) else None
