"""Agents that play C4 (``confrontation.c4``, the unit-based ruleset): random and greedy.

Both answer ``choose(view, question, legal)`` like the engine's agents, ``view`` being the
player's :func:`confrontation.c4.views.redact` of the game. Their dice are keyed to the
number of answers they have given (``decisions``), so a game resumed from its record goes on
exactly as it would have (:func:`confrontation.sim.c4game.play_c4` sets ``decisions``).

- :class:`C4RandomAgent`: a uniformly random legal answer.
- :class:`C4GreedyAgent`: engaged units fight; a unit with marksmen shoots, without moving,
  the salvo that is expected to do the most damage (leader-to-leader range on the tape, the
  universal table); otherwise it assaults the nearest enemy unit within twice its Movement,
  or runs towards the nearest one; the rest (sequences, cards, Authority) as listed, the
  first active player being itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from confrontation.agents.random import uniform_index
from confrontation.c4.actions import enemies, unit_gap, unit_mov
from confrontation.c4.choices import ChooseFirst, Raise, UnitAction
from confrontation.c4.resolution import minimum_roll
from confrontation.c4.salvo import shot_difficulty
from confrontation.c4.state import C4State
from confrontation.dice import SeededRoller
from confrontation.engine.core.questions import Choice, Question


class C4RandomAgent:
    """Any legal answer, each with the same chance."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.decisions = 0

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        roller = SeededRoller.keyed(self.seed, f"c4-random-{self.decisions}")
        self.decisions += 1
        return legal[uniform_index(roller, len(legal))]


def success_chance(action: int, difficulty: int) -> Fraction:
    """The chance that one die succeeds (its first face; re-rolled 6s ignored)."""
    need = minimum_roll(action, difficulty)
    return Fraction(7 - need, 6)


def expected_salvo(state: C4State, unit_id: str, target: str) -> float:
    """The damage the unit's salvos at ``target`` are expected to do (every marksman taken
    to see it; 0 out of range)."""
    total = 0.0
    leader = state.fighter(state.unit(unit_id).leader)
    their = state.fighter(state.unit(target).leader)
    distance = max(
        ((leader.x - their.x) ** 2 + (leader.y - their.y) ** 2) ** 0.5
        - leader.radius
        - their.radius,
        0.0,
    )
    targets = state.members(target)
    res = max((s.res for f in targets if (s := state.stats(f.profile))), default=0)
    for f in state.members(unit_id):
        stats = state.stats(f.profile)
        if not f.ranged or stats is None or stats.ranged_dice < 1:
            continue
        difficulty = shot_difficulty(distance, stats.reach)
        if difficulty is None:
            continue
        hit = success_chance(stats.ranged, difficulty)
        wound = success_chance(stats.ranged_strength, res)
        total += float(stats.ranged_dice * hit * wound)
    return total


class C4GreedyAgent:
    """The greedy C4 player (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.decisions = 0

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        self.decisions += 1
        me = question.player
        for c in legal:
            if isinstance(c, ChooseFirst) and c.player == me:
                return c
        if any(isinstance(c, Raise) for c in legal):
            return next(c for c in legal if isinstance(c, Raise))
        acts = [c for c in legal if isinstance(c, UnitAction)]
        if not acts:
            return legal[0]
        return self._act(state, acts)

    def _act(self, state: C4State, acts: list[UnitAction]) -> UnitAction:
        unit_id = acts[0].unit
        unit = state.unit(unit_id)
        if unit.engaged:
            return next(a for a in acts if a.action == "hold")
        shots = [a for a in acts if a.action == "walk_shoot"]
        best: tuple[float, UnitAction] | None = None
        for a in shots:
            assert a.target is not None
            value = expected_salvo(state, unit_id, a.target)
            if value > 0 and (best is None or value > best[0]):
                best = (value, a)
        if best is not None:
            return best[1]
        foes = sorted(enemies(state, unit), key=lambda e: (unit_gap(state, unit_id, e.id), e.id))
        if not foes:
            return next(a for a in acts if a.action == "hold")
        nearest = foes[0]
        reach = 2 * unit_mov(state, unit_id)
        if unit_gap(state, unit_id, nearest.id) <= reach:
            for a in acts:
                if a.action == "assault" and a.target == nearest.id:
                    return a
        their = state.fighter(nearest.leader)
        runs = [a for a in acts if a.action == "run"]
        if not runs:
            return acts[0]
        return min(runs, key=lambda a: ((a.x - their.x) ** 2 + (a.y - their.y) ** 2, a.x, a.y))
