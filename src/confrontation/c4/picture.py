"""A C4 battlefield as SVG: :func:`svg` ``(state) -> str``.

Each fighter is his base (a circle, the player's colour; Incarnates with a gold rim, wounded
fighters with their health left), each unit's leader is marked with a ring and the unit's
name, and the formation is drawn round the unit: a solid outline for close formation, a dashed
one for scattered formation, red when the unit is engaged. The table's origin is its lower-left
corner (y up), as everywhere in the project.
"""

from __future__ import annotations

from html import escape

from shapely.geometry import MultiPoint

from confrontation.c4.state import C4State, Formation

SCALE = 6.0
"""Pixels per cm."""
COLOURS = ("#2f6db5", "#b53a2f", "#2f9a4a", "#8a4fb5", "#b5862f", "#2fa3a3")


def _y(y: float, state: C4State) -> float:
    return (state.height - y) * SCALE


def svg(state: C4State, title: str | None = None) -> str:
    """The battlefield of ``state`` (units, leaders, formations) as an SVG document."""
    w, h = state.width * SCALE, state.height * SCALE
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h + 24:.0f}" '
        f'viewBox="0 0 {w:.0f} {h + 24:.0f}">',
        f'<rect x="0" y="0" width="{w:.0f}" height="{h:.0f}" fill="#eef0e6" stroke="#555"/>',
    ]
    for unit in state.units:
        fighters = state.members(unit.id)
        if not fighters:
            continue
        colour = COLOURS[unit.owner % len(COLOURS)]
        r = max(f.radius for f in fighters)
        hull = MultiPoint([(f.x, f.y) for f in fighters]).convex_hull.buffer(r + 0.6)
        points = " ".join(f"{x * SCALE:.1f},{_y(y, state):.1f}" for x, y in hull.exterior.coords)
        dash = "" if unit.formation is Formation.CLOSE else ' stroke-dasharray="6 4"'
        edge = "#d11" if unit.engaged else colour
        out.append(
            f'<polygon class="formation {unit.formation}" points="{points}" fill="{colour}" '
            f'fill-opacity="0.08" stroke="{edge}" stroke-width="1.5"{dash}/>'
        )
        for f in fighters:
            cx, cy = f.x * SCALE, _y(f.y, state)
            rim = "#d4a017" if f.incarnate else "#222"
            out.append(
                f'<circle class="fighter" data-id="{escape(f.id)}" cx="{cx:.1f}" cy="{cy:.1f}" '
                f'r="{f.radius * SCALE:.1f}" fill="{colour}" stroke="{rim}" '
                f'stroke-width="{2.5 if f.incarnate else 1}"/>'
            )
            if f.health < f.max_health:
                out.append(
                    f'<text x="{cx:.1f}" y="{cy + 3:.1f}" font-size="9" text-anchor="middle" '
                    f'fill="#fff">{f.health}</text>'
                )
        lead = state.fighter(unit.leader)
        lx, ly = lead.x * SCALE, _y(lead.y, state)
        out.append(
            f'<circle class="leader" cx="{lx:.1f}" cy="{ly:.1f}" r="{lead.radius * SCALE + 3:.1f}" '
            f'fill="none" stroke="#000" stroke-width="1.5"/>'
        )
        label = f"{unit.id} ({unit.formation}{', rout' if unit.rout else ''})"
        out.append(
            f'<text class="unit" x="{lx:.1f}" y="{ly - lead.radius * SCALE - 6:.1f}" '
            f'font-size="11" text-anchor="middle" fill="#111">{escape(label)}</text>'
        )
    caption = title or f"C4, {state.mode} mode, round {state.round} of {state.rounds}"
    out.append(f'<text x="4" y="{h + 17:.0f}" font-size="13" fill="#111">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
