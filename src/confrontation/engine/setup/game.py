"""Game set-up: the initial state from two army lists (III-A, chapter I-D).

Each ``[[cards]]`` entry of an army list becomes one reference card (I-D-5) with its
fighters. The state keeps a :class:`~.state.ProfileSummary` of every profile used so that
the engine needs nothing outside the state.

:func:`new_game` / :func:`game_from_specs` make a game without a table (the fighters are
nowhere; rounds start at once: what tests of chapter IV need). :func:`on_battlefield` adds
a table (III-A): with ``deploy=True`` the game starts with the set-up and deployment of
III-A-3 and III-B; :func:`place` puts fighters at given spots (rulebook examples).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from confrontation.armylists.load import Nation, bundled_nations
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.state import (
    CONFEDE,
    MAX_PLAYERS,
    Battleground,
    Card,
    Fighter,
    GameState,
    Phase,
    ProfileSummary,
    RulesetId,
    SceneryPiece,
    Side,
)
from confrontation.model.army import Army
from confrontation.model.profile import Profile

DEFAULT_ROUNDS = 6
"""A game usually lasts 6 rounds (IV)."""


def summarise(profile: Profile) -> ProfileSummary:
    """The part of a reference card the engine reads (I-C)."""
    return ProfileSummary(
        id=profile.id,
        name=profile.name,
        people=profile.people,
        discipline=profile.dis,
        abilities=tuple(profile.abilities),
        mov=float(profile.mov),
        ini=profile.ini,
        att=profile.att,
        strength=profile.str_,
        defense=profile.def_,
        res=profile.res,
        aim=profile.aim,
        aim_str=profile.aim_str,
        ranges=tuple(float(r) for r in profile.ranges) if profile.ranges else (),
        size=profile.size,
        size_value=profile.size_value,
        power=profile.size_power,
        base=profile.base or "square",
        target=profile.target_bonus,
        ap=profile.ap,
    )


def new_game(
    armies: Sequence[Army],
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    nations: Mapping[str, Nation] | None = None,
    rules: RulesetId = CONFEDE,
) -> GameState:
    """The state before round 1 for ``armies[0]`` (Player 1), ``armies[1]`` (Player 2) and so
    on — two to six armies (XX-F) — played with the rules named ``rules``
    (``engine.core.ruleset``).

    Card ids are ``p<player>-c<n>`` and fighter ids ``p<player>-c<n>-<k>`` (1-based).
    """
    _check_count(len(armies), "armies")
    nations = nations if nations is not None else bundled_nations()
    specs = []
    for army in armies:
        nation = nations.get(army.people)
        way = nation.way if nation is not None and nation.way != "none" else ""
        specs.append(
            SideSpec(
                name=army.name,
                people=army.people,
                cards=tuple((summarise(card.profile), card.count) for card in army.cards),
                alliance_way=way,
                allies=tuple(c.profile.id for c in army.cards if army.is_ally(c.profile)),
                summoned=tuple(c.profile.id for c in army.cards if c.profile.summoned),
            )
        )
    return game_from_specs(specs, rounds=rounds, seed=seed, rules=rules)


def _check_count(count: int, what: str) -> None:
    """Two players, or three to six (XX-F)."""
    if not 2 <= count <= MAX_PLAYERS:
        raise ValueError(f"a game needs 2 to {MAX_PLAYERS} {what} (XX-F), not {count}")


@dataclass(frozen=True)
class SideSpec:
    """A side given directly by its cards: ``cards`` pairs a profile with a fighter count.

    For tests, tutorials and scenario authors who need a small game without army files.
    A profile whose id is in ``summoned`` makes its fighters summoned ones (XX-B-3).
    """

    name: str
    people: str
    cards: tuple[tuple[ProfileSummary, int], ...]
    alliance_way: str = ""
    allies: tuple[str, ...] = ()
    summoned: tuple[str, ...] = ()


def game_from_specs(
    specs: Sequence[SideSpec],
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    rules: RulesetId = CONFEDE,
) -> GameState:
    """The state before round 1 for two to six :class:`SideSpec` (ids as in :func:`new_game`).

    A profile whose id is in ``allies`` makes its fighters allies of that side.
    """
    _check_count(len(specs), "sides")
    if rounds < 1:
        raise ValueError(f"a game lasts at least one round, not {rounds}")
    profiles: dict[str, ProfileSummary] = {}
    cards: list[Card] = []
    fighters: list[Fighter] = []
    sides: list[Side] = []
    for player, spec in enumerate(specs):
        sides.append(Side(player, spec.name, spec.people, spec.alliance_way))
        for n, (profile, count) in enumerate(spec.cards, start=1):
            profiles.setdefault(profile.id, profile)
            card_id = f"p{player + 1}-c{n}"
            ids = tuple(f"{card_id}-{k}" for k in range(1, count + 1))
            label = profile.name if count == 1 else f"{count} × {profile.name}"
            cards.append(Card(card_id, player, profile.id, ids, label))
            ally = profile.id in spec.allies
            summoned = profile.id in spec.summoned  # XX-B-3
            fighters.extend(
                Fighter(
                    id=f,
                    player=player,
                    card=card_id,
                    profile=profile.id,
                    ally=ally,
                    summoned=summoned,
                )
                for f in ids
            )
    return GameState(
        rounds=rounds,
        seed=seed,
        round=1,
        phase=Phase.STRATEGIC,
        pending=None,
        sides=tuple(sides),
        scores=(0,) * len(sides),
        profiles=tuple(profiles.values()),
        cards=tuple(cards),
        fighters=tuple(fighters),
        rules=rules,
    )


DEFAULT_SCENERY = 6
"""Scenery elements laid at random when none are given (III-A-3: at least 4)."""


def on_battlefield(
    state: GameState,
    table: str | None = None,
    *,
    split: str | None = None,
    scenery: Sequence[SceneryPiece] | None = None,
    scenery_count: int = DEFAULT_SCENERY,
    zones: tuple[int, ...] | None = None,
    deploy: bool = True,
    layouts: Path | None = None,
    fixed: Sequence[SceneryPiece] = (),
    placement: str = "random",
) -> GameState:
    """``state`` (before round 1) on a table of format ``table`` (III-A-1).

    Two players: ``table`` is a format of III-A-1 ("120x60" by default) and ``split`` the line
    of battle ("width" by default). Three players or more (XX-F-1): the table and the
    deployment areas are those of the layout ``split`` (default ``players-N``) of the
    layouts file ``layouts`` (default: the bundled ``data/layouts.toml``); ``table``, if
    given, must be the layout's size; a line of battle is refused (one-line ``ValueError``).
    ``scenery`` None: the set-up lays the scenario's ``fixed`` elements, then
    ``scenery_count`` standard elements at random with the game's dice (``placement``
    "random", III-A-3) or placed by the players in turn ("players", XX-A-2); given, it is the
    whole scenery (``fixed`` first). ``zones`` None: a die decides who chooses his deployment
    area (III-A-3).
    ``deploy``: the game starts with the deployment (III-B); otherwise with round 1 and the
    fighters must be :func:`place`-d.
    """
    players = len(state.sides)
    if players > 2:
        ground = _layout_ground(players, table, split, zones, layouts)
    else:
        ground = _line_ground(table or "120x60", split or "width", zones)
    if placement not in ("random", "players"):
        raise ValueError(f"placement must be 'random' or 'players', not {placement!r}")
    ground = evolve(
        ground,
        scenery=None if scenery is None else (*fixed, *scenery),
        scenery_count=scenery_count if scenery is None else 0,
        fixed=tuple(fixed) if scenery is None else (),
        placement=placement,
    )
    phase = Phase.DEPLOYMENT if deploy else Phase.STRATEGIC
    return evolve(state, battleground=ground, phase=phase, round=0 if deploy else state.round)


def _line_ground(table: str, split: str, zones: tuple[int, ...] | None) -> Battleground:
    """Two players: a table of III-A-1 and its line of battle."""
    from confrontation.geometry.table import FORMATS

    if table not in FORMATS:
        raise ValueError(f"unknown table format {table!r}; use one of {', '.join(FORMATS)}")
    if split not in ("width", "length"):
        raise ValueError(f"split must be 'width' or 'length', not {split!r}")
    width, height = FORMATS[table]
    return Battleground(width=width, height=height, split=split, zones=zones)


def _layout_ground(
    players: int,
    table: str | None,
    split: str | None,
    zones: tuple[int, ...] | None,
    layouts: Path | None,
) -> Battleground:
    """Three players or more (XX-F-1): the table and areas of a deployment layout."""
    from confrontation.engine.table.layouts import find_layout

    layout = find_layout(players, split, layouts)
    if table is not None and table != layout.size:
        raise ValueError(
            f"XX-F-1: layout {layout.name!r} is played on a {layout.size} table, not {table}"
        )
    if zones is not None and sorted(zones) != list(range(players)):
        raise ValueError(
            f"zones must give each of the {players} players one of the areas 0-{players - 1} "
            f"(XX-F-1), not {zones!r}"
        )
    return Battleground(
        width=layout.width,
        height=layout.height,
        split=layout.name,
        zones=zones,
        areas=layout.areas,
        centre=layout.centre,
    )


def place(state: GameState, positions: Mapping[str, tuple[float, float, float]]) -> GameState:
    """Put fighters on the table: ``positions`` maps a fighter id to (x, y, facing) of the
    centre of his base (cm, degrees). Fighters not named keep their place.

    A position with a fighter in contact with more enemies than his size allows is refused
    (:class:`~.contact_limits.ContactLimitError`, a ``ValueError`` naming II-E-3)."""
    from confrontation.engine.table.contact_limits import check_position

    changed = []
    for fighter_id, (x, y, facing) in positions.items():
        fighter = state.fighter(fighter_id)
        changed.append(evolve(fighter, x=float(x), y=float(y), facing=float(facing), on_table=True))
    return check_position(state.with_fighters(*changed))
