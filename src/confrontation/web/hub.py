"""The games a web server hosts: each played through the engine's one door (``question``,
``step``, ``roll``), saved in the store as it goes (as ``confrontation play`` saves them) and
taken up again from its record after a restart.

A game has one seat per player: a person, who answers from the browser through his seat's
secret token, or an AI (random, greedy, MCTS) that answers on the server in a thread of the
game's own, so that a thinking AI never holds up another game or a page. Dice come from the
game's seeded stream, so a resumed game goes on exactly as it would have.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from confrontation.agents.advice import hint, trivial
from confrontation.armylists.load import LoadError
from confrontation.c4.events import C4GameStarted
from confrontation.engine.core import events as ev
from confrontation.engine.core.narrate import QUIET_EVENTS, Narrator
from confrontation.engine.core.questions import FREE_FACING, Choice, DieFace, Place, Question
from confrontation.engine.core.registry import EngineError
from confrontation.engine.core.state import GameState, player_name
from confrontation.engine.core.views import redact
from confrontation.engine.record import replay
from confrontation.engine.step import (
    Agent,
    game_roller,
    is_over,
    question,
    refusal,
    roll,
    start,
    step,
)
from confrontation.scenarios import standings
from confrontation.scenarios.results import scored
from confrontation.sim.c4game import C4SetupError, is_c4
from confrontation.sim.game import GameConfig, GameSetupError, agent_seed, initial_state, make_agent
from confrontation.sim.saved import setup_of
from confrontation.store import FINISHED, RUNNING, Outcome, Store, StoreError, open_store
from confrontation.store.replays import catch_up, replay_rounds
from confrontation.web.c4host import C4LiveGame, NewC4, create_c4, load_c4
from confrontation.web.c4replay import C4Frame, c4_frames
from confrontation.web.errors import WebError as WebError
from confrontation.web.live import PERSON as PERSON
from confrontation.web.live import Door, HostedGame, web_seats
from confrontation.web.story import section_of
from confrontation.web.tools import turned_place

log = logging.getLogger(__name__)

AI_SEATS = ("random", "greedy", "mcts")
SEATS = (PERSON, *AI_SEATS)

QUIET = QUIET_EVENTS
"""Events the page's narration leaves out (as ``confrontation play`` does)."""


class PersonSeat:
    """A person's seat: the server never asks it (``interactive``: a resumed game does not
    ask it the record's questions again, ``store.replays.catch_up``)."""

    interactive = True

    def __init__(self, player: int) -> None:
        self.player = player

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        raise RuntimeError(f"Player {self.player + 1} answers from the browser")


@dataclass(frozen=True)
class NewGame:
    """What the start page asks: scenario (``id[:variation]`` or a file), armies (bundled
    ids or files, Player 1 first), one seat per army (``person`` or an AI), seed, round
    limit (None: the scenario's), rules."""

    scenario: str
    armies: tuple[str, ...]
    seats: tuple[str, ...]
    seed: int
    rounds: int | None = None
    rules: str = "confede"


@dataclass(frozen=True)
class Line:
    """A line of the narration: the round it belongs to (0: set-up) and its text."""

    round: int
    text: str
    section: str | None = None
    """The section of the rules the line follows (``story.section_of``)."""
    dice: tuple[int, ...] = ()
    """The dice rolled for it, as they fell (the faces since the line before)."""


@dataclass(frozen=True)
class Frame:
    """A step of a replay: the table at the end of a round (0: after the deployment), or
    where an unfinished record stops, with the narration of that round."""

    round: int
    label: str
    state: GameState
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Record:
    """A game's record as far as it goes, and what the server knows of its seats."""

    id: int
    scenario: str
    seats: tuple[str, ...]
    events: tuple[ev.Event, ...]
    over: bool


def narration(events: Iterable[ev.Event]) -> list[Line]:
    """The narrated lines of ``events`` (the quiet ones left out), each with its round."""
    narrator = Narrator()
    lines = []
    for event in events:
        sentence = narrator.sentence(event)
        if event.kind in QUIET or not sentence:
            continue
        lines.append(Line(narrator.round, sentence[0].upper() + sentence[1:]))
    return lines


def frames(events: Sequence[ev.Event]) -> list[Frame]:
    """The replay of a record, round by round (``store.replays.replay_rounds``: every event
    checked against the engine); an unfinished record ends with the table where it stops."""
    final, snapshots = replay_rounds(events)
    told = narration(events)
    out = []
    for snapshot in snapshots:
        label = "after the deployment" if snapshot.round == 0 else f"end of round {snapshot.round}"
        if snapshot.state is final and is_over(final):
            label = f"the end (round {snapshot.round})"
        lines = tuple(line.text for line in told if line.round == snapshot.round)
        out.append(Frame(snapshot.round, label, snapshot.state, lines))
    if not out or out[-1].state is not final:
        lines = tuple(line.text for line in told if line.round == final.round)
        out.append(Frame(final.round, f"now (round {final.round}, {final.phase})", final, lines))
    return out


def _agent_name(seat: str) -> str:
    return "human" if seat == PERSON else seat


def outcome_of(state: GameState) -> Outcome:
    """The store's summary of a finished game (as ``sim.saved.outcome_of`` makes it)."""
    rows = standings(state)
    tournament = scored(state)
    tp = tuple(r.tp for r in rows if r.tp is not None)
    return Outcome(
        state.winner,
        tuple(state.scores),
        tuple(r.losses for r in rows),
        state.round,
        tp=tp if len(tp) == len(rows) else None,
        ga=tuple(r.goal_average for r in rows) if tournament else None,
    )


class LiveGame(HostedGame[GameState]):
    """One hosted Confédé game: its state, record, narration and seats, behind a lock."""

    door = Door(question, step, roll, game_roller, is_over, redact, lambda s: s.players)

    def __init__(
        self,
        hub: Hub,
        game_id: int,
        seats: tuple[str, ...],
        tokens: tuple[str | None, ...],
        agents: list[Agent],
        *,
        recording: bool,
    ) -> None:
        super().__init__(hub, game_id, seats, tokens, recording=recording)
        self.agents = agents
        self.lines: list[Line] = []
        self.narrator = Narrator()
        self.faces: list[int] = []
        self.armies: tuple[str, ...] = ()
        self.scenario = ""
        self._hints: dict[tuple[int, int], int | None] = {}

    # --- playing ----------------------------------------------------------------------

    def _told(self, events: Sequence[ev.Event]) -> None:
        self._narrate(events)

    def _outcome(self) -> Outcome:
        return outcome_of(self.current())

    def _narrate(self, events: Sequence[ev.Event]) -> None:
        for event in events:
            sentence = self.narrator.sentence(event)
            if isinstance(event, ev.DieRolled):
                self.faces.append(event.face)
            if event.kind in QUIET or not sentence:
                continue
            text = sentence[0].upper() + sentence[1:]
            section = section_of(event, text)
            dice, self.faces = tuple(self.faces), []
            self.lines.append(Line(self.narrator.round, text, section, dice))

    def begin(self, state: GameState, events: Sequence[ev.Event]) -> None:
        """The game stands at ``state`` after ``events`` (its record so far)."""
        with self.lock:
            self._apply(state, events)

    def begin_from_record(self, state: GameState, events: Sequence[ev.Event]) -> None:
        """The game stands at ``state`` after its stored record ``events``: narrated as it
        was played, a person's answer the server gives (``advice.trivial``, the automatic
        answers on) marked as such again."""
        first = events[0] if events else None
        if not isinstance(first, ev.GameStarted):
            self.begin(state, events)
            return
        with self.lock:
            self.state = state
            self.events.extend(events)
            replayed, _ = start(first.state)
            self._narrate([first])
            for event in events[1:]:
                if isinstance(event, ev.ChoiceMade):
                    asked = question(replayed)
                    if asked is not None and self.seats[event.player] == PERSON:
                        easy = trivial(replayed, asked)
                        if easy is not None and asked.options[easy[0]].choice == event.choice:
                            self._auto_line(asked, *easy)
                    replayed, _ = step(replayed, event.choice)
                elif isinstance(event, ev.DieRolled):
                    replayed, _ = step(replayed, DieFace(event.face))
                self._narrate([event])

    def waiting_for(self) -> int | None:
        """The player whose question is pending (None: a die, or the game is over)."""
        state = self.current()
        if is_over(state) or state.pending is None:
            return None
        return state.pending.player

    def _auto_answer(self, state: GameState, asked: Question, index: int, why: str) -> None:
        """Answer a person's trivial question for him, and say so in the narration."""
        self._auto_line(asked, index, why)
        self._apply(*step(state, asked.options[index].choice))
        self.turn += 1

    def _auto_line(self, asked: Question, index: int, why: str) -> None:
        who = player_name(asked.player) if asked.player is not None else "chance"
        label = asked.options[index].label
        self.lines.append(
            Line(self.narrator.round, f"Answered for {who} automatically: {label} ({why}).")
        )

    def hint(self, asked: Question, turn: int, state: GameState) -> int | None:
        """What the greedy AI would answer to ``asked``, pending at ``turn`` in ``state``,
        asked on its player's own redacted view (cached for the turn)."""
        if asked.player is None:
            return None
        key = (turn, asked.player)
        with self.lock:
            if key in self._hints:
                return self._hints[key]
        found = hint(redact(state, asked.player), asked)
        with self.lock:
            self._hints = {key: found}
        return found

    def _answered_for(self, state: GameState, asked: Question) -> bool:
        """A person's trivial question (the only legal answer, a raise that cannot change
        the outcome: ``advice.trivial``) answered for him, his automatic answers on."""
        assert asked.player is not None
        easy = trivial(state, asked) if self.auto.get(asked.player) else None
        if easy is None:
            return False
        self._auto_answer(state, asked, *easy)
        return True

    def _agent_choice(self, player: int, view: GameState, asked: Question) -> Choice:
        return self.agents[player].choose(view, asked, asked.choices)

    def _kept_auto(self) -> dict[str, Any]:
        """Kept with the game: a restart keeps the switch (issue 23)."""
        return {
            "seats": list(self.seats),
            "tokens": list(self.tokens),
            "auto": {str(p): v for p, v in self.auto.items()},
        }

    def _chosen(
        self, state: GameState, asked: Question, index: int, facing: float | None
    ) -> Choice:
        """Option ``index``'s answer, turned to ``facing`` where the question lets any
        facing be chosen (V-B-1)."""
        choice = asked.options[index].choice
        if facing is not None:
            if asked.free != FREE_FACING or not isinstance(choice, Place):
                raise WebError(400, "this question takes no facing")
            if not 0 <= facing < 360:
                raise WebError(400, f"a facing is 0 to 360 degrees, not {facing}")
            choice = turned_place(state, asked, choice, facing)
            refused = refusal(state, choice)
            if refused is not None:
                raise WebError(400, refused)
        return choice


class Hub:
    """Every game the server hosts, kept in the store at ``url`` (default: the CLI's)."""

    def __init__(self, url: str | None = None) -> None:
        self.store: Store = open_store(url)
        self.store_lock = threading.RLock()
        self.lock = threading.Lock()
        self.games: dict[int, LiveGame | C4LiveGame] = {}
        self._frames: dict[tuple[int, int], list[Frame]] = {}
        self._c4_frames: dict[tuple[int, int, frozenset[int], bool], list[C4Frame]] = {}

    def close(self) -> None:
        """Stop hosting: the games being played are kept ``interrupted`` (resumed later)."""
        with self.lock:
            games = list(self.games.values())
        with self.store_lock:
            for game in games:
                if game.recording:
                    with contextlib.suppress(StoreError):
                        self.store.interrupt(game.id)
            self.store.close()

    # --- starting ---------------------------------------------------------------------

    def create(self, new: NewGame) -> LiveGame:
        """Set a game up, save it and let it begin (a 400 for a bad set-up, nothing saved)."""
        unknown = [s for s in new.seats if s not in SEATS]
        if unknown:
            raise WebError(400, f"unknown seat {unknown[0]!r} (seats: {', '.join(SEATS)})")
        try:
            config = GameConfig(
                scenario=new.scenario,
                armies=new.armies,
                agents=tuple(_agent_name(s) for s in new.seats),
                seed=new.seed,
                rounds=new.rounds,
                rules=new.rules,
            )
            initial, scenario, armies = initial_state(config)
            setup = setup_of(config)
        except (LoadError, GameSetupError, ValueError, EngineError) as error:
            raise WebError(400, " ".join(str(error).split())) from None
        tokens = tuple(secrets.token_urlsafe(12) if s == PERSON else None for s in new.seats)
        web: dict[str, Any] = {"seats": list(new.seats), "tokens": list(tokens)}
        web["scenario"] = scenario.name
        options = {**setup.options, "web": web}
        uploaded = Path(new.scenario.split(":")[0])
        if uploaded.suffix == ".toml" and uploaded.is_file():
            # an uploaded scenario file's text, kept with the game: its temporary file
            # does not survive the server (``sim.saved.config_of`` writes it back)
            options["scenario_source"] = uploaded.read_text(encoding="utf-8")
        setup = replace(setup, options=options)
        agents = self._agents(new.seats, config.seed, config.agent_options)
        with self.store_lock:
            game_id = self.store.begin(setup)
        game = LiveGame(self, game_id, new.seats, tokens, agents, recording=True)
        game.armies = tuple(a.name for a in armies)
        game.scenario = scenario.name
        game.begin(*start(initial))
        with self.lock:
            self.games[game_id] = game
        game.kick()
        return game

    def create_c4(self, new: NewC4) -> C4LiveGame:
        """Set a C4 game up (``web.c4host``), save it and let it begin."""
        game = create_c4(self, new)
        with self.lock:
            self.games[game.id] = game
        game.kick()
        return game

    @staticmethod
    def _agents(seats: Sequence[str], seed: int, options: Sequence[dict[str, Any]]) -> list[Agent]:
        return [
            PersonSeat(p)
            if seat == PERSON
            else make_agent(seat, seed=agent_seed(seed, p), player=p, **options[p])
            for p, seat in enumerate(seats)
        ]

    # --- finding ----------------------------------------------------------------------

    def get(self, game_id: int) -> LiveGame | C4LiveGame:
        """A hosted game; one only in the store is taken up again from its record."""
        with self.lock:
            game = self.games.get(game_id)
            if game is None:
                game = self._load(game_id)
                self.games[game_id] = game
        game.kick()
        return game

    def confede(self, game_id: int) -> LiveGame:
        """A hosted Confédé game (a 409 for a C4 game: the Confédé table's tools)."""
        game = self.get(game_id)
        if not isinstance(game, LiveGame):
            raise WebError(409, f"game {game_id} is a C4 game: this tool is for Confédé tables")
        return game

    def _load(self, game_id: int) -> LiveGame | C4LiveGame:
        with self.store_lock:
            try:
                stored = self.store.load(game_id)
            except StoreError:
                raise WebError(404, f"no game {game_id}") from None
        setup = stored.setup
        if is_c4(setup):
            try:
                return load_c4(self, game_id, stored)
            except (EngineError, C4SetupError, ValueError) as error:
                raise WebError(409, f"game {game_id} cannot be taken up again: {error}") from None
        web = setup.options.get("web")
        seats, tokens, finished = web_seats(stored)
        try:
            if finished:  # a finished game, or one of the terminal's: watched, not played
                game = LiveGame(self, game_id, seats, tokens, [], recording=False)
                final = replay(stored.events, check=False) if stored.events else None
                if final is not None:
                    game.begin_from_record(final, stored.events)
            else:
                options = setup.options.get("agent_options") or [{} for _ in seats]
                agents = self._agents(seats, setup.seed, options)
                game = LiveGame(self, game_id, seats, tokens, agents, recording=False)
                game.resume_store()
                state, events = catch_up(stored.events, agents)
                game.begin_from_record(state, events[: len(stored.events)])
                game.recording = True
                game.turn = sum(isinstance(e, ev.ChoiceMade) for e in stored.events)
                game._apply(state, events[len(stored.events) :])
        except (EngineError, GameSetupError, ValueError) as error:
            raise WebError(409, f"game {game_id} cannot be taken up again: {error}") from None
        game.armies = tuple(a.name for a in setup.armies)
        named = web.get("scenario") if isinstance(web, dict) else None
        game.scenario = named if isinstance(named, str) else setup.scenario
        saved = web.get("auto") if isinstance(web, dict) else None
        if isinstance(saved, dict):  # the seats' switches as they were left
            for key, on in saved.items():
                if key.isdigit() and int(key) in game.auto and isinstance(on, bool):
                    game.auto[int(key)] = on
        return game

    def hosted(self, game_id: int) -> LiveGame | C4LiveGame | None:
        """The game if this server has taken it up (None: only in the store)."""
        with self.lock:
            return self.games.get(game_id)

    def hosted_ids(self) -> set[int]:
        with self.lock:
            return set(self.games)

    def resume(self, game_id: int) -> LiveGame | C4LiveGame:
        """Take up an interrupted game of the web again (a 409 for one that is finished or
        the terminal's: ``confrontation play --resume`` continues those)."""
        game = self.hosted(game_id)
        if game is None:
            with self.store_lock:
                try:
                    stored = self.store.load(game_id)
                except StoreError:
                    raise WebError(404, f"no game {game_id}") from None
            if stored.status == FINISHED:
                raise WebError(409, f"game {game_id} is finished: there is nothing to resume")
            if not isinstance(stored.setup.options.get("web"), dict):
                raise WebError(
                    409,
                    f"game {game_id} was played in a terminal: "
                    f"continue it with `confrontation play --resume {game_id}`",
                )
        return self.get(game_id)

    def record(self, game_id: int) -> Record:
        """A game's record so far (a hosted game's whole, a stored one's committed steps),
        without taking the game up."""
        game = self.hosted(game_id)
        if game is not None:
            with game.lock:
                if game.state is not None and not game.deleted:
                    return Record(
                        game_id, game.scenario, game.seats, tuple(game.events), game.over()
                    )
        with self.store_lock:
            try:
                stored = self.store.load(game_id)
            except StoreError:
                raise WebError(404, f"no game {game_id}") from None
        seats, _, _ = web_seats(stored)
        return Record(
            game_id,
            stored.setup.scenario,
            seats,
            tuple(stored.events),
            stored.status == FINISHED,
        )

    def frames(self, game_id: int) -> tuple[Record, list[Frame]]:
        """A game's replay, round by round (kept while its record does not grow)."""
        record = self.record(game_id)
        if not record.events:
            raise WebError(409, f"game {game_id} has no record yet")
        if isinstance(record.events[0], C4GameStarted):
            raise WebError(409, f"game {game_id} is a C4 game: no round-by-round replay")
        key = (game_id, len(record.events))
        with self.lock:
            cached = self._frames.get(key)
        if cached is None:
            try:
                cached = frames(record.events)
            except EngineError as error:
                raise WebError(409, f"game {game_id} does not replay: {error}") from None
            with self.lock:
                if len(self._frames) >= 8:
                    self._frames.pop(next(iter(self._frames)))
                self._frames[key] = cached
        return record, cached

    def is_c4(self, game_id: int) -> bool:
        """Whether the game is a C4 game (404: no such game)."""
        game = self.hosted(game_id)
        if game is not None:
            return isinstance(game, C4LiveGame)
        with self.store_lock:
            try:
                return is_c4(self.store.load(game_id).setup)
            except StoreError:
                raise WebError(404, f"no game {game_id}") from None

    def c4_frames(self, game_id: int, tokens: Sequence[str]) -> tuple[Record, list[C4Frame]]:
        """A C4 game's replay, round by round (``web.c4replay``), as the seats of ``tokens``
        may see it: everything once the game is over or when no person plays in it (when
        its record is given), else their own view (403 a token not of the game's)."""
        record = self.record(game_id)
        if not record.events or not isinstance(record.events[0], C4GameStarted):
            raise WebError(409, f"game {game_id} is not a C4 game")
        game = self.hosted(game_id)
        if game is not None:
            held = game.tokens
        else:
            with self.store_lock:
                web = self.store.load(game_id).setup.options.get("web")
            held = tuple(web["tokens"]) if isinstance(web, dict) else ()
        players = set()
        for token in tokens:
            if token and token not in held:
                raise WebError(403, f"this seat link is not one of game {game_id}'s seats")
            if token:
                players.add(held.index(token))
        reveal = record.over or PERSON not in record.seats
        key = (game_id, len(record.events), frozenset(players), reveal)
        with self.lock:
            cached = self._c4_frames.get(key)
        if cached is None:
            try:
                cached = c4_frames(record.events, frozenset(players), reveal=reveal)
            except (EngineError, ValueError) as error:
                raise WebError(409, f"game {game_id} does not replay: {error}") from None
            with self.lock:
                if len(self._c4_frames) >= 8:
                    self._c4_frames.pop(next(iter(self._c4_frames)))
                self._c4_frames[key] = cached
        return record, cached

    def delete(self, game_id: int) -> None:
        """Forget a game and its record. Refused (409) while the server is playing it (an
        AI thinking, dice falling: it waits for a person a moment later) and for a game
        another program is recording (``running`` in the store, not hosted here, not the
        web's: a ``confrontation play`` in a terminal). A person's seat links to a deleted
        game answer 404."""
        with self.lock:
            game = self.games.get(game_id)
            if game is not None:
                with game.lock:
                    if game.running:
                        raise WebError(
                            409,
                            f"game {game_id} is being played by the server: "
                            "delete it when it waits for a person or is over",
                        )
                    game.deleted = True
                    game.recording = False
                del self.games[game_id]
            with self.store_lock:
                try:
                    if game is None:
                        stored = self.store.load(game_id)
                        web = isinstance(stored.setup.options.get("web"), dict)
                        if stored.status == RUNNING and not web:
                            raise WebError(
                                409,
                                f"game {game_id} is being recorded by another program "
                                "(a `confrontation play`?): it can be deleted once it stops",
                            )
                    self.store.delete(game_id)
                except StoreError:
                    raise WebError(404, f"no game {game_id}") from None
            self._frames = {k: v for k, v in self._frames.items() if k[0] != game_id}

    def summaries(self, limit: int = 50) -> list[Any]:
        """The stored games, newest first."""
        with self.store_lock:
            return self.store.list(limit=limit)
