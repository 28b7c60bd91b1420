"""Whole C4 games (the unit-based ruleset, ``confrontation.c4``) between agents, and saved
ones: the C4 side of ``play`` and ``simulate`` (``--rules c4 --mode MODE``).

What to call: :func:`play_c4` ``(config, on_event=, resume_log=)`` → :class:`C4Result`;
:func:`play_c4_stored` / :func:`resume_c4_stored` play into the store (a C4 game's set-up
says ``rules = "c4"`` in its options and keeps each company file's text);
:func:`c4_agent` builds ``random``, ``greedy`` or ``mcts`` for a player. A record is the game's
events (``C4GameStarted`` first), so ``c4.step.replay(record)`` rebuilds its state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from confrontation.agents.c4 import C4GreedyAgent, C4RandomAgent
from confrontation.agents.c4mcts import C4MctsAgent
from confrontation.c4 import events as ev
from confrontation.c4 import step as c4step
from confrontation.c4.battle import with_setup
from confrontation.c4.cards import bundled_cards
from confrontation.c4.company import Company, bundled_companies, load_company
from confrontation.c4.modes import Mode
from confrontation.c4.setup import company_game
from confrontation.c4.state import C4State
from confrontation.c4.step import Agent, game_roller, replay, start
from confrontation.engine.core import door
from confrontation.engine.core.events import ChoiceMade, Event
from confrontation.sim.c4scenario import c4_battle
from confrontation.store import ArmyCopy, GameSetup, Outcome, Store, StoreError

C4_RULES = "c4"
"""The ``--rules`` value of the unit-based ruleset."""
C4_AGENTS = ("random", "greedy", "mcts")
DEFAULT_COMPANIES = ("griffin-vanguard", "lion-host")
DEFAULT_MODE = str(Mode.MARAUDER)
MODES = tuple(str(m) for m in Mode)
"""The six game modes (``# C4 Ordering the activation sequence``), simplest first."""

OnEvent = Callable[[Event], None]


class C4SetupError(ValueError):
    """A C4 game that cannot be set up (unknown company, mode or agent; broken company)."""


@dataclass(frozen=True)
class C4Config:
    """A C4 game: two companies (bundled names or files), two agents, seed, mode, rounds."""

    companies: tuple[str, ...] = DEFAULT_COMPANIES
    agents: tuple[str, ...] = ("greedy", "random")
    seed: int = 0
    mode: str = DEFAULT_MODE
    rounds: int = 6
    scenario: str | None = None
    """A scenario whose mechanics fit units (``sim.c4scenario``); None: the default battle."""
    rounds_given: bool = True
    """False: a scenario's own ``rounds`` replace ``rounds``."""


@dataclass
class C4Result:
    """A finished C4 game: its final state, record, scores (fighters left) and winner."""

    state: C4State
    events: list[Event] = field(default_factory=list)

    @property
    def end(self) -> ev.C4GameEnded:
        last = self.events[-1]
        assert isinstance(last, ev.C4GameEnded)
        return last

    @property
    def winner(self) -> int | None:
        return self.end.winner

    @property
    def scores(self) -> tuple[int, ...]:
        return self.end.scores


def load_c4_company(name: str) -> tuple[Company, str | None, str | None]:
    """A company by bundled name or file path: (company, file, file text)."""
    known = bundled_companies()
    if name in known:
        return known[name], None, None
    path = Path(name)
    if not path.is_file():
        raise C4SetupError(f"no C4 company {name!r}: a file, or one of {', '.join(sorted(known))}")
    try:
        return load_company(path), str(path), path.read_text(encoding="utf-8")
    except Exception as error:  # a one-line LoadError
        raise C4SetupError(str(error)) from None


def build(config: C4Config) -> C4State:
    """The game's initial state (companies deployed, ``new_game``)."""
    if config.mode not in MODES:
        raise C4SetupError(f"no C4 game mode {config.mode!r} (one of {', '.join(MODES)})")
    if len(config.companies) != 2:
        raise C4SetupError("a C4 game opposes two companies")
    companies = [load_c4_company(n)[0] for n in config.companies]
    try:
        if config.scenario is None:
            return company_game(companies, mode=config.mode, rounds=config.rounds, seed=config.seed)
        table = c4_battle(config.scenario, config.seed)
        state = company_game(
            companies,
            mode=config.mode,
            rounds=config.rounds if config.rounds_given else table.rounds,
            seed=config.seed,
            width=table.width,
            height=table.height,
            split=table.split,
            battle=table.battle,
            scenery=table.scenery,
        )
        return with_setup(state, bundled_cards())
    except ValueError as error:  # C4ScenarioError among them: one line
        raise C4SetupError(str(error)) from None


def c4_agent(name: str, seed: int, player: int) -> C4RandomAgent | C4GreedyAgent | C4MctsAgent:
    """Agent ``name`` for ``player`` (its dice keyed to the game's seed and seat)."""
    if name == "random":
        return C4RandomAgent(seed * 10 + player)
    if name == "greedy":
        return C4GreedyAgent(seed * 10 + player)
    if name == "mcts":
        return C4MctsAgent(seed * 10 + player)
    raise C4SetupError(f"no C4 agent {name!r} (one of {', '.join(C4_AGENTS)})")


def play_c4(
    config: C4Config,
    *,
    on_event: OnEvent | None = None,
    resume_log: Sequence[Event] | None = None,
    agents: Sequence[Agent] | None = None,
) -> C4Result:
    """Play ``config`` to its end; ``resume_log``: a record to continue (replayed first, its
    events not passed to ``on_event`` again)."""
    if len(config.agents) != 2:
        raise C4SetupError("a C4 game needs two agents")
    players = (
        list(agents)
        if agents is not None
        else [c4_agent(n, config.seed, p) for p, n in enumerate(config.agents)]
    )
    emit = on_event or (lambda _: None)
    events: list[Event]
    if resume_log:
        state = replay(resume_log)
        events = list(resume_log)
        for p, agent in enumerate(players):
            made = sum(1 for e in resume_log if isinstance(e, ChoiceMade) and e.player == p)
            if hasattr(agent, "decisions"):
                agent.decisions = made
    else:
        state, events = start(build(config))
        for e in events:
            emit(e)
    state = door.play(c4step.DOOR, state, players, game_roller(state), events=events, on_event=emit)
    return C4Result(state, events)


def setup_of(config: C4Config) -> GameSetup:
    """What the store keeps of a C4 game (the companies' files' text among them)."""
    copies = []
    for name in config.companies:
        company, file, source = load_c4_company(name)
        copies.append(ArmyCopy(company.name, file, source))
    options: dict[str, Any] = {
        "rules": C4_RULES,
        "mode": config.mode,
        "companies": list(config.companies),
        "agents": list(config.agents),
        "seed": config.seed,
        "rounds": config.rounds,
    }
    if config.scenario is not None:
        options["scenario"] = config.scenario
        options["rounds_given"] = config.rounds_given
    name = f"c4:{config.mode}" if config.scenario is None else f"c4:{config.scenario}"
    return GameSetup(name, config.seed, config.agents, tuple(copies), options)


def config_of(setup: GameSetup) -> C4Config:
    """A stored C4 game's configuration (a company file gone is an error)."""
    options = dict(setup.options)
    return C4Config(
        companies=tuple(str(n) for n in options["companies"]),
        agents=tuple(setup.agents),
        seed=int(options.get("seed", setup.seed)),
        mode=str(options.get("mode", DEFAULT_MODE)),
        rounds=int(options.get("rounds", 6)),
        scenario=None if options.get("scenario") is None else str(options["scenario"]),
        rounds_given=bool(options.get("rounds_given", True)),
    )


def is_c4(setup: GameSetup) -> bool:
    return setup.options.get("rules") == C4_RULES


def outcome_of(result: C4Result) -> Outcome:
    """The store's summary: the game's scores as VP (fighters left; a scenario's VP/CP), the
    fighters each player lost as losses."""
    start_state = result.events[0]
    assert isinstance(start_state, ev.C4GameStarted)
    owner = {u.id: u.owner for u in start_state.state.units}
    had = [0] * start_state.state.players
    for f in start_state.state.fighters:
        had[owner[f.unit]] += 1
    left = [0] * start_state.state.players
    for f in result.state.fighters:
        left[owner[f.unit]] += 1
    lost = tuple(h - s for h, s in zip(had, left, strict=True))
    return Outcome(result.winner, result.scores, lost, result.state.round)


def play_c4_stored(
    config: C4Config, store: Store, *, on_event: OnEvent | None = None
) -> tuple[int, C4Result]:
    """Play and save as it goes; Ctrl-C or an error leaves the game ``interrupted``."""
    game_id = store.begin(setup_of(config))
    record = store.recorder(game_id)

    def both(e: Event) -> None:
        record(e)
        if on_event is not None:
            on_event(e)

    try:
        result = play_c4(config, on_event=both)
    except BaseException:
        store.interrupt(game_id)
        raise
    store.finish(game_id, outcome_of(result))
    return game_id, result


def resume_c4_stored(
    game_id: int, store: Store, *, on_event: OnEvent | None = None
) -> tuple[C4Config, C4Result]:
    """Continue the unfinished C4 game ``game_id`` to its end."""
    game = store.resume(game_id)
    if not is_c4(game.setup):
        store.interrupt(game_id)
        raise StoreError(f"game {game_id} is not a C4 game")
    config = config_of(game.setup)
    record = store.recorder(game_id)

    def both(e: Event) -> None:
        record(e)
        if on_event is not None:
            on_event(e)

    try:
        result = play_c4(config, on_event=both, resume_log=game.events or None)
    except BaseException:
        store.interrupt(game_id)
        raise
    store.finish(game_id, outcome_of(result))
    return config, result
