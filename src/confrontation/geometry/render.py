"""SVG drawing of a table: zones, scenery, bases with facing, sight and labels, paths."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from html import escape

import shapely
from shapely.geometry.base import BaseGeometry

from confrontation.geometry.bases import Base
from confrontation.geometry.paths import Path
from confrontation.geometry.scenery import Scenery
from confrontation.geometry.table import Table

#: fill colour per scenery height class
HEIGHT_COLOURS = {
    "flat": "#9fc5e8",
    "small": "#d9c8a9",
    "normal": "#b89b72",
    "large": "#6f9a5a",
    "very-large": "#7a6a5a",
    "titan": "#4a4040",
}
SIDE_COLOURS = ("#c0392b", "#2c6fbb", "#8e44ad", "#16a085")
NEUTRAL_COLOUR = "#6b6b47"
"""Neutral fighters (XX-E): no player's colour."""
SCENARIO_COLOUR = "#d4a017"
"""Outline of the scenario's scenery (XX-A-2)."""


@dataclass(frozen=True, eq=False)
class Mark:
    """A scenario's mark on the table (XX-C, XX-B-2): an objective's ``shape``, the ``zone``
    fighters count in around it (None: none drawn), a ``note`` under its name and the
    ``counters`` on it (None: it has none); not ``filled``: an outline only (a capture
    perimeter round a fighter)."""

    name: str
    shape: BaseGeometry
    zone: BaseGeometry | None = None
    note: str = ""
    counters: int | None = None
    filled: bool = True


def _inside(x: float, text: str, size: float, width: float) -> float:
    """A centred label's x moved so that it stays on the table (0.6 em per character)."""
    half = len(text) * 0.3 * size
    return min(max(x, half), max(width - half, half))


def _marks(marks: Iterable[Mark], scale: float, height: float, width: float) -> list[str]:
    out = []
    for m in marks:
        if m.zone is not None:
            out.append(
                _poly(m.zone, scale, height, 'fill="none" stroke="#b7950b" stroke-dasharray="2 3"')
            )
        style = 'fill="#f7dc6f" fill-opacity="0.55" stroke="#9a7d0a" stroke-width="1.5"'
        if not m.filled:
            style = 'fill="none" stroke="#9a7d0a" stroke-width="1.2" stroke-dasharray="4 2"'
        out.append(_poly(m.shape, scale, height, style))
        c = m.shape.representative_point()
        x, y = c.x * scale, (height - c.y) * scale
        if not m.filled:  # an outline round a fighter: its name above it
            y = (height - m.shape.bounds[3]) * scale - 0.3 * scale
        lx = _inside(x, m.name, 1.2 * scale, width * scale)
        out.append(
            f'<text x="{lx:.1f}" y="{y:.1f}" font-size="{1.2 * scale:.0f}" text-anchor="middle" '
            f'fill="#5d4a00" font-weight="bold">{escape(m.name)}</text>'
        )
        if m.note:
            nx = _inside(x, m.note, scale, width * scale)
            out.append(
                f'<text x="{nx:.1f}" y="{y + 1.3 * scale:.1f}" font-size="{1.0 * scale:.0f}" '
                f'text-anchor="middle" fill="#5d4a00">{escape(m.note)}</text>'
            )
        if m.counters is not None:
            cy = y - 2.2 * scale
            out.append(
                f'<circle cx="{x:.1f}" cy="{cy:.1f}" r="{1.2 * scale:.1f}" fill="#c0392b" '
                f'stroke="#111" stroke-width="0.8"/><text x="{x:.1f}" y="{cy + 0.45 * scale:.1f}" '
                f'font-size="{1.3 * scale:.0f}" text-anchor="middle" fill="#fff" '
                f'font-weight="bold">{m.counters}</text>'
            )
    return out


def _pts(geom: BaseGeometry, scale: float, height: float) -> str:
    return " ".join(
        f"{x * scale:.2f},{(height - y) * scale:.2f}" for x, y in shapely.get_coordinates(geom)
    )


def _poly(geom: BaseGeometry, scale: float, height: float, style: str) -> str:
    polys = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
    return "".join(
        f'<polygon points="{_pts(p.exterior, scale, height)}" {style}/>'
        for p in polys
        if p.geom_type == "Polygon"
    )


def svg(
    table: Table,
    fighters: Mapping[str, Base] | None = None,
    scenery: Iterable[Scenery] = (),
    *,
    sides: Mapping[str, int] | None = None,
    paths: Iterable[Path] = (),
    marks: Iterable[Mark] = (),
    scale: float = 8.0,
    grid: float = 10.0,
    commanders: Iterable[str] = (),
    scenario: Mapping[str, str] | None = None,
    neutral: Collection[str] = (),
    passive: Collection[str] = (),
    tokens: Iterable[tuple[float, float, int]] = (),
    carried: Mapping[str, int] | None = None,
    status: Mapping[str, str] | None = None,
    wounds: Mapping[str, int] | None = None,
    groups: bool = False,
    title: str = "",
) -> str:
    """The table as an SVG document: ``scale`` pixels per cm, a ``grid`` cm grid.

    ``sides`` maps a fighter id to its player (0, 1...) for colours; the fighters named in
    ``commanders`` (XX-B-1) get a gold outline and a star before their label. ``scenario``
    maps the name of each element of scenario scenery (XX-A-2) to a note shown with it
    ("objective, 5 SP"); those are drawn with a thick gold outline and a star. ``marks`` are
    the scenario's objectives (with their counters). ``tokens`` are stacks of tokens on the
    ground (x, y, how many; XX-D), ``carried`` how many a fighter carries (drawn on his
    base). ``neutral`` fighters (XX-E) are drawn in their own colour, ``passive`` individuals
    (XX-E-6) pale with a dashed outline in their controller's. ``status`` is a short line of
    markers drawn under a fighter's base ("stunned, charged"), ``wounds`` his wound levels
    (red pips on the base). ``groups`` wraps each fighter's shapes in ``<g class="fighter"
    data-fighter="ID">`` (a browser finds a fighter under the pointer). The y axis points up
    the table as in the geometry (the SVG is flipped). ``title`` is a line written at the
    top of the table (a score: the control points of the 003 pack).
    """
    crowned = set(commanders)
    w, h = table.width * scale, table.height * scale
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
        f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="sans-serif">',
        f'<rect width="{w:.0f}" height="{h:.0f}" fill="#e8e4c9" stroke="#333" stroke-width="2"/>',
    ]
    x = grid
    while x < table.width:
        out.append(
            f'<line x1="{x * scale:.1f}" y1="0" x2="{x * scale:.1f}" y2="{h:.0f}" '
            'stroke="#cfc9a8" stroke-width="0.5"/>'
        )
        x += grid
    y = grid
    while y < table.height:
        out.append(
            f'<line x1="0" y1="{y * scale:.1f}" x2="{w:.0f}" y2="{y * scale:.1f}" '
            'stroke="#cfc9a8" stroke-width="0.5"/>'
        )
        y += grid
    for k, z in enumerate(table.zones):
        colour = SIDE_COLOURS[k % len(SIDE_COLOURS)]
        out.append(
            _poly(
                z.area,
                scale,
                table.height,
                f'fill="{colour}" fill-opacity="0.12" stroke="{colour}" stroke-dasharray="6 4"',
            )
        )
        minx, _, maxx, maxy = z.area.bounds
        zx, zy = (minx + maxx) / 2 * scale, (table.height - maxy + 2.5) * scale
        out.append(
            f'<text x="{zx:.1f}" y="{zy:.1f}" '
            f'font-size="{1.6 * scale:.0f}" fill="{colour}" fill-opacity="0.6" '
            f'text-anchor="middle">{escape(z.name)}</text>'
        )
    notes = scenario or {}
    for s in scenery:
        fill = HEIGHT_COLOURS.get(s.height, "#999")
        dash = "" if s.passable else ' stroke-width="2.5"'
        note = notes.get(s.name)
        if note is not None:  # XX-A-2: scenario scenery, drawn apart from the standard kinds
            dash = ' stroke-width="4" stroke-linejoin="round"'
            style = f'fill="{fill}" stroke="{SCENARIO_COLOUR}"{dash}'
        else:
            style = f'fill="{fill}" stroke="#444"{dash}'
        out.append(_poly(s.footprint, scale, table.height, style))
        c = s.footprint.representative_point()
        label = f"{s.name} ({s.height})"
        weight = ""
        if note is not None:
            label = f"★ {s.name} ({note})" if note else f"★ {s.name}"
            weight = ' font-weight="bold"'
        out.append(
            f'<text x="{c.x * scale:.1f}" y="{(table.height - c.y) * scale:.1f}" '
            f'font-size="{1.2 * scale:.0f}" text-anchor="middle" fill="#222"{weight}>'
            f"{escape(label)}</text>"
        )
    out.extend(_marks(marks, scale, table.height, table.width))
    for path in paths:
        out.append(
            f'<polyline points="{_pts(path.line(), scale, table.height)}" fill="none" '
            'stroke="#e6a700" stroke-width="2" stroke-dasharray="5 3"/>'
        )
    for tx, ty, count in tokens:
        out.append(_token(tx, ty, count, scale, table.height))
    for fid, b in (fighters or {}).items():
        if groups:
            out.append(f'<g class="fighter" data-fighter="{escape(fid)}">')
        colour = SIDE_COLOURS[(sides or {}).get(fid, 0) % len(SIDE_COLOURS)]
        if fid in neutral:
            colour = NEUTRAL_COLOUR
        opacity = "0.45" if b.level == 1 or fid in passive else "0.9"
        outline = 'stroke="#d4a017" stroke-width="3"' if fid in crowned else 'stroke="#111"'
        if fid in passive:
            outline += ' stroke-dasharray="3 2"'
        out.append(
            _poly(
                b.polygon,
                scale,
                table.height,
                f'fill="{colour}" fill-opacity="{opacity}" {outline}',
            )
        )
        sx, sy = b.sight
        out.append(
            f'<line x1="{b.x * scale:.1f}" y1="{(table.height - b.y) * scale:.1f}" '
            f'x2="{sx * scale:.1f}" y2="{(table.height - sy) * scale:.1f}" stroke="#fff" '
            'stroke-width="1.5"/>'
            f'<circle cx="{sx * scale:.1f}" cy="{(table.height - sy) * scale:.1f}" '
            f'r="{0.25 * scale:.1f}" fill="#ffeb3b" stroke="#111" stroke-width="0.5"/>'
        )
        label_y = (table.height - b.y - b.depth / 2 - 0.6) * scale
        out.append(
            f'<text x="{b.x * scale:.1f}" y="{label_y:.1f}"'
            f' font-size="{1.1 * scale:.0f}" text-anchor="middle" fill="#111">'
            f"{'★ ' if fid in crowned else ''}{escape(fid)}"
            f"{' (neutral)' if fid in neutral else ''}{' (passive)' if fid in passive else ''}"
            "</text>"
        )
        out.extend(
            _status(b, (status or {}).get(fid, ""), (wounds or {}).get(fid, 0), scale, table.height)
        )
        if groups:
            out.append("</g>")
    for fid, count in (carried or {}).items():
        carrier = (fighters or {}).get(fid)
        if carrier is not None and count > 0:
            out.append(_token(carrier.x, carrier.y, count, scale, table.height))
    if title:
        out.append(
            f'<text x="{0.5 * scale:.1f}" y="{h - 0.6 * scale:.1f}" font-size="{1.6 * scale:.0f}" '
            f'fill="#222" font-weight="bold">{escape(title)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _status(b: Base, text: str, wounds: int, scale: float, height: float) -> list[str]:
    """A fighter's markers under his base and his wound levels as red pips on it."""
    out = []
    if text:
        y = (height - b.y + b.depth / 2 + 1.2) * scale
        out.append(
            f'<text x="{b.x * scale:.1f}" y="{y:.1f}" font-size="{0.9 * scale:.0f}" '
            f'text-anchor="middle" fill="#7b241c" font-style="italic">{escape(text)}</text>'
        )
    for k in range(min(wounds, 4)):
        cx = (b.x - 0.9 + 0.6 * k) * scale
        cy = (height - b.y + 0.6) * scale
        out.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{0.22 * scale:.1f}" fill="#e74c3c" '
            'stroke="#fff" stroke-width="0.6"/>'
        )
    return out


TOKEN_RADIUS_CM = 0.9
"""The radius of a token as drawn."""


def _token(x: float, y: float, count: int, scale: float, height: float) -> str:
    """A token (a stack of ``count``): a gold disc, the count on it when more than one."""
    cx, cy = x * scale, (height - y) * scale
    out = (
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{TOKEN_RADIUS_CM * scale:.1f}" '
        'fill="#f1c40f" stroke="#5b4500" stroke-width="1.2"/>'
    )
    if count > 1:
        out += (
            f'<text x="{cx:.1f}" y="{cy + 0.4 * scale:.1f}" font-size="{1.1 * scale:.0f}" '
            f'text-anchor="middle" fill="#111">{count}</text>'
        )
    return out
