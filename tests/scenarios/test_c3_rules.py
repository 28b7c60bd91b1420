"""The ``c3`` rules (CLARIFICATIONS §6): confede with the C3 tournament rules' switches on."""

from __future__ import annotations

import pytest

from confrontation.engine.core.ruleset import default_rules, known_rulesets, ruleset
from confrontation.scenarios.c3 import C3_SWITCHES, VARIANT, variant
from confrontation.sim.game import GameConfig, play_game


def test_c3_is_a_named_ruleset_with_every_switch_on() -> None:
    assert "c3" in known_rulesets()
    c3 = ruleset("c3")
    for name in C3_SWITCHES:
        assert c3.extension(VARIANT, name) == "c3"
        assert default_rules().extension(VARIANT, name) is None
    assert set(c3.handlers) == set(default_rules().handlers)


@pytest.mark.rule("XX-A")
def test_a_game_under_c3_names_its_rules() -> None:
    result = play_game(GameConfig(rules="c3", seed=1, rounds=1, agents=("random", "random")))
    assert result.state.rules.name == "c3"
    assert all(variant(result.state, name) == "c3" for name in C3_SWITCHES)
