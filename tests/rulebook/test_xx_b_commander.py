"""XX-B-1 the Commander (and the C3 Chief), XX-B-3 summoned fighters and the victory
conditions.

"Le Commandeur est obligatoirement le Champion le plus cher de l'armée en Valeur stratégique
(voir I-E-6). Si 2 Champions ou plus ont le coût le plus élevé en Valeur stratégique, le joueur
doit choisir lequel sera le Commandeur. Le Commandeur **doit** être noté sur la première ligne
de la feuille d'armée." — designated when the scenario is installed, chosen at the set-up
through ``step()`` when the list does not say, the same fighter all game; the condition kinds;
the army validator; the narration and the picture.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from confrontation.armylists.load import load_army
from confrontation.armylists.validate import validate
from confrontation.engine.core.events import FighterKilled, GameStarted
from confrontation.engine.core.narrate import Narrator
from confrontation.engine.core.ruleset import default_rules, rules_of, ruleset, with_rules
from confrontation.engine.core.state import NEUTRAL, GameState, Phase
from confrontation.engine.neutral import NeutralSpec, add_neutrals
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import legal, question
from confrontation.scenarios import install, load_scenario, resolve
from confrontation.scenarios.c3 import VARIANT
from confrontation.scenarios.commander import (
    C3,
    COMMANDER,
    ChooseCommander,
    CommanderChosen,
    commander_of,
    title,
)
from confrontation.scenarios.summoned import counts_for_victory
from confrontation.scenarios.victory import fulfils
from confrontation.sim.game import GameConfig, initial_state
from engine_support import Script, fighter

LORD = fighter("Lord", ap=50)
BARON = fighter("Baron", ap=50)
SQUIRE = fighter("Squire", ap=30)
FOOT = fighter("Footman", ap=20)
SPIRIT = dataclasses.replace(fighter("Spirit", ap=60), people="elemental")

CONDITIONS = """
name = "Heads"
section = "XX-B-1"
rounds = 2
goal = "conditions"

[[areas]]
name = "the centre"
shape = "centre"

[[conditions]]
id = "alive"
kind = "commander-alive"

[[conditions]]
id = "kill"
kind = "kill-commander"

[[conditions]]
id = "centre"
kind = "commander-in-area"
area = "the centre"
"""


def scenario_file(tmp_path: Path, text: str = CONDITIONS) -> Path:
    path = tmp_path / "heads.toml"
    path.write_text(text, encoding="utf-8")
    return path


def army_game(
    tmp_path: Path,
    first: tuple[tuple[object, int], ...],
    second: tuple[tuple[object, int], ...] = ((SQUIRE, 1), (FOOT, 1)),
    champions: tuple[str, ...] = ("p1-c1", "p1-c2", "p2-c1"),
    positions: dict[str, tuple[float, float, float]] | None = None,
    summoned: tuple[str, ...] = (),
) -> GameState:
    sides = [
        SideSpec("Side 1", "lion", first, summoned=summoned),  # type: ignore[arg-type]
        SideSpec("Side 2", "lion", second),  # type: ignore[arg-type]
    ]
    state = game_from_specs(sides, rounds=2)
    state = on_battlefield(state, scenery=(), zones=(0, 1), deploy=False)
    spots = {
        f.id: (10.0 + 8 * n, 30.0 if f.player == 0 else 50.0, 0.0)
        for n, f in enumerate(state.fighters)
    }
    state = place(state, {**spots, **(positions or {})})
    return install(state, load_scenario(scenario_file(tmp_path)), champions=champions)


# --- designating the Commander -----------------------------------------------------------------


@pytest.mark.rule("XX-B-1")
def test_the_dearest_champion_is_the_commander_wherever_he_stands(tmp_path: Path) -> None:
    state = army_game(tmp_path, ((FOOT, 2), (SQUIRE, 1), (LORD, 1)), champions=("p1-c2", "p1-c3"))
    assert commander_of(state, 0) == "p1-c3-1"  # 50 AP against the Squire's 30
    assert commander_of(state, 1) is None  # Player 2's list names no Champion
    assert state.scenario.choosing == ()  # type: ignore[union-attr]
    assert Script(state).asked != "choose_commander"


@pytest.mark.rule("XX-B-1")
def test_his_value_includes_his_equipment(tmp_path: Path) -> None:
    """I-E-6 (I-D-2): the Squire's card with 25 AP of artefacts (55) outweighs the Lord's 50."""
    sides = [
        SideSpec("Side 1", "lion", ((LORD, 1), (SQUIRE, 1))),
        SideSpec("Side 2", "lion", ((FOOT, 1),)),
    ]
    state = game_from_specs(sides)
    heads = load_scenario(scenario_file(tmp_path))
    plain = install(state, heads, champions=("p1-c1", "p1-c2"))
    equipped = install(
        state, heads, values={"p1-c2": 55, "p1-c1": 50}, champions=("p1-c1", "p1-c2")
    )
    assert commander_of(plain, 0) == "p1-c1-1"
    assert commander_of(equipped, 0) == "p1-c2-1"


@pytest.mark.rule("XX-B-1")
def test_a_tie_is_settled_by_the_first_line_of_the_list(tmp_path: Path) -> None:
    """ "Le Commandeur doit être noté sur la première ligne": of two Champions as dear, the
    one the list names first — the player's choice, written down."""
    state = army_game(tmp_path, ((BARON, 1), (FOOT, 1), (LORD, 1)), champions=("p1-c1", "p1-c3"))
    assert commander_of(state, 0) == "p1-c1-1"
    assert Script(state).asked != "choose_commander"


@pytest.mark.rule("XX-B-1")
def test_a_tie_the_list_does_not_settle_is_the_players_choice_at_the_setup(
    tmp_path: Path,
) -> None:
    """ "Si 2 Champions ou plus ont le coût le plus élevé [...] le joueur doit choisir"."""
    state = army_game(
        tmp_path, ((FOOT, 1), (LORD, 1), (BARON, 1)), champions=("p1-c2", "p1-c3", "p2-c1")
    )
    assert commander_of(state, 0) is None and commander_of(state, 1) == "p2-c1-1"
    script = Script(state)
    assert script.asked == "choose_commander"
    asked = question(script.state)
    assert asked is not None and asked.player == 0
    assert legal(script.state) == [ChooseCommander("p1-c2-1"), ChooseCommander("p1-c3-1")]
    assert "Commander (XX-B-1)" in asked.prompt
    assert [o.detail for o in asked.options] == ["50 AP", "50 AP"]
    events = script.play(ChooseCommander("p1-c3-1"))
    assert CommanderChosen(0, "p1-c3-1") in events
    assert commander_of(script.state, 0) == "p1-c3-1"
    assert script.state.scenario.choosing == ()  # type: ignore[union-attr]
    assert script.asked == "place_card"  # then the game goes on: the strategic phase


@pytest.mark.rule("XX-B-1")
def test_the_commander_stays_the_same_fighter_all_game(tmp_path: Path) -> None:
    state = army_game(tmp_path, ((LORD, 1), (SQUIRE, 1)), champions=("p1-c1", "p1-c2", "p2-c1"))
    dead = dataclasses.replace(state.fighter("p1-c1-1"), wounds=4)
    state = state.with_fighters(dead)
    assert commander_of(state, 0) == "p1-c1-1"  # the Squire does not take his place
    alive, kill, _ = state.scenario.conditions  # type: ignore[union-attr]
    assert not fulfils(state, alive, 0) and fulfils(state, alive, 1)
    assert fulfils(state, kill, 1) and not fulfils(state, kill, 0)


@pytest.mark.rule("XX-B-1", "XX-B-3")
def test_a_summoned_champion_is_not_recruited_and_never_commands(tmp_path: Path) -> None:
    state = army_game(
        tmp_path,
        ((SPIRIT, 1), (LORD, 1)),
        champions=("p1-c1", "p1-c2", "p2-c1"),
        summoned=(SPIRIT.id,),
    )
    assert commander_of(state, 0) == "p1-c2-1"  # the Spirit (60 AP) is summoned


@pytest.mark.rule("XX-B-1")
def test_a_scenario_designates_commanders_only_when_it_needs_them(tmp_path: Path) -> None:
    state, _, _ = initial_state(GameConfig(scenario="conquest"))
    assert state.scenario.commanders == ()  # type: ignore[union-attr]
    assert commander_of(state, 0) is None
    plain = 'name = "Plain"\nrounds = 1\ngoal = "control"\n{}\n[[areas]]\nname = "all"\n'
    plain += 'shape = "table"\nvp = 1\n'
    assert not load_scenario(scenario_file(tmp_path, plain.format(""))).commander
    assert load_scenario(scenario_file(tmp_path, plain.format("commander = true"))).commander
    # a condition kind that reads the Commander is enough
    assert resolve("assassination").commander and resolve("standard").commander


@pytest.mark.rule("XX-B-1")
def test_the_bundled_armies_name_their_commander_on_their_first_line() -> None:
    state, _, _ = initial_state(
        GameConfig(scenario="assassination", armies=("goblin-raiders", "dirz-strike-force"))
    )
    assert commander_of(state, 0) == "p1-c1-1"  # Azzoth, 49 AP, before Shub (36)
    assert commander_of(state, 1) == "p2-c1-1"  # Arkeon Sanath, 85 AP


# --- the C3 Chief ---------------------------------------------------------------------------------


@pytest.mark.rule("C3-CHIEF")
def test_the_c3_switch_names_him_chief_and_asks_as_c3_says(tmp_path: Path) -> None:
    """C3: "the most expensive Character (in total AP value, including artefacts...) [...] the
    player may choose which of these characters will be their Chief"."""
    state = army_game(
        tmp_path, ((FOOT, 1), (LORD, 1), (BARON, 1)), champions=("p1-c2", "p1-c3", "p2-c1")
    )
    c3 = rules_of(state).with_extension(VARIANT, COMMANDER, C3)
    state = with_rules(state, c3)
    assert title(state) == "Chief"
    script = Script(state)
    asked = question(script.state)
    assert asked is not None and "Chief (C3-CHIEF)" in asked.prompt
    script.play(ChooseCommander("p1-c2-1"))
    assert commander_of(script.state, 0) == "p1-c2-1"
    assert default_rules().extension(VARIANT, COMMANDER) is None  # the default is XX-B-1
    assert ruleset("c3").extension(VARIANT, COMMANDER) == C3  # the c3 rules turn it on


@pytest.mark.rule("C3-CHIEF")
def test_a_c3_game_tells_of_chiefs() -> None:
    from confrontation.sim.game import play_game

    result = play_game(
        GameConfig(scenario="assassination", rules="c3", seed=2, rounds=1, agents=("random",) * 2)
    )
    assert title(result.state) == "Chief"
    assert commander_of(result.state, 0) == "p1-c1-1"  # the same fighter as the Commander
    from confrontation.cli.play import objectives

    started = result.events[0]
    assert isinstance(started, GameStarted)
    narrator = Narrator()
    narrator.sentence(started)
    told = objectives(narrator, started.state)
    assert "Player 1's Chief: Templar Commander (p1-c1-1)." in told
    assert not any(line.startswith("Player 1's Commander") for line in told)


# --- the condition kinds ------------------------------------------------------------------------


@pytest.mark.rule("XX-B-1", "XX-C-2")
def test_commander_in_area_wants_his_whole_base_there_and_him_counting(tmp_path: Path) -> None:
    # the centre of a 120x60 table split along its width: x from 45 to 75
    inside = army_game(tmp_path, ((LORD, 1),), positions={"p1-c1-1": (60, 30, 0)})
    centre = inside.scenario.conditions[2]  # type: ignore[union-attr]
    assert fulfils(inside, centre, 0)
    astride = army_game(tmp_path, ((LORD, 1),), positions={"p1-c1-1": (45.5, 30, 0)})
    assert not fulfils(astride, centre, 0)  # part of his base is outside
    routed = inside.with_fighters(dataclasses.replace(inside.fighter("p1-c1-1"), routed=True))
    assert not fulfils(routed, centre, 0)  # XX-C-2: a routed fighter does not count
    flying = inside.with_fighters(dataclasses.replace(inside.fighter("p1-c1-1"), altitude=1))
    assert not fulfils(flying, centre, 0)
    assert not fulfils(inside, centre, 1)  # Player 2's Commander is elsewhere


# --- XX-B-3: summoned fighters and the victory conditions ----------------------------------------


@pytest.mark.rule("XX-B-3", "C3-SUMMONING-OF-FIGHTERS")
def test_summoned_fighters_count_for_victory_only_of_the_armys_people(tmp_path: Path) -> None:
    """ "Un Pantin morbide invoqué porte la mention 'Régulier d'Achéron' [...] il peut donc
    compter pour les conditions de victoire dans une armée d'Achéron mais pas dans une autre
    armée. Une Ira tenebrae invoquée ne mentionne pas de peuple [...] ne comptera donc jamais";
    "un Élémentaire d'Air non invoqué peut tout à fait contrôler un objectif"."""
    puppet = dataclasses.replace(fighter("Morbid Puppet", ap=8), people="acheron")
    other_puppet = dataclasses.replace(puppet, id="lion-puppet")
    ira = dataclasses.replace(fighter("Ira Tenebrae", ap=12), people="none")
    air = dataclasses.replace(fighter("Air Elemental", ap=40), people="elemental")
    acheron = SideSpec("Acheron", "acheron", ((puppet, 1), (ira, 1)), summoned=(puppet.id, ira.id))
    lions = SideSpec("Lions", "lion", ((other_puppet, 1), (air, 1)), summoned=(other_puppet.id,))
    state = game_from_specs([acheron, lions])
    counted = {f.id: counts_for_victory(state, f) for f in state.fighters}
    assert counted == {
        "p1-c1-1": True,  # a summoned Morbid Puppet in an army of Acheron
        "p1-c2-1": False,  # a summoned Ira Tenebrae: no people
        "p2-c1-1": False,  # a summoned Morbid Puppet in an army of Lions
        "p2-c2-1": True,  # an Air Elemental not summoned (an ally of another people)
    }
    state = on_battlefield(state, scenery=(), zones=(0, 1), deploy=False)
    neutral = add_neutrals(state, [NeutralSpec(fighter("Wolf", ap=20), 60, 30)])
    wolf = next(f for f in neutral.fighters if f.player == NEUTRAL)
    assert not counts_for_victory(neutral, wolf)  # XX-E: a neutral fighter counts for nobody


# --- the army list ------------------------------------------------------------------------------


def _card(ident: str, ap: int, champion: bool) -> str:
    rank = "elite" if champion else "regular"
    return (
        f'[[profiles]]\nid = "{ident}"\nname = "{ident}"\npeople = "lion"\nrank = "{rank}"\n'
        f"champion = {str(champion).lower()}\nap = {ap}\nmov = 10\nini = 3\natt = 4\nstr = 5\n"
        "def = 4\nres = 8\ncourage = 4\ndis = 3\nsample = true\n"
    )


def _army(tmp_path: Path, *cards: str) -> Path:
    library = tmp_path / "lib.toml"
    library.write_text(
        _card("lord", 60, True)
        + _card("baron", 60, True)
        + _card("squire", 30, True)
        + _card("footman", 10, False),
        encoding="utf-8",
    )
    lines = ['name = "Test"\npeople = "lion"\npoints = 300\nprofiles = ["lib.toml"]']
    lines += [f'[[cards]]\nprofile = "{card}"' for card in cards]
    path = tmp_path / "army.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _commander_violations(path: Path) -> list[str]:
    report = validate(load_army(path))
    assert not [v for v in report.violations if v.rule == "XX-B-1"]  # a note, never a violation
    return [n.message for n in report.notes if n.rule == "XX-B-1"]


@pytest.mark.rule("XX-B-1")
def test_the_validator_reports_a_commander_not_on_the_first_line(tmp_path: Path) -> None:
    late = _commander_violations(_army(tmp_path, "footman", "squire", "lord"))
    assert late == [
        "the Commander (lord, the dearest Champion at 60 AP) must be on the first line of the "
        "list, not footman"
    ]
    assert _commander_violations(_army(tmp_path, "squire", "lord")) != []  # a cheaper champion
    assert _commander_violations(_army(tmp_path, "lord", "footman", "squire")) == []
    # two as dear: whichever the list names first is the player's choice
    assert _commander_violations(_army(tmp_path, "baron", "lord", "footman")) == []
    tied = _commander_violations(_army(tmp_path, "footman", "baron", "lord"))
    assert len(tied) == 1 and "(baron or lord, " in tied[0]
    assert _commander_violations(_army(tmp_path, "footman")) == []  # no Champion: I-D-4 says


@pytest.mark.rule("XX-B-1")
def test_the_bundled_armies_put_their_commander_first() -> None:
    from confrontation.armylists.load import bundled_army_files

    for path in bundled_army_files():
        assert validate(load_army(path)).notes == [], path


# --- narration and picture --------------------------------------------------------------------


@pytest.mark.rule("XX-B-1")
def test_the_narration_says_when_a_commander_falls(tmp_path: Path) -> None:
    state = army_game(
        tmp_path, ((FOOT, 1), (LORD, 1), (BARON, 1)), champions=("p1-c2", "p1-c3", "p2-c1")
    )
    narrator = Narrator()
    narrator.sentence(GameStarted(state))
    assert narrator.sentence(CommanderChosen(0, "p1-c3-1")) == (
        "Player 1 names Baron (p1-c3-1) his Commander."
    )
    told = narrator.sentence(FighterKilled("p1-c3-1"))
    assert told is not None and told.endswith("— Player 1's Commander has fallen (XX-B-1).")
    other = narrator.sentence(FighterKilled("p1-c2-1"))
    assert other is not None and "Commander" not in other
    enemy = narrator.sentence(FighterKilled("p2-c1-1"))
    assert enemy is not None and "Player 2's Commander has fallen" in enemy


@pytest.mark.rule("XX-B-1")
def test_the_battlefield_picture_marks_the_commanders() -> None:
    from confrontation.scenarios.picture import battlefield_svg

    state, _, _ = initial_state(GameConfig(scenario="assassination"))
    state = place(
        dataclasses.replace(state, phase=Phase.STRATEGIC),
        {f.id: (10.0 + 5 * n, 20.0 + 20 * f.player, 0.0) for n, f in enumerate(state.fighters)},
    )
    picture = battlefield_svg(state)
    assert picture.count("★ ") == 2
    assert "★ p1-c1-1" in picture and "★ p2-c1-1" in picture
    assert picture.count('stroke="#d4a017"') == 2


@pytest.mark.rule("XX-B-1", "I-D-4")
def test_the_i_d_4_goblin_list_stays_valid_with_a_note() -> None:
    """The book's I-D-4 list names Azzoth (34 AP) before Shûb (36 AP): a valid army, whose
    Commander — for a scenario that needs one — is Shûb, not on the first line."""
    from typer.testing import CliRunner

    from confrontation.cli import app

    path = Path(__file__).parent / "data" / "i_d_4_goblin_champions.toml"
    report = validate(load_army(path))
    assert report.valid and [n.rule for n in report.notes] == ["XX-B-1"]
    assert "Shûb, Goblin Prophet" in report.notes[0].message
    assert report.as_json()["notes"] == [{"rule": "XX-B-1", "message": report.notes[0].message}]
    done = CliRunner().invoke(app, ["army", "validate", str(path)])
    assert done.exit_code == 0
    assert "note: XX-B-1: the Commander (Shûb, Goblin Prophet" in done.stdout


@pytest.mark.rule("XX-B-1")
def test_a_whole_game_asks_the_tie_first_and_its_record_replays(tmp_path: Path) -> None:
    """From army files: a list of two Champions as dear, neither on its first line; the
    question comes before the scenery, the agent answers it, the record replays."""
    from confrontation.engine.core.events import ChoiceMade, SceneryLaid
    from confrontation.engine.record import replay
    from confrontation.sim.game import play_game

    army = _army(tmp_path, "footman", "lord", "baron")
    config = GameConfig(
        scenario="assassination",
        armies=(str(army), "lion-vanguard"),
        agents=("random", "greedy"),
        seed=1,
        rounds=1,
    )
    result = play_game(config)
    events = list(result.events)
    asked = [e for e in events if isinstance(e, ChoiceMade) and e.question == "choose_commander"]
    chosen = [e for e in events if isinstance(e, CommanderChosen)]
    assert len(asked) == 1 and len(chosen) == 1 and chosen[0].player == 0
    assert chosen[0].fighter in ("p1-c2-1", "p1-c3-1")
    laid = next(i for i, e in enumerate(events) if isinstance(e, SceneryLaid))
    assert events.index(chosen[0]) < laid  # before anything else of the set-up
    assert commander_of(result.state, 0) == chosen[0].fighter
    assert replay(events).scenario == result.state.scenario


@pytest.mark.rule("XX-B-1")
def test_the_computer_players_hunt_the_enemy_commander_and_aim_at_the_area(
    tmp_path: Path,
) -> None:
    from confrontation.scenarios.victory import aims, prey

    state = army_game(tmp_path, ((LORD, 1), (FOOT, 1)), champions=("p1-c1", "p2-c1"))
    assert prey(state, 0) == {"p2-c1-1"} and prey(state, 1) == {"p1-c1-1"}
    dead = state.with_fighters(dataclasses.replace(state.fighter("p2-c1-1"), wounds=4))
    assert prey(dead, 0) == set()  # nothing left to hunt
    centre = aims(state, 0)
    assert len(centre) == 1 and centre[0].bounds == (45.0, 0.0, 75.0, 60.0)
