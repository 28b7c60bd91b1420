"""# C4 Tactical Phase > Authority Opposition, through step()."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4flow_support import company, feed, kind
from confrontation.c4 import events as ev
from confrontation.c4.choices import ChooseFirst, KeepResult, Raise
from confrontation.c4.state import C4State, new_game
from confrontation.c4.step import legal, question, start, step
from confrontation.c4.tactical import authority_terms, commander
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import DieFace


def game(a1: int | None = 3, a2: int | None = 3, *, s1: bool = False, s2: bool = False) -> C4State:
    """Barbarian: no sequence to build, so the opposition comes first."""
    f1, u1 = company(0, y=20.0, authority=a1, strategist=s1)
    f2, u2 = company(1, y=100.0, authority=a2, strategist=s2)
    state, _ = start(new_game(tuple(f1 + f2), tuple(u1 + u2), mode="barbarian"))
    return state


@pytest.mark.rule("C4-TACTICAL-PHASE", "C4-AUTHORITY-OPPOSITION")
def test_highest_result_wins_and_chooses_the_first_active_player() -> None:
    # C4 Authority Opposition: die + Commander's Authority; the winner chooses who goes first
    state, events = feed(game(3, 2), 3, 5)  # 6 against 7
    assert kind(state) == "c4_choose_first" and state.pending is not None
    assert state.pending.player == 1
    assert ev.AuthorityWon(1, 7) in events
    assert set(legal(state)) == {ChooseFirst(0), ChooseFirst(1)}  # he may choose himself
    state, events = feed(state, ChooseFirst(1))
    assert state.first == 1 and state.authority_winner == 1
    assert state.pending is not None and state.pending.player == 1  # the first active player


@pytest.mark.rule("C4-AUTHORITY-OPPOSITION")
def test_a_one_loses_whatever_the_authority() -> None:
    # C4 Authority Opposition: a 1 on the die automatically loses
    state, events = feed(game(9, 0), 1, 2)
    assert ev.AuthorityLost(0) in events
    assert state.tactical is not None and state.tactical.winner == 1


@pytest.mark.rule("C4-AUTHORITY-OPPOSITION")
def test_all_ones_roll_again() -> None:
    # C4 Authority Opposition: if all the players get a 1, they all re-roll
    state, events = feed(game(), 1, 1)
    assert ev.AuthorityAllOnes((0, 1)) in events
    assert kind(state) == "c4_authority_die"
    state, events = feed(state, 4, 2)
    assert ev.AuthorityWon(0, 7) in events


@pytest.mark.rule("C4-AUTHORITY-OPPOSITION")
def test_a_six_may_be_rerolled_and_added() -> None:
    # C4 Authority Opposition: a 6 may be re-rolled, the new result added to the previous
    state, _ = feed(game(3, 3), 6, 5)
    assert kind(state) == "c4_authority_reroll" and state.pending is not None
    assert state.pending.player == 0
    q = question(state)
    assert q is not None and set(q.choices) == {Raise(), KeepResult()}
    state, events = feed(state, Raise(), 6)  # 12 so far, still a 6: may go on
    assert kind(state) == "c4_authority_reroll"
    state, events = feed(state, Raise(), 3)
    assert ev.AuthorityWon(0, 18) in events


@pytest.mark.rule("C4-AUTHORITY-OPPOSITION")
def test_a_rerolled_one_loses() -> None:
    # C4 Authority Opposition: if the re-rolled die shows a 1, the opposition is lost
    state, events = feed(game(3, 0), 6, 2, Raise(), 1)
    assert ev.AuthorityLost(0) in events
    assert state.tactical is not None and state.tactical.winner == 1


def test_keeping_the_six() -> None:
    _state, events = feed(game(3, 3), 6, 5, KeepResult())
    assert ev.AuthorityWon(0, 9) in events


@pytest.mark.rule("C4-AUTHORITY-OPPOSITION")
def test_the_lowest_authority_rerolls_first() -> None:
    # C4 Authority Opposition: if several players roll a 6, the lowest Authority re-rolls first
    state, _ = feed(game(5, 2), 6, 6)
    assert state.pending is not None and state.pending.player == 1
    state, _ = feed(state, KeepResult())
    assert state.pending is not None and state.pending.player == 0


@pytest.mark.rule("C4-AUTHORITY-OPPOSITION")
def test_a_tie_is_rolled_again() -> None:
    # C4 Authority Opposition: in case of a tie, the test is re-rolled
    state, events = feed(game(3, 3), 4, 4)
    assert ev.AuthorityTied((0, 1), 7) in events
    assert kind(state) == "c4_authority_die"
    state, events = feed(state, 2, 5)
    assert ev.AuthorityWon(1, 8) in events


@pytest.mark.rule("C4-AUTHORITY-OPPOSITION")
def test_strategist_rolls_a_bonus_die_and_keeps_the_best() -> None:
    # C4 Authority Opposition: the "Strategist" ability: a bonus die, only the best is kept
    start_state = game(3, 3, s1=True)
    assert authority_terms(start_state, 0) == (2, 3)
    _state, events = feed(start_state, 1, 5, 4)  # player 1: 1 and 5 → 5; player 2: 4
    assert ev.AuthorityRolled(0, (1, 5), 5, 3) in events
    assert ev.AuthorityWon(0, 8) in events


def test_strategist_one_and_six_keeps_the_six() -> None:
    # several dice: only the best is kept; re-rolling the 6 discards the other die
    state, events = feed(game(3, 3, s1=True), 1, 6, 2)
    assert ev.AuthorityLost(0) not in events
    state, events = feed(state, Raise(), 3)
    assert ev.AuthorityWon(0, 12) in events


@pytest.mark.rule("C4-AUTHORITY-OPPOSITION")
def test_rout_means_the_bare_die() -> None:
    # C4 Authority Opposition: a Commander in a unit in rout: the result of the die alone
    state = game(5, 0, s1=True)
    chief = commander(state, 0)
    assert chief is not None
    routed = state.with_unit(evolve(state.unit(chief.unit), rout=True))
    assert authority_terms(routed, 0) == (1, 0)
    assert authority_terms(state, 0) == (2, 5)


@pytest.mark.rule("C4-AUTHORITY-OPPOSITION")
def test_no_incarnate_means_the_bare_die() -> None:
    # C4 Authority Opposition: a company without an Incarnate with Authority: the die alone
    state = game(None, 4)
    assert commander(state, 0) is None
    assert authority_terms(state, 0) == (1, 0)
    state, events = feed(state, 6, 3, KeepResult())  # 6 + 0 against 3 + 4
    assert ev.AuthorityWon(1, 7) in events


def test_the_commander_is_the_highest_authority() -> None:
    f1, u1 = company(0, y=20.0, authority=2)
    f2, u2 = company(1, y=100.0, authority=1)
    hero = evolve(f1[3], kind="incarnate", authority=4)  # leads unit 2
    f1[3] = hero
    state = new_game(tuple(f1 + f2), tuple(u1 + u2))
    chief = commander(state, 0)
    assert chief is not None and chief.id == hero.id


@given(st.lists(st.integers(1, 6), min_size=60, max_size=60), st.integers(0, 6), st.booleans())
def test_the_opposition_always_ends_with_a_sound_winner(
    faces: list[int], authority: int, raise_always: bool
) -> None:
    state = game(authority, 3, s1=True)
    history: list[ev.Event] = []
    for face in faces:
        if kind(state) == "c4_choose_first":
            break
        if state.pending is not None and state.pending.player is None:
            state, happened = step(state, DieFace(face))
        else:
            state, happened = step(state, Raise() if raise_always else KeepResult())
        history += happened
    if kind(state) != "c4_choose_first":
        return  # the dice ran out first
    won = [e for e in history if isinstance(e, ev.AuthorityWon)]
    assert len(won) == 1
    winner = won[0].player
    # the winner never lost on a 1 in the final attempt
    last_attempt = max(i for i, e in enumerate(history) if isinstance(e, ev.AuthorityRolled))
    tail = history[last_attempt - 1 :]
    assert ev.AuthorityLost(winner) not in tail


def test_three_players_a_one_is_out_and_ties_roll_again_among_the_tied() -> None:
    # C4 Authority Opposition: a 1 loses; in case of a tie, the test is re-rolled (ruling:
    # between the tied players only)
    fighters, units = [], []
    for p in range(3):
        f, u = company(p, units=1, y=20.0 + 40.0 * p)
        fighters += f
        units += u
    state, _ = start(new_game(tuple(fighters), tuple(units), players=3, mode="barbarian"))
    state, events = feed(state, 1, 4, 4)
    assert ev.AuthorityLost(0) in events
    assert ev.AuthorityTied((1, 2), 7) in events
    assert state.tactical is not None and state.tactical.authority is not None
    assert state.tactical.authority.contenders == (1, 2)
    state, events = feed(state, 5, 2)
    assert ev.AuthorityWon(1, 8) in events
