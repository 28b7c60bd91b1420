"""Victory conditions as data (XX-A-4): the file's ``[[conditions]]`` and ``[[bonus]]``, their
kinds in the rules value, ``round`` conditions kept once met, ``end`` ones checked last."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.engine.core.events import GameEnded
from confrontation.engine.core.ruleset import default_rules
from confrontation.engine.core.state import GameState
from confrontation.scenarios.base import load_scenario
from confrontation.scenarios.conditions import CONDITION, Condition, ConditionKind, NoParams
from confrontation.scenarios.victory import ConditionMet, check_round, fulfils
from confrontation.sim.game import GameConfig, play_game
from scenarios_support import SCENARIO


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "hold.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.rule("XX-A-4", "C3-VICTORY-CONDITIONS")
def test_conditions_are_read_with_their_kind_parameters(tmp_path: Path) -> None:
    scenario = load_scenario(_write(tmp_path, SCENARIO))
    assert [c.id for c in scenario.conditions] == ["centre", "home"]
    centre, home = scenario.conditions
    assert (centre.kind, centre.when, centre.vp, centre.players) == ("area", "round", 1, ())
    assert home.players == (0,)  # Player 1 of the file is engine player 0
    assert '"area":"the centre"' in centre.params
    assert [(b.id, b.ap) for b in scenario.bonuses] == [("centre-bonus", 30)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('kind = "area"', 'kind = "nothing"'), "unknown condition kind 'nothing'"),
        (('area = "the centre"\nwhen', 'zone = "x"\nwhen'), "condition kind 'area'"),
        (("players = [1]", "players = [7]"), "players are numbered 1 to 6, not 7"),
        (('when = "round"', 'when = "sometimes"'), "conditions[1].when"),
        (("ap = 30", "ap = -1"), "bonus[1].ap"),
        (('goal = "conditions"', 'goal = "conditions"\n[[nothing]]'), "nothing"),
    ],
)
def test_bad_conditions_are_one_line_errors(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    text = SCENARIO.replace(*change, 1)
    assert text != SCENARIO
    with pytest.raises(LoadError) as error:
        load_scenario(_write(tmp_path, text))
    assert message in str(error.value)
    assert "\n" not in str(error.value) and "hold.toml" in str(error.value)


def test_a_conditions_scenario_needs_conditions(tmp_path: Path) -> None:
    text = SCENARIO.split("[[conditions]]")[0]
    with pytest.raises(LoadError, match="needs at least one"):
        load_scenario(_write(tmp_path, text))


@settings(max_examples=30, deadline=None)
@given(st.text(alphabet='abc=[]{}"\n 1-', max_size=40))
def test_garbled_conditions_never_raise_anything_else(tmp_path_factory, garbage: str) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("garbled")
    path = folder / "g.toml"
    path.write_text(SCENARIO + "\n[[conditions]]\n" + garbage, encoding="utf-8")
    try:
        load_scenario(path)
    except LoadError as error:
        assert "\n" not in str(error)


@pytest.mark.rule("XX-A-4")
def test_a_whole_game_scores_its_conditions(tmp_path: Path) -> None:
    """Round conditions score once met and stay met; end conditions are checked last; the
    scores are the sum of the VP of the conditions met."""
    path = _write(tmp_path, SCENARIO)
    events: list[object] = []
    config = GameConfig(scenario=str(path), agents=("greedy", "greedy"), seed=2, rounds=2)
    result = play_game(config, on_event=events.append)
    met = [e for e in events if isinstance(e, ConditionMet)]
    ended = [e for e in events if isinstance(e, GameEnded)][-1]
    vp = [0, 0]
    for e in met:
        vp[e.player] += e.vp
    # a "round" condition is told once per player however many rounds it stays met
    rounds_met = [(e.player, e.condition) for e in met if e.when == "round"]
    assert len(rounds_met) == len(set(rounds_met))
    assert all(e.condition == "home" and e.player == 0 for e in met if e.when == "end")
    assert tuple(vp) == ended.scores == result.state.scores
    assert met, "the greedy armies met no condition in two rounds"


@pytest.mark.rule("XX-B")
def test_kinds_come_from_the_rules_value() -> None:
    """A plug-in kind is added by deriving a ruleset, not by changing a global table."""
    always = ConditionKind("always", "XX-A-4", lambda s, c, p, params: p == 1, NoParams)
    rules = default_rules().with_extension(CONDITION, "always", always)
    assert default_rules().extension(CONDITION, "always") is None
    assert rules.extension(CONDITION, "always") is always


def test_round_conditions_are_kept_once_met(tmp_path: Path) -> None:
    from confrontation.engine.core.ruleset import with_rules
    from confrontation.sim.game import initial_state

    path = _write(tmp_path, SCENARIO)
    state, _, _ = initial_state(GameConfig(scenario=str(path)))
    scenario = state.scenario
    flag = {"on": True}
    kind = ConditionKind("flag", "XX-A-4", lambda s, c, p, params: flag["on"] and p == 0)
    rules = default_rules().with_extension(CONDITION, "flag", kind)
    state = with_rules(state, rules)
    cond = Condition("f", "flag", when="round", vp=2)
    state = dataclasses.replace(
        state,
        scenario=dataclasses.replace(scenario, conditions=(cond,)),  # type: ignore[type-var]
    )
    state, events = check_round(state)
    assert events == [ConditionMet(0, "f", 2, "round")]
    flag["on"] = False
    assert not fulfils(state, cond, 0)
    state2, again = check_round(state)
    assert again == [] and state2.scenario.met == ((0, "f"),)  # type: ignore[union-attr]
    _ = GameState
