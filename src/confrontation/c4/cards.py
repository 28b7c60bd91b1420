"""Unit cards of the unit-based ruleset (``002_…``, "C4"): pydantic models and their loader.

What to call:

* :func:`load_cards` ``(path) -> dict[str, Card]`` (a TOML file or a folder of them; a problem
  is a one-line :class:`confrontation.armylists.load.LoadError` ``file:line: key: message``);
  :func:`bundled_cards` ``()`` the cards of ``data/c4/cards/`` (four peoples, ``sample``).
* A :class:`Card` is a unit type (# C4 Units > Type of troop): ``category``, ``rank``, its
  ``standard`` fighter :class:`Profile`, the ``specials`` it may add (Incarnates, mystics,
  standard bearers, musicians, specialists), the number of standard fighters a unit holds
  (``min_fighters``..``max_fighters``) and the costs in army points.
* :meth:`Card.profile` ``(profile_id)``; :attr:`Profile.health` (Health or Structure),
  :attr:`Profile.is_incarnate`, :meth:`Profile.weapon_strength` ``(weapon=None)``.

Field by field: docs/c4-data.md.

Sections (docs/rules-index.toml): C4-CARDS, C4-CATEGORY-OF-TROOPS, C4-TYPE-OF-TROOP,
C4-SPECIAL-FIGHTERS-AND-STANDARD-FIGHTERS.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from confrontation.armylists.load import LoadError, parse_model, read_toml
from confrontation.data import data_path

ID_PATTERN = r"^[a-z0-9][a-z0-9-]{0,63}$"


class Category(StrEnum):
    """# C4 Units > Category of troops."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    CREATURE = "creature"
    WAR_MACHINE = "war_machine"
    TITAN = "titan"


RANKED = frozenset({Category.INFANTRY, Category.CAVALRY, Category.CREATURE})
"""# C4 Units > Category of troops: "infantry, cavalry and creatures" have Ranks 1-3."""


class Kind(StrEnum):
    """# C4 Units > Special fighters and standard fighters."""

    STANDARD = "standard"
    INCARNATE = "incarnate"
    MYSTIC = "mystic"
    STANDARD_BEARER = "standard_bearer"
    MUSICIAN = "musician"
    SPECIALIST = "specialist"


CategoryName = Literal["infantry", "cavalry", "creature", "war_machine", "titan"]
KindName = Literal["standard", "incarnate", "mystic", "standard_bearer", "musician", "specialist"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Attack(_Strict):
    """Melee attack (ATT): ``dice`` rolled by each fighter and the ``value`` of the test."""

    dice: int = Field(ge=1, le=10)
    value: int = Field(ge=0, le=20)


class RangedWeapon(_Strict):
    """# C4 Unit Ranged Attack: dice per marksman, Ranged attack value, Strength; ``reach_cm``
    (optional) the furthest distance it shoots (default: the whole tape)."""

    name: str = Field(min_length=1, max_length=60)
    dice: int = Field(ge=1, le=10)
    value: int = Field(ge=0, le=20)
    strength: int = Field(ge=0, le=30)
    reach_cm: float | int | None = Field(default=None, gt=0, le=1000)


class MeleeWeapon(_Strict):
    """A weapon the combat's "Choice of weapon" (# C4 Combat) may pick instead of STR."""

    name: str = Field(min_length=1, max_length=60)
    strength: int = Field(ge=0, le=30)


class Profile(_Strict):
    """A reference profile (# C4 Cards): characteristics of one kind of fighter."""

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1, max_length=80)
    kind_value: KindName = Field(alias="kind")
    mov: int = Field(ge=0, le=60)
    ini: int = Field(ge=0, le=20)
    att: Attack
    strength: int = Field(ge=0, le=30, alias="str")
    defense: int = Field(ge=0, le=20, alias="def")
    res: int = Field(ge=0, le=30)
    cou: int | None = Field(default=None, ge=0, le=20)
    fear: int | None = Field(default=None, ge=0, le=20)
    hp: int | None = Field(default=None, ge=1, le=50)
    structure: int | None = Field(default=None, ge=1, le=100)
    aut: int | None = Field(default=None, ge=0, le=10)
    cost: int | None = Field(default=None, ge=0, le=2000)
    base_mm: int | None = Field(default=None, ge=10, le=200)
    abilities: list[str] = Field(default_factory=list)
    ranged: RangedWeapon | None = None
    weapons: list[MeleeWeapon] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> Profile:
        # # C4 Cards, note 1: Courage can be replaced by Fear.
        if (self.cou is None) == (self.fear is None):
            raise ValueError("give exactly one of 'cou' (Courage) and 'fear'")
        # # C4 Cards, note 2: Health can be replaced by Structure.
        if (self.hp is None) == (self.structure is None):
            raise ValueError("give exactly one of 'hp' (Health) and 'structure'")
        # Authority is the Commander's (# C4 Authority Opposition): Incarnates only (ruling).
        if self.aut is not None and self.kind is not Kind.INCARNATE:
            raise ValueError("only an Incarnate has an Authority value ('aut')")
        for ability in self.abilities:
            if not ability or ability != ability.strip() or len(ability) > 60:
                raise ValueError(f"ability {ability!r}: a non-empty name of ≤ 60 characters")
        if len(set(self.abilities)) != len(self.abilities):
            raise ValueError("an ability is listed twice")
        names = [w.name for w in self.weapons]
        if len(set(names)) != len(names):
            raise ValueError("two melee weapons share a name")
        return self

    @property
    def kind(self) -> Kind:
        return Kind(self.kind_value)

    @property
    def health(self) -> int:
        """Health points, or structure points (# C4 Damage)."""
        return self.hp if self.hp is not None else (self.structure or 0)

    @property
    def is_incarnate(self) -> bool:
        return self.kind is Kind.INCARNATE

    @property
    def is_special(self) -> bool:
        return self.kind is not Kind.STANDARD

    @property
    def strategist(self) -> bool:
        """The "Strategist" ability (# C4 Authority Opposition: a bonus die)."""
        return "strategist" in self.abilities

    def weapon_strength(self, weapon: str | None = None) -> int:
        """# C4 Combat > 1/ Choice of weapon: the Strength used (STR if ``weapon`` is None)."""
        if weapon is None:
            return self.strength
        for w in self.weapons:
            if w.name == weapon:
                return w.strength
        raise ValueError(f"{self.name} has no weapon {weapon!r}")


class Card(_Strict):
    """A unit card (# C4 Units, # C4 Cards): one type of troop."""

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1, max_length=80)
    people: str = Field(pattern=ID_PATTERN)
    category_value: CategoryName = Field(alias="category")
    rank: int | None = Field(default=None, ge=1, le=3)
    base_mm: int = Field(ge=10, le=200)
    cost: int = Field(ge=0, le=2000)
    min_fighters: int = Field(ge=0, le=50)
    max_fighters: int = Field(ge=0, le=50)
    sample: bool
    standard: Profile
    specials: list[Profile] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> Card:
        if self.category in RANKED and self.rank is None:
            raise ValueError(f"a {self.category} card needs a rank (1-3)")
        if self.category not in RANKED and self.rank is not None:
            raise ValueError(f"a {self.category} card has no rank")
        if self.min_fighters > self.max_fighters:
            raise ValueError("'min_fighters' is above 'max_fighters'")
        if self.standard.kind is not Kind.STANDARD:
            raise ValueError("the 'standard' profile must be of kind 'standard'")
        ids = [self.standard.id] + [s.id for s in self.specials]
        if len(set(ids)) != len(ids):
            raise ValueError("two profiles of the card share an id")
        for special in self.specials:
            if special.kind is Kind.STANDARD:
                raise ValueError(f"special {special.id!r} cannot be of kind 'standard'")
            if special.cost is None:
                raise ValueError(f"special {special.id!r} needs a 'cost'")
        # Structure points are for war machines and fortifications (# C4 Cards, note 2).
        for p in (self.standard, *self.specials):
            if p.structure is not None and self.category is not Category.WAR_MACHINE:
                raise ValueError(f"{p.id!r}: only a war machine has structure points")
        if self.max_fighters == 0 and not self.specials:
            raise ValueError("a card with no standard fighter must offer special fighters")
        return self

    @property
    def category(self) -> Category:
        return Category(self.category_value)

    def profile(self, profile_id: str) -> Profile:
        """The standard profile or a special's, by id."""
        for p in (self.standard, *self.specials):
            if p.id == profile_id:
                return p
        raise KeyError(f"card {self.id!r} has no profile {profile_id!r}")

    def base(self, profile: Profile) -> int:
        """The base diameter (mm) of a fighter of ``profile``."""
        return profile.base_mm or self.base_mm


class CardFile(_Strict):
    """A cards file: ``[[card]]`` tables."""

    card: list[Card] = Field(min_length=1)


def load_cards(path: Path | str) -> dict[str, Card]:
    """The cards of a TOML file, or of every ``*.toml`` of a folder (sorted by name).

    Card ids are unique across the files read; a problem is a one-line ``LoadError``."""
    root = Path(path)
    files = sorted(root.glob("*.toml")) if root.is_dir() else [root]
    if not files:
        raise LoadError(root, "the folder holds no *.toml cards file")
    cards: dict[str, Card] = {}
    for file in files:
        text, data = read_toml(file)
        parsed = parse_model(CardFile, file, text, data)
        for card in parsed.card:
            if card.id in cards:
                raise LoadError(file, f"card id {card.id!r} is defined twice", key="card.id")
            cards[card.id] = card
    return cards


@cache
def _bundled() -> tuple[tuple[str, Card], ...]:
    folder = data_path("c4/cards")
    return tuple(load_cards(Path(str(folder))).items())


def bundled_cards() -> dict[str, Card]:
    """The bundled sample cards (``data/c4/cards/*.toml``)."""
    return dict(_bundled())
