"""What each player sees in every game mode (# C4 Tactical Phase, # C4 Drawing the Cards):
``views.redact`` checked against the state, through step()."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4flow_support import RandomAgent, feed, game, kind
from confrontation.c4.choices import (
    ChooseFirst,
    DrawCard,
    PlaceCard,
    PlayTop,
    PutInReserve,
    UnitAction,
)
from confrontation.c4.modes import Mode
from confrontation.c4.state import C4State
from confrontation.c4.step import legal, run, start, step
from confrontation.c4.views import redact


def built(name: str, first1: str, first2: str, **kw: object) -> C4State:
    state, _ = start(game(name, **kw))  # type: ignore[arg-type]
    state, _ = feed(state, PlaceCard(first1), PlaceCard(first2), 5, 2, ChooseFirst(0))
    return state


@pytest.mark.rule("C4-ORDERING-THE-ACTIVATION-SEQUENCE")
def test_general_sequences_are_face_down() -> None:
    # C4 Ordering the activation sequence > General: each player places his cards face down, in the
    # order he wishes to play them
    a = built("general", "p1u2", "p2u2")
    b = built("general", "p1u2", "p2u1")
    assert a.sides[1].sequence != b.sides[1].sequence
    assert redact(a, 0) == redact(b, 0)  # player 1 cannot tell them apart
    assert redact(a, 1).sides[1].sequence == ("p2u2", "p2u1")  # his own order he knows
    assert redact(a, 0).sides[0].sequence == ("p1u2", "p1u1")


def test_sequences_are_secret_while_being_prepared() -> None:
    # Master strategist, Military genius: each player prepares his sequence in secret
    for name in ("general", "master-strategist", "military-genius"):
        state, _ = start(game(name))
        a, _ = feed(state, PlaceCard("p1u2"))
        b, _ = feed(state, PlaceCard("p1u1"))
        assert kind(a) == "c4_sequence" and a.pending is not None and a.pending.player == 1
        assert redact(a, 1) != redact(a, 0)
        assert redact(a, 1).tactical == redact(b, 1).tactical  # hidden from player 2
        assert a.tactical is not None and b.tactical is not None
        assert a.tactical.building[0] != b.tactical.building[0]


@pytest.mark.rule("C4-ORDERING-THE-ACTIVATION-SEQUENCE")
def test_master_strategist_lays_its_cards_face_up() -> None:
    # C4 Ordering the activation sequence > Master strategist: all the players place their cards
    # face up
    a = built("master-strategist", "p1u2", "p2u2")
    b = built("master-strategist", "p1u2", "p2u1")
    assert redact(a, 0) != redact(b, 0)
    assert redact(a, 0).sides[1].sequence == ("p2u2", "p2u1")


@pytest.mark.rule("C4-ORDERING-THE-ACTIVATION-SEQUENCE")
def test_military_genius_one_side_up_the_other_down() -> None:
    # C4 Ordering the activation sequence > Military genius: one side places its cards face up and
    # the other face down
    a = built("military-genius", "p1u1", "p2u2", face_up=(0,))
    b = built("military-genius", "p1u2", "p2u1", face_up=(0,))
    assert redact(a, 1).sides[0].sequence == ("p1u1", "p1u2")  # player 1 plays face up
    assert redact(b, 1).sides[0].sequence == ("p1u2", "p1u1")
    assert redact(a, 0).sides[1] == redact(b, 0).sides[1]  # player 2 plays face down
    flipped = built("military-genius", "p1u1", "p2u2", face_up=(1,))
    assert redact(flipped, 0).sides[1].sequence == ("p2u2", "p2u1")


@pytest.mark.rule("C4-ANY-OTHER-MODE")
def test_a_reserve_card_is_not_revealed() -> None:
    # C4 Drawing the Cards > Any other mode: the card put in reserve is not revealed
    a = built("general", "p1u1", "p2u1")
    b = built("general", "p1u2", "p2u1")
    a, _ = feed(a, PutInReserve())
    b, _ = feed(b, PutInReserve())
    assert a.sides[0].reserve == "p1u1" and b.sides[0].reserve == "p1u2"
    assert redact(a, 1) == redact(b, 1)
    assert redact(a, 0).sides[0].reserve == "p1u1"
    # C4 Ordering the activation sequence > Master strategist: the reserve was the first card of a
    # face-up sequence (ruling)
    c = built("master-strategist", "p1u2", "p2u1")
    c, _ = feed(c, PutInReserve())
    assert redact(c, 1).sides[0].reserve == "p1u2"


def test_warlord_reserve_known_to_its_owner_only() -> None:
    state, _ = start(game("warlord"))
    state, _ = feed(state, 5, 2, ChooseFirst(0))
    a, _ = feed(state, PutInReserve(), 1)
    b, _ = feed(state, PutInReserve(), 6)
    assert a.sides[0].reserve != b.sides[0].reserve
    assert redact(a, 1) == redact(b, 1)
    assert redact(a, 0) == a


@pytest.mark.rule("C4-MARAUDER-MODE")
def test_marauder_drawn_card_and_reserve_hidden() -> None:
    # C4 Ordering the activation sequence > Marauder: the first active player draws the first card
    # without revealing it
    state, _ = start(game("marauder"))
    state, _ = feed(state, 5, 2, ChooseFirst(0))
    a, _ = feed(state, DrawCard(), 1)  # p1u1, his own
    b, _ = feed(state, DrawCard(), 2)  # p1u2, his own
    assert kind(a) == kind(b) == "c4_drawn"
    assert redact(a, 1) == redact(b, 1)
    assert redact(a, 0) == a
    ar, _ = feed(a, PutInReserve())
    br, _ = feed(b, PutInReserve())
    assert redact(ar, 1) == redact(br, 1)
    assert ar.pending is not None and ar.pending.player == 1
    assert legal(redact(ar, 1)) == legal(ar)  # the view answers the same question


@settings(max_examples=25)
@given(st.sampled_from(list(Mode)), st.integers(0, 10_000), st.integers(1, 60))
def test_views_keep_every_players_cards(name: Mode, seed: int, steps: int) -> None:
    state, _ = run(game(name.value, seed=seed), [RandomAgent(seed)] * 2, max_steps=steps)

    def secrets(st: C4State) -> list[str]:
        cards = [c for side in st.sides for c in (*side.sequence, side.reserve) if c]
        if st.activation is not None:
            cards += [*st.activation.deck, *((st.activation.drawn,) if st.activation.drawn else ())]
        return sorted(cards)

    for player in range(2):
        view = redact(state, player)
        assert view.sides[player] == state.sides[player]  # his own side untouched
        assert secrets(view) == secrets(state)  # the same cards, maybe dealt otherwise
        for side, seen in zip(state.sides, view.sides, strict=True):
            assert len(side.sequence) == len(seen.sequence)
            assert (side.reserve is None) == (seen.reserve is None)
            if name is not Mode.MARAUDER:
                own = sorted((*side.sequence, *((side.reserve,) if side.reserve else ())))
                shown = sorted((*seen.sequence, *((seen.reserve,) if seen.reserve else ())))
                assert own == shown
        if view.activation is not None:
            assert view.activation.deck == tuple(sorted(view.activation.deck))  # no order
        if state.pending is not None and state.pending.player == player:
            assert legal(view) == legal(state)


def test_a_view_can_be_played_on() -> None:
    state = built("general", "p1u2", "p2u2")
    view = redact(state, 1)
    assert legal(view) == [PlayTop(), PutInReserve()]
    view, _ = step(view, PlayTop())
    # player 2 does not know player 1's top card: his view deals it canonically (p1u1)
    assert view.activation is not None and view.activation.unit == "p1u1"
    view, _ = step(view, UnitAction("p1u1", "hold"))
    assert view.pending is not None and view.pending.player == 1


@pytest.mark.rule("C4-BARBARIAN-MODE")
def test_barbarian_hides_nothing() -> None:
    # C4 Ordering the activation sequence > Barbarian: no sequence, cards revealed by choice
    for steps in range(1, 30):
        state, _ = run(game("barbarian", seed=2), [RandomAgent(2)] * 2, max_steps=steps)
        assert redact(state, 0) == state and redact(state, 1) == state


@pytest.mark.rule("C4-MARAUDER-MODE")
def test_marauder_own_drawn_card_kept_while_the_other_holds_a_reserve() -> None:
    # C4 Ordering the activation sequence > Marauder: the drawer knows the card he drew; the
    # other player's reserve card hidden from him must not erase it from his view
    state, _ = start(game("marauder"))
    state, _ = feed(state, 5, 2, ChooseFirst(0))
    reserved, _ = feed(state, DrawCard(), 1, PutInReserve())
    drawn = []
    for face in range(1, 7):
        after, _ = feed(reserved, DrawCard(), face)
        act = after.activation
        if kind(after) == "c4_drawn" and act is not None and act.drawer == 1:
            drawn.append(after)
    assert drawn  # some face draws one of player 2's own cards
    for after in drawn:
        assert after.sides[0].reserve is not None
        seen = redact(after, 1)
        assert seen.activation is not None and after.activation is not None
        assert seen.activation.drawn == after.activation.drawn
