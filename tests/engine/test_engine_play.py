"""The one door (legal/step), chance steps, agents, the action-provider seam, random play,
replay of the record and narration."""

from __future__ import annotations

import dataclasses
import io
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.agents.random import RandomAgent, uniform_index
from confrontation.dice import ScriptedRoller, SeededRoller
from confrontation.engine.core.events import (
    ActivationEnded,
    CardRevealed,
    ChoiceMade,
    DieRolled,
    Event,
    FighterActivated,
    GameStarted,
    RoundStarted,
)
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import (
    Choice,
    DieFace,
    EndActivation,
    PlaceCard,
    PlayTop,
    Question,
)
from confrontation.engine.core.registry import EngineError, IllegalChoice, Transition
from confrontation.engine.core.state import Activation, GameState, Phase, ProfileSummary
from confrontation.engine.core.views import redact
from confrontation.engine.record import ReplayMismatch, read_log, replay, write_log
from confrontation.engine.setup.game import SideSpec, game_from_specs
from confrontation.engine.step import is_chance, legal, outcomes, question, roll, run, start, step
from engine_support import plugged


def small_game(rounds: int = 3, seed: int = 0, counts: tuple[int, ...] = (1, 2, 3)) -> GameState:
    def side(people: str, n: int) -> SideSpec:
        cards = tuple(
            (ProfileSummary(f"{people}-{k}", f"{people.title()} {k}", people, k % 4 + 1), c)
            for k, c in enumerate(counts[:n], 1)
        )
        return SideSpec(people.title(), people, cards)

    return game_from_specs([side("lion", len(counts)), side("wolf", 2)], rounds=rounds, seed=seed)


def to_first_floor(state: GameState) -> tuple[GameState, list[Event]]:
    """Start and answer with the first legal choice, dice 5 then 2, up to the first floor."""
    state, events = start(state)
    dice = iter([5, 2])
    while state.pending is not None and state.pending.kind != "floor":
        choice = DieFace(next(dice)) if is_chance(state) else legal(state)[0]
        state, happened = step(state, choice)
        events.extend(happened)
    return state, events


def play(seed: int, rounds: int = 3) -> tuple[GameState, list[Event]]:
    state = small_game(rounds=rounds, seed=seed)
    return run(state, [RandomAgent(seed + 100), RandomAgent(seed + 200)])


# --- the one door --------------------------------------------------------------------------


def test_step_never_changes_the_state_it_is_given() -> None:
    state, _ = start(small_game())
    before = (repr(state), hash(state))
    for choice in legal(state):
        step(state, choice)
    assert (repr(state), hash(state)) == before


def test_a_choice_not_in_legal_is_an_error() -> None:
    state, _ = start(small_game())
    with pytest.raises(IllegalChoice):
        step(state, PlayTop())
    over, _ = play(seed=1, rounds=1)
    assert legal(over) == [] and question(over) is None
    with pytest.raises(EngineError):
        step(over, PlayTop())


def test_every_question_shows_who_what_and_labelled_options() -> None:
    _, events = play(seed=4, rounds=1)
    replayed, _ = start(events[0].state)  # type: ignore[attr-defined]
    for event in events[1:]:
        if isinstance(event, ChoiceMade | DieRolled):
            asked = question(replayed)
            assert isinstance(asked, Question)
            assert asked.prompt and all(option.label for option in asked.options)
            assert asked.choices == legal(replayed)
            assert asked.player == (None if is_chance(replayed) else event.player)
            choice = event.choice if isinstance(event, ChoiceMade) else DieFace(event.face)
            replayed, _ = step(replayed, choice)


def test_a_chance_step_has_the_exact_distribution_of_a_d6() -> None:
    state, _ = start(small_game())
    agents = [RandomAgent(1), RandomAgent(2)]
    while not is_chance(state):
        asked = question(state)
        assert asked is not None and asked.player is not None
        state, _ = step(state, agents[asked.player].choose(state, asked, asked.choices))
    dist = outcomes(state)
    assert [face.face for face, _ in dist] == [1, 2, 3, 4, 5, 6]
    assert all(p == Fraction(1, 6) for _, p in dist) and sum(p for _, p in dist) == 1
    rolled, events = roll(state, ScriptedRoller([4]))
    assert events[0] == DieRolled("tactics_die", 0, 4)
    assert rolled.dice_rolled == state.dice_rolled + 1
    with pytest.raises(IllegalChoice):
        step(state, DieFace(7))


# --- the action-provider seam (IV-B-2) ------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Shout(Choice):
    """A test action: one fighter shouts, then counts as having acted."""

    kind = "test_shout"
    fighter: str


class ShoutProvider:
    def choices(self, state: GameState, current: Activation) -> list[Choice]:
        return [Shout(f) for f in current.fighters if f not in current.done]

    def handles(self, choice: Choice) -> bool:
        return isinstance(choice, Shout)

    def apply(self, state: GameState, choice: Choice) -> Transition:
        assert isinstance(choice, Shout) and state.activation and state.activation.current
        current = state.activation.current
        done = dataclasses.replace(current, done=(*current.done, choice.fighter))
        progress = dataclasses.replace(state.activation, current=done)
        return dataclasses.replace(state, activation=progress), []


def test_registered_action_providers_offer_their_actions_to_activated_fighters() -> None:
    state, _ = to_first_floor(small_game(counts=(2, 1)))
    state, _ = step(state, PlayTop())
    assert legal(state) == [EndActivation()]  # no provider: ending is the only answer
    shouting = plugged(state, action_providers={"shout": ShoutProvider()})
    fighters = state.activation.current.fighters  # type: ignore[union-attr]
    assert legal(shouting) == [*[Shout(f) for f in fighters], EndActivation()]
    shouting, _ = step(shouting, Shout(fighters[0]))
    assert legal(shouting) == [*[Shout(f) for f in fighters[1:]], EndActivation()]
    assert legal(state) == [EndActivation()]  # the game played with the confede rules: none


# --- hidden information --------------------------------------------------------------------


def test_a_player_does_not_see_the_opponent_sequence_order_nor_reserve() -> None:
    state, _ = start(small_game(counts=(1, 1, 1)))
    for card in ("p1-c3", "p1-c1", "p1-c2"):
        state, _ = step(state, PlaceCard(card))
    assert state.side(0).deck == ("p1-c3", "p1-c1", "p1-c2")
    seen = redact(state, 1)
    assert seen.side(0).deck == ("p1-c1", "p1-c2", "p1-c3")
    assert redact(state, 0).side(0).deck == state.side(0).deck
    held = state.with_side(dataclasses.replace(state.side(0), deck=("p1-c2",), reserve="p1-c3"))
    view = redact(held, 1).side(0)
    assert sorted((*view.deck, view.reserve)) == ["p1-c2", "p1-c3"]  # type: ignore[type-var]
    assert view.cards_left == 2


# --- random play, replay, narration -----------------------------------------------------------


def check_round_invariants(events: list[Event], state0: GameState) -> None:
    """Each card in play is revealed exactly once per round, each living fighter activated
    at most once per round (exactly once if alive at the start of the round)."""
    per_round: dict[int, list[Event]] = {}
    current = 0
    for event in events:
        if isinstance(event, RoundStarted):
            current = event.round
        per_round.setdefault(current, []).append(event)
    for number in range(1, state0.rounds + 1):
        happened = per_round[number]
        revealed = Counter(e.card for e in happened if isinstance(e, CardRevealed))
        assert set(revealed) == {c.id for c in state0.cards}
        assert set(revealed.values()) == {1}
        activated = Counter(e.fighter for e in happened if isinstance(e, FighterActivated))
        assert set(activated) == {f.id for f in state0.fighters}
        assert set(activated.values()) == {1}
        ended = [e for e in happened if isinstance(e, ActivationEnded)]
        assert sorted(c for e in ended for c in e.cards) == sorted(revealed)


@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_play_keeps_every_round_legal_and_replays_exactly(seed: int) -> None:
    final, events = play(seed)
    assert final.phase is Phase.OVER
    assert isinstance(events[0], GameStarted)
    check_round_invariants(events, events[0].state)
    assert replay(events) == final


def test_many_seeded_rounds_step_by_step_never_reach_an_illegal_state() -> None:
    for seed in range(40):
        state, _ = start(small_game(rounds=2, seed=seed))
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        dice = SeededRoller(seed)
        while state.phase is not Phase.OVER:
            asked = question(state)
            assert asked is not None and asked.choices
            if asked.player is None:
                state, _ = roll(state, dice)
            else:
                state, _ = step(state, agents[asked.player].choose(state, asked, asked.choices))
            for side in state.sides:
                assert side.refusals >= 0 and len(set(side.deck)) == len(side.deck)
                assert side.reserve not in side.deck
            if state.activation is not None and state.activation.current is not None:
                assert all(state.fighter(f).activated for f in state.activation.current.fighters)


def test_the_same_seed_plays_the_same_game() -> None:
    first = play(seed=11)
    second = play(seed=11)
    assert first == second
    assert play(seed=12)[1] != first[1]


def test_the_record_is_json_lines_and_replays_to_the_same_state() -> None:
    final, events = play(seed=5)
    buffer = io.StringIO()
    write_log(events, buffer)
    lines = buffer.getvalue().splitlines()
    assert len(lines) == len(events)
    log = read_log(lines)
    assert log == events
    assert replay(log) == final
    inputs = [e for e in log if isinstance(e, GameStarted | ChoiceMade | DieRolled)]
    assert replay(inputs, check=False) == final


def test_a_tampered_record_does_not_replay() -> None:
    _, events = play(seed=6)
    at, die = next((i, e) for i, e in enumerate(events) if isinstance(e, DieRolled))
    forged = [*events[:at], dataclasses.replace(die, face=die.face % 6 + 1), *events[at + 1 :]]
    with pytest.raises((ReplayMismatch, IllegalChoice)):
        replay(forged)
    with pytest.raises(ValueError, match="line 2"):
        read_log(['{"kind":"round_started","round":1}', "{not json"])


def test_narration_tells_the_tactics_roll_and_the_cards() -> None:
    state, events = to_first_floor(small_game(counts=(1, 1), rounds=1))
    state, more = step(state, PlayTop())
    lines = narrate(events + more)
    assert lines[0] == "A game of 1 round(s): Player 1 (Lion) against Player 2 (Wolf)."
    # Lion 1 and Wolf 1 have DIS 2: dice 5 and 2 make 7 to 4.
    assert "Round 1 — Player 1 rolls the Tactics roll with Lion 1 (p1-c1-1) (DIS 2)." in lines
    assert "Round 1 — Player 1 wins the Tactics roll (7 to 4)." in lines
    assert "Round 1 — Player 1 chooses to speak first." in lines
    assert lines[-2:] == [
        "Round 1 — Player 1 plays Lion 1 [p1-c1].",
        "Round 1 — Lion 1 (p1-c1-1) is activated.",
    ]


def test_every_narrated_sentence_begins_with_a_capital_letter_before_round_1_too() -> None:
    """The set-up and deployment (round 0) have no "Round N —" prefix: their sentences are
    capitalised themselves ("The deployment phase begins.", not "the deployment phase…")."""
    from golden_support import games, recorded

    lines = narrate(recorded(games()[0]))
    assert any(line.startswith("The deployment phase begins") for line in lines)
    assert all(line[0].isupper() for line in lines), [line for line in lines if line[0].islower()]


# --- the random agent ----------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 6, 7, 36, 37])
def test_uniform_index_is_exactly_uniform_over_all_scripts(n: int) -> None:
    """Enumerate every die sequence of the digits needed: accepted values are uniform."""
    digits = 1
    while 6**digits < n:
        digits += 1
    counts: Counter[int] = Counter()
    for value in range(6**digits):
        faces = []
        for k in range(digits):
            faces.append(value // 6 ** (digits - 1 - k) % 6 + 1)
        if value < 6**digits - 6**digits % n:
            counts[uniform_index(ScriptedRoller(faces), n)] += 1
    assert set(counts) == set(range(n))
    assert len(set(counts.values())) == 1
