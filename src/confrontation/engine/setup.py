"""Game set-up: the initial state from two army lists (III-A, chapter I-D).

Each ``[[cards]]`` entry of an army list becomes one reference card (I-D-5) with its
fighters. The state keeps a :class:`~.state.ProfileSummary` of every profile used so that
the engine needs nothing outside the state. Deployment (III-B) needs the geometry
package and is not done here: fighters start at the placeholder position (0, 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from confrontation.armylists.load import Nation, bundled_nations
from confrontation.engine.state import (
    Card,
    Fighter,
    GameState,
    Phase,
    ProfileSummary,
    Side,
)
from confrontation.model.army import Army
from confrontation.model.profile import Profile

DEFAULT_ROUNDS = 6
"""A game usually lasts 6 rounds (IV)."""


def summarise(profile: Profile) -> ProfileSummary:
    """The part of a reference card the engine reads so far."""
    return ProfileSummary(
        id=profile.id,
        name=profile.name,
        people=profile.people,
        discipline=profile.dis,
        abilities=tuple(profile.abilities),
    )


def new_game(
    armies: Sequence[Army],
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    nations: Mapping[str, Nation] | None = None,
) -> GameState:
    """The state before round 1 for ``armies[0]`` (Player 1) and ``armies[1]`` (Player 2).

    Card ids are ``p<player>-c<n>`` and fighter ids ``p<player>-c<n>-<k>`` (1-based).
    """
    if len(armies) != 2:
        raise ValueError(f"a game needs two armies, not {len(armies)}")
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
            )
        )
    return game_from_specs(specs, rounds=rounds, seed=seed)


@dataclass(frozen=True)
class SideSpec:
    """A side given directly by its cards: ``cards`` pairs a profile with a fighter count.

    For tests, tutorials and scenario authors who need a small game without army files.
    """

    name: str
    people: str
    cards: tuple[tuple[ProfileSummary, int], ...]
    alliance_way: str = ""
    allies: tuple[str, ...] = ()


def game_from_specs(
    specs: Sequence[SideSpec], rounds: int = DEFAULT_ROUNDS, seed: int = 0
) -> GameState:
    """The state before round 1 for two :class:`SideSpec` (ids as in :func:`new_game`).

    A profile whose id is in ``allies`` makes its fighters allies of that side.
    """
    if len(specs) != 2:
        raise ValueError(f"a game needs two sides, not {len(specs)}")
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
            fighters.extend(
                Fighter(id=f, player=player, card=card_id, profile=profile.id, ally=ally)
                for f in ids
            )
    return GameState(
        rounds=rounds,
        seed=seed,
        round=1,
        phase=Phase.STRATEGIC,
        pending=None,
        sides=(sides[0], sides[1]),
        profiles=tuple(profiles.values()),
        cards=tuple(cards),
        fighters=tuple(fighters),
    )
