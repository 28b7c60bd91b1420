"""Random-play invariants of C4 over many seeded games of bundled companies, checked after every
step: formations legal after every walk and run (# C4 Units > Unit formation), health within
bounds (# C4 Damage), no overlapping bases, leaders in their units (# C4 Units), no answer
offered twice."""

from __future__ import annotations

import pytest

from confrontation.agents.c4 import C4GreedyAgent, C4RandomAgent
from confrontation.c4 import events as ev
from confrontation.c4.actions import formation_problems, gap
from confrontation.c4.state import C4State
from confrontation.c4.step import game_roller, is_over, question, roll, start, step
from confrontation.c4.views import redact
from confrontation.sim.c4game import MODES, C4Config, build

PAIRS = (
    ("griffin-vanguard", "lion-host"),
    ("scorpion-cohort", "wolf-pack"),
    ("lion-chivalry", "griffin-crusade"),
    ("wolf-hunt", "scorpion-experiment"),
)


def check(state: C4State) -> None:
    fighters = state.fighters
    for i, a in enumerate(fighters):
        assert 1 <= a.health <= a.max_health, a
        assert a.radius <= a.x <= state.width - a.radius + 1e-6, a
        assert a.radius <= a.y <= state.height - a.radius + 1e-6, a
        for b in fighters[i + 1 :]:
            assert gap(a, b) > -0.01, (a.id, b.id, gap(a, b))
    for unit in state.units:
        if state.members(unit.id):
            assert unit.leader in {f.id for f in state.members(unit.id)}
            incarnates = [f.id for f in state.members(unit.id) if f.incarnate]
            assert not incarnates or unit.leader in incarnates


@pytest.mark.rule("C4-UNIT-FORMATION", "C4-DAMAGE", "C4-UNITS")
@pytest.mark.parametrize("seed", range(12))
def test_random_play_keeps_the_invariants(seed: int) -> None:
    mode = MODES[seed % len(MODES)]
    companies = PAIRS[seed % len(PAIRS)]
    state, _ = start(build(C4Config(companies, seed=seed, mode=mode, rounds=3)))
    agents = [C4RandomAgent(seed), C4GreedyAgent(seed) if seed % 3 == 0 else C4RandomAgent(-seed)]
    dice = game_roller(state)
    moves = 0
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        answers = [repr(c) for c in asked.choices]
        assert len(set(answers)) == len(answers), asked.kind  # no answer offered twice
        if asked.player is None:
            state, happened = roll(state, dice)
        else:
            view = redact(state, asked.player)
            state, happened = step(state, agents[asked.player].choose(view, asked, asked.choices))
        check(state)
        acted = [e for e in happened if isinstance(e, ev.UnitActed)]
        if acted and acted[0].action in ("walk", "run", "walk_shoot"):
            unit = acted[0].unit
            assert not any(isinstance(e, ev.OutOfFormation) for e in happened)
            if any(isinstance(e, ev.UnitMoved) for e in happened):
                moves += 1
                assert formation_problems(state, unit) == [], unit
    assert moves > 0
