"""The game state as plain data (ARCHITECTURE: "state is plain data").

Every record is a frozen dataclass made of numbers, strings, enums and tuples: a state
serialises to JSON losslessly (:func:`state_to_json` / :func:`state_from_json`), hashes (a
transposition table can key on it) and clones for free — a change builds a new top-level
record with :func:`dataclasses.replace` and shares every untouched tuple with its parent
(copy-on-write), which is what MCTS and what-if analysis need.

Only :func:`confrontation.engine.step.step` produces new states during a game.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from confrontation.dice import chain_natural
from confrontation.engine.codec import decode, encode

PLAYERS: tuple[int, int] = (0, 1)
"""Players are numbered 0 and 1 inside the engine and shown as "Player 1" and "Player 2"."""

KILLED_LEVELS = 4
"""Four wound levels kill a fighter (II-B-2, II-B-3)."""


def player_name(player: int) -> str:
    """How a player is shown to people: ``0`` is "Player 1"."""
    return f"Player {player + 1}"


def opponent(player: int) -> int:
    """The other player."""
    return 1 - player


class Phase(enum.StrEnum):
    """Where the game is in its round (IV) — or that it is over."""

    STRATEGIC = "strategic"
    ACTIVATION = "activation"
    COMBAT = "combat"
    MAINTENANCE = "maintenance"
    OVER = "over"


@dataclass(frozen=True)
class ProfileSummary:
    """What the engine needs from a reference card (I-C) so far.

    A snapshot taken at set-up from the army lists: the state carries it so that ``step``
    needs nothing outside the state. ``abilities`` are written as on the card
    ("Alliance/Lions", "Mercenary", "Immortal/1").
    """

    id: str
    name: str
    people: str
    discipline: int
    abilities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fighter:
    """One miniature on (or off) the table.

    ``x``, ``y`` (cm), ``facing`` (degrees) and ``altitude`` (level 0 or 1) are plain numbers
    the geometry package interprets. ``wounds`` counts wound levels (II-B-3: 4 = killed).
    ``markers`` holds other round markers by name (e.g. "Target/+2").
    """

    id: str
    player: int
    card: str
    profile: str
    x: float = 0.0
    y: float = 0.0
    facing: float = 0.0
    altitude: int = 0
    wounds: int = 0
    stunned: bool = False
    charged: bool = False
    defence: bool = False
    routed: bool = False
    hidden: bool = False
    ally: bool = False
    activated: bool = False
    markers: tuple[str, ...] = ()

    @property
    def alive(self) -> bool:
        """Not yet killed (fewer than four wound levels)."""
        return self.wounds < KILLED_LEVELS


@dataclass(frozen=True)
class Card:
    """A reference card of an army list: one profile entry and the fighters it represents."""

    id: str
    player: int
    profile: str
    fighters: tuple[str, ...]
    label: str


@dataclass(frozen=True)
class Side:
    """One player's army and his deck of cards for the current phase.

    ``deck`` is the activation sequence, top card first; ``reserve`` the face-down card put
    aside (IV-B-1); ``reserve_used`` whether he has put a card in reserve this phase;
    ``refusals`` the refusals left this phase; ``withdrawn`` the cards whose fighters were
    all eliminated in earlier rounds (IV-A-1 note).
    """

    player: int
    name: str
    people: str
    alliance_way: str = ""
    deck: tuple[str, ...] = ()
    reserve: str | None = None
    reserve_used: bool = False
    refusals: int = 0
    withdrawn: tuple[str, ...] = ()

    @property
    def cards_left(self) -> int:
        """Cards still to play this phase: the deck plus the reserve (IV-B-1 note 1)."""
        return len(self.deck) + (self.reserve is not None)


@dataclass(frozen=True)
class Pending:
    """What the game waits for: a player's answer, or a die (``player`` is None).

    ``kind`` names the handler that knows the legal answers (see ``engine.registry``).
    """

    kind: str
    player: int | None


@dataclass(frozen=True)
class TacticsHand:
    """One player's side of the Tactics roll (IV-A-2): an opposed Discipline test (II-A-3).

    ``dice`` are the faces of the current attempt (a 6 followed by its raises);
    ``awaiting_die`` is true while a die is due; ``stopped`` once the player declines to
    raise a 6.
    """

    fighter: str | None = None
    chosen: bool = False
    discipline: int = 0
    dice: tuple[int, ...] = ()
    awaiting_die: bool = True
    stopped: bool = False

    @property
    def natural(self) -> int:
        """The natural result (II-A-1): the sum of the dice, but 1 if a raise showed a 1."""
        return chain_natural(self.dice) if self.dice else 0

    @property
    def final(self) -> int:
        """Natural result plus current Discipline (II-A)."""
        return self.natural + self.discipline

    @property
    def may_raise(self) -> bool:
        """Showing a 6 that is neither raised yet nor declined (II-A-1)."""
        return bool(self.dice) and self.dice[-1] == 6 and not self.awaiting_die and not self.stopped


@dataclass(frozen=True)
class StrategicProgress:
    """The strategic phase (IV-A) under way: sequences being built, then the Tactics roll."""

    building: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    to_place: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    hands: tuple[TacticsHand, TacticsHand] = (TacticsHand(), TacticsHand())
    attempts: int = 0
    winner: int | None = None


@dataclass(frozen=True)
class Activation:
    """The cards a player has just played and the fighters they activate (IV-B-2)."""

    player: int
    cards: tuple[str, ...]
    fighters: tuple[str, ...]
    done: tuple[str, ...] = ()


@dataclass(frozen=True)
class ActivationProgress:
    """The activation phase (IV-B) under way: who has the floor and what is being played."""

    floor: int | None
    current: Activation | None = None


@dataclass(frozen=True)
class MaintenanceProgress:
    """The maintenance phase (IV-D) under way: the step and the next hook to run in it."""

    step: int = 0
    hook: int = 0


@dataclass(frozen=True)
class CombatProgress:
    """The combat phase (IV-C, chapter VII) under way; its resolver keeps its data here."""

    started: bool = False


@dataclass(frozen=True)
class GameState:
    """Everything about a game at one moment.

    ``seed`` and ``dice_rolled`` locate the game's die stream: a seeded roller for ``seed``
    that has thrown ``dice_rolled`` dice gives the next face.
    """

    rounds: int
    seed: int
    round: int
    phase: Phase
    pending: Pending | None
    sides: tuple[Side, Side]
    profiles: tuple[ProfileSummary, ...]
    cards: tuple[Card, ...]
    fighters: tuple[Fighter, ...]
    scores: tuple[int, int] = (0, 0)
    dice_rolled: int = 0
    first_speaker: int | None = None
    strategic: StrategicProgress | None = None
    activation: ActivationProgress | None = None
    combat: CombatProgress | None = None
    maintenance: MaintenanceProgress | None = None

    @cached_property
    def _fighters_by_id(self) -> dict[str, Fighter]:
        return {f.id: f for f in self.fighters}

    @cached_property
    def _cards_by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    @cached_property
    def _profiles_by_id(self) -> dict[str, ProfileSummary]:
        return {p.id: p for p in self.profiles}

    def fighter(self, fighter_id: str) -> Fighter:
        """The fighter with this id."""
        return self._fighters_by_id[fighter_id]

    def card(self, card_id: str) -> Card:
        """The card with this id."""
        return self._cards_by_id[card_id]

    def profile(self, profile_id: str) -> ProfileSummary:
        """The profile with this id."""
        return self._profiles_by_id[profile_id]

    def side(self, player: int) -> Side:
        """A player's side."""
        return self.sides[player]

    def cards_of(self, player: int) -> tuple[Card, ...]:
        """A player's cards, in army-list order."""
        return tuple(c for c in self.cards if c.player == player)

    def card_in_play(self, card_id: str) -> bool:
        """Some fighter of the card is still alive (IV-A-1 note)."""
        return any(self.fighter(f).alive for f in self.card(card_id).fighters)

    def with_fighters(self, *changed: Fighter) -> GameState:
        """A copy with these fighters replaced (matched by id)."""
        by_id = {f.id: f for f in changed}
        fighters = tuple(by_id.get(f.id, f) for f in self.fighters)
        return dataclasses.replace(self, fighters=fighters)

    def with_side(self, side: Side) -> GameState:
        """A copy with this player's side replaced."""
        sides = (side, self.sides[1]) if side.player == 0 else (self.sides[0], side)
        return dataclasses.replace(self, sides=sides)


def state_to_data(state: GameState) -> dict[str, Any]:
    """The state as JSON-ready data."""
    data: dict[str, Any] = encode(state)
    return data


def state_from_data(data: dict[str, Any]) -> GameState:
    """Rebuild a state from :func:`state_to_data`'s output."""
    state: GameState = decode(GameState, data)
    return state


def state_to_json(state: GameState) -> str:
    """The state as one line of JSON."""
    return json.dumps(state_to_data(state), separators=(",", ":"), ensure_ascii=False)


def state_from_json(text: str) -> GameState:
    """Rebuild a state from :func:`state_to_json`'s output."""
    return state_from_data(json.loads(text))
