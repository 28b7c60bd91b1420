"""The search agent: Monte Carlo tree search over the engine.

At the decisions that matter (by default the questions of the combat phase, where a choice
changes who dies; see :data:`SEARCHED`) the agent runs an open-loop UCT search:

- **determinization**: every iteration starts from a copy of the position the player sees
  (:func:`~confrontation.engine.core.views.redact`) whose hidden part — the other players'
  activation sequence orders, their reserve cards, the order of the sequences they are
  building — is filled in at random, consistently with what is known (:func:`determinize`);
- **chance**: every die is drawn from :func:`~confrontation.engine.step.outcomes` with the
  agent's own seeded roller;
- **tree**: the nodes are sequences of decisions (open loop: the statistics of a decision
  average over the dice and the hidden cards); every player's decisions are in the tree,
  the searching player's chosen by UCT to raise his value, every other player's to lower it
  — with two players, each from his own point of view; with three or more (XX-F), a
  *paranoid* search, the others a coalition against him (``opponent_tree=False``: the
  others answer there as the greedy agent would); a question with one legal answer is
  answered without a node; a new node is first tried with the greedy agent's answer;
- **rollout**: from the new node every player plays with the rollout policy (``greedy`` or
  ``random``) up to the horizon — the end of the combat the search started in (its pursuit
  imagined as staying in place), else of the phase (or the game), at most ``max_steps``
  steps — and the position is scored by the change of material
  (:func:`~confrontation.agents.assess.material`: worth of the fighters, wounds, scenario
  points) squashed into [-1, 1].

The budget is a number of iterations (default :data:`DEFAULT_ITERATIONS`), so games are
reproducible whatever the machine; a time budget (seconds) may be added on top. In the last
``finale_rounds`` rounds of a scenario won on areas the decisions that place the fighters are
searched to the end of the game and judged by its result (:meth:`MctsAgent.stand`,
:mod:`~confrontation.agents.endgame`). With ``announcements=True`` the decisions of the
activation phase that decide who strikes first (IV-B) are searched too
(:meth:`MctsAgent.announce`; with ``fights="expected"`` the fights they form are scored by
their expected exchange, :mod:`~confrontation.agents.fights`, instead of rolled). Every
other question is answered by the greedy agent.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from confrontation.agents import endgame
from confrontation.agents.assess import blow_of, charge_reach, duel, gap, material
from confrontation.agents.fights import exchange
from confrontation.agents.greedy import GreedyAgent, charged_blow
from confrontation.agents.random import RandomAgent, uniform_index
from confrontation.dice import Roller, SeededRoller
from confrontation.engine.combat.phase import stay_in_place
from confrontation.engine.core.combat_state import FightStage
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.melee import Combat
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    DieFace,
    Question,
)
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import MAX_PLAYERS, ActivationStage, GameState, Phase
from confrontation.engine.step import (
    brief_question,
    is_chance,
    is_over,
    legal,
    outcomes,
    question,
    step,
)
from confrontation.engine.table.field import field_of

SEARCHED: frozenset[str] = frozenset(
    {
        QuestionKind.ALLOCATE_DICE,
        QuestionKind.DEFEND,
        QuestionKind.MAKE_ATTACK,
        QuestionKind.NAME_FIGHTER,
    }
)
"""The questions the search answers by default: the decisions inside a combat (VII-C), where a
choice changes who dies — the dice, the defences, the attacks, who rolls the initiative."""

KEYS = 6**10
"""Sweep keys are drawn in ``range(KEYS)`` with the agent's roller."""

DEFAULT_ITERATIONS = 96
"""Imagined games per searched decision of a combat, shared out evenly among its options (at
least two each): a game takes about 20 s of thinking (docs/ai.md)."""

EXPLORATION = 1.0
"""The UCT constant (values lie in [-1, 1])."""

OVERRULE = 1.0
"""How many standard errors (of the paired differences) better the searched answer must be
to overrule the greedy one (a small search is noisy: docs/ai.md)."""

SCALE = 10.0
"""Material change (AP) that counts as a clear gain: values are ``tanh(change / SCALE)``."""

ASSAULTS = frozenset({"charge", "engage"})
"""Announcements that start a fight (V-B-3): where the search looks in the activation phase."""

WIDTH = 5
"""Options imagined at most in the activation phase: the greedy answer, announcing nothing
more and the best assaults in reach (or every answer at the floor)."""

ANNOUNCE_SWEEPS = 8
"""Imagined games for the greedy answer and its best rival in the activation phase, each to
the end of the combat phase (0.1-0.4 s apiece)."""

FINALE_SWEEPS = 6
"""Imagined games per option of a movement decision of the last rounds, each to the end of
the game (:mod:`~confrontation.agents.endgame`): 0.01-0.1 s apiece from the last round,
0.1-0.3 s from the one before."""

FINALE_WIDTH = 7
"""Options imagined at most for a movement decision of the last rounds."""

WIN = 200.0
"""What winning the game is worth (AP) to the search, a loss as much against it (a whole
army's worth: no fight of the last round is worth the game)."""

FINALE_ROUNDS = 2
"""The last rounds whose movement decisions are searched to the end of the game (never the
first of a game of several rounds: :func:`~confrontation.agents.endgame.last_round`)."""

FINALE_FINALS = 0
"""Further imagined games, to the end of the game, for the greedy answer and the best other
of a movement decision of the last rounds (a final between the two)."""

FINALE_STEPS = 20_000
"""The step limit of an imagined game of the last rounds' search (the rest of the game)."""

PRUNE_AFTER = 2
"""Sweeps after which an option clearly worse than the greedy answer stops being imagined
(a race, :meth:`MctsAgent.samples`; 0 imagines every option in every sweep)."""

PRUNE_Z = 1.0
"""How many standard errors (of the paired differences) below the greedy answer an option
must be to leave the race."""

TIE_AFTER = 4
"""Sweeps in which an option met exactly the greedy answer's outcome, world by world, after
which it leaves the race (it changes nothing there)."""

WIN_Z = 3.0
"""How many standard errors above the greedy answer an option must be for the race to end
at once (0: never)."""

ANNOUNCE_RACE = (0.0, 3, 2.0)
"""``prune_z``, ``tie_after`` and ``win_z`` of the activation phase's race (issue 22, fifth
round: the full search's decisions kept at a lower cost, docs/ai.md "The race")."""

FINALE_RACE = (0.0, 2, 2.0)
"""``prune_z``, ``tie_after`` and ``win_z`` of the last rounds' race: most of their options
end the game exactly as the greedy answer does, world by world."""


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


MAX_ITERATIONS = 100_000
"""``iterations`` beyond this is refused: a search that would not end in any sensible time."""
MAX_SECONDS = 3600.0
"""``seconds`` of thinking a decision at most (an hour)."""
MAX_STEPS = 1_000_000
"""``max_steps`` of an imagined game at most."""
MAX_WIDTH = 1_000
"""The widths, sweeps and rounds of the search at most."""


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
        overrule: float = OVERRULE,
        tree: bool = True,
        outside_combat: bool = False,
        announcements: bool = True,
        width: int = WIDTH,
        announce_sweeps: int = ANNOUNCE_SWEEPS,
        finale: bool = True,
        finale_sweeps: int = FINALE_SWEEPS,
        finale_width: int = FINALE_WIDTH,
        finale_combat: bool = False,
        finale_rounds: int = FINALE_ROUNDS,
        finale_finals: int = FINALE_FINALS,
        finale_cards: bool = False,
        final_only: bool = False,
        fights: str = "expected",
        opponent_tree: bool = True,
        prune_after: int = PRUNE_AFTER,
        prune_z: float = PRUNE_Z,
        tie_after: int = TIE_AFTER,
        win_z: float = WIN_Z,
        announce_prune_z: float = ANNOUNCE_RACE[0],
        announce_tie_after: int = ANNOUNCE_RACE[1],
        announce_win_z: float = ANNOUNCE_RACE[2],
        finale_prune_z: float = FINALE_RACE[0],
        finale_tie_after: int = FINALE_RACE[1],
        finale_win_z: float = FINALE_RACE[2],
    ) -> None:
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"iterations must be 1 to {MAX_ITERATIONS}, not {iterations}")
        if fights not in ("rolled", "expected"):
            raise ValueError(f"fights must be 'rolled' or 'expected', not {fights!r}")
        if rollout not in ("greedy", "random"):
            raise ValueError(f"rollout must be 'greedy' or 'random', not {rollout!r}")
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(
                f"seconds must be more than 0 and at most {MAX_SECONDS}, not {seconds}"
            )
        if not 1 <= max_steps <= MAX_STEPS:
            raise ValueError(f"max_steps must be 1 to {MAX_STEPS}, not {max_steps}")
        if max(width, announce_sweeps, finale_sweeps, finale_width, finale_rounds) > MAX_WIDTH:
            raise ValueError(
                f"width, announce_sweeps, finale_sweeps, finale_width and finale_rounds are at "
                f"most {MAX_WIDTH}"
            )
        if not exploration >= 0 or not overrule >= 0:
            raise ValueError("exploration and overrule must be 0 or more")
        if finale_finals < 0:
            raise ValueError(f"finale_finals must be 0 or more, not {finale_finals}")
        if prune_after < 0 or min(tie_after, announce_tie_after, finale_tie_after) < 0:
            raise ValueError("prune_after and the tie_after options must be 0 or more")
        zs = (prune_z, win_z, announce_prune_z, announce_win_z, finale_prune_z, finale_win_z)
        if not all(z >= 0 for z in zs):
            raise ValueError("the prune_z and win_z options must be 0 or more")
        if finale_rounds < 1:
            raise ValueError(f"finale_rounds must be at least 1, not {finale_rounds}")
        if min(width, announce_sweeps, finale_sweeps, finale_width) < 2:
            raise ValueError(
                "width, announce_sweeps, finale_sweeps and finale_width must be at least 2, "
                f"not {width}, {announce_sweeps}, {finale_sweeps} and {finale_width}"
            )
        known = {kind.value for kind in QuestionKind}
        unknown = sorted(str(kind) for kind in kinds or () if kind not in known)
        if unknown:
            raise ValueError(
                f"kinds: no question kind {unknown[0]!r} (kinds: {', '.join(sorted(known))})"
            )
        self.roller: Roller = SeededRoller(seed)
        self.player = player
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.kinds = frozenset(kinds) if kinds is not None else SEARCHED
        self.max_steps = max_steps
        self.exploration = exploration
        self.overrule = overrule
        self.tree = tree
        self.outside_combat = outside_combat
        self.announcements = announcements
        self.width = width
        self.announce_sweeps = announce_sweeps
        self.finale = finale
        self.finale_sweeps = finale_sweeps
        self.finale_width = finale_width
        self.finale_combat = finale_combat
        self.finale_rounds = finale_rounds
        self.finale_finals = finale_finals
        self.finale_cards = finale_cards
        """The last rounds' activation sequences are searched too (IV-A-1)."""
        self.final_only = final_only
        """A final (``finale_finals``, the later sweeps of the activation search) is judged on
        its own games: the first sweeps chose the rival, so they flatter him."""
        self.fights = fights
        self.opponent_tree = opponent_tree
        """The other players' decisions in the tree are searched too (UCT, against the
        searching player's value); else they answer there as the greedy agent would."""
        self.prune_after = prune_after
        """The race (:meth:`samples`) starts after this many sweeps (0: no race)."""
        self.prune_z = prune_z
        self.tie_after = tie_after
        self.win_z = win_z
        self.announce_race = (announce_prune_z, announce_tie_after, announce_win_z)
        """``prune_z``, ``tie_after`` and ``win_z`` of the activation phase's race."""
        self.finale_race = (finale_prune_z, finale_tie_after, finale_win_z)
        """``prune_z``, ``tie_after`` and ``win_z`` of the last rounds' race."""
        self._expected = False
        """The search under way stops where the combat phase begins and scores the fights
        formed by their expected exchange (``fights="expected"``, the activation phase)."""
        self._to_the_end = False
        """The search under way imagines its games to the end (the last rounds, ``finale``)."""
        self.greedy = GreedyAgent(seed + 1, player)
        self.policies: list[GreedyAgent | RandomAgent] = [
            GreedyAgent(seed + 2 + p, p) if rollout == "greedy" else RandomAgent(seed + 2 + p)
            for p in range(MAX_PLAYERS)
        ]
        """The rollout policy of each player (XX-F: up to six)."""
        self.searched = 0
        """How many decisions the search made (for reports)."""
        self.overruled = 0
        """How many of them were not the greedy answer."""
        self._fight: Combat | None = None
        self._dice: KeyedDice | None = None

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        """The searched answer where the search looks, else the greedy answer."""
        if len(legal) == 1:
            return legal[0]
        if (
            self.finale
            and question.player is not None
            and endgame.searched(state, question, self.finale_rounds, self.finale_cards)
        ):
            return self.stand(state, question, legal)
        if (
            self.announcements
            and question.player is not None
            and (
                _assaults(state, legal)
                or (question.kind == QuestionKind.FLOOR and _within_reach(state))
            )
        ):
            return self.announce(state, question, legal)
        if question.kind not in self.kinds or question.player is None:
            return self.greedy.choose(state, question, legal)
        if not self.outside_combat and _fight_of(state) is None:
            # Outside a combat being resolved (the Authority roll, the order of the combats,
            # the separation of melees) the outcome turns on pursuits, which the search
            # imagines staying in place: it cannot judge them (docs/ai.md).
            return self.greedy.choose(state, question, legal)
        self.searched += 1
        # finale_combat: the last round's combats are imagined to the end of the game
        whole = self.finale and self.finale_combat and endgame.last_round(state)
        return self.search(state, question.player, legal, whole_game=whole)

    # --- the search --------------------------------------------------------------------------

    def search(
        self, state: GameState, me: int, options: Sequence[Choice], whole_game: bool = False
    ) -> Choice:
        """Every option in every sweep, in the same imagined world with the same dice; the
        greedy answer unless another is clearly better."""
        greedy = self.greedy.choose(state, _question_of(state), options)
        sweeps = max(2, self.iterations // len(options))
        samples = self.samples(state, me, options, sweeps, whole_game, greedy=greedy)
        return self._verdict(options, samples, greedy)

    def announce(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        """IV-B: a decision of the activation phase that decides who strikes first — an
        announcement where an assault is possible (who charges whom, or nobody yet; V-B-3) or,
        the armies within reach, whether to play a card now or hold it back (IV-B-1). The
        greedy answer and a few others (:meth:`candidates`), each imagined to the end of the
        combat phase: two sweeps of them all, then the greedy answer and the best other for
        the rest of ``announce_sweeps``; the greedy answer unless the other is clearly
        better."""
        me = question.player
        assert me is not None
        greedy = self.greedy.choose(state, question, legal)
        options = self.candidates(state, legal, greedy)
        if len(options) == 1:
            return greedy
        self.searched += 1
        expected = self.fights == "expected"
        return self._final(
            state, me, options, greedy, 2, self.announce_sweeps - 2, expected=expected
        )

    def stand(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        """III-A-2: a movement decision of the last rounds of a scenario won on areas — the
        greedy answer and a few others (:func:`~confrontation.agents.endgame.candidates`),
        each imagined to the end of the game in ``finale_sweeps`` sweeps and judged by the
        result (:data:`WIN`) and the material; the greedy answer unless another is clearly
        better."""
        me = question.player
        assert me is not None
        greedy = self.greedy.choose(state, question, legal)
        assaults = ranked_assaults(state, legal, greedy)[:2]
        options = endgame.candidates(state, legal, greedy, self.finale_width, assaults)
        if len(options) == 1:
            return greedy
        self.searched += 1
        return self._final(
            state, me, options, greedy, self.finale_sweeps, self.finale_finals, whole_game=True
        )

    def _final(
        self,
        state: GameState,
        me: int,
        options: Sequence[Choice],
        greedy: Choice,
        sweeps: int,
        finals: int,
        whole_game: bool = False,
        expected: bool = False,
    ) -> Choice:
        """``sweeps`` sweeps of every option, then ``finals`` more of the greedy answer and
        the best other (a final between the two); the paired verdict on all their games."""
        samples = self.samples(state, me, options, sweeps, whole_game, expected, greedy)
        if finals < 1:
            return self._verdict(options, samples, greedy)
        rivals = [c for c in _raced(options, samples, greedy) if c != greedy]
        if not rivals:
            return greedy
        rival = max(rivals, key=lambda c: statistics.fmean(samples[c]))
        finalists = [greedy, rival]
        # the race goes on into the final: a rival already out never plays it
        raced = self.prune_after > 0 and len(samples[greedy]) >= max(2, self.prune_after)
        settings = self._settings(whole_game, expected)
        if raced and len(self._race(finalists, samples, greedy, settings)[0]) == 1:
            return greedy
        more = self.samples(
            state, me, finalists, finals, whole_game, expected, greedy, earlier=samples
        )
        if self.final_only and finals >= 2:
            return self._verdict(finalists, more, greedy)
        for c in finalists:
            samples[c] += more[c]
        return self._verdict(finalists, samples, greedy)

    def candidates(self, state: GameState, legal: Sequence[Choice], greedy: Choice) -> list[Choice]:
        """The answers worth imagining, ``width`` at most, the greedy answer first. For an
        announcement: announcing nothing more, and the assaults in reach (straight line,
        MOV x 2) with the best duels for the assaulter (V-B-3, the charge penalty on the
        target) — of the fighter the greedy answer names, else of any fighter of the card.
        For the floor (IV-B-1): every answer."""
        if not isinstance(greedy, Announce | AnnouncementsDone):
            return [greedy, *[c for c in legal if c != greedy][: self.width - 1]]
        options: list[Choice] = [greedy]
        if AnnouncementsDone() in legal and greedy != AnnouncementsDone():
            options.append(AnnouncementsDone())
        options += [c for c in ranked_assaults(state, legal, greedy) if c != greedy]
        return options[: self.width]

    def samples(
        self,
        state: GameState,
        me: int,
        options: Sequence[Choice],
        sweeps: int,
        whole_game: bool = False,
        expected: bool = False,
        greedy: Choice | None = None,
        earlier: dict[Choice, list[float]] | None = None,
    ) -> dict[Choice, list[float]]:
        """Each option's material change (AP) for ``me`` in ``sweeps`` imagined games, to the
        end of the game if ``whole_game``, to the start of the combat phase with the fights
        formed scored by their expected exchange if ``expected`` (an activation-phase
        search), else to the usual horizon; the k-th game of every option is played in the
        same world with the same dice. The time limit (``seconds``) may end it after two
        sweeps.

        Given the ``greedy`` answer, the sweeps are a race (:meth:`_race`): from
        ``prune_after`` sweeps on, an option that cannot overrule the greedy answer leaves
        (its list stops short), and the search ends when the greedy answer is alone or an
        option beats it by ``win_z`` standard errors; the race counts the ``earlier`` games
        of the options too (a final's first sweeps)."""
        self._to_the_end = whole_game
        self._expected = expected
        base = self._value(state, me)
        start_phase = state.phase
        self._fight = _fight_of(state)
        subtrees = {c: Node() for c in options}
        samples: dict[Choice, list[float]] = {c: [] for c in options}
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        # Imagined pursuits stay in place: the horizon is reached when a combat's pursuit
        # begins, so the search needs no pursuit geometry (VII-C-6).
        imagined = rules_of(state).with_pursuits(stay_in_place)
        racing = list(options)
        settings = self._settings(whole_game, expected)
        for sweep in range(sweeps):
            key = uniform_index(self.roller, KEYS)
            world = determinize(state, me, SeededRoller.keyed(key, "hidden"))
            world = with_rules(world, imagined)
            for choice in racing:
                self._dice = KeyedDice(key)
                for p, policy in enumerate(self.policies[: len(world.players)]):
                    policy.roller = SeededRoller.keyed(key, f"policy {p}")
                after = step(world, choice)[0]
                change = self._iterate(subtrees[choice], after, me, base, start_phase)
                samples[choice].append(change)
            if deadline is not None and sweep >= 1 and time.monotonic() > deadline:
                break
            if (
                greedy is not None
                and self.prune_after > 0
                and max(2, self.prune_after) <= sweep + 1 + _games(earlier, greedy)
                and sweep + 1 < sweeps
            ):
                so_far = samples
                if earlier is not None:
                    so_far = {c: earlier[c] + samples[c] for c in racing}
                racing, won = self._race(racing, so_far, greedy, settings)
                if won or len(racing) == 1:
                    break
        self._dice = None
        self._to_the_end = self._expected = False
        return samples

    def _settings(self, whole_game: bool, expected: bool) -> tuple[float, int, float]:
        """``prune_z``, ``tie_after`` and ``win_z`` of a search's race: the last rounds'
        (``whole_game``), the activation phase's (``expected``) or the combat's."""
        if whole_game:
            return self.finale_race
        if expected:
            return self.announce_race
        return (self.prune_z, self.tie_after, self.win_z)

    def _race(
        self,
        racing: Sequence[Choice],
        samples: dict[Choice, list[float]],
        greedy: Choice,
        settings: tuple[float, int, float] | None = None,
    ) -> tuple[list[Choice], bool]:
        """The options still worth imagining, and whether one has already won: an option
        leaves when its paired differences with the greedy answer (same worlds, same dice)
        are ``prune_z`` standard errors below zero, or all zero for ``tie_after`` sweeps (it
        changes nothing); it wins when they are ``win_z`` standard errors above zero. The
        greedy answer stays. ``settings`` are those three (default: the combat's)."""
        prune_z, tie_after, win_z = settings or (self.prune_z, self.tie_after, self.win_z)
        kept: list[Choice] = []
        won = False
        base = samples[greedy]
        for c in racing:
            if c == greedy:
                kept.append(c)
                continue
            diffs = [a - b for a, b in zip(samples[c], base, strict=True)]
            if not any(diffs):
                if len(diffs) < tie_after:
                    kept.append(c)
                continue
            gain = statistics.fmean(diffs)
            error = statistics.stdev(diffs) / math.sqrt(len(diffs))
            if gain + prune_z * error < 0:
                continue
            if win_z > 0 and gain - win_z * error > 0:
                won = True
            kept.append(c)
        return kept, won

    def _verdict(
        self, options: Sequence[Choice], samples: dict[Choice, list[float]], greedy: Choice
    ) -> Choice:
        """The best mean, if it beats the greedy answer by :data:`OVERRULE` standard errors
        of the paired differences (same worlds, same dice); else the greedy answer. An
        option that left the race early (fewer games than the greedy answer) is out."""
        options = _raced(options, samples, greedy)
        means = {c: statistics.fmean(samples[c]) for c in options}
        best = max(options, key=lambda c: (means[c], c == greedy))
        if best == greedy:
            return greedy
        diffs = [a - b for a, b in zip(samples[best], samples[greedy], strict=True)]
        gain = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / math.sqrt(len(diffs))
        if gain > self.overrule * error:
            self.overruled += 1
            return best
        return greedy

    def _iterate(
        self, node: Node, state: GameState, me: int, base: float, start_phase: Phase
    ) -> float:
        """One imagined game from ``state`` (an option just played): down the option's
        subtree by UCT (``tree``), then the rollout; the material change (AP)."""
        path = [node]
        steps = 1
        # The tree spans the combat being resolved; a decision outside any combat (the
        # Authority roll, the order of the combats) is judged by rollouts alone.
        expanded = not self.tree or self._fight is None
        while not expanded and not self._stop(state, start_phase, steps, whole=False):
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
            if player != me and not self.opponent_tree:
                # another player answers as the greedy agent would (open loop over his answers)
                asked = question(state)
                assert asked is not None
                state = step(state, self.policies[player].choose(state, asked, choices))[0]
                steps += 1
                continue
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
        state, steps = self._rollout(state, start_phase, steps)
        change = self._value(state, me) - base
        value = math.tanh(change / SCALE)
        for visited in path:
            visited.visits += 1
            visited.total += value
            visited.squares += value * value
        return change

    def _value(self, state: GameState, me: int) -> float:
        """The material (AP) and the result of a game over (:data:`WIN`); for an
        activation-phase search with ``fights="expected"``, plus the expected exchange of
        the fights formed (:func:`~confrontation.agents.fights.exchange`)."""
        value = material(state, me) + outcome(state, me)
        if self._expected:
            value += exchange(state, me)
        return value

    def _select(self, node: Node, choices: Sequence[Choice], mine: bool) -> Choice:
        """UCT: the mean from the deciding player's side plus the exploration bonus. With
        three players or more the search is *paranoid* (docs/ai.md): every other player
        decides as if to minimise the searching player's value."""
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
                # the policies read the choices, not their wording (``judges_choices``): the
                # brief question spares describing every move (the engine's own play does so)
                brief = brief_question(state)
                assert brief is not None
                asked, choices = brief
                assert asked.player is not None
                choice = (
                    choices[0]
                    if len(choices) == 1
                    else self.policies[asked.player].choose(state, asked, choices)
                )
                state = step(state, choice)[0]
            steps += 1
        return state, steps

    def _stop(self, state: GameState, start_phase: Phase, steps: int, whole: bool = True) -> bool:
        """The horizon: the end of the game, of the phase (of the combat phase that follows,
        for a decision of the activation phase: the fights it starts), of the combat the
        search started in (VII-C), or ``max_steps``. For the last rounds' decisions
        (``finale``, III-A-2: the areas are counted at the end) the end of the game, except
        for the tree (``whole`` false), which stays within the combat."""
        if is_over(state):
            return True
        if self._to_the_end and whole:
            return steps >= FINALE_STEPS
        if steps >= self.max_steps:
            return True
        if start_phase is Phase.ACTIVATION:
            if self._expected:  # the fights formed are scored, not rolled
                return state.phase is not Phase.ACTIVATION
            return state.phase not in (Phase.ACTIVATION, Phase.COMBAT)
        if state.phase is not start_phase:
            return True
        if self._fight is None:
            return False
        fight = state.combat.fight if state.combat is not None else None
        # The combat is resolved once its pursuit begins (VII-C-6): wounds are all dealt.
        return fight is None or fight.combat != self._fight or fight.stage == FightStage.PURSUIT

    def _draw(self, state: GameState) -> Choice:
        """A die face drawn from the exact distribution of the pending die (keyed by the
        die's name during a search: common random numbers)."""
        faces = outcomes(state)
        if self._dice is None:
            return draw(self.roller, faces)
        asked = question(state)
        assert asked is not None
        return self._dice.draw(asked.prompt, faces)


@dataclass
class KeyedDice:
    """The dice of one sweep: the ``n``-th die named ``prompt`` ("attack test of Paladin
    (p2-c2-2)") is rolled from ``(key, prompt, n)`` alone, so every option of the sweep
    meets the same luck on the same rolls (common random numbers)."""

    key: int
    seen: Counter[str] = field(default_factory=Counter)

    def draw(self, prompt: str, faces: Sequence[tuple[DieFace, Fraction]]) -> DieFace:
        self.seen[prompt] += 1
        return draw(SeededRoller.keyed(self.key, f"{prompt}#{self.seen[prompt]}"), faces)


def ranked_assaults(state: GameState, legal: Sequence[Choice], greedy: Choice) -> list[Choice]:
    """The assaults among ``legal`` in reach (straight line, MOV x 2), best duel for the
    assaulter first (V-B-3: the charge penalty on the target; a charge counts 0.5 more) — of
    the fighter the greedy answer names, else of any fighter of the card."""
    scored: list[tuple[float, Choice]] = []
    for c in legal:
        if (
            isinstance(c, Announce)
            and c.action in ASSAULTS
            and c.method is None
            and not c.shoot
            and c.target is not None
            and (not isinstance(greedy, Announce) or c.fighter == greedy.fighter)
        ):
            fighter = state.fighter(c.fighter)
            if gap(state, c.fighter, c.target) <= charge_reach(state, fighter):
                target = state.fighter(c.target)
                edge = duel(blow_of(state, fighter), charged_blow(state, fighter, target))
                scored.append((edge + (0.5 if c.action == "charge" else 0.0), c))
    scored.sort(key=lambda vc: -vc[0])
    return [c for _, c in scored]


def _games(samples: dict[Choice, list[float]] | None, greedy: Choice | None) -> int:
    """How many games of the greedy answer ``samples`` hold (0 without them)."""
    if samples is None or greedy is None:
        return 0
    return len(samples[greedy])


def _raced(
    options: Sequence[Choice], samples: dict[Choice, list[float]], greedy: Choice
) -> list[Choice]:
    """The options imagined in every sweep the greedy answer was (still in the race)."""
    return [c for c in options if len(samples[c]) == len(samples[greedy])]


def outcome(state: GameState, me: int) -> float:
    """:data:`WIN` for a game ``me`` has won, minus it for a lost one, else 0."""
    if not is_over(state) or state.winner is None:
        return 0.0
    return WIN if state.winner == me else -WIN


def _assaults(state: GameState, legal: Sequence[Choice]) -> bool:
    """An announcement of the activation phase (IV-B-2) with an assault among its options."""
    return (
        state.phase is Phase.ACTIVATION
        and state.activation is not None
        and state.activation.current is not None
        and state.activation.current.stage == ActivationStage.ANNOUNCE
        and any(isinstance(c, Announce) and c.action in ASSAULTS for c in legal)
    )


def _within_reach(state: GameState) -> bool:
    """The activation phase, and two enemies free of contact with one in the other's assault
    reach (V-B-3: MOV x 2, straight line): whoever plays first may strike first."""
    if state.phase is not Phase.ACTIVATION or state.activation is None:
        return False
    here = field_of(state)
    free = [
        f
        for f in state.fighters
        if f.in_play and all(here.owners[c] == f.player for c in here.contacts(f.id))
    ]
    for f in free:
        reach = charge_reach(state, f)
        for e in free:
            if e.player != f.player and gap(state, f.id, e.id) <= reach:
                return True
    return False


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
    """A full position consistent with what ``me`` knows: every other player's hidden
    sequence (and reserve card, and the sequence he is building) shuffled with ``roller``,
    player after player."""
    for other in state.enemies(me):
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
            strategic = dataclasses.replace(state.strategic, building=tuple(building))
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
