"""XX-E-1 on a table: neutral fighters free of any enemy at the start of the activation phase
are activated before anybody, those in contact with a non-neutral fighter after everybody;
they assault the nearest non-neutral fighter (charging when they see him), ties in the XX-E
order and then a d6; random games with a neutral fighter on a table stay legal and replay."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from typing import TypeVar

import pytest

from confrontation.engine.combat.scenery_attack import AttackScenery, SceneryAttacksAssigned
from confrontation.engine.core.events import (
    ActionAnnounced,
    AssaultFellShort,
    CardRevealed,
    Charged,
    Event,
    FighterActivated,
    Moved,
    PhaseEnded,
)
from confrontation.engine.core.questions import (
    AnnouncementsDone,
    Choice,
    DieFace,
    EndActivation,
    PlayTop,
    Question,
)
from confrontation.engine.core.state import NEUTRAL, GameState, Phase, SceneryPiece
from confrontation.engine.neutral import (
    NeutralAssaultRolled,
    NeutralDecided,
    NeutralSpec,
    add_neutrals,
    nearest_enemies,
)
from confrontation.engine.record import replay
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield
from confrontation.engine.step import is_chance, legal, start, step
from confrontation.engine.table.field import field_of
from engine_support import KindAgent, fighter, play_out, skirmish

P1, P2, BEAST = "p1-c1-1", "p2-c1-1", "n-c1-1"
E = TypeVar("E", bound=Event)


def _of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def _game(
    where: dict[str, tuple[float, float, float]],
    values: tuple[int, int] = (10, 10),
    beast: tuple[float, float, float] = (60.0, 30.0, 180.0),
) -> GameState:
    """A soldier each (MOV 10) and a neutral beast (MOV 10: a charge reaches 20 cm)."""
    one = fighter("Soldier", ap=values[0])
    two = fighter("Guard", ap=values[1])
    state = skirmish([[(one, 1)], [(two, 1)]], where)
    x, y, facing = beast
    return add_neutrals(state, [NeutralSpec(fighter("Beast", ap=40), x, y, facing)])


TIED: dict[str, tuple[float, float, float]] = {P1: (44, 18, 0), P2: (44, 42, 0)}
"""Both 20 cm in front of the beast (60, 30) facing 180 degrees."""


def _to_floor(state: GameState, dice: Iterable[int] = ()) -> tuple[GameState, list[Event]]:
    """Start; the Tactics roll 5 against 2, then ``dice`` for any other die; the first legal
    answer to every question, up to the first floor of round 1."""
    faces = iter([5, 2, *dice])
    state, log = start(state)
    while state.pending is not None and state.pending.kind != "floor":
        choice: Choice = DieFace(next(faces)) if is_chance(state) else legal(state)[0]
        state, events = step(state, choice)
        log.extend(events)
    return state, log


def _play_cards(state: GameState, log: list[Event]) -> GameState:
    """Both players play their cards and do nothing with them, to the end of the phase."""
    while not any(isinstance(e, PhaseEnded) and e.phase == "activation" for e in log):
        options = legal(state)
        for choice in (PlayTop(), AnnouncementsDone(), EndActivation()):
            if choice in options:
                break
        else:
            raise AssertionError(f"unexpected question {state.pending}")
        state, events = step(state, choice)
        log.extend(events)
    return state


@pytest.mark.rule("XX-E-1", "V-B-3")
def test_a_free_neutral_charges_the_nearest_fighter_before_anybody_acts() -> None:
    # The beast (60, 30) is 20 cm from the soldier (40, 30) and 30 cm from the guard (90, 30).
    state = _game({P1: (40, 30, 0), P2: (90, 30, 180)})
    state, log = _to_floor(state)
    assert state.pending is not None and state.pending.player != NEUTRAL
    activated = _of(log, FighterActivated)
    assert [a.fighter for a in activated] == [BEAST]
    assert not _of(log, CardRevealed)  # nobody has played a card yet
    [announced] = _of(log, ActionAnnounced)
    assert (announced.fighter, announced.action, announced.target) == (BEAST, "charge", P1)
    [charged] = _of(log, Charged)
    assert charged.fighter == BEAST and charged.targets == (P1,)
    assert field_of(state).enemies_in_contact(BEAST) == [P1]
    assert NeutralDecided("activation", AnnouncementsDone()) in log


@pytest.mark.rule("XX-E-1", "V-B-3")
def test_a_neutral_who_does_not_see_the_nearest_engages_him() -> None:
    # Facing away (0 degrees) from the soldier behind him: no sight, an engagement.
    state = _game({P1: (40, 30, 0), P2: (90, 30, 180)}, beast=(60.0, 30.0, 0.0))
    state, log = _to_floor(state)
    [announced] = _of(log, ActionAnnounced)
    assert (announced.fighter, announced.action, announced.target) == (BEAST, "engage", P1)
    assert field_of(state).enemies_in_contact(BEAST) == [P1]
    assert not _of(log, Charged)


@pytest.mark.rule("XX-E-1", "XX-E")
def test_the_lowest_strategic_value_breaks_a_tie_of_distance_without_a_die() -> None:
    # The guard is worth 8 AP, the soldier 12: the guard is charged.
    state = _game(TIED, values=(12, 8))
    state, log = _to_floor(state)
    assert not _of(log, NeutralAssaultRolled)
    [charged] = _of(log, Charged)
    assert charged.targets == (P2,)


@pytest.mark.rule("XX-E-1", "XX-E")
def test_a_d6_chooses_between_nearest_fighters_still_tied() -> None:
    # Same distance, same value, no wounds: a d6, 1-3 the soldier, 4-6 the guard.
    state = _game(TIED)
    state, log = _to_floor(state, dice=[5])
    [rolled] = _of(log, NeutralAssaultRolled)
    assert rolled == NeutralAssaultRolled(BEAST, (P1, P2), 5, (P2,))
    [charged] = _of(log, Charged)
    assert charged.targets == (P2,)
    # The die was a chance step of the record, the rules' answer no input of it.
    assert replay(log) == state


@pytest.mark.rule("XX-E-1", "XX-E")
def test_the_most_wounded_breaks_a_tie_of_value() -> None:
    state = _game(TIED)
    state = state.with_fighters(dataclasses.replace(state.fighter(P1), wounds=2))
    state, log = _to_floor(state)
    assert not _of(log, NeutralAssaultRolled)
    assert _of(log, Charged)[0].targets == (P1,)


@pytest.mark.rule("XX-E-1", "V-B-3")
def test_a_neutral_too_far_moves_his_whole_charge_towards_the_nearest() -> None:
    # 50 cm away: the charge (20 cm) falls short; he ends 20 cm nearer.
    state = _game({P1: (110, 30, 180), P2: (110, 50, 180)}, beast=(60.0, 30.0, 0.0))
    state, log = _to_floor(state)
    [short] = _of(log, AssaultFellShort)
    assert (short.fighter, short.target) == (BEAST, P1)
    [moved] = _of(log, Moved)
    assert moved.fighter == BEAST and 19.0 <= moved.distance <= 20.0
    beast = state.fighter(BEAST)
    assert math.dist((beast.x, beast.y), (110, 30)) < 50.0 - 19.0


@pytest.mark.rule("XX-E-1")
def test_a_neutral_in_contact_is_activated_after_everybody_and_stays() -> None:
    # The beast touches the soldier when the phase begins.
    state = _game({P1: (57.5, 30, 0), P2: (100, 30, 180)})
    assert field_of(state).enemies_in_contact(BEAST) == [P1]
    state, log = _to_floor(state)
    assert not _of(log, FighterActivated)
    state = _play_cards(state, log)
    activated = [a.fighter for a in _of(log, FighterActivated)]
    assert activated == [P1, P2, BEAST] or activated == [P2, P1, BEAST]
    last_card = max(n for n, e in enumerate(log) if isinstance(e, CardRevealed))
    beast_at = next(
        n for n, e in enumerate(log) if isinstance(e, FighterActivated) and e.fighter == BEAST
    )
    assert beast_at > last_card
    assert not [a for a in _of(log, ActionAnnounced) if a.fighter == BEAST]  # never disengages
    assert (state.fighter(BEAST).x, state.fighter(BEAST).y) == (60.0, 30.0)


@pytest.mark.rule("XX-E-1", "XX-E-2")
def test_the_nearest_ignores_other_levels_neutrals_and_hidden_scouts() -> None:
    one, two = fighter("Soldier", ap=10), fighter("Guard", ap=10)
    state = game_from_specs(
        [SideSpec("A", "lion", ((one, 2),)), SideSpec("B", "lion", ((two, 1),))]
    )
    state = add_neutrals(
        state, [NeutralSpec(fighter("Beast"), 0, 0), NeutralSpec(fighter("Wolf"), 1, 0)]
    )
    near, hidden, far = "p1-c1-1", "p1-c1-2", "p2-c1-1"
    moved = {near: (3.0, 1), hidden: (4.0, 0), far: (9.0, 0)}
    state = state.with_fighters(
        *(
            dataclasses.replace(state.fighter(f), x=x, altitude=level, hidden=f == hidden)
            for f, (x, level) in moved.items()
        )
    )
    # The wolf (1 cm) is a neutral, the soldier (3 cm) on another level, the scout hidden.
    assert nearest_enemies(state, BEAST) == (far,)
    state = state.with_fighters(dataclasses.replace(state.fighter(hidden), hidden=False))
    assert nearest_enemies(state, BEAST) == (hidden,)


@pytest.mark.rule("XX-E-4", "C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY")
def test_a_neutral_against_a_gate_leaves_it_alone() -> None:
    gate = SceneryPiece(
        "gate", ((31.25, 20.0), (32.75, 20.0), (32.75, 40.0), (31.25, 40.0)), "very-large",
        False, True, 4, 6,
    )  # fmt: skip
    one, two = fighter("Soldier"), fighter("Guard")
    state = skirmish([[(one, 1)], [(two, 1)]], {P1: (80, 10, 0), P2: (80, 50, 0)}, [gate])
    state = add_neutrals(state, [NeutralSpec(fighter("Beast"), 34.0, 30.0, 180.0)])
    state = dataclasses.replace(state, phase=Phase.COMBAT)
    state, log = start(state)  # the beast touches the gate and has not fought
    decided = _of(log, NeutralDecided)
    assert decided == [NeutralDecided("attack_scenery", AttackScenery(BEAST))]
    assert not [e for e in _of(log, SceneryAttacksAssigned) if e.attacks]


# --- random play on a table ------------------------------------------------------------------


def _table_game(seed: int) -> GameState:
    soldier = fighter("Soldier", ap=15, strength=4, res=4)
    archer = fighter("Archer", ap=20, aim=3, aim_str=4, ranges=(10.0, 20.0, 30.0))
    specs = [
        SideSpec("Lions", "lion", ((soldier, 2), (archer, 1))),
        SideSpec("Wolves", "lion", ((soldier, 2), (archer, 1))),
    ]
    state = on_battlefield(game_from_specs(specs, rounds=3, seed=seed), scenery=())
    beast = fighter("Beast", ap=30, strength=5, res=5)
    return add_neutrals(state, [NeutralSpec(beast, 60, 30), NeutralSpec(beast, 60, 15)])


def _play(seed: int) -> tuple[GameState, list[Event]]:
    state, log = start(_table_game(seed))
    agents = [KindAgent(seed + 100), KindAgent(seed + 200)]

    def after(state: GameState, asked: Question, events: list[Event]) -> None:
        assert asked.player != NEUTRAL
        here = field_of(state)
        ids = list(here.ids())
        for k, a in enumerate(ids):
            for b in ids[k + 1 :]:
                overlap = here.base(a).polygon.intersection(here.base(b).polygon).area
                assert overlap < 1e-3, f"{a} and {b} overlap"
        log.extend(events)

    return play_out(state, agents, after), log


@pytest.mark.rule("XX-E-1", "XX-E-5", "II-E")
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_with_neutrals_on_a_table_stay_legal_and_replay(seed: int) -> None:
    final, log = _play(seed)
    neutral_moves = [e for e in _of(log, ActionAnnounced) if e.fighter.startswith("n-")]
    assert neutral_moves and {e.action for e in neutral_moves} <= {"charge", "engage"}
    assert replay(log) == final
    again, log_again = _play(seed)
    assert again == final and log_again == log
