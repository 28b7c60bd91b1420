"""Where an activation, a fighter's action, a combat and an attack stand are enums, not
strings (issue 20 §3); their values are the record's strings, so records do not change."""

from __future__ import annotations

import pytest

from confrontation.engine.core.codec import encode
from confrontation.engine.core.combat_state import AttackStage, FightStage
from confrontation.engine.core.events import ChoiceMade, DieRolled, GameStarted
from confrontation.engine.core.questions import DieFace
from confrontation.engine.core.state import (
    ActionStage,
    Activation,
    ActivationStage,
    GameState,
    state_from_json,
    state_to_json,
)
from confrontation.engine.step import start, step
from golden_support import games, recorded


def _stages(state: GameState) -> list[object]:
    """Every stage the state holds: the activation's, its action's, the fight's, the attack's."""
    found: list[object] = []
    if state.activation is not None and state.activation.current is not None:
        current = state.activation.current
        found.append(current.stage)
        if current.action is not None:
            found.append(current.action.stage)
    if state.combat is not None and state.combat.fight is not None:
        fight = state.combat.fight
        found.append(fight.stage)
        if fight.attack is not None:
            found.append(fight.attack.stage)
    return found


@pytest.mark.parametrize("name", ["execution-greedy-random", "bloodbath-random"])
def test_every_stage_of_a_recorded_game_is_an_enum_and_survives_json(name: str) -> None:
    """IV-B-2 (announce, assault shots, exclusive moves, cumulative actions), V/VI (an
    action's steps), VII-C (allocation, initiative, attacks, pursuit; an attack's defence,
    attack test, defence test, wound roll): each stage a golden game passes through, replayed
    input by input, is a member of its enum, and a state read back from JSON holds the same."""
    (game,) = [g for g in games() if g.name == name]
    log = recorded(game)
    assert isinstance(log[0], GameStarted)
    state, _ = start(log[0].state)
    seen: set[object] = set()
    kinds = (ActivationStage, ActionStage, FightStage, AttackStage)
    for event in log[1:]:
        if isinstance(event, ChoiceMade):
            state, _ = step(state, event.choice)
        elif isinstance(event, DieRolled):
            state, _ = step(state, DieFace(event.face))
        else:
            continue
        stages = _stages(state)
        for stage in stages:
            assert isinstance(stage, kinds), f"{stage!r} is a plain {type(stage).__name__}"
        if set(stages) - seen:  # a stage not met before: read back from JSON too
            assert _stages(state_from_json(state_to_json(state))) == stages
        seen.update(stages)
    assert {ActivationStage.ANNOUNCE, FightStage.ATTACKS, AttackStage.DEFENCE} <= seen


def test_the_stages_are_recorded_as_the_strings_they_were() -> None:
    """The record keeps each stage as the string it always had (``defence-test`` included)."""
    activation = Activation(player=0, cards=("p1-c1",), fighters=("p1-c1-1",))
    assert encode(activation)["stage"] == "announce"
    assert [str(s) for s in AttackStage] == ["defence", "attack", "defence-test", "wound"]
    assert [str(s) for s in FightStage] == ["allocate", "initiative", "attacks", "pursuit"]
    assert [str(s) for s in ActivationStage] == ["announce", "shots", "moves", "cumulative"]
    assert encode(ActionStage.DISTRIBUTION) == "distribution"
