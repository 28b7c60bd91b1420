"""The battlefield of a game as the browser draws it: an SVG to scale (``geometry.render``)
with the scenario's areas, objectives and tokens, every fighter's base with his facing,
wound pips and markers, each in a ``<g data-fighter>`` the page can hover."""

from __future__ import annotations

from confrontation.engine.core.state import NEUTRAL, Fighter, GameState
from confrontation.engine.table.field import base_of, scenery_of
from confrontation.geometry import render
from confrontation.scenarios import commander, control_points, tokens
from confrontation.scenarios.control import drawn_table
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
    ground = state.battleground
    if ground is None:
        return ""
    drawn = drawn_table(state)
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


class NoPng(Exception):
    """PNG drawing is not available here (CairoSVG, or the cairo library it loads, missing)."""


def svg_to_png(svg: str) -> bytes:
    """The table drawn as PNG by CairoSVG (which loads the system's cairo library: Debian's
    ``libcairo2``, installed by ``make``); :class:`NoPng` when it cannot be loaded."""
    try:
        import cairosvg
    except (ImportError, OSError) as error:  # cairocffi raises OSError without libcairo
        raise NoPng(f"PNG drawing needs CairoSVG and libcairo2: {error}") from None
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    return png
