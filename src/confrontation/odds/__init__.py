"""Exact odds of shots, attacks and whole combats, advice, and Monte Carlo for larger cases.

Every exact answer is a :class:`fractions.Fraction` computed from the engine's own dice and
combat code (:mod:`confrontation.dice`, :mod:`confrontation.rules`):

- :func:`shot_odds` — one shot (VI): miss, or the wound result on the target (or a friend).
- :func:`attack_odds`, :func:`block_odds` — one attack against k defence dice (VII-C-4).
- :func:`combat_odds` — the end state of a combat, one fighter against one to three (VII-C).
- :func:`advise` — the best allocation and defence policy for a goal, alternatives beside it.
- :func:`simulate`, :func:`simulate_engine` — Monte Carlo (numpy / the engine's fight()).
"""

from confrontation.odds.advise import Advice, Goal, advise, policies_for
from confrontation.odds.combat import (
    CombatOdds,
    DefencePolicy,
    Fighter,
    Tactics,
    combat_odds,
    initiative_odds,
)
from confrontation.odds.exact import (
    AttackOdds,
    BlockOdds,
    ShotOdds,
    attack_odds,
    attack_stop_natural,
    block_odds,
    shot_odds,
)
from confrontation.odds.montecarlo import Estimate, MonteCarloOdds, simulate, simulate_engine

__all__ = [
    "Advice",
    "AttackOdds",
    "BlockOdds",
    "CombatOdds",
    "DefencePolicy",
    "Estimate",
    "Fighter",
    "Goal",
    "MonteCarloOdds",
    "ShotOdds",
    "Tactics",
    "advise",
    "attack_odds",
    "attack_stop_natural",
    "block_odds",
    "combat_odds",
    "initiative_odds",
    "policies_for",
    "shot_odds",
    "simulate",
    "simulate_engine",
]
