"""Events: everything that happens in a game, as small frozen records.

Each event has a ``kind`` and serialises to one JSON object (:func:`event_to_data`). The
event log is the game record: :mod:`~confrontation.engine.record` replays it and
:mod:`~confrontation.engine.narrate` tells it in English. :class:`ChoiceMade` and
:class:`DieRolled` carry every input the game received, so a replay needs no random
generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from confrontation.engine.codec import Tagged, decode, encode
from confrontation.engine.questions import Choice
from confrontation.engine.state import GameState


@dataclass(frozen=True)
class Event(Tagged):
    """Base of every event."""

    family_root = True


@dataclass(frozen=True)
class GameStarted(Event):
    """The game begins from this state (the first line of every record)."""

    kind = "game_started"
    state: GameState


@dataclass(frozen=True)
class ChoiceMade(Event):
    """A player answered a question."""

    kind = "choice_made"
    player: int
    question: str
    choice: Choice


@dataclass(frozen=True)
class DieRolled(Event):
    """A d6 was rolled for the pending chance step ``purpose``; ``player`` rolled it."""

    kind = "die_rolled"
    purpose: str
    player: int | None
    face: int


@dataclass(frozen=True)
class RoundStarted(Event):
    """A new round begins (IV)."""

    kind = "round_started"
    round: int


@dataclass(frozen=True)
class PhaseStarted(Event):
    """A phase of the round begins."""

    kind = "phase_started"
    round: int
    phase: str


@dataclass(frozen=True)
class PhaseEnded(Event):
    """A phase of the round ends."""

    kind = "phase_ended"
    round: int
    phase: str


@dataclass(frozen=True)
class CardsWithdrawn(Event):
    """Cards whose fighters were all eliminated leave the sequence (IV-A-1 note)."""

    kind = "cards_withdrawn"
    player: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class SequenceSet(Event):
    """A player's activation sequence is complete (IV-A-1); ``cards`` top first (secret)."""

    kind = "sequence_set"
    player: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class TacticsFighterChosen(Event):
    """A player picks the fighter who rolls the Tactics roll (IV-A-2)."""

    kind = "tactics_fighter_chosen"
    player: int
    fighter: str | None
    discipline: int


@dataclass(frozen=True)
class TestRaised(Event):
    """A player raises a 6 (II-A-1)."""

    kind = "test_raised"
    player: int
    purpose: str


@dataclass(frozen=True)
class TacticsTied(Event):
    """Both Tactics results are equal: both roll again (II-A-3)."""

    kind = "tactics_tied"
    finals: tuple[int, int]


@dataclass(frozen=True)
class TacticsRolled(Event):
    """The Tactics roll is decided (IV-A-2); ``uncontested``: the loser had no fighter to
    roll with (docs/rulings.md)."""

    kind = "tactics_rolled"
    finals: tuple[int, int]
    winner: int
    uncontested: bool = False


@dataclass(frozen=True)
class FirstSpeakerChosen(Event):
    """The Tactics winner names who speaks first in the activation phase (IV-B-1)."""

    kind = "first_speaker_chosen"
    by: int
    first: int


@dataclass(frozen=True)
class RefusalsGranted(Event):
    """The player with fewer cards receives refusals (IV-B-1)."""

    kind = "refusals_granted"
    player: int
    count: int


@dataclass(frozen=True)
class CardRevealed(Event):
    """A card is drawn and revealed; ``source`` is "deck" or "reserve" (IV-B-1)."""

    kind = "card_revealed"
    player: int
    card: str
    source: str


@dataclass(frozen=True)
class CardPlacedInReserve(Event):
    """A player puts his top card face down in reserve (IV-B-1)."""

    kind = "card_placed_in_reserve"
    player: int
    card: str


@dataclass(frozen=True)
class CardRefused(Event):
    """A player uses a refusal and gives the floor back (IV-B-1)."""

    kind = "card_refused"
    player: int
    refusals_left: int


@dataclass(frozen=True)
class FighterActivated(Event):
    """A fighter of a played card is activated (IV-B-2)."""

    kind = "fighter_activated"
    fighter: str
    card: str


@dataclass(frozen=True)
class ActivationEnded(Event):
    """The fighters of the played card(s) have finished acting."""

    kind = "activation_ended"
    player: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class MaintenanceStepStarted(Event):
    """A step of the maintenance phase begins (IV-D)."""

    kind = "maintenance_step"
    step: str
    section: str


@dataclass(frozen=True)
class MarkersRemoved(Event):
    """Round markers leave a fighter (IV-D-3 6)."""

    kind = "markers_removed"
    fighter: str
    markers: tuple[str, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over."""

    kind = "game_ended"
    reason: str
    scores: tuple[int, int]


def event_to_data(event: Event) -> dict[str, Any]:
    """The event as JSON-ready data (with its ``kind``)."""
    data: dict[str, Any] = encode(event)
    return data


def event_from_data(data: dict[str, Any]) -> Event:
    """Rebuild an event from :func:`event_to_data`'s output."""
    event: Event = decode(Event, data)
    return event
