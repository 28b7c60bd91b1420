"""Saving the games `confrontation play` plays, and continuing an interrupted one
(``play --db URL``, ``play --no-store``, ``play --resume ID``)."""

from __future__ import annotations

import shlex
import signal
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

EXIT_USAGE, EXIT_INTERRUPTED, EXIT_INPUT_ENDED = 2, 130, 1

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


def resume_hint(game_id: int, db: str | None) -> str:
    """The command that continues game ``game_id``, with the store it was saved in when the
    player named one (``--db``)."""
    where = "" if db is None else f" --db {shlex.quote(db)}"
    return f"confrontation play --resume {game_id}{where}"


def _hang_up(signum: int, frame: object) -> None:
    """A closed terminal (SIGHUP) or a polite kill (SIGTERM) stops the game as Ctrl-C does, so
    the saved game is left ``interrupted``, not ``running``."""
    raise KeyboardInterrupt(signal.Signals(signum).name)


def _run(store: Store, game_id: int, db: str | None, run: Callable[[], GameResult]) -> GameResult:
    """Run a stored game; Ctrl-C, ``q``, a closed terminal or an error leaves it
    ``interrupted`` and says how to go on."""
    previous = {sig: signal.signal(sig, _hang_up) for sig in (signal.SIGHUP, signal.SIGTERM)}
    try:
        result = run()
    except HumanQuit as quit:
        store.interrupt(game_id)
        if not quit.chosen:
            fail(
                f"the input ended before the game did: game {game_id} is saved in {store.url}; continue it with "
                f"`{resume_hint(game_id, db)}`",
                EXIT_INPUT_ENDED,
            )
        _note(
            f"You left the game: game {game_id} is saved in {store.url}; continue it with "
            f"`{resume_hint(game_id, db)}`"
        )
        raise typer.Exit(0) from None
    except KeyboardInterrupt:
        store.interrupt(game_id)
        fail(
            f"interrupted: game {game_id} is saved in {store.url}; continue it with "
            f"`{resume_hint(game_id, db)}`",
            EXIT_INTERRUPTED,
        )
    except BaseException:
        store.interrupt(game_id)
        raise
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
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
    result = _run(store, game_id, db, lambda: show(config, store.recorder(game_id), None))
    where = "" if db is None else f" --db {shlex.quote(db)}"
    _note(f"saved as game {game_id} in {store.url} (`confrontation games show {game_id}{where}`)")
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

        result = _run(store, game_id, db, run)
    _note(f"game {game_id} finished and saved in {store.url}")
    return result
