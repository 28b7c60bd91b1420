"""A C4 battlefield as SVG: :func:`svg` ``(state) -> str``.

Each fighter is his base (a circle, the player's colour; Incarnates with a gold rim, wounded
fighters with their health left), each unit's leader is marked with a ring and the unit's
name, and the formation is drawn round the unit: a solid outline for close formation, a dashed
one for scattered formation, orange when the unit is engaged. The table's origin is its lower-left
corner (y up), as everywhere in the project.

Unit labels (their cards' names, ``c4.narrate.unit_name``) are placed so that no two overlap
(:func:`place_labels`: above the leader, else below, else stacked further out, with a thin line
back to the leader when moved), nor over a label of the scenario (an area's, a zone's or flag's
name and note, a scenery element's name: each :class:`Label` is moved up or down from its own
place until it is clear of those placed before it, :func:`place_fixed`); every label is a
``<g class="label">``. A legend under the table explains the colours and marks.

A scenario's table (``state.battle``, ``state.scenery``; docs/c4.md "Scenarios") is drawn as
the Confédé SVG draws it (``geometry.render``): the scenery filled by its height (impassable
elements with a thick edge, the scenario's own in gold), chapter-20 areas as dashed,
translucent outlines named at their top, the pack's zones and flags in gold with their name
and a note under it (zone or flag, whose, who controls or dominates it now), a flag with the
dashed circle of its 10 cm reach (:func:`scenario_layer`); the caption gives the VP/CP.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from shapely.geometry import MultiPoint

from confrontation.c4 import battle as scenario
from confrontation.c4.narrate import unit_name
from confrontation.c4.state import C4State, Formation, Zone
from confrontation.geometry.render import HEIGHT_COLOURS, SCENARIO_COLOUR

SCALE = 6.0
"""Pixels per cm."""
COLOURS = ("#2f6db5", "#b53a2f", "#2f9a4a", "#8a4fb5", "#b5862f", "#2fa3a3")
ENGAGED = "#f08c00"
"""The outline of an engaged unit (no player's colour)."""
FONT = 11
"""Font size of the unit labels (px)."""
CHAR_WIDTH = 0.52
"""A label character's width, in font sizes (an estimate: SVG has no text metrics)."""
LEGEND_HEIGHT = 64
"""Pixels under the table for the caption and the legend."""

Box = tuple[float, float, float, float]
"""A label's box: left, top, right, bottom (pixels)."""


def _y(y: float, state: C4State) -> float:
    return (state.height - y) * SCALE


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def text_box(x: float, baseline: float, text: str, size: float) -> Box:
    """The box of ``text`` in ``size`` px centred on ``x`` with its baseline at ``baseline``."""
    half = len(text) * size * CHAR_WIDTH / 2
    return (x - half - 2, baseline - size, x + half + 2, baseline + 3)


def label_box(x: float, baseline: float, text: str) -> Box:
    """The box of a unit's label ``text`` centred on ``x`` with its baseline at ``baseline``."""
    return text_box(x, baseline, text, FONT)


@dataclass(frozen=True)
class Line:
    """A line of a scenario label: its text, font size, colour and other attributes."""

    text: str
    size: float
    colour: str
    extra: str = ""


@dataclass(frozen=True)
class Label:
    """A scenario label: lines centred on ``x``, the first one's baseline at ``baseline``, each
    next line lower by the font size of the line above it (pixels)."""

    x: float
    baseline: float
    lines: tuple[Line, ...]

    def at(self, x: float, baseline: float) -> Label:
        return Label(x, baseline, self.lines)

    @property
    def box(self) -> Box:
        boxes = [text_box(self.x, y, line.text, line.size) for line, y in self._baselines()]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )

    def svg(self) -> str:
        out = ['<g class="label">']
        for line, y in self._baselines():
            out.append(_text(self.x, y, line.text, line.size, line.colour, line.extra))
        return "".join(out) + "</g>"

    def _baselines(self) -> list[tuple[Line, float]]:
        out = []
        y = self.baseline
        for k, line in enumerate(self.lines):
            y += self.lines[k - 1].size if k else 0.0
            out.append((line, y))
        return out


def place_fixed(
    labels: Sequence[Label], width: float, height: float, taken: Sequence[Box] = ()
) -> list[Label]:
    """The scenario's labels, in order, each at its own place if no label placed before it (nor
    a box of ``taken``) is there, else moved sideways onto the table and then down or up one
    line at a time, nearest first (left where it was if nothing is free)."""
    placed: list[Box] = list(taken)
    out: list[Label] = []
    step = FONT + 4
    for label in labels:
        box = label.box
        half = (box[2] - box[0]) / 2 + 1
        x = min(max(label.x, half), max(half, width - half))
        tries = [label.at(x, label.baseline)]
        for k in range(1, 25):
            tries += [
                label.at(x, label.baseline + k * step),
                label.at(x, label.baseline - k * step),
            ]
        on_table = [t for t in tries if t.box[1] >= 0 and t.box[3] <= height] or tries[:1]
        chosen = next(
            (t for t in on_table if not any(_overlap(t.box, p) for p in placed)), on_table[0]
        )
        placed.append(chosen.box)
        out.append(chosen)
    return out


def place_labels(
    anchors: list[tuple[Box, str]], width: float, height: float, taken: Sequence[Box] = ()
) -> list[tuple[float, float]]:
    """Where each label goes (its centre x and baseline), none overlapping another label,
    any unit or a box of ``taken`` (the scenario's labels): anchors are (the unit's box in
    pixels, text); a label tries just above its unit, then just below, then one line further
    out each way in turn, shifted sideways to stay on the table; the first free place wins
    (the last one tried if none is free)."""
    placed: list[Box] = [box for box, _ in anchors] + list(taken)
    spots: list[tuple[float, float]] = []
    line = FONT + 4
    for box, text in anchors:
        half = len(text) * FONT * CHAR_WIDTH / 2
        x = (box[0] + box[2]) / 2
        cx = min(max(x, half + 2), max(half + 2, width - half - 2))
        above, below = box[1] - 5, box[3] + FONT + 3
        tries = [above, below]
        for k in range(1, 25):
            tries += [above - k * line, below + k * line]
        tries = [b for b in tries if FONT + 1 <= b <= height - 4] or [above]
        chosen = tries[-1]
        for baseline in tries:
            if not any(_overlap(label_box(cx, baseline, text), p) for p in placed):
                chosen = baseline
                break
        placed.append(label_box(cx, chosen, text))
        spots.append((cx, chosen))
    return spots


def _owners(state: C4State) -> dict[int, str]:
    """Each player's peoples (from his units' card ids), for the legend."""
    peoples: dict[int, list[str]] = {}
    for unit in state.units:
        people = unit.card.split("-", 2)[1] if unit.card.count("-") >= 2 else ""
        names = peoples.setdefault(unit.owner, [])
        if people and people not in names:
            names.append(people)
    return {p: ", ".join(n) for p, n in peoples.items()}


def legend(state: C4State, top: float) -> list[str]:
    """The legend's SVG elements, from ``top`` (pixels) down: the players' colours, then the
    leader ring, Incarnate rim, close and scattered outlines and an engaged unit."""
    out = []
    x = 6.0
    owners = _owners(state)
    for player in range(state.players):
        colour = COLOURS[player % len(COLOURS)]
        people = owners.get(player, "")
        text = f"Player {player + 1}" + (f" ({people.title()})" if people else "")
        out.append(
            f'<circle class="legend" cx="{x + 6:.0f}" cy="{top + 6:.0f}" r="6" '
            f'fill="{colour}" stroke="#222"/>'
        )
        out.append(
            f'<text x="{x + 16:.0f}" y="{top + 10:.0f}" font-size="12" fill="#111">'
            f"{escape(text)}</text>"
        )
        x += 30 + len(text) * 12 * CHAR_WIDTH
    y = top + 26
    x = 6.0
    marks = [
        (
            f'<circle cx="{{x}}" cy="{y:.0f}" r="5" fill="#999" stroke="#222"/>'
            f'<circle cx="{{x}}" cy="{y:.0f}" r="8" fill="none" stroke="#000" stroke-width="1.5"/>',
            "leader",
        ),
        (
            f'<circle cx="{{x}}" cy="{y:.0f}" r="6" fill="#999" stroke="#d4a017" '
            'stroke-width="2.5"/>',
            "Incarnate",
        ),
        (
            f'<rect x="{{left}}" y="{y - 6:.0f}" width="18" height="12" fill="none" '
            'stroke="#555" stroke-width="1.5"/>',
            "close formation",
        ),
        (
            f'<rect x="{{left}}" y="{y - 6:.0f}" width="18" height="12" fill="none" '
            'stroke="#555" stroke-width="1.5" stroke-dasharray="6 4"/>',
            "scattered formation",
        ),
        (
            f'<rect x="{{left}}" y="{y - 6:.0f}" width="18" height="12" fill="none" '
            f'stroke="{ENGAGED}" stroke-width="2.5"/>',
            "engaged",
        ),
        (
            f'<circle cx="{{x}}" cy="{y:.0f}" r="6" fill="#999" stroke="#222"/>'
            f'<text x="{{x}}" y="{y + 3:.0f}" font-size="9" text-anchor="middle" '
            'fill="#fff">1</text>',
            "health left",
        ),
    ]
    for shape, text in marks:
        out.append(
            '<g class="legend">'
            + shape.format(x=f"{x + 9:.0f}", left=f"{x:.0f}")
            + f'<text x="{x + 24:.0f}" y="{y + 4:.0f}" font-size="12" fill="#111">'
            + f"{escape(text)}</text></g>"
        )
        x += 44 + len(text) * 12 * CHAR_WIDTH
    return out


def _polygon(coords: object, state: C4State, style: str, cls: str) -> str:
    assert isinstance(coords, (list, tuple))
    points = " ".join(f"{x * SCALE:.1f},{_y(y, state):.1f}" for x, y in coords)
    return f'<polygon class="{cls}" points="{points}" {style}/>'


def _text(x: float, y: float, text: str, size: float, colour: str, extra: str = "") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.0f}" text-anchor="middle" '
        f'fill="{colour}"{extra}>{escape(text)}</text>'
    )


def zone_note(state: C4State, zone: Zone) -> str:
    """The note under a pack zone or flag: its kind, whose, who controls or dominates it."""
    notes = [zone.kind]
    if zone.side is not None and zone.kind != "area":  # CP-FLAG: friendly to its side's player
        notes.append(f"Player {zone.side + 1}'s")
    elif len(set(zone.control)) > 1 and zone.kind != "area":
        mine = max(range(len(zone.control)), key=lambda p: zone.control[p])
        notes.append(f"worth more to Player {mine + 1}" if zone.control[mine] else "")
    who, contested = scenario.controller(state, zone)
    if who is not None:
        verb = "dominated" if scenario.dominates(state, who, zone) else "controlled"
        notes.append(f"{verb} by Player {who + 1}")
    elif contested:
        notes.append("contested")
    return " · ".join(n for n in notes if n)


def scenario_layer(state: C4State) -> list[str]:
    """The scenery, the areas, zones and flags of ``state`` as SVG elements (empty without),
    their labels placed apart (:func:`place_fixed`)."""
    shapes, labels = scenario_parts(state)
    placed = place_fixed(labels, state.width * SCALE, state.height * SCALE)
    return shapes + [label.svg() for label in placed]


def scenario_parts(state: C4State) -> tuple[list[str], list[Label]]:
    """The scenario's shapes (SVG elements) and its labels where each would go alone: the
    areas' names, the zones' and flags' names and notes, the scenery's names."""
    out: list[str] = []
    labels: list[Label] = []
    battle = state.battle
    zones = battle.zones if battle is not None else ()
    for z in (z for z in zones if z.kind == "area"):  # chapter-20 / III-A-2 areas (owner's colour)
        colour = "#8a6d1f" if z.side is None else COLOURS[z.side % len(COLOURS)]
        out.append(
            _polygon(
                z.outline,
                state,
                f'fill="{colour}" fill-opacity="0.08" stroke="{colour}" stroke-width="1.5" '
                'stroke-dasharray="8 5"',
                "area",
            )
        )
        xs = [x for x, _ in z.outline]
        top = max(y for _, y in z.outline)
        cx = (min(xs) + max(xs)) / 2 * SCALE
        label = z.name + (" (whole table)" if _whole(state, z) else "")
        line = Line(label, 12, colour, ' fill-opacity="0.8"')
        labels.append(Label(cx, _y(top, state) + 14, (line,)))
    scenery_labels: list[Label] = []
    for piece in state.scenery:
        fill = HEIGHT_COLOURS.get(piece.height, "#999")
        edge = SCENARIO_COLOUR if piece.scenario else "#444"
        width = 3.5 if piece.scenario else (2.5 if not piece.passable else 1)
        out.append(
            _polygon(
                piece.outline,
                state,
                f'fill="{fill}" stroke="{edge}" stroke-width="{width}"',
                "scenery",
            )
        )
        xs = [x for x, _ in piece.outline]
        ys = [y for _, y in piece.outline]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        if not any(z.kind == "flag" and z.name == piece.name for z in zones):
            line = Line(f"{piece.name} ({piece.height})", 9, "#222")
            scenery_labels.append(Label(cx * SCALE, _y(cy, state) + 3, (line,)))
    for z in zones:  # the pack's zones and flags (a flag: its 10 cm reach dashed)
        if z.kind == "area":
            continue
        shape = scenario.shape(z)
        if z.kind == "flag":
            reach = shape.buffer(scenario.FLAG_REACH_CM, quad_segs=16)
            out.append(
                _polygon(
                    list(reach.exterior.coords),
                    state,
                    'fill="none" stroke="#b7950b" stroke-width="1.2" stroke-dasharray="3 3"',
                    "flag-reach",
                )
            )
        out.append(
            _polygon(
                z.outline,
                state,
                'fill="#f7dc6f" fill-opacity="0.55" stroke="#9a7d0a" stroke-width="1.5"',
                z.kind,
            )
        )
        c = shape.centroid
        x, y = c.x * SCALE, _y(c.y, state)
        if z.kind == "flag":
            y -= shape.exterior.distance(c) * SCALE + 6
        name = Line(z.name, 12, "#5d4a00", ' font-weight="bold"')
        note = Line(zone_note(state, z), 10, "#5d4a00")
        labels.append(Label(x, y, (name, note)))
    return out, labels + scenery_labels


def _whole(state: C4State, zone: Zone) -> bool:
    return bool(scenario.shape(zone).area >= 0.8 * state.width * state.height)


def caption_of(state: C4State) -> str:
    """The caption under the table: mode, round, the scenario and its points."""
    text = f"C4, {state.mode} mode, round {state.round} of {state.rounds}"
    battle = state.battle
    if battle is not None:
        unit = "CP" if battle.scoring == "round" else "VP"
        text += f" — {battle.name}: {'-'.join(map(str, battle.points))} {unit}"
    return text


def svg(state: C4State, title: str | None = None) -> str:
    """The battlefield of ``state`` (units, leaders, formations) as an SVG document."""
    w, h = state.width * SCALE, state.height * SCALE
    total = h + LEGEND_HEIGHT
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{total:.0f}" '
        f'viewBox="0 0 {w:.0f} {total:.0f}">',
        f'<rect x="0" y="0" width="{w:.0f}" height="{total:.0f}" fill="#fff"/>',
        f'<rect x="0" y="0" width="{w:.0f}" height="{h:.0f}" fill="#eef0e6" stroke="#555"/>',
    ]
    shapes, scenario_labels = scenario_parts(state)
    fixed = place_fixed(scenario_labels, w, h)
    out += shapes + [label.svg() for label in fixed]
    anchors: list[tuple[Box, str]] = []
    leaders: list[tuple[float, float]] = []
    for unit in state.units:
        fighters = state.members(unit.id)
        if not fighters:
            continue
        colour = COLOURS[unit.owner % len(COLOURS)]
        r = max(f.radius for f in fighters)
        hull = MultiPoint([(f.x, f.y) for f in fighters]).convex_hull.buffer(r + 0.6)
        points = " ".join(f"{x * SCALE:.1f},{_y(y, state):.1f}" for x, y in hull.exterior.coords)
        dash = "" if unit.formation is Formation.CLOSE else ' stroke-dasharray="6 4"'
        edge = ENGAGED if unit.engaged else colour
        out.append(
            f'<polygon class="formation {unit.formation}" points="{points}" fill="{colour}" '
            f'fill-opacity="0.08" stroke="{edge}" stroke-width="{2.5 if unit.engaged else 1.5}"'
            f"{dash}/>"
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
        name = unit_name(unit.id, owner=False)
        label = f"{name} ({unit.formation}{', rout' if unit.rout else ''})"
        left, bottom, right, top = hull.bounds
        box = (left * SCALE, _y(top, state), right * SCALE, _y(bottom, state))
        anchors.append((box, label))
        leaders.append((lx, ly))
    for (box, text), (x, y), (cx, baseline) in zip(
        anchors, leaders, place_labels(anchors, w, h, [f.box for f in fixed]), strict=True
    ):
        if not box[1] - 6 <= baseline <= box[3] + FONT + 4:
            end = baseline - FONT if baseline > y else baseline + 3
            out.append(
                f'<line class="label-line" x1="{x:.1f}" y1="{y:.1f}" x2="{cx:.1f}" '
                f'y2="{end:.1f}" stroke="#555" stroke-width="0.8"/>'
            )
        back = label_box(cx, baseline, text)
        out.append('<g class="label">')
        out.append(
            f'<rect class="label-back" x="{back[0]:.1f}" y="{back[1]:.1f}" '
            f'width="{back[2] - back[0]:.1f}" height="{back[3] - back[1]:.1f}" fill="#fff" '
            f'fill-opacity="0.75" rx="2"/>'
        )
        out.append(
            f'<text class="unit" x="{cx:.1f}" y="{baseline:.1f}" font-size="{FONT}" '
            f'text-anchor="middle" fill="#111">{escape(text)}</text>'
        )
        out.append("</g>")
    caption = title or caption_of(state)
    out.append(f'<text x="4" y="{h + 17:.0f}" font-size="13" fill="#111">{escape(caption)}</text>')
    out.extend(legend(state, h + 26))
    out.append("</svg>")
    return "\n".join(out) + "\n"
