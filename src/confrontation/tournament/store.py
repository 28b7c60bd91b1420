"""Tournaments kept in the game store (SQLAlchemy): three tables added to the store's own,
created in an older store when a tournament command first opens it.

``tournaments`` holds an event's name, format and seed; ``tournament_players`` its players
with their lists' text as registered; ``tournament_games`` every table of every round, its
result once entered (and the stored game it came from, if any).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Integer, String, Text, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Mapped, Session, mapped_column

from confrontation.store import Store, StoreError
from confrontation.store.schema import Base
from confrontation.tournament.event import Event, Format, Player
from confrontation.tournament.standings import Game, Result


class TournamentRow(Base):
    """One event."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    name: Mapped[str] = mapped_column(String(200))
    points: Mapped[int] = mapped_column(Integer)
    scenarios: Mapped[list[str]] = mapped_column(JSON)
    rules: Mapped[str] = mapped_column(String(50))
    seed: Mapped[int] = mapped_column(BigInteger)
    bye_vp: Mapped[int] = mapped_column(Integer)


class TournamentPlayerRow(Base):
    """A registered player (``seat`` is his index in the event)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    army: Mapped[str] = mapped_column(Text)
    agent: Mapped[str] = mapped_column(String(200))
    army_name: Mapped[str] = mapped_column(String(200))
    source: Mapped[str | None] = mapped_column(Text, nullable=True)


class TournamentGameRow(Base):
    """One table of one round, with its result once entered."""

    __tablename__ = "tournament_games"

    tournament_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    first: Mapped[int] = mapped_column(Integer)
    second: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


TABLES = [
    Base.metadata.tables[row.__tablename__]
    for row in (TournamentRow, TournamentPlayerRow, TournamentGameRow)
]


@dataclass(frozen=True)
class StoredEvent:
    """An event as stored: its id, the event, the army names and its games so far."""

    id: int
    event: Event
    armies: tuple[str, ...]
    games: tuple[Game, ...]

    @property
    def current_round(self) -> int:
        """The last round paired (0 before the first)."""
        return max((g.round for g in self.games), default=0)

    def pending(self, round_: int | None = None) -> list[Game]:
        """The games of ``round_`` (the current one by default) without a result."""
        wanted = self.current_round if round_ is None else round_
        return [g for g in self.games if g.round == wanted and g.result is None]


def _result_data(result: Result) -> dict[str, Any]:
    return {
        "vp": list(result.vp),
        "losses": list(result.losses),
        "bonus": list(result.bonus),
        "tp": list(result.tp),
        "ga": list(result.ga),
        "game": result.game,
    }


def _result_of(data: dict[str, Any] | None) -> Result | None:
    if data is None:
        return None
    try:
        return Result(
            tuple(int(v) for v in data["vp"]),
            tuple(int(v) for v in data["losses"]),
            tuple(int(v) for v in data["bonus"]),
            tuple(int(v) for v in data["tp"]),
            tuple(int(v) for v in data["ga"]),
            None if data.get("game") is None else int(data["game"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise StoreError(f"a tournament result is malformed in the store ({error})") from None


class TournamentStore:
    """The tournaments of one game store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        try:
            Base.metadata.create_all(store.engine, tables=TABLES)
        except SQLAlchemyError as error:
            message = " ".join(str(error).split())
            raise StoreError(
                f"cannot add the tournament tables to {store.url}: {message}"
            ) from None

    def _session(self) -> Session:
        return Session(self.store.engine, expire_on_commit=False)

    def create(self, event: Event, armies: list[tuple[str, str | None]]) -> int:
        """Register ``event`` with each player's army name and list text: its id."""
        form = event.format
        with self._session() as session, session.begin():
            row = TournamentRow(
                created=datetime.now(UTC).replace(tzinfo=None),
                name=event.name,
                points=form.points,
                scenarios=list(form.scenarios),
                rules=form.rules,
                seed=event.seed,
                bye_vp=form.bye_vp,
            )
            session.add(row)
            session.flush()
            ident = row.id
            for seat, (player, (army_name, source)) in enumerate(
                zip(event.players, armies, strict=True)
            ):
                session.add(
                    TournamentPlayerRow(
                        tournament_id=ident,
                        seat=seat,
                        name=player.name,
                        army=player.army,
                        agent=player.agent,
                        army_name=army_name,
                        source=source,
                    )
                )
        return ident

    def load(self, ident: int) -> StoredEvent:
        """The event ``ident`` with its games."""
        with self._session() as session:
            row = session.get(TournamentRow, ident)
            if row is None:
                raise StoreError(f"no tournament {ident} in {self.store.url}")
            players = session.scalars(
                select(TournamentPlayerRow)
                .where(TournamentPlayerRow.tournament_id == ident)
                .order_by(TournamentPlayerRow.seat)
            ).all()
            games = session.scalars(
                select(TournamentGameRow)
                .where(TournamentGameRow.tournament_id == ident)
                .order_by(TournamentGameRow.round, TournamentGameRow.table)
            ).all()
            form = Format(int(row.points), tuple(row.scenarios), row.rules, int(row.bye_vp))
            event = Event(
                row.name,
                form,
                tuple(Player(p.name, p.army, p.agent) for p in players),
                int(row.seed),
            )
            armies = tuple(p.army_name for p in players)
            stored = tuple(
                Game(g.round, g.table, g.first, g.second, _result_of(g.result)) for g in games
            )
        return StoredEvent(ident, event, armies, stored)

    def sources(self, ident: int) -> list[str | None]:
        """Each player's list text as registered."""
        with self._session() as session:
            return list(
                session.scalars(
                    select(TournamentPlayerRow.source)
                    .where(TournamentPlayerRow.tournament_id == ident)
                    .order_by(TournamentPlayerRow.seat)
                ).all()
            )

    def events(self) -> list[tuple[int, str, int]]:
        """Every event: id, name, players."""
        with self._session() as session:
            rows = session.scalars(select(TournamentRow).order_by(TournamentRow.id)).all()
            out = []
            for row in rows:
                count = len(
                    session.scalars(
                        select(TournamentPlayerRow.seat).where(
                            TournamentPlayerRow.tournament_id == row.id
                        )
                    ).all()
                )
                out.append((row.id, row.name, count))
        return out

    def add_round(self, ident: int, games: list[Game]) -> None:
        """Store a new round's tables (byes with their result already)."""
        with self._session() as session, session.begin():
            for game in games:
                session.add(
                    TournamentGameRow(
                        tournament_id=ident,
                        round=game.round,
                        table=game.table,
                        first=game.first,
                        second=game.second,
                        result=None if game.result is None else _result_data(game.result),
                    )
                )

    def set_result(self, ident: int, round_: int, table: int, result: Result) -> None:
        """Enter (or correct) the result of one table."""
        with self._session() as session, session.begin():
            row = session.get(TournamentGameRow, (ident, round_, table))
            if row is None:
                raise StoreError(f"tournament {ident} has no table {table} in round {round_}")
            row.result = _result_data(result)
