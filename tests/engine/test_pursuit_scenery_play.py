"""Random combat phases on a table with a destructible gate: pursuit moves from the table
finder and scenery attacks under random agents and seeded dice. After every step the
invariants of VII-C-6 and C3 hold, and replaying the record rebuilds the final state."""

from __future__ import annotations

import dataclasses
import math

import pytest

from confrontation.agents.random import RandomAgent
from confrontation.dice import SeededRoller
from confrontation.engine.combat import events as ce
from confrontation.engine.combat import scenery_attack as sa
from confrontation.engine.core.events import Event
from confrontation.engine.core.state import GameState, Phase, SceneryPiece
from confrontation.engine.core.views import redact
from confrontation.engine.record import replay
from confrontation.engine.step import is_chance, legal, question, roll, start, step
from confrontation.engine.table.field import field_of
from confrontation.rules.combat import load_structure_points, pursuit_distance
from confrontation.rules.wounds import WoundResult
from engine_support import profile, skirmish

GATE = SceneryPiece(
    "gate", ((31.25, 20.0), (32.75, 20.0), (32.75, 40.0), (31.25, 40.0)), "very-large", False,
    True, 4, 6,
)  # fmt: skip


def _crowd(seed: int) -> GameState:
    """Three Guards with their fronts on the gate, Dawn Warriors at the backs of two of them,
    one more warrior a few cm away, one alone against the gate's other side."""
    cards = [[(profile("praetorian-guard"), 3)], [(profile("dawn-warrior"), 4)]]
    positions = {
        "p1-c1-1": (30.0, 22.5, 0.0),
        "p1-c1-2": (30.0, 27.5, 0.0),
        "p1-c1-3": (30.0, 32.5, 0.0),
        "p2-c1-1": (27.5, 22.5, 0.0),
        "p2-c1-2": (27.5, 27.5, 0.0),
        "p2-c1-3": (24.0, 34.0, 0.0),
        "p2-c1-4": (34.0, 30.0, 180.0),
    }
    state = skirmish(cards, positions, scenery=[GATE], seed=seed)
    return dataclasses.replace(state, phase=Phase.COMBAT)


def _points(state: GameState) -> int | None:
    ground = state.battleground
    assert ground is not None and ground.scenery is not None
    return next((p.structure_points for p in ground.scenery if p.name == "gate"), None)


def _combat_phase(seed: int) -> tuple[GameState, list[Event]]:
    agents = [RandomAgent(seed + 10), RandomAgent(seed + 20)]
    roller = SeededRoller(seed)
    state, events = start(_crowd(seed))
    sp = _points(state)
    pursued: set[str] = set()
    destroyed = False
    while state.phase is Phase.COMBAT and state.pending is not None:
        before = state
        if is_chance(state):
            state, happened = roll(state, roller)
        else:
            asked = question(state)
            assert asked is not None and asked.player is not None
            if asked.kind == "attack_scenery":
                assert state.combat is not None
                assert state.combat.scenery.asking not in state.combat.pursued  # C3
            view = redact(state, asked.player)
            choice = agents[asked.player].choose(view, asked, legal(state))
            state, happened = step(state, choice)
        events.extend(happened)
        now = _points(state)
        for event in happened:
            match event:
                case ce.Pursued(fighter=f, reach=reach, distance=d, x=x):
                    assert f not in pursued, "one pursuit move per round"
                    pursued.add(f)
                    mov = before.profile(before.fighter(f).profile).mov
                    assert reach == pursuit_distance(mov) and 0 <= d <= reach + 1e-6
                    if x is not None:  # the sight moved no further than the path
                        a, b = field_of(before).base(f).sight, field_of(state).base(f).sight
                        assert math.dist(a, b) <= d + 1e-6
                case sa.SceneryDamaged(result=result, lost=lost, left=left):
                    assert sp is not None
                    table = load_structure_points()(WoundResult[result.upper()])
                    assert lost == min(table, sp) and left == sp - lost
                    sp = left
                case sa.SceneryDestroyed():
                    destroyed = True
        # SP never grow; the gate is gone exactly when destroyed.
        assert (now is None) == destroyed
        assert now is None or sp is None or now == sp
    return state, events


SEEDS = range(8)


@pytest.mark.rule(
    "VII-C-6", "C3-DAMAGING-ELEMENTS-OF-SCENERY", "C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY"
)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_combat_phases_keep_the_rules_and_replay(seed: int) -> None:
    state, events = _combat_phase(seed)
    assert state.phase is not Phase.COMBAT
    assert replay(events) == state


@pytest.mark.rule("VII-C-6", "C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY")
def test_the_random_phases_do_attack_the_gate_and_pursue() -> None:
    kinds: set[str] = set()
    for seed in SEEDS:
        _, events = _combat_phase(seed)
        kinds.update(e.kind for e in events)
    assert {"scenery_attacks_assigned", "scenery_damaged", "pursued"} <= kinds
