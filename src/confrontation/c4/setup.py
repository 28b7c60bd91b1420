"""C4 games built from companies (``# C4 Playing a game``): cards → fighters and units.

What to call: :func:`company_game` ``(companies, cards=None, mode=, rounds=, seed=)`` gives a
game ready for ``c4.step.start``: each player's company (``c4.company.Company``, validated
with ``validate_company``: a broken one is a ``ValueError`` listing its one-line errors) is
deployed along his edge of the battlefield, unit beside unit, each laid out in scattered
formation facing the enemy; :func:`bundled_game` ``(names, …)`` does it with the bundled
companies (``c4.company.bundled_companies``). :func:`stats_of` is a card profile's
:class:`~.state.Stats`.

Rulings (docs/rulings.md, "002 — the unit-based ruleset (C4)", integration): the default
battle's deployment, fighter and unit ids, the leader designated at the start.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence

from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

from confrontation.c4.cards import Card, Profile, bundled_cards
from confrontation.c4.company import Company, bundled_companies, validate_company
from confrontation.c4.formation import Formation as TableFormation
from confrontation.c4.formation import Member, lay_out
from confrontation.c4.state import Battle, C4State, Fighter, Stats, Unit, new_game
from confrontation.engine.core.state import SceneryPiece
from confrontation.engine.table.field import scenery_of
from confrontation.geometry.table import Table

DEPLOY_DEPTH_CM = 12.0
"""Ruling: each unit's leader is placed as near this distance from its own edge (at its place
along the edge) as its whole unit, laid out, stays inside the deployment area."""
WIDTH_CM = 120.0
HEIGHT_CM = 120.0
INSIDE_MARGIN_CM = 0.05
"""Ruling: a base deployed stays this far inside its area's bounds (III-A-1's bounds are open,
CLARIFICATIONS §9; the polygon checks approximate the round base)."""
UNIT_GAP_CM = 1.0
"""Ruling: units of a company are deployed at least this far apart (base to base)."""
SEARCH_STEP_CM = 1.0
"""The grid on which another leader point is looked for when the first one has no room."""

Bounds = tuple[float, float, float, float]


def deployment_areas(width: float, height: float, split: str | None) -> tuple[Bounds, Bounds]:
    """Player 1's and Player 2's deployment areas (x0, y0, x1, y1): III-A-1's line of battle
    (more than 15 cm and less than 50 cm from the median line, both bounds open) across the
    scenario's ``split``; the default battle (None) is split along its length, Player 1 on the
    south (y = 0) side. These are the areas ``sim.c4scenario`` scores (chapter 20's
    ``deployment`` areas, ``scenarios.base.area_geometry``) and the C4 SVG draws."""
    table = Table(width, height)
    one, two = table.line_of_battle("width" if split == "width" else "length")
    b1, b2 = one.area.bounds, two.area.bounds
    return (b1[0], b1[1], b1[2], b1[3]), (b2[0], b2[1], b2[2], b2[3])


def wholly_inside(x: float, y: float, radius: float, area: Bounds) -> bool:
    """Is the round base of ``radius`` at (x, y) wholly inside the box ``area``?"""
    x0, y0, x1, y1 = area
    return x - radius >= x0 and x + radius <= x1 and y - radius >= y0 and y + radius <= y1


def profile_key(card: Card, profile: Profile) -> str:
    """A fighter's ``profile``: ``card/profile`` (profiles are unique within a card)."""
    return f"{card.id}/{profile.id}"


def stats_of(card: Card, profile: Profile) -> Stats:
    """The profile's fighting characteristics (``# C4 Cards``)."""
    ranged = profile.ranged
    return Stats(
        profile_key(card, profile),
        ini=profile.ini,
        att_dice=profile.att.dice,
        att=profile.att.value,
        strength=profile.strength,
        defense=profile.defense,
        res=profile.res,
        ranged_dice=ranged.dice if ranged else 0,
        ranged=ranged.value if ranged else 0,
        ranged_strength=ranged.strength if ranged else 0,
        reach=float(ranged.reach_cm) if ranged and ranged.reach_cm is not None else None,
        weapons=tuple((w.name, w.strength) for w in profile.weapons),
        courage=profile.cou,
        fear=profile.fear,
    )


def _fighter(fid: str, uid: str, card: Card, profile: Profile) -> Fighter:
    return Fighter(
        fid,
        uid,
        profile_key(card, profile),
        0.0,
        0.0,
        card.base(profile) / 20.0,
        profile.health,
        profile.health,
        kind=str(profile.kind),
        mov=float(profile.mov),
        authority=profile.aut,
        abilities=tuple(profile.abilities),
        ranged=profile.ranged is not None,
    )


def _inside(placed: Sequence[Member], area: Bounds) -> bool:
    m = INSIDE_MARGIN_CM
    return all(wholly_inside(p.x, p.y, p.radius + m, area) for p in placed)


def _clamped(
    ms: Sequence[Member], leader: str, at: tuple[float, float], facing: float, area: Bounds
) -> tuple[float, float]:
    """The point nearest ``at`` where the unit, laid out as on an empty table, fits ``area``
    (its leader's offsets to the unit's outer edges kept)."""
    shape = lay_out(ms, leader, at, facing, TableFormation.SCATTERED)
    if shape is None:
        return at
    m = INSIDE_MARGIN_CM * 2
    lo_x = min(p.x - p.radius for p in shape) - at[0]
    hi_x = max(p.x + p.radius for p in shape) - at[0]
    lo_y = min(p.y - p.radius for p in shape) - at[1]
    hi_y = max(p.y + p.radius for p in shape) - at[1]
    x0, y0, x1, y1 = area

    def clamp(v: float, lo: float, hi: float) -> float:
        return v if lo > hi else min(max(v, lo), hi)

    return (
        clamp(at[0], x0 - lo_x + m, x1 - hi_x - m),
        clamp(at[1], y0 - lo_y + m, y1 - hi_y - m),
    )


def _candidates(start: tuple[float, float], area: Bounds) -> Iterator[tuple[float, float]]:
    """``start``, then leader points on a grid over ``area``, nearest ``start`` first."""
    yield start
    x0, y0, x1, y1 = area
    nx = int((x1 - x0) / SEARCH_STEP_CM)
    ny = int((y1 - y0) / SEARCH_STEP_CM)
    points = [
        (x0 + (i + 0.5) * SEARCH_STEP_CM, y0 + (j + 0.5) * SEARCH_STEP_CM)
        for i in range(nx)
        for j in range(ny)
    ]
    points.sort(key=lambda p: (math.hypot(p[0] - start[0], p[1] - start[1]), p))
    yield from points


def _deploy(
    fighters: list[Fighter],
    leader: str,
    at: tuple[float, float],
    facing: float,
    area: Bounds,
    obstacles: Sequence[BaseGeometry] = (),
) -> list[Fighter]:
    """The unit in scattered formation (``# Units > Unit formation``), every base wholly inside
    ``area``, clear of ``obstacles``: its leader at the point nearest ``at`` that allows it
    (ruling, "002 — where C4 units deploy")."""
    ms = [Member(f.id, 0.0, 0.0, f.radius, f.standard, f.incarnate) for f in fighters]
    table = box(*area)
    start = _clamped(ms, leader, at, facing, area)
    placed = None
    for point in _candidates(start, area):
        laid = lay_out(
            ms, leader, point, facing, TableFormation.SCATTERED, obstacles=obstacles, table=table
        )
        if laid is not None and _inside(laid, area):
            placed = laid
            break
    if placed is None:
        raise ValueError(f"no room to deploy the unit of {leader} in its deployment area")
    where = {m.id: m for m in placed}
    return [Fighter(**{**f.__dict__, "x": where[f.id].x, "y": where[f.id].y}) for f in fighters]


def company_game(
    companies: Sequence[Company],
    cards: Mapping[str, Card] | None = None,
    *,
    mode: str = "marauder",
    rounds: int = 6,
    seed: int = 0,
    width: float = WIDTH_CM,
    height: float = HEIGHT_CM,
    split: str | None = None,
    battle: Battle | None = None,
    scenery: tuple[SceneryPiece, ...] = (),
) -> C4State:
    """Two companies deployed face to face (player 1 along y = 0, player 2 along y =
    ``height``), their units spread evenly across the width; the leader is the unit's
    Incarnate, else its first standard fighter.

    A scenario's table (``sim.c4scenario``): ``split`` "width" deploys player 1 along x = 0
    and player 2 along x = ``width`` (the scenario's line of battle, III-A-1; "length": along
    y as the default battle), ``scenery`` laid (bases kept off it) and the ``battle`` scored.
    Each player's own edge (where he deploys) is stored in ``C4State.edges``. Every fighter's
    base is wholly inside his player's :func:`deployment_areas`, units kept apart."""
    if len(companies) != 2:
        raise ValueError("a C4 battle here opposes two companies")
    cards = dict(cards) if cards is not None else bundled_cards()
    fighters: list[Fighter] = []
    units: list[Unit] = []
    profiles: dict[str, Stats] = {}
    obstacles = [scenery_of(p).footprint for p in scenery if not scenery_of(p).passable]
    areas = deployment_areas(width, height, split)
    for player, company in enumerate(companies):
        report = validate_company(company, cards)
        if not report.ok:
            raise ValueError(f"{company.name}: " + "; ".join(report.errors))
        across = split == "width"
        depth, length = (width, height) if across else (height, width)
        line = DEPLOY_DEPTH_CM if player == 0 else depth - DEPLOY_DEPTH_CM
        facing = (0.0 if across else 90.0) + (0.0 if player == 0 else 180.0)
        n = len(company.unit)
        for k, entry in enumerate(company.unit):
            card = cards[entry.card]
            uid = f"p{player + 1}-{card.id}"
            if any(u.id == uid for u in units):
                uid = f"{uid}-{k + 1}"
            members: list[Fighter] = []
            for profile_id in entry.specials:
                profile = card.profile(profile_id)
                members.append(_fighter(f"{uid}-{profile_id}", uid, card, profile))
            for i in range(entry.standard):
                members.append(_fighter(f"{uid}-{i + 1}", uid, card, card.standard))
            for f in members:
                p = card.profile(f.profile.split("/", 1)[1])
                profiles.setdefault(f.profile, stats_of(card, p))
            incarnates = [f for f in members if f.incarnate]
            standards = [f for f in members if f.standard]
            leader = (incarnates or standards or members)[0].id
            along = length * (k + 0.5) / n
            at = (line, along) if across else (along, line)
            apart = [Point(f.x, f.y).buffer(f.radius + UNIT_GAP_CM) for f in fighters]
            members = _deploy(members, leader, at, facing, areas[player], [*obstacles, *apart])
            fighters += members
            units.append(
                Unit(
                    uid,
                    player,
                    uid,
                    str(card.category),
                    tuple(f.id for f in members),
                    leader,
                    facing=facing,
                )
            )
    return new_game(
        tuple(fighters),
        tuple(units),
        mode=mode,
        rounds=rounds,
        seed=seed,
        width=width,
        height=height,
        profiles=tuple(profiles[k] for k in sorted(profiles)),
        battle=battle,
        scenery=scenery,
        edges=("w", "e") if split == "width" else ("s", "n"),
    )


def bundled_game(names: Sequence[str], **kw: object) -> C4State:
    """:func:`company_game` with bundled companies by name (``griffin-vanguard`` …)."""
    known = bundled_companies()
    missing = [n for n in names if n not in known]
    if missing:
        raise ValueError(f"no bundled company {missing[0]!r}; one of {', '.join(sorted(known))}")
    return company_game([known[n] for n in names], **kw)  # type: ignore[arg-type]
