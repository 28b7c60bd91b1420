"""Chapter IV, the round: strategic phase (IV-A), card drawing (IV-B-1), maintenance (IV-D).

Every sentence of IV-B-1 has a test here; games are built from small fixtures with
:func:`game_from_specs` and played with explicit choices and die faces.
"""

from __future__ import annotations

import dataclasses
import io

import pytest

from confrontation.engine.core.events import (
    ActivationEnded,
    CardPlacedInReserve,
    CardRefused,
    CardRevealed,
    CardsWithdrawn,
    DieRolled,
    Event,
    FighterActivated,
    MaintenanceStepStarted,
    MarkersRemoved,
    RefusalsGranted,
    RolledOff,
    TacticsRolled,
    TacticsTied,
)
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import (
    Choice,
    ChooseFirst,
    DieFace,
    EndActivation,
    KeepResult,
    PlaceCard,
    PlayReserve,
    PlayReserveAndTop,
    PlayTop,
    PutInReserve,
    Raise,
    Refuse,
    TacticsFighter,
)
from confrontation.engine.core.registry import IllegalChoice, Transition
from confrontation.engine.core.state import GameState, Pending, Phase, ProfileSummary
from confrontation.engine.record import event_line, read_log, replay
from confrontation.engine.round.maintenance import step_names
from confrontation.engine.round.strategic import tactics_candidates
from confrontation.engine.setup.game import SideSpec, game_from_specs
from confrontation.engine.step import legal, start, step
from engine_support import only, plugged


def profile(pid: str, people: str = "lion", dis: int = 3, *abilities: str) -> ProfileSummary:
    return ProfileSummary(pid, pid.replace("-", " ").title(), people, dis, tuple(abilities))


def game(counts0: list[int], counts1: list[int], rounds: int = 2) -> GameState:
    """Player 1 (lion) and Player 2 (wolf): one card per count, ``count`` fighters each."""
    specs = [
        SideSpec(
            f"Side {p + 1}",
            people,
            tuple((profile(f"{people}-{n}", people), c) for n, c in enumerate(counts, 1)),
        )
        for p, (people, counts) in enumerate((("lion", counts0), ("wolf", counts1)))
    ]
    return game_from_specs(specs, rounds=rounds)


def answer(state: GameState, *choices: object) -> Transition:
    events: list[Event] = []
    for choice in choices:
        state, happened = step(state, choice)  # type: ignore[arg-type]
        events.extend(happened)
    return state, events


def place_all(state: GameState) -> GameState:
    """Both players build their sequences in army-list order."""
    for player in (0, 1):
        for card in state.cards_of(player):
            if card.id in (state.strategic.to_place[player] if state.strategic else ()):
                state, _ = step(state, PlaceCard(card.id))
    return state


def to_floor(state: GameState, first: int = 0) -> Transition:
    """Start, build sequences in list order, Player 1 wins the Tactics roll 5 to 2 (equal
    DIS), and names ``first`` to speak first."""
    state, events = start(state)
    state = place_all(state)
    state, more = answer(
        state,
        TacticsFighter(tactics_candidates(state, 0)[0].id),
        TacticsFighter(tactics_candidates(state, 1)[0].id),
        DieFace(5),
        DieFace(2),
        ChooseFirst(first),
    )
    return state, events + more


# --- IV-B-1 -----------------------------------------------------------------------------


@pytest.mark.rule("IV-B-1")
@pytest.mark.parametrize("first", [0, 1])
def test_the_tactics_winner_decides_who_speaks_first(first: int) -> None:
    state, _ = start(game([1], [1]))
    state = place_all(state)
    state, _ = answer(state, TacticsFighter("p1-c1-1"), TacticsFighter("p2-c1-1"))
    state, _ = answer(state, DieFace(2), DieFace(5))  # Player 2 wins 8 to 5
    assert state.pending == Pending("choose_first", 1)
    assert set(legal(state)) == {ChooseFirst(0), ChooseFirst(1)}
    state, _ = step(state, ChooseFirst(first))
    assert state.phase is Phase.ACTIVATION
    assert state.pending == Pending("floor", first)


@pytest.mark.rule("IV-B-1", "IV-B-2")
def test_playing_the_top_card_reveals_it_and_activates_all_its_fighters() -> None:
    state, _ = to_floor(game([3, 1], [1, 1]))
    state, events = step(state, PlayTop())
    assert only(events, CardRevealed) == [CardRevealed(0, "p1-c1", "deck")]
    assert [e.fighter for e in only(events, FighterActivated)] == [
        "p1-c1-1",
        "p1-c1-2",
        "p1-c1-3",
    ]
    assert all(state.fighter(f"p1-c1-{k}").activated for k in (1, 2, 3))
    assert state.side(0).deck == ("p1-c2",)
    assert state.pending == Pending("activation", 0)


@pytest.mark.rule("IV-B-1")
def test_then_he_passes_the_floor_to_his_enemy() -> None:
    state, _ = to_floor(game([1, 1], [1, 1]))
    state, events = answer(state, PlayTop(), EndActivation())
    assert only(events, ActivationEnded) == [ActivationEnded(0, ("p1-c1",))]
    assert state.pending == Pending("floor", 1)
    state, _ = step(state, PutInReserve())
    assert state.pending == Pending("floor", 0)


@pytest.mark.rule("IV-B-1")
def test_putting_the_top_card_in_reserve_face_down() -> None:
    state, _ = to_floor(game([1, 1], [1, 1]))
    assert PutInReserve() in legal(state)
    state, events = step(state, PutInReserve())
    assert only(events, CardPlacedInReserve) == [CardPlacedInReserve(0, "p1-c1")]
    assert only(events, FighterActivated) == []
    assert state.side(0).reserve == "p1-c1"
    assert state.side(0).deck == ("p1-c2",)
    assert not state.fighter("p1-c1-1").activated


@pytest.mark.rule("IV-B-1")
def test_only_one_card_in_reserve_once_during_the_phase() -> None:
    state, _ = to_floor(game([1, 1, 1], [1, 1, 1]))
    state, _ = answer(state, PutInReserve(), PlayTop(), EndActivation())
    assert PutInReserve() not in legal(state)  # a card already lies in reserve
    state, _ = answer(state, PlayReserve(), EndActivation(), PlayTop(), EndActivation())
    assert state.side(0).reserve is None
    assert PutInReserve() not in legal(state)  # the reserve was used once this phase
    assert PlayTop() in legal(state)


@pytest.mark.rule("IV-B-1")
def test_with_a_card_in_reserve_three_ways_to_play() -> None:
    state, _ = to_floor(game([1, 1, 1], [1, 1, 1]))
    state, _ = answer(state, PutInReserve(), PlayTop(), EndActivation())
    assert state.pending == Pending("floor", 0)
    assert set(legal(state)) == {PlayTop(), PlayReserve(), PlayReserveAndTop()}


@pytest.mark.rule("IV-B-1")
def test_playing_the_reserve_instead_of_the_top_card() -> None:
    state, _ = to_floor(game([1, 1, 1], [1, 1, 1]))
    state, _ = answer(state, PutInReserve(), PlayTop(), EndActivation())
    state, events = step(state, PlayReserve())
    assert only(events, CardRevealed) == [CardRevealed(0, "p1-c1", "reserve")]
    assert state.side(0).deck == ("p1-c2", "p1-c3")
    assert state.fighter("p1-c1-1").activated and not state.fighter("p1-c2-1").activated


@pytest.mark.rule("IV-B-1", "IV-B-2")
def test_playing_the_reserve_plus_the_top_card_activates_both_together() -> None:
    state, _ = to_floor(game([1, 2, 1], [1, 1, 1]))
    state, _ = answer(state, PutInReserve(), PlayTop(), EndActivation())
    state, events = step(state, PlayReserveAndTop())
    assert only(events, CardRevealed) == [
        CardRevealed(0, "p1-c1", "reserve"),
        CardRevealed(0, "p1-c2", "deck"),
    ]
    assert state.activation is not None and state.activation.current is not None
    assert state.activation.current.fighters == ("p1-c1-1", "p1-c2-1", "p1-c2-2")
    state, events = step(state, EndActivation())
    assert only(events, ActivationEnded) == [ActivationEnded(0, ("p1-c1", "p1-c2"))]
    assert state.side(0).deck == ("p1-c3",)


@pytest.mark.rule("IV-B-1")
@pytest.mark.parametrize(
    ("counts0", "counts1", "refusals"),
    [([1, 1], [1, 1, 1, 1, 1], (3, 0)), ([1, 1, 1], [1], (0, 2)), ([1, 1], [2, 2], (0, 0))],
)
def test_the_player_with_fewer_cards_has_the_difference_in_refusals(
    counts0: list[int], counts1: list[int], refusals: tuple[int, int]
) -> None:
    state, events = to_floor(game(counts0, counts1))
    assert (state.side(0).refusals, state.side(1).refusals) == refusals
    granted = {e.player: e.count for e in only(events, RefusalsGranted)}
    assert granted == {p: n for p, n in enumerate(refusals) if n}


@pytest.mark.rule("IV-B-1")
def test_a_refusal_plays_no_card_and_gives_the_floor_back() -> None:
    state, _ = to_floor(game([1], [1, 1, 1]))
    assert Refuse() in legal(state)
    state, events = step(state, Refuse())
    assert only(events, CardRefused) == [CardRefused(0, 1)]
    assert only(events, CardRevealed) == []
    assert state.side(0).deck == ("p1-c1",)
    assert state.pending == Pending("floor", 1)
    state, _ = answer(state, PlayTop(), EndActivation(), Refuse(), PlayTop(), EndActivation())
    assert state.side(0).refusals == 0
    assert Refuse() not in legal(state)


@pytest.mark.rule("IV-B-1")
def test_the_player_with_more_cards_has_no_refusal() -> None:
    state, _ = to_floor(game([1], [1, 1, 1]), first=1)
    assert state.pending == Pending("floor", 1)
    assert Refuse() not in legal(state)


@pytest.mark.rule("IV-B-1")
def test_note_1_the_opponent_continues_alone() -> None:
    state, _ = to_floor(game([1], [1, 1, 1]))
    state, _ = answer(state, PlayTop(), EndActivation())
    state, _ = answer(state, PlayTop(), EndActivation())
    # Player 1 has no cards left: Player 2 keeps the floor, with the same options.
    assert state.pending == Pending("floor", 1)
    assert set(legal(state)) == {PlayTop(), PutInReserve()}
    state, _ = step(state, PutInReserve())
    assert state.pending == Pending("floor", 1)
    state, _ = answer(state, PlayReserveAndTop(), EndActivation())
    assert state.phase is not Phase.ACTIVATION  # both decks are empty: the phase ended


@pytest.mark.rule("IV-B-1")
def test_note_1_a_card_in_reserve_still_counts_as_a_card_left() -> None:
    state, _ = to_floor(game([1, 1], [1]))
    state, _ = answer(state, PutInReserve())  # Player 1: deck 1, reserve 1
    state, _ = answer(state, PlayTop(), EndActivation())  # Player 2 is out of cards
    state, _ = answer(state, PlayTop(), EndActivation())
    assert state.pending == Pending("floor", 0)
    assert legal(state) == [PlayReserve()]


@pytest.mark.rule("IV-B-1")
def test_note_2_a_card_of_fighters_killed_during_the_phase_is_still_played() -> None:
    state, _ = to_floor(game([1, 1], [2, 1]))
    state, _ = answer(state, PlayTop(), EndActivation())
    # Both fighters of Player 2's top card die before it is played.
    killed = [dataclasses.replace(state.fighter(f), wounds=4) for f in ("p2-c1-1", "p2-c1-2")]
    state = state.with_fighters(*killed)
    state, events = step(state, PlayTop())
    assert only(events, CardRevealed) == [CardRevealed(1, "p2-c1", "deck")]
    assert only(events, FighterActivated) == []
    assert only(events, ActivationEnded) == [ActivationEnded(1, ("p2-c1",))]
    assert state.pending == Pending("floor", 0)  # no action: the floor passes at once


@pytest.mark.rule("IV-B-1")
def test_a_refusal_needs_an_opponent_with_cards_left() -> None:
    """Ruling (docs/rulings.md): with the opponent out of cards a refusal would give the
    floor to nobody, so it is not offered. (Play cannot get there by itself: a game effect
    that takes cards away can.)"""
    state, _ = to_floor(game([1, 1], [1, 1, 1]))
    assert state.side(0).refusals == 1 and Refuse() in legal(state)
    emptied = state.with_side(dataclasses.replace(state.side(1), deck=()))
    assert Refuse() not in legal(emptied)
    assert set(legal(emptied)) == {PlayTop(), PutInReserve()}


def test_an_answer_that_is_not_legal_is_refused() -> None:
    state, _ = to_floor(game([1], [1, 1]))
    with pytest.raises(IllegalChoice):
        step(state, PlayReserve())


# --- IV-A -------------------------------------------------------------------------------


@pytest.mark.rule("IV-A-1")
def test_each_player_builds_his_sequence_in_the_order_he_wants() -> None:
    state, _ = start(game([1, 1, 1], [1]))
    assert state.pending == Pending("place_card", 0)
    assert set(legal(state)) == {PlaceCard("p1-c1"), PlaceCard("p1-c2"), PlaceCard("p1-c3")}
    state, _ = answer(state, PlaceCard("p1-c3"), PlaceCard("p1-c1"), PlaceCard("p1-c2"))
    assert state.side(0).deck == ("p1-c3", "p1-c1", "p1-c2")
    assert state.pending == Pending("place_card", 1)


@pytest.mark.rule("IV-A-1")
def test_cards_of_fighters_eliminated_in_previous_rounds_leave_the_sequence() -> None:
    state, _ = to_floor(game([1, 1], [1]))
    state = state.with_fighters(dataclasses.replace(state.fighter("p1-c2-1"), wounds=4))
    state, events = answer(state, PlayTop(), EndActivation(), PlayTop(), EndActivation(), PlayTop())
    assert state.round == 2
    assert only(events, CardsWithdrawn) == [CardsWithdrawn(0, ("p1-c2",))]
    assert set(legal(state)) == {PlaceCard("p1-c1")}


@pytest.mark.rule("IV-A-2", "II-A-3")
def test_tactics_roll_is_an_opposed_discipline_test() -> None:
    specs = [
        SideSpec("A", "lion", ((profile("captain", "lion", 5), 1), (profile("guard"), 1))),
        SideSpec("B", "wolf", ((profile("wolf-1", "wolf", 2), 1),)),
    ]
    state, _ = start(game_from_specs(specs))
    state = place_all(state)
    state, _ = answer(state, TacticsFighter("p1-c1-1"), TacticsFighter("p2-c1-1"))
    state, events = answer(state, DieFace(1), DieFace(3))  # 1 + 5 = 6 against 3 + 2 = 5
    assert only(events, TacticsRolled) == [TacticsRolled((6, 5), 0)]
    assert state.pending == Pending("choose_first", 0)


@pytest.mark.rule("IV-A-2", "II-A-3")
def test_a_tied_tactics_roll_is_rolled_again() -> None:
    state, _ = start(game([1], [1]))
    state = place_all(state)
    state, _ = answer(state, TacticsFighter("p1-c1-1"), TacticsFighter("p2-c1-1"))
    state, events = answer(state, DieFace(4), DieFace(4))
    assert only(events, TacticsTied) == [TacticsTied((7, 7))]
    assert state.pending == Pending("tactics_die", None)
    state, events = answer(state, DieFace(2), DieFace(3))
    assert only(events, TacticsRolled) == [TacticsRolled((5, 6), 1)]


@pytest.mark.rule("IV-A-2", "II-A-1", "II-A-3")
def test_a_six_may_be_raised_after_seeing_the_enemy_result() -> None:
    state, _ = start(game([1], [1]))
    state = place_all(state)
    state, _ = answer(state, TacticsFighter("p1-c1-1"), TacticsFighter("p2-c1-1"))
    state, _ = answer(state, DieFace(6), DieFace(5))
    assert state.pending == Pending("tactics_raise", 0)
    assert set(legal(state)) == {Raise(), KeepResult()}
    state, events = answer(state, Raise(), DieFace(6), Raise(), DieFace(4))
    assert only(events, TacticsRolled) == [TacticsRolled((16 + 3, 5 + 3), 0)]


@pytest.mark.rule("IV-A-2", "II-A-1")
def test_a_one_after_a_raise_makes_the_natural_result_one() -> None:
    state, _ = start(game([1], [1]))
    state = place_all(state)
    state, _ = answer(state, TacticsFighter("p1-c1-1"), TacticsFighter("p2-c1-1"))
    state, events = answer(state, DieFace(6), DieFace(2), Raise(), DieFace(1))
    assert only(events, TacticsRolled) == [TacticsRolled((1 + 3, 2 + 3), 1)]


@pytest.mark.rule("IV-A-2", "II-A-3")
def test_when_both_show_a_six_the_lower_final_result_decides_first() -> None:
    specs = [
        SideSpec("A", "lion", ((profile("lion-1", "lion", 4), 1),)),
        SideSpec("B", "wolf", ((profile("wolf-1", "wolf", 2), 1),)),
    ]
    state, _ = start(game_from_specs(specs))
    state = place_all(state)
    state, _ = answer(state, TacticsFighter("p1-c1-1"), TacticsFighter("p2-c1-1"))
    state, _ = answer(state, DieFace(6), DieFace(6))  # 10 against 8
    assert state.pending == Pending("tactics_raise", 1)
    state, _ = answer(state, Raise(), DieFace(5))  # Player 2 now has 6 + 5 + 2 = 13
    assert state.pending == Pending("tactics_raise", 0)  # Player 1 decides knowing it
    state, events = answer(state, KeepResult())
    assert only(events, TacticsRolled) == [TacticsRolled((10, 13), 1)]


def _low_discipline_game(dis0: int, dis1: int) -> GameState:
    """One fighter a side, with the given Discipline, the sequences built and both Tactics
    fighters chosen: the first Tactics die is due."""
    specs = [
        SideSpec("A", "lion", ((profile("lion-1", "lion", dis0), 1),)),
        SideSpec("B", "wolf", ((profile("wolf-1", "wolf", dis1), 1),)),
    ]
    state, _ = start(game_from_specs(specs))
    state = place_all(state)
    state, _ = answer(state, TacticsFighter("p1-c1-1"), TacticsFighter("p2-c1-1"))
    return state


@pytest.mark.rule("IV-A-2", "II-A-3", "II-A-4")
def test_two_results_of_zero_or_less_are_a_tie_rolled_again() -> None:
    """II-A-4: "If the final result of a characteristic test is less than or equal to 0, the
    test is an automatic failure." CLARIFICATIONS §9: "In an opposed test a side that fails
    loses to a side that does not; two failures are a tie and are rolled again like any tie.
    This holds for every opposed roll alike: Tactics roll, …". So −1 against 0 is no win for
    the 0 (the old ruling let "the higher final result win even if it is 0 or less")."""
    state = _low_discipline_game(-2, -1)
    state, events = answer(state, DieFace(1), DieFace(1))  # 1 − 2 = −1 against 1 − 1 = 0
    assert only(events, TacticsRolled) == []
    assert only(events, TacticsTied) == [TacticsTied((-1, 0))]
    assert state.pending == Pending("tactics_die", None)
    assert "−1 and 0 are both failures" in " ".join(narrate(events)).replace("-", "−")
    # A failure loses to a result of 1 or more: 2 − 2 = 0 against 2 − 1 = 1.
    state, events = answer(state, DieFace(2), DieFace(2))
    assert only(events, TacticsRolled) == [TacticsRolled((0, 1), 1)]


@pytest.mark.rule("IV-A-2", "II-A-3")
def test_equal_sixes_are_ordered_by_a_roll_off_of_the_game_dice() -> None:
    """II-A-3: "If both players roll a '6', the player with the lower final score (before a
    possible re-roll) decides first whether to re-roll his die." CLARIFICATIONS §9, both
    dice show a 6 with equal final results: "each side rolls a d6, again until the faces
    differ, and the lower face decides first whether to raise, as if it were the lower
    result. The roll-off orders the decisions only; its dice are chance steps of the game
    like any other." (The old engine let Player 1 decide first.)"""
    specs = [
        SideSpec("A", "lion", ((profile("lion-1", "lion", 3), 1),)),
        SideSpec("B", "wolf", ((profile("wolf-1", "wolf", 3), 1),)),
    ]
    state, log = start(game_from_specs(specs))
    inputs: list[Choice] = [PlaceCard("p1-c1"), PlaceCard("p2-c1")]
    inputs += [TacticsFighter("p1-c1-1"), TacticsFighter("p2-c1-1")]
    inputs += [DieFace(6), DieFace(6)]  # 9 against 9, both may raise
    state, events = answer(state, *inputs)
    assert state.pending == Pending("rolloff_die", None)
    # The roll-off: 4 and 4 (equal: again), then 5 and 2: Player 2's face is lower.
    rolloff = [DieFace(4), DieFace(4), DieFace(5), DieFace(2)]
    state, more = answer(state, *rolloff)
    events += more
    assert [e for e in more if isinstance(e, DieRolled)] == [
        DieRolled("rolloff_die", 0, 4),
        DieRolled("rolloff_die", 1, 4),
        DieRolled("rolloff_die", 0, 5),
        DieRolled("rolloff_die", 1, 2),
    ]
    assert only(more, RolledOff) == [RolledOff("tactics", (0, 1), (9, 9), ((4, 5), (4, 2)), 1)]
    assert state.pending == Pending("tactics_raise", 1)  # Player 2 decides first
    # Player 2 raises: 6 + 3 + 3 = 12; Player 1 decides knowing it, raises: 6 + 5 + 3 = 14.
    state, more = answer(state, Raise(), DieFace(3))
    events += more
    assert state.pending == Pending("tactics_raise", 0)
    state, more = answer(state, Raise(), DieFace(5))
    events += more
    assert only(more, TacticsRolled) == [TacticsRolled((14, 12), 0)]
    text = "\n".join(narrate(events))
    assert (
        "Player 1 and Player 2 show a 6 with equal results (9) in the Tactics roll; roll-off: "
        "Player 1 4 then 5, Player 2 4 then 2: Player 2 decides first whether to raise."
    ) in text
    # The record replays: the roll-off's dice are inputs like any other die.
    record = read_log(io.StringIO("".join(event_line(e) + "\n" for e in log + events)))
    replayed = replay(record)
    assert replayed == state


@pytest.mark.rule("IV-A-2", "II-A-3")
def test_the_roll_off_orders_only_the_equal_results() -> None:
    """II-A-3: with unequal results the lower one decides first, no roll-off is rolled."""
    state = _low_discipline_game(4, 3)
    state, events = answer(state, DieFace(6), DieFace(6))  # 10 against 9
    assert state.pending == Pending("tactics_raise", 1)
    assert only(events, RolledOff) == []


@pytest.mark.rule("IV-A-2")
def test_only_the_army_people_may_roll_the_tactics_roll() -> None:
    """Note 1: allies, Immortal/Elemental/Mercenary fighters of another people are out,
    unless they have Alliance/X with X the army's people or alliance way."""
    cards = (
        (profile("knight", "lion", 3), 1),
        (profile("ally", "griffin", 6), 1),
        (profile("immortal", "immortals", 7, "Immortal/1"), 1),
        (profile("own-immortal", "lion", 4, "Immortal/1"), 1),
        (profile("sellsword", "cadwallon", 5, "Mercenary", "Alliance/lion"), 1),
        (profile("wayfarer", "cadwallon", 5, "Mercenary", "Alliance/light"), 1),
        (profile("stranger", "cadwallon", 5, "Mercenary", "Alliance/wolf"), 1),
        (profile("elemental", "elementals", 5, "Elemental/Light"), 1),
    )
    specs = [
        SideSpec("A", "lion", cards, alliance_way="light", allies=("ally",)),
        SideSpec("B", "wolf", ((profile("wolf-1", "wolf"), 1),)),
    ]
    state = game_from_specs(specs)
    eligible = {state.fighter(f.id).profile for f in tactics_candidates(state, 0)}
    assert eligible == {"knight", "own-immortal", "sellsword", "wayfarer"}
    dead = state.with_fighters(dataclasses.replace(state.fighter("p1-c1-1"), wounds=4))
    assert "knight" not in {f.profile for f in tactics_candidates(dead, 0)}


@pytest.mark.rule("IV-A-2")
def test_a_side_without_an_eligible_fighter_loses_the_tactics_roll() -> None:
    specs = [
        SideSpec("A", "lion", ((profile("ally", "griffin", 6), 1),), allies=("ally",)),
        SideSpec("B", "wolf", ((profile("wolf-1", "wolf"), 1),)),
    ]
    state, _ = start(game_from_specs(specs))
    state = place_all(state)
    assert legal(state) == [TacticsFighter(None)]
    state, events = answer(state, TacticsFighter(None), TacticsFighter("p2-c1-1"))
    assert only(events, TacticsRolled) == [TacticsRolled((0, 3), 1, uncontested=True)]
    assert state.pending == Pending("choose_first", 1)


# --- IV-D -------------------------------------------------------------------------------


def play_round(state: GameState) -> Transition:
    """From the first floor question, everybody plays his top card and does nothing."""
    events: list[Event] = []
    while state.phase is Phase.ACTIVATION:
        choice = PlayTop() if state.pending and state.pending.kind == "floor" else EndActivation()
        state, happened = step(state, choice)
        events.extend(happened)
    return state, events


@pytest.mark.rule("IV-D", "IV-D-1", "IV-D-2", "IV-D-3")
def test_maintenance_runs_its_steps_in_the_rulebook_order() -> None:
    assert step_names() == (
        "rally",
        "faith",
        "mana",
        "negative_effects",
        "passive_abilities",
        "active_abilities",
        "various_effects",
        "returns",
        "markers",
    )
    calls: list[str] = []

    def hook_for(name: str):  # type: ignore[no-untyped-def]
        def hook(state: GameState) -> Transition:
            calls.append(name)
            return state, []

        return hook

    hooks = [(n, hook_for(n)) for n in reversed(step_names())]
    state, _ = to_floor(plugged(game([1], [1]), maintenance_hooks=hooks))
    state, events = play_round(state)
    assert calls == list(step_names())
    started = [e.step for e in only(events, MaintenanceStepStarted)]
    assert started == list(step_names())


@pytest.mark.rule("IV-D-3", "II-B-5")
def test_stunned_charged_and_defence_markers_are_removed_last() -> None:
    seen: list[bool] = []

    def late_effect(state: GameState) -> Transition:  # runs in step 5, before the removal
        seen.append(state.fighter("p1-c1-1").stunned)
        return state, []

    state, _ = to_floor(game([1], [1]))
    marked = dataclasses.replace(state.fighter("p1-c1-1"), stunned=True, charged=True)
    guarded = dataclasses.replace(state.fighter("p2-c1-1"), defence=True)
    state = state.with_fighters(marked, guarded)
    state = plugged(state, maintenance_hooks=[("returns", late_effect)])
    state, events = play_round(state)
    assert seen == [True]
    assert only(events, MarkersRemoved) == [
        MarkersRemoved("p1-c1-1", ("stunned", "charged")),
        MarkersRemoved("p2-c1-1", ("defence",)),
    ]
    fighter = state.fighter("p1-c1-1")
    assert not (fighter.stunned or fighter.charged or state.fighter("p2-c1-1").defence)


@pytest.mark.rule("IV-D")
def test_a_maintenance_hook_may_ask_a_question_and_the_phase_resumes() -> None:
    from confrontation.engine.core.questions import Option, Question
    from confrontation.engine.core.registry import Handler

    order: list[str] = []

    def ask(state: GameState) -> Transition:
        order.append("asked")
        return dataclasses.replace(state, pending=Pending("test_rally", 0)), []

    def after(state: GameState) -> Transition:
        order.append("next hook")
        return state, []

    def apply(state: GameState, choice: Choice) -> Transition:
        order.append("answered")
        return state, []

    handler = Handler(
        "test_rally",
        lambda s: [EndActivation()],
        apply,
        lambda s, cs: Question("test_rally", 0, "?", tuple(Option(c, "ok") for c in cs)),
    )
    hooks = [("rally", ask), ("rally", after)]
    state, _ = to_floor(plugged(game([1], [1]), handlers=[handler], maintenance_hooks=hooks))
    state, _ = play_round(state)
    assert state.pending == Pending("test_rally", 0)
    assert order == ["asked"]
    state, _ = step(state, EndActivation())
    assert order == ["asked", "answered", "next hook"]
    assert state.round == 2 and state.phase is Phase.STRATEGIC


@pytest.mark.rule("III-A-2")
def test_the_game_ends_after_its_last_round() -> None:
    state, _ = to_floor(game([1], [1], rounds=1))
    state, events = play_round(state)
    assert state.phase is Phase.OVER
    assert events[-1].kind == "game_ended"
    assert legal(state) == []
