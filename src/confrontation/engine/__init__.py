"""The engine: the referee of a game (see docs/architecture.md).

Public API::

    new_game(armies, rounds=6, seed=0, rules=CONFEDE)     # engine.setup.game
    ruleset(name="confede") -> Ruleset; rules_of(state)   # engine.core.ruleset: rules as a value
    with_rules(state, rules) -> GameState                 # play on with (derived) rules
    start(state) -> (state, events)                       # GameStarted, then the first question
    legal(state) -> list[Choice]
    question(state) -> Question | None
    step(state, choice) -> (state, events)
    outcomes(state) -> list[(DieFace, Fraction)]          # at a chance step
    roll(state, roller) -> (state, events)
    run(state, agents, roller=None, max_steps=None) -> (state, events)
    redact(state, player) -> GameState                    # what a player knows
    replay(log) -> GameState; narrate(log) -> list[str]   # engine.record, engine.core.narrate
"""

from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.registry import EngineError, IllegalChoice
from confrontation.engine.core.ruleset import Ruleset, rules_of, ruleset, with_rules
from confrontation.engine.core.state import (
    GameState,
    Phase,
    RulesetId,
    state_from_json,
    state_to_json,
)
from confrontation.engine.core.views import redact
from confrontation.engine.record import read_log, replay, write_log
from confrontation.engine.setup.game import new_game
from confrontation.engine.step import (
    Agent,
    is_chance,
    is_over,
    legal,
    outcomes,
    question,
    roll,
    run,
    start,
    step,
)

__all__ = [
    "Agent",
    "EngineError",
    "GameState",
    "IllegalChoice",
    "Phase",
    "Ruleset",
    "RulesetId",
    "is_chance",
    "is_over",
    "legal",
    "narrate",
    "new_game",
    "outcomes",
    "question",
    "read_log",
    "redact",
    "replay",
    "roll",
    "rules_of",
    "ruleset",
    "run",
    "start",
    "state_from_json",
    "state_to_json",
    "step",
    "with_rules",
    "write_log",
]
