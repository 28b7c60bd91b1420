"""The ``c3`` rules: Confédé with the Confrontation 3 tournament scenario rules (``000_…``)
where they differ from chapter 20 (CLARIFICATIONS §6: chapter 20 is the default, C3 the
variant; the scenery-attack rules of C3 apply in both).

Each difference is a *variant switch*: an entry of the rules value's extension table
``variant`` that the mechanic reads (``variant(state, name)``): "c3" under ``c3``, absent (the
chapter-20 reading) under ``confede``. This module only sets them; the rules live with their
mechanics.
"""

from __future__ import annotations

from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import GameState

VARIANT = "variant"
"""The extension table of the variant switches."""

C3_SWITCHES: dict[str, str] = {
    "neutral-timing": "Neutral fighters activate after all others if in contact with an enemy "
    "at the start of the round (XX-E-1: of the activation phase)",
    "neutral-distance": "Neutral fighters: double the distance measured over Encumbered terrain",
    "commander": 'C3-CHIEF: "the most expensive Character (in total AP value, including '
    'artefacts...)" is the Chief (scenarios.commander)',
    "looting": "C3-COLLECTING-A-TOKEN: a fighter who can collect a token does so; one who "
    "cannot may not end his movement on it (scenarios.tokens)",
}
"""The switches the ``c3`` rules turn on, by name, with the C3 rule each follows (the
mechanics add theirs: ``commander`` — the Chief, "the most expensive Character in total AP";
``contact`` — "more than half of one base edge"; ``neutral-timing`` — "at the start of the
round"; ``looting`` — "a fighter that cannot collect a token may not end his movement on
it"; …)."""


def variant(state: GameState, name: str) -> str | None:
    """The variant of the rule ``name`` in the state's rules: "c3", or None (chapter 20)."""
    value = rules_of(state).extension(VARIANT, name)
    return value if isinstance(value, str) else None


def contribute(rules: RulesBuilder) -> None:
    """Turn every C3 switch on (the last module of the ``c3`` rules)."""
    for name in C3_SWITCHES:
        rules.extension(VARIANT, name, "c3")
