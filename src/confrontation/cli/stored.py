"""Saving the games `confrontation play` plays, and continuing an interrupted one
(``play --db URL``, ``play --no-store``, ``play --resume ID``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

import typer

from confrontation.agents.human import HumanQuit
from confrontation.armylists.load import LoadError
from confrontation.engine.core.events import Event
from confrontation.engine.core.registry import EngineError
from confrontation.sim.game import GameConfig, GameResult, GameSetupError, initial_state
from confrontation.sim.saved import config_of, outcome_of, setup_of
from confrontation.store import FINISHED, Store, StoreError, open_store

EXIT_USAGE, EXIT_INTERRUPTED, EXIT_ENDED = 2, 130, 1
ENDED = "the input ended before the game did (no answer left for the human player)"


def input_ended(exc: BaseException) -> bool:
    """The game stopped because the human player's input ended (EOF, stdin closed)."""
    return isinstance(exc, HumanQuit) and exc.end_of_input


OnEvent = Callable[[Event], None]
Show = Callable[[GameConfig, OnEvent, Sequence[Event] | None], GameResult]
"""Plays and shows a game: ``show(config, on_event, resume_log)`` (``play``'s own output)."""


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    sys.stderr.write(" ".join(f"error: {message}".split()) + "\n")
    raise typer.Exit(code)


def _open(db: str | None) -> Store:
    try:
        return open_store(db)
    except StoreError as error:
        fail(str(error))


def _note(message: str) -> None:
    sys.stderr.write(message + "\n")


def _run(store: Store, game_id: int, run: Callable[[], GameResult]) -> GameResult:
    """Run a stored game; Ctrl-C or an error leaves it ``interrupted`` and says how to go on."""
    try:
        result = run()
    except KeyboardInterrupt as exc:
        store.interrupt(game_id)
        ended = input_ended(exc)
        fail(
            f"{ENDED if ended else 'interrupted'}: game {game_id} is saved in {store.url}; "
            f"continue it with `confrontation play --resume {game_id}`",
            EXIT_ENDED if ended else EXIT_INTERRUPTED,
        )
    except BaseException:
        store.interrupt(game_id)
        raise
    store.finish(game_id, outcome_of(result))
    return result


def play_saved(config: GameConfig, db: str | None, show: Show) -> GameResult:
    """Play ``config`` with ``show``, saving the game as it is played in ``db``."""
    try:
        initial_state(config)  # a bad army or scenario fails before anything is saved
        setup = setup_of(config)
    except (LoadError, GameSetupError, ValueError) as error:
        fail(str(error))
    store = _open(db)
    game_id = store.begin(setup)
    result = _run(store, game_id, lambda: show(config, store.recorder(game_id), None))
    _note(f"saved as game {game_id} in {store.url} (`confrontation games show {game_id}`)")
    return result


def resume_saved(game_id: int, db: str | None, show: Show) -> GameResult:
    """Continue the saved game ``game_id`` from where its record stops."""
    store = _open(db)
    try:
        game = store.load(game_id)
    except StoreError as error:
        fail(str(error))
    if game.status == FINISHED:
        fail(f"--resume {game_id}: the game is finished (see `confrontation games show {game_id}`)")
    store.resume(game_id)
    with config_of(game.setup) as config:

        def run() -> GameResult:
            try:
                return show(config, store.recorder(game_id), game.events or None)
            except (LoadError, GameSetupError, EngineError) as error:
                fail(f"--resume {game_id}: {error}")

        result = _run(store, game_id, run)
    _note(f"game {game_id} finished and saved in {store.url}")
    return result
