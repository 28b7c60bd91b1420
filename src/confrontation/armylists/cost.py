"""Strategic value (I-D-2): card AP plus equipment, priced on the FINAL characteristics.

An item's cost is a whole number of AP or an expression over the bearer's final
characteristics (:mod:`confrontation.model.cost_expression`: parsed, never ``eval``-ed, every
division rounded up).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from confrontation.model.cost_expression import evaluate_cost
from confrontation.model.profile import Artifact, Profile


def final_characteristics(
    profile: Profile, equipment: Iterable[Artifact]
) -> dict[str, int | float]:
    """The profile after every modifier of its equipment (I-D-2 "final value")."""
    values = dict(profile.characteristics())
    for item in equipment:
        for name, delta in item.modifiers.items():
            if name in values:
                values[name] = values[name] + delta
    return values


@dataclass(frozen=True, slots=True)
class Priced:
    """A fighter's strategic value, itemised."""

    card_ap: int
    equipment: tuple[tuple[Artifact, int], ...]

    @property
    def total(self) -> int:
        """Card AP plus every item's cost (I-D-2)."""
        return self.card_ap + sum(cost for _, cost in self.equipment)


def strategic_value(profile: Profile, equipment: Iterable[Artifact]) -> Priced:
    """Price a fighter and its equipment on the final characteristics (I-D-2)."""
    items = tuple(equipment)
    final = final_characteristics(profile, items)
    return Priced(profile.ap, tuple((item, evaluate_cost(item.cost, final)) for item in items))
