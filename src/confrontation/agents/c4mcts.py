"""The search agent of C4 (``confrontation.c4``): UCT over ``c4.step`` with greedy rollouts.

Only a unit's action (``UnitAction``, ``# C4 Activating Unit``) is searched; every other
question (sequences, cards, Authority) is answered as :class:`~.c4.C4GreedyAgent` answers it.

- **candidates**: the greedy answer first, then every assault, the two shots expected to do
  the most damage, holding, and the run and walk that bring the leader nearest the nearest
  enemy (at most :data:`MAX_CANDIDATES`; a question with one candidate is not searched);
- **position**: the player's view (:func:`~confrontation.c4.views.redact`, applied again to
  whatever state the agent is given, so its answer depends only on the view and its seed);
- **determinizations**: each iteration plays on a game the view could be, the secrets the
  player cannot see (the other player's unrevealed sequence and reserve, Marauder's deck and
  the card drawn but not shown) dealt at random by :func:`~confrontation.c4.determinize.
  determinize` from the iteration's dice — the same deal whichever candidate the iteration
  tries (common random numbers);
- **iterations**: UCB1 at the root picks a candidate (each is tried once first); the game is
  then played on by greedy players for both sides, every die drawn from the agent's own
  roller keyed to the decision and iteration, up to the horizon: the end of the round (or of
  the game), at most ``max_steps`` steps;
- **value**: the change of material (:func:`material`: fighters, and a little for their
  health; one's own minus the enemy's, over what both had at the root), plus 1 for a game won
  and -1 for one lost, clipped to [-1, 1]; the candidate tried most often is played (ties:
  the higher mean, then the earlier candidate).

The budget is a number of iterations (:data:`DEFAULT_ITERATIONS`), so games are reproducible
whatever the machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from confrontation.agents.c4 import C4GreedyAgent, expected_salvo
from confrontation.c4.actions import enemies, unit_gap
from confrontation.c4.choices import UnitAction
from confrontation.c4.control import scores
from confrontation.c4.determinize import determinize
from confrontation.c4.state import C4State
from confrontation.c4.step import is_over, question, roll, step
from confrontation.c4.views import redact
from confrontation.dice import SeededRoller
from confrontation.engine.core.questions import Choice, Question

DEFAULT_ITERATIONS = 12
"""Rollouts per searched decision."""
MAX_CANDIDATES = 6
EXPLORATION = 0.7
"""UCB1's exploration constant (values lie in [-1, 1])."""


def material(state: C4State, me: int) -> tuple[float, float]:
    """(my fighters, the enemies' fighters), each fighter counted 1 plus a tenth of his
    health points (the default battle is won on fighters left, ``c4.control``)."""
    mine = theirs = 0.0
    owner = {u.id: u.owner for u in state.units}
    for f in state.fighters:
        worth = 1.0 + 0.1 * f.health
        if owner[f.unit] == me:
            mine += worth
        else:
            theirs += worth
    return mine, theirs


def value(root: C4State, final: C4State, me: int) -> float:
    """How much better ``final`` is than ``root`` for ``me``, in [-1, 1]."""
    mine0, theirs0 = material(root, me)
    mine1, theirs1 = material(final, me)
    score = 2.0 * ((mine1 - mine0) - (theirs1 - theirs0)) / max(1.0, mine0 + theirs0)
    if is_over(final):
        left = scores(final)
        best = max(left)
        if left.count(best) == 1:
            score += 1.0 if left[me] == best else -1.0
    return max(-1.0, min(1.0, score))


def candidates(state: C4State, acts: Sequence[UnitAction], greedy: UnitAction) -> list[UnitAction]:
    """The answers worth searching (see the module docstring), greedy's first."""
    unit = state.unit(acts[0].unit)
    chosen: list[UnitAction] = [greedy]

    def add(a: UnitAction | None) -> None:
        if a is not None and a not in chosen and len(chosen) < MAX_CANDIDATES:
            chosen.append(a)

    for a in acts:
        if a.action == "assault":
            add(a)
    shots = [
        (v, i, a)
        for i, a in enumerate(acts)
        if a.action == "walk_shoot"
        and a.target is not None
        and (v := expected_salvo(state, a.unit, a.target)) > 0
    ]
    for _, _, a in sorted(shots, key=lambda s: (-s[0], s[1]))[:2]:
        add(a)
    add(next((a for a in acts if a.action == "hold"), None))
    foes = sorted(enemies(state, unit), key=lambda e: (unit_gap(state, unit.id, e.id), e.id))
    if foes:
        their = state.fighter(foes[0].leader)
        for kind in ("run", "walk"):
            moves = [a for a in acts if a.action == kind]
            if moves:
                add(min(moves, key=lambda a: (a.x - their.x) ** 2 + (a.y - their.y) ** 2))
    return chosen


class C4MctsAgent:
    """The C4 search player (see the module docstring)."""

    name = "mcts"

    def __init__(
        self, seed: int = 0, iterations: int = DEFAULT_ITERATIONS, max_steps: int = 150
    ) -> None:
        self.seed = seed
        self.iterations = iterations
        self.max_steps = max_steps
        self.decisions = 0
        self.searched = 0
        self.last_search: tuple[tuple[int, ...], tuple[float, ...]] = ((), ())
        """The last search's visits and value totals per candidate."""

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        if question.player is not None:
            state = redact(state, question.player)
        greedy = C4GreedyAgent(self.seed).choose(state, question, legal)
        decision = self.decisions
        self.decisions += 1
        if not isinstance(greedy, UnitAction) or question.player is None:
            return greedy
        acts = [c for c in legal if isinstance(c, UnitAction)]
        options = candidates(state, acts, greedy)
        if len(options) < 2 or self.iterations < 1:
            return greedy
        self.searched += 1
        return self.search(state, question.player, options, decision)

    def search(
        self, state: C4State, me: int, options: Sequence[UnitAction], decision: int
    ) -> UnitAction:
        """UCB1 over ``options`` with greedy rollouts; the most tried one."""
        visits = [0] * len(options)
        totals = [0.0] * len(options)
        for i in range(self.iterations):
            if i < len(options):
                k = i
            else:
                log_n = math.log(i)
                k = max(
                    range(len(options)),
                    key=lambda j: (
                        totals[j] / visits[j] + EXPLORATION * math.sqrt(log_n / visits[j]),
                        -j,
                    ),
                )
            dice = SeededRoller.keyed(self.seed, f"c4-mcts-{decision}-{i}")
            world = determinize(state, me, dice)
            totals[k] += self._rollout(state, world, options[k], me, dice)
            visits[k] += 1
        self.last_search = (tuple(visits), tuple(totals))
        best = max(
            range(len(options)),
            key=lambda j: (visits[j], totals[j] / max(1, visits[j]), -j),
        )
        return options[best]

    def _rollout(
        self, root: C4State, world: C4State, first: UnitAction, me: int, dice: SeededRoller
    ) -> float:
        """``first`` then greedy play in ``world`` (a determinization of ``root``) to the
        horizon; its value against ``root``."""
        state, _ = step(world, first)
        players = [C4GreedyAgent(self.seed + p) for p in range(root.players)]
        start_round = root.round
        steps = 0
        while not is_over(state) and state.round == start_round and steps < self.max_steps:
            asked = question(state)
            assert asked is not None
            if asked.player is None:
                state, _ = roll(state, dice)
            else:
                state, _ = step(state, players[asked.player].choose(state, asked, asked.choices))
            steps += 1
        return value(root, state, me)
