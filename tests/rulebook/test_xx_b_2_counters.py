"""XX-B-2 (chapter 20, French): counters on objectives, added or removed in the maintenance
phase by the fighters in base contact, as many as their Power — through ``step()``."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.engine.core.events import Event, GameEnded, MaintenanceStepStarted
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import Question
from confrontation.engine.core.state import (
    GameState,
    MaintenanceProgress,
    Phase,
    ProfileSummary,
)
from confrontation.engine.step import legal, start
from confrontation.scenarios import resolve
from confrontation.scenarios.base import BasicScenario, load_scenario
from confrontation.scenarios.basic import install
from confrontation.scenarios.counters import CounterChoice, CountersCounted, CountersMoved
from confrontation.scenarios.picture import battlefield_svg
from confrontation.scenarios.victory import ConditionMet, aims
from confrontation.sim.game import GameConfig, play_game
from engine_support import KindAgent, Script, fighter, only, play_out, skirmish

GRANARY = """
name = "A granary on fire"
rounds = 1
goal = "conditions"

[[objectives]]
name = "the granary"
shape = "rect"
owner = 2
x0 = 50.0
y0 = 20.0
x1 = 70.0
y1 = 40.0
mode = "contact"
counters = 1
add = "enemy"
remove = "owner"

[[conditions]]
id = "burn"
kind = "counters"
objective = "the granary"
at_least = 3
players = [1]
"""

SMALL = fighter("Small", size="small", power=1, ap=10)
NORMAL = fighter("Normal", size="normal", power=1, ap=10)
LARGE = fighter("Large", size="large", power=2, ap=30)
VERY_LARGE = fighter("Very large", size="very-large", power=3, ap=60)
# The left wall of the granary is x = 50: a base of depth d facing +x touches it at x = 50 - d/2.
WALL = {"small": 48.75, "normal": 48.75, "large": 48.125, "very-large": 47.5}


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "granary.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _game(
    tmp_path: Path,
    sides: list[list[tuple[ProfileSummary, int]]],
    positions: Mapping[str, tuple[float, float, float]],
    text: str = GRANARY,
    **changes: Mapping[str, Any],
) -> GameState:
    """The maintenance phase of the last round with the fighters placed."""
    state = skirmish(sides, positions, rounds=1)
    state = install(state, load_scenario(_file(tmp_path, text)))
    for name, values in changes.items():
        state = state.with_fighters(
            *(dataclasses.replace(state.fighter(f), **{name: v}) for f, v in values.items())
        )
    return dataclasses.replace(state, phase=Phase.MAINTENANCE, maintenance=MaintenanceProgress())


def _wall(fid: str, profile: ProfileSummary, y: float) -> dict[str, tuple[float, float, float]]:
    return {fid: (WALL[profile.size], y, 0.0)}


def _counters(state: GameState) -> dict[str, int]:
    scenario = state.scenario
    assert isinstance(scenario, BasicScenario)
    return dict(scenario.objectives.counters)


FAR = {"p2-c1-1": (110.0, 10.0, 0.0)}


@pytest.mark.rule("XX-B-2", "C3-COUNTERS")
def test_each_fighter_in_contact_adds_as_many_counters_as_his_power(tmp_path: Path) -> None:
    """XX-B-2: "Un combattant peut ajouter/soustraire ... autant de compteurs que sa Puissance
    (voir I-E-10), soit 1 compteur pour les petites et moyennes tailles, 2 pour les grandes
    tailles et 3 pour les très grandes tailles" — "s'il est en contact socle à socle avec ce
    dernier": the fighter 1 cm from the wall adds nothing."""
    sides = [[(SMALL, 1), (NORMAL, 2), (LARGE, 1), (VERY_LARGE, 1)], [(NORMAL, 1)]]
    positions = _wall("p1-c1-1", SMALL, 22.0) | _wall("p1-c2-1", NORMAL, 26.0)
    positions |= {"p1-c2-2": (47.75, 10.0, 0.0)}  # 1 cm from the wall's line, below it
    positions |= _wall("p1-c3-1", LARGE, 31.0) | _wall("p1-c4-1", VERY_LARGE, 37.0) | FAR
    script = Script(_game(tmp_path, sides, positions), whole_log=True)
    moved = only(script.events, CountersMoved)
    assert [(e.fighter, e.change) for e in moved] == [
        ("p1-c1-1", 1),
        ("p1-c2-1", 1),
        ("p1-c3-1", 2),
        ("p1-c4-1", 3),
    ]
    assert only(script.events, CountersCounted) == [CountersCounted("the granary", 1, 8)]
    assert _counters(script.state) == {"the granary": 8}
    assert (0, "burn") in {(e.player, e.condition) for e in only(script.events, ConditionMet)}
    told = "\n".join(narrate(script.events))
    assert "Large (p1-c3-1) adds 2 counter(s) to the granary." in told
    assert "The granary: 8 counter(s) (before: 1)." in told


@pytest.mark.rule("XX-B-2")
def test_enormous_fighters_add_their_power() -> None:
    """XX-B-2: "3 pour les très grandes tailles / « Énorme/X », ...": the Power of the
    reference card (I-C: size − 1), Enormous/2 adding 4."""
    from confrontation.engine.setup.game import summarise
    from confrontation.model.profile import Profile

    card = Profile.model_validate(
        {
            **{"id": "titan", "name": "Titan", "people": "lion", "rank": "creature"},
            **{"size": "very-large", "ap": 200, "mov": 10, "ini": 1, "att": 5, "str": 12},
            **{"def": 4, "res": 14, "courage": 6, "dis": 2, "abilities": ["Enormous/2"]},
        }
    )
    assert summarise(card).power == 4


@pytest.mark.rule("XX-B-2")
def test_the_owner_removes_counters_and_they_never_go_below_zero(tmp_path: Path) -> None:
    """The scenario says the owner's fighters remove counters: a large fighter removes 2 of
    the 1 on the granary — 0, not -1."""
    sides = [[(NORMAL, 1)], [(LARGE, 1)]]
    positions = {"p1-c1-1": (10.0, 10.0, 0.0)} | {"p2-c1-1": (48.125, 30.0, 0.0)}
    script = Script(_game(tmp_path, sides, positions))
    assert only(script.events, CountersMoved) == [CountersMoved("p2-c1-1", "the granary", -2)]
    assert only(script.events, CountersCounted) == [CountersCounted("the granary", 1, 0)]


@pytest.mark.rule("XX-B-2")
def test_counters_are_added_and_removed_together(tmp_path: Path) -> None:
    """On 0 counters a large attacker adds 2 while a defender removes 1: 1 counter, whoever
    is named first (docs/rulings.md "XX-B-2")."""
    text = GRANARY.replace("counters = 1", "counters = 0")
    sides = [[(LARGE, 1)], [(NORMAL, 1)]]
    positions = {"p1-c1-1": (48.125, 25.0, 0.0), "p2-c1-1": (48.75, 35.0, 0.0)}
    script = Script(_game(tmp_path, sides, positions, text))
    assert only(script.events, CountersCounted) == [CountersCounted("the granary", 0, 1)]


@pytest.mark.rule("XX-B-2", "XX-B-3")
def test_routed_and_foreign_summoned_fighters_never_add(tmp_path: Path) -> None:
    """XX-B-2: "Les combattants invoqués ne peuvent ajouter/soustraire des compteurs que s'ils
    appartiennent au même peuple que l'armée. Les combattants en déroute ne peuvent pas
    ajouter/soustraire des compteurs." The sides are of the Lion; one summoned fighter is a
    Wolf."""
    wolf = dataclasses.replace(NORMAL, id="wolf", name="Wolf", people="wolf")
    sides = [[(NORMAL, 2), (wolf, 1), (NORMAL, 1)], [(NORMAL, 1)]]
    positions = _wall("p1-c1-1", NORMAL, 22.0) | _wall("p1-c1-2", NORMAL, 26.0)
    positions |= _wall("p1-c2-1", NORMAL, 30.0) | _wall("p1-c3-1", NORMAL, 34.0) | FAR
    summoned = {"p1-c1-2": True, "p1-c2-1": True}
    state = _game(tmp_path, sides, positions, routed={"p1-c1-1": True}, summoned=summoned)
    script = Script(state)
    moved = [e.fighter for e in only(script.events, CountersMoved)]
    assert moved == ["p1-c1-2", "p1-c3-1"]  # the Lion summoned, the recruited one


@pytest.mark.rule("XX-B-2")
def test_the_player_is_asked_only_when_he_has_a_choice(tmp_path: Path) -> None:
    """XX-B-2: "Un combattant peut ajouter" — with ``optional`` counters his player decides (add or
    nothing); otherwise the fighters in contact must."""
    text = GRANARY.replace('remove = "owner"', 'remove = "owner"\noptional = true')
    sides = [[(LARGE, 1)], [(NORMAL, 1)]]
    positions = _wall("p1-c1-1", LARGE, 30.0) | FAR
    script = Script(_game(tmp_path, sides, positions, text))
    assert script.asked == "counters"
    assert legal(script.state) == [
        CounterChoice("p1-c1-1", "the granary", "add"),
        CounterChoice("p1-c1-1", "", "none"),
    ]
    events = script.play(CounterChoice("p1-c1-1", "", "none"))
    assert not only(events, CountersMoved) and only(events, GameEnded)
    again = Script(_game(tmp_path, sides, positions, text))
    again.play(CounterChoice("p1-c1-1", "the granary", "add"))
    assert _counters(again.state) == {"the granary": 3}


@pytest.mark.rule("XX-B-2")
def test_a_fighter_touching_two_objectives_gives_his_counters_to_one(tmp_path: Path) -> None:
    """His Power is what he adds in one maintenance phase: against two burning buildings his
    player says which one (docs/rulings.md)."""
    # Player 2 deploys in area 2: his barn, given for area 1, is turned to x 40..47.5
    text = GRANARY + (
        '\n[[objectives]]\nname = "the barn"\nshape = "rect"\nowner = 2\n'
        'x0 = 72.5\ny0 = 20.0\nx1 = 80.0\ny1 = 40.0\nmode = "contact"\n'
        'add = "enemy"\nremove = "owner"\n'
    )
    sides = [[(NORMAL, 1)], [(NORMAL, 1)]]
    positions = {"p1-c1-1": (48.75, 30.0, 0.0)} | FAR  # between the barn and the granary
    script = Script(_game(tmp_path, sides, positions, text))
    assert script.asked == "counters"
    options = legal(script.state)
    assert [c.objective for c in options if isinstance(c, CounterChoice)] == [
        "the granary",
        "the barn",
    ]
    script.play(CounterChoice("p1-c1-1", "the barn", "add"))
    assert _counters(script.state) == {"the granary": 1, "the barn": 1}


@pytest.mark.rule("XX-B-2")
def test_the_counter_conditions_of_fire(tmp_path: Path) -> None:
    """The bundled scenario Fire: 4 counters or more on the enemy's granary ("blaze"), fewer
    on your own than the enemy has on his ("saved"), 8 or more: a 50 AP bonus."""
    fire = resolve("fire")
    state = skirmish([[(NORMAL, 1)], [(NORMAL, 1)]], {"p1-c1-1": (30, 10, 0)} | FAR, rounds=1)
    state = install(state, fire, rounds=1)
    record = state.scenario
    assert isinstance(record, BasicScenario)
    counters = {"Player 1's granary": 2, "Player 2's granary": 9}
    objectives = dataclasses.replace(record.objectives, counters=tuple(counters.items()))
    state = dataclasses.replace(
        state,
        scenario=dataclasses.replace(record, objectives=objectives),
        phase=Phase.MAINTENANCE,
        maintenance=MaintenanceProgress(),
    )
    script = Script(state)
    met = {(e.player, e.condition) for e in only(script.events, ConditionMet)}
    assert met == {(0, "blaze"), (0, "saved")}
    assert only(script.events, GameEnded)[-1].scores == (2, 0)


@pytest.mark.rule("XX-B-2")
def test_the_battlefield_picture_shows_the_counters(tmp_path: Path) -> None:
    sides = [[(LARGE, 1)], [(NORMAL, 1)]]
    script = Script(_game(tmp_path, sides, _wall("p1-c1-1", LARGE, 30.0) | FAR))
    picture = battlefield_svg(script.state)
    assert ">the granary</text>" in picture
    assert 'fill="#fff" font-weight="bold">3</text>' in picture  # 1 + 2 counters


@pytest.mark.rule("XX-B-2")
def test_fire_is_played_to_the_end() -> None:
    scenario = resolve("fire")
    kinds = [c.kind for c in scenario.conditions]
    assert kinds == ["counters", "counters", "control-objective"]
    events: list[Event] = []
    config = GameConfig(scenario="fire", agents=("greedy", "random"), seed=5, rounds=2)
    result = play_game(config, on_event=events.append)
    vp = [0, 0]
    for met in only(events, ConditionMet):
        vp[met.player] += met.vp
    assert tuple(vp) == only(events, GameEnded)[-1].scores == result.state.scores


# --- a property of whole games -------------------------------------------------------------------

OPEN_FIRE = GRANARY.replace("rounds = 1", "rounds = 3") + (
    '\n[[objectives]]\nname = "the mill"\nshape = "rect"\nowner = 1\n'
    'x0 = 30.0\ny0 = 25.0\nx1 = 36.0\ny1 = 35.0\nmode = "contact"\n'
    'counters = 2\nadd = "all"\nremove = "all"\noptional = true\n'
)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_counters_never_go_below_zero_and_change_only_in_maintenance(
    tmp_path_factory: pytest.TempPathFactory, seed: int
) -> None:
    """Random games of three rounds around two objectives: every step leaves every count at
    0 or more, and a count changes only in a maintenance phase, with its event."""
    sides = [[(LARGE, 1), (NORMAL, 2)], [(NORMAL, 2), (LARGE, 1)]]
    positions = {
        "p1-c1-1": (48.125, 30.0, 0.0),
        "p1-c2-1": (37.25, 30.0, 180.0),
        "p1-c2-2": (40.0, 20.0, 0.0),
        "p2-c1-1": (28.75, 30.0, 0.0),
        "p2-c1-2": (60.0, 18.75, 90.0),
        "p2-c2-1": (71.875, 30.0, 180.0),
    }
    state = skirmish(sides, positions, rounds=3, seed=seed)
    path = _file(tmp_path_factory.mktemp("fire"), OPEN_FIRE)
    state, _ = start(install(state, load_scenario(path)))
    agents = [KindAgent(seed), KindAgent(seed + 1)]
    seen = {"before": state, "changes": 0}

    def after(now: GameState, asked: Question, events: list[Event]) -> None:
        before = seen["before"]
        assert isinstance(before, GameState)
        counts, previous = _counters(now), _counters(before)
        assert all(n >= 0 for n in counts.values())
        told = {e.objective: e.after for e in only(events, CountersCounted)}
        assert counts == previous | told
        if told:  # in the maintenance phase's step "various effects", or its question
            started = [
                n
                for n, e in enumerate(events)
                if isinstance(e, MaintenanceStepStarted) and e.step == "various_effects"
            ]
            first = min(n for n, e in enumerate(events) if isinstance(e, CountersCounted))
            assert asked.kind == "counters" or (started and started[0] < first)
            seen["changes"] = int(str(seen["changes"])) + 1
        seen["before"] = now

    play_out(state, agents, after)
    CHANGES.append(int(str(seen["changes"])))


CHANGES: list[int] = []


def test_random_games_do_move_counters() -> None:
    """The property above saw counters change (it ran first, pytest keeps the file order)."""
    assert CHANGES and sum(CHANGES) > 0


def test_the_computer_players_are_sent_where_counters_are_to_move(tmp_path: Path) -> None:
    """The kind's aim (agents): the enemy's granary to set it ablaze; his own for the owner
    only while it has counters to put out."""
    text = GRANARY + (
        '\n[[conditions]]\nid = "save"\nkind = "counters"\nobjective = "the granary"\n'
        "at_most = 0\nplayers = [2]\n"
    )
    state = _game(tmp_path, [[(NORMAL, 1)], [(NORMAL, 1)]], {"p1-c1-1": (10, 10, 0)} | FAR, text)
    (burn,) = aims(state, 0)
    assert burn.bounds == (50.0, 20.0, 70.0, 40.0)
    assert len(aims(state, 1)) == 1  # 1 counter to remove
    record = state.scenario
    assert isinstance(record, BasicScenario)
    cold = dataclasses.replace(record.objectives, counters=(("the granary", 0),))
    state = dataclasses.replace(state, scenario=dataclasses.replace(record, objectives=cold))
    assert aims(state, 1) == []
