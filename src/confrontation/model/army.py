"""Army lists (I-D): the file model and the army once its cards are resolved to profiles."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from confrontation.model.bounds import out_of_bounds
from confrontation.model.profile import Artifact, FieldProblem, Profile


class CardEntry(BaseModel):
    """One ``[[cards]]`` table: a reference card and the fighters it represents (I-D-5).

    Every fighter of the card carries the card's artifacts and equipment, so the fighters
    of one card are identical by construction (I-D-5; see docs/rulings.md).
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    profile: str = Field(min_length=1)
    count: int = Field(default=1, ge=1)
    artifacts: list[str] = Field(default_factory=list)
    spells: list[str] = Field(default_factory=list)
    miracles: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _bounded(self) -> CardEntry:
        problem = out_of_bounds("army", "count", self.count)  # data/bounds.toml
        if problem is not None:
            raise FieldProblem("count", problem)
        return self


class ArmyFile(BaseModel):
    """An army list file as written by a player."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    people: str = Field(min_length=1)
    points: int = Field(ge=1)
    profiles: list[str] = Field(default_factory=list)
    cards: list[CardEntry] = Field(default_factory=list)

    @model_validator(mode="after")
    def _bounded(self) -> ArmyFile:
        for key, value in (("points", self.points), ("cards", len(self.cards))):
            problem = out_of_bounds("army", key, value)  # data/bounds.toml
            if problem is not None:
                raise FieldProblem(key, problem)
        return self


@dataclass(frozen=True, slots=True)
class Card:
    """A card of a loaded army: its profile, its fighters and their equipment."""

    index: int  # 1-based position of the [[cards]] table in the file
    profile: Profile
    count: int
    equipment: tuple[Artifact, ...]
    line: int  # line of the [[cards]] header
    spells: tuple[str, ...] = ()  # free of charge (I-D-7), carried as data
    miracles: tuple[str, ...] = ()  # free of charge (I-D-7), carried as data


@dataclass(frozen=True, slots=True)
class Army:
    """An army list resolved against its profile libraries."""

    name: str
    people: str
    points: int
    cards: tuple[Card, ...]
    path: Path | None = None

    def is_ally(self, profile: Profile) -> bool:
        """Allies are fighters whose people differs from the army's (I-D-8)."""
        return profile.people != self.people
