"""Game set-up: the initial state from two army lists (III-A, chapter I-D).

Each ``[[cards]]`` entry of an army list becomes one reference card (I-D-5) with its
fighters. The state keeps a :class:`~.state.ProfileSummary` of every profile used so that
the engine needs nothing outside the state. Deployment (III-B) needs the geometry
package and is not done here: fighters start at the placeholder position (0, 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
    if rounds < 1:
        raise ValueError(f"a game lasts at least one round, not {rounds}")
    nations = nations if nations is not None else bundled_nations()
    profiles: dict[str, ProfileSummary] = {}
    cards: list[Card] = []
    fighters: list[Fighter] = []
    sides: list[Side] = []
    for player, army in enumerate(armies):
        nation = nations.get(army.people)
        way = nation.way if nation is not None and nation.way != "none" else ""
        sides.append(Side(player=player, name=army.name, people=army.people, alliance_way=way))
        for n, entry in enumerate(army.cards, start=1):
            profiles.setdefault(entry.profile.id, summarise(entry.profile))
            card_id = f"p{player + 1}-c{n}"
            ids = tuple(f"{card_id}-{k}" for k in range(1, entry.count + 1))
            label = (
                entry.profile.name if entry.count == 1 else f"{entry.count} × {entry.profile.name}"
            )
            cards.append(Card(card_id, player, entry.profile.id, ids, label))
            ally = army.is_ally(entry.profile)
            fighters.extend(
                Fighter(id=f, player=player, card=card_id, profile=entry.profile.id, ally=ally)
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
