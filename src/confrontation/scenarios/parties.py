"""Neutral fighters, passive individuals and scenery to destroy, as a scenario file gives them
(XX-E, XX-E-6, C3 "Neutral fighters", "Assault and combat with elements of scenery").

A scenario file may say::

    [[neutrals]]               # XX-E: a neutral fighter, by bundled profile id
    profile = "wild-boar"
    x = 60.0                   # cm from the lower-left corner (the two-player table)
    y = 30.0
    facing = 90.0              # optional (0: along +x)

    [passive]                  # XX-E-6: passive individuals, controlled by the defender
    defender = 1               # Player 1 or 2
    [[passive.individuals]]    # one individual each; those of one profile share one card
    profile = "cadwallon-citizen"
    x = 30.0
    y = 30.0

:func:`install` puts them into a game before it starts: each neutral fighter gets his card
``n-c<k>`` (``engine.neutral.add_neutrals``); the passive individuals of one profile get one
card of the defender, after his army's (``p<d>-c<n>``: in his deck, so it counts for the
refusals, XX-E-6), their fighters flagged ``passive``. They are placed on the table by the
set-up after the scenery (XX-A-2, the set-up step ``engine.setup.scenario_fighters``).

The condition (and bonus) kinds of this module (XX-A-4, ``contribute``): ``protect`` (the
defender's passive individuals alive, :func:`protected`), ``hunt`` (the attacker killed them,
:func:`hunted`), ``neutrals-slain`` (the neutral fighters dead), ``destroy`` (an element of
scenery destroyed, :func:`destroyed`) and ``intact`` (it still stands).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from confrontation.engine.combat.scenery_attack import piece_named
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import (
    NEUTRAL,
    Card,
    Fighter,
    GameState,
    Phase,
    ProfileSummary,
)
from confrontation.engine.neutral import NeutralSpec, add_neutrals
from confrontation.engine.table.contact_limits import check_position
from confrontation.geometry.table import FORMATS
from confrontation.scenarios.conditions import BONUS, CONDITION, ConditionKind

__all__ = [
    "NeutralEntry",
    "PassiveEntry",
    "PassiveSpec",
    "destroyed",
    "hunted",
    "install",
    "passive_individuals",
    "protected",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


class NeutralEntry(_Strict):
    """A neutral fighter of the scenario (XX-E): his profile (a bundled id) and his place."""

    profile: str = Field(min_length=1)
    x: float
    y: float
    facing: float = Field(default=0.0, ge=0.0, lt=360.0)
    altitude: Literal[0, 1] = 0


class PassiveEntry(_Strict):
    """A passive individual (XX-E-6): his profile (a bundled id) and his place."""

    profile: str = Field(min_length=1)
    x: float
    y: float
    facing: float = Field(default=0.0, ge=0.0, lt=360.0)


class PassiveSpec(_Strict):
    """XX-E-6: the defender (Player 1 or 2) and his passive individuals."""

    defender: Literal[1, 2]
    individuals: list[PassiveEntry] = Field(min_length=1)


def placed_entries(
    neutrals: Sequence[NeutralEntry], passive: PassiveSpec | None
) -> list[tuple[str, int, str, float, float]]:
    """(file section, index from 0, profile, x, y) of every fighter the file places."""
    out = [("neutrals", n, e.profile, e.x, e.y) for n, e in enumerate(neutrals)]
    if passive is not None:
        out += [
            ("passive.individuals", n, e.profile, e.x, e.y)
            for n, e in enumerate(passive.individuals)
        ]
    return out


def check_placed(
    path: Path,
    text: str,
    neutrals: Sequence[NeutralEntry],
    passive: PassiveSpec | None,
    table: str,
) -> None:
    """Every profile is a bundled one and every place lies on the ``table`` (one-line
    :class:`~confrontation.armylists.load.LoadError` naming the file, line and key)."""
    from confrontation.armylists.load import LoadError, bundled_catalog, find_line

    known = bundled_catalog().profiles
    width, height = FORMATS[table]
    for section, n, profile, x, y in placed_entries(neutrals, passive):
        key = f"{section}[{n + 1}]"
        if profile not in known:
            raise LoadError(
                path,
                f"unknown profile {profile!r} (a bundled profile id)",
                line=find_line(text, [section, n, "profile"]),
                key=f"{key}.profile",
            )
        if not (0.0 <= x <= width and 0.0 <= y <= height):
            raise LoadError(
                path,
                f"({x:g}, {y:g}) is not on the {table} table",
                line=find_line(text, [section, n, "x"]),
                key=f"{key}.x",
            )


def profile_summary(profile_id: str) -> ProfileSummary:
    """A bundled profile as the engine reads it (KeyError: unknown id)."""
    from confrontation.armylists.load import bundled_catalog
    from confrontation.engine.setup.game import summarise

    return summarise(bundled_catalog().profiles[profile_id])


def install(
    state: GameState, neutrals: Sequence[NeutralEntry], passive: PassiveSpec | None
) -> GameState:
    """``state`` (before it starts) with the scenario's neutral fighters and passive
    individuals. A game that begins with its set-up (``Phase.DEPLOYMENT``) places them after
    the scenery (XX-A-2); any other is put on the table at once."""
    waiting = state.phase is Phase.DEPLOYMENT and state.battleground is not None
    if neutrals:
        specs = [
            NeutralSpec(profile_summary(e.profile), e.x, e.y, e.facing, e.altitude)
            for e in neutrals
        ]
        state = add_neutrals(state, specs, on_table=not waiting and state.battleground is not None)
    if passive is not None:
        state = _add_passive(state, passive, on_table=not waiting)
    return state


def _add_passive(state: GameState, spec: PassiveSpec, on_table: bool) -> GameState:
    """XX-E-6: one card per profile in the defender's deck, "quel que soit leur nombre"."""
    defender = spec.defender - 1
    groups: dict[str, list[PassiveEntry]] = {}
    for entry in spec.individuals:
        groups.setdefault(entry.profile, []).append(entry)
    profiles = {p.id: p for p in state.profiles}
    cards: list[Card] = []
    fighters: list[Fighter] = []
    number = len(state.cards_of(defender))
    for profile_id, entries in groups.items():
        summary = profiles.setdefault(profile_id, profile_summary(profile_id))
        number += 1
        card_id = f"p{defender + 1}-c{number}"
        ids = tuple(f"{card_id}-{k}" for k in range(1, len(entries) + 1))
        count = f"{len(entries)} × " if len(entries) > 1 else ""
        cards.append(Card(card_id, defender, profile_id, ids, f"{count}{summary.name} (passive)"))
        fighters += [
            Fighter(
                id=fighter_id,
                player=defender,
                card=card_id,
                profile=profile_id,
                x=float(e.x),
                y=float(e.y),
                facing=float(e.facing),
                on_table=on_table and state.battleground is not None,
                passive=True,
            )
            for fighter_id, e in zip(ids, entries, strict=True)
        ]
    state = dataclasses.replace(
        state,
        profiles=tuple(profiles.values()),
        cards=state.cards + tuple(cards),
        fighters=state.fighters + tuple(fighters),
    )
    return check_position(state)


# --- what scenario conditions read ---------------------------------------------------------------


def passive_individuals(state: GameState) -> tuple[Fighter, ...]:
    """The passive individuals of the game (XX-E-6), dead or alive."""
    return tuple(f for f in state.fighters if f.passive)


def defender_of(state: GameState) -> int | None:
    """The player who controls the passive individuals (XX-E-6), if any."""
    players = {f.player for f in passive_individuals(state)}
    return players.pop() if len(players) == 1 else None


def protected(state: GameState, player: int, at_least: int | None = None) -> bool:
    """XX-E-6 ("des civils à protéger"): ``player`` is the defender and at least ``at_least``
    of his passive individuals are alive (None: all of them)."""
    individuals = passive_individuals(state)
    if not individuals or defender_of(state) != player:
        return False
    alive = sum(f.alive for f in individuals)
    return alive >= (len(individuals) if at_least is None else at_least)


def hunted(state: GameState, player: int, at_least: int | None = None) -> bool:
    """XX-E-6 ("ou à éliminer"): ``player`` is not the defender and at least ``at_least`` of
    the passive individuals are dead (None: all of them)."""
    individuals = passive_individuals(state)
    if not individuals or defender_of(state) in (player, None):
        return False
    dead = sum(not f.alive for f in individuals)
    return dead >= (len(individuals) if at_least is None else at_least)


def destroyed(state: GameState, element: str) -> bool:
    """C3 "Damaging elements of scenery": the element ``element`` was destroyed (its SP fell to
    0: ``SceneryDestroyed``; the battleground keeps its name)."""
    ground = state.battleground
    return ground is not None and element in ground.destroyed


# --- condition kinds (XX-A-4) ------------------------------------------------------------------


class CountParams(BaseModel):
    """``at_least``: how many (none: all of them)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    at_least: int | None = Field(default=None, ge=1)


class ElementParams(BaseModel):
    """``element``: the name of an element of scenery."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    element: str = Field(min_length=1)


def _protect(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    assert isinstance(params, CountParams)
    return protected(state, player, params.at_least)


def _hunt(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    assert isinstance(params, CountParams)
    return hunted(state, player, params.at_least)


def _neutrals_slain(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    assert isinstance(params, CountParams)
    neutral = [f for f in state.fighters if f.player == NEUTRAL]
    dead = sum(not f.alive for f in neutral)
    return bool(neutral) and dead >= (len(neutral) if params.at_least is None else params.at_least)


def _destroy(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    assert isinstance(params, ElementParams)
    return destroyed(state, params.element)


def _intact(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    assert isinstance(params, ElementParams)
    ground = state.battleground
    standing = ground is not None and any(p.name == params.element for p in ground.scenery or ())
    return standing and not destroyed(state, params.element)


GUARD_CM = 3.0
"""How near an element of scenery the computer players stand to attack or guard it: a ring
this wide round it (a base touching it stands inside)."""


def _element_aim(
    state: GameState, item: object, player: int, params: BaseModel
) -> list[BaseGeometry]:
    """Where to stand (agents): round the element while it stands, to attack or guard it."""
    assert isinstance(params, ElementParams)
    piece = piece_named(state, params.element)
    if piece is None or not piece.outline:
        return []
    return [Polygon(piece.outline).buffer(GUARD_CM)]


def _element_wreck(state: GameState, item: object, player: int, params: BaseModel) -> list[str]:
    """What to attack (agents): the element while it stands."""
    assert isinstance(params, ElementParams)
    return [params.element] if piece_named(state, params.element) is not None else []


KINDS = (
    ConditionKind(
        "protect",
        "XX-E-6",
        _protect,
        CountParams,
        "the player is the defender and at least `at_least` of his passive individuals are "
        "alive (none given: all)",
    ),
    ConditionKind(
        "hunt",
        "XX-E-6",
        _hunt,
        CountParams,
        "the player is not the defender and at least `at_least` passive individuals are dead "
        "(none given: all)",
    ),
    ConditionKind(
        "neutrals-slain",
        "XX-E",
        _neutrals_slain,
        CountParams,
        "at least `at_least` of the neutral fighters are dead (none given: all)",
    ),
    ConditionKind(
        "destroy",
        "C3-DAMAGING-ELEMENTS-OF-SCENERY",
        _destroy,
        ElementParams,
        "the element of scenery named `element` has been destroyed",
        aim=_element_aim,
        wreck=_element_wreck,
    ),
    ConditionKind(
        "intact",
        "C3-DAMAGING-ELEMENTS-OF-SCENERY",
        _intact,
        ElementParams,
        "the element of scenery named `element` still stands",
        aim=_element_aim,
    ),
)
"""The condition (and bonus) kinds of this module."""


def contribute(rules: RulesBuilder) -> None:
    """The condition and bonus kinds of neutral fighters, passive individuals and scenery."""
    for kind in KINDS:
        rules.extension(CONDITION, kind.name, kind)
        rules.extension(BONUS, kind.name, kind)
