"""The rules as a value (issue 20 §1): a game's rules are one immutable ``Ruleset`` named in its
state, derived by plug-ins without touching any other game's rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import confrontation
from confrontation.engine.core.events import ChoiceMade, Event, MarkersRemoved
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import Choice, KeepResult, Option, Question, Raise
from confrontation.engine.core.registry import EngineError, Handler, Transition
from confrontation.engine.core.ruleset import (
    RULESETS,
    Ruleset,
    register_ruleset,
    rules_of,
    ruleset,
    with_rules,
)
from confrontation.engine.core.state import (
    CONFEDE,
    GameState,
    Pending,
    RulesetId,
    state_from_json,
    state_to_json,
)
from confrontation.engine.core.views import redact
from confrontation.engine.step import (
    game_roller,
    is_over,
    legal,
    question,
    roll,
    start,
    step,
)
from confrontation.sim.game import GameConfig, initial_state, make_players

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def _shout(state: GameState) -> Transition:
    """A plug-in's maintenance effect: visible in the record, nothing else changes."""
    return state, [MarkersRemoved(state.fighters[0].id, ("shout",))]


def test_a_new_game_is_played_with_the_confede_rules_by_default() -> None:
    state = initial_state(GameConfig(agents=("random", "random")))[0]
    assert state.rules == CONFEDE == RulesetId("confede", ())
    assert rules_of(state) is ruleset("confede")
    # the default is left out of the JSON, so records of confede games did not change
    assert '"rules"' not in state_to_json(state)
    assert state_from_json(state_to_json(state)) == state


def test_deriving_a_ruleset_leaves_the_original_unchanged() -> None:
    confede = ruleset()
    derived = confede.with_maintenance_hook("rally", _shout)
    assert derived is not confede and derived.id != confede.id
    assert derived.maintenance_hooks["rally"] == (_shout,)
    assert "rally" not in confede.maintenance_hooks
    assert derived.handlers == confede.handlers
    # deriving twice the same way gives the same value (no new name each time)
    assert confede.with_maintenance_hook("rally", _shout) is derived
    with pytest.raises(TypeError):
        confede.handlers["x"] = confede.handlers["deploy"]  # type: ignore[index]


def test_a_state_names_its_rules_and_keeps_them_through_json() -> None:
    state = initial_state(GameConfig(agents=("random", "random")))[0]
    derived = ruleset().with_maintenance_hook("rally", _shout)
    played = with_rules(state, derived)
    assert rules_of(played) is derived and rules_of(state) is ruleset()
    again = state_from_json(state_to_json(played))
    assert again == played and rules_of(again) is derived


def test_an_unknown_ruleset_is_an_engine_error_naming_the_known_ones() -> None:
    state = initial_state(GameConfig(agents=("random", "random")))[0]
    with pytest.raises(EngineError, match=r"no ruleset named 'c9' .*confede"):
        rules_of(evolve(state, rules=RulesetId("c9")))


def test_a_registered_ruleset_is_found_by_its_name() -> None:
    name = "confede-with-shouts"

    def build(id: RulesetId) -> Ruleset:
        return ruleset().with_maintenance_hook("rally", _shout).named(id.name)

    if name not in RULESETS:
        register_ruleset(name, build)
    with pytest.raises(ValueError, match="already"):
        register_ruleset(name, build)
    rules = ruleset(name)
    assert rules.id == RulesetId(name) and rules.maintenance_hooks["rally"] == (_shout,)


def _stepper(config: GameConfig, rules: Ruleset | None) -> Iterator[list[Event]]:
    """A generator stepping one game (random agents, the game's dice) one answer at a time."""
    state = initial_state(config)[0]
    if rules is not None:
        state = with_rules(state, rules)
    players = make_players(config)
    state, events = start(state)
    roller = game_roller(state)
    yield list(events)
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, happened = roll(state, roller)
        else:
            view = redact(state, asked.player)
            state, happened = step(state, players[asked.player].choose(view, asked, asked.choices))
        yield happened


def _alone(config: GameConfig, rules: Ruleset | None) -> list[Event]:
    return [e for batch in _stepper(config, rules) for e in batch]


def test_two_games_with_different_rules_share_a_process() -> None:
    """Issue 20 §1: "two games with different rule values (e.g. confede and a derived ruleset
    with a plug-in) stepped alternately in one process give exactly the games each gives
    alone"."""
    config = GameConfig(agents=("random", "random"), rounds=2, seed=5)
    shouting = ruleset().with_maintenance_hook("rally", _shout)
    plain_alone, shouting_alone = _alone(config, None), _alone(config, shouting)
    shouts = [e for e in shouting_alone if isinstance(e, MarkersRemoved) and "shout" in e.markers]
    assert len(shouts) == 2  # the plug-in acts once a round, in its own game only
    assert not [e for e in plain_alone if isinstance(e, MarkersRemoved) and "shout" in e.markers]
    games = [_stepper(config, None), _stepper(config, shouting)]
    logs: list[list[Event]] = [[], []]
    running = [True, True]
    while any(running):
        for k, game in enumerate(games):
            if running[k]:
                batch = next(game, None)
                if batch is None:
                    running[k] = False
                else:
                    logs[k].extend(batch)
    assert logs[0] == plain_alone
    assert logs[1] == shouting_alone


def test_a_record_replays_in_a_fresh_process_with_nothing_imported_by_hand() -> None:
    """Issue 20 §1: "A record of any game replays in a fresh process with nothing imported by
    hand" — the Execution game's scenario records and events included."""
    code = (
        "import gzip, sys\n"
        "from confrontation.engine.record import read_log, replay\n"
        f"log = read_log(gzip.open({str(GOLDEN / 'execution-greedy-random.jsonl.gz')!r}, 'rt'))\n"
        "state = replay(log)\n"
        "print(state.phase.value, state.winner, state.rules)\n"
    )
    source = str(Path(confrontation.__file__).resolve().parents[1])  # this checkout's package
    env = {**os.environ, "PYTHONPATH": source}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, env=env
    )
    assert done.returncode == 0, done.stderr
    result = json.loads((GOLDEN / "execution-greedy-random.result.json").read_text())
    assert done.stdout.split() == ["over", str(result["winner"]), "confede"]


def test_the_question_kinds_are_those_the_confede_rules_ask() -> None:
    """Issue 20 §3: "Stages, question kinds and end-of-game reasons are enums, not strings" —
    every handler of ``confede`` is keyed by a :class:`QuestionKind` member, one member per
    handler, and the values are the strings the records held before the enum."""
    handlers = ruleset().handlers
    assert set(handlers) == set(QuestionKind)
    assert all(type(h.kind) is QuestionKind for h in handlers.values())
    table: dict[str, int] = {QuestionKind.ALLOCATE_DICE: 1}
    assert table["allocate_dice"] == 1  # equal to its value and hashing alike
    assert QuestionKind.ROLLOFF_DIE.value == "rolloff_die"


def _first_question(seed: int) -> GameState:
    state = start(initial_state(GameConfig(agents=("random", "random"), seed=seed))[0])[0]
    roller = game_roller(state)
    while state.pending is not None and state.pending.player is None:
        state = roll(state, roller)[0]
    return state


def test_a_decoded_pending_kind_finds_the_built_in_handler() -> None:
    """Issue 20 §3: a state read back from JSON holds the kind as a plain string; it equals the
    member (and hashes alike), so the decoded state equals the original and asks the same
    question through the same handler."""
    state = _first_question(3)
    assert state.pending is not None and type(state.pending.kind) is QuestionKind
    decoded = state_from_json(state_to_json(state))
    assert decoded.pending is not None and type(decoded.pending.kind) is str
    assert decoded == state and hash(decoded.pending) == hash(state.pending)
    rules = rules_of(decoded)
    assert rules.handler(decoded.pending.kind) is rules.handler(state.pending.kind)
    assert legal(decoded) == legal(state) and question(decoded) == question(state)


_RALLY = "rally_test"  # a plug-in's own kind: no member of QuestionKind


def _rally_legal(state: GameState) -> list[Choice]:
    return [KeepResult(), Raise()]


def _rally_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    options = tuple(Option(c, c.kind) for c in choices)
    return Question(_RALLY, 0, "Rally?", options)


def test_a_plug_in_asks_a_question_of_a_kind_of_its_own() -> None:
    """Issue 20 §3 with §1 ("a new question kind" is a plug-in): the enum lists the built-in
    kinds only; a derived ruleset's handler for a kind the enum does not list is asked,
    answered, recorded under that kind and read back from JSON."""
    assert _RALLY not in set(QuestionKind)
    base = _first_question(4)
    assert base.pending is not None
    resumed = base.pending

    def apply(state: GameState, choice: Choice) -> Transition:
        return evolve(state, pending=resumed), [MarkersRemoved(state.fighters[0].id, ("rally",))]

    rallying = ruleset().with_handler(Handler(_RALLY, _rally_legal, apply, _rally_describe))
    state = evolve(with_rules(base, rallying), pending=Pending(_RALLY, 0))
    asked = question(state)
    assert asked is not None and asked.kind == _RALLY and asked.choices == [KeepResult(), Raise()]
    assert state_from_json(state_to_json(state)) == state
    after, events = step(state, Raise())
    assert events[0] == ChoiceMade(0, _RALLY, Raise())
    assert isinstance(events[1], MarkersRemoved) and events[1].markers == ("rally",)
    assert after.pending == resumed
    with pytest.raises(EngineError, match="has no handler for 'rally_test' questions"):
        question(evolve(base, pending=Pending(_RALLY, 0)))
