"""Summoned fighters and the victory conditions (XX-B-3, C3-SUMMONING-OF-FIGHTERS).

"Les combattants invoqués pendant la partie ne comptent pas pour ce qui concerne les
conditions de victoire (porter un marqueur, contrôler un objectif, compteurs...) sauf s'ils
appartiennent au même peuple que l'armée." (XX-B-3)

A fighter is summoned when the state says so (``Fighter.summoned``: set for the fighters of a
card whose profile is ``summoned = true``, or by the game effect that brings him in). His
value, "lorsque cela est nécessaire", is the AP on his card
(``scenarios.control.fighter_value``). Every mechanic that asks whether a fighter counts for
a victory condition (carrying a token, controlling an objective, counters, a Commander in an
area...) asks :func:`counts_for_victory`.
"""

from __future__ import annotations

from confrontation.engine.core.state import NEUTRAL, Fighter, GameState


def same_people(state: GameState, fighter: Fighter) -> bool:
    """The fighter's card names his army's people (XX-B-3: "Un Pantin morbide invoqué porte la
    mention 'Régulier d'Achéron' dans son rang, il peut donc compter pour les conditions de
    victoire dans une armée d'Achéron")."""
    if fighter.player == NEUTRAL or fighter.player >= len(state.sides):
        return False
    return state.profile(fighter.profile).people == state.sides[fighter.player].people


def counts_for_victory(state: GameState, fighter: Fighter) -> bool:
    """XX-B-3: ``fighter`` may count for a victory condition — any fighter of a player who is
    not summoned, and a summoned one of his army's people; never a neutral fighter (XX-E).

    Whether he counts *now* (alive, on the table, level 0, not routed...) is the condition's
    own rule."""
    if fighter.player == NEUTRAL:
        return False
    return not fighter.summoned or same_people(state, fighter)
