"""# C4 Tactical Phase > Ordering the activation sequence and # C4 Activation Phase > Drawing the
Cards: the six game modes, through step()."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4flow_support import FirstAgent, RandomAgent, feed, game, kind
from confrontation.c4 import events as ev
from confrontation.c4.actions import gap
from confrontation.c4.choices import (
    ChooseFirst,
    DrawCard,
    PickCard,
    PlaceCard,
    PlayReserve,
    PlayTop,
    PutInReserve,
    RevealDrawn,
    UnitAction,
)
from confrontation.c4.handlers import dice_needed, pick
from confrontation.c4.modes import MODES, Mode, mode, mode_for_face
from confrontation.c4.state import C4State, Phase
from confrontation.c4.step import legal, run, start
from confrontation.engine.core.registry import IllegalChoice

HOLD = {"p1u1", "p1u2", "p2u1", "p2u2"}


def hold(unit: str) -> UnitAction:
    return UnitAction(unit, "hold")


def to_activation(name: str, *orders: PlaceCard, first: int = 0) -> C4State:
    """Start a game in mode ``name``: the sequences (if any), player 1 wins the Authority
    opposition 5+3 against 2+3, and names ``first``."""
    state, _ = start(game(name))
    state, _ = feed(state, *orders, 5, 2, ChooseFirst(first))
    assert state.phase is Phase.ACTIVATION
    return state


# --- the modes as data --------------------------------------------------------------------


@pytest.mark.rule("C4-ORDERING-THE-ACTIVATION-SEQUENCE")
def test_six_modes_marauder_by_default() -> None:
    # C4 Ordering the activation sequence: six game modes; "Marauder" is the default game mode
    assert [m.mode for m in MODES] == list(Mode)
    assert mode().mode is Mode.MARAUDER
    assert game().mode is Mode.MARAUDER
    # "choose a random strategic challenge by rolling a die": one mode per face
    assert [mode_for_face(f).mode for f in range(1, 7)] == list(Mode)


@given(st.text(max_size=20).filter(lambda t: t not in {m.value for m in Mode}))
def test_unknown_mode_names_are_refused(name: str) -> None:
    try:
        mode(name)
    except ValueError as error:
        assert "unknown C4 game mode" in str(error)
    else:
        raise AssertionError(f"{name!r} was taken for a mode")


@given(st.integers().filter(lambda n: not 1 <= n <= 6))
def test_faces_outside_a_die_are_refused(face: int) -> None:
    try:
        mode_for_face(face)
    except ValueError:
        return
    raise AssertionError(face)


# --- Barbarian ----------------------------------------------------------------------------


@pytest.mark.rule("C4-BARBARIAN-MODE", "C4-DRAWING-THE-CARDS")
def test_barbarian_reveals_the_card_of_his_choice() -> None:
    # C4 Ordering the activation sequence > Barbarian: no sequence; taking turns, the players reveal
    # the card of their choice
    state = to_activation("barbarian")
    assert kind(state) == "c4_turn"
    assert set(legal(state)) == {PickCard("p1u1"), PickCard("p1u2")}  # no reserve
    state, events = feed(state, PickCard("p1u2"))
    assert ev.CardRevealed(0, "p1u2") in events
    assert kind(state) == "c4_unit_action" and state.unit("p1u2").activated
    state, events = feed(state, hold("p1u2"))
    assert state.pending is not None and state.pending.player == 1  # the lead goes left
    assert set(legal(state)) == {PickCard("p2u1"), PickCard("p2u2")}
    assert state.sides[0].revealed == ("p1u2",)  # revealed cards put to one side


# --- General and its reserve --------------------------------------------------------------


@pytest.mark.rule("C4-ANY-OTHER-MODE", "C4-ORDERING-THE-ACTIVATION-SEQUENCE")
def test_general_plays_the_sequence_in_order_and_reserve_once() -> None:
    # C4 Ordering the activation sequence > General: cards face down in the order chosen; Any other
    # mode: reveal the first card,
    # put it in reserve (once per round) or play the reserve card
    state = to_activation("general", PlaceCard("p1u2"), PlaceCard("p2u1"))
    assert state.sides[0].sequence == ("p1u2", "p1u1")
    assert state.sides[1].sequence == ("p2u1", "p2u2")
    assert set(legal(state)) == {PlayTop(), PutInReserve()}
    state, events = feed(state, PutInReserve())
    assert ev.CardReserved(0) in events and state.sides[0].reserve == "p1u2"
    state, _ = feed(state, PlayTop(), hold("p2u1"))
    assert set(legal(state)) == {PlayTop(), PlayReserve()}  # once per round: no reserve
    state, events = feed(state, PlayReserve())
    assert ev.CardRevealed(0, "p1u2", True) in events
    state, _ = feed(state, hold("p1u2"), PlayTop(), hold("p2u2"))
    state, events = feed(state, PlayTop(), hold("p1u1"))
    assert ev.C4PhaseStarted(1, Phase.CONTROL) in events  # every sequence revealed
    assert state.round == 2 and state.phase is Phase.TACTICAL


@pytest.mark.rule("C4-ACTIVATION-PHASE")
def test_a_player_without_cards_is_passed_over() -> None:
    # C4 Activating Unit: the phase ends once each player has revealed his entire sequence
    state = to_activation("general", PlaceCard("p1u1"), PlaceCard("p2u1"))
    state, _ = feed(state, PlayTop(), hold("p1u1"), PlayTop(), hold("p2u1"))
    state, _ = feed(state, PlayTop(), hold("p1u2"))
    assert state.pending is not None and state.pending.player == 1
    state, _ = feed(state, PutInReserve())  # his last card: he passes...
    assert state.pending is not None and state.pending.player == 1  # ... player 1 has none
    assert legal(state) == [PlayReserve()]


def test_the_sequence_cannot_be_built_with_an_enemy_card() -> None:
    state, _ = start(game("general"))
    assert kind(state) == "c4_sequence"
    try:
        feed(state, PlaceCard("p2u1"))
    except IllegalChoice:
        return
    raise AssertionError("player 1 placed an enemy card")


def test_master_strategist_and_military_genius_build_sequences() -> None:
    for name in ("master-strategist", "military-genius"):
        state = to_activation(name, PlaceCard("p1u2"), PlaceCard("p2u2"))
        assert state.sides[0].sequence == ("p1u2", "p1u1")
        assert state.sides[1].sequence == ("p2u2", "p2u1")


# --- Warlord ------------------------------------------------------------------------------


@pytest.mark.rule("C4-ORDERING-THE-ACTIVATION-SEQUENCE", "C4-ANY-OTHER-MODE")
def test_warlord_reveals_a_random_card() -> None:
    # C4 Ordering the activation sequence > Warlord: each deck shuffled face down: the first card is
    # a random one
    state = to_activation("warlord")
    assert set(legal(state)) == {PlayTop(), PutInReserve()}
    state, _ = feed(state, PlayTop())
    assert kind(state) == "c4_draw_die"  # the shuffle is a die
    state, events = feed(state, 2)  # two cards: faces 1-3 the first, 4-6 the second
    assert ev.CardRevealed(0, "p1u1") in events
    state, _ = feed(state, hold("p1u1"), PutInReserve(), 6)
    assert state.sides[1].reserve == "p2u2"


# --- Marauder -------------------------------------------------------------------------------


@pytest.mark.rule("C4-MARAUDER-MODE", "C4-ACTIVATION-PHASE")
def test_marauder_hands_an_enemy_card_to_its_owner() -> None:
    # C4 Ordering the activation sequence > Marauder: the drawer reveals an opponent's card and
    # hands it to him: he is active
    state = to_activation("marauder")
    assert state.activation is not None and state.activation.deck == tuple(sorted(HOLD))
    assert legal(state) == [DrawCard()]
    state, events = feed(state, DrawCard(), 3)  # 4 cards: face 3 is the third, p2u1
    assert ev.CardHanded(0, "p2u1", 1) in events
    assert state.pending is not None and state.pending.player == 1
    assert kind(state) == "c4_unit_action"
    state, _ = feed(state, hold("p2u1"))
    # the player on the left of the player who originally drew the card draws next
    assert state.pending is not None and state.pending.player == 1
    assert state.activation is not None and state.activation.drawer == 1


def test_marauder_rejected_faces_roll_again() -> None:
    state = to_activation("marauder")
    state, _ = feed(state, DrawCard(), 5)  # 4 cards: a 5 or a 6 draws nothing
    assert kind(state) == "c4_draw_die"


@pytest.mark.rule("C4-MARAUDER-MODE")
def test_marauder_own_card_reveal_or_reserve_once() -> None:
    # C4 Ordering the activation sequence > Marauder: his own card: reveal it, or put it in reserve
    # (once per round and player)
    state = to_activation("marauder")
    state, _ = feed(state, DrawCard(), 1)  # p1u1
    assert kind(state) == "c4_drawn"
    assert set(legal(state)) == {RevealDrawn(), PutInReserve()}
    state, events = feed(state, PutInReserve())
    assert ev.CardReserved(0) in events and state.sides[0].reserve == "p1u1"
    assert state.pending is not None and state.pending.player == 1  # he passes his turn
    state, _ = feed(state, DrawCard(), 5)  # deck p1u2 p2u1 p2u2: face 5 → p2u2, his own
    state, _ = feed(state, RevealDrawn(), hold("p2u2"))
    assert state.pending is not None and state.pending.player == 0
    assert set(legal(state)) == {DrawCard(), PlayReserve()}  # may play the reserve instead
    state, _ = feed(state, DrawCard(), 1)  # p1u2, his own: no second reserve
    assert legal(state) == [RevealDrawn()]


@pytest.mark.rule("C4-MARAUDER-MODE", "C4-ACTIVATING-UNIT")
def test_marauder_ends_when_deck_empty_and_reserves_played() -> None:
    # C4 Ordering the activation sequence > Marauder: the phase ends when the deck is empty and all
    # the reserve cards are played
    state = to_activation("marauder")
    state, _ = feed(state, DrawCard(), 1, PutInReserve())  # p1u1 in reserve
    state, _ = feed(state, DrawCard(), 1, hold("p1u2"))  # p1u2 handed to player 1
    state, _ = feed(state, DrawCard(), 1, hold("p2u1"))  # player 1 drew p2u1
    assert state.pending is not None and state.pending.player == 1
    state, _ = feed(state, DrawCard())  # the last card, his own: no die needed
    state, _ = feed(state, RevealDrawn(), hold("p2u2"))
    assert state.phase is Phase.ACTIVATION
    assert legal(state) == [PlayReserve()]  # no more cards to draw: plays his reserve
    state, events = feed(state, PlayReserve(), hold("p1u1"))
    assert ev.C4PhaseStarted(1, Phase.CONTROL) in events


# --- random draws ---------------------------------------------------------------------------


@given(st.integers(1, 40))
def test_random_draws_are_uniform(k: int) -> None:
    m = dice_needed(k)
    counts = [0] * k
    for v in range(6**m):
        digits = []
        for _ in range(m):
            digits.append(v % 6 + 1)
            v //= 6
        index = pick(k, digits)
        if index is not None:
            counts[index] += 1
    assert len(set(counts)) == 1 and counts[0] > 0


# --- whole games ------------------------------------------------------------------------------


def _invariants(state: C4State) -> None:
    for f in state.fighters:
        assert 0 < f.health <= f.max_health  # C4 Damage: health within bounds
    fighters = state.fighters
    for i, a in enumerate(fighters):
        for b in fighters[i + 1 :]:
            assert gap(a, b) > -1e-6, (a.id, b.id)  # no overlapping bases


@pytest.mark.rule("C4-PLAYING-A-GAME", "C4-ACTIVATION-PHASE")
@given(st.sampled_from(list(Mode)), st.integers(0, 10_000))
def test_random_games_activate_every_unit_once_per_round(name: Mode, seed: int) -> None:
    # C4 Playing a game: all their units are activated each round; Activating Unit
    state, events = run(game(name.value, seed=seed, rounds=3), [RandomAgent(seed), FirstAgent()])
    assert state.phase is Phase.OVER
    _invariants(state)
    revealed: dict[int, list[str]] = {}
    current = 0
    for e in events:
        if isinstance(e, ev.C4RoundStarted):
            current = e.round
        if isinstance(e, ev.CardRevealed):
            revealed.setdefault(current, []).append(e.card)
    assert sorted(revealed) == [1, 2, 3]
    for cards in revealed.values():
        assert sorted(cards) == sorted(HOLD)
    assert isinstance(events[-1], ev.C4GameEnded)


def test_many_seeded_games_keep_bases_apart() -> None:
    for seed in range(15):
        for name in Mode:
            state, _ = run(game(name.value, seed=seed, rounds=2), [RandomAgent(seed)] * 2)
            _invariants(state)


def _three(name: str, seed: int = 0) -> C4State:
    from c4flow_support import company
    from confrontation.c4.state import new_game

    fighters, units = [], []
    for p in range(3):
        f, u = company(p, units=2, y=15.0 + 45.0 * p)
        fighters += f
        units += u
    return new_game(tuple(fighters), tuple(units), players=3, mode=name, seed=seed, rounds=2)


@pytest.mark.rule("C4-ACTIVATING-UNIT")
def test_three_players_take_turns_to_the_left() -> None:
    # C4 Activating Unit: the active player hands the lead to the player to his left
    state, events = run(_three("general"), [FirstAgent()] * 3)
    assert state.phase is Phase.OVER
    first_round = []
    for e in events:
        if isinstance(e, ev.C4RoundStarted) and e.round == 2:
            break
        if isinstance(e, ev.CardRevealed):
            first_round.append(e.player)
    assert first_round == [0, 1, 2, 0, 1, 2]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(list(Mode)), st.integers(0, 10_000))
def test_three_player_games_end(name: Mode, seed: int) -> None:
    state, events = run(_three(name.value, seed), [RandomAgent(seed + k) for k in range(3)])
    assert state.phase is Phase.OVER
    _invariants(state)
    revealed = [e.card for e in events if isinstance(e, ev.CardRevealed)]
    assert len(revealed) == 2 * 6 and len(set(revealed)) == 6
