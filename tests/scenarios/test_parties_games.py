"""The bundled scenarios of neutral fighters, passive individuals and scenery to destroy played
to the end: from the CLI (chapter 20 and ``--rules c3``), and random games checked after every
step against XX-E-6 (no assault, every die in defence, the 15 cm leash) and replayed from their
record."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.engine.combat.events import DiceAllocated
from confrontation.engine.core.events import Charged, Engaged, Event, Moved
from confrontation.engine.core.questions import Question
from confrontation.engine.core.state import NEUTRAL, GameState
from confrontation.engine.record import replay
from confrontation.engine.step import start
from confrontation.engine.table.field import field_of
from confrontation.engine.table.passive import near_a_defender
from confrontation.sim.game import GameConfig, initial_state
from engine_support import KindAgent, play_out

runner = CliRunner()


@pytest.mark.rule("XX-E", "XX-E-6", "XX-A-4")
@pytest.mark.parametrize(
    ("scenario", "rules"),
    [("escort", "confede"), ("wild-beasts", "confede"), ("wild-beasts", "c3"), ("sabotage", "c3")],
)
def test_the_scenario_is_played_to_the_end_from_the_cli(scenario: str, rules: str) -> None:
    result = runner.invoke(
        app,
        [
            "play",
            "--scenario",
            scenario,
            "--agents",
            "greedy,random",
            "--seed",
            "4",
            "--rules",
            rules,
            "--no-store",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    document = json.loads(result.stdout)
    fighters = document["fighters"]
    if scenario == "escort":
        assert sum(1 for f in fighters if f.get("passive")) == 3
    elif scenario == "wild-beasts":
        assert sum(1 for f in fighters if f["player"] == NEUTRAL) == 3
    assert document["rounds"] >= 1


def _check(state: GameState, asked: Question, events: list[Event]) -> None:
    """XX-E-6 after every step: a passive individual never assaults nor puts a die in attack,
    and ends every move within 15 cm of a defender unless routed."""
    for event in events:
        if isinstance(event, Charged | Engaged):
            assert not state.fighter(event.fighter).passive, event
        if isinstance(event, DiceAllocated) and state.fighter(event.fighter).passive:
            assert event.attack == 0, event
        if isinstance(event, Moved):
            mover = state.fighter(event.fighter)
            if mover.passive and not mover.routed and mover.in_play:
                base = field_of(state).base(mover.id)
                assert near_a_defender(state, mover.id, base, field_of(state)), event


@pytest.mark.rule("XX-E-6", "XX-E", "C3-ASSAULT-AND-COMBAT-WITH-ELEMENTS-OF-SCENERY")
@pytest.mark.parametrize(
    ("scenario", "seed"),
    [("escort", 2), ("escort", 3), ("escort", 5), ("wild-beasts", 3), ("sabotage", 1)],
)
def test_random_games_keep_the_rules_and_replay(scenario: str, seed: int) -> None:
    config = GameConfig(scenario=scenario, agents=("random", "random"), seed=seed, rounds=3)
    state, _, _ = initial_state(config)
    state, log = start(state)
    agents = [KindAgent(seed), KindAgent(seed + 100)]

    def after(state: GameState, asked: Question, events: list[Event]) -> None:
        assert asked.player != NEUTRAL  # the rules answer for the neutral side
        _check(state, asked, events)
        log.extend(events)

    end = play_out(state, agents, after)
    assert replay(log) == end
    if scenario == "escort":  # the checks had something to check
        moved = [e for e in log if isinstance(e, Moved) and end.fighter(e.fighter).passive]
        defended = [
            e for e in log if isinstance(e, DiceAllocated) and end.fighter(e.fighter).passive
        ]
        assert moved or defended
    if scenario == "sabotage":  # C3: assaults and shots at the powder store were played
        kinds = {e.kind for e in log}
        assert {"scenery_assaulted", "scenery_shot"} <= kinds
