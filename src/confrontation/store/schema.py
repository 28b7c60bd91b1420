"""The saved-games tables (SQLAlchemy 2.x): ``games`` and ``events``.

A row of ``games`` says how a game was set up (scenario, seed, agents, the armies' names and
their files' contents, the options needed to continue it) and how it ended. What is per
player (agents, armies, VP, losses) is a JSON list, Player 1 first, as long as the game has
players (two to six, XX-F): the two-player games of older stores read as they always did,
with no migration. ``tp`` and ``ga`` (XX-A-4, XX-A-5) came later: a store made before them
gets the two columns added, empty, when it is opened (:data:`ADDED_COLUMNS`). ``events`` holds
its record, one JSON event (:func:`~confrontation.engine.record.event_line`) per row, in order.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    """Declarative base of the saved-games tables."""


class GameRow(Base):
    """One game: its set-up, its status and its result."""

    __tablename__ = "games"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012 (SQLAlchemy reads it)
    """A deleted game's id is never given again (SQLite's AUTOINCREMENT; PostgreSQL's
    sequences never reuse one): ``games show 7`` cannot later show another game."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    updated: Mapped[datetime] = mapped_column(DateTime)
    scenario: Mapped[str] = mapped_column(String(200))
    seed: Mapped[int] = mapped_column(BigInteger)
    agents: Mapped[list[str]] = mapped_column(JSON)
    armies: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """Per player ``{"name", "file", "source"}``: the army file's text as it was played."""
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """What else the game runner needs to continue the game (rounds, agent options...)."""
    status: Mapped[str] = mapped_column(String(20), index=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    vp: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    losses: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tp: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    """Per player, the tournament points (XX-A-4) of a game of victory conditions."""
    ga: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    """Per player, the goal-average (XX-A-5) of a tournament game."""
    events_count: Mapped[int] = mapped_column(Integer, default=0)

    events: Mapped[list[EventRow]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="EventRow.index"
    )


class EventRow(Base):
    """One event of a game's record."""

    __tablename__ = "events"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)

    game: Mapped[GameRow] = relationship(back_populates="events")


ADDED_COLUMNS: tuple[tuple[str, str], ...] = (("tp", "JSON"), ("ga", "JSON"))
"""Columns of ``games`` added since the first stores, with their SQL type: added (nullable)
to an older store when it is opened."""
