"""Games played into the store: every game is saved as it is played, and an interrupted one
is continued from its record.

:func:`setup_of` keeps what a game needs to be continued later — the configuration and the
text of every army file, so that a game still resumes and replays after the files change —
and :func:`config_of` turns it back into a :class:`~confrontation.sim.game.GameConfig`.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from confrontation.armylists.load import LoadError
from confrontation.data import safe_toml
from confrontation.engine.core.events import Event
from confrontation.scenarios.base import resolve
from confrontation.sim.game import (
    DEFAULT_RULES,
    GameConfig,
    GameResult,
    GameSetupError,
    army_path,
    load_armies,
    play_game,
)
from confrontation.store import ArmyCopy, GameSetup, Outcome, Store, StoreError

OnEvent = Callable[[Event], None]


def _read(name: str) -> tuple[str | None, str | None]:
    """(file, text) of an army given by bundled id or path; (None, None) if unreadable."""
    try:
        path = army_path(name)
        return str(path), safe_toml.read_bytes(path).decode("utf-8")
    except (LoadError, safe_toml.TomlFileError, UnicodeDecodeError):
        return None, None


def scenario_label(name: str) -> str:
    """How the games list names a game's scenario: a bundled id as it is; a scenario file by
    the name inside it and the file's name (an uploaded file's temporary path says nothing).
    The setup's options keep the path itself, which a resumed game reads."""
    if not (name.split(":")[0].endswith(".toml") or "/" in name):
        return name
    try:
        loaded = resolve(name).name
    except (LoadError, OSError, ValueError):
        return name
    return f"{loaded} ({Path(name.split(':')[0]).name})"


def setup_of(config: GameConfig) -> GameSetup:
    """What the store keeps of ``config`` (armies by name, with their files' text)."""
    armies = load_armies(config.armies)
    copies = []
    for army, name in zip(armies, config.armies, strict=True):
        file, source = _read(name)
        copies.append(ArmyCopy(army.name, file, source))
    options: dict[str, Any] = {
        "scenario": config.scenario,
        "armies": list(config.armies),
        "agents": list(config.agents),
        "seed": config.seed,
        "rounds": config.rounds,
        "agent_options": [dict(o) for o in config.agent_options],
        "rules": config.rules,
    }
    return GameSetup(
        scenario=scenario_label(config.scenario),
        seed=config.seed,
        agents=tuple(config.agents),
        armies=tuple(copies),
        options=options,
    )


def outcome_of(result: GameResult) -> Outcome:
    """The store's summary of a result (every player, Player 1 first)."""
    players = result.players
    tp = tuple(p.tp for p in players if p.tp is not None)
    return Outcome(
        result.winner,
        tuple(p.vp for p in players),
        tuple(p.losses_ap for p in players),
        result.rounds,
        tp=tp if len(tp) == len(players) else None,  # XX-A-4: victory conditions only
        ga=tuple(p.goal_average for p in players) if result.tournament else None,
    )


@contextmanager
def config_of(setup: GameSetup) -> Iterator[GameConfig]:
    """The configuration of a stored game, for as long as the ``with`` block lasts.

    An army file that is gone or changed since is replaced by the text kept in the store
    (written to a temporary file), so the game is set up exactly as it was.
    """
    options = dict(setup.options)
    names = [str(n) for n in options.get("armies", [a.file or a.name for a in setup.armies])]
    agent_options = options.get("agent_options") or [{} for _ in setup.agents]
    with tempfile.TemporaryDirectory(prefix="confrontation-armies-") as scratch:
        for player, copy in enumerate(setup.armies):
            if copy.source is None:
                continue
            _, now = _read(names[player])
            if now != copy.source:
                kept = Path(scratch) / f"player{player + 1}-{Path(copy.file or 'army').name}"
                if kept.suffix != ".toml":
                    kept = kept.with_suffix(".toml")
                kept.write_text(copy.source, encoding="utf-8")
                names[player] = str(kept)
        scenario = str(options.get("scenario", setup.scenario))
        source = options.get("scenario_source")  # an uploaded scenario's text (the web)
        file, _, variation = scenario.partition(":")
        if isinstance(source, str) and file.endswith(".toml") and not Path(file).is_file():
            kept = Path(scratch) / f"scenario-{Path(file).name}"
            kept.write_text(source, encoding="utf-8")
            scenario = str(kept) + (f":{variation}" if variation else "")
        yield GameConfig(
            scenario=scenario,
            armies=tuple(names),
            agents=tuple(setup.agents),
            seed=int(options.get("seed", setup.seed)),
            rounds=options.get("rounds"),
            agent_options=tuple(dict(o) for o in agent_options),
            rules=str(options.get("rules", DEFAULT_RULES)),
        )


def _both(first: OnEvent, second: OnEvent | None) -> OnEvent:
    if second is None:
        return first

    def both(event: Event) -> None:
        first(event)
        second(event)

    return both


def play_stored(
    config: GameConfig, store: Store, *, on_event: OnEvent | None = None
) -> tuple[int, GameResult]:
    """Play ``config``'s game, saving it as it goes: (its id in ``store``, the result).

    Ctrl-C or an error mid-game leaves the record ``interrupted`` (then re-raised).
    """
    game_id = store.begin(setup_of(config))
    try:
        result = play_game(config, on_event=_both(store.recorder(game_id), on_event))
    except BaseException:
        store.interrupt(game_id)
        raise
    store.finish(game_id, outcome_of(result))
    return game_id, result


def resume_stored(
    game_id: int, store: Store, *, on_event: OnEvent | None = None
) -> tuple[GameConfig, GameResult]:
    """Continue the unfinished game ``game_id`` of ``store`` to its end (saving it)."""
    game = store.resume(game_id)
    try:
        with config_of(game.setup) as config:
            result = play_game(
                config,
                on_event=_both(store.recorder(game_id), on_event),
                resume_log=game.events or None,
            )
    except GameSetupError as error:
        store.interrupt(game_id)
        raise StoreError(f"game {game_id} cannot be resumed: {error}") from None
    except BaseException:
        store.interrupt(game_id)
        raise
    store.finish(game_id, outcome_of(result))
    return config, result


def save_result(store: Store, config: GameConfig, result: GameResult) -> int:
    """Save a game played elsewhere (a simulation's worker) in one transaction."""
    return store.save(setup_of(config), outcome_of(result), result.events)
