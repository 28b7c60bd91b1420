"""The search agent: common random numbers, the paired overrule test, searches that find the
better answer when their fallback gives a bad one (a defence, an announcement)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest
from positions import duel_game, first_question, held_in_contact, position_in_game

from confrontation.agents.assess import charge_reach, gap
from confrontation.agents.greedy import GreedyAgent
from confrontation.agents.mcts import KeyedDice, MctsAgent, _assaults, _within_reach
from confrontation.engine.combat.phase import stay_in_place
from confrontation.engine.combat.questions import Defend
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    DieFace,
    Question,
)
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import GameState, Phase
from confrontation.engine.step import is_over, step

PAIR = (("p1-c1-1", "p2-c1-1"),)
D6 = [(DieFace(f), Fraction(1, 6)) for f in range(1, 7)]


def test_a_named_die_rolls_alike_whatever_was_rolled_before_it() -> None:
    one, other = KeyedDice(77), KeyedDice(77)
    first = [one.draw("attack test of A", D6), one.draw("wound roll of A on B", D6)]
    other.draw("defence test of B", D6)  # another die first: the named dice do not move
    second = [other.draw("attack test of A", D6), other.draw("wound roll of A on B", D6)]
    assert first == second
    # the n-th roll of a die is its own: a second attack test is another number
    rolls = [one.draw("attack test of A", D6) for _ in range(30)]
    assert len(set(rolls)) > 1


def test_other_sweeps_roll_other_dice() -> None:
    faces = {KeyedDice(key).draw("attack test of A", D6) for key in range(40)}
    assert len(faces) == 6


def _options() -> tuple[Choice, Choice]:
    return Defend(0), Defend(1)


@pytest.mark.parametrize(
    ("kept", "other", "expected"),
    [
        ([0.0, 0.0, 0.0, 0.0], [1.0, 1.2, 0.8, 1.0], 1),  # better in every world: overruled
        ([0.0, 0.0, 0.0, 0.0], [5.0, -5.0, 4.0, -3.0], 0),  # better on average, by noise only
        ([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], 0),  # a tie keeps the fallback answer
        ([1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0], 0),  # worse in every world
    ],
)
def test_the_fallback_answer_stands_unless_clearly_beaten(
    kept: list[float], other: list[float], expected: int
) -> None:
    options = _options()
    agent = MctsAgent(1, 0)
    choice = agent._verdict(options, {options[0]: kept, options[1]: other}, options[0])
    assert choice == options[expected]
    assert agent.overruled == (1 if expected else 0)


def test_the_race_drops_the_clearly_worse_and_the_same_and_stops_on_a_clear_winner() -> None:
    kept, worse, same, noisy, better = (Defend(n) for n in range(5))
    samples: dict[Choice, list[float]] = {
        kept: [1.0, 2.0, 3.0, 4.0],
        worse: [0.0, 1.0, 2.5, 3.0],  # below the greedy answer in every world
        same: [1.0, 2.0, 3.0, 4.0],  # the greedy answer's outcome in every world
        noisy: [5.0, -5.0, 4.0, -3.0],
    }
    agent = MctsAgent(1, 0, tie_after=5)
    racing, won = agent._race(list(samples), samples, kept)
    assert racing == [kept, same, noisy] and not won  # a tie may still be told apart
    agent = MctsAgent(1, 0, tie_after=4)
    racing, won = agent._race(list(samples), samples, kept)
    assert racing == [kept, noisy] and not won
    samples[better] = [2.0, 3.1, 3.9, 5.0]  # above it in every world
    racing, won = agent._race([kept, noisy, better], samples, kept)
    assert racing == [kept, noisy, better] and won
    racing, won = MctsAgent(1, 0, win_z=0.0)._race([kept, better], samples, kept)
    assert not won


def test_each_search_races_with_its_own_settings() -> None:
    kept, same, worse = (Defend(n) for n in range(3))
    samples: dict[Choice, list[float]] = {
        kept: [1.0, 2.0],
        same: [1.0, 2.0],  # the greedy answer's outcome in both worlds
        worse: [0.0, 2.5],  # below it on the mean, by less than one standard error
    }
    agent = MctsAgent(1, 0, finale_tie_after=2, finale_prune_z=0.0, announce_prune_z=1.0)
    assert agent._settings(whole_game=True, expected=False) == (0.0, 2, 2.0)
    assert agent._settings(whole_game=False, expected=True) == (1.0, 3, 2.0)
    assert agent._settings(whole_game=False, expected=False) == (1.0, 4, 3.0)
    finale = agent._settings(whole_game=True, expected=False)
    assert agent._race(list(samples), samples, kept, finale)[0] == [kept]
    combat = agent._settings(whole_game=False, expected=False)
    assert agent._race(list(samples), samples, kept, combat)[0] == [kept, same, worse]


def test_an_option_out_of_the_race_cannot_overrule() -> None:
    kept, left = _options()
    agent = MctsAgent(1, 0)
    # the option's mean is higher, but it left after two sweeps: the greedy answer stands
    assert agent._verdict([kept, left], {kept: [0.0] * 6, left: [9.0, 9.5]}, kept) == kept
    assert agent.overruled == 0


def _counted(agent: MctsAgent) -> dict[Choice, int]:
    """The imagined games of each option in one searched decision of a combat."""
    greedy = [GreedyAgent(1, 0), GreedyAgent(2, 1)]
    state, asked = first_question(held_in_contact(duel_game(), PAIR), "allocate_dice", greedy)
    assert asked.player is not None
    games: dict[Choice, int] = {}
    samples = agent.samples

    def spy(*args: object, **kwargs: object) -> dict[Choice, list[float]]:
        found = samples(*args, **kwargs)  # type: ignore[arg-type]
        games.update({c: len(v) for c, v in found.items()})
        return found

    agent.samples = spy  # type: ignore[method-assign]
    agent.player = asked.player
    agent.choose(state, asked, asked.choices)
    return games


def test_the_race_imagines_fewer_games_and_prune_after_0_imagines_them_all() -> None:
    full = _counted(MctsAgent(9, iterations=24, prune_after=0))
    raced = _counted(MctsAgent(9, iterations=24))
    assert len(full) > 1 and len(set(full.values())) == 1
    assert raced.keys() == full.keys()
    assert sum(raced.values()) < sum(full.values())
    assert max(raced.values()) <= max(full.values())


class _NoDefence:
    """A fallback that never defends."""

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        return Defend(0) if Defend(0) in legal else legal[0]


@pytest.mark.rule("VII-C-4")
def test_the_search_defends_against_a_deadly_attack_when_its_fallback_would_not() -> None:
    greedy = [GreedyAgent(1, 0), GreedyAgent(2, 1)]
    state, asked = first_question(held_in_contact(duel_game(), PAIR), "defend", greedy)
    assert asked.player == 1 and Defend(0) in asked.choices
    agent = MctsAgent(3, 1, iterations=64)
    agent.greedy = _NoDefence()  # type: ignore[assignment]
    choice = agent.choose(state, asked, asked.choices)
    assert isinstance(choice, Defend) and choice.dice >= 1
    assert agent.overruled == 1


def test_the_same_seed_searches_alike() -> None:
    greedy = [GreedyAgent(1, 0), GreedyAgent(2, 1)]
    state, asked = first_question(held_in_contact(duel_game(), PAIR), "allocate_dice", greedy)
    answers = {
        MctsAgent(9, asked.player, iterations=12).choose(state, asked, asked.choices)
        for _ in range(2)
    }
    assert len(answers) == 1


@pytest.mark.parametrize("opponent_tree", [True, False])
def test_the_opponents_decisions_are_searched_only_with_opponent_tree(
    opponent_tree: bool,
) -> None:
    greedy = [GreedyAgent(1, 0), GreedyAgent(2, 1)]
    state, asked = first_question(held_in_contact(duel_game(), PAIR), "allocate_dice", greedy)
    assert asked.player is not None
    agent = MctsAgent(9, asked.player, iterations=24, opponent_tree=opponent_tree)
    deciders: list[int] = []
    first_try = agent._first_try

    def spy(state: GameState, untried: Sequence[Choice]) -> Choice:
        assert state.pending is not None and state.pending.player is not None
        deciders.append(state.pending.player)
        return first_try(state, untried)

    agent._first_try = spy  # type: ignore[method-assign]
    assert agent.choose(state, asked, asked.choices) in asked.choices
    # the tree grows at both players' decisions, or at the searching player's alone
    assert asked.player in deciders
    assert (1 - asked.player in deciders) is opponent_tree


@pytest.mark.parametrize(
    "options",
    [
        {"seconds": 0.0},
        {"seconds": -1.0},
        {"max_steps": 0},
        {"exploration": -0.5},
        {"overrule": -1.0},
        {"width": 1},
        {"announce_sweeps": 1},
        {"finale_sweeps": 1},
        {"finale_width": 1},
        {"finale_rounds": 0},
        {"finale_finals": -1},
        {"prune_after": -1},
        {"tie_after": -1},
        {"prune_z": -0.5},
        {"win_z": float("nan")},
        {"announce_tie_after": -1},
        {"finale_tie_after": -1},
        {"announce_prune_z": -0.5},
        {"finale_win_z": float("nan")},
    ],
)
def test_nonsense_budgets_are_refused(options: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        MctsAgent(1, 0, **options)  # type: ignore[arg-type]


# --- the announcements of the activation phase (IV-B-2, V-B-3) ---------------------------------


def _announcement(seed: int, nth: int) -> tuple[GameState, Question, list[Choice]]:
    """The ``nth`` announcement with an assault among its options."""
    return position_in_game(seed, nth, lambda state, _, legal: _assaults(state, legal))


def _floor(seed: int, nth: int) -> tuple[GameState, Question, list[Choice]]:
    """The ``nth`` floor of the activation phase with more than one answer (IV-B-1)."""
    return position_in_game(
        seed,
        nth,
        lambda state, asked, legal: (
            asked.kind == "floor" and state.phase is Phase.ACTIVATION and len(legal) > 1
        ),
    )


class _NeverAssaults:
    """A fallback that announces nothing."""

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        return AnnouncementsDone() if AnnouncementsDone() in legal else legal[0]


@pytest.mark.rule("V-B-3")
def test_the_candidates_are_the_fallback_holding_back_and_assaults_in_reach() -> None:
    state, asked, legal = _announcement(2000, 13)
    agent = MctsAgent(3, asked.player, width=3, announcements=True)
    greedy = agent.greedy.choose(state, asked, legal)
    options = agent.candidates(state, legal, greedy)
    assert options[0] == greedy and AnnouncementsDone() in options
    assert 2 <= len(options) <= 3 and len(set(options)) == len(options)
    for c in options:
        if isinstance(c, Announce) and c != greedy:
            assert c.action in ("charge", "engage") and c.target is not None
            fighter = state.fighter(c.fighter)
            assert gap(state, c.fighter, c.target) <= charge_reach(state, fighter)


@pytest.mark.rule("V-B-3")
def test_the_search_charges_where_its_fallback_would_hold_back() -> None:
    # the 16th such announcement since the deployment band is open (III-A-1): the seed-2000
    # game changed (the 14th was the greedy charge before)
    state, asked, legal = _announcement(2000, 15)
    assert asked.player is not None
    charge = GreedyAgent(1, asked.player).choose(state, asked, legal)
    assert isinstance(charge, Announce) and charge.action == "charge"
    agent = MctsAgent(3, asked.player, announcements=True)
    agent.greedy = _NeverAssaults()  # type: ignore[assignment]
    picked = agent.choose(state, asked, legal)
    assert isinstance(picked, Announce) and picked.action in ("charge", "engage")
    assert agent.searched == 1 and agent.overruled == 1
    # without the announcement search, the fallback's answer stands
    plain = MctsAgent(3, asked.player, announcements=False)
    plain.greedy = _NeverAssaults()  # type: ignore[assignment]
    assert plain.choose(state, asked, legal) == AnnouncementsDone()
    assert plain.searched == 0


@pytest.mark.rule("IV-B-2")
def test_an_announcement_is_imagined_to_the_end_of_the_combat_phase() -> None:
    state, asked, legal = _announcement(2000, 13)
    assert asked.player is not None
    agent = MctsAgent(3, asked.player, announcements=True)
    agent._fight = None
    after = step(state, legal[0])[0]
    after = with_rules(after, rules_of(after).with_pursuits(stay_in_place))
    end, _ = agent._rollout(after, state.phase, 1)
    assert state.phase is Phase.ACTIVATION
    assert is_over(end) or end.phase not in (Phase.ACTIVATION, Phase.COMBAT)
    assert end.round in (state.round, state.round + 1)


@pytest.mark.rule("IV-B-1")
def test_the_floor_is_searched_once_the_armies_are_within_reach() -> None:
    far, asked, legal = _floor(2000, 0)  # round 1: the armies are in their deployment areas
    assert far.round == 1 and not _within_reach(far)
    agent = MctsAgent(3, asked.player, announcements=True)
    agent.choose(far, asked, legal)
    assert agent.searched == 0
    for nth in range(1, 40):
        near, asked, legal = _floor(2000, nth)
        if _within_reach(near):
            break
    else:
        pytest.fail("the armies never came within reach")
    agent = MctsAgent(3, asked.player, width=2, announcements=True)
    greedy = agent.greedy.choose(near, asked, legal)
    options = agent.candidates(near, legal, greedy)
    assert options[0] == greedy and len(options) == 2 and set(options) <= set(legal)
    assert agent.choose(near, asked, legal) in options
    assert agent.searched == 1
