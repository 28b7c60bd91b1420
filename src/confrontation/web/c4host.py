"""C4 games (the unit-based ruleset, ``confrontation.c4``) hosted by the web server: played
through the C4 door (``c4.step``), saved in the store as ``play --rules c4`` saves them,
taken up again from their record after a restart, AI seats answering in the game's thread.

What a seat is sent is built from its own view only: the state through
:func:`confrontation.c4.views.redact`, the narration through ``c4.narrate.narrate(event,
viewer)``, the question only to the seat whose question it is. A page holding every seat
(hot-seat) sees everything; a spectator sees nobody's secrets.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import secrets
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from confrontation.agents.c4 import C4GreedyAgent
from confrontation.c4 import events as c4ev
from confrontation.c4.battle import describe
from confrontation.c4.choices import UnitAction
from confrontation.c4.company import bundled_companies
from confrontation.c4.fight import perform
from confrontation.c4.narrate import narrate, unit_name
from confrontation.c4.picture import SCALE, svg
from confrontation.c4.state import C4State
from confrontation.c4.step import game_roller, is_over, question, replay, roll, start, step
from confrontation.c4.views import redact
from confrontation.engine.core.events import ChoiceMade, Event
from confrontation.engine.core.questions import Choice, Option, Question
from confrontation.sim.c4game import (
    DEFAULT_MODE,
    MODES,
    C4Config,
    C4Result,
    C4SetupError,
    build,
    c4_agent,
    config_of,
    load_c4_company,
    outcome_of,
    setup_of,
)
from confrontation.store import ArmyCopy, Outcome, StoredGame
from confrontation.web.c4odds import assault_lines, melee_lines, salvo_lines, shoots_in_place
from confrontation.web.c4words import compass, move_words
from confrontation.web.errors import WebError
from confrontation.web.live import PERSON, Door, HostedGame, web_seats

if TYPE_CHECKING:
    from confrontation.web.hub import Hub

log = logging.getLogger(__name__)

C4 = "c4"
"""The ``rules`` value of a C4 game."""
C4_SCENARIOS = ("bloodbath", "bloodbath:small-table", "conquest", "cp-close-quarters")
"""The scenarios whose mechanics fit units (``play --rules c4 --scenario``; ``sim.c4scenario``)."""
DEFAULT_BATTLE = "battle"
"""The form's name for C4's default battle (no scenario)."""
C4_SEATS = (PERSON, "random", "greedy", "mcts")


def rules_of(scenario_name: str) -> tuple[str, str | None]:
    """The rules and C4 mode of a stored game from its set-up's name (``c4:MODE``,
    ``c4:MODE:SCENARIO`` as the server names them, ``c4:SCENARIO`` as the CLI does)."""
    if not scenario_name.startswith(C4 + ":"):
        return "confede", None
    parts = scenario_name.split(":")[1:]
    mode = next((p for p in parts if p in MODES), None)
    return C4, mode


@dataclass(frozen=True)
class NewC4:
    """A C4 game the start page asks for: two companies, two seats, mode, scenario, seed."""

    companies: tuple[str, ...]
    seats: tuple[str, ...]
    seed: int
    mode: str = DEFAULT_MODE
    scenario: str | None = None
    rounds: int | None = None


class C4LiveGame(HostedGame[C4State]):
    """One hosted C4 game: its state, record and seats, behind a lock (the attributes the hub
    reads — ``id``, ``seats``, ``tokens``, ``lock``, ``running``, ``recording``, ``deleted``,
    ``events`` — are a :class:`~confrontation.web.live.HostedGame`'s, as a
    :class:`~confrontation.web.hub.LiveGame`'s are; ``scenario`` is its own)."""

    rules = C4
    label = "C4 game"
    door = Door(question, step, roll, game_roller, is_over, redact, lambda s: range(s.players))

    def __init__(
        self,
        hub: Hub,
        game_id: int,
        config: C4Config,
        seats: tuple[str, ...],
        tokens: tuple[str | None, ...],
        *,
        recording: bool,
    ) -> None:
        super().__init__(hub, game_id, seats, tokens, recording=recording)
        self.config = config
        self.scenario = config.scenario or DEFAULT_BATTLE
        self.armies = tuple(company_label(c) for c in config.companies)
        self._asked: tuple[tuple[int, int | None], dict[str, Any]] | None = None
        """The last question sent (turn, player) and its document (odds and hint)."""
        self.agents: dict[int, Any] = {}
        for p, seat in enumerate(seats):
            if seat != PERSON:
                self.agents[p] = c4_agent(seat, config.seed, p)

    @staticmethod
    def viewer(players: frozenset[int], count: int) -> int | None:
        """The narration's viewer: None (the referee) for a page holding every seat."""
        if set(range(count)) <= players:
            return None
        return min(players) if players else -1

    # --- playing ----------------------------------------------------------------------

    def _outcome(self) -> Outcome:
        return outcome_of(C4Result(self.current(), self.events))

    def _answered_for(self, state: C4State, asked: Question) -> bool:
        """A question with one option answered for a person, his automatic answers on."""
        assert asked.player is not None
        if not (self.auto.get(asked.player) and len(asked.options) == 1):
            return False
        self._apply(*step(state, asked.options[0].choice))
        self.turn += 1
        return True

    def _agent_choice(self, player: int, view: C4State, asked: Question) -> Choice:
        choice: Choice = self.agents[player].choose(view, asked, asked.choices)
        return choice

    def _offered(self, state: C4State) -> Question | None:
        pending = question(state)
        return None if pending is None else walk_shots(state, pending)

    def _chosen(self, state: C4State, asked: Question, index: int, facing: float | None) -> Choice:
        if facing is not None:
            raise WebError(400, "a C4 question takes no facing")
        return asked.options[index].choice

    # --- what a seat is sent ----------------------------------------------------------

    def pending_for(self, players: frozenset[int]) -> dict[str, Any] | None:
        """The pending question if it is one of ``players``' (None: none of theirs)."""
        with self.lock:
            if self.state is None or self.running or is_over(self.state):
                return None
            state = self.state
            asked = question(state)
            turn = self.turn
        if asked is None or asked.player is None or asked.player not in players:
            return None
        return self._question(asked, turn, state)

    def _question(self, asked: Question, turn: int, state: C4State) -> dict[str, Any]:
        """:func:`question_doc` with the AI's hint, kept for the turn (the page polls)."""
        key = (turn, asked.player)
        with self.lock:
            if self._asked is not None and self._asked[0] == key:
                return self._asked[1]
        doc = question_doc(walk_shots(state, asked), turn, state)
        assert asked.player is not None
        doc["hint"] = hint(redact(state, asked.player), asked, self.config.seed)
        with self.lock:
            self._asked = (key, doc)
        return doc

    def view(self, players: frozenset[int], since: int = 0) -> dict[str, Any]:
        """The game as the holder of ``players``' seats may see it (JSON)."""
        with self.lock:
            state = self.current()
            seen = self.view_state(players)
            events = list(self.events)
            running, turn, error = self.running, self.turn, self.error
            asked = None if running or is_over(state) else question(state)
        viewer = self.viewer(players, state.players)
        lines = [line for e in events if (line := told(e, viewer)) is not None]
        mine = asked is not None and asked.player is not None and asked.player in players
        ended = next((e for e in reversed(events) if isinstance(e, c4ev.C4GameEnded)), None)
        if is_over(state):
            status = "over"
        elif error is not None:
            status = "stopped"
        elif mine:
            status = "your-turn"
        elif running or asked is None or asked.player is None:
            status = "playing"
        else:
            status = "waiting"
        return {
            "status": status,
            "id": self.id,
            "rules": C4,
            "mode": str(state.mode),
            "scenario": self.scenario,
            "round": state.round,
            "rounds": state.rounds,
            "phase": str(state.phase),
            "over": is_over(state),
            "winner": ended.winner if ended else None,
            "scores": list(ended.scores) if ended else None,
            "reason": ended.reason if ended else None,
            "turn": turn,
            "running": running,
            "error": error,
            "seats": sorted(players),
            "waiting_for": None if asked is None else asked.player,
            "players": [self._player(seen, p, players) for p in range(state.players)],
            "svg": svg(seen),
            "log": lines[max(since, 0) :],
            "log_from": max(since, 0),
            "log_total": len(lines),
            "question": self._question(asked, turn, state) if mine and asked is not None else None,
        }

    def _player(self, seen: C4State, p: int, players: frozenset[int]) -> dict[str, Any]:
        units = [u for u in seen.units if u.owner == p]
        doc: dict[str, Any] = {
            "player": p,
            "name": f"Player {p + 1}",
            "company": self.armies[p] if p < len(self.armies) else "",
            "seat": self.seats[p],
            "you": p in players,
            "units": len([u for u in units if seen.members(u.id)]),
            "fighters": sum(len(seen.members(u.id)) for u in units),
        }
        if p in players:  # a player's own cards: his seat only
            side = seen.sides[p]
            act = seen.activation
            doc["sequence"] = list(side.sequence)
            doc["reserve"] = side.reserve
            doc["drawn"] = act.drawn if act is not None and act.drawer == p else None
        return doc


def told(event: Event, viewer: int | None) -> str | None:
    """The narration of ``event`` as ``viewer`` hears it (a scenario's scoring too)."""
    line = narrate(event, viewer)
    if line is None:
        line = describe(event)
    return line


def named(text: str, state: C4State) -> str:
    """``text`` with the units' ids (``p1-griffin-conscripts``) spelt as their cards' names."""
    ids = sorted((u.id for u in state.units), key=len, reverse=True)
    if not ids:
        return text
    pattern = re.compile("|".join(re.escape(i) for i in ids))
    return pattern.sub(lambda m: unit_name(m.group(0)), text)


def hint(view: C4State, asked: Question, seed: int = 0) -> dict[str, Any] | None:
    """What the greedy AI (``agents.c4.C4GreedyAgent``) would answer, asked on ``view`` — the
    seat's own redacted view (``c4.views.redact``), never the full state: the option's
    ``index`` and ``label`` and the agent's one-line ``reason`` (None if it gives none). None:
    no hint (not a person's question, or the agent failed: a hint never fails the page)."""
    if asked.player is None:
        return None
    agent = C4GreedyAgent(seed)
    try:
        choice = agent.choose(view, asked, asked.choices)
    except Exception:
        log.exception("the C4 hint failed")
        return None
    index = next((i for i, o in enumerate(asked.options) if o.choice == choice), None)
    if index is None:
        return None
    label = asked.options[index].label
    if isinstance(choice, UnitAction):
        label = move_words(view, choice) or label
    reason = getattr(agent, "reason", None)
    return {"index": index, "label": named(label, view), "reason": reason}


def _distinct(options: list[dict[str, Any]], asked: Question, state: C4State) -> None:
    """Two moves whose words are the same (never seen in the bundled games; a safeguard) are
    told apart by their compass point, then by their bearing in degrees."""
    for tell in ("compass", "bearing"):
        seen: dict[str, int] = {}
        for doc in options:
            seen[doc["label"]] = seen.get(doc["label"], 0) + 1
        for doc in options:
            choice = asked.options[doc["index"]].choice
            if seen[doc["label"]] < 2 or not isinstance(choice, UnitAction) or "spot" not in doc:
                continue
            if tell == "compass":
                doc["label"] += f" ({compass(state, choice)})"
            else:
                leader = state.fighter(state.unit(choice.unit).leader)
                angle = math.degrees(math.atan2(choice.y - leader.y, choice.x - leader.x))
                doc["label"] += f" [{angle % 360:.0f}°]"


def walk_shots(state: C4State, asked: Question) -> Question:
    """``asked`` as the page offers it: for a free unit with marksmen, after the menu's
    options, each walk of the menu followed by a shot at each target its shots name that some
    marksman could fire from the walk's end (``# C4 Activating Unit``: walk and ranged attack;
    the shot after the walk) — answers the engine takes as it takes any walk-and-shoot
    destination (``c4.actions.free_answer``)."""
    if asked.kind != "c4_unit_action":
        return asked
    acts = [o.choice for o in asked.options if isinstance(o.choice, UnitAction)]
    targets = list(dict.fromkeys(a.target for a in acts if a.action == "walk_shoot" and a.target))
    walks = [a for a in acts if a.action == "walk" and a.formation is None and a.after is None]
    shots = [UnitAction(w.unit, "walk_shoot", w.x, w.y, t) for w in walks for t in targets]
    extra = tuple(
        Option(c, f"walk and shoot {c.target}") for c in shots if walk_salvo_lines(state, c)
    )
    return replace(asked, options=asked.options + extra) if extra else asked


def walk_salvo_lines(state: C4State, choice: UnitAction) -> list[dict[str, Any]]:
    """The salvos of a walk followed by a shot, from the walk's end: the unit walked as the
    engine walks it (``c4.fight.perform`` of the walk alone, no die), then
    :func:`~confrontation.web.c4odds.salvo_lines` from there."""
    walk = replace(choice, action="walk", target=None, after=None, order=(), hold_fire=())
    moved, _, _ = perform(state, walk)
    leader = moved.fighter(moved.unit(choice.unit).leader)
    return salvo_lines(moved, replace(choice, x=leader.x, y=leader.y, shoot_first=True))


def question_doc(asked: Question, turn: int, state: C4State) -> dict[str, Any]:
    """The pending question as the page shows it: its prompt and options (the units named by
    their cards; a walk or a run in words, its destination also a point on the SVG, ``spot``;
    the exact odds of a shot, an assault or a melee)."""
    options = []
    listed: set[Choice] = set()
    for i, option in enumerate(asked.options):
        choice = option.choice
        if choice in listed:  # the same answer offered twice: one button
            continue
        listed.add(choice)
        doc: dict[str, Any] = {"index": i, "label": named(option.label, state)}
        if isinstance(choice, UnitAction):
            doc["action"] = choice.action
            words = move_words(state, choice)
            if words is not None:
                doc["label"] = words
            if choice.formation and "formation" not in option.label:
                doc["label"] += f" (in {choice.formation} formation)"
            if choice.after and "formation" not in option.label:
                doc["label"] += f" (then {choice.after} formation)"
            walked = choice.action == "walk_shoot" and not shoots_in_place(state, choice)
            if walked:
                went = move_words(state, replace(choice, action="walk")) or "walk"
                doc["label"] = f"{went}, then shoot at {unit_name(choice.target or '')}"
            if choice.target is not None:
                doc["target"] = unit_name(choice.target)
                salvos = (walk_salvo_lines if walked else salvo_lines)(state, choice)
                if salvos:
                    text = "; ".join(line["text"] for line in salvos)
                    if walked:
                        text = f"from the walk's end: {text}"
                    doc["odds"] = {"salvos": salvos, "text": text, "after_walk": walked}
                elif (charge := assault_lines(state, choice)) is not None:
                    doc["odds"] = {"assault": charge, "text": charge["text"]}
            elif (fight := melee_lines(state, choice)) is not None:
                doc["odds"] = fight
            if (
                choice.action in ("walk", "run", "walk_shoot")
                and (choice.x or choice.y)
                and not walked
            ):
                doc["spot"] = [
                    round(choice.x * SCALE, 1),
                    round((state.height - choice.y) * SCALE, 1),
                ]
        options.append(doc)
    _distinct(options, asked, state)
    return {
        "turn": turn,
        "kind": asked.kind,
        "player": asked.player,
        "prompt": named(asked.prompt, state),
        "options": options,
    }


# --- starting and taking up -------------------------------------------------------------


def create_c4(hub: Hub, new: NewC4) -> C4LiveGame:
    """Set a C4 game up, save it and let it begin (a 400 for a bad set-up, nothing saved)."""
    if len(new.companies) != 2 or len(new.seats) != 2:
        raise WebError(400, "a C4 game opposes two companies: two armies, two seats")
    unknown = [s for s in new.seats if s not in C4_SEATS]
    if unknown:
        raise WebError(400, f"unknown seat {unknown[0]!r} (seats: {', '.join(C4_SEATS)})")
    if new.mode not in MODES:
        raise WebError(400, f"no C4 game mode {new.mode!r} (one of {', '.join(MODES)})")
    if new.scenario is not None and new.scenario not in C4_SCENARIOS:
        raise WebError(
            400,
            f"scenario {new.scenario!r} does not fit C4 units "
            f"(one of {DEFAULT_BATTLE}, {', '.join(C4_SCENARIOS)})",
        )
    agents = tuple("human" if s == PERSON else s for s in new.seats)
    config = C4Config(
        new.companies,
        agents,
        new.seed,
        new.mode,
        new.rounds or 6,
        scenario=new.scenario,
        rounds_given=new.rounds is not None or new.scenario is None,
    )
    try:
        initial = build(config)
        setup = setup_of(config)
    except C4SetupError as error:
        raise WebError(400, " ".join(str(error).split())) from None
    tokens = tuple(secrets.token_urlsafe(12) if s == PERSON else None for s in new.seats)
    web = {"seats": list(new.seats), "tokens": list(tokens)}
    name = f"c4:{new.mode}" + (f":{new.scenario}" if new.scenario else "")
    setup = replace(setup, scenario=name, options={**setup.options, "web": web})
    with hub.store_lock:
        game_id = hub.store.begin(setup)
    game = C4LiveGame(hub, game_id, config, new.seats, tokens, recording=True)
    with game.lock:
        game._apply(*start(initial))
    return game


@cache
def _restored() -> Path:
    """This process's folder for company files rewritten from the store."""
    return Path(tempfile.mkdtemp(prefix="confrontation-companies-"))


def kept_companies(config: C4Config, copies: Sequence[ArmyCopy]) -> C4Config:
    """The configuration with each company file that is gone (an upload's temporary file
    after a restart) written again from the text the store keeps (``ArmyCopy.source``)."""
    known = bundled_companies()
    names = list(config.companies)
    for p, (name, copy) in enumerate(zip(names, copies, strict=False)):
        if name in known or Path(name).is_file() or copy.source is None:
            continue
        data = copy.source.encode("utf-8")
        path = _restored() / f"company-{hashlib.sha256(data).hexdigest()[:16]}.toml"
        path.write_bytes(data)
        names[p] = str(path)
    return replace(config, companies=tuple(names))


def company_label(name: str) -> str:
    """A company as the page names it: a bundled one's id, a file's company name."""
    if name in bundled_companies():
        return name
    try:
        return load_c4_company(name)[0].name
    except C4SetupError:
        return Path(name).stem


def load_c4(hub: Hub, game_id: int, stored: StoredGame) -> C4LiveGame:
    """A stored C4 game taken up again: a web game not finished plays on (its AI seats
    where they were), any other is watched."""
    setup = stored.setup
    config = kept_companies(config_of(setup), setup.armies)
    seats, tokens, finished = web_seats(stored)
    watched = tuple(PERSON if s not in C4_SEATS else s for s in seats)
    game = C4LiveGame(hub, game_id, config, watched, tokens, recording=False)
    if stored.events:
        game.state = replay(stored.events)
        game.events = list(stored.events)
    game.turn = sum(isinstance(e, ChoiceMade) for e in game.events)
    for p, agent in game.agents.items():  # an AI's decisions so far (as ``play_c4`` resumes)
        made = sum(1 for e in game.events if isinstance(e, ChoiceMade) and e.player == p)
        if hasattr(agent, "decisions"):
            agent.decisions = made
    if not finished:
        game.resume_store()
        game.recording = True
        if game.state is None:  # saved before its first event
            with game.lock:
                game._apply(*start(build(config)))
    return game
