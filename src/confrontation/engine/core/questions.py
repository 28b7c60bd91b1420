"""Choices and the questions that offer them (ARCHITECTURE: "agents answer questions").

A :class:`Choice` is a small frozen record naming one legal answer; ``legal(state)`` lists
them and ``step(state, choice)`` applies one. A :class:`Question` is what a player is shown:
who must answer, what about, and the options with human-readable labels. The CLI, the
browser and the AI agents all use the same objects. A die to roll is a question for
"chance" (``player`` is None) whose options are the faces with their probabilities.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from confrontation.engine.core.codec import Tagged


@dataclass(frozen=True)
class Choice(Tagged):
    """Base of every answer to a question."""

    family_root = True


# --- chance -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DieFace(Choice):
    """The face a rolled d6 shows (the answer "chance" gives)."""

    kind = "die"
    face: int


# --- strategic phase (IV-A) ---------------------------------------------------------------


@dataclass(frozen=True)
class PlaceCard(Choice):
    """Put this card next in the activation sequence being built (top first, IV-A-1)."""

    kind = "place_card"
    card: str


@dataclass(frozen=True)
class TacticsFighter(Choice):
    """Roll the Tactics roll with this fighter (IV-A-2); None: no eligible fighter."""

    kind = "tactics_fighter"
    fighter: str | None


@dataclass(frozen=True)
class Raise(Choice):
    """Re-roll the 6 and add the new die (II-A-1)."""

    kind = "raise"


@dataclass(frozen=True)
class KeepResult(Choice):
    """Do not raise the 6: keep the result as it stands (II-A-1)."""

    kind = "keep"


@dataclass(frozen=True)
class ChooseFirst(Choice):
    """The Tactics winner names the player who speaks first (IV-B-1)."""

    kind = "choose_first"
    player: int


@dataclass(frozen=True)
class ChoosePlace(Choice):
    """With three players or more, each player in the order of his Tactics result takes a
    place still free in the speaking (or deployment) order: ``place`` 0 is first (XX-F-1,
    XX-F-3)."""

    kind = "choose_place"
    place: int


# --- activation phase (IV-B-1) -----------------------------------------------------------


@dataclass(frozen=True)
class PlayTop(Choice):
    """Draw and reveal the top card of the sequence and activate its fighters."""

    kind = "play_top"


@dataclass(frozen=True)
class PutInReserve(Choice):
    """Put the top card face down in reserve (once per phase)."""

    kind = "put_in_reserve"


@dataclass(frozen=True)
class PlayReserve(Choice):
    """Play the card in reserve instead of the top card."""

    kind = "play_reserve"


@dataclass(frozen=True)
class PlayReserveAndTop(Choice):
    """Play the card in reserve plus the top card of the sequence."""

    kind = "play_reserve_and_top"


@dataclass(frozen=True)
class Refuse(Choice):
    """Use a refusal: play no card and give the floor back."""

    kind = "refuse"


@dataclass(frozen=True)
class EndActivation(Choice):
    """The activated fighters take no further action; the activation ends (IV-B-2)."""

    kind = "end_activation"


# --- set-up and deployment (III-A, III-B) -------------------------------------------------


@dataclass(frozen=True)
class ChooseZone(Choice):
    """Take deployment area ``zone`` (0: ``deployment-1``, 1: ``deployment-2``; III-A-3)."""

    kind = "choose_zone"
    zone: int


@dataclass(frozen=True)
class PlaceScenery(Choice):
    """Place a standard scenery element of kind ``template`` (``data/scenery.toml``) with its
    centre at (x, y) cm, turned ``angle`` degrees (XX-A-2, III-A-3)."""

    kind = "place_scenery"
    template: str
    x: float
    y: float
    angle: float


@dataclass(frozen=True)
class Place(Choice):
    """Put the fighter's base with its centre at (x, y) cm, facing ``facing`` degrees: a
    deployment spot (III-B-2), the end of a move (V-B) or a place in contact (V-B-3)."""

    kind = "place"
    x: float
    y: float
    facing: float


# --- fighter actions (IV-B-2, V, VI) -------------------------------------------------------


@dataclass(frozen=True)
class Announce(Choice):
    """Announce an exclusive action (IV-B-2): run, charge, engage or cover (V-B); an assault
    names its ``target``, may start with a disengagement (``method``: "agility"/"force",
    V-C) and may include an assault shot (VI-B-3)."""

    kind = "announce"
    fighter: str
    action: str
    target: str | None = None
    method: str | None = None
    shoot: bool = False


@dataclass(frozen=True)
class AnnouncementsDone(Choice):
    """No more exclusive actions: resolve those announced (IV-B-2)."""

    kind = "announcements_done"


@dataclass(frozen=True)
class Walk(Choice):
    """The fighter walks (V-B-1), after disengaging by ``method`` if in contact (V-C)."""

    kind = "walk"
    fighter: str
    method: str | None = None


@dataclass(frozen=True)
class Shoot(Choice):
    """The fighter shoots at ``target`` (VI-A); ``still``: he will not move in this
    activation, for the unmoving shot (VI-B-2)."""

    kind = "shoot"
    fighter: str
    target: str
    still: bool = False


@dataclass(frozen=True)
class FighterDone(Choice):
    """The fighter playing his cumulative actions has finished (IV-B-2)."""

    kind = "fighter_done"
    fighter: str


@dataclass(frozen=True)
class TakeCover(Choice):
    """The target of a shot announces (or not) a move under cover (VI-A-2)."""

    kind = "take_cover"
    take: bool


@dataclass(frozen=True)
class RotateCharged(Choice):
    """Turn these charged fighters to face the charger (V-B-3); empty: turn nobody."""

    kind = "rotate_charged"
    fighters: tuple[str, ...]


@dataclass(frozen=True)
class Redirect(Choice):
    """After the target of an assault is gone (V-B-3): assault ``to`` another target, stay
    (``to`` None), or run with what is left (``run``)."""

    kind = "redirect"
    to: str | None = None
    run: bool = False


@dataclass(frozen=True)
class ChooseVictim(Choice):
    """Which of two equidistant friends a shot into a melee hits (VI-B-1)."""

    kind = "choose_victim"
    fighter: str


# --- questions ----------------------------------------------------------------------------

FREE_FACING = "facing"
"""``Question.free`` of a walk's, run's or move under cover's destination (V-B-1, V-B-2,
CLARIFICATIONS §9): a listed place turned about its sight to any facing in [0, 360); and of a
deployment (III-B-2, docs/rulings.md): a listed place turned about its centre."""


@dataclass(frozen=True)
class Option:
    """One legal answer as a person sees it."""

    choice: Choice
    label: str
    detail: str = ""
    probability: Fraction | None = None


@dataclass(frozen=True)
class Question:
    """What the engine asks: who answers (None = chance), about what, and the options.

    ``free`` (None: only the options) says which other answers ``step`` accepts — e.g.
    :data:`FREE_FACING`: any listed :class:`Place` turned about its sight to any angle
    (``engine.actions.movement.turned``). Agents may ignore it and pick an option; a person's
    front-end offers it (``engine.step.refusal`` checks an answer before it is given)."""

    kind: str
    player: int | None
    prompt: str
    options: tuple[Option, ...]
    free: str | None = None

    @property
    def choices(self) -> list[Choice]:
        """The legal choices, in the options' order."""
        return [option.choice for option in self.options]
