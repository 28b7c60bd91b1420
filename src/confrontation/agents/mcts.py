"""The search agent: Monte Carlo tree search over the engine.

At the decisions that matter (by default the questions of the combat phase, where a choice
changes who dies; see :data:`SEARCHED`) the agent runs an open-loop UCT search:

- **determinization**: every iteration starts from a copy of the position the player sees
  (:func:`~confrontation.engine.views.redact`) whose hidden part — the opponent's activation
  sequence order, his reserve card, the order of the sequence he is building — is filled in
  at random, consistently with what is known (:func:`determinize`);
- **chance**: every die is drawn from :func:`~confrontation.engine.step.outcomes` with the
  agent's own seeded roller;
- **tree**: the nodes are sequences of decisions (open loop: the statistics of a decision
  average over the dice and the hidden cards); both players' decisions are in the tree, each
  chosen by UCT from its own player's point of view; a question with one legal answer is
  answered without a node; a new node is first tried with the greedy agent's answer;
- **rollout**: from the new node both players play with the rollout policy (``greedy`` or
  ``random``) up to the horizon — the end of the combat the search started in (its pursuit
  imagined as staying in place), else of the phase (or the game), at most ``max_steps``
  steps — and the position is scored by the change of material
  (:func:`~confrontation.agents.assess.material`: worth of the fighters, wounds, scenario
  points) squashed into [-1, 1].

The budget is a number of iterations (default :data:`DEFAULT_ITERATIONS`), so games are
reproducible whatever the machine; a time budget (seconds) may be added on top. Every other
question is answered by the greedy agent.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from confrontation.agents.assess import material
from confrontation.agents.greedy import GreedyAgent
from confrontation.agents.random import RandomAgent, uniform_index
from confrontation.dice import Roller, SeededRoller
from confrontation.engine.combat_phase import register_pursuits, stay_in_place
from confrontation.engine.melee import Combat
from confrontation.engine.questions import Choice, DieFace, Question
from confrontation.engine.state import GameState, Phase, opponent
from confrontation.engine.step import Agent, is_chance, is_over, legal, outcomes, question, step

SEARCHED: frozenset[str] = frozenset({"allocate_dice", "defend", "make_attack"})
"""The questions the search answers by default: the decisions inside a combat (VII-C)."""

DEFAULT_ITERATIONS = 48
"""Iterations per searched decision: a 6-round game of the demo armies stays well under a
minute on one core (docs/ai.md)."""

EXPLORATION = 1.0
"""The UCT constant (values lie in [-1, 1])."""

OVERRULE = 1.5
"""How many standard errors better the searched answer must be to overrule the greedy one
(a small search is noisy: docs/ai.md)."""

SCALE = 10.0
"""Material change (AP) that counts as a clear gain: values are ``tanh(change / SCALE)``."""


@dataclass
class Node:
    """One decision sequence of the open-loop tree, from the searching player's view."""

    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    children: dict[Choice, Node] = field(default_factory=dict)

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def variance_of_mean(self) -> float:
        """The squared standard error of :meth:`mean` (1 with fewer than two visits)."""
        if self.visits < 2:
            return 1.0
        spread = max(self.squares / self.visits - self.mean() ** 2, 0.0)
        return spread / (self.visits - 1)


class MctsAgent:
    """UCT search at the questions of ``kinds``; the greedy agent elsewhere."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        player: int | None = None,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        rollout: str = "greedy",
        kinds: Sequence[str] | None = None,
        max_steps: int = 300,
        exploration: float = EXPLORATION,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if rollout not in ("greedy", "random"):
            raise ValueError(f"rollout must be 'greedy' or 'random', not {rollout!r}")
        self.roller: Roller = SeededRoller(seed)
        self.player = player
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.kinds = frozenset(kinds) if kinds is not None else SEARCHED
        self.max_steps = max_steps
        self.exploration = exploration
        self.greedy = GreedyAgent(seed + 1, player)
        self.policies: list[Agent] = (
            [GreedyAgent(seed + 2, 0), GreedyAgent(seed + 3, 1)]
            if rollout == "greedy"
            else [RandomAgent(seed + 2), RandomAgent(seed + 3)]
        )
        self.searched = 0
        self._fight: Combat | None = None
        """How many decisions the search made (for reports)."""

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        """The most visited answer of the search, or the greedy answer."""
        if len(legal) == 1:
            return legal[0]
        if question.kind not in self.kinds or question.player is None:
            return self.greedy.choose(state, question, legal)
        self.searched += 1
        return self.search(state, question.player, legal)

    # --- the search --------------------------------------------------------------------------

    def search(self, state: GameState, me: int, options: Sequence[Choice]) -> Choice:
        """Open-loop UCT from ``state`` for player ``me`` over ``options``."""
        root = Node()
        base = material(state, me)
        start_phase = state.phase
        self._fight = _fight_of(state)
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        # Imagined pursuits stay in place: the horizon is reached when a combat's pursuit
        # begins, so the search needs no pursuit geometry (VII-C-6).
        with register_pursuits(stay_in_place):
            for _ in range(self.iterations):
                self._iterate(root, determinize(state, me, self.roller), me, base, start_phase)
                if deadline is not None and time.monotonic() > deadline:
                    break
        greedy = self.greedy.choose(state, _question_of(state), options)
        tried = [
            (root.children[c].visits, root.children[c].mean(), -i)
            for i, c in enumerate(options)
            if c in root.children
        ]
        if not tried:
            return greedy
        best = options[-max(tried)[2]]
        if best == greedy or greedy not in root.children:
            return best
        # The search overrules the greedy answer only when it is clearly better.
        a, b = root.children[best], root.children[greedy]
        error = math.sqrt(a.variance_of_mean() + b.variance_of_mean())
        return best if a.mean() - b.mean() > OVERRULE * error else greedy

    def _iterate(
        self, root: Node, state: GameState, me: int, base: float, start_phase: Phase
    ) -> None:
        path = [root]
        node = root
        steps = 0
        expanded = False
        while not self._stop(state, start_phase, steps):
            if is_chance(state):
                state = step(state, self._draw(state))[0]
                steps += 1
                continue
            choices = legal(state)
            if len(choices) == 1:
                state = step(state, choices[0])[0]
                steps += 1
                continue
            assert state.pending is not None and state.pending.player is not None
            player = state.pending.player
            untried = [c for c in choices if c not in node.children]
            if untried:
                choice = self._first_try(state, untried)
                child = Node()
                node.children[choice] = child
                path.append(child)
                state = step(state, choice)[0]
                steps += 1
                expanded = True
                break
            choice = self._select(node, choices, player == me)
            node = node.children[choice]
            path.append(node)
            state = step(state, choice)[0]
            steps += 1
        if expanded:
            state, steps = self._rollout(state, start_phase, steps)
        value = math.tanh((material(state, me) - base) / SCALE)
        for visited in path:
            visited.visits += 1
            visited.total += value
            visited.squares += value * value

    def _select(self, node: Node, choices: Sequence[Choice], mine: bool) -> Choice:
        """UCT: the mean from the deciding player's side plus the exploration bonus."""
        log_n = math.log(max(node.visits, 1))
        best: Choice = choices[0]
        best_score = -math.inf
        for c in choices:
            child = node.children[c]
            mean = child.mean() if mine else -child.mean()
            score = mean + self.exploration * math.sqrt(log_n / max(child.visits, 1))
            if score > best_score:
                best, best_score = c, score
        return best

    def _first_try(self, state: GameState, untried: Sequence[Choice]) -> Choice:
        """A new node: the greedy answer first, then the others in order."""
        asked = question(state)
        assert asked is not None and asked.player is not None
        guess = self.policies[asked.player].choose(state, asked, untried)
        return guess if guess in untried else untried[0]

    def _rollout(self, state: GameState, start_phase: Phase, steps: int) -> tuple[GameState, int]:
        while not self._stop(state, start_phase, steps):
            if is_chance(state):
                state = step(state, self._draw(state))[0]
            else:
                asked = question(state)
                assert asked is not None and asked.player is not None
                choices = asked.choices
                choice = (
                    choices[0]
                    if len(choices) == 1
                    else self.policies[asked.player].choose(state, asked, choices)
                )
                state = step(state, choice)[0]
            steps += 1
        return state, steps

    def _stop(self, state: GameState, start_phase: Phase, steps: int) -> bool:
        """The horizon: the end of the game, of the phase, of the combat the search started
        in (VII-C), or ``max_steps``."""
        if is_over(state) or state.phase is not start_phase or steps >= self.max_steps:
            return True
        if self._fight is None:
            return False
        fight = state.combat.fight if state.combat is not None else None
        # The combat is resolved once its pursuit begins (VII-C-6): wounds are all dealt.
        return fight is None or fight.combat != self._fight or fight.stage == "pursuit"

    def _draw(self, state: GameState) -> Choice:
        """A die face drawn from the exact distribution of the pending die."""
        faces = outcomes(state)
        return draw(self.roller, faces)


def _fight_of(state: GameState) -> Combat | None:
    """The combat being resolved (VII-C), if any."""
    if state.combat is None or state.combat.fight is None:
        return None
    return state.combat.fight.combat


def draw(roller: Roller, faces: Sequence[tuple[DieFace, Fraction]]) -> DieFace:
    """One of ``faces`` with its probability (a common denominator drawn with d6s)."""
    denominator = math.lcm(*(p.denominator for _, p in faces))
    ticket = uniform_index(roller, denominator)
    for face, p in faces:
        share = int(p * denominator)
        if ticket < share:
            return face
        ticket -= share
    return faces[-1][0]


def determinize(state: GameState, me: int, roller: Roller) -> GameState:
    """A full position consistent with what ``me`` knows: the opponent's hidden sequence
    (and reserve card, and the sequence he is building) shuffled with ``roller``."""
    other = opponent(me)
    side = state.side(other)
    pool = list(side.deck) + ([side.reserve] if side.reserve is not None else [])
    if len(pool) > 1:
        _shuffle(pool, roller)
        if side.reserve is not None:
            side = dataclasses.replace(side, reserve=pool[0], deck=tuple(pool[1:]))
        else:
            side = dataclasses.replace(side, deck=tuple(pool))
        state = state.with_side(side)
    if state.strategic is not None and len(state.strategic.building[other]) > 1:
        building = list(state.strategic.building)
        cards = list(building[other])
        _shuffle(cards, roller)
        building[other] = tuple(cards)
        strategic = dataclasses.replace(state.strategic, building=(building[0], building[1]))
        state = dataclasses.replace(state, strategic=strategic)
    return state


def _shuffle(items: list[str], roller: Roller) -> None:
    """Fisher-Yates with the d6 roller."""
    for i in range(len(items) - 1, 0, -1):
        j = uniform_index(roller, i + 1)
        items[i], items[j] = items[j], items[i]


def _question_of(state: GameState) -> Question:
    asked = question(state)
    assert asked is not None
    return asked
