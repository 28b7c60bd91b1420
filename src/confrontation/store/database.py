"""The saved-games store: every game played, its set-up, record and result, in SQL.

SQLite by default (a file under the user's data directory, or ``CONFRONTATION_DB``), any
SQLAlchemy URL otherwise. A game is written as it is played: :meth:`Store.begin`, then
:meth:`Store.append` for each event, then :meth:`Store.finish`.

Commits: events are buffered and committed in one transaction at a *step boundary* (just
before the next player answer or die is recorded) once a new round has begun, or
``batch_events`` events or ``batch_seconds`` seconds have gone by since the last commit.
The stored record is therefore always a run of whole steps that
:func:`~confrontation.engine.record.replay` accepts. A crash (power cut, ``kill -9``) loses at
most the steps played since that commit — less than a round and never more than
``batch_seconds`` of play; an interruption the caller sees (Ctrl-C, an exception) is written
with :meth:`Store.interrupt`, which keeps every whole step (only a step cut in the middle of
its events is dropped; resuming plays it again, identically).
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Engine,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    make_url,
    select,
    text,
    update,
)
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from confrontation.engine.core.events import (
    ChoiceMade,
    DieRolled,
    Event,
    GameEnded,
    GameStarted,
    RoundStarted,
)
from confrontation.engine.record import event_line, read_log
from confrontation.store.records import (
    FINISHED,
    INTERRUPTED,
    RUNNING,
    GameSetup,
    GameSummary,
    Outcome,
    StoredGame,
)
from confrontation.store.rows import BadRow, parse_row, raw_columns
from confrontation.store.schema import ADDED_COLUMNS, Base, EventRow, GameRow

ENV_VAR = "CONFRONTATION_DB"
"""A database URL (or a file path for SQLite) that replaces the default store."""

BATCH_EVENTS = 500
BATCH_SECONDS = 2.0


SQLITE_TIMEOUT = 30.0
"""Seconds an SQLite store waits for another program's lock before giving up (one line)."""


class StoreError(Exception):
    """A store problem told in one line: unreadable URL, unknown game, wrong status, a
    database locked or gone."""


F = TypeVar("F", bound=Callable[..., Any])


def _told(method: F) -> F:
    """A store method whose database errors (locked by another program, gone, full) are a
    one-line :class:`StoreError`."""

    @functools.wraps(method)
    def guarded(self: Store, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except SQLAlchemyError as error:
            reason = " ".join(str(getattr(error, "orig", None) or error).split())
            raise StoreError(f"the game store {self.url}: {reason}") from None

    return guarded  # type: ignore[return-value]


def data_dir() -> Path:
    """The user's data directory for the project (XDG: ``$XDG_DATA_HOME/confrontation``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "confrontation"


def as_url(text: str) -> str:
    """A database URL: URLs stay as they are, anything else is a path to an SQLite file."""
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def default_url() -> str:
    """``$CONFRONTATION_DB`` if set, else ``games.db`` in :func:`data_dir`."""
    env = os.environ.get(ENV_VAR)
    if env:
        return as_url(env)
    return as_url(str(data_dir() / "games.db"))


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _is_input(event: Event) -> bool:
    return isinstance(event, ChoiceMade | DieRolled)


@dataclass
class _Buffer:
    """Events of one game not yet committed."""

    next_index: int
    rows: list[tuple[int, str]] = field(default_factory=list)
    last_input: int | None = None
    """Position in ``rows`` of the last input event (the steps before it are whole)."""
    due: bool = False
    since: float = field(default_factory=time.monotonic)


class Store:
    """Saved games in one database (see the module docstring for what is committed when)."""

    def __init__(
        self,
        engine: Engine,
        *,
        batch_events: int = BATCH_EVENTS,
        batch_seconds: float = BATCH_SECONDS,
    ) -> None:
        self.engine = engine
        self.batch_events = batch_events
        self.batch_seconds = batch_seconds
        self._buffers: dict[int, _Buffer] = {}

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    # --- writing a game as it is played ---------------------------------------------------

    @_told
    def begin(self, setup: GameSetup) -> int:
        """A new game, status ``running``: its id. (The game runner's ``GameConfig`` becomes a
        :class:`GameSetup`, its armies' text kept, with ``sim.saved.setup_of``.)"""
        now = _now()
        row = GameRow(
            created=now,
            updated=now,
            scenario=setup.scenario,
            seed=setup.seed,
            agents=list(setup.agents),
            armies=[army.to_data() for army in setup.armies],
            options=dict(setup.options),
            status=RUNNING,
            events_count=0,
        )
        with self._session() as session, session.begin():
            session.add(row)
            session.flush()
            game_id = row.id
        self._buffers[game_id] = _Buffer(0)
        return game_id

    @_told
    def append(self, game_id: int, event: Event) -> None:
        """Record the next event of a running game (committed by step-boundary batches)."""
        buffer = self._buffer(game_id)
        if _is_input(event) and buffer.rows:
            waited = time.monotonic() - buffer.since
            if buffer.due or len(buffer.rows) >= self.batch_events or waited >= self.batch_seconds:
                self._commit(game_id, buffer, len(buffer.rows))
        if _is_input(event):
            buffer.last_input = len(buffer.rows)
        elif isinstance(event, RoundStarted):
            buffer.due = True
        buffer.rows.append((buffer.next_index, event_line(event)))
        buffer.next_index += 1

    def recorder(self, game_id: int) -> Callable[[Event], None]:
        """An ``on_event`` callback that appends to ``game_id``."""

        def record(event: Event) -> None:
            self.append(game_id, event)

        return record

    @_told
    def flush(self, game_id: int) -> None:
        """Commit every whole step buffered (the events before the last input)."""
        buffer = self._buffer(game_id)
        if buffer.last_input is not None:
            self._commit(game_id, buffer, buffer.last_input)

    @_told
    def commit(self, game_id: int) -> None:
        """Commit every event buffered: the caller knows the last step is whole (a game
        waiting for a person's answer, which may take hours, or never come)."""
        buffer = self._buffer(game_id)
        self._commit(game_id, buffer, len(buffer.rows))

    @_told
    def interrupt(self, game_id: int) -> None:
        """The game stopped before its end: keep its whole steps, status ``interrupted``."""
        if game_id in self._buffers:
            self.flush(game_id)
            del self._buffers[game_id]
        self._set_status(game_id, INTERRUPTED)

    @_told
    def finish(self, game_id: int, outcome: Outcome) -> None:
        """The game is over: commit the rest of its record and its result (the game runner's
        ``GameResult`` becomes an :class:`Outcome` with ``sim.saved.outcome_of``)."""
        buffer = self._buffers.pop(game_id, None)
        rows = buffer.rows if buffer is not None else []
        with self._session() as session, session.begin():
            self._write(session, game_id, rows)
            session.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(status=FINISHED, updated=_now(), **_outcome_values(outcome))
            )

    @_told
    def save(self, setup: GameSetup, outcome: Outcome, events: Sequence[Event]) -> int:
        """A whole finished game in one transaction (``simulate``): its id."""
        now = _now()
        with self._session() as session, session.begin():
            row = GameRow(
                created=now,
                updated=now,
                scenario=setup.scenario,
                seed=setup.seed,
                agents=list(setup.agents),
                armies=[army.to_data() for army in setup.armies],
                options=dict(setup.options),
                status=FINISHED,
                events_count=0,
                **_outcome_values(outcome),
            )
            session.add(row)
            session.flush()
            game_id = row.id
            self._write(session, game_id, [(i, event_line(e)) for i, e in enumerate(events)])
        return game_id

    @_told
    def resume(self, game_id: int) -> StoredGame:
        """Take up an unfinished game again: its record so far; new events go after it."""
        game = self.load(game_id)
        if game.status == FINISHED:
            raise StoreError(f"game {game_id} is finished: there is nothing to resume")
        self._set_status(game_id, RUNNING)
        self._buffers[game_id] = _Buffer(len(game.events))
        return game

    @_told
    def delete(self, game_id: int) -> None:
        """Forget a game: its row and its whole record (what is buffered of it too)."""
        self._buffers.pop(game_id, None)
        with self._session() as session, session.begin():
            session.execute(delete(EventRow).where(EventRow.game_id == game_id))
            done = session.execute(delete(GameRow).where(GameRow.id == game_id))
            if getattr(done, "rowcount", 1) == 0:
                raise StoreError(f"no game {game_id} in {self.url}")

    def set_option(self, game_id: int, key: str, value: Any) -> None:
        """Keep ``value`` under ``key`` in the game's stored options (e.g. a web seat's
        switches, which outlive the server)."""
        with self._session() as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"no game {game_id} in {self.url}")
            row.options = {**row.options, key: value}  # a new dict: the JSON column sees it

    # --- reading ----------------------------------------------------------------------

    @_told
    def load(self, game_id: int) -> StoredGame:
        """A saved game with its whole record, checked against its row: a malformed row, a
        record cut short or a result edited by hand is a one-line :class:`StoreError`."""
        if not 0 < game_id < 2**63:  # beyond SQL's integers: no such game
            raise StoreError(f"no game {game_id} in {self.url}")
        with self._session() as session:
            row = (
                session.execute(select(*raw_columns()).where(GameRow.id == game_id))
                .mappings()
                .first()
            )
            if row is None:
                raise StoreError(f"no game {game_id} in {self.url}")
            try:
                summary, setup = parse_row(row)
            except BadRow as error:
                raise StoreError(f"game {game_id}: its stored row is malformed: {error}") from None
            lines = session.scalars(
                select(EventRow.data).where(EventRow.game_id == game_id).order_by(EventRow.index)
            ).all()
        try:
            events = read_log(lines)
        except ValueError as error:
            raise StoreError(f"game {game_id}: {error}") from None
        problem = record_problem(summary, len(lines), events)
        if problem is not None:
            raise StoreError(f"game {game_id}: {problem}")
        return StoredGame(summary, setup, events)

    @_told
    def list_checked(
        self, status: str | None = None, limit: int | None = None
    ) -> tuple[list[GameSummary], list[str]]:
        """Saved games, the newest first, and one line for each malformed row (left out)."""
        query = select(*raw_columns()).order_by(GameRow.id.desc())
        if status is not None:
            query = query.where(GameRow.status == status)
        if limit is not None:
            query = query.limit(limit)
        games: list[GameSummary] = []
        bad: list[str] = []
        with self._session() as session:
            for row in session.execute(query).mappings():
                try:
                    games.append(parse_row(row)[0])
                except BadRow as error:
                    bad.append(f"game {row['id']}: its stored row is malformed: {error}")
        return games, bad

    def list(self, status: str | None = None, limit: int | None = None) -> list[GameSummary]:
        """Saved games, the newest first (malformed rows left out: :meth:`list_checked`)."""
        return self.list_checked(status, limit)[0]

    @_told
    def count(self) -> int:
        """How many games are saved."""
        with self._session() as session:
            return int(session.scalar(select(func.count()).select_from(GameRow)) or 0)

    def close(self) -> None:
        """Commit what can be committed and release the connections."""
        for game_id in list(self._buffers):
            self.flush(game_id)
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals ------------------------------------------------------------------------

    def _session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def _buffer(self, game_id: int) -> _Buffer:
        buffer = self._buffers.get(game_id)
        if buffer is None:
            raise StoreError(f"game {game_id} is not being recorded here (begin or resume it)")
        return buffer

    def _commit(self, game_id: int, buffer: _Buffer, upto: int) -> None:
        rows, buffer.rows = buffer.rows[:upto], buffer.rows[upto:]
        if buffer.last_input is not None:
            buffer.last_input -= upto
            if buffer.last_input < 0:
                buffer.last_input = None
        buffer.due = False
        buffer.since = time.monotonic()
        if not rows:
            return
        with self._session() as session, session.begin():
            self._write(session, game_id, rows)

    @staticmethod
    def _write(session: Session, game_id: int, rows: Iterable[tuple[int, str]]) -> None:
        batch = [{"game_id": game_id, "index": i, "data": line} for i, line in rows]
        if batch:
            session.execute(insert(EventRow), batch)
        session.execute(
            update(GameRow)
            .where(GameRow.id == game_id)
            .values(events_count=GameRow.events_count + len(batch), updated=_now())
        )

    def _set_status(self, game_id: int, status: str) -> None:
        with self._session() as session, session.begin():
            done = session.execute(
                update(GameRow).where(GameRow.id == game_id).values(status=status, updated=_now())
            )
            if getattr(done, "rowcount", 1) == 0:
                raise StoreError(f"no game {game_id} in {self.url}")


def _outcome_values(outcome: Outcome) -> dict[str, Any]:
    return {
        "winner": outcome.winner,
        "vp": list(outcome.vp),
        "losses": list(outcome.losses),
        "rounds": outcome.rounds,
        "tp": None if outcome.tp is None else list(outcome.tp),
        "ga": None if outcome.ga is None else list(outcome.ga),
    }


def record_problem(summary: GameSummary, rows: int, events: Sequence[Event]) -> str | None:
    """What in a game's row disagrees with its record (one phrase), or None: the number of
    events, the seed, the status (a finished game's record ends with ``GameEnded``, an
    unfinished one's does not) and the result (winner and VP as ``GameEnded`` tells them).
    The losses and rounds need the game replayed: ``store.replays.outcome_problem``. A C4 game's
    record (``play --rules c4``) begins with ``C4GameStarted`` and ends with ``C4GameEnded``."""
    from confrontation.c4.events import C4GameEnded, C4GameStarted

    starts, ends = (GameStarted, C4GameStarted), (GameEnded, C4GameEnded)
    if rows != summary.events:
        return f"the record holds {rows} events but the row says {summary.events} (edited or cut)"
    if events:
        first = events[0]
        if not isinstance(first, starts):
            return "the record does not begin with the game's start"
        if first.state.seed != summary.seed:
            return f"the row's seed {summary.seed} is not the record's {first.state.seed}"
    ended = next((e for e in reversed(events) if isinstance(e, ends)), None)
    if summary.status != FINISHED:
        if ended is not None:
            return f"the row says {summary.status} but the record has the game's end"
        return None
    if not events or not isinstance(events[-1], ends) or ended is None:
        return "the row says finished but the record stops before the game's end (cut short)"
    outcome = summary.outcome
    if outcome is None:
        return "the row says finished but holds no result"
    if outcome.winner != ended.winner or outcome.vp != tuple(ended.scores):
        stored = "-".join(map(str, outcome.vp))
        recorded = "-".join(map(str, ended.scores))
        return (
            f"the row's result (winner {outcome.winner}, VP {stored}) is not the record's "
            f"(winner {ended.winner}, VP {recorded})"
        )
    return None


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _add_columns(engine: Engine) -> None:
    """An older store gets the columns added since it was made (:data:`ADDED_COLUMNS`)."""
    present = {c["name"] for c in inspect(engine).get_columns(GameRow.__tablename__)}
    missing = [(name, kind) for name, kind in ADDED_COLUMNS if name not in present]
    if not missing:
        return
    with engine.begin() as connection:
        table = GameRow.__tablename__
        for name, kind in missing:
            connection.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind}"))


def _hidden(target: str) -> str:
    """``target`` with its password hidden (as :attr:`Store.url`)."""
    try:
        return make_url(target).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return target


def open_store(url: str | None = None, **options: Any) -> Store:
    """The store at ``url`` (a SQLAlchemy URL or an SQLite file path; default
    :func:`default_url`), its tables created if needed."""
    target = as_url(url) if url else default_url()
    try:
        if target.startswith("sqlite"):
            path = target.split(":///", 1)[1] if ":///" in target else ""
            memory = path in ("", ":memory:")
            if not memory:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(
                target,
                connect_args={"timeout": SQLITE_TIMEOUT, "check_same_thread": False},
                poolclass=StaticPool if memory else None,
            )
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(target)
        Base.metadata.create_all(engine)
        _add_columns(engine)
    except (ArgumentError, NoSuchModuleError, ValueError) as error:
        raise StoreError(f"{target!r} is not a usable database URL: {error}") from None
    except ImportError as error:  # the URL's driver (MySQLdb, asyncpg...) is not installed
        raise StoreError(
            f"cannot open the game store {_hidden(target)}: its driver is not installed "
            f"({error.name or error})"
        ) from None
    except (SQLAlchemyError, OSError) as error:
        message = " ".join(str(error).split())
        raise StoreError(f"cannot open the game store {target}: {message}") from None
    return Store(engine, **options)
