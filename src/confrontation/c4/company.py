"""Companies of the unit-based ruleset (``002_…``, "C4"): loading and validating.

What to call:

* :func:`load_company` ``(path) -> Company``: a TOML company (``name``, ``people``, ``points``,
  ``[[unit]]`` with ``card``, ``standard`` and ``specials``); a malformed file is a one-line
  :class:`confrontation.armylists.load.LoadError`. :func:`bundled_companies` ``()``: the
  two bundled companies of each people (``data/c4/companies/``).
* :func:`validate_company` ``(company, cards, points=None) -> CompanyReport``: ``.errors``
  one-line sectioned messages (``units[2] (griffin-conscripts): …``, ``company: …``,
  ``points: …``), ``.ok``, ``.cost``. ``points`` overrides the company's own budget.
* :func:`unit_cost`, :func:`commander` ``(company, cards)``: the Incarnate with the highest
  Authority (# C4 Authority Opposition), with its unit index, or None.

Field by field: docs/c4-data.md.

Sections (docs/rules-index.toml): C4-UNITS, C4-TYPE-OF-TROOP, C4-SPECIAL-FIGHTERS-AND-STANDARD-
FIGHTERS.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from confrontation.armylists.load import parse_model, read_toml
from confrontation.c4.cards import ID_PATTERN, Card, Kind, Profile
from confrontation.data import data_path


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Unit(_Strict):
    """A unit of a company: its card, number of standard fighters and special fighters (ids of
    the card's special profiles, each at most once)."""

    card: str = Field(pattern=ID_PATTERN)
    standard: int = Field(ge=0, le=50)
    specials: list[str] = Field(default_factory=list)


class Company(_Strict):
    """A company (# C4 Units: "the combination of all a player's units")."""

    name: str = Field(min_length=1, max_length=80)
    people: str = Field(pattern=ID_PATTERN)
    points: int = Field(ge=1, le=100_000)
    sample: bool = False
    unit: list[Unit] = Field(min_length=1, max_length=60)


def load_company(path: Path | str) -> Company:
    """Read a company file (checked for shape only; :func:`validate_company` checks rules)."""
    file = Path(path)
    text, data = read_toml(file)
    return parse_model(Company, file, text, data)


@cache
def _bundled() -> tuple[tuple[str, Company], ...]:
    folder = Path(str(data_path("c4/companies")))
    return tuple((f.stem, load_company(f)) for f in sorted(folder.glob("*.toml")))


def bundled_companies() -> dict[str, Company]:
    """The bundled companies by file stem (``griffin-vanguard`` …)."""
    return dict(_bundled())


def unit_cost(unit: Unit, card: Card) -> int:
    """Army points of a unit: the card's cost per standard fighter plus each special's."""
    total = card.cost * unit.standard
    for special in unit.specials:
        try:
            total += card.profile(special).cost or 0
        except KeyError:
            continue
    return total


@dataclass(frozen=True)
class CompanyReport:
    """What :func:`validate_company` found: one line per problem, and the cost."""

    errors: tuple[str, ...]
    cost: int

    @property
    def ok(self) -> bool:
        return not self.errors


def _unit_errors(where: str, unit: Unit, card: Card, people: str) -> list[str]:
    errors: list[str] = []
    if card.people != people:
        errors.append(f"{where}: the card is of the {card.people} people, the company of {people}")
    # # C4 Units > Type of troop: a unit is of its standard fighters' type.
    if not card.min_fighters <= unit.standard <= card.max_fighters:
        errors.append(
            f"{where}: {unit.standard} standard fighters, the card allows "
            f"{card.min_fighters}-{card.max_fighters}"
        )
    seen: set[str] = set()
    for special in unit.specials:
        if special in seen:
            errors.append(f"{where}: special {special!r} twice (each special at most once)")
        seen.add(special)
        try:
            profile = card.profile(special)
        except KeyError:
            errors.append(f"{where}: the card has no special fighter {special!r}")
            continue
        if not profile.is_special:
            errors.append(f"{where}: {special!r} is the standard profile, not a special")
    if unit.standard + len(unit.specials) == 0:
        errors.append(f"{where}: a unit has at least one fighter")
    incarnates = [s for s in seen if _kind(card, s) is Kind.INCARNATE]
    if len(incarnates) > 1:
        errors.append(f"{where}: two Incarnates in one unit (an Incarnate leads his unit)")
    return errors


def _kind(card: Card, profile_id: str) -> Kind | None:
    try:
        return card.profile(profile_id).kind
    except KeyError:
        return None


def validate_company(
    company: Company, cards: Mapping[str, Card], points: int | None = None
) -> CompanyReport:
    """Check a company against the cards (# C4 Units, # C4 Playing a game).

    Each unit: a known card of the company's people, a number of standard fighters the card
    allows, specials from the card (each once, one Incarnate at most). The company: at least
    one Incarnate (# C4 Units > Special fighters and standard fighters), each Incarnate once
    (a named character), and its cost within ``points`` (default: the company's own).
    """
    errors: list[str] = []
    cost = 0
    incarnates: dict[str, int] = {}
    for index, unit in enumerate(company.unit, start=1):
        where = f"units[{index}] ({unit.card})"
        card = cards.get(unit.card)
        if card is None:
            errors.append(f"{where}: no such card")
            continue
        errors.extend(_unit_errors(where, unit, card, company.people))
        cost += unit_cost(unit, card)
        for special in dict.fromkeys(unit.specials):
            if _kind(card, special) is Kind.INCARNATE:
                incarnates[special] = incarnates.get(special, 0) + 1
    for name, count in sorted(incarnates.items()):
        if count > 1:
            errors.append(f"company: the Incarnate {name!r} is in {count} units (one at most)")
    if not incarnates:
        errors.append("company: no Incarnate (each company includes at least one)")
    budget = company.points if points is None else points
    if cost > budget:
        errors.append(f"points: the company costs {cost} A.P., {budget} allowed")
    return CompanyReport(tuple(errors), cost)


def commander(company: Company, cards: Mapping[str, Card]) -> tuple[int, Profile] | None:
    """# C4 Authority Opposition: the Incarnate with the highest Authority commands.

    Returns (unit index from 0, profile) or None when no Incarnate has an Authority value
    (then the opposition is the bare die). Equal Authority: the first unit in the file
    (ruling: the player's choice, the file order standing for it)."""
    best: tuple[int, Profile] | None = None
    for index, unit in enumerate(company.unit):
        card = cards.get(unit.card)
        if card is None:
            continue
        for special in unit.specials:
            try:
                profile = card.profile(special)
            except KeyError:
                continue
            better = best is None or (profile.aut or 0) > (best[1].aut or 0)
            if profile.is_incarnate and profile.aut is not None and better:
                best = (index, profile)
    return best
