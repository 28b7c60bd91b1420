"""Scenarios (III-A-2, chapter XX): scenario files, control of areas, victory points.

The basic scenarios' rules are part of the ``confede`` ruleset (``basic.contribute``,
``engine.core.ruleset``): any game whose state carries a :class:`~.base.BasicScenario` is scored by
them, and its record replays wherever the ruleset can be built (nothing to import by hand).
"""

from confrontation.scenarios.base import (
    Area,
    BasicScenario,
    Scenario,
    area_geometry,
    bundled_scenarios,
    load_scenario,
    resolve,
)
from confrontation.scenarios.basic import (
    AreaControlled,
    ObjectiveScored,
    TargetsSet,
    card_values,
    champion_cards,
    execution_met,
    install,
    losses_ap,
    provisional_vp,
)
from confrontation.scenarios.control import Control, control, controller, wounded_value
from confrontation.scenarios.results import Standing, standings

__all__ = [
    "Area",
    "AreaControlled",
    "BasicScenario",
    "Control",
    "ObjectiveScored",
    "Scenario",
    "Standing",
    "TargetsSet",
    "area_geometry",
    "bundled_scenarios",
    "card_values",
    "champion_cards",
    "control",
    "controller",
    "execution_met",
    "install",
    "load_scenario",
    "losses_ap",
    "provisional_vp",
    "resolve",
    "standings",
    "wounded_value",
]
