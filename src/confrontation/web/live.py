"""What every game the web server hosts does alike, whichever its rules (``web.hub``'s
Confédé :class:`~confrontation.web.hub.LiveGame`, ``web.c4host``'s
:class:`~confrontation.web.c4host.C4LiveGame`): its seats and their tokens, the lock its state
is kept behind, the thread of its own that plays on (dice, AI seats) until a person must
answer, a person's answer, and the store it is saved in as it goes and taken up from again.
The rules come in through a :class:`Door` (their ``question``, ``step``, ``roll``…)."""

from __future__ import annotations

import contextlib
import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from confrontation.engine.core.events import Event
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.registry import EngineError
from confrontation.store import FINISHED, Outcome, StoredGame, StoreError
from confrontation.web.errors import WebError, refuse_answer

if TYPE_CHECKING:
    from confrontation.web.hub import Hub

log = logging.getLogger(__name__)

PERSON = "person"
"""A seat a person answers from the browser (stored as the terminal's ``human`` agent)."""

S = TypeVar("S")
"""A game's state (the engine's ``GameState``, C4's ``C4State``)."""


@dataclass(frozen=True)
class Door(Generic[S]):
    """The rules' one door as a hosted game goes through it."""

    question: Callable[[S], Question | None]
    step: Callable[[S, Choice], tuple[S, Sequence[Event]]]
    roll: Callable[[S, Any], tuple[S, Sequence[Event]]]
    roller: Callable[[S], Any]
    is_over: Callable[[S], bool]
    redact: Callable[[S, int], S]
    """The state as one player sees it."""
    players: Callable[[S], Iterable[int]]
    """The state's players."""


def web_seats(stored: StoredGame) -> tuple[tuple[str, ...], tuple[str | None, ...], bool]:
    """A stored game's seats and seat tokens (the web's, else the record's agents and no
    token), and whether it is to be watched only: finished, or the terminal's game."""
    setup = stored.setup
    web = setup.options.get("web")
    seats = tuple(web["seats"]) if isinstance(web, dict) else tuple(setup.agents)
    tokens = tuple(web["tokens"]) if isinstance(web, dict) else (None,) * len(seats)
    return seats, tokens, stored.status == FINISHED or not isinstance(web, dict)


class HostedGame(ABC, Generic[S]):
    """One hosted game: its state, record and seats, behind a lock (``lock``, an RLock).
    A subclass gives the rules' :class:`Door`, the store's outcome of the finished game,
    and how a person's seat is answered for and a person's answer read."""

    door: Door[S]
    label = "game"
    """The game as the log and its thread's name call it."""

    def __init__(
        self,
        hub: Hub,
        game_id: int,
        seats: tuple[str, ...],
        tokens: tuple[str | None, ...],
        *,
        recording: bool,
    ) -> None:
        self.hub = hub
        self.id = game_id
        self.seats = seats
        self.tokens = tokens
        self.recording = recording
        self.lock = threading.RLock()
        self.state: S | None = None
        self.events: list[Event] = []
        self.turn = 0
        """How many answers the players have given: a page answering names the turn it saw,
        and a stale answer (the question moved on) is refused."""
        self.running = False
        self.waiting = False
        """The game's thread stopped for a person's answer: nothing for it to play until an
        answer or a change of the automatic answers (a page's poll does not start it again,
        so an answer is never refused while a thread only finds the same question)."""
        self.error: str | None = None
        self.deleted = False
        self.auto = {p: True for p, seat in enumerate(seats) if seat == PERSON}
        """Per person's seat: the server answers his questions that need no thought."""

    # --- seats ------------------------------------------------------------------------

    def players_of(self, tokens: Iterable[str]) -> frozenset[int]:
        """The players whose seat tokens these are (a 403 for one that is not this game's)."""
        held = set()
        for token in tokens:
            if not token:
                continue
            if token not in self.tokens:
                raise WebError(403, f"this seat link is not one of game {self.id}'s seats")
            held.add(self.tokens.index(token))
        return frozenset(held)

    def current(self) -> S:
        if self.state is None:
            raise WebError(409, f"game {self.id} has not started")
        return self.state

    def view_state(self, players: frozenset[int]) -> S:
        """What the holder of ``players``' seats may see (the rules' ``redact``); with no
        seat (a spectator) every player's secrets are hidden."""
        state = self.current()
        everyone = list(self.door.players(state))
        if set(everyone) <= players:
            return state
        if not players:
            for player in everyone:
                state = self.door.redact(state, player)
            return state
        return self.door.redact(state, min(players))

    def over(self) -> bool:
        return self.state is not None and self.door.is_over(self.state)

    # --- playing ----------------------------------------------------------------------

    def _apply(self, state: S, events: Sequence[Event]) -> None:
        self.state = state
        self.events.extend(events)
        self._told(events)
        if self.recording:
            with self.hub.store_lock:
                for event in events:
                    self.hub.store.append(self.id, event)
        if self.door.is_over(state):  # stored as finished under the same lock as shown over
            self._finish()

    def _told(self, events: Sequence[Event]) -> None:
        """The narration of new events (none kept by default)."""

    @abstractmethod
    def _outcome(self) -> Outcome:
        """The store's summary of the finished game."""

    def _finish(self) -> None:
        if not self.recording:
            return
        with self.hub.store_lock:
            self.hub.store.finish(self.id, self._outcome())
        self.recording = False

    def resume_store(self) -> None:
        """The store takes the game up again (``running``); the events are recorded again
        once ``recording`` is set."""
        with self.hub.store_lock:
            self.hub.store.resume(self.id)

    def kick(self) -> None:
        """Let the server play on (dice, AI seats) in the game's own thread until a person
        must answer or the game ends."""
        with self.lock:
            if self.running or self.waiting or self.error is not None or not self.recording:
                return
            self.running = True
        name = f"{self.label.lower().replace(' ', '-')}-{self.id}"
        threading.Thread(target=self._play_on, name=name, daemon=True).start()

    def _answered_for(self, state: S, asked: Question) -> bool:
        """Whether the server answered a person's question for him (his automatic answers
        on, a question that needs no thought): none by default."""
        return False

    @abstractmethod
    def _agent_choice(self, player: int, view: S, asked: Question) -> Choice:
        """The AI seat's answer, asked on its own view (outside the lock)."""

    def _play_on(self) -> None:
        door = self.door
        roller = door.roller(self.current())
        try:
            while True:
                with self.lock:
                    if self.deleted:
                        self.running = False
                        return
                    state = self.current()
                    if door.is_over(state):
                        self._finish()
                        self.running = False
                        return
                    asked = door.question(state)
                    if asked is None:
                        raise EngineError("the game is neither over nor waiting for anything")
                    if asked.player is None:
                        self._apply(*door.roll(state, roller))
                        continue
                    if self.seats[asked.player] == PERSON:
                        if self._answered_for(state, asked):
                            continue
                        if self.recording:  # waiting for a person: his seat's answer
                            with self.hub.store_lock:
                                self.hub.store.commit(self.id)
                        self.running = False
                        self.waiting = True
                        return
                    player = asked.player
                    view = door.redact(state, player)
                choice = self._agent_choice(player, view, asked)  # outside the lock
                with self.lock:
                    if self.deleted:
                        self.running = False
                        return
                    self._apply(*door.step(state, choice))
                    self.turn += 1
        except Exception as error:  # the game stops; the page says why
            log.exception("%s %s stopped", self.label, self.id)
            with self.lock:
                self.error = " ".join(str(error).split()) or type(error).__name__
                self.running = False
            with self.hub.store_lock, contextlib.suppress(StoreError):
                self.hub.store.interrupt(self.id)

    def _kept_auto(self) -> dict[str, Any] | None:
        """The ``web`` option to store once the automatic answers changed (None: not kept)."""
        return None

    def set_auto(self, players: frozenset[int], on: bool) -> None:
        """Switch the automatic answers of these seats on or off."""
        with self.lock:
            for player in players:
                if self.seats[player] == PERSON:
                    self.auto[player] = on
            self.waiting = False  # the pending question may now be answered for him
            web = self._kept_auto()
        if web is not None and not self.deleted:
            with self.hub.store_lock, contextlib.suppress(StoreError):
                self.hub.store.set_option(self.id, "web", web)
        if on:
            self.kick()

    def _offered(self, state: S) -> Question | None:
        """The pending question as the page offers it."""
        return self.door.question(state)

    @abstractmethod
    def _chosen(self, state: S, asked: Question, index: int, facing: float | None) -> Choice:
        """Option ``index``'s answer (turned to ``facing``: a 400 where it takes none)."""

    def answer(
        self,
        players: frozenset[int],
        index: int,
        *,
        turn: int | None = None,
        facing: float | None = None,
    ) -> None:
        """A person's answer: option ``index`` of the pending question (turned to ``facing``
        where the question lets any facing be chosen). Refused, with nothing changed: an
        answer for another player, a stale one (``turn`` is not the game's), an option that
        does not exist, a facing the rules refuse."""
        with self.lock:
            if self.deleted:
                raise WebError(404, f"no game {self.id}: it was deleted")
            state = self.current()
            asked = self._offered(state)
            refuse_answer(
                str(self.id),
                over=self.door.is_over(state),
                error=self.error,
                asked=asked,
                serving=self.running,
                players=players,
                turn=turn,
                now=self.turn,
                index=index,
            )
            assert asked is not None
            choice = self._chosen(state, asked, index, facing)
            self._apply(*self.door.step(state, choice))
            self.turn += 1
            self.waiting = False
        self.kick()
