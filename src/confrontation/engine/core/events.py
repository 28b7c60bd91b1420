"""Events: everything that happens in a game, as small frozen records.

Each event has a ``kind`` and serialises to one JSON object (:func:`event_to_data`). The
event log is the game record: :mod:`~confrontation.engine.record` replays it and
:mod:`~confrontation.engine.core.narrate` tells it in English. :class:`ChoiceMade` and
:class:`DieRolled` carry every input the game received, so a replay needs no random
generator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from confrontation.engine.core.codec import Tagged, decode, encode
from confrontation.engine.core.outcome import Outcome, Termination
from confrontation.engine.core.questions import Choice
from confrontation.engine.core.state import GameState


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
class RolledOff(Event):
    """A roll-off is settled (II-A-3, CLARIFICATIONS §9): ``sides`` showed a 6 with equal
    final results (``finals``) in the opposed test ``purpose``; each rolled ``faces`` (again
    until they differed) and ``first`` (the lower face) decides first whether to raise."""

    kind = "rolled_off"
    purpose: str
    sides: tuple[int, ...]
    finals: tuple[int, ...]
    faces: tuple[tuple[int, ...], ...]
    first: int


@dataclass(frozen=True)
class TacticsTied(Event):
    """Tactics results are equal, or failures (≤ 0): those players roll again (II-A-3,
    II-A-4, CLARIFICATIONS §9; with three players or more every tie, XX-F-3). ``finals``:
    every player's result, Player 1 first."""

    kind = "tactics_tied"
    finals: tuple[int, ...]


@dataclass(frozen=True)
class TacticsRolled(Event):
    """The Tactics roll is decided (IV-A-2); ``uncontested``: the loser had no fighter to
    roll with (docs/rulings.md). With three players or more, ``order`` ranks them all, best
    result first (XX-F-3)."""

    kind = "tactics_rolled"
    finals: tuple[int, ...]
    winner: int
    uncontested: bool = False
    order: tuple[int, ...] = field(default=(), metadata={"omit_default": True})


@dataclass(frozen=True)
class FirstSpeakerChosen(Event):
    """The Tactics winner names who speaks first in the activation phase (IV-B-1)."""

    kind = "first_speaker_chosen"
    by: int
    first: int


@dataclass(frozen=True)
class PlaceTaken(Event):
    """With three players or more, ``player`` takes ``place`` (0: first) in the speaking
    order (XX-F-3) or, before the battle, the deployment order (XX-F-1); ``forced``: it was
    the only place left."""

    kind = "place_taken"
    player: int
    place: int
    forced: bool = False


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
    """The game is over: why, every player's victory points (Player 1 first), and the
    winner (None: a draw or no scenario decided one; see ``engine.core.ending``). ``reason``
    is the text of an ``engine.core.outcome.Termination`` (:attr:`outcome` reads it back)."""

    kind = "game_ended"
    reason: str
    scores: tuple[int, ...]
    winner: int | None = None

    @classmethod
    def of(cls, outcome: Outcome) -> GameEnded:
        """The event that records ``outcome``."""
        return cls(outcome.reason, tuple(outcome.scores), outcome.winner)

    @property
    def outcome(self) -> Outcome:
        """The typed end (``reason`` is a :class:`Termination`'s text)."""
        termination, detail = Termination.parse(self.reason)
        return Outcome(termination, self.winner, self.scores, detail)


# --- set-up and deployment (III-A, III-B) ------------------------------------------------


@dataclass(frozen=True)
class SceneryLaid(Event):
    """The scenery is on the table (III-A-3): the elements' names."""

    kind = "scenery_laid"
    elements: tuple[str, ...]


@dataclass(frozen=True)
class SceneryRolled(Event):
    """XX-A-2: the d6 of ``players`` (``faces`` in the same order) for who places the first
    standard element; ``first`` the highest, None for a tie (those tied roll again)."""

    kind = "scenery_rolled"
    players: tuple[int, ...]
    faces: tuple[int, ...]
    first: int | None


@dataclass(frozen=True)
class SceneryPlaced(Event):
    """XX-A-2: ``element`` is set on the table — a scenario element where the scenario says
    (``player`` None) or a standard element placed by ``player`` (centre x, y; ``angle``)."""

    kind = "scenery_placed"
    element: str
    player: int | None = None
    x: float = 0.0
    y: float = 0.0
    angle: float = 0.0


@dataclass(frozen=True)
class ZoneChosen(Event):
    """``player`` takes deployment area ``zone`` (0 or 1; III-A-1, III-A-3)."""

    kind = "zone_chosen"
    player: int
    zone: int


@dataclass(frozen=True)
class Deployed(Event):
    """A fighter is placed on the table (III-B-2)."""

    kind = "deployed"
    fighter: str
    x: float
    y: float
    facing: float


# --- fighter actions (IV-B-2, V, VI) -----------------------------------------------------


@dataclass(frozen=True)
class ActionAnnounced(Event):
    """An exclusive action is announced (IV-B-2) — or a cumulative one declared."""

    kind = "action_announced"
    fighter: str
    action: str
    target: str | None = None
    method: str | None = None
    shoot: bool = False


@dataclass(frozen=True)
class TestRolled(Event):
    """A characteristic test is over (II-A): its dice, final result and difficulty."""

    __test__ = False  # not a pytest class
    kind = "test_rolled"
    fighter: str
    purpose: str
    faces: tuple[int, ...]
    final: int
    difficulty: int
    success: bool


@dataclass(frozen=True)
class Moved(Event):
    """A fighter moves (V-B): his sight travels ``distance`` cm; the base ends at (x, y)."""

    kind = "moved"
    fighter: str
    action: str
    x: float
    y: float
    facing: float
    distance: float


@dataclass(frozen=True)
class Charged(Event):
    """A charge reaches its targets (V-B-3); ``penalised``: fighters who now suffer the
    charge penalties (the "charged" marker)."""

    kind = "charged"
    fighter: str
    targets: tuple[str, ...]
    distance: float
    penalised: tuple[str, ...] = ()


@dataclass(frozen=True)
class Engaged(Event):
    """An engagement reaches its targets (V-B-3)."""

    kind = "engaged"
    fighter: str
    targets: tuple[str, ...]
    distance: float


@dataclass(frozen=True)
class AssaultFellShort(Event):
    """The target was out of reach: the fighter moved his whole potential towards it
    (V-B-3)."""

    kind = "assault_fell_short"
    fighter: str
    target: str
    distance: float | None
    moved: float


@dataclass(frozen=True)
class AssaultRedirected(Event):
    """The target of an assault is gone (V-B-3): the fighter redirects (``to`` another
    target), stays (``to`` None, ``run`` False) or runs."""

    kind = "assault_redirected"
    fighter: str
    to: str | None
    run: bool = False
    left: float = 0.0


@dataclass(frozen=True)
class FightersRotated(Event):
    """A charger on a square base turns the fighters he charged (V-B-3)."""

    kind = "fighters_rotated"
    charger: str
    fighters: tuple[str, ...]


@dataclass(frozen=True)
class Disengaged(Event):
    """A disengagement succeeds (V-C)."""

    kind = "disengaged"
    fighter: str
    method: str


@dataclass(frozen=True)
class DisengageFailed(Event):
    """A disengagement fails: the Defense counter (V-C)."""

    kind = "disengage_failed"
    fighter: str
    method: str


@dataclass(frozen=True)
class TookCover(Event):
    """A fighter shot at before his activation announces a move under cover (VI-A-2)."""

    kind = "took_cover"
    fighter: str


@dataclass(frozen=True)
class ShotFired(Event):
    """A shot is taken (VI-A-3): distance, range band ("" for an assault shot), difficulty
    and how it adds up."""

    kind = "shot_fired"
    shooter: str
    target: str
    distance: float
    band: str
    difficulty: int
    explain: str
    unmoving: bool = False


@dataclass(frozen=True)
class ShotMissed(Event):
    """The shot fails: out of range (VI-A-1), a failed test, or not fired (VI-B-3)."""

    kind = "shot_missed"
    shooter: str
    target: str
    reason: str


@dataclass(frozen=True)
class ShotHit(Event):
    """The shot hits ``victim`` (VI-A-3); ``distribution``: the d6 of a shot into a melee
    (VI-B-1)."""

    kind = "shot_hit"
    shooter: str
    target: str
    victim: str
    distribution: int | None = None


@dataclass(frozen=True)
class Wounded(Event):
    """A wound roll is read (II-B-1): the dice, where, what; ``levels`` the fighter's wound
    levels after it. In close combat (VII-C-4 e) also the current ``strength`` and
    ``resistance``, the table ``row`` (highest die + STR - RES) and ``stunned`` after it."""

    kind = "wounded"
    fighter: str
    by: str
    dice: tuple[int, ...]
    location: str
    result: str
    levels: int
    strength: int | None = None
    resistance: int | None = None
    row: int | None = None
    stunned: bool = False


@dataclass(frozen=True)
class FighterKilled(Event):
    """A fighter is killed (II-B-2) and leaves the table."""

    kind = "fighter_killed"
    fighter: str
    by: str | None = None
    dice_lost: int = 0
    """Close combat: his combat dice still unused, lost at once (VII-C-4 e)."""


def event_to_data(event: Event) -> dict[str, Any]:
    """The event as JSON-ready data (with its ``kind``)."""
    data: dict[str, Any] = encode(event)
    return data


def event_from_data(data: dict[str, Any]) -> Event:
    """Rebuild an event from :func:`event_to_data`'s output."""
    event: Event = decode(Event, data)
    return event
