"""Army-list validation (chapter I-D): one function per rule, each citing its section.

:func:`validate` prices every card (I-D-2), runs every rule and returns a :class:`Report`.
Percentages are compared in whole numbers (``5 × value ≤ 2 × points`` for 40 %), so a
limit such as 30 % of 275 AP (82.5 AP) is exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from confrontation.armylists.cost import Priced, final_characteristics, strategic_value
from confrontation.armylists.load import Alliances, bundled_alliances
from confrontation.model.army import Army, Card
from confrontation.model.cost_expression import CostError, evaluate_cost


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule: its section (``"I-D-3"``) and a message with the numbers."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


@dataclass(frozen=True, slots=True)
class CardLine:
    """One priced card of the army."""

    card: Card
    price: Priced | None  # None when a cost expression cannot be evaluated (I-D-2 violation)
    ally: bool
    recruited: bool  # False for summoned fighters listed for reference (see docs/rulings.md)

    @property
    def unit_ap(self) -> int:
        """Strategic value of one fighter of the card (I-D-2)."""
        return self.price.total if self.price is not None else self.card.profile.ap

    @property
    def total_ap(self) -> int:
        """Strategic value of all the card's fighters."""
        return self.unit_ap * self.card.count


@dataclass(slots=True)
class Report:
    """The validator's verdict on an army list."""

    name: str
    people: str
    points: int
    lines: list[CardLine]
    violations: list[Violation] = field(default_factory=list)
    notes: list[Violation] = field(default_factory=list)
    """Rules of the scenarios that need them (XX-B-1): reported, the list stays valid."""

    @property
    def valid(self) -> bool:
        """True when no rule is broken."""
        return not self.violations

    @property
    def recruited(self) -> list[CardLine]:
        """Cards of fighters recruited in the list (summoned fighters excluded)."""
        return [line for line in self.lines if line.recruited]

    @property
    def total_ap(self) -> int:
        """The army's value: every recruited fighter with its equipment (I-D-2)."""
        return sum(line.total_ap for line in self.recruited)

    @property
    def fighters(self) -> int:
        """Bases in the contingent (I-D-1); summoned fighters do not count."""
        return sum(line.card.count for line in self.recruited)

    @property
    def quota(self) -> int:
        """Maximum enrolment: 5 fighters per 100 AP started (I-D-1)."""
        return 5 * -(-self.points // 100)

    @property
    def champions_ap(self) -> int:
        """Champions of the army's people (allied champions excluded, I-D-8)."""
        return sum(
            line.total_ap for line in self.recruited if line.card.profile.champion and not line.ally
        )

    @property
    def allies_ap(self) -> int:
        """Allies, champions included (I-D-8)."""
        return sum(line.total_ap for line in self.recruited if line.ally)

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` document of ``confrontation army validate``."""
        return {
            "valid": self.valid,
            "total_ap": self.total_ap,
            "fighters": self.fighters,
            "champions_ap": self.champions_ap,
            "allies_ap": self.allies_ap,
            "violations": [{"rule": v.rule, "message": v.message} for v in self.violations],
            **(
                {"notes": [{"rule": n.rule, "message": n.message} for n in self.notes]}
                if self.notes
                else {}
            ),
        }


def _share(points: int, percent: int) -> str:
    value = Fraction(points * percent, 100)
    return f"{value.numerator}" if value.denominator == 1 else f"{float(value):g}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# -- the rules --------------------------------------------------------------------------------


def check_total(report: Report) -> list[Violation]:
    """I-D: the army's total cost stays within the value agreed for the battle."""
    if report.total_ap > report.points:
        return [
            Violation(
                "I-D",
                f"the army is worth {report.total_ap} AP, above the format of {report.points} AP",
            )
        ]
    return []


def check_quota(report: Report) -> list[Violation]:
    """I-D-1: at most 5 fighters (bases) per 100 AP, even if incomplete."""
    if report.fighters > report.quota:
        return [
            Violation(
                "I-D-1",
                f"{_plural(report.fighters, 'fighter')} above the quota of {report.quota} "
                f"for {report.points} AP (5 per 100 AP started)",
            )
        ]
    return []


def check_costs(report: Report) -> list[Violation]:
    """I-D-2: every item's cost can be computed on the fighter's final characteristics."""
    out: list[Violation] = []
    for line in report.lines:
        if line.price is not None:
            continue
        card = line.card
        final = final_characteristics(card.profile, card.equipment)
        for item in card.equipment:
            try:
                evaluate_cost(item.cost, final)
            except CostError as exc:
                out.append(Violation("I-D-2", f"{card.profile.name}: {item.name}: {exc}"))
    return out


def check_maximum_value(report: Report) -> list[Violation]:
    """I-D-3: no fighter worth more than 40 % of the format, even if summoned."""
    out = []
    for line in report.lines:
        if 5 * line.unit_ap > 2 * report.points:
            out.append(
                Violation(
                    "I-D-3",
                    f"{line.card.profile.name} is worth {line.unit_ap} AP, above 40 % of "
                    f"{report.points} AP ({_share(report.points, 40)} AP)",
                )
            )
    return out


def check_champion_minimum(report: Report) -> list[Violation]:
    """I-D-4 (with I-D-8): champions of the army's people worth at least 20 % of the format."""
    if 5 * report.champions_ap < report.points:
        return [
            Violation(
                "I-D-4",
                f"champions are worth {report.champions_ap} AP, below 20 % of {report.points} AP "
                f"({_share(report.points, 20)} AP; allied champions do not count)",
            )
        ]
    return []


def check_champions_unique(report: Report) -> list[Violation]:
    """I-D-4: champions are unique and cannot be recruited in several copies."""
    copies: Counter[str] = Counter()
    names: dict[str, str] = {}
    for line in report.recruited:
        if line.card.profile.champion:
            copies[line.card.profile.id] += line.card.count
            names[line.card.profile.id] = line.card.profile.name
    return [
        Violation("I-D-4", f"champion {names[ident]} is recruited {n} times; champions are unique")
        for ident, n in copies.items()
        if n > 1
    ]


def max_per_card(line: CardLine) -> int:
    """I-D-5: fighters one card may represent: the card's own number, else by value."""
    profile = line.card.profile
    if profile.max_per_card is not None:
        return profile.max_per_card
    if profile.champion:
        return 1
    value = line.unit_ap
    if value <= 30:
        return 3
    if value <= 50:
        return 2
    return 1


def check_fighters_per_card(report: Report) -> list[Violation]:
    """I-D-5: ≤30 AP: 3 per card, 31-50 AP: 2, ≥51 AP: 1 (or the card's number)."""
    out = []
    for line in report.lines:
        limit = max_per_card(line)
        if line.card.count > limit:
            profile = line.card.profile
            why = (
                "the card's own number"
                if profile.max_per_card is not None
                else "a champion has his own card"
                if profile.champion
                else f"{line.unit_ap} AP each"
            )
            out.append(
                Violation(
                    "I-D-5",
                    f"card {line.card.index} ({profile.name}) represents {line.card.count} "
                    f"fighters, at most {limit} ({why})",
                )
            )
    return out


def check_artifact_slots(report: Report) -> list[Violation]:
    """I-D-6: a fighter with 'Artifact/X' carries at most X artifacts; others carry none."""
    out = []
    for line in report.lines:
        profile = line.card.profile
        carried = [item for item in line.card.equipment if item.kind == "artifact"]
        if len(carried) > profile.artifact_slots:
            allowed = (
                f"'Artifact/{profile.artifact_slots}'"
                if profile.ability("Artifact") is not None
                else "no 'Artifact/X' ability"
            )
            out.append(
                Violation(
                    "I-D-6",
                    f"{profile.name} carries {_plural(len(carried), 'artifact')} but has {allowed}",
                )
            )
    return out


def check_artifact_copies(report: Report) -> list[Violation]:
    """I-D-6: no more than one copy of an artifact in the list, unless it says otherwise."""
    copies: Counter[str] = Counter()
    names: dict[str, str] = {}
    for line in report.recruited:
        for item in line.card.equipment:
            if item.unique:
                copies[item.id] += line.card.count
                names[item.id] = item.name
    return [
        Violation("I-D-6", f"{n} copies of the artifact {names[ident]}; at most one is allowed")
        for ident, n in copies.items()
        if n > 1
    ]


def check_artifact_people(report: Report) -> list[Violation]:
    """I-D-6: artifacts reserved for some nations go only to fighters of those nations."""
    out = []
    for line in report.lines:
        for item in line.card.equipment:
            if item.people and line.card.profile.people not in item.people:
                out.append(
                    Violation(
                        "I-D-6",
                        f"{item.name} is reserved for {', '.join(item.people)}; "
                        f"{line.card.profile.name} is {line.card.profile.people}",
                    )
                )
    return out


def check_spells_and_miracles(report: Report) -> list[Violation]:
    """I-D-7: spells go to wizards (POW), miracles to devouts (FAITH); both are free."""
    out = []
    for line in report.lines:
        profile = line.card.profile
        if line.card.spells and profile.power is None:
            out.append(
                Violation("I-D-7", f"{profile.name} learns spells but is no wizard (no POW)")
            )
        if line.card.miracles and profile.faith is None:
            out.append(
                Violation("I-D-7", f"{profile.name} calls miracles but is no devout (no FAITH)")
            )
    return out


def check_allies_share(report: Report) -> list[Violation]:
    """I-D-8: allies together worth at most 30 % of the format."""
    if 10 * report.allies_ap > 3 * report.points:
        return [
            Violation(
                "I-D-8",
                f"allies are worth {report.allies_ap} AP, above 30 % of {report.points} AP "
                f"({_share(report.points, 30)} AP)",
            )
        ]
    return []


def check_ally_nations(report: Report, alliances: Alliances | None = None) -> list[Violation]:
    """I-D-8: every allied nation may ally with the army's and with each other allied nation.

    Elementals and immortals join through their ability ('Elemental/X', 'Immortal/X')
    instead of by alliance (I-D-8, CLARIFICATIONS §4).
    """
    alliances = alliances or bundled_alliances()
    out: list[Violation] = []
    allied: list[str] = []
    for line in report.recruited:
        profile = line.card.profile
        if not line.ally:
            continue
        nation = alliances.nations.get(profile.people)
        if nation is not None and nation.recruited_by is not None:
            if profile.ability(nation.recruited_by) is None:
                out.append(
                    Violation(
                        "I-D-8",
                        f"{profile.name} ({profile.people}) joins an army only through "
                        f"'{nation.recruited_by}/X', which the card lacks",
                    )
                )
            continue
        if profile.people not in allied:
            allied.append(profile.people)
    for people in allied:
        if not alliances.compatible(report.people, people):
            out.append(
                Violation("I-D-8", f"{people} cannot ally with the army's people ({report.people})")
            )
    for i, first in enumerate(allied):
        for second in allied[i + 1 :]:
            if not alliances.compatible(first, second):
                out.append(
                    Violation("I-D-8", f"allies from {first} and {second} cannot ally together")
                )
    return out


def check_commander_first(report: Report) -> list[Violation]:
    """XX-B-1: "Le Commandeur est obligatoirement le Champion le plus cher de l'armée en
    Valeur stratégique [...] Le Commandeur **doit** être noté sur la première ligne de la
    feuille d'armée": the first card is one of the dearest Champions (of several as dear, the
    one the player chose). A note (:data:`NOTES`): only scenarios with a Commander need it."""
    champions = [line for line in report.recruited if line.card.profile.champion]
    if not champions or not report.lines:
        return []
    best = max(line.unit_ap for line in champions)
    dearest = [line for line in champions if line.unit_ap == best]
    first = report.lines[0]
    if any(line is first for line in dearest):
        return []
    names = " or ".join(line.card.profile.name for line in dearest)
    return [
        Violation(
            "XX-B-1",
            f"the Commander ({names}, the dearest Champion at {best} AP) must be on the first "
            f"line of the list, not {first.card.profile.name}",
        )
    ]


RULES: tuple[Callable[[Report], list[Violation]], ...] = (
    check_total,
    check_quota,
    check_costs,
    check_maximum_value,
    check_champion_minimum,
    check_champions_unique,
    check_fighters_per_card,
    check_artifact_slots,
    check_artifact_copies,
    check_artifact_people,
    check_spells_and_miracles,
    check_allies_share,
    check_ally_nations,
)

NOTES: tuple[Callable[[Report], list[Violation]], ...] = (check_commander_first,)
"""Rules a list must follow for the scenarios that use them ("Certains scénarios nécessitent
[...] le Commandeur", XX-B-1): reported as notes, never making a list invalid."""


def price_cards(army: Army) -> list[CardLine]:
    """Price every card on the final characteristics (I-D-2)."""
    lines = []
    for card in army.cards:
        try:
            price: Priced | None = strategic_value(card.profile, card.equipment)
        except CostError:
            price = None
        lines.append(CardLine(card, price, army.is_ally(card.profile), not card.profile.summoned))
    return lines


def validate(
    army: Army,
    rules: Iterable[Callable[[Report], list[Violation]]] = RULES,
    notes: Iterable[Callable[[Report], list[Violation]]] = NOTES,
) -> Report:
    """Check ``army`` against every rule of chapter I-D, and note what the scenarios' rules
    would say (XX-B-1)."""
    report = Report(army.name, army.people, army.points, price_cards(army))
    for rule in rules:
        report.violations.extend(rule(report))
    for note in notes:
        report.notes.extend(note(report))
    return report
