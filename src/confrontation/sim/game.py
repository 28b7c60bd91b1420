"""One whole game: armies, scenario, agents and a seed in; the result and its record out.

:func:`play_game` is the one function that plays a game (``confrontation play``, the
simulations and the saved games all call it). The game is set up as III-A says: the armies
(I-D), the scenario's table and line of battle (III-A-1), its round limit (III-A-2), scenery
laid by the engine's seeded generator (III-A-3, ``setup.on_battlefield``), then the engine's
own deployment (III-B) and rounds, the agents answering every question. Every die comes from
the game's seeded stream, so the same config gives the same game, event for event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from confrontation import scenarios
from confrontation.armylists.load import army_path as army_path  # its home: the lists (help4)
from confrontation.armylists.load import load_army
from confrontation.dice import Roller
from confrontation.engine.core import door
from confrontation.engine.core.events import Event, GameEnded, GameStarted
from confrontation.engine.core.outcome import Outcome, leaders
from confrontation.engine.core.ruleset import known_rulesets
from confrontation.engine.core.state import CONFEDE, MAX_PLAYERS, GameState, RulesetId
from confrontation.engine.setup.game import new_game, on_battlefield
from confrontation.engine.step import (
    DOOR,
    Agent,
    game_roller,
    start,
)
from confrontation.engine.table.field import base_of
from confrontation.model.army import Army
from confrontation.scenarios import Scenario
from confrontation.scenarios.control_points import document as control_points_document
from confrontation.scenarios.results import scored
from confrontation.store.replays import catch_up

DEFAULT_SCENARIO = "conquest"
DEFAULT_ARMIES: tuple[str, ...] = ("akkylannie-crusade", "bran-o-kor-horde")
"""Two bundled demo armies of different nations and equal points (Griffin and Jackal, 250 AP)."""
DEFAULT_AGENTS: tuple[str, ...] = ("greedy", "greedy")
DEFAULT_RULES = CONFEDE.name
MIN_PLAYERS = 2
"""A game has two players, or up to :data:`~.state.MAX_PLAYERS` (six) by XX-F."""


class GameSetupError(ValueError):
    """The game cannot be set up (unknown agent, army, scenario…): one line for the user."""


def check_players(
    armies: int, agents: int, *, names: tuple[str, str] = ("armies", "agents")
) -> None:
    """A GameSetupError unless there are two to six armies (XX-F) and one agent for each;
    ``names`` are how the messages call the two options (``--armies``, ``--agents``)."""
    army_option, agent_option = names
    if not MIN_PLAYERS <= armies <= MAX_PLAYERS:
        raise GameSetupError(
            f"{army_option}: a game has {MIN_PLAYERS} to {MAX_PLAYERS} players (XX-F), "
            f"not {armies} arm{'y' if armies == 1 else 'ies'}"
        )
    if agents != armies:
        raise GameSetupError(
            f"{agent_option}: one agent per army: {agents} agent{'s' if agents != 1 else ''} "
            f"for {armies} armies (XX-F)"
        )


@dataclass(frozen=True)
class GameConfig:
    """What a game is played with.

    ``scenario``: a bundled id or a scenario file, with an optional ``:variation``;
    ``armies``: two to six army files or bundled army ids (Player 1 first, XX-F); ``agents``:
    as many agent names for ``agents.make``; ``agent_options`` each agent's options (left
    empty: none for anyone); ``rounds`` overrides the scenario's round limit; ``rules`` names
    the ruleset (``engine.core.ruleset``, one of :func:`~.ruleset.known_rulesets`).
    A wrong count is a :class:`GameSetupError` (:func:`check_players`).
    """

    scenario: str = DEFAULT_SCENARIO
    armies: tuple[str, ...] = DEFAULT_ARMIES
    agents: tuple[str, ...] = DEFAULT_AGENTS
    seed: int = 0
    rounds: int | None = None
    agent_options: tuple[dict[str, Any], ...] = ()
    rules: str = DEFAULT_RULES

    def __post_init__(self) -> None:
        object.__setattr__(self, "armies", tuple(self.armies))
        object.__setattr__(self, "agents", tuple(self.agents))
        check_players(len(self.armies), len(self.agents))
        options = tuple(self.agent_options) or tuple({} for _ in self.agents)
        if len(options) != len(self.agents):
            raise GameSetupError(
                f"agent_options: one set of options per agent: {len(options)} "
                f"for {len(self.agents)} agents"
            )
        object.__setattr__(self, "agent_options", options)


@dataclass(frozen=True)
class PlayerResult:
    """One player's side of a result: army, agent, victory points, losses (AP, XX-A-5); the
    tournament points (XX-A-4; None: the scenario has no victory conditions), the enemy
    losses, the bonus scored (capped) and the goal-average (XX-A-5)."""

    army: str
    agent: str
    vp: int
    losses_ap: int
    tp: int | None = None
    enemy_losses_ap: int = 0
    bonus_ap: int = 0
    goal_average: int = 0


@dataclass(frozen=True)
class GameResult:
    """A played game: ``rounds`` is the round it ended in; ``winner`` the winning player
    (0-based) or None (a draw); ``players`` every player, Player 1 first; ``outcome`` how it
    ended (None while it is not over)."""

    scenario: str
    seed: int
    rounds: int
    winner: int | None
    players: tuple[PlayerResult, ...]
    state: GameState
    events: tuple[Event, ...]
    outcome: Outcome | None = None

    @property
    def reason(self) -> str:
        """Why the game ended, as the record says it ("" while it is not over)."""
        return "" if self.outcome is None else self.outcome.reason

    @property
    def tournament(self) -> bool:
        """The scenario has victory conditions or bonuses: the result has tournament points
        (XX-A-4) and a goal-average (XX-A-5) to tell."""
        return scored(self.state)

    def leaders(self) -> tuple[int, ...]:
        """The winner alone; in a draw, the players who share the best score."""
        if self.winner is not None:
            return (self.winner,)
        return leaders(tuple(p.vp for p in self.players))


# --- setting up ------------------------------------------------------------------------------


def load_armies(names: Sequence[str]) -> tuple[Army, ...]:
    """The two to six armies of a game (Player 1 first, XX-F)."""
    check_players(len(names), len(names))
    return tuple(load_army(army_path(n)) for n in names)


def agent_seed(seed: int, player: int) -> int:
    """Each agent's own seed, derived from the game's (agents draw from their own stream)."""
    return seed * 10 + player + 1


def make_agent(name: str, *, seed: int, player: int, **options: Any) -> Agent:
    """An agent by name (``agents.make``); an unknown name or option is a GameSetupError."""
    from confrontation.agents import make

    try:
        return make(name, seed=seed, player=player, **options)
    except (KeyError, ValueError, LookupError, ImportError) as error:
        raise GameSetupError(f"agent {name!r}: {error}") from None


def agent_available(name: str) -> bool:
    """Whether :func:`make_agent` knows ``name``."""
    try:
        make_agent(name, seed=0, player=0)
    except GameSetupError:
        return False
    return True


def initial_state(config: GameConfig) -> tuple[GameState, Scenario, tuple[Army, ...]]:
    """The state before the set-up begins: armies, table, scenery count, scenario."""
    scenario = scenarios.resolve(config.scenario)
    armies = load_armies(config.armies)
    if config.rounds is not None and config.rounds < 1:
        raise GameSetupError(f"a game lasts at least one round, not {config.rounds}")
    rounds = config.rounds if config.rounds is not None else scenario.rounds
    if config.rules not in known_rulesets():
        known = ", ".join(known_rulesets())
        raise GameSetupError(f"unknown rules {config.rules!r} (rules: {known})")
    rules = RulesetId(config.rules)
    state = new_game(armies, rounds=rounds, seed=config.seed, rules=rules)
    try:  # XX-F-1: three players or more deploy on a layout
        table, split = scenario.battlefield(len(armies))
    except ValueError as error:
        raise GameSetupError(str(error)) from None
    state = on_battlefield(state, table, split=split, scenery_count=scenario.scenery)
    state = scenarios.install(
        state,
        scenario,
        values=scenarios.card_values(armies),
        rounds=rounds,
        champions=scenarios.champion_cards(armies),
    )
    return state, scenario, armies


# --- playing ---------------------------------------------------------------------------------


def play_game(
    config: GameConfig,
    *,
    on_event: Callable[[Event], None] | None = None,
    resume_log: Sequence[Event] | None = None,
    wrap: Callable[[int, Agent], Agent] | None = None,
) -> GameResult:
    """Play ``config``'s game to its end.

    ``on_event`` sees every event as it happens (a store can save the record as it grows).
    ``resume_log`` continues an interrupted game: its inputs are replayed (checked against its
    events, not passed to ``on_event`` again) and the agents play on from there.
    ``wrap(player, agent)`` may stand in front of each agent (benches time or record them).
    """
    initial, scenario, armies = initial_state(config)
    players = make_players(config)
    if wrap is not None:
        players = [wrap(p, agent) for p, agent in enumerate(players)]
    if resume_log:
        first = resume_log[0]
        if not isinstance(first, GameStarted):
            raise GameSetupError("a game record starts with a game_started event")
        if first.state != initial:
            raise GameSetupError("the record is not a game of this configuration")
        # The agents are asked the record's questions again, so that their own dice streams
        # stand where they stood: the game goes on as if it had never stopped.
        state, events = catch_up(resume_log, players)
        if on_event is not None:
            for event in events[len(resume_log) :]:
                on_event(event)
    else:
        state, events = start(initial)
        if on_event is not None:
            for event in events:
                on_event(event)
    state = play_on(state, players, game_roller(state), events=events, on_event=on_event)
    return _result(config, scenario, armies, state, events)


def make_players(config: GameConfig) -> list[Agent]:
    """The agents of ``config``, one per player, each with its own seed (:func:`agent_seed`)."""
    return [
        make_agent(name, seed=agent_seed(config.seed, p), player=p, **config.agent_options[p])
        for p, name in enumerate(config.agents)
    ]


def play_until(config: GameConfig, rounds_left: int) -> tuple[GameState, list[Agent]]:
    """``config``'s game played to the first question of its last ``rounds_left`` rounds (or
    its end): the position and the agents as they stand there. The game's dice go on
    from the position (``game_roller(state)``)."""
    players = make_players(config)
    state, _ = start(initial_state(config)[0])
    last = state.rounds - rounds_left + 1
    return play_on(state, players, game_roller(state), until_round=last), players


def play_on(
    state: GameState,
    players: Sequence[Agent],
    roller: Roller,
    *,
    until_round: int | None = None,
    events: list[Event] | None = None,
    on_event: Callable[[Event], None] | None = None,
) -> GameState:
    """The game from ``state`` on: the agents answer, ``roller`` (the game's dice) rolls,
    to the end of the game — or to the first question of round ``until_round``. What happens
    is added to ``events`` and shown to ``on_event``."""
    last = until_round
    return door.play(
        DOOR,
        state,
        players,
        roller,
        until=None if last is None else (lambda s: s.round >= last),
        events=events,
        on_event=on_event,
    )


def _result(
    config: GameConfig,
    scenario: Scenario,
    armies: tuple[Army, ...],
    state: GameState,
    events: list[Event],
) -> GameResult:
    ended = next((e for e in reversed(events) if isinstance(e, GameEnded)), None)
    rows = scenarios.standings(state)
    players = tuple(
        PlayerResult(
            army=armies[p].name,
            agent=config.agents[p],
            vp=state.scores[p],
            losses_ap=rows[p].losses,
            tp=rows[p].tp,
            enemy_losses_ap=rows[p].enemy_losses,
            bonus_ap=rows[p].bonus,
            goal_average=rows[p].goal_average,
        )
        for p in range(len(armies))
    )
    return GameResult(
        scenario=scenario.name,
        seed=config.seed,
        rounds=state.round,
        winner=state.winner,
        players=players,
        state=state,
        events=tuple(events),
        outcome=None if ended is None else ended.outcome,
    )


# --- the result as a document ----------------------------------------------------------------


def _player_document(player: PlayerResult, tournament: bool) -> dict[str, Any]:
    """One player's result; for a ``tournament`` (victory conditions or bonuses, XX-A-4) his
    tournament points, enemy losses, bonus and goal-average too (XX-A-5)."""
    out: dict[str, Any] = {
        "army": player.army,
        "agent": player.agent,
        "vp": player.vp,
        "losses_ap": player.losses_ap,
    }
    if tournament:
        out["tp"] = player.tp
        out["enemy_losses_ap"] = player.enemy_losses_ap
        out["bonus_ap"] = player.bonus_ap
        out["goal_average"] = player.goal_average
    return out


def result_document(result: GameResult) -> dict[str, Any]:
    """The result as the JSON document of ``confrontation play --json`` (issue 7 schema)."""
    state = result.state
    fighters = []
    for fighter in state.fighters:
        base = base_of(state, fighter)
        fighters.append(
            {
                "id": fighter.id,
                "player": fighter.player,
                "profile": fighter.profile,
                "alive": fighter.alive,
                **({"passive": True} if fighter.passive else {}),  # XX-E-6
                "wound_levels": min(fighter.wounds, 4),
                "x": round(fighter.x, 3),
                "y": round(fighter.y, 3),
                "facing": round(fighter.facing, 3),
                "base": {
                    "shape": base.shape,
                    "width_mm": float(base.width_mm),
                    "depth_mm": float(base.depth_mm),
                },
            }
        )
    points = control_points_document(state)  # the control-point pack (003): CP per round
    extra = {} if points is None else {"control_points": points}
    return {
        "scenario": result.scenario,
        "seed": result.seed,
        "rounds": result.rounds,
        "winner": result.winner,
        "players": [_player_document(p, result.tournament) for p in result.players],
        "fighters": fighters,
        "events": len(result.events),
        "outcome": None
        if result.outcome is None
        else {
            "termination": result.outcome.termination.name.lower(),
            "reason": result.outcome.reason,
            "result": result.outcome.result(),
        },
        **extra,
    }
