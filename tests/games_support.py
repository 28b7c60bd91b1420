"""Small whole games for the store and simulate tests: two fighters a side on a table,
random agents, a round limit of 2 — played step by step with every event handed to an
``on_event`` callback as it happens (as the game runner does)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from confrontation.agents.random import RandomAgent
from confrontation.armylists.load import bundled_catalog
from confrontation.engine.core.events import Event
from confrontation.engine.core.state import GameState
from confrontation.engine.core.views import redact
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, summarise
from confrontation.engine.step import game_roller, is_over, question, roll, start, step
from confrontation.store import ArmyCopy, GameSetup, Outcome


def initial(seed: int, rounds: int = 2) -> GameState:
    profiles = bundled_catalog().profiles
    reaper, wolfen = summarise(profiles["alahan-reaper"]), summarise(profiles["wolfen-hunter"])
    specs = [SideSpec("Lions", "lion", ((reaper, 2),)), SideSpec("Wolves", "lion", ((wolfen, 2),))]
    return on_battlefield(game_from_specs(specs, rounds=rounds, seed=seed))


def agents(seed: int) -> list[RandomAgent]:
    return [RandomAgent(seed + 100), RandomAgent(seed + 200)]


def setup(seed: int) -> GameSetup:
    return GameSetup(
        "small test",
        seed,
        ("random", "random"),
        (ArmyCopy("Lions", "lions.toml", "name = 'Lions'\n"), ArmyCopy("Wolves")),
        {"rounds": 2},
    )


def play_on(
    state: GameState,
    players: list[RandomAgent],
    on_event: Callable[[Event], None] | None = None,
) -> tuple[GameState, list[Event]]:
    """Play to the end from ``state`` (started or not), one event at a time."""
    log: list[Event] = []

    def emit(events: list[Event]) -> None:
        for event in events:
            log.append(event)
            if on_event is not None:
                on_event(event)

    if state.pending is None and not is_over(state):
        state, started = start(state)
        emit(started)
    dice = game_roller(state)
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, happened = roll(state, dice)
        else:
            view = redact(state, asked.player)
            state, happened = step(state, players[asked.player].choose(view, asked, asked.choices))
        emit(happened)
    return state, log


def play(
    seed: int, on_event: Callable[[Event], None] | None = None
) -> tuple[GameState, list[Event]]:
    """A whole small game."""
    return play_on(initial(seed), agents(seed), on_event)


def outcome(state: GameState) -> Outcome:
    return Outcome(state.winner, state.scores, (0, 0), state.round)


SMALL_ARMIES = {
    "small-lions.toml": 'name = "Small Lions"\npeople = "lion"\npoints = 100\n\n'
    '[[cards]]\nprofile = "alahan-reaper"\ncount = 2\n',
    "small-jackals.toml": 'name = "Small Jackals"\npeople = "jackal"\npoints = 100\n\n'
    '[[cards]]\nprofile = "jackal-warrior"\ncount = 2\n',
}


def small_armies(folder: Path) -> tuple[str, str]:
    """Two army files of two fighters each (a game of 2 rounds takes well under a second)."""
    paths = []
    for name, text in SMALL_ARMIES.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths[0], paths[1]
