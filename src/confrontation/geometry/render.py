"""SVG drawing of a table: zones, scenery, bases with facing, sight and labels, paths."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
    scale: float = 8.0,
    grid: float = 10.0,
    tokens: Iterable[tuple[float, float, int]] = (),
    carried: Mapping[str, int] | None = None,
) -> str:
    """The table as an SVG document: ``scale`` pixels per cm, a ``grid`` cm grid.

    ``sides`` maps a fighter id to its player (0, 1...) for colours. ``tokens`` are stacks of
    tokens on the ground (x, y, how many; XX-D), ``carried`` how many a fighter carries
    (drawn on his base). The y axis points up the table as in the geometry (the SVG is
    flipped).
    """
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
    for s in scenery:
        fill = HEIGHT_COLOURS.get(s.height, "#999")
        dash = "" if s.passable else ' stroke-width="2.5"'
        out.append(_poly(s.footprint, scale, table.height, f'fill="{fill}" stroke="#444"{dash}'))
        c = s.footprint.representative_point()
        out.append(
            f'<text x="{c.x * scale:.1f}" y="{(table.height - c.y) * scale:.1f}" '
            f'font-size="{1.2 * scale:.0f}" text-anchor="middle" fill="#222">'
            f"{escape(s.name)} ({escape(s.height)})</text>"
        )
    for path in paths:
        out.append(
            f'<polyline points="{_pts(path.line(), scale, table.height)}" fill="none" '
            'stroke="#e6a700" stroke-width="2" stroke-dasharray="5 3"/>'
        )
    for tx, ty, count in tokens:
        out.append(_token(tx, ty, count, scale, table.height))
    for fid, b in (fighters or {}).items():
        colour = SIDE_COLOURS[(sides or {}).get(fid, 0) % len(SIDE_COLOURS)]
        opacity = "0.45" if b.level == 1 else "0.9"
        out.append(
            _poly(
                b.polygon,
                scale,
                table.height,
                f'fill="{colour}" fill-opacity="{opacity}" stroke="#111"',
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
            f"{escape(fid)}</text>"
        )
    for fid, count in (carried or {}).items():
        carrier = (fighters or {}).get(fid)
        if carrier is not None and count > 0:
            out.append(_token(carrier.x, carrier.y, count, scale, table.height))
    out.append("</svg>")
    return "\n".join(out)


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
