"""XX-C (chapter 20, French): value and effectif, occupation, control and capture of
objectives, through ``step()`` — fighters placed on a table, the maintenance phase of the
last round played, the objectives counted (``ObjectiveHeld``) and the victory conditions
scored (``ConditionMet``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from confrontation.armylists.load import LoadError
from confrontation.engine.core.events import Event, GameEnded
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.ruleset import rules_of, ruleset, with_rules
from confrontation.engine.core.state import (
    GameState,
    MaintenanceProgress,
    Phase,
    ProfileSummary,
    state_from_json,
    state_to_json,
)
from confrontation.engine.neutral import NeutralSpec, add_neutrals
from confrontation.engine.step import legal
from confrontation.scenarios import resolve
from confrontation.scenarios.base import load_scenario
from confrontation.scenarios.basic import install
from confrontation.scenarios.c3 import VARIANT
from confrontation.scenarios.control import tally
from confrontation.scenarios.occupation import CountFor, CountsFor, ObjectiveHeld
from confrontation.scenarios.victory import ConditionMet, aims
from confrontation.sim.game import GameConfig, play_game
from engine_support import Script, fighter, only, profile, skirmish

LIGHT, SERIOUS, CRITICAL = 1, 2, 3

HILL = """
name = "The hill of XX-C-2"
rounds = 1
goal = "conditions"

[[objectives]]
name = "the hill"
shape = "circle"
x = 60.0
y = 30.0
radius = 12.0
mode = "zone"
effectif = 6
value = 50

[[conditions]]
id = "occupy"
kind = "occupy"
objective = "the hill"

[[conditions]]
id = "control"
kind = "control-objective"
objective = "the hill"
"""

WOLFEN = profile("wolfen-great-fang")  # "grands Crocs Wolfen d'une valeur individuelle de 34"
ABYSS = fighter("Warrior of the Abyss", ap=9)  # "guerriers des Gouffres ... de 9"
WOLFEN_AT = [(56.0, 26.0), (56.0, 34.0), (64.0, 26.0), (64.0, 34.0)]
ABYSS_AT = [(60.0, 30.0), (60.0, 22.0), (60.0, 38.0), (51.0, 30.0), (69.0, 30.0), (60.0, 26.0)]


def _scenario_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _game(
    tmp_path: Path,
    text: str,
    sides: list[list[tuple[ProfileSummary, int]]],
    positions: Mapping[str, tuple[float, float, float]],
    rounds: int = 1,
    at_round: int | None = None,
    **changes: Mapping[str, Any],
) -> GameState:
    """A skirmish playing the scenario ``text``, in the maintenance phase of round
    ``at_round`` (default: the last); ``changes`` maps a fighter field (wounds, routed...)
    to {fighter: value}."""
    state = skirmish(sides, positions, rounds=rounds)
    state = install(state, load_scenario(_scenario_file(tmp_path, text)), rounds=rounds)
    for name, values in changes.items():
        state = state.with_fighters(
            *(dataclasses.replace(state.fighter(f), **{name: v}) for f, v in values.items())
        )
    return dataclasses.replace(
        state, round=at_round or rounds, phase=Phase.MAINTENANCE, maintenance=MaintenanceProgress()
    )


def _at(
    player: int, points: list[tuple[float, float]], card: int = 1
) -> dict[str, tuple[float, float, float]]:
    return {f"p{player}-c{card}-{n}": (x, y, 0.0) for n, (x, y) in enumerate(points, start=1)}


def _held(events: list[Event]) -> dict[str, ObjectiveHeld]:
    return {e.objective: e for e in only(events, ObjectiveHeld)}


def _met(events: list[Event]) -> set[tuple[int, str]]:
    return {(e.player, e.condition) for e in only(events, ConditionMet)}


def _hill(tmp_path: Path, **changes: Mapping[str, Any]) -> GameState:
    sides = [[(WOLFEN, 4)], [(ABYSS, 6)]]
    return _game(tmp_path, HILL, sides, _at(1, WOLFEN_AT) | _at(2, ABYSS_AT), 1, None, **changes)


# --- XX-C-1 -------------------------------------------------------------------------------------


@pytest.mark.rule("XX-C-1")
def test_wounded_fighters_count_less_and_never_below_zero(tmp_path: Path) -> None:
    """XX-C-1: "Un guerrier Khor compte pour 23 ... S'il est en Blessure grave, sa valeur
    stratégique est abaissée à 23 - 5 = 18 points." "Un guerrier Keltois compte pour 8 ...
    S'il est en Blessure critique ... Il compte donc pour 0." Both on the hill: effectif 2,
    value 18."""
    khor = fighter("Khor warrior", ap=23)
    keltois = fighter("Keltois warrior", ap=8)
    sides = [[(khor, 1), (keltois, 1)], [(ABYSS, 1)]]
    positions = _at(1, [(58.0, 30.0)]) | _at(1, [(62.0, 30.0)], card=2) | _at(2, [(100.0, 30.0)])
    wounds = {"p1-c1-1": SERIOUS, "p1-c2-1": CRITICAL}
    script = Script(_game(tmp_path, HILL, sides, positions, wounds=wounds))
    held = _held(script.events)["the hill"]
    assert (held.powers, held.values) == ((2, 0), (18, 0))
    assert held.occupiers == ()  # effectif 2 of 6, value 18 of 50


@pytest.mark.rule("XX-C-1")
def test_routed_and_flying_fighters_are_not_counted(tmp_path: Path) -> None:
    """XX-C-1: "Les combattants en déroute et les combattants en vol (au palier 1 ou 2) ne sont pas
    comptabilisés dans le calcul de l'effectif et de la valeur."
    """
    routed = {"p1-c1-1": True}
    flying = {"p1-c1-2": 1}
    script = Script(_hill(tmp_path, routed=routed, altitude=flying))
    held = _held(script.events)["the hill"]
    assert (held.powers, held.values) == ((4, 6), (68, 54))  # two Wolfen of four
    assert held.occupiers == (1,)  # the Wolfen's effectif 4 falls short of 6


@pytest.mark.rule("XX-C-1", "XX-B-3")
def test_summoned_and_returned_fighters_count_unless_placed_in_the_last_round(
    tmp_path: Path,
) -> None:
    """XX-C-1: "Les combattants invoqués, ressuscités ou revenus en jeu grâce à la compétence
    « Renfort » sont pris en compte ... sauf s'ils ont été placés sur le champ de bataille
    lors du dernier tour de jeu." Round 2 of 2: a Wolfen summoned in round 1 (of the army's
    people) counts, one returned by 'Reinforcement' in round 2 does not."""
    sides = [[(WOLFEN, 4)], [(ABYSS, 6)]]
    state = _game(
        tmp_path,
        HILL.replace("rounds = 1", "rounds = 2"),
        sides,
        _at(1, WOLFEN_AT) | _at(2, ABYSS_AT),
        rounds=2,
        summoned={"p1-c1-1": True},
        placed={"p1-c1-1": 1, "p1-c1-2": 2},
    )
    state = state.with_side(dataclasses.replace(state.side(0), people="wolf"))
    held = _held(Script(state).events)["the hill"]
    assert (held.powers[0], held.values[0]) == (6, 102)


# --- XX-C-2 -------------------------------------------------------------------------------------


@pytest.mark.rule("XX-C-2", "XX-C-1")
def test_the_hill_example_wolfen_occupy_the_abyss_warriors_do_not(tmp_path: Path) -> None:
    """XX-C-2: "L'occupation d'une colline requiert un effectif de 6 et une valeur de 50."
    Four great Fang Wolfen (34, large), one Light, one Serious, one Critical wound: "Leur
    effectif est donc de 8 ... et leur valeur de 34 + 34 + (34 - 5) + (34 - 10) = 121. Ils
    occupent donc l'objectif." Six warriors of the Abyss (9), two Serious, two Critical:
    "Leur effectif est donc de 6 et leur valeur de ... 26. Le camp B dispose d'un effectif
    suffisant, mais sa valeur n'est pas assez élevée pour occuper l'objectif."
    """
    wounds = {"p1-c1-2": LIGHT, "p1-c1-3": SERIOUS, "p1-c1-4": CRITICAL}
    wounds |= {"p2-c1-3": SERIOUS, "p2-c1-4": SERIOUS, "p2-c1-5": CRITICAL, "p2-c1-6": CRITICAL}
    script = Script(_hill(tmp_path, wounds=wounds), whole_log=True)
    held = _held(script.events)["the hill"]
    assert held.powers == (8, 6) and held.values == (121, 26)
    assert held.occupiers == (0,) and held.controller == 0
    assert _met(script.events) == {(0, "occupy"), (0, "control")}
    assert only(script.events, GameEnded)[-1].scores == (2, 0)
    told = "\n".join(narrate(script.events))
    assert "The hill: effectif 8 to 6, value 121 to 26 — controlled by Player 1." in told


@pytest.mark.rule("XX-C-2")
def test_hidden_neutral_and_foreign_summoned_fighters_do_not_occupy(tmp_path: Path) -> None:
    """XX-C-2: "Les combattants suivants ne sont pas comptabilisés pour l'occupation d'un objectif :
    ... Combattant caché ... Combattant Neutre.
    Combattant invoqué, sauf s'il appartient au même peuple que l'armée." The Wolfen's side
    is of the Lion: a summoned Wolfen is of another people."""
    state = _hill(tmp_path, hidden={"p1-c1-1": True}, summoned={"p1-c1-2": True})
    state = add_neutrals(state, [NeutralSpec(WOLFEN, 60.0, 33.5)])
    held = _held(Script(state).events)["the hill"]
    assert (held.powers, held.values) == ((4, 6), (68, 54))
    assert held.occupiers == (1,) and held.controller is None  # 4 < 6 Power, 68 > 54 value


SQUARE_OBJECTIVE = """
name = "A building"
rounds = 1
goal = "conditions"

[[objectives]]
name = "the building"
shape = "rect"
x0 = 50.0
y0 = 20.0
x1 = 70.0
y1 = 40.0
mode = "contact"

[[conditions]]
id = "hold"
kind = "control-objective"
objective = "the building"
"""


def _touching(tmp_path: Path, y: float, c3: bool) -> ObjectiveHeld:
    """A normal square base (2.5 cm) against the building's left wall (x = 50), its centre
    at height ``y``: the wall ends at y = 20, so ``y - 1.25 … y + 1.25`` lies along it from
    y = 20 up."""
    state = _game(
        tmp_path,
        SQUARE_OBJECTIVE,
        [[(ABYSS, 1)], [(ABYSS, 1)]],
        {"p1-c1-1": (48.75, y, 0.0), "p2-c1-1": (100.0, 30.0, 0.0)},
    )
    if c3:
        state = with_rules(state, rules_of(state).with_extension(VARIANT, "contact", "c3"))
    return _held(Script(state).events)["the building"]


@pytest.mark.rule("XX-C-2", "C3-CONTROL-OF-OBJECTIVES")
@pytest.mark.parametrize(
    ("y", "chapter_20", "c3"),
    [
        (20.0, True, False),  # exactly half of a side along the wall
        (20.5, True, True),  # 70 % of it
        (19.5, False, False),  # 30 % of it
        (30.0, True, True),  # the whole side
    ],
)
def test_contact_takes_half_a_side_or_more_than_half_in_c3(
    tmp_path: Path, y: float, chapter_20: bool, c3: bool
) -> None:
    """XX-C-2: "au contact (au moins la moitié de son socle s'il s'agit d'un socle carré)";
    C3 (the variant ``("variant", "contact") = "c3"``): "more than half of one base edge is
    in contact with the objective"."""
    assert (_touching(tmp_path, y, False).powers[0] == 1) is chapter_20
    assert (_touching(tmp_path, y, True).powers[0] == 1) is c3
    assert ruleset("c3").extension(VARIANT, "contact") == "c3"  # --rules c3


@pytest.mark.rule("XX-C-2")
def test_round_bases_and_round_objectives_count_as_soon_as_they_touch(tmp_path: Path) -> None:
    """A round base, or any base against a round objective (a well), has no side to lay
    along it: touching is contact (as mixed pairs of bases, II-E)."""
    well = SQUARE_OBJECTIVE.replace(
        'shape = "rect"\nx0 = 50.0\ny0 = 20.0\nx1 = 70.0\ny1 = 40.0',
        'shape = "circle"\nx = 60.0\ny = 30.0\nradius = 3.0',
    ).replace("the building", "the well")
    assert "circle" in well
    tower = fighter("Tower guard", ap=9, base="round")
    sides = [[(ABYSS, 1), (tower, 1)], [(ABYSS, 1)]]
    positions = {
        "p1-c1-1": (60.0, 34.25, 90.0),  # square base, its back edge touching the well
        "p1-c2-1": (55.5, 30.0, 0.0),  # round base (3 cm) touching it
        "p2-c1-1": (68.0, 30.0, 0.0),  # 3.75 cm away
    }
    held = _held(Script(_game(tmp_path, well, sides, positions)).events)["the well"]
    assert held.powers == (2, 0) and held.controller == 0
    assert held.occupiers == (0,)  # no thresholds: any presence occupies, absence does not


@pytest.mark.rule("XX-C-2")
def test_a_zone_counts_whole_bases_within_its_perimeter(tmp_path: Path) -> None:
    """XX-C-2: "... dans une zone (l'intégralité de son socle) définie autour de celui-ci": the zone
    reaches 5 cm beyond the building; a base wholly in it counts, a base astride its edge
    does not."""
    zone = SQUARE_OBJECTIVE.replace('mode = "contact"', 'mode = "zone"\nperimeter = 5.0')
    positions = {"p1-c1-1": (46.25, 30.0, 0.0), "p2-c1-1": (45.5, 35.0, 0.0)}
    held = _held(Script(_game(tmp_path, zone, [[(ABYSS, 1)], [(ABYSS, 1)]], positions)).events)
    assert held["the building"].powers == (1, 0)


# --- XX-C-3 -------------------------------------------------------------------------------------


@pytest.mark.rule("XX-C-3")
def test_both_occupy_and_neither_controls_without_both_sums_strictly_greater(
    tmp_path: Path,
) -> None:
    """XX-C-3: "Si deux camps adverses remplissent les conditions d'occupation pour un même
    objectif, ils l'occupent tous les deux. Pour contrôler un objectif, l'effectif et la valeur du
    camp dans la zone définie doivent être tous deux strictement supérieurs à ceux de
    l'adversaire. N'importe quelle autre situation entraîne une égalité." Four unwounded
    Wolfen (8, 136) against six warriors worth 25 (6, 150): more Power, less value."""
    text = HILL.replace("effectif = 6\nvalue = 50", "effectif = 6\nvalue = 100")
    strong = fighter("Abyss champion", ap=25)
    sides = [[(WOLFEN, 4)], [(strong, 6)]]
    script = Script(_game(tmp_path, text, sides, _at(1, WOLFEN_AT) | _at(2, ABYSS_AT)))
    held = _held(script.events)["the hill"]
    assert (held.powers, held.values) == ((8, 6), (136, 150))
    assert held.occupiers == (0, 1) and held.controller is None
    assert _met(script.events) == {(0, "occupy"), (1, "occupy")}


@pytest.mark.rule("XX-C-3")
def test_control_is_of_an_objective_the_player_occupies(tmp_path: Path) -> None:
    """Two Wolfen alone on the hill (effectif 4, value 68) beat nobody's 0 but do not reach
    the hill's effectif of 6: no occupation, hence no control (docs/rulings.md)."""
    sides = [[(WOLFEN, 2)], [(ABYSS, 1)]]
    positions = _at(1, WOLFEN_AT[:2]) | _at(2, [(110.0, 30.0)])
    script = Script(_game(tmp_path, HILL, sides, positions))
    held = _held(script.events)["the hill"]
    assert held.powers == (4, 0) and held.controller is None and not _met(script.events)


TWO_HILLS = """
name = "Two hills"
rounds = 1
goal = "conditions"

[[objectives]]
name = "the west hill"
shape = "circle"
x = 55.0
y = 30.0
radius = 6.0
perimeter = 3.0

[[objectives]]
name = "the east hill"
shape = "circle"
x = 67.0
y = 30.0
radius = 6.0
perimeter = 3.0

[[conditions]]
id = "west"
kind = "control-objective"
objective = "the west hill"

[[conditions]]
id = "east"
kind = "control-objective"
objective = "the east hill"
"""


def _two_hills(tmp_path: Path, rounds: int, at_round: int) -> GameState:
    """A Wolfen standing between the two hills, within both zones; one enemy on each."""
    positions = {
        "p1-c1-1": (61.0, 30.0, 0.0),
        "p2-c1-1": (53.0, 30.0, 0.0),
        "p2-c1-2": (69.0, 30.0, 0.0),
    }
    text = TWO_HILLS.replace("rounds = 1", f"rounds = {rounds}")
    sides = [[(WOLFEN, 1)], [(ABYSS, 2)]]
    return _game(tmp_path, text, sides, positions, rounds=rounds, at_round=at_round)


@pytest.mark.rule("XX-C-3")
def test_a_fighter_on_two_objectives_counts_for_the_one_his_player_chooses(
    tmp_path: Path,
) -> None:
    """XX-C-3: "Un même combattant ne peut pas être pris en compte pour l'occupation et/ou le
    contrôle de plusieurs zones. Si un combattant se trouve à cheval sur plusieurs objectifs,
    le joueur qui le contrôle doit décider pour lequel il est comptabilisé."
    """
    script = Script(_two_hills(tmp_path, 1, 1), whole_log=True)
    assert script.asked == "count_for"
    asked = script.state.pending
    assert asked is not None and asked.player == 0
    events = script.play(CountFor("p1-c1-1", "objective:the east hill"))
    assert CountsFor("p1-c1-1", "objective:the east hill") in events
    held = _held(events)
    assert held["the east hill"].powers == (2, 1) and held["the east hill"].controller == 0
    assert held["the west hill"].powers == (0, 1) and held["the west hill"].controller == 1
    assert _met(events) == {(0, "east"), (1, "west")}
    told = "\n".join(narrate(script.events))
    assert "Great Fang Wolfen (p1-c1-1) counts for the east hill only (XX-C-3)." in told


@pytest.mark.rule("XX-C-3")
def test_the_choice_is_asked_when_it_counts_and_defaults_to_the_first(tmp_path: Path) -> None:
    """Round 1 of 2 without a condition checked each round: nothing is asked, the Wolfen
    counts for the first objective of the file (docs/rulings.md)."""
    script = Script(_two_hills(tmp_path, 2, 1))
    assert script.asked == "place_card"  # round 2 has begun
    held = _held(script.events)
    assert held["the west hill"].powers == (2, 1) and held["the east hill"].powers == (0, 1)
    assert tally(script.state, "objective:the west hill").fighters[0] == ("p1-c1-1",)


# --- XX-C-4 -------------------------------------------------------------------------------------

CAPTURE = """
name = "Take him alive"
rounds = 1
goal = "conditions"

[[conditions]]
id = "capture"
kind = "capture"
target = "highest-value"
perimeter = 5.0
"""


def _finish(script: Script, prefer: str) -> None:
    """Answer the XX-C-3 questions: each fighter counts for ``prefer`` when he may."""
    while script.asked == "count_for":
        options = [c for c in legal(script.state) if isinstance(c, CountFor)]
        chosen = [c for c in options if c.zone == prefer] or options[:1]
        script.play(chosen[0])


@pytest.mark.rule("XX-C-4", "XX-C-3")
@pytest.mark.parametrize(("guards", "captured"), [(0, True), (2, False)])
def test_the_player_who_controls_the_perimeter_captures_the_target(
    tmp_path: Path, guards: int, captured: bool
) -> None:
    """XX-C-4: "La cible est associée à un certain périmètre de contrôle ... Au terme de la partie,
    le joueur qui contrôle ce périmètre capture la cible." Player 2's most valuable fighter
    is a Wolfen (34, effectif 2); three hunters (30 each) stand within 5 cm of him: effectif
    3, value 90 — he is captured. With two warriors of Player 2 beside him the effectif
    there is 4 against 3: he is not. The hunters, within the perimeters of each other's
    capture by Player 2 too, count for the Wolfen's (XX-C-3: their player's choice)."""
    hunters = fighter("Hunter", ap=30)
    sides = [[(hunters, 3)], [(WOLFEN, 1), (ABYSS, 2)]]
    positions = _at(1, [(60.0, 34.0), (60.0, 26.0), (56.0, 30.0)])
    positions |= {"p2-c1-1": (61.0, 30.0, 0.0)}
    positions |= _at(2, [(65.0, 28.5), (65.0, 31.5)] if guards else [(100, 20), (100, 40)], 2)
    script = Script(_game(tmp_path, CAPTURE, sides, positions))
    _finish(script, "capture:p2-c1-1:5")
    assert ((0, "capture") in _met(script.events)) is captured
    assert (1, "capture") not in _met(script.events)  # nobody of Player 2 near a hunter


@pytest.mark.rule("XX-C-4")
def test_a_dead_target_is_not_captured(tmp_path: Path) -> None:
    sides = [[(WOLFEN, 2)], [(WOLFEN, 1)]]
    positions = _at(1, [(60.0, 34.5), (60.0, 25.5)]) | _at(2, [(60.0, 30.0)])
    state = _game(tmp_path, CAPTURE, sides, positions, wounds={"p2-c1-1": 4})
    assert not _met(Script(state).events)


# --- the scenario files -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("radius = 12.0", "radius = -1.0"), "objectives[1].radius"),
        (("radius = 12.0\n", ""), "a 'circle' objective needs radius"),
        (('mode = "zone"', 'mode = "near"'), "objectives[1].mode"),
        (('mode = "zone"', 'mode = "contact"\nperimeter = 3.0'), "perimeter belongs to"),
        (("x = 60.0", "x = 112.0"), "is not wholly on the 120x60 table"),
        (('objective = "the hill"\n\n[[c', 'objective = "a hill"\n\n[[c'), "no objective 'a hill'"),
        (("effectif = 6", 'effectif = 6\nadd = "owner"'), "needs an owner"),
        (('name = "the hill"', 'name = "the hill"\nowner = 3'), "objectives[1].owner"),
    ],
)
def test_bad_objectives_are_one_line_errors(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    text = HILL.replace(*change, 1)
    assert text != HILL
    with pytest.raises(LoadError) as error:
        load_scenario(_scenario_file(tmp_path, text))
    assert message in str(error.value)
    assert "\n" not in str(error.value) and "scenario.toml" in str(error.value)


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet='abcxyz=[]{}"\n .1-', max_size=50))
def test_garbled_objectives_never_raise_anything_else(tmp_path_factory, garbage: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("garbled") / "g.toml"
    path.write_text(HILL + "\n[[objectives]]\n" + garbage, encoding="utf-8")
    try:
        load_scenario(path)
    except LoadError as error:
        assert "\n" not in str(error)


def test_the_computer_players_are_sent_to_the_hill_and_round_the_targets(tmp_path: Path) -> None:
    """The kinds' aims (agents): the hill's zone for occupy and control, the perimeter round
    the enemy's most valuable fighter for capture."""
    text = HILL + CAPTURE.split('goal = "conditions"')[1]
    sides = [[(WOLFEN, 1)], [(ABYSS, 1)]]
    state = _game(tmp_path, text, sides, _at(1, [(20.0, 30.0)]) | _at(2, [(100.0, 30.0)]))
    hill, again, perimeter = aims(state, 0)
    assert hill.equals(again) and hill.bounds == pytest.approx((48.0, 18.0, 72.0, 42.0))
    assert perimeter.contains(Point(100.0, 30.0)) and perimeter.bounds[0] == pytest.approx(93.75)


def test_objectives_are_for_two_player_tables() -> None:
    with pytest.raises(ValueError, match="XX-F-1"):
        resolve("the-hill").check_players(3)


def test_a_game_with_objectives_is_plain_data(tmp_path: Path) -> None:
    state = _hill(tmp_path, wounds={"p1-c1-1": SERIOUS})
    assert state_from_json(state_to_json(state)) == state
    assert '"objectives"' in state_to_json(state)
    plain = install(skirmish([[(ABYSS, 1)], [(ABYSS, 1)]], {}), resolve("conquest"))
    assert '"objectives"' not in state_to_json(plain)


@pytest.mark.rule("XX-C")
def test_the_hill_is_played_to_the_end() -> None:
    """The bundled scenario: three victory conditions (occupy at the end of a round, control
    at the end, capture) scored from the events of a whole game."""
    scenario = resolve("the-hill")
    assert [c.kind for c in scenario.conditions] == ["occupy", "control-objective", "capture"]
    events: list[Event] = []
    config = GameConfig(scenario="the-hill", agents=("greedy", "random"), seed=3, rounds=3)
    result = play_game(config, on_event=events.append)
    held = only(events, ObjectiveHeld)
    assert len(held) == 3  # one count per round
    ended = only(events, GameEnded)[-1]
    vp = [0, 0]
    for met in only(events, ConditionMet):
        vp[met.player] += met.vp
    assert tuple(vp) == ended.scores == result.state.scores
