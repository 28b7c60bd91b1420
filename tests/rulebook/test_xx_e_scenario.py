"""Chapter XX-E from scenario files, through ``step()``: neutral fighters placed by the file
after the scenery (XX-A-2), their targets ranked by the value with equipment (XX-E, C3), the
C3 wording behind the ``c3`` rules (activation timing, distance over encumbered terrain),
hidden scouts revealed to every side (XX-E-2), active abilities used compulsorily (XX-E-3).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.engine.actions.shared import ScoutRevealed, reveal
from confrontation.engine.core.events import (
    ActionAnnounced,
    Charged,
    Deployed,
    Event,
    FighterActivated,
    PhaseEnded,
    SceneryLaid,
    ZoneChosen,
)
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    DieFace,
    EndActivation,
    Option,
    PlayTop,
    Question,
)
from confrontation.engine.core.registry import EngineError, Handler, Transition
from confrontation.engine.core.state import (
    CONFEDE,
    NEUTRAL,
    GameState,
    MaintenanceProgress,
    Pending,
    Phase,
    RulesetId,
    SceneryPiece,
)
from confrontation.engine.neutral import (
    NeutralDecided,
    NeutralSpec,
    UseAbility,
    add_neutrals,
    nearest_enemies,
    value_of,
)
from confrontation.engine.round.activation import ENGAGED_AT_ROUND_START
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import advance, is_chance, legal, start, step
from confrontation.engine.table.field import field_of
from confrontation.scenarios import install, load_scenario
from confrontation.scenarios.base import BasicScenario
from engine_support import activate, fighter, plugged, profile

E = TypeVar("E", bound=Event)
P1, P2, BEAST = "p1-c1-1", "p2-c1-1", "n-c1-1"

FILE = """
name = "Beasts"
section = "XX-E"
rounds = 2
goal = "control"

[[areas]]
name = "the centre"
shape = "centre"
vp = 1

[[neutrals]]
profile = "wild-boar"
x = 60.0
y = 30.0
facing = 90.0

[[neutrals]]
profile = "cave-bear"
x = 60
y = 10
"""


def _of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "beasts.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _armies(rules: RulesetId = CONFEDE) -> GameState:
    sides = [
        SideSpec("A", "griffin", ((profile("griffin-conscript"), 2),)),
        SideSpec("B", "jackal", ((profile("jackal-warrior"), 2),)),
    ]
    return game_from_specs(sides, rounds=2, rules=rules)


def _until(
    state: GameState, stop: type[Event], dice: Iterable[int] = ()
) -> tuple[GameState, list[Event]]:
    """Advance with ``dice`` then 3s for chance and the first legal answer, until ``stop``."""
    faces = iter(dice)
    state, log = start(state)
    while not _of(log, stop):
        choice: Choice = DieFace(next(faces, 3)) if is_chance(state) else legal(state)[0]
        state, events = step(state, choice)
        log.extend(events)
    return state, log


# --- the file -----------------------------------------------------------------------------


@pytest.mark.rule("XX-E", "XX-A-2")
def test_a_scenario_file_places_neutral_fighters_by_bundled_profile(tmp_path: Path) -> None:
    scenario = load_scenario(_write(tmp_path, FILE))
    assert [(n.profile, n.x, n.y, n.facing) for n in scenario.neutrals] == [
        ("wild-boar", 60.0, 30.0, 90.0),
        ("cave-bear", 60.0, 10.0, 0.0),
    ]
    state = install(on_battlefield(_armies(), scenery_count=4), scenario)
    boar, bear = state.fighter("n-c1-1"), state.fighter("n-c2-1")
    assert (boar.player, boar.profile, bear.profile) == (NEUTRAL, "wild-boar", "cave-bear")
    assert not boar.on_table and not bear.on_table  # the set-up places them (XX-A-2)
    assert {c.id for c in state.cards if c.player == NEUTRAL} == {"n-c1", "n-c2"}
    assert all(c.player != NEUTRAL for s in state.sides for c in state.cards if c.id in s.deck)


@pytest.mark.rule("XX-E", "XX-F-1")
def test_bad_neutral_entries_are_one_line_errors(tmp_path: Path) -> None:
    unknown = FILE.replace('"cave-bear"', '"dragon-of-doom"')
    with pytest.raises(LoadError, match=r"beasts.toml:19: neutrals\[2\]\.profile: unknown profile"):
        load_scenario(_write(tmp_path, unknown))
    off = FILE.replace("x = 60\n", "x = 160\n")
    with pytest.raises(LoadError, match=r"neutrals\[2\]\.x: \(160, 10\) is not on the 120x60"):
        load_scenario(_write(tmp_path, off))
    extra = FILE.replace("facing = 90.0", "facing = 90.0\nrage = 3")
    with pytest.raises(LoadError, match="rage"):
        load_scenario(_write(tmp_path, extra))
    # XX-F-1: placed by coordinates on the two-player table, no place on a layout
    scenario = load_scenario(_write(tmp_path, FILE))
    with pytest.raises(ValueError, match="XX-F-1"):
        scenario.check_players(3)


_VALUE = st.one_of(
    st.integers(-500, 500),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=6),
    st.booleans(),
    st.lists(st.integers(), max_size=2),
)


@pytest.mark.rule("XX-E", "XX-E-6")
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    key=st.sampled_from(["profile", "x", "y", "facing", "altitude", "defender", "extra"]),
    value=_VALUE,
    section=st.sampled_from(["neutrals", "passive"]),
)
def test_the_loader_fuzzed_on_neutrals_and_passive_raises_only_load_errors(
    tmp_path: Path, key: str, value: object, section: str
) -> None:
    entry: dict[str, object] = {"profile": "wild-boar", "x": 60.0, "y": 30.0}
    defender: object = 1
    if key == "defender" and section == "passive":
        defender = value
    else:
        entry[key] = value
    body = "\n".join(f"{k} = {json.dumps(v)}" for k, v in entry.items())
    text = 'name = "Fuzz"\nrounds = 1\ngoal = "execution"\ntarget = "highest-value"\n'
    if section == "neutrals":
        text += f"[[neutrals]]\n{body}\n"
    else:
        text += f"[passive]\ndefender = {json.dumps(defender)}\n"
        text += f"[[passive.individuals]]\n{body}\n"
    path = tmp_path / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_scenario(path)
    except LoadError as error:
        assert "\n" not in str(error)


# --- XX-A-2: placed after the scenery, before the deployment areas --------------------------


@pytest.mark.rule("XX-A-2", "XX-E")
def test_the_set_up_places_the_neutrals_after_the_scenery_before_the_zone_die(
    tmp_path: Path,
) -> None:
    # "Ensuite, placez les éléments mobiles et les combattants neutres spécifiés par le
    # scénario. Finalement, lancez 1d6 pour choisir les zones de déploiement."
    scenario = load_scenario(_write(tmp_path, FILE))
    state = install(on_battlefield(_armies(), scenery=()), scenario)
    state, log = _until(state, ZoneChosen)
    kinds = [type(e).__name__ for e in log if isinstance(e, Deployed | ZoneChosen)]
    assert kinds[:3] == ["Deployed", "Deployed", "ZoneChosen"]
    assert _of(log, Deployed)[:2] == [
        Deployed("n-c1-1", 60.0, 30.0, 90.0),
        Deployed("n-c2-1", 60.0, 10.0, 0.0),
    ]
    assert state.fighter("n-c1-1").on_table and state.fighter("n-c2-1").in_play
    # with the random layout: the scenery is laid first
    state = install(on_battlefield(_armies(), scenery_count=4), scenario)
    _, log = _until(state, ZoneChosen)
    laid = next(n for n, e in enumerate(log) if isinstance(e, SceneryLaid))
    first = next(n for n, e in enumerate(log) if isinstance(e, Deployed))
    assert laid < first


@pytest.mark.rule("XX-A-2")
def test_a_place_the_scenery_took_gives_the_nearest_free_one(tmp_path: Path) -> None:
    house = SceneryPiece("house", ((55.0, 25.0), (65.0, 25.0), (65.0, 35.0), (55.0, 35.0)))
    house = dataclasses.replace(house, height="very-large", passable=False)
    scenario = load_scenario(_write(tmp_path, FILE))
    state = install(on_battlefield(_armies(), scenery=[house]), scenario)
    state, log = _until(state, ZoneChosen)
    boar = state.fighter("n-c1-1")
    assert (boar.x, boar.y) != (60.0, 30.0)
    here = field_of(state)
    assert here.spot_problem(boar.id, here.base(boar.id), enemies_apart=True) is None
    assert abs(boar.x - 60.0) + abs(boar.y - 30.0) <= 12.0  # just outside the 10 cm house
    assert Deployed(boar.id, boar.x, boar.y, 90.0) in log


# --- XX-E / C3: the value with equipment ranks the targets -----------------------------------


def _beast_game(
    where: dict[str, tuple[float, float, float]],
    aps: tuple[int, int] = (10, 10),
    rules: RulesetId = CONFEDE,
    scenery: Sequence[SceneryPiece] = (),
    beast: tuple[float, float, float] = (60.0, 30.0, 180.0),
) -> GameState:
    one, two = fighter("Soldier", ap=aps[0]), fighter("Guard", ap=aps[1])
    state = game_from_specs(
        [SideSpec("A", "lion", ((one, 1),)), SideSpec("B", "lion", ((two, 1),))], rules=rules
    )
    state = on_battlefield(state, scenery=tuple(scenery), zones=(0, 1), deploy=False)
    state = place(state, where)
    return add_neutrals(state, [NeutralSpec(fighter("Beast", ap=40), *beast)])


def _to_floor(state: GameState) -> tuple[GameState, list[Event]]:
    """Start; Tactics 5 against 2, other dice 3; first legal answers to the first floor."""
    faces = iter([5, 2])
    state, log = start(state)
    while state.pending is not None and state.pending.kind != "floor":
        choice: Choice = DieFace(next(faces, 3)) if is_chance(state) else legal(state)[0]
        state, events = step(state, choice)
        log.extend(events)
    return state, log


TIED = {P1: (44.0, 18.0, 0.0), P2: (44.0, 42.0, 0.0)}
"""Both 20 cm from the beast at (60, 30)."""


@pytest.mark.rule("XX-E", "XX-E-1", "I-D-2", "C3-NEUTRAL-FIGHTERS")
def test_the_lowest_value_with_equipment_is_assaulted() -> None:
    # The soldier's card says 10 AP, his equipment makes it 30 (the scenario's value); the
    # guard is worth 25: "le combattant avec la plus faible Valeur stratégique" is the guard
    # (C3: "the lowest total AP value", the same number).
    state = _beast_game(TIED, aps=(10, 25))
    record = BasicScenario("t", "t", "control", 2, values=(("p1-c1", 30),))
    state = dataclasses.replace(state, scenario=record)
    assert (value_of(state, P1), value_of(state, P2)) == (30, 25)
    state, log = _to_floor(state)
    assert _of(log, Charged)[0].targets == (P2,)
    # without the scenario's values his card's 10 AP would make him the target
    bare = _beast_game(TIED, aps=(10, 25))
    _, log = _to_floor(bare)
    assert _of(log, Charged)[0].targets == (P1,)


# --- C3: the distance over encumbered terrain doubled -------------------------------------------


FOREST = SceneryPiece(
    "forest", ((48.0, 10.0), (56.0, 10.0), (56.0, 50.0), (48.0, 50.0)), "large", True
)
"""A large landform between the beast (60, 30) and the soldier: a normal fighter cannot cross
it freely (V-A)."""


@pytest.mark.rule("C3-NEUTRAL-FIGHTERS", "XX-E-1")
@pytest.mark.parametrize(("rules", "target"), [("confede", P1), ("c3", P2)])
def test_c3_doubles_the_distance_over_encumbered_terrain(rules: str, target: str) -> None:
    # The soldier is 20 cm away across 8 cm of forest (C3: 28 cm); the guard 24 cm away in the
    # open. Chapter 20 measures 20 and 24: the soldier; C3 "Double the distance measured over
    # Encumbered terrain": 28 against 24, the guard.
    where = {P1: (40.0, 30.0, 0.0), P2: (60.0, 54.0, 270.0)}
    state = _beast_game(where, rules=RulesetId(rules), scenery=[FOREST])
    assert nearest_enemies(state, BEAST) == (target,)


# --- C3: "in contact with an enemy at the start of the round" ----------------------------------


@pytest.mark.rule("C3-NEUTRAL-FIGHTERS", "XX-E-1")
@pytest.mark.parametrize(("rules", "first"), [("confede", True), ("c3", False)])
def test_c3_looks_at_the_contacts_when_the_round_begins(rules: str, first: bool) -> None:
    # The beast touches the soldier when round 1 begins; before the activation phase (as an
    # effect of the strategic phase would) the soldier is taken away. Chapter 20 ("au début de
    # la phase d'activation"): the beast is free, activated before anybody. C3 ("at the start
    # of the round"): he was in contact, activated after everybody.
    where = {P1: (57.5, 30.0, 0.0), P2: (100.0, 30.0, 180.0)}
    state = _beast_game(where, rules=RulesetId(rules))
    state, log = start(state)
    beast = state.fighter(BEAST)
    assert (ENGAGED_AT_ROUND_START in beast.markers) is (rules == "c3")
    away = dataclasses.replace(state.fighter(P1), x=20.0)
    state = state.with_fighters(away)
    faces = iter([5, 2])
    while state.pending is not None and state.pending.kind != "floor":
        choice: Choice = DieFace(next(faces, 3)) if is_chance(state) else legal(state)[0]
        state, events = step(state, choice)
        log.extend(events)
    activated = [a.fighter for a in _of(log, FighterActivated)]
    assert (activated == [BEAST]) is first
    if not first:  # he waits for everybody: play the cards out
        while not any(isinstance(e, PhaseEnded) and e.phase == "activation" for e in log):
            options = legal(state)
            choice = next(
                (c for c in (PlayTop(), AnnouncementsDone(), EndActivation()) if c in options),
                options[0],
            )
            state, events = step(state, choice)
            log.extend(events)
        assert [a.fighter for a in _of(log, FighterActivated)][-1] == BEAST


# --- XX-E-2: hidden scouts ----------------------------------------------------------------------


@pytest.mark.rule("XX-E-2", "XX-E-1")
def test_neutrals_ignore_a_hidden_scout_until_he_is_spotted_then_every_side_sees_him() -> None:
    # The beast (100, 30): the hidden soldier (50, 30) is 50 cm away, the guard (60, 45) 43.
    where = {P1: (50.0, 30.0, 0.0), P2: (60.0, 45.0, 180.0)}
    state = _beast_game(where, beast=(100.0, 30.0, 180.0))
    state = state.with_fighters(dataclasses.replace(state.fighter(P1), hidden=True))
    # "Au cours de leurs déplacements, les combattants Neutres ignorent la présence des
    # Éclaireurs dissimulés."
    assert nearest_enemies(state, BEAST) == (P2,)
    log: list[Event] = []
    state = activate(state, "p2-c1", log)
    [announced] = [a for a in _of(log, ActionAnnounced) if a.fighter == BEAST]
    assert announced.target == P2  # falls short of him (20 cm of 43)
    # The guard's player assaults the hidden soldier: spotted by an adversary of another
    # player, "sa présence est révélée à tous les éventuels combattants Neutres".
    assault = next(c for c in legal(state) if isinstance(c, Announce) and c.target == P1)
    state, events = step(state, assault)
    state, more = step(state, AnnouncementsDone())
    events += more
    assert field_of(state).enemies_in_contact(P2) == [P1]
    [revealed] = _of(events, ScoutRevealed)
    assert revealed == ScoutRevealed(P1, P2, (1, NEUTRAL))
    assert not state.fighter(P1).hidden
    assert nearest_enemies(state, BEAST, among={P1}) == (P1,)  # no longer ignored


@pytest.mark.rule("XX-E-2")
def test_a_scout_spotted_by_a_neutral_is_revealed_to_all_his_adversaries() -> None:
    # "Lorsqu'un Éclaireur est repéré par un combattant Neutre, sa présence est révélée à tous
    # ses adversaires, quel que soit leur camp."
    state = _beast_game({P1: (57.5, 30.0, 0.0), P2: (100.0, 30.0, 180.0)})
    state = state.with_fighters(dataclasses.replace(state.fighter(P1), hidden=True))
    state, events = reveal(state, P1, BEAST)
    assert events == [ScoutRevealed(P1, BEAST, (1, NEUTRAL))]
    assert not state.fighter(P1).hidden
    assert reveal(state, P1, BEAST) == (state, [])  # once is enough


# --- XX-E-3: active abilities are compulsory --------------------------------------------------


FURY = "war_fury"


def _fury_hook(state: GameState) -> Transition:
    """A plug-in's active ability: each round its maintenance step asks the beast's side."""
    if "fury" in state.fighter(BEAST).markers:
        return state, []
    return dataclasses.replace(state, pending=Pending(FURY, NEUTRAL)), []


def _fury_legal(state: GameState) -> list[Choice]:
    return [UseAbility(BEAST, "War Fury", False), UseAbility(BEAST, "War Fury", True)]


def _fury_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, UseAbility)
    beast = state.fighter(BEAST)
    markers = (*beast.markers, "fury" if choice.use else "calm")
    return state.with_fighters(dataclasses.replace(beast, markers=markers)), []


def _fury_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    options = tuple(Option(c, "use" if getattr(c, "use", False) else "keep") for c in choices)
    return Question(FURY, NEUTRAL, "War Fury?", options)


@pytest.mark.rule("XX-E-3")
def test_a_neutral_always_uses_an_active_ability_a_plug_in_offers() -> None:
    # "Les combattants Neutres utilisent obligatoirement leurs compétences actives." The
    # documents define no active ability (CLARIFICATIONS §5): a plug-in asks "use it?" with
    # UseAbility answers; the rules answer for the neutral side, no agent is asked.
    state = _beast_game({P1: (20.0, 30.0, 0.0), P2: (100.0, 50.0, 180.0)})
    handler = Handler(FURY, _fury_legal, _fury_apply, _fury_describe)
    state = plugged(state, handlers=[handler], maintenance_hooks=[("active_abilities", _fury_hook)])
    state = dataclasses.replace(state, phase=Phase.MAINTENANCE, maintenance=MaintenanceProgress())
    state, events = advance(state)
    assert NeutralDecided(FURY, UseAbility(BEAST, "War Fury", True)) in events
    assert state.fighter(BEAST).markers == ("fury",)


@pytest.mark.rule("XX-E-3")
def test_a_question_no_rule_answers_for_a_neutral_is_an_engine_error() -> None:
    state = _beast_game({P1: (20.0, 30.0, 0.0), P2: (100.0, 50.0, 180.0)})
    handler = Handler(FURY, lambda s: [DieFace(1)], _fury_apply, _fury_describe)
    state = plugged(state, handlers=[handler], maintenance_hooks=[("active_abilities", _fury_hook)])
    state = dataclasses.replace(state, phase=Phase.MAINTENANCE, maintenance=MaintenanceProgress())
    with pytest.raises(EngineError, match="no rule of XX-E decides 'war_fury'"):
        advance(state)
