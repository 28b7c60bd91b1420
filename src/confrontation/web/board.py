"""The battlefield of a game as the browser draws it: an SVG to scale (``geometry.render``)
with the scenario's areas, objectives and tokens, every fighter's base with his facing,
wound pips and markers, each in a ``<g data-fighter>`` the page can hover."""

from __future__ import annotations

from confrontation.engine.core.state import NEUTRAL, Fighter, GameState
from confrontation.engine.table.field import base_of, scenery_of
from confrontation.geometry import render
from confrontation.geometry.table import Zone
from confrontation.scenarios import area_geometry, commander, control_points, tokens
from confrontation.scenarios.control import scenario_of, table
from confrontation.scenarios.occupation import marks

SCALE = 8.0
"""Pixels per centimetre of the drawing (the page maps clicks back with it)."""


def markers(fighter: Fighter) -> list[str]:
    """A fighter's markers as words (II-D, IV-B, V, VII; XX-E-2 hidden)."""
    named = [
        ("stunned", fighter.stunned),
        ("charged", fighter.charged),
        ("defence", fighter.defence),
        ("routed", fighter.routed),
        ("hidden", fighter.hidden),
        ("activated", fighter.activated),
    ]
    return [word for word, on in named if on] + list(fighter.markers)


def board_svg(state: GameState) -> str:
    """The table of ``state``: scenery, the scenario's areas and objectives, tokens on the
    ground and carried, the fighters in play."""
    board = table(state)
    ground = state.battleground
    if ground is None:
        return ""
    scenario = scenario_of(state)
    zones: tuple[Zone, ...] = board.zones
    if scenario is not None and scenario.areas:
        zones = tuple(
            Zone(a.name, area_geometry(a, board, ground.split, ground.zones))
            for a in scenario.areas
        )
    drawn = type(board)(board.width, board.height, zones)
    playing = [f for f in state.fighters if f.in_play]
    fighters = {f.id: base_of(state, f) for f in playing}
    stacks, carried = tokens.drawn(state)  # XX-D
    notes = {
        p.name: ("objective" if p.objective else "") for p in ground.scenery or () if p.scenario
    }
    return render.svg(
        drawn,
        fighters,
        [scenery_of(p) for p in ground.scenery or ()],
        sides={f.id: f.player for f in state.fighters},
        commanders=[f for f in commander.commanders(state) if f in fighters],  # XX-B-1
        scenario=notes,
        marks=marks(state) + control_points.marks(state),  # XX-C; the 003 pack's elements
        title=control_points.title(state),
        tokens=stacks,
        carried=carried,
        neutral={f.id for f in state.fighters if f.player == NEUTRAL},  # XX-E
        passive={f.id for f in state.fighters if f.passive},  # XX-E-6
        status={f.id: ", ".join(m for m in markers(f) if m != "activated") for f in playing},
        wounds={f.id: f.wounds for f in playing},
        groups=True,
        scale=SCALE,
    )
