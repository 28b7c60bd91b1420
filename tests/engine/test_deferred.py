"""Legal lists with deferred parts (issue 22, fourth round): read like the list they stand
for, working a part out only when it is read; the activation question's assaults."""

from __future__ import annotations

import pytest

from confrontation.agents.greedy import GreedyAgent
from confrontation.engine.actions.movement import announce_choices
from confrontation.engine.core.deferred import Deferred, LazyChoices, only_one, parts_of
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import Announce, AnnouncementsDone, Choice, EndActivation
from confrontation.engine.core.state import ActivationStage, GameState
from confrontation.engine.core.views import redact
from confrontation.engine.step import (
    BRIEF_KINDS,
    brief_question,
    choices,
    game_roller,
    question,
    roll,
    start,
)
from confrontation.engine.step import step as engine_step
from confrontation.engine.table.field import field_of
from confrontation.sim.game import GameConfig, initial_state, make_players

# --- the sequence ------------------------------------------------------------------------------


def _part(fighter: str, target: str, made: list[str], shooter: bool) -> Deferred:
    def make() -> tuple[Choice, ...]:
        made.append(target)
        if shooter:
            charge = Announce(fighter, "charge", target)
            return (charge, Announce(fighter, "charge", target, shoot=True))
        return (Announce(fighter, "engage", target),)

    return Deferred((fighter, target), make, None if shooter else 1, least=1)


def _sample(made: list[str]) -> tuple[LazyChoices, list[Choice]]:
    lazy = LazyChoices(
        [
            Announce("a", "run"),
            _part("a", "x", made, shooter=False),
            _part("a", "y", made, shooter=True),
            _part("a", "z", made, shooter=False),
            AnnouncementsDone(),
        ]
    )
    plain: list[Choice] = [
        Announce("a", "run"),
        Announce("a", "engage", "x"),
        Announce("a", "charge", "y"),
        Announce("a", "charge", "y", shoot=True),
        Announce("a", "engage", "z"),
        AnnouncementsDone(),
    ]
    return lazy, plain


def test_a_lazy_list_reads_as_the_list_it_stands_for() -> None:
    lazy, plain = _sample([])
    assert list(lazy) == plain
    assert len(lazy) == len(plain)
    assert [lazy[i] for i in range(-len(plain), len(plain))] == plain + plain
    assert lazy[1:4] == plain[1:4]
    assert all(c in lazy for c in plain)
    assert Announce("a", "engage", "y") not in lazy
    assert EndActivation() not in lazy
    assert object() not in lazy
    with pytest.raises(IndexError):
        lazy[len(plain)]
    with pytest.raises(IndexError):
        lazy[-len(plain) - 1]


def test_parts_are_worked_out_only_when_read() -> None:
    made: list[str] = []
    lazy, _ = _sample(made)
    assert lazy[0] == Announce("a", "run")
    assert lazy[1] == Announce("a", "engage", "x")  # a part read: worked out
    assert made == ["x"]
    assert lazy.least() == 5
    assert not only_one(lazy)
    assert AnnouncementsDone() in lazy  # no part could hold it
    assert Announce("a", "engage", "z") in lazy  # only z's part could
    assert made == ["x", "z"]
    assert len(lazy) == 6  # the shooter's part has no known size
    assert made == ["x", "z", "y"]
    list(lazy)
    assert made == ["x", "z", "y"]  # once each


def test_a_known_size_is_not_worked_out_for_the_length() -> None:
    made: list[str] = []
    lazy = LazyChoices([_part("a", "x", made, False), _part("a", "z", made, False)])
    assert len(lazy) == 2
    assert lazy[-1] == Announce("a", "engage", "z")
    assert made == ["z"]
    assert only_one(LazyChoices([_part("a", "x", [], False)]))
    assert parts_of(plain := [AnnouncementsDone()]) is plain
    unseen = Deferred(("a", "y"), lambda: (), least=0)  # a shot at an enemy he does not see
    nothing = LazyChoices([unseen, AnnouncementsDone()])
    assert nothing.least() == 1
    assert only_one(nothing)
    assert list(nothing) == [AnnouncementsDone()] == [nothing[0]]


# --- the activation question -----------------------------------------------------------------


def _announcing(seed: int, wanted: int) -> list[GameState]:
    """The first ``wanted`` states of a greedy game where an assault may be announced."""
    config = GameConfig(agents=("greedy", "greedy"), seed=seed)
    players = make_players(config)
    state, _ = start(initial_state(config)[0])
    roller = game_roller(state)
    found: list[GameState] = []
    while len(found) < wanted:
        pending = state.pending
        assert pending is not None
        if pending.player is None:
            state, _ = roll(state, roller)
            continue
        current = state.activation.current if state.activation is not None else None
        if (
            pending.kind == QuestionKind.ACTIVATION
            and current is not None
            and current.stage == ActivationStage.ANNOUNCE
            and any(isinstance(p, Deferred) for p in parts_of(choices(state)))
        ):
            found.append(state)
        asked = question(state)
        assert asked is not None
        choice = players[pending.player].choose(redact(state, pending.player), asked, asked.choices)
        state, _ = engine_step(state, choice)
    return found


@pytest.fixture(scope="module")
def announcing() -> list[GameState]:
    return _announcing(seed=2, wanted=6)


def test_each_assault_is_a_charge_if_seen_else_an_engagement(
    announcing: list[GameState],
) -> None:
    """V-B-3, worked out late: the deferred part is what the sight says, as before."""
    for state in announcing:
        assert state.activation is not None and state.activation.current is not None
        here = field_of(state)
        for part in announce_choices(state, state.activation.current).parts:
            if not isinstance(part, Deferred):
                continue
            f, e = part.key
            shooter = state.profile(state.fighter(f).profile).shooter
            assert part.size == (None if shooter else 1)
            if here.sight(f, e).any:
                expected = [Announce(f, "charge", e)]
                expected += [Announce(f, "charge", e, shoot=True)] if shooter else []
            else:
                expected = [Announce(f, "engage", e)]
            assert list(part.choices()) == expected


def test_the_greedy_agent_asks_fewer_sights_and_chooses_the_same(
    announcing: list[GameState],
) -> None:
    """The agent reads only the assaults the straight line lets reach; the same choice as
    from the whole list (the same dice: a fresh agent each time)."""
    read = total = 0
    for state in announcing:
        player = state.pending.player if state.pending is not None else None
        assert player is not None
        asked, _ = brief_question(state) or (None, [])
        assert asked is not None and asked.options == ()
        assert state.activation is not None and state.activation.current is not None
        lazy = announce_choices(state, state.activation.current)
        view = redact(state, player)
        lazy_choice = GreedyAgent(seed=7, player=player).choose(view, asked, lazy)
        full = question(state)
        assert full is not None and full.choices == list(choices(state))
        eager_choice = GreedyAgent(seed=7, player=player).choose(view, full, full.choices)
        assert lazy_choice == eager_choice
        parts = [p for p in lazy.parts if isinstance(p, Deferred)]
        total += len(parts)
        read += sum(p._made is not None for p in parts)
    assert read < total


def test_kept_eagerness_is_the_eagerness_and_follows_the_state(
    announcing: list[GameState],
) -> None:
    """The greedy agent's fighter eagerness, kept while the state's status key (field,
    profiles, fighters' wounds, states, covers, worths) is the same, is the one computed
    afresh (and a changed fighter is scored again)."""
    from dataclasses import replace

    from confrontation.agents import greedy

    for state in announcing[:3]:
        for fighter in state.fighters:
            if fighter.in_play:
                fresh = greedy._fighter_eagerness(state, fighter)
                assert greedy.fighter_eagerness(state, fighter) == fresh
                assert greedy.fighter_eagerness(state, fighter) == fresh
    state = announcing[0]
    hurt = [replace(f, wounds=3) if f.in_play else f for f in state.fighters]
    changed = replace(state, fighters=tuple(hurt))
    for fighter in changed.fighters:
        if fighter.in_play:
            expected = greedy._fighter_eagerness(changed, fighter)
            assert greedy.fighter_eagerness(changed, fighter) == expected


@pytest.mark.parametrize("agents", [("greedy", "greedy"), ("random", "random")])
def test_brief_questions_list_the_options_choices_in_order(agents: tuple[str, str]) -> None:
    """``brief_question`` hands the legal choices for the options only where the options
    are those choices one for one, in order (every brief question of a game checked)."""
    config = GameConfig(agents=agents, seed=4)
    players = make_players(config)
    state, _ = start(initial_state(config)[0])
    roller = game_roller(state)
    seen: set[str] = set()
    while state.pending is not None and len(seen) < len(BRIEF_KINDS):
        pending = state.pending
        if pending.player is None:
            state, _ = roll(state, roller)
            continue
        asked = question(state)
        assert asked is not None
        brief = brief_question(state)
        assert brief is not None
        if pending.kind in BRIEF_KINDS:
            seen.add(pending.kind)
            assert brief[0].kind == asked.kind and brief[0].player == asked.player
            assert list(brief[1]) == asked.choices
        else:
            assert brief == (asked, asked.choices)
        choice = players[pending.player].choose(redact(state, pending.player), *brief)
        state, _ = engine_step(state, choice)
    assert seen == set(BRIEF_KINDS)
