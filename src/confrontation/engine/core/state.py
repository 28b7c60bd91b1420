"""The game state as plain data (ARCHITECTURE: "state is plain data").

Every record is a frozen dataclass made of numbers, strings, enums and tuples: a state
serialises to JSON losslessly (:func:`state_to_json` / :func:`state_from_json`), hashes (a
transposition table can key on it) and clones for free — a change builds a new top-level
record with :func:`dataclasses.replace` and shares every untouched tuple with its parent
(copy-on-write), which is what MCTS and what-if analysis need.

Only :func:`confrontation.engine.step.step` produces new states during a game.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from confrontation.dice import RollOff, chain_natural
from confrontation.engine.core.codec import Tagged, decode, encode
from confrontation.engine.core.combat_state import CombatProgress as CombatProgress
from confrontation.engine.core.frozen import evolve, kept

MAX_PLAYERS = 6
"""A game has 2 to 6 players (XX-F: three or more), numbered 0, 1, … inside the engine and
shown as "Player 1", "Player 2", …; ``GameState.players`` lists a game's."""

PLAYERS: tuple[int, int] = (0, 1)
"""The players of a two-player game (kept for callers that build two-player games)."""

_NUMBERED = tuple(tuple(range(n)) for n in range(MAX_PLAYERS + 1))
_FIRST_THEN_OTHERS = tuple(
    tuple((first, *(p for p in range(n) if p != first)) for first in range(n))
    for n in range(MAX_PLAYERS + 1)
)

FIELD_KEPT = "_field"
"""The name under which a :class:`GameState` keeps its battlefield (``field_of``), carried
over by ``evolve`` while the fighters, battleground and profiles are the same objects."""

NEUTRAL = MAX_PLAYERS
"""The side of the neutral fighters (XX-E): controlled by no player, their choices are made
by the rules (``engine.neutral``). They have no :class:`Side`, deck or score. Numbered after
every possible player so that a side number is never both."""

KILLED_LEVELS = 4
"""Four wound levels kill a fighter (II-B-2, II-B-3)."""


@dataclass(frozen=True)
class RulesetId:
    """The name of a game's rules and its options (``engine.core.ruleset``): ``confede`` by default.

    The state carries this name, not the rules themselves: :func:`.ruleset.rules_of` finds
    the rules value from it."""

    name: str = "confede"
    options: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.name}({extra})" if extra else self.name


CONFEDE = RulesetId()
"""The default rules: Confrontation / Conf'fédé as the project plays it."""


def player_name(player: int) -> str:
    """How a player is shown to people: ``0`` is "Player 1"; the neutral side is "Neutral"."""
    return "Neutral" if player == NEUTRAL else f"Player {player + 1}"


def opponent(player: int) -> int:
    """The other player."""
    return 1 - player


class Phase(enum.StrEnum):
    """Where the game is in its round (IV) — or that it is over. ``DEPLOYMENT`` is the set-up
    before round 1 (III-A, III-B); its strategic phase (III-B-1) runs as ``STRATEGIC`` with
    ``round == 0``."""

    DEPLOYMENT = "deployment"
    STRATEGIC = "strategic"
    ACTIVATION = "activation"
    COMBAT = "combat"
    MAINTENANCE = "maintenance"
    OVER = "over"


@dataclass(frozen=True)
class ProfileSummary:
    """What the engine reads of a reference card (I-C).

    A snapshot taken at set-up from the army lists: the state carries it so that ``step``
    needs nothing outside the state. ``abilities`` are written as on the card
    ("Alliance/Lions", "Mercenary", "Immortal/1"). ``size`` is the size class (I-B),
    ``size_value`` its number (small 1 … very large 4, Enormous/X 3 + X), ``power`` the Power
    of the size (I-C); ``aim``/``aim_str``/``ranges`` the shooting weapon (none: ``aim`` is
    None); ``target`` the X of Target/X; ``base`` the base shape; ``ap`` the strategic value (I-C).
    """

    id: str
    name: str
    people: str
    discipline: int
    abilities: tuple[str, ...] = ()
    mov: float = 10.0
    ini: int = 3
    att: int = 3
    strength: int = 3
    defense: int = 3
    res: int = 5
    aim: int | None = None
    aim_str: int | None = None
    ranges: tuple[float, ...] = ()
    size: str = "normal"
    size_value: int = 2
    power: int = 1
    base: str = "square"
    target: int = 0
    ap: int = 0

    @property
    def shooter(self) -> bool:
        """Has a ranged weapon (I-C: AIM, AIM STR and three ranges)."""
        return self.aim is not None and self.aim_str is not None and len(self.ranges) == 3


@dataclass(frozen=True)
class Fighter:
    """One miniature on (or off) the table.

    ``x``, ``y`` (cm, the centre of the base), ``facing`` (degrees) and ``altitude`` (level 0
    or 1) are plain numbers the geometry package interprets; ``on_table`` once deployed
    (III-B-2). ``wounds`` counts wound levels (II-B-3: 4 = killed). ``markers`` holds other
    round markers by name (e.g. "Target/+2").

    Round bookkeeping of chapters V and VI: ``walked`` (one walk per round, V-B-1), ``shots``
    this round (VI-B-2), ``attacked`` (charged or engaged in this activation phase, V-C),
    ``cover`` (moved under cover: Target/+2 until his next activation, V-B-4) and
    ``must_cover`` (announced a move to cover when shot at, VI-A-2). ``passive``: a passive
    individual of a scenario (XX-E-6), controlled by his ``player`` (the defender) but not of
    his army.
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
    on_table: bool = False
    walked: bool = False
    shots: int = 0
    attacked: bool = False
    cover: bool = False
    must_cover: bool = False
    passive: bool = field(default=False, metadata={"omit_default": True})
    summoned: bool = field(default=False, metadata={"omit_default": True})
    """Brought onto the table by a game effect (XX-B-3): worth his card's AP, and counts for
    victory conditions only if of his army's people (``scenarios.summoned``)."""
    placed: int = field(default=0, metadata={"omit_default": True})
    """The round in which a game effect put him on the battlefield (summoned, resurrected,
    'Reinforcement': XX-C-1); 0 for a fighter deployed before the battle."""

    @property
    def in_play(self) -> bool:
        """Alive and on the table: what the geometry sees."""
        return self.on_table and self.wounds < KILLED_LEVELS

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

    ``kind`` names the handler that knows the legal answers (see ``engine.core.registry``):
    a :class:`~.kinds.QuestionKind` for the built-in rules, any string for a plug-in's own
    kind (a member is a ``str``; a decoded state holds the plain string, equal to it).
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
    """The strategic phase (IV-A) under way: sequences being built, then the Tactics roll.

    ``rolloff``: Tactics dice showing a 6 with equal results, the roll-off that orders the
    decisions to raise (II-A-3, CLARIFICATIONS §9). With three players or more (XX-F):
    ``ranking`` the groups of players already ordered by earlier rolls (a tied group rolls
    again among themselves), ``order`` the players by decreasing Tactics result once settled
    (kept for the combat phase, XX-F-3, XX-F-5), ``places`` the (player, place) each took so
    far (XX-F-1, XX-F-3)."""

    building: tuple[tuple[str, ...], ...] = ((), ())
    to_place: tuple[tuple[str, ...], ...] = ((), ())
    hands: tuple[TacticsHand, ...] = (TacticsHand(), TacticsHand())
    attempts: int = 0
    winner: int | None = None
    rolloff: RollOff | None = None
    ranking: tuple[tuple[int, ...], ...] = field(default=(), metadata={"omit_default": True})
    order: tuple[int, ...] = field(default=(), metadata={"omit_default": True})
    places: tuple[tuple[int, int], ...] = field(default=(), metadata={"omit_default": True})


@dataclass(frozen=True)
class SceneryPiece:
    """A scenery element as plain data (III-A-3): its footprint's outline in cm, its height
    (a size class of ``bases.toml``), whether it can be crossed at all, and whether it is a
    scenario element (XX-A-2, XX-A-3) and, of those, an objective (``objective``, XX-C).
    ``structure_points`` (those left) and ``resistance``: an element that can be damaged (C3
    "Damaging elements of scenery"); None: Inalterable, the default (see
    ``engine.combat.scenery_attack``)."""

    name: str
    outline: tuple[tuple[float, float], ...]
    height: str = "normal"
    passable: bool = True
    scenario: bool = False
    structure_points: int | None = None
    resistance: int | None = None
    objective: bool = field(default=False, metadata={"omit_default": True})


@dataclass(frozen=True)
class Battleground:
    """The table (III-A-1), its scenery (III-A-3) and the deployment areas.

    ``split`` is "width" or "length" (line of battle, III-A-1), or with three players or more
    the name of the deployment layout (XX-F-1, ``engine.table.layouts``: "players-3"…) whose
    areas and centre the state carries in ``areas`` and ``centre``; ``zones[p]`` is the
    deployment area of player ``p`` (0: ``deployment-1``, 1: ``deployment-2``…), ``None``
    until chosen. While ``scenery`` is None the set-up lays it (XX-A-2): first the scenario's
    ``fixed`` elements, then ``scenery_count`` standard elements, at random (``placement``
    "random", III-A-3 ruling) or placed by the players in turn ("players").
    """

    width: float = 120.0
    height: float = 60.0
    split: str = "width"
    scenery: tuple[SceneryPiece, ...] | None = ()
    scenery_count: int = 0
    zones: tuple[int, ...] | None = (0, 1)
    areas: tuple[tuple[float, float, float, float], ...] = field(
        default=(), metadata={"omit_default": True}
    )
    """XX-F-1: the layout's deployment areas (x0, y0, x1, y1 in cm), area 1 first; empty: the
    two line-of-battle areas of ``split``."""
    centre: tuple[float, float, float] | None = field(default=None, metadata={"omit_default": True})
    """XX-F-1: the layout's centre (x, y, radius in cm), the scenarios' "centre" area."""
    destroyed: tuple[str, ...] = field(default=(), metadata={"omit_default": True})
    """C3: the elements of scenery destroyed so far (removed from ``scenery``), in order."""
    fixed: tuple[SceneryPiece, ...] = field(default=(), metadata={"omit_default": True})
    """XX-A-2: the scenario scenery set up first, where the scenario says."""
    placement: str = field(default="random", metadata={"omit_default": True})
    """XX-A-2: who lays the standard scenery: "random" (the engine's dice) or "players"."""
    clear: tuple[tuple[tuple[float, float], ...], ...] = field(
        default=(), metadata={"omit_default": True}
    )
    """XX-A-2 (docs/rulings.md): outlines the standard scenery keeps 6 cm from, as from any
    element — the scenario's objectives (wherever they may lie) and its tokens' places."""


@dataclass(frozen=True)
class ChargeRecord:
    """A charge that reached its targets (V-B-3), for the charge penalties of the round."""

    round: int
    charger: str
    power: int
    targets: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Announcement:
    """An exclusive action announced at the start of an activation (IV-B-2): ``action`` is a
    movement action id (run, charge, engage, cover), ``target`` the enemy of an assault,
    ``method`` a disengagement first (V-C: "agility" or "force"), ``shoot`` an assault shot
    (VI-B-3)."""

    fighter: str
    action: str
    target: str | None = None
    method: str | None = None
    shoot: bool = False


@dataclass(frozen=True)
class TestInProgress:
    """A characteristic test on the table (II-A): ``chain`` is the current die and its
    raises; ``awaiting`` while a die is due; ``stopped`` once the player keeps a 6."""

    purpose: str
    player: int
    value: int
    difficulty: int
    chain: tuple[int, ...] = ()
    awaiting: bool = True
    stopped: bool = False

    @property
    def natural(self) -> int:
        return chain_natural(self.chain) if self.chain else 0

    @property
    def final(self) -> int:
        return self.natural + self.value

    @property
    def may_raise(self) -> bool:
        return bool(self.chain) and self.chain[-1] == 6 and not self.awaiting and not self.stopped

    @property
    def success(self) -> bool:
        """II-A-3, II-A-4: at least the difficulty, and a final result above 0."""
        return self.final > 0 and self.final >= self.difficulty


class ActionStage(enum.StrEnum):
    """The next step of the fighter action under way (V, VI); the values are the record's."""

    DESTINATION = "destination"
    """V-B: where the mover goes (and, for an assault, the place of contact)."""
    DISENGAGE = "disengage"
    """V-C: the disengagement test."""
    CONTACT = "contact"
    """V-B-3: the place of contact with the target."""
    ROTATE = "rotate"
    """V-B-3: turning the charged fighters to face the charger."""
    REDIRECT = "redirect"
    """V-B-3: the target gone, another one or a run."""
    COVER = "cover"
    """VI-A: the target's cover reaction."""
    TEST = "test"
    """VI-A-1: the Shooting test."""
    DISTRIBUTION = "distribution"
    """VI-C: the shot into a melee, the distribution roll."""
    WOUND = "wound"
    """II-B: the wound roll."""
    DRAW = "draw"
    """XX-E: a d6 among the tied targets of a neutral fighter."""


class ActivationStage(enum.StrEnum):
    """Where an activation stands (IV-B-2); the values are the record's."""

    ANNOUNCE = "announce"
    """The exclusive actions are announced together."""
    SHOTS = "shots"
    """Their assault shots (VI-B-3)."""
    MOVES = "moves"
    """The exclusive actions resolved in turn."""
    CUMULATIVE = "cumulative"
    """The other fighters, one after the other."""


@dataclass(frozen=True)
class ActionInProgress:
    """The fighter action being resolved (V, VI) and where its resolution stands.

    Plain data shared by the movement and shooting modules: ``kind`` (walk, run, cover,
    charge, engage, shoot), ``stage`` (the next step), ``potential`` (cm left) and ``moved``
    (cm this movement covered before a redirected assault, V-B-3, counted towards MOV x 1
    for crossing landforms, V-A),
    the disengagement ``method``, the shot's ``target``/``difficulty``/``still``
    (unmoving, VI-B-2)/``assault``, the ``test`` on the table, the melee ``distribution``
    face and ``victim``, the ``wound`` dice so far.
    """

    kind: str
    fighter: str
    stage: ActionStage
    target: str | None = None
    potential: float = 0.0
    moved: float = 0.0
    method: str | None = None
    difficulty: int = 0
    still: bool = False
    assault: bool = False
    test: TestInProgress | None = None
    distribution: int | None = None
    victim: str | None = None
    wound: tuple[int, ...] = ()
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Activation:
    """The cards a player has just played and the fighters they activate (IV-B-2).

    ``stage``: "announce" (exclusive actions are announced together), "shots" (their
    assault shots, VI-B-3), "moves" (the exclusive actions resolved in turn), "cumulative"
    (the other fighters one after the other). ``exclusive`` are the announcements, ``index``
    the next one to resolve, ``acting`` the fighter playing his cumulative actions,
    ``moved`` the fighters who moved this activation, ``action`` the action under way.
    """

    player: int
    cards: tuple[str, ...]
    fighters: tuple[str, ...]
    done: tuple[str, ...] = ()
    stage: ActivationStage = ActivationStage.ANNOUNCE
    exclusive: tuple[Announcement, ...] = ()
    index: int = 0
    acting: str | None = None
    moved: tuple[str, ...] = ()
    still: tuple[str, ...] = ()
    action: ActionInProgress | None = None
    tethered: tuple[str, ...] = field(default=(), metadata={"omit_default": True})
    """XX-E-6: the passive individuals more than 15 cm from every defender when activated: they
    may not move in this activation."""


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
class DeploymentProgress:
    """The set-up under way (III-A, III-B, XX-A-2): ``step`` is "scenery", "mobile" (the
    scenario's set-up steps), "zones", "sequence", "drawing" or "done"; ``dice`` the faces
    rolled so far for the scenery layout (or for who places the first element);
    ``chooser`` who picks his deployment area (next)."""

    step: str = "scenery"
    dice: tuple[int, ...] = ()
    chooser: int | None = None
    taken: tuple[tuple[int, int], ...] = field(default=(), metadata={"omit_default": True})
    """With three players or more: the (player, area) chosen so far (docs/rulings.md XX-F-1)."""
    placed: tuple[SceneryPiece, ...] = field(default=(), metadata={"omit_default": True})
    """XX-A-2: the scenery set up so far (the scenario's first) while the players place theirs."""
    placer: int | None = field(default=None, metadata={"omit_default": True})
    """XX-A-2: the player who places the next standard element."""
    rolling: tuple[int, ...] = field(default=(), metadata={"omit_default": True})
    """XX-A-2: the players rolling (again, after a tie) for who places the first element;
    ``dice`` holds their faces so far."""


@dataclass(frozen=True)
class ScenarioRecord(Tagged):
    """The scenario being played (III-A-2, chapter XX), as plain data in the state.

    A family of records: the scenario package defines its members (each with a ``kind``)
    and the rules that read them (``engine.core.ending`` hooks); the engine only carries them.
    """

    family_root = True

    def card_value(self, card: str) -> int | None:
        """The strategic value of one fighter of ``card`` with his equipment (I-D-2), when the
        scenario knows it (None: his profile's AP)."""
        return None


@dataclass(frozen=True)
class GameState:
    """Everything about a game at one moment.

    ``seed`` and ``dice_rolled`` locate the game's die stream: a seeded roller for ``seed``
    that has thrown ``dice_rolled`` dice gives the next face. ``scenario`` is the scenario's
    record (None: no scenario), ``scores`` its victory points and ``winner`` who won once
    the game is over (None: a draw or undecided).
    """

    rounds: int
    seed: int
    round: int
    phase: Phase
    pending: Pending | None
    sides: tuple[Side, ...]
    profiles: tuple[ProfileSummary, ...]
    cards: tuple[Card, ...]
    fighters: tuple[Fighter, ...]
    scores: tuple[int, ...] = (0, 0)
    dice_rolled: int = 0
    first_speaker: int | None = None
    speaking: tuple[int, ...] = field(default=(), metadata={"omit_default": True})
    """With three players or more, the speaking order the places gave (XX-F-3; in the set-up,
    the deployment order, XX-F-1); empty with two players (``first_speaker`` says it)."""
    strategic: StrategicProgress | None = None
    activation: ActivationProgress | None = None
    combat: CombatProgress | None = None
    maintenance: MaintenanceProgress | None = None
    battleground: Battleground | None = None
    charges: tuple[ChargeRecord, ...] = ()
    deployment: DeploymentProgress | None = None
    scenario: ScenarioRecord | None = None
    winner: int | None = None
    rules: RulesetId = field(default=CONFEDE, metadata={"omit_default": True})
    """The rules the game is played with (left out of the JSON when they are the default)."""

    __evolve_keeps__: ClassVar[dict[str, str | tuple[str, ...]]] = {
        "_fighters_by_id": "fighters",
        "_cards_by_id": "cards",
        "_profiles_by_id": "profiles",
        FIELD_KEPT: ("fighters", "battleground", "profiles"),
    }
    """The look-up tables an ``evolve``'d copy keeps while their fields are left as they were;
    and the battlefield (``engine.table.field.field_of``), made only of the fighters, the
    battleground and the profiles: a step that moves nobody keeps it without a look-up."""

    @kept
    def scratch(self) -> dict[str, Any]:
        """A per-state cache for derived data (legal choices, geometry); never serialised."""
        return {}

    @kept
    def _fighters_by_id(self) -> dict[str, Fighter]:
        return {f.id: f for f in self.fighters}

    @kept
    def _cards_by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    @kept
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

    @property
    def players(self) -> tuple[int, ...]:
        """The game's players, 0 first (two to six, XX-F)."""
        return _NUMBERED[len(self.sides)]

    def enemies(self, player: int) -> tuple[int, ...]:
        """Every other player (the neutral side of XX-E is not one: it has no :class:`Side`)."""
        return tuple(p for p in range(len(self.sides)) if p != player)

    def speaking_order(self) -> tuple[int, ...]:
        """Who speaks in the activation phase, in turn (IV-B-1, XX-F-3): the first speaker,
        then the others (with three players or more, in the places they took)."""
        if self.speaking:
            return self.speaking
        first = self.first_speaker if self.first_speaker is not None else 0
        return _FIRST_THEN_OTHERS[len(self.sides)][first]

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
        """A copy with these fighters replaced (matched by id).

        The copy keeps the battlefield (:data:`FIELD_KEPT`) when no fighter replaced moved,
        turned, came, went or changed hands (:func:`same_place`): the field's key is made of
        nothing else."""
        by_id = {f.id: f for f in changed}
        fighters = tuple(by_id.get(f.id, f) for f in self.fighters)
        copy = evolve(self, fighters=fighters)
        here = self.__dict__.get(FIELD_KEPT)
        if here is not None:
            before = self._fighters_by_id
            if all(same_place(before.get(f.id), f) for f in changed):
                copy.__dict__[FIELD_KEPT] = here
        return copy

    def with_side(self, side: Side) -> GameState:
        """A copy with this player's side replaced."""
        sides = list(self.sides)
        sides[side.player] = side
        return evolve(self, sides=tuple(sides))


def same_place(before: Fighter | None, after: Fighter) -> bool:
    """Does ``after`` stand where ``before`` stood, as the battlefield sees him (in play or
    not, place, facing, level, side, profile)? False for a fighter not there before."""
    if before is None:
        return False
    if before is after:
        return True
    return (
        before.in_play == after.in_play
        and before.x == after.x
        and before.y == after.y
        and before.facing == after.facing
        and before.altitude == after.altitude
        and before.player == after.player
        and before.profile == after.profile
    )


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
