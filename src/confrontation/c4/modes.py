"""The six game modes of the tactical phase, as data (``# C4 Tactical Phase > Ordering the
activation sequence``).

Each :class:`GameMode` says how the activation sequence is made and played; the flow
(:mod:`.tactical`, :mod:`.activation`) and the views (:mod:`.views`) read only these fields.
Call :func:`mode` with a name (``"marauder"``, the default) or :func:`mode_for_face` with the
face of a die ("The players can choose a random strategic challenge by rolling a die": the
modes are listed in increasing complexity, face 1 → Barbarian … face 6 → Military genius).

Sections (docs/rules-index.toml): C4-ORDERING-THE-ACTIVATION-SEQUENCE.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Mode(StrEnum):
    """The six game modes, in the document's order (increasing complexity)."""

    BARBARIAN = "barbarian"
    MARAUDER = "marauder"
    WARLORD = "warlord"
    GENERAL = "general"
    MASTER_STRATEGIST = "master-strategist"
    MILITARY_GENIUS = "military-genius"


class Order(StrEnum):
    """How a player's cards are ordered for the round."""

    # C4 Ordering the activation sequence > Barbarian: no sequence, the player picks any card in his
    # deck
    NONE = "none"
    # C4 Ordering the activation sequence > Marauder: every card shuffled into one deck
    SHARED_DECK = "shared-deck"
    # C4 Ordering the activation sequence > Warlord: each deck shuffled, nobody knows its order
    SHUFFLED = "shuffled"
    CHOSEN = "chosen"  # General, Master strategist, Military genius: the player orders it


class Faces(StrEnum):
    """Who sees a chosen sequence's order once it is laid out."""

    DOWN = "down"  # C4 Ordering the activation sequence > General: face down
    # C4 Ordering the activation sequence > Master strategist: face up (after building in secret)
    UP = "up"
    # C4 Ordering the activation sequence > Military genius: one side face up, the other face down
    ONE_SIDE_UP = "one-side-up"


class Reserve(StrEnum):
    """Which reserve rule the mode uses (``# C4 Activation Phase > Drawing the Cards``)."""

    NONE = "none"  # Barbarian
    # C4 Ordering the activation sequence > Marauder: a card one draws of one's own, once per round
    DRAWN = "drawn"
    SEQUENCE = "sequence"  # any other mode: the first card of the sequence, once per round


@dataclass(frozen=True)
class GameMode:
    """One game mode: its name, label, die face, ordering, faces and reserve rule."""

    mode: Mode
    label: str
    face: int
    order: Order
    faces: Faces
    reserve: Reserve
    summary: str

    @property
    def builds_sequence(self) -> bool:
        """The players order their cards in the tactical phase (a ``c4_sequence`` question)."""
        return self.order is Order.CHOSEN


MODES: tuple[GameMode, ...] = (
    GameMode(
        Mode.BARBARIAN,
        "Barbarian",
        1,
        Order.NONE,
        Faces.UP,
        Reserve.NONE,
        "No sequence: in turn, each player reveals the card of his choice.",
    ),
    GameMode(
        Mode.MARAUDER,
        "Marauder",
        2,
        Order.SHARED_DECK,
        Faces.DOWN,
        Reserve.DRAWN,
        "One shuffled deck; the drawer hands an enemy card to its owner or keeps his own"
        " (reserve once per round).",
    ),
    GameMode(
        Mode.WARLORD,
        "Warlord",
        3,
        Order.SHUFFLED,
        Faces.DOWN,
        Reserve.SEQUENCE,
        "Each player's deck shuffled face down: a random activation sequence.",
    ),
    GameMode(
        Mode.GENERAL,
        "General",
        4,
        Order.CHOSEN,
        Faces.DOWN,
        Reserve.SEQUENCE,
        "Each player orders his cards face down.",
    ),
    GameMode(
        Mode.MASTER_STRATEGIST,
        "Master strategist",
        5,
        Order.CHOSEN,
        Faces.UP,
        Reserve.SEQUENCE,
        "Sequences prepared in secret, then laid out face up.",
    ),
    GameMode(
        Mode.MILITARY_GENIUS,
        "Military genius",
        6,
        Order.CHOSEN,
        Faces.ONE_SIDE_UP,
        Reserve.SEQUENCE,
        "Sequences prepared in secret; one side lays its cards face up for the whole game,"
        " the other face down.",
    ),
)

DEFAULT = Mode.MARAUDER
"""``# C4 Tactical Phase > Ordering the activation sequence``: "Marauder" is the default mode."""

_BY_MODE = {m.mode: m for m in MODES}


def mode(name: str | Mode = DEFAULT) -> GameMode:
    """The game mode called ``name`` (a :class:`Mode` or its value); ValueError if none."""
    try:
        return _BY_MODE[Mode(name)]
    except ValueError:
        names = ", ".join(m.value for m in Mode)
        raise ValueError(f"unknown C4 game mode {name!r} (one of: {names})") from None


def mode_for_face(face: int) -> GameMode:
    """The mode a die picks: face 1 Barbarian … face 6 Military genius."""
    for m in MODES:
        if m.face == face:
            return m
    raise ValueError(f"a d6 face must be 1-6, not {face!r}")
