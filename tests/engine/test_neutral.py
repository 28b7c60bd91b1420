"""Neutral fighters (XX-E) and combats of three sides (XX-F-5) in the engine: ties of the
initiative among some of three sides, the d6 among tied targets, the pursuit order when a
neutral fighter dies, the neutral's own pursuit, melees a player separates alone, and random
games with a neutral fighter on the table (replayed, JSON round-tripped)."""

from __future__ import annotations

import dataclasses

import pytest

from confrontation.agents.random import RandomAgent
from confrontation.dice import SeededRoller
from confrontation.engine.combat import events as ce
from confrontation.engine.combat.phase import PursueFirst
from confrontation.engine.combat.questions import (
    AllocateDice,
    Defend,
    MakeAttack,
    NameFighter,
    Pursue,
)
from confrontation.engine.core.events import Event, GameStarted, RolledOff
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import Choice, DieFace, KeepResult
from confrontation.engine.core.state import (
    NEUTRAL,
    GameState,
    Phase,
    ProfileSummary,
    state_from_json,
    state_to_json,
)
from confrontation.engine.core.views import redact
from confrontation.engine.neutral import (
    NeutralSpec,
    NeutralTargetRolled,
    add_neutrals,
)
from confrontation.engine.record import replay
from confrontation.engine.setup.game import SideSpec, game_from_specs
from confrontation.engine.step import advance, is_over, legal, question, roll, start, step
from confrontation.rules.combat import draw_groups
from engine_support import only, plugged

JACKAL, CLONE, SENTINEL = "p1-c1-1", "p2-c1-1", "p2-c2-1"
ANIMAL = "n-c1-1"


def _card(pid: str, ap: int, *, strength: int = 0, res: int = 12) -> ProfileSummary:
    return ProfileSummary(
        pid, pid.title(), "x", 3, ini=3, att=3, strength=strength, defense=3, res=res, ap=ap
    )


def _game(values: tuple[int, int, int] = (23, 10, 27), animal_res: int = 12) -> GameState:
    jackal, clone, sentinel = values
    orc = SideSpec("Orcs", "orc", ((_card("jackal", jackal), 1),))
    scorpion = SideSpec(
        "Scorpion", "scorpion", ((_card("clone", clone), 1), (_card("sentinel", sentinel), 1))
    )
    state = game_from_specs([orc, scorpion])
    state = add_neutrals(state, [NeutralSpec(_card("animal", 35, res=animal_res))])
    return dataclasses.replace(state, phase=Phase.COMBAT)


def _play(state: GameState, *inputs: Choice | int) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for item in inputs:
        asked = question(state)
        assert asked is not None and asked.player != NEUTRAL
        choice = DieFace(item) if isinstance(item, int) else item
        assert choice in legal(state), f"{choice!r} at {asked.kind}"
        state, happened = step(state, choice)
        events.extend(happened)
    return state, events


STAR = [(ANIMAL, JACKAL), (ANIMAL, CLONE), (ANIMAL, SENTINEL)]
ALLOCATED: tuple[Choice | int, ...] = (
    NameFighter(SENTINEL),
    4,
    2,  # the Authority roll
    AllocateDice(CLONE, 1, 1),
    AllocateDice(JACKAL, 1, 1),
    AllocateDice(SENTINEL, 2, 0),
)


@pytest.mark.rule("XX-F-5", "XX-E-4", "II-A-3")
def test_tied_sides_roll_again_among_themselves() -> None:
    state, _ = advance(plugged(_game(), contacts=lambda state: list(STAR)))
    state, _ = _play(state, *ALLOCATED)
    # Orc 3 + 3 = 6, Scorpion 5 + 4 = 9, animal 3 + 3 = 6: the Orc and the animal tie.
    state, events = _play(state, NameFighter(SENTINEL), 3, 5, 3)
    assert only(events, ce.ContestTied) == [ce.ContestTied("initiative", (6, 9, 6))]
    # Only they roll again (two dice, not three): Orc 1 + 3, animal 2 + 3.
    state, events = _play(state, 1, 2)
    rolled = only(events, ce.InitiativeRolled)
    assert rolled[0].finals == (4, 9, 5)
    assert rolled[0].order == (1, NEUTRAL, 0)


@pytest.mark.rule("XX-F-5", "XX-E-3", "II-A-3")
def test_equal_sixes_among_three_sides_are_ordered_by_a_roll_off() -> None:
    """CLARIFICATIONS §9: "One rule everywhere (engine, odds, every opposed roll): each side
    rolls a d6, again until the faces differ, and the lower face decides first whether to
    raise" — with three sides, among the sides whose equal results are the lowest."""
    state, _ = advance(plugged(_game(), contacts=lambda state: list(STAR)))
    state, _ = _play(state, *ALLOCATED)
    # All three show a 6: Orc 6 + 3 = 9, Scorpion 6 + 4 = 10, animal 6 + 3 = 9.
    state, events = _play(state, NameFighter(SENTINEL), 6, 6, 6)
    asked = question(state)
    assert asked is not None and asked.kind == "rolloff_die"
    # The roll-off between the Orc and the animal: 2 and 2, again, then 5 and 3.
    state, events = _play(state, 2, 2, 5, 3)
    assert only(events, RolledOff) == [
        RolledOff("initiative", (0, NEUTRAL), (9, 9), ((2, 5), (2, 3)), NEUTRAL)
    ]
    # The animal decides first and always raises (XX-E-3): its die, 2: 6 + 2 + 3 = 11.
    asked = question(state)
    assert asked is not None and asked.kind == "contest_die"
    state, _ = _play(state, 2)
    # Then the lower of the others, the Orc (9), then the Scorpion (10).
    asked = question(state)
    assert asked is not None and (asked.kind, asked.player) == ("contest_raise", 0)
    state, events = _play(state, KeepResult())
    asked = question(state)
    assert asked is not None and (asked.kind, asked.player) == ("contest_raise", 1)
    state, events = _play(state, KeepResult())
    rolled = only(events, ce.InitiativeRolled)
    assert rolled[0].finals == (9, 10, 11)
    assert rolled[0].order == (NEUTRAL, 1, 0)


@pytest.mark.rule("XX-E")
def test_draw_groups_share_the_faces() -> None:
    assert draw_groups(["b", "a"]) == (("a",), ("a",), ("a",), ("b",), ("b",), ("b",))
    assert draw_groups(["a", "b", "c", "d"]) == (("a",), ("b",), ("c",), ("d",), (), ())
    eight = draw_groups([str(n) for n in range(8)])
    assert [len(g) for g in eight] == [2, 2, 1, 1, 1, 1]
    assert sorted(f for g in eight for f in g) == [str(n) for n in range(8)]


@pytest.mark.rule("XX-E", "XX-E-4", "VII-C-3")
def test_a_d6_chooses_among_tied_targets() -> None:
    # Equal strategic values and wounds: after one attack on each, the animal's last die
    # (1 + 3 = 4 dice) must choose among three tied targets with a d6.
    harmless = (1, 2)
    state, _ = advance(plugged(_game(values=(20, 20, 20)), contacts=lambda state: list(STAR)))
    state, _ = _play(
        state,
        NameFighter(SENTINEL), 4, 2,
        # Equal values: the Scorpion player, who did not choose the combat, first.
        AllocateDice(CLONE, 1, 1), AllocateDice(SENTINEL, 2, 0), AllocateDice(JACKAL, 1, 1),
        NameFighter(SENTINEL), 1, 5, 3,  # Scorpion, animal, Orc
        MakeAttack(CLONE, ANIMAL), *harmless, *harmless,
        # The animal attacks all three in id order (all tied, all attacked).
        Defend(0), *harmless, Defend(0), *harmless, *harmless,
        *harmless,  # the jackal
        *harmless,  # second weapon combat: the sentinel
    )  # fmt: skip
    asked = question(state)
    assert asked is not None and asked.kind == "neutral_target_die" and asked.player is None
    state, events = _play(state, 3)  # three targets: 1-2, 3-4, 5-6
    tied = tuple(sorted((JACKAL, CLONE, SENTINEL)))
    assert only(events, NeutralTargetRolled) == [NeutralTargetRolled(ANIMAL, tied, 3, (tied[1],))]
    assert [(e.attacker, e.target) for e in only(events, ce.AttackDeclared)] == [(ANIMAL, tied[1])]


@pytest.mark.rule("XX-E-5", "XX-F-6", "VII-C-6")
def test_when_the_neutral_dies_the_best_initiative_pursues_first() -> None:
    def finder(state: GameState, fighter: str, reach: int) -> list[Pursue]:
        me = state.fighter(fighter)
        return [
            Pursue(fighter, (), "stay in place"),
            Pursue(fighter, (), "step", x=me.x + 1, y=me.y, facing=0.0, distance=1.0),
        ]

    state, _ = advance(
        plugged(_game(animal_res=1), contacts=lambda state: list(STAR), pursuits=finder)
    )
    state, _ = _play(state, *ALLOCATED, NameFighter(SENTINEL), 1, 5, 3)
    # The clone (Scorpion attacks first) kills the animal outright: 6, 6.
    state, events = _play(state, MakeAttack(CLONE, ANIMAL), 6, 6)
    assert only(events, ce.FighterKilled)[0].fighter == ANIMAL
    first = question(state)
    assert first is not None and (first.kind, first.player) == ("pursue_first", 1)
    state, _ = step(state, PursueFirst(1))  # XX-E-5: he pursues first
    asked = []
    for _ in range(3):
        q = question(state)
        assert q is not None and q.kind == "pursue"
        pursuit = q.choices[0]
        assert isinstance(pursuit, Pursue)
        asked.append((q.player, pursuit.fighter))
        state, _ = step(state, q.choices[1])
    # Scorpion (best initiative) first, then the Orc.
    assert asked == [(1, CLONE), (1, SENTINEL), (0, JACKAL)]


@pytest.mark.rule("XX-E-5")
def test_the_neutral_pursues_towards_the_nearest_non_neutral_fighter() -> None:
    def finder(state: GameState, fighter: str, reach: int) -> list[Pursue]:
        moves = [Pursue(fighter, (), "stay in place")]
        for other in state.fighters:
            if other.alive and other.player != state.fighter(fighter).player:
                moves.append(Pursue(fighter, (other.id,), f"engage {other.id}"))
        return moves

    state = _game(values=(23, 10, 27))
    where = {ANIMAL: 0.0, JACKAL: 1.0, CLONE: 40.0, SENTINEL: 12.0}
    state = state.with_fighters(
        *(dataclasses.replace(state.fighter(f), x=x) for f, x in where.items())
    )
    strong = dataclasses.replace(state.profile("animal"), strength=20)
    state = dataclasses.replace(
        state, profiles=tuple(strong if p.id == "animal" else p for p in state.profiles)
    )
    state, _ = advance(plugged(state, contacts=lambda s: [(ANIMAL, JACKAL)], pursuits=finder))
    # The Orc alone against the animal: no Authority roll (one player); the jackal
    # allocates, then the initiative: jackal 1 + 3, animal 5 + 3.
    state, events = _play(state, AllocateDice(JACKAL, 2, 0), 1, 5)
    assert not only(events, ce.AuthorityRolled)
    # The animal attacks first: 6, 6 kills the jackal; it pursues the sentinel (12 cm),
    # nearer than the clone (40 cm), whatever their strategic values.
    state, events = _play(state, 6, 6)
    pursued = only(events, ce.Pursued)
    assert [(p.fighter, p.engaged) for p in pursued] == [(ANIMAL, (SENTINEL,))]


@pytest.mark.rule("XX-F-5", "VII-A")
def test_a_player_alone_against_neutrals_separates_without_dice() -> None:
    orc = SideSpec("Orcs", "orc", ((_card("jackal", 20), 2),))
    scorpion = SideSpec("Scorpion", "scorpion", ((_card("clone", 10), 1),))
    state = game_from_specs([orc, scorpion])
    state = add_neutrals(state, [NeutralSpec(_card("animal", 30)), NeutralSpec(_card("beast", 30))])
    state = dataclasses.replace(state, phase=Phase.COMBAT)
    n1, n2, j1, j2 = "n-c1-1", "n-c2-1", "p1-c1-1", "p1-c1-2"
    square = [(n1, j1), (n1, j2), (n2, j1), (n2, j2)]  # two ways to separate it
    state, events = advance(plugged(state, contacts=lambda s: list(square)))
    asked = question(state)
    assert asked is not None and asked.kind == "split_melee" and asked.player == 0
    assert not only(events, ce.SplitRolled)


# --- random play ---------------------------------------------------------------------------


def _random_game(seed: int) -> GameState:
    orc = SideSpec("Orcs", "orc", ((_card("jackal", 23, strength=4, res=5), 2),))
    scorpion = SideSpec("Scorpion", "scorpion", ((_card("clone", 10, strength=4, res=5), 2),))
    state = game_from_specs([orc, scorpion], rounds=3, seed=seed)
    return add_neutrals(state, [NeutralSpec(_card("animal", 30, strength=5, res=6))])


def _contacts(state: GameState) -> list[tuple[str, str]]:
    """Every living player's fighter touches the animal, and the first of each side touch."""
    alive = [f for f in state.fighters if f.alive]
    pairs = [(ANIMAL, f.id) for f in alive if f.player != NEUTRAL and state.fighter(ANIMAL).alive]
    left = [f.id for f in alive if f.player == 0]
    right = [f.id for f in alive if f.player == 1]
    if left and right:
        pairs.append((left[-1], right[-1]))
    return pairs


def _anyone(state: GameState, fighter: str, reach: int) -> list[Pursue]:
    me = state.fighter(fighter)
    moves = [Pursue(fighter, (), "stay in place")]
    for other in state.fighters:
        if other.alive and other.player != me.player:
            moves.append(Pursue(fighter, (other.id,), f"engage {other.id}"))
    return moves


@pytest.mark.rule("XX-E", "XX-E-3", "XX-E-4", "XX-F-5")
def test_random_games_with_a_neutral_fighter_replay() -> None:
    seen: set[str] = set()
    for seed in range(4):
        initial = plugged(_random_game(seed), contacts=_contacts, pursuits=_anyone)
        state, log = start(initial)
        roller = SeededRoller(seed)
        agents = (RandomAgent(seed * 2 + 1), RandomAgent(seed * 2 + 2))
        while not is_over(state):
            asked = question(state)
            assert asked is not None and asked.player != NEUTRAL  # never asked
            if asked.player is None:
                state, happened = roll(state, roller)
            else:
                view = redact(state, asked.player)
                choice = agents[asked.player].choose(view, asked, asked.choices)
                state, happened = step(state, choice)
            log.extend(happened)
            assert state_from_json(state_to_json(state)) == state
        for event in log:
            seen.add(event.kind)
            if isinstance(event, ce.CombatResolved):
                for fighter, dice, used, lost in event.dice:
                    assert dice == used + lost, fighter
            if isinstance(event, ce.DiceAllocated) and event.fighter == ANIMAL:
                assert event.defence == 0  # XX-E-4: every die in attack
        assert isinstance(log[0], GameStarted)
        assert replay(log) == state
        assert narrate(log)
    assert {"neutral_decided", "initiative_rolled", "fighter_killed"} <= seen
