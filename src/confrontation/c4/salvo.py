"""Salvos and combats of the unit-based ruleset (``002_…``, "C4"): pure functions.

What to call (the integrating engineer reads positions with ``c4.losses``/``c4.sight`` and
passes plain numbers here):

* :func:`load_range_bands` ``(path=None) -> RangeBands``; ``bands.difficulty(distance_cm)``:
  the difficulty of a shot at a leader-to-leader distance (None: out of the tape's reach);
  :func:`shot_difficulty` ``(distance_cm, reach_cm=None, bands=None)`` adds the weapon's reach.
* :func:`resolve_salvo` ``(roller, marksmen=, dice=, ranged_attack=, difficulty=, strength=,
  resilience=, targets=) -> SalvoResult``: attack test, strength test, removal of the losses
  (``targets`` the fighters of the target unit with their remaining health and distance to
  the marksmen's leader; ``result.losses.eliminated`` the ids to remove, nearest first).
* :func:`remove_losses` ``(targets, damage, cap) -> Losses``: damage points → eliminated
  fighters and wounds.
* :func:`split_dice` ``(contacts, shares=None) -> dict[(attacker, defender), dice]``: a
  melee's dice split into profile-against-profile combats; :func:`resolve_combat`
  ``(roller, dice=, attack=, defense=, strength=, resilience=, targets=)``: one combat.
* :func:`unit_resilience` ``(standard_res, special_res)``: the difficulty of a strength test.

Headings cited: ``# C4 Unit Ranged Attack > …`` and ``# C4 Combat``.

Sections (docs/rules-index.toml): C4-RANGED-ATTACK-TEST, C4-STRENGTH-TEST, C4-REMOVAL-OF-THE-
LOSSES, C4-DAMAGE, C4-COMBAT.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from confrontation.armylists.load import parse_model, read_toml
from confrontation.c4.resolution import C4Test, UniversalTable, roll_test
from confrontation.data import data_path
from confrontation.dice import Roller

# --- range bands of the tape (ruling: the document does not print the tape) ---------------


@dataclass(frozen=True)
class RangeBand:
    """A band of the range tape: distances up to ``up_to_cm`` (from the previous band's end)."""

    name: str
    up_to_cm: float
    difficulty: int


@dataclass(frozen=True)
class RangeBands:
    """The bands of the tape, shortest first."""

    bands: tuple[RangeBand, ...]

    def band(self, distance_cm: float) -> RangeBand | None:
        """The band of a leader-to-leader distance (edge to edge), None beyond the tape.

        # C4 Measuring Distance: an element only partially within a distance is in the
        shorter one, so a distance exactly on a boundary belongs to the shorter band.
        """
        if distance_cm < 0:
            raise ValueError(f"a distance is not negative, not {distance_cm}")
        for band in self.bands:
            if distance_cm <= band.up_to_cm:
                return band
        return None

    def difficulty(self, distance_cm: float) -> int | None:
        """# C4 Unit Ranged Attack > Measuring the range: "The range is the difficulty"."""
        band = self.band(distance_cm)
        return None if band is None else band.difficulty


class _BandModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str = Field(min_length=1, max_length=40)
    up_to_cm: float | int = Field(gt=0, le=1000)
    difficulty: int = Field(ge=-20, le=40)


class _BandsModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    band: list[_BandModel] = Field(min_length=1, max_length=20)

    @model_validator(mode="after")
    def _increasing(self) -> _BandsModel:
        for i in range(1, len(self.band)):
            if self.band[i].up_to_cm <= self.band[i - 1].up_to_cm:
                raise ValueError(f"band {i + 1} must reach further than band {i}")
            if self.band[i].difficulty < self.band[i - 1].difficulty:
                raise ValueError(f"band {i + 1} cannot be easier than the shorter band {i}")
        names = [b.name for b in self.band]
        if len(set(names)) != len(names):
            raise ValueError("two bands share a name")
        return self


def parse_range_bands(path: Path, text: str, data: dict[str, Any]) -> RangeBands:
    """Validate parsed TOML; a problem is a one-line ``LoadError``."""
    model = parse_model(_BandsModel, path, text, data)
    return RangeBands(tuple(RangeBand(b.name, float(b.up_to_cm), b.difficulty) for b in model.band))


def load_range_bands(path: Path | str | None = None) -> RangeBands:
    """The tape's bands from ``path`` (default: the bundled ``data/c4/range_bands.toml``)."""
    if path is None:
        return default_range_bands()
    file = Path(path)
    text, data = read_toml(file)
    return parse_range_bands(file, text, data)


@cache
def default_range_bands() -> RangeBands:
    """The bundled bands, loaded once."""
    text = data_path("c4/range_bands.toml").read_text(encoding="utf-8")
    return parse_range_bands(Path("c4/range_bands.toml"), text, tomllib.loads(text))


def shot_difficulty(
    distance_cm: float, reach_cm: float | None = None, bands: RangeBands | None = None
) -> int | None:
    """The difficulty of a salvo at a leader-to-leader ``distance_cm`` with a weapon reaching
    ``reach_cm`` (a card's ``ranged.reach_cm``; None: the whole tape), or None: no shot."""
    if reach_cm is not None and distance_cm > reach_cm:
        return None
    return (bands or default_range_bands()).difficulty(distance_cm)


# --- removal of the losses ---------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A fighter of the target unit: remaining health (or structure) and distance (cm) to the
    leader of the marksmen (or of the attacking unit)."""

    fighter: str
    health: int
    distance: float


@dataclass(frozen=True)
class Losses:
    """Where the damage points went: ``eliminated`` (nearest first), ``wounds`` (fighter,
    points taken without being eliminated) and ``lost`` points that found nobody."""

    eliminated: tuple[str, ...]
    wounds: tuple[tuple[str, int], ...]
    lost: int


def _nearest_first(targets: Sequence[Target]) -> list[Target]:
    """Nearest first; equal distances keep the caller's order (stable sort)."""
    return sorted(targets, key=lambda t: t.distance)


def max_eliminations(healths: Sequence[int], damage: int, cap: int) -> int:
    """The most fighters ``damage`` points can eliminate, no more than ``cap``."""
    spent = count = 0
    for health in sorted(healths):
        if count >= cap or spent + health > damage:
            break
        spent += health
        count += 1
    return count


def remove_losses(targets: Sequence[Target], damage: int, cap: int) -> Losses:
    """# C4 Unit Ranged Attack > Removal of the losses.

    "Damage points are distributed to eliminate as many fighters as possible. The fighters
    closest to the leader of the unit of marksmen are eliminated first" and "a salvo cannot
    eliminate more targets than there were weapons shot" (``cap``). Of the largest sets that
    can be eliminated, the one nearest the leader is chosen (compared fighter by fighter,
    nearest first). Points left over wound the nearest survivors without eliminating anyone
    (# C4 Damage: each point takes one health point); what is left after that is lost
    (rulings, docs/rulings.md "002 — the unit-based ruleset (C4)").
    """
    if damage < 0 or cap < 0:
        raise ValueError("damage and the cap are not negative")
    for t in targets:
        if t.health < 1:
            raise ValueError(f"{t.fighter} has no health left: he is already eliminated")
    order = _nearest_first(targets)
    goal = max_eliminations([t.health for t in order], damage, cap)
    chosen: list[Target] = []
    budget = damage
    for i, t in enumerate(order):
        need = goal - len(chosen)
        if need == 0:
            break
        if t.health > budget:
            continue
        # Take t if the cheapest fighters after it can still complete the set.
        rest = sorted(x.health for x in order[i + 1 :])[: need - 1]
        if len(rest) == need - 1 and t.health + sum(rest) <= budget:
            chosen.append(t)
            budget -= t.health
    ids = {t.fighter for t in chosen}
    wounds: list[tuple[str, int]] = []
    for t in order:
        if budget == 0:
            break
        if t.fighter in ids or t.health < 2:
            continue
        points = min(budget, t.health - 1)
        wounds.append((t.fighter, points))
        budget -= points
    return Losses(tuple(t.fighter for t in chosen), tuple(wounds), budget)


# --- a salvo ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SalvoResult:
    """A resolved salvo (or combat): its two tests, the damage points and the losses."""

    attack: C4Test
    strength: C4Test
    losses: Losses

    @property
    def hits(self) -> int:
        return self.attack.successes

    @property
    def damage(self) -> int:
        return self.strength.successes


def resolve_salvo(
    roller: Roller,
    *,
    marksmen: int,
    dice: int,
    ranged_attack: int,
    difficulty: int,
    strength: int,
    resilience: int,
    targets: Sequence[Target],
    table: UniversalTable | None = None,
) -> SalvoResult:
    """One salvo of ``marksmen`` fighters of one profile (# C4 Unit Ranged Attack).

    ``dice`` is the profile's ranged combat dice, ``ranged_attack`` its Ranged attack value,
    ``difficulty`` the range (:meth:`RangeBands.difficulty`), ``strength`` the weapon's,
    ``resilience`` the target's (:func:`unit_resilience`). Only marksmen who see a fighter of
    the target count, and the target must not be engaged: the caller checks both (c4.sight).
    """
    if marksmen < 1 or dice < 1:
        raise ValueError("a salvo has at least one marksman rolling at least one die")
    # > Ranged attack test: the profile's dice × the number of marksmen.
    attack = roll_test(roller, dice * marksmen, ranged_attack, difficulty, table)
    # > Strength test: one die per hit, the weapon's Strength against the Resilience.
    power = roll_test(roller, attack.successes, strength, resilience, table)
    # > Removal of the losses: never more eliminated than weapons shot.
    losses = remove_losses(targets, power.successes, cap=marksmen)
    return SalvoResult(attack, power, losses)


def unit_resilience(standard: Sequence[int], special: Sequence[int]) -> int:
    """The difficulty of a strength test against a unit (# C4 Unit Ranged Attack > Strength
    test: "the Resilience of the fighters of the targeted unit"): its standard fighters'
    Resilience, or the highest of its special fighters' once no standard fighter is left
    (ruling)."""
    if standard:
        return max(standard)
    if special:
        return max(special)
    raise ValueError("the unit has no fighter left")


# --- melee: the dice split and one combat ---------------------------------------------------


@dataclass(frozen=True)
class Contact:
    """An attacking fighter in a melee: his profile, combat dice and the profiles of the
    enemies in contact with his base (# C4 Combat: he fights only them)."""

    fighter: str
    profile: str
    dice: int
    enemy_profiles: tuple[str, ...]


CombatKey = tuple[str, str]
"""(attacker profile, defender profile): one combat of a melee."""


def even_shares(dice: int, profiles: Sequence[str]) -> dict[str, int]:
    """The default split of one fighter's dice: as evenly as possible, the remainder to the
    first profiles in the player's order (ruling)."""
    if not profiles:
        return {}
    base, extra = divmod(dice, len(profiles))
    return {p: base + (1 if i < extra else 0) for i, p in enumerate(profiles)}


def split_dice(
    contacts: Sequence[Contact],
    shares: Mapping[str, Mapping[str, int]] | None = None,
) -> dict[CombatKey, int]:
    """# C4 Combat: the dice of each combat of a melee.

    A fighter in contact with enemies of different profiles takes part in several combats and
    "his combat dice are split between the different combats". ``shares[fighter]`` gives his
    split (defender profile → dice, summing to his dice, only profiles in contact); fighters
    not named split evenly (:func:`even_shares`). Fighters in contact with nobody do not
    fight. Raises ValueError on an illegal split.
    """
    shares = shares or {}
    known = {c.fighter for c in contacts}
    for name in shares:
        if name not in known:
            raise ValueError(f"{name} is not an attacking fighter of this melee")
    out: dict[CombatKey, int] = {}
    for c in contacts:
        if c.dice < 0:
            raise ValueError(f"{c.fighter} cannot have {c.dice} combat dice")
        enemies = tuple(dict.fromkeys(c.enemy_profiles))
        split = dict(shares[c.fighter]) if c.fighter in shares else even_shares(c.dice, enemies)
        for profile, n in split.items():
            if profile not in enemies:
                raise ValueError(f"{c.fighter} is not in contact with a {profile}")
            if n < 0:
                raise ValueError(f"{c.fighter} cannot give {n} dice to a combat")
        if enemies and sum(split.values()) != c.dice:
            raise ValueError(f"{c.fighter} must split exactly his {c.dice} dice")
        for profile, n in split.items():
            if n:
                key = (c.profile, profile)
                out[key] = out.get(key, 0) + n
    return out


def resolve_combat(
    roller: Roller,
    *,
    dice: int,
    attack: int,
    defense: int,
    strength: int,
    resilience: int,
    targets: Sequence[Target],
    cap: int | None = None,
    table: UniversalTable | None = None,
) -> SalvoResult:
    """One combat of a melee (# C4 Combat): 2/ hand to hand attack test (the attacker
    profile's ATT value against the defender's DEF, ruling), 3/ strength test (the chosen
    weapon's Strength, :meth:`c4.cards.Profile.weapon_strength`, against the RES), 4/
    removal of the losses among ``targets``, the defender profile's fighters in contact with
    the attackers of this combat, nearest the attacking unit's leader first; ``cap``
    (default: none) limits the fighters eliminated. Retaliation waits for the defenders' own
    activation (the caller)."""
    if dice < 0:
        raise ValueError("a combat has no negative number of dice")
    test = roll_test(roller, dice, attack, defense, table)
    power = roll_test(roller, test.successes, strength, resilience, table)
    limit = len(targets) if cap is None else cap
    return SalvoResult(test, power, remove_losses(targets, power.successes, cap=limit))
