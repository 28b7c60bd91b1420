"""Reference cards (I-C) and artifacts (I-D-6) as validated data.

A profile is what a player reads on a fighter's reference card: name, nation (people),
rank, size, army points and characteristics. Abilities are carried as strings ("Name" or
"Name/X"); :func:`parse_ability` splits them, and :data:`APPLIED_ABILITIES` lists those whose
effect the rule documents define (CLARIFICATIONS §5). Everything else is "carried, not applied".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from confrontation.model.bounds import out_of_bounds
from confrontation.model.cost_expression import CHARACTERISTICS, parse_cost

Rank = Literal[
    "irregular",
    "regular",
    "veteran",
    "creature",
    "special",
    "war-machine",
    "elite",
    "living-legend",
    "major-ally",
    "initiate",
    "adept",
    "master",
    "virtuous",
    "devout",
    "zealot",
    "doyen",
    "avatar",
]
Size = Literal["small", "normal", "large", "very-large"]


#: Abilities whose effect the rule documents define (CLARIFICATIONS §5), with the section.
APPLIED_ABILITIES: dict[str, str] = {
    "Artifact": "I-D-6",
    "Enormous": "I-C",
    "Target": "VI (shooting difficulty)",
    "Carry": "XX-D-2, C3 Looting (a token's Carry/X: the scenario's carry)",
    "Inalterable": "C3 tournament, scenery",
    "Scout": "XX-E-2, hidden scouts",
    "Flight": "II (altitude level 1)",
}

_ID = r"^[a-z0-9][a-z0-9-]*$"
_ABILITY = re.compile(r"^(?P<name>[^/]+?)(?:/(?P<value>[^/]+))?$")

_SIZE_VALUE: dict[str, int] = {"small": 1, "normal": 2, "large": 3, "very-large": 4}


@dataclass(frozen=True, slots=True)
class Ability:
    """One parsed ability: ``Artifact/2`` → name ``Artifact``, value ``2``."""

    name: str
    value: int | str | None = None

    @property
    def applied(self) -> bool:
        """True when the rule documents define this ability's effect (CLARIFICATIONS §5)."""
        return self.name in APPLIED_ABILITIES

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name}/{self.value}"


def parse_ability(text: str) -> Ability:
    """Parse ``"Name"`` or ``"Name/X"``; a numeric X becomes an int."""
    match = _ABILITY.match(text.strip())
    if match is None or not match.group("name").strip():
        raise ValueError(f"ability {text!r} is not 'Name' or 'Name/X'")
    name = match.group("name").strip()
    raw = match.group("value")
    if raw is None:
        return Ability(name)
    raw = raw.strip()
    return Ability(name, int(raw) if raw.lstrip("-").isdigit() else raw)


class FieldProblem(ValueError):
    """A cross-field check failed; ``key`` names the offending key of the table."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(message)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


class Faith(_Strict):
    """The three Aspects of FAITH of a devout (I-C ⑤)."""

    creation: int = Field(ge=0)
    alteration: int = Field(ge=0)
    destruction: int = Field(ge=0)


class Profile(_Strict):
    """A reference card (I-C). ``power`` is a magician's POW, not the size Power."""

    id: str = Field(pattern=_ID)
    name: str = Field(min_length=1)
    people: str = Field(pattern=_ID)
    rank: Rank
    champion: bool = False
    size: Size = "normal"
    ap: int = Field(ge=0)
    mov: float = Field(ge=0)
    ini: int
    att: int
    str_: int = Field(alias="str")
    def_: int = Field(alias="def")
    res: int = Field(ge=1)
    courage: int | None = None
    fear: int | None = None
    dis: int
    abilities: list[str] = Field(default_factory=list)
    equipment: list[str] = Field(default_factory=list)
    aim: int | None = None
    aim_str: int | None = None
    ranges: list[float] | None = Field(default=None, min_length=3, max_length=3)
    power: int | None = Field(default=None, ge=0)
    elements: list[str] = Field(default_factory=list)
    faith: Faith | None = None
    base: Literal["square", "round"] | None = None
    max_per_card: int | None = Field(default=None, ge=1)
    summoned: bool = False
    sample: bool = False
    printed: list[str] = Field(default_factory=list)
    source: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Profile:
        for key, value in self._bounded():  # data/bounds.toml
            problem = out_of_bounds("characteristics", key, value)
            if problem is not None:
                raise FieldProblem(key, problem)
        if (self.courage is None) == (self.fear is None):
            raise FieldProblem(
                "courage", "a profile has exactly one of 'courage' or 'fear' (I-C ⑤)"
            )
        shooting = (self.aim, self.aim_str, self.ranges)
        if any(v is not None for v in shooting) and any(v is None for v in shooting):
            raise FieldProblem(
                "aim", "a shooter needs 'aim', 'aim_str' and 'ranges' together (I-C ⑤)"
            )
        if self.ranges is not None and list(self.ranges) != sorted(self.ranges):
            raise FieldProblem(
                "ranges", "'ranges' must be [short, medium, long] in increasing order"
            )
        for text in self.abilities:
            try:
                parse_ability(text)
            except ValueError as exc:
                raise FieldProblem("abilities", str(exc)) from exc
        enormous = self.ability("Enormous")
        if enormous is not None:
            if not isinstance(enormous.value, int) or enormous.value < 1:
                raise FieldProblem("abilities", "'Enormous/X' needs a whole X of at least 1 (I-C)")
            problem = out_of_bounds("characteristics", "enormous", enormous.value)
            if problem is not None:
                raise FieldProblem("abilities", f"'Enormous/X': {problem}")
            if self.size != "very-large":
                raise FieldProblem(
                    "size", "a fighter with 'Enormous/X' is of very large size (I-C)"
                )
        artifact = self.ability("Artifact")
        if artifact is not None and (not isinstance(artifact.value, int) or artifact.value < 0):
            raise FieldProblem("abilities", "'Artifact/X' needs a whole X (I-D-6)")
        unknown = sorted(set(self.printed) - set(CHARACTERISTICS) - {"ap"})
        if unknown:
            raise FieldProblem(
                "printed", f"'printed' names unknown characteristics: {', '.join(unknown)}"
            )
        return self

    def _bounded(self) -> list[tuple[str, float]]:
        """The values ``data/bounds.toml`` bounds, with their keys."""
        values: list[tuple[str, float]] = [
            ("ap", self.ap),
            ("mov", self.mov),
            ("ini", self.ini),
            ("att", self.att),
            ("str", self.str_),
            ("def", self.def_),
            ("res", self.res),
            ("dis", self.dis),
        ]
        optional = {
            "courage": self.courage,
            "fear": self.fear,
            "aim": self.aim,
            "aim_str": self.aim_str,
            "power": self.power,
        }
        values += [(key, value) for key, value in optional.items() if value is not None]
        values += [("ranges", value) for value in self.ranges or ()]
        if self.faith is not None:
            aspects = (self.faith.creation, self.faith.alteration, self.faith.destruction)
            values += [("faith", value) for value in aspects]
        return values

    # -- derived values -------------------------------------------------------------------

    @property
    def parsed_abilities(self) -> tuple[Ability, ...]:
        """The abilities, parsed."""
        return tuple(parse_ability(a) for a in self.abilities)

    def ability(self, name: str) -> Ability | None:
        """The ability called ``name`` (case-insensitive), or None."""
        wanted = name.casefold()
        for ability in self.parsed_abilities:
            if ability.name.casefold() == wanted:
                return ability
        return None

    @property
    def size_value(self) -> int:
        """Size as a number (I-C): small 1, normal 2, large 3, very large 4 or 3 + X."""
        enormous = self.ability("Enormous")
        if isinstance(enormous, Ability) and isinstance(enormous.value, int):
            return 3 + enormous.value
        return _SIZE_VALUE[self.size]

    @property
    def size_power(self) -> int:
        """The Power given by size (I-C): 1 for small/normal, otherwise size − 1."""
        return 1 if self.size_value <= 2 else self.size_value - 1

    @property
    def artifact_slots(self) -> int:
        """X of 'Artifact/X', 0 without the ability (I-D-6)."""
        artifact = self.ability("Artifact")
        return artifact.value if artifact is not None and isinstance(artifact.value, int) else 0

    @property
    def target_bonus(self) -> int:
        """X of 'Target/X': added to the difficulty of shots at this fighter (VI)."""
        target = self.ability("Target")
        return target.value if target is not None and isinstance(target.value, int) else 0

    @property
    def is_shooter(self) -> bool:
        """True when the card has a shooting weapon (AIM, AIM STR and ranges)."""
        return self.aim is not None

    def characteristics(self) -> dict[str, int | float]:
        """The card's characteristics by name (those the card has)."""
        values: dict[str, int | float | None] = {
            "mov": self.mov,
            "ini": self.ini,
            "att": self.att,
            "str": self.str_,
            "def": self.def_,
            "res": self.res,
            "courage": self.courage,
            "fear": self.fear,
            "dis": self.dis,
            "aim": self.aim,
            "aim_str": self.aim_str,
            "power": self.power,
        }
        return {k: v for k, v in values.items() if v is not None}


class Artifact(_Strict):
    """An artifact or optional equipment (I-D-6) and its cost (I-D-2).

    ``cost`` is a whole number of AP or an expression over the bearer's final
    characteristics, e.g. ``"att + def + res"`` (see :mod:`confrontation.model.cost_expression`).
    ``kind = "equipment"`` marks options that are not artifacts (I-D-6 note): they cost AP
    but do not use an 'Artifact/X' slot.
    """

    id: str = Field(pattern=_ID)
    name: str = Field(min_length=1)
    cost: int | str
    modifiers: dict[str, int] = Field(default_factory=dict)
    unique: bool = True
    kind: Literal["artifact", "equipment"] = "artifact"
    people: list[str] = Field(default_factory=list)
    sample: bool = False
    source: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Artifact:
        unknown = sorted(set(self.modifiers) - set(CHARACTERISTICS))
        if unknown:
            raise FieldProblem(
                "modifiers", f"'modifiers' names unknown characteristics: {', '.join(unknown)}"
            )
        if isinstance(self.cost, int):
            if self.cost < 0:
                raise FieldProblem("cost", "'cost' must not be negative")
        else:
            try:
                parse_cost(self.cost)
            except ValueError as exc:
                raise FieldProblem("cost", str(exc)) from exc
        return self


class Library(_Strict):
    """A profile library file: ``[[profiles]]`` and ``[[artifacts]]``."""

    profiles: list[Profile] = Field(default_factory=list)
    artifacts: list[Artifact] = Field(default_factory=list)
