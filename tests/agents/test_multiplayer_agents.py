"""Every agent plays games of three to six players (XX-F): legal answers to every player's
questions, the places in the order (XX-F-1, XX-F-3), the Tactics raises, the floor and the
values with more than one enemy."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from functools import lru_cache

import pytest
from positions import HERO, PEASANT, first_question
from rich.console import Console

from confrontation.agents import make
from confrontation.agents.assess import material, stake, standing
from confrontation.agents.endgame import candidates
from confrontation.agents.fights import exchange
from confrontation.agents.greedy import GreedyAgent, eager_to_act, tactics_rivals
from confrontation.agents.human import HumanAgent
from confrontation.agents.mcts import MctsAgent, Node, determinize
from confrontation.agents.spec import parse_agent_spec
from confrontation.dice import SeededRoller
from confrontation.engine.combat.questions import ChooseCombat
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.melee import Combat
from confrontation.engine.core.questions import (
    Choice,
    ChoosePlace,
    KeepResult,
    PlayTop,
    PutInReserve,
    Question,
    Raise,
)
from confrontation.engine.core.state import (
    MAX_PLAYERS,
    NEUTRAL,
    GameState,
    Phase,
    ProfileSummary,
    StrategicProgress,
    TacticsHand,
)
from confrontation.engine.core.views import redact
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import Agent, is_over, legal, question, roll, start, step
from engine_support import fighter

WARRIOR = fighter("Warrior", ini=3, att=4, strength=5, defense=3, res=5, mov=12.0, ap=20)
ARCHER = fighter(
    "Archer",
    ini=2,
    att=2,
    strength=3,
    defense=2,
    res=4,
    aim=3,
    aim_str=4,
    ranges=(15.0, 30.0, 45.0),
    ap=15,
)

CLOSE = ((45.0, 22.0), (75.0, 22.0), (60.0, 44.0), (60.0, 8.0))
"""Where each player's fighters stand in a game that comes to blows at once."""

FAR = ((10.0, 10.0), (110.0, 10.0), (60.0, 52.0), (110.0, 52.0))
"""Where they stand out of each other's reach (more than MOV x 2 = 24 cm apart)."""

AGENTS = ("random", "greedy", "mcts")


def table_game(
    players: int,
    centres: Sequence[tuple[float, float]] = CLOSE,
    cards: Sequence[tuple[ProfileSummary, int]] = ((WARRIOR, 2), (ARCHER, 1)),
    rounds: int = 2,
) -> GameState:
    """``players`` sides of ``cards`` on an empty 120x60 table, each around his centre."""
    specs = [SideSpec(f"Side {p + 1}", "lion", tuple(cards)) for p in range(players)]
    state = game_from_specs(specs, rounds=rounds, seed=3)
    state = on_battlefield(state, scenery=(), deploy=False)
    positions: dict[str, tuple[float, float, float]] = {}
    for f in state.fighters:
        x, y = centres[f.player]
        n = sum(1 for g in state.fighters if g.player == f.player and g.id < f.id)
        positions[f.id] = (x + 4.0 * (n - 1), y, 0.0)
    return place(state, positions)


def greedy_players(players: int) -> list[Agent]:
    return [GreedyAgent(10 + p, p) for p in range(players)]


@lru_cache(maxsize=4)
def decisions(players: int, seed: int) -> tuple[tuple[GameState, Question], ...]:
    """Every player decision of a seeded game of greedy agents, ``players`` sides close
    together (they fight at once), as (state, question)."""
    state, _ = start(table_game(players))
    dice = SeededRoller(seed)
    agents = greedy_players(players)
    found: list[tuple[GameState, Question]] = []
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
            continue
        found.append((state, asked))
        choice = agents[asked.player].choose(redact(state, asked.player), asked, asked.choices)
        assert choice in asked.choices
        state, _ = step(state, choice)
    return tuple(found)


def small_mcts(player: int, kind: str) -> Agent:
    return make(
        "mcts",
        seed=5,
        player=player,
        iterations=3,
        kinds=[kind],
        max_steps=12,
        outside_combat=True,
        announcements=False,
        finale=False,
    )


# --- building the agents ------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*AGENTS, "human"])
def test_every_agent_is_made_for_every_player_of_a_six_player_game(name: str) -> None:
    for player in range(MAX_PLAYERS):
        assert make(name, seed=1, player=player) is not None
    for wrong in (-1, MAX_PLAYERS, NEUTRAL):
        with pytest.raises(ValueError, match="player must be 0 to 5"):
            make(name, seed=1, player=wrong)


def test_a_parsed_spec_builds_the_agent_of_a_fifth_player() -> None:
    name, options = parse_agent_spec("mcts:iterations=4;opponent_tree=false")
    agent = make(name, seed=2, player=4, **options)
    assert isinstance(agent, MctsAgent)
    assert agent.player == 4 and agent.greedy.player == 4
    players = [p.player for p in agent.policies if isinstance(p, GreedyAgent)]
    assert players == list(range(MAX_PLAYERS))  # one greedy rollout policy for each player


# --- every question of every player -------------------------------------------------------------


@pytest.mark.rule("XX-F")
@pytest.mark.parametrize("players", [3, 4])
def test_every_players_questions_come_up_in_a_greedy_game(players: int) -> None:
    found = decisions(players, 1)
    askers = {asked.player for _, asked in found}
    assert askers == set(range(players))
    kinds = {asked.kind for _, asked in found}
    for kind in (
        QuestionKind.PLACE_CARD,
        QuestionKind.TACTICS_FIGHTER,
        QuestionKind.CHOOSE_PLACE,
        QuestionKind.FLOOR,
        QuestionKind.ACTIVATION,
        QuestionKind.ALLOCATE_DICE,
    ):
        assert kind in kinds
    assert QuestionKind.CHOOSE_FIRST not in kinds  # XX-F-3: places, not the first speaker


@pytest.mark.rule("XX-F")
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("name", ["random", "greedy"])
def test_the_agents_answer_every_question_of_every_player_legally(players: int, name: str) -> None:
    made = [make(name, seed=7 + p, player=p) for p in range(players)]
    for state, asked in decisions(players, 1):
        assert asked.player is not None
        choice = made[asked.player].choose(redact(state, asked.player), asked, asked.choices)
        assert choice in asked.choices, (asked.kind, choice)


@pytest.mark.rule("XX-F")
@pytest.mark.parametrize("players", [3, 4])
def test_the_search_answers_each_kind_of_question_legally(players: int) -> None:
    firsts: dict[tuple[str, int], tuple[GameState, Question]] = {}
    for state, asked in decisions(players, 1):
        assert asked.player is not None
        # a pursuit is imagined staying in place: the search cannot weigh pursuits (docs/ai.md)
        if len(asked.choices) > 1 and asked.kind != QuestionKind.PURSUE:
            firsts.setdefault((asked.kind, asked.player), (state, asked))
    assert {player for _, player in firsts} == set(range(players))
    searched = 0
    for (kind, player), (state, asked) in firsts.items():
        agent = small_mcts(player, kind)
        choice = agent.choose(redact(state, player), asked, asked.choices)
        assert choice in asked.choices, (kind, choice)
        searched += agent.searched  # type: ignore[attr-defined]
    assert searched > 0


@pytest.mark.rule("XX-F")
@pytest.mark.parametrize(("players", "name"), [(3, "greedy"), (3, "mcts"), (4, "random")])
def test_a_whole_game_of_several_players_is_played_to_its_end(players: int, name: str) -> None:
    options = {"iterations": 4} if name == "mcts" else {}
    made = [make(name, seed=20 + p, player=p, **options) for p in range(players)]
    state, _ = start(table_game(players, rounds=2))
    dice = SeededRoller(4)
    asked_players: set[int] = set()
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
            continue
        asked_players.add(asked.player)
        choice = made[asked.player].choose(redact(state, asked.player), asked, asked.choices)
        assert choice in legal(state)
        state, _ = step(state, choice)
    assert state.phase is Phase.OVER and len(state.scores) == players
    assert asked_players == set(range(players))


# --- the places in the order (XX-F-1, XX-F-3) ---------------------------------------------------


def place_question(
    players: int, centres: Sequence[tuple[float, float]]
) -> tuple[GameState, Question]:
    state = table_game(players, centres, cards=((WARRIOR, 2),))
    return first_question(state, QuestionKind.CHOOSE_PLACE, greedy_players(players), seed=2)


@pytest.mark.rule("XX-F-3")
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("name", [*AGENTS, "human"])
def test_every_agent_takes_a_free_place(players: int, name: str) -> None:
    state, asked = place_question(players, CLOSE)
    assert asked.player is not None
    assert list(asked.choices) == [ChoosePlace(p) for p in range(players)]
    # the first player takes the second place: the next one chooses among the others
    state, _ = step(state, ChoosePlace(1))
    following = question(state)
    assert following is not None and following.kind == QuestionKind.CHOOSE_PLACE
    assert following.player is not None and following.player != asked.player
    free = [ChoosePlace(p) for p in range(players) if p != 1]
    assert list(following.choices) == free
    if name == "human":
        console = Console(file=io.StringIO(), width=120, color_system=None)
        agent: Agent = HumanAgent(0, following.player, stdin=io.StringIO("2\n"), console=console)
    else:
        agent = make(name, seed=3, player=following.player)
    choice = agent.choose(redact(state, following.player), following, following.choices)
    assert choice in free
    if name == "human":
        assert choice == free[1]


@pytest.mark.rule("XX-F-3")
@pytest.mark.parametrize("players", [3, 4])
def test_the_greedy_agent_speaks_early_when_it_can_strike_and_late_otherwise(
    players: int,
) -> None:
    for centres, eager in ((CLOSE, True), (FAR, False)):
        state, asked = place_question(players, centres)
        assert asked.player is not None
        assert eager_to_act(state, asked.player) is eager
        choice = GreedyAgent(1, asked.player).choose(state, asked, asked.choices)
        assert choice == ChoosePlace(0 if eager else players - 1)
        # the next player, with the first place taken: the first free one is the second
        state, _ = step(state, ChoosePlace(0))
        following = question(state)
        assert following is not None and following.player is not None
        choice = GreedyAgent(1, following.player).choose(state, following, following.choices)
        assert choice == ChoosePlace(1 if eager_to_act(state, following.player) else players - 1)


@pytest.mark.rule("XX-F-1")
def test_the_greedy_agent_deploys_last_to_see_the_others_deploy() -> None:
    state, asked = place_question(3, CLOSE)
    assert asked.player is not None and eager_to_act(state, asked.player)
    before_the_battle = dataclasses.replace(state, round=0)
    choice = GreedyAgent(1, asked.player).choose(before_the_battle, asked, asked.choices)
    assert choice == ChoosePlace(2)


def test_the_last_rounds_search_imagines_every_place() -> None:
    state, asked = place_question(4, CLOSE)
    greedy = GreedyAgent(1, asked.player).choose(state, asked, asked.choices)
    found = candidates(state, asked.choices, greedy, width=7)
    assert found[0] == greedy and sorted(found, key=str) == sorted(asked.choices, key=str)


# --- the Tactics roll (IV-A-2, XX-F-3) ----------------------------------------------------------


def _hand(result: int) -> TacticsHand:
    """A hand showing a 6 he may raise, for a final result of ``result``."""
    return TacticsHand(
        fighter="x", chosen=True, discipline=result - 6, dice=(6,), awaiting_die=False
    )


def _tactics(finals: Sequence[int], ranking: tuple[tuple[int, ...], ...] = ()) -> GameState:
    state = table_game(len(finals))
    strategic = StrategicProgress(
        building=((),) * len(finals),
        to_place=((),) * len(finals),
        hands=tuple(_hand(f) for f in finals),
        ranking=ranking,
    )
    return dataclasses.replace(state, strategic=strategic)


@pytest.mark.rule("XX-F-3")
@pytest.mark.parametrize(
    ("finals", "ranking", "expected"),
    [
        ((8, 7, 10), (), Raise()),  # behind the third player: raise
        ((8, 10, 7), (), Raise()),
        ((8, 7, 5), (), KeepResult()),  # ahead of both
        ((8, 8, 5), (), Raise()),  # a tie is rolled again
        ((8, 7, 12), ((2,), (0, 1)), KeepResult()),  # only the tied player 2 rolls with him
        ((8, 9, 12), ((2,), (0, 1)), Raise()),
        ((8, 7, 12, 9), ((2,), (0, 1, 3)), Raise()),
    ],
)
def test_the_greedy_agent_raises_to_beat_the_best_result_it_is_opposed_to(
    finals: tuple[int, ...], ranking: tuple[tuple[int, ...], ...], expected: Choice
) -> None:
    state = _tactics(finals, ranking)
    agent = GreedyAgent(1, 0)
    assert agent.tactics_raise(state, 0, [Raise(), KeepResult()]) == expected


def test_tactics_rivals_are_the_others_or_the_tied_group() -> None:
    progress = _tactics((8, 7, 12, 9)).strategic
    assert progress is not None
    assert tactics_rivals(progress, 1) == (0, 2, 3)
    grouped = dataclasses.replace(progress, ranking=((2,), (0, 1, 3)))
    assert tactics_rivals(grouped, 1) == (0, 3)
    assert tactics_rivals(grouped, 2) == (0, 1, 3)  # alone in his group: nobody rolls again
    two = _tactics((8, 7)).strategic
    assert two is not None and tactics_rivals(two, 1) == (0,)


# --- the floor (IV-B-1, XX-F-2) -----------------------------------------------------------------


@pytest.mark.rule("XX-F-2")
def test_a_card_with_nothing_to_do_waits_while_any_other_player_has_cards() -> None:
    # Player 1's peasant faces a hero of Player 2 within reach: his card had better wait.
    specs = [
        SideSpec("Peasants", "lion", ((PEASANT, 1),)),
        SideSpec("Heroes", "lion", ((HERO, 1),)),
        SideSpec("Others", "lion", ((WARRIOR, 1),)),
    ]
    state = on_battlefield(game_from_specs(specs, seed=3), scenery=(), deploy=False)
    positions = {"p1-c1-1": (40.0, 30.0, 0.0), "p2-c1-1": (52.0, 30.0, 180.0)}
    state = place(state, {**positions, "p3-c1-1": (100.0, 50.0, 180.0)})
    state = dataclasses.replace(state, phase=Phase.ACTIVATION)
    options = [PlayTop(), PutInReserve()]

    def decks(*cards: int) -> GameState:
        out = state
        for player, count in enumerate(cards):
            side = out.side(player)
            mine = tuple(c.id for c in out.cards_of(player))[:count]
            out = out.with_side(dataclasses.replace(side, deck=mine, reserve=None))
        return out

    agent = GreedyAgent(1, 0)
    assert agent.floor(decks(1, 0, 1), 0, options) == PutInReserve()  # Player 3 still waits
    assert agent.floor(decks(1, 1, 0), 0, options) == PutInReserve()
    assert agent.floor(decks(1, 0, 0), 0, options) == PlayTop()  # nobody else to wait for


# --- values with several enemies ----------------------------------------------------------------


def test_material_counts_every_enemy_and_the_best_enemy_score() -> None:
    state = table_game(3)
    each = standing(state, 0)
    assert standing(state, 1) == standing(state, 2) == each
    assert material(state, 0) == pytest.approx(-each)
    hurt = state.with_fighters(dataclasses.replace(state.fighter("p3-c1-1"), wounds=4))
    lost = standing(state, 2) - standing(hurt, 2)
    assert lost > 0
    # Player 3's loss is a gain for Player 1 and Player 2 alike, whoever inflicted it
    assert material(hurt, 0) - material(state, 0) == pytest.approx(lost)
    assert material(hurt, 1) - material(state, 1) == pytest.approx(lost)
    assert material(hurt, 2) - material(state, 2) == pytest.approx(-lost)
    scored = dataclasses.replace(state, scores=(1, 3, 2))
    assert material(scored, 0) - material(state, 0) == pytest.approx(10.0 * (1 - 3))
    assert material(scored, 1) - material(state, 1) == pytest.approx(10.0 * (3 - 2))


def test_two_player_stakes_are_unchanged_and_rivals_weigh_as_asked() -> None:
    # two players: what is not his is against him, neutral fighters included
    assert [stake(0, g, l_, 0.0) for g, l_ in ((0, 1), (1, 0), (0, NEUTRAL))] == [1, -1, 1]
    assert [stake(0, g, l_, 0.0) for g, l_ in ((1, NEUTRAL), (NEUTRAL, 1), (NEUTRAL, 0))] == [
        -1,
        -1,
        -1,
    ]
    assert stake(0, 1, 2, 0.0) == 0.0 and stake(0, 2, 1, 1.0) == 1.0


def test_a_fight_between_two_other_players_is_worth_something_to_the_third() -> None:
    state = table_game(3, cards=((WARRIOR, 1),))
    state = place(state, {"p2-c1-1": (60.0, 30.0, 180.0), "p3-c1-1": (57.5, 30.0, 0.0)})
    assert exchange(state, 0) > 0  # both lose worth: his rivals
    assert exchange(state, 1) == pytest.approx(0.0)  # mirror fighters: even
    assert exchange(state, 2) == pytest.approx(0.0)


def test_combats_between_two_other_players_count_for_nothing() -> None:
    state = table_game(3, cards=((WARRIOR, 1), (HERO, 1), (PEASANT, 1)))
    state = dataclasses.replace(state, phase=Phase.COMBAT)
    mine = ChooseCombat(Combat("p1-c1-1", ("p2-c1-1",)))  # warrior against warrior
    hero = ChooseCombat(Combat("p2-c2-1", ("p3-c3-1",)))  # Player 2's hero on a peasant
    peasant = ChooseCombat(Combat("p3-c3-1", ("p2-c2-1",)))  # the same, the other way round
    agent = GreedyAgent(1, 0)
    worse = state.with_fighters(dataclasses.replace(state.fighter("p1-c1-1"), wounds=1))
    better = state.with_fighters(dataclasses.replace(state.fighter("p2-c1-1"), wounds=1))
    # his duel a little worse than even: the rivals' combat (nothing to him) first
    assert agent.choose_combat(worse, 0, [mine, hero]) == hero
    assert agent.choose_combat(worse, 0, [mine, peasant]) == peasant
    # a little better: his own first, whoever of the rivals is the lone fighter
    assert agent.choose_combat(better, 0, [mine, hero]) == mine
    assert agent.choose_combat(better, 0, [mine, peasant]) == mine


# --- the search ---------------------------------------------------------------------------------


def _with_hidden_cards(state: GameState) -> GameState:
    for player in state.players:
        cards = tuple(c.id for c in state.cards_of(player))
        state = state.with_side(dataclasses.replace(state.side(player), deck=cards, reserve=None))
    return state


def test_determinization_shuffles_every_other_players_cards_and_not_his() -> None:
    cards = ((WARRIOR, 1), (ARCHER, 1), (PEASANT, 1), (HERO, 1))
    state = _with_hidden_cards(table_game(4, cards=cards))
    seen: dict[int, set[tuple[str, ...]]] = {p: set() for p in state.players}
    for key in range(30):
        world = determinize(state, 1, SeededRoller.keyed(key, "hidden"))
        for p in state.players:
            side = world.side(p)
            assert sorted(side.deck) == sorted(state.side(p).deck)
            seen[p].add(side.deck)
    assert seen[1] == {state.side(1).deck}
    assert all(len(seen[p]) > 1 for p in (0, 2, 3))


def test_the_paranoid_search_grows_its_tree_at_every_players_decisions() -> None:
    for state, asked in decisions(3, 1):  # noqa: B007 (the position found is used below)
        if asked.kind == QuestionKind.ALLOCATE_DICE and len(asked.choices) > 1:
            break
    else:
        raise AssertionError("no allocation of dice")
    assert asked.player is not None
    agent = MctsAgent(9, asked.player, iterations=24)
    deciders: list[int] = []
    first_try = agent._first_try

    def spy(state: GameState, untried: Sequence[Choice]) -> Choice:
        assert state.pending is not None and state.pending.player is not None
        deciders.append(state.pending.player)
        return first_try(state, untried)

    agent._first_try = spy  # type: ignore[method-assign]
    assert agent.choose(state, asked, asked.choices) in asked.choices
    assert asked.player in deciders
    assert set(deciders) - {asked.player}, "the others' decisions are in the tree"


def test_at_another_players_decision_the_tree_takes_the_worst_for_the_searcher() -> None:
    agent = MctsAgent(1, 0, exploration=0.0)
    node = Node(visits=6)
    options = [PlayTop(), PutInReserve()]
    for choice, value in zip(options, (0.5, -0.25), strict=True):
        node.children[choice] = Node(visits=3, total=3 * value)
    assert agent._select(node, options, mine=True) == PlayTop()
    assert agent._select(node, options, mine=False) == PutInReserve()  # paranoid


def test_the_terminal_shows_every_players_fighters() -> None:
    state = table_game(4)
    out = io.StringIO()
    agent = HumanAgent(0, 2, console=Console(file=out, width=120, color_system=None))
    agent.show_fighters(state, 2)
    shown = out.getvalue()
    for player in range(1, 5):
        assert f"Player {player}" in shown
    assert "Player 3 (you)" in shown
