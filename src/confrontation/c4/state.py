"""The state of a C4 game: plain frozen dataclasses (``# C4 Units``, ``# C4 Playing a game``).

Build a game with :func:`new_game` (fighters and units already placed, players 0..n-1), then
play it through :mod:`confrontation.c4.step` (``start``, ``legal``, ``step``, ``run``).

- :class:`Fighter`: one miniature (position of its base centre and radius in cm, health,
  profile id, kind of fighter, Authority and abilities that the tactical phase reads, MOV).
  Eliminated fighters are removed from the state (``# C4 Damage``).
- :class:`Unit`: owner, card id, its fighters, leader, formation, enemy units it is engaged
  with, rout, activated this round. Its card in the decks is its ``id``.
- :class:`Side`: a player's cards for the round: ``sequence`` (not yet revealed; top first
  in the modes where the player orders it, sorted where no order exists), ``reserve``,
  ``reserve_used``, ``revealed``.
- :class:`Tactical` / :class:`Authority`: the tactical phase under way; :class:`Activation`:
  the activation phase under way (Marauder's shared ``deck``, the card ``drawn``, the unit
  being activated, the digits of a random draw).
- :class:`Pending`: the question the game waits for (``player`` None: a die, a chance step).

Shuffled decks hold no order: a card drawn from one is drawn at random when it is drawn
(``docs/rulings.md``, 002), so a state never holds a secret order nobody has seen.

Sections (docs/rules-index.toml): C4-PLAYING-A-GAME, C4-UNITS, C4-DAMAGE.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from confrontation.c4.choices import UnitAction
from confrontation.c4.modes import DEFAULT, Mode
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.state import SceneryPiece


class Phase(StrEnum):
    """``# C4 Playing a game``: the three phases of a round, and the end of the game."""

    TACTICAL = "tactical"
    ACTIVATION = "activation"
    CONTROL = "control"
    OVER = "over"


class Formation(StrEnum):
    """``# C4 Units > Unit formation``."""

    SCATTERED = "scattered"
    CLOSE = "close"


class Kind(StrEnum):
    """The kinds of question a C4 game asks (values are what records hold)."""

    SEQUENCE = "c4_sequence"
    """``# C4 Ordering the activation sequence``: the next card of a player's sequence."""
    AUTHORITY_DIE = "c4_authority_die"
    """``# C4 Authority Opposition``: a die of a player's Authority roll (chance)."""
    AUTHORITY_REROLL = "c4_authority_reroll"
    """``# C4 Authority Opposition``: re-roll the 6 and add, or keep the result."""
    AUTHORITY_REROLL_DIE = "c4_authority_reroll_die"
    """``# C4 Authority Opposition``: the re-rolled die (chance)."""
    CHOOSE_FIRST = "c4_choose_first"
    """``# C4 Authority Opposition``: the winner chooses the first active player."""
    TURN = "c4_turn"
    """``# C4 Drawing the Cards``: the active player draws, reveals, picks or reserves a card."""
    DRAW_DIE = "c4_draw_die"
    """``# C4 Drawing the Cards``: a die of a random draw from a shuffled deck (chance)."""
    DRAWN = "c4_drawn"
    """``# C4 Drawing the Cards > Marauder mode``: reveal one's own drawn card or reserve it."""
    UNIT_ACTION = "c4_unit_action"
    """``# C4 Activating Unit``: the activated unit's action."""
    ACTION_DIE = "c4_action_die"
    """``# C4 Unit Ranged Attack``, ``# C4 Combat``: a die of a salvo or a combat (chance)."""
    FLAG_DIE = "c4_flag_die"
    """CP-INCURSION-SPECIAL-RULES in a C4 battle: the die that removes a flag (chance)."""
    DOMINATE = "c4_dominate"
    """CP-DOMINATE in a C4 battle: the element a Commander who could dominate several
    dominates at this scoring (the player chooses)."""


@dataclass(frozen=True)
class Fighter:
    """One fighter (``# C4 Units``); ``kind``: standard, incarnate, mystic, standard_bearer,
    musician or specialist; ``authority`` only for Incarnates that have one."""

    id: str
    unit: str
    profile: str
    x: float
    y: float
    radius: float
    health: int
    max_health: int
    kind: str = "standard"
    mov: float = 10.0
    authority: int | None = None
    abilities: tuple[str, ...] = ()
    ranged: bool = False

    @property
    def incarnate(self) -> bool:
        return self.kind == "incarnate"

    @property
    def standard(self) -> bool:
        return self.kind == "standard"


@dataclass(frozen=True)
class Stats:
    """A reference profile's fighting characteristics (``# C4 Cards``), by profile ``id``
    (the fighters' ``profile``): INI, ATT dice and value, STR, DEF, RES; the ranged weapon
    (dice per marksman, Ranged attack value, Strength, reach in cm or None: the whole tape;
    ``ranged_dice`` 0: none); the melee weapons (name, Strength) a combat may choose; Courage
    or Fear (the assault's test and the rally, ``c4.morale``)."""

    id: str
    ini: int = 0
    att_dice: int = 1
    att: int = 0
    strength: int = 0
    defense: int = 0
    res: int = 0
    ranged_dice: int = 0
    ranged: int = 0
    ranged_strength: int = 0
    reach: float | None = None
    weapons: tuple[tuple[str, int], ...] = ()
    courage: int | None = field(default=None, metadata={"omit_default": True})
    """``# C4 Cards``: Courage (None: the card gives Fear instead, or nothing)."""
    fear: int | None = field(default=None, metadata={"omit_default": True})
    """``# C4 Cards``, note 1: Fear, in place of Courage (``c4.morale``)."""


@dataclass(frozen=True)
class Unit:
    """A unit (``# C4 Units``): its card is its ``id``; ``engaged`` lists enemy unit ids."""

    id: str
    owner: int
    card: str
    category: str
    fighters: tuple[str, ...]
    leader: str
    formation: Formation = Formation.SCATTERED
    engaged: tuple[str, ...] = ()
    rout: bool = False
    activated: bool = False
    facing: float = 90.0
    """The direction (degrees) its ranks face (close formation's ranks are read across it)."""


@dataclass(frozen=True)
class Side:
    """A player's cards this round (see the module docstring)."""

    player: int
    sequence: tuple[str, ...] = ()
    reserve: str | None = None
    reserve_used: bool = False
    revealed: tuple[str, ...] = ()

    @property
    def done(self) -> bool:
        """Every card of the player has been revealed (none left, none in reserve)."""
        return not self.sequence and self.reserve is None


@dataclass(frozen=True)
class Authority:
    """``# C4 Authority Opposition`` under way: ``contenders`` roll ``dice`` each; ``faces``
    are the first dice rolled so far, ``chains`` the kept die and its re-rolls (empty until
    every first die is rolled), ``stopped`` who kept his result, ``values`` what each adds
    (the Commander's Authority, 0 for the bare die)."""

    contenders: tuple[int, ...]
    dice: tuple[int, ...]
    values: tuple[int, ...]
    faces: tuple[tuple[int, ...], ...]
    chains: tuple[tuple[int, ...], ...] = ()
    stopped: tuple[bool, ...] = ()
    attempt: int = 1


@dataclass(frozen=True)
class Tactical:
    """The tactical phase under way: ``building`` each player's sequence placed so far (top
    first), ``built`` once every sequence is laid out, the opposition and its winner."""

    building: tuple[tuple[str, ...], ...]
    built: bool = False
    authority: Authority | None = None
    winner: int | None = None


@dataclass(frozen=True)
class Activation:
    """The activation phase under way.

    ``active``: the active player; ``drawer``: whose turn it is to draw (Marauder; in the other
    modes the same as ``active``); ``deck``: Marauder's shared deck (sorted: no order exists);
    ``drawn``: the drawer's own card drawn and not yet revealed or reserved; ``unit``: the
    unit being activated; ``draw``: what a random draw is for (``"reveal"``, ``"reserve"``)
    and ``digits`` its dice so far."""

    active: int
    drawer: int
    deck: tuple[str, ...] = ()
    drawn: str | None = None
    unit: str | None = None
    draw: str | None = None
    digits: tuple[int, ...] = ()
    doing: UnitAction | None = None
    stage: int = 0
    faces: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pending:
    """What the game waits for; ``player`` None: a die (chance step)."""

    kind: str
    player: int | None


@dataclass(frozen=True)
class Zone:
    """A place a C4 battle scores (``c4.battle``): ``kind`` "area" (chapter 20 / III-A-2, the
    player with more fighters of holding units in it), "zone" or "flag" (the control-point
    pack: one player holds it and no enemy contests it); ``outline`` its footprint in cm (a
    flag: its base); ``control`` / ``dominate`` the points each player scores for controlling
    it / dominating it with his Commander (0: nothing)."""

    name: str
    kind: str
    outline: tuple[tuple[float, float], ...]
    control: tuple[int, ...]
    dominate: tuple[int, ...] = ()
    side: int | None = field(default=None, metadata={"omit_default": True})
    """The player whose element it is (the pack's friendly/enemy zones; None: neutral)."""


@dataclass(frozen=True)
class Condition:
    """A chapter-20 victory condition played by C4 units (``c4.battle``): ``kind`` "area"
    (control ``area``), "commander-in-area" (the Commander wholly in ``area``),
    "commander-alive", "inflict-losses" (the enemy lost more A.P.); ``when`` "end" or
    "round" (at the end of any round, then met for good); ``players`` concerned (empty: all);
    ``vp`` scored."""

    id: str
    kind: str
    vp: int = 1
    when: str = "end"
    players: tuple[int, ...] = ()
    area: str = ""


@dataclass(frozen=True)
class Battle:
    """A scenario's mechanics in a C4 game (``c4.battle``; ``sim.c4scenario`` builds it from a
    scenario file). ``scoring`` "end": victory points for the zones controlled after the last
    round (III-A-2); "round": control points every control phase from round ``first``, ``win_at``
    CP and more than the opponent winning at once, ``kill_box`` (003). ``points``: each player's
    VP/CP so far."""

    name: str
    section: str
    scoring: str
    zones: tuple[Zone, ...]
    first: int = 1
    win_at: int = 0
    kill_box: bool = False
    points: tuple[int, ...] = (0, 0)
    tiebreak: str = field(default="none", metadata={"omit_default": True})
    """The pack's 3rd tiebreaker area: "none", "zones", "enemy-zones" or "flags"."""
    chiefs: tuple[str, ...] = field(default=(), metadata={"omit_default": True})
    """Each player's Commander at the start (a fighter id, "": none): chapter 20's designated
    Commander (XX-B-1); the pack's assassination victory needs every player to have had one."""
    worth: tuple[tuple[str, int], ...] = field(default=(), metadata={"omit_default": True})
    """Each fighter's army points (``fighter id``, A.P.: his card's cost per standard
    fighter, a special's own) for the losses and the pack's 3rd and 4th tiebreakers."""
    conditions: tuple[Condition, ...] = field(default=(), metadata={"omit_default": True})
    """A chapter-20 ``conditions`` scenario's victory conditions that fit units (scoring
    "conditions"; ``c4.battle``)."""
    met: tuple[tuple[str, int], ...] = field(default=(), metadata={"omit_default": True})
    """The ``round`` conditions met so far (condition id, player): once met, met (XX-A-4)."""
    remove_flag_after: int = field(default=0, metadata={"omit_default": True})
    """CP-INCURSION-SPECIAL-RULES: a flag removed at random in this round's control phase (0:
    none)."""
    removed: tuple[str, ...] = field(default=(), metadata={"omit_default": True})
    """The flags removed so far (Incursion)."""
    dominating: tuple[tuple[int, str], ...] = field(default=(), metadata={"omit_default": True})
    """The players' answers to :attr:`Kind.DOMINATE` at this control phase (player, zone);
    cleared once scored."""


EDGES = ("s", "n", "w", "e")
"""The battlefield's edges: y = 0, y = height, x = 0, x = width."""


@dataclass(frozen=True)
class C4State:
    """A whole C4 game (see the module docstring). ``first``: the first active player of the
    round; ``face_up``: the players of the side that lays its cards face up (Military genius);
    ``width``/``height``: the battlefield in cm."""

    mode: Mode
    players: int
    fighters: tuple[Fighter, ...]
    units: tuple[Unit, ...]
    sides: tuple[Side, ...]
    round: int = 1
    rounds: int = 6
    phase: Phase = Phase.TACTICAL
    tactical: Tactical | None = None
    activation: Activation | None = None
    first: int | None = None
    authority_winner: int | None = None
    pending: Pending | None = None
    seed: int = 0
    dice_rolled: int = 0
    width: float = 120.0
    height: float = 120.0
    face_up: tuple[int, ...] = (0,)
    profiles: tuple[Stats, ...] = ()
    battle: Battle | None = field(default=None, metadata={"omit_default": True})
    scenery: tuple[SceneryPiece, ...] = field(default=(), metadata={"omit_default": True})
    edges: tuple[str, ...] = field(default=(), metadata={"omit_default": True})
    """Each player's own battlefield edge, where he deployed: "s" (y = 0), "n" (y = height),
    "w" (x = 0) or "e" (x = width); empty (older records): inferred (``c4.morale``)."""

    # --- look-ups -----------------------------------------------------------------------

    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(f"no unit {unit_id!r}")

    def fighter(self, fighter_id: str) -> Fighter:
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        raise KeyError(f"no fighter {fighter_id!r}")

    def members(self, unit_id: str) -> tuple[Fighter, ...]:
        """The unit's fighters still on the battlefield, in the unit's order."""
        wanted = self.unit(unit_id).fighters
        by_id = {f.id: f for f in self.fighters if f.unit == unit_id}
        return tuple(by_id[i] for i in wanted if i in by_id)

    def stats(self, profile: str) -> Stats | None:
        """The fighting characteristics of ``profile`` (None: the game has none for it)."""
        for p in self.profiles:
            if p.id == profile:
                return p
        return None

    def units_of(self, player: int) -> tuple[Unit, ...]:
        """The player's units that still have fighters."""
        alive = {f.unit for f in self.fighters}
        return tuple(u for u in self.units if u.owner == player and u.id in alive)

    def left_of(self, player: int) -> int:
        """The player on the left (the next one round the table)."""
        return (player + 1) % self.players

    def with_unit(self, unit: Unit) -> C4State:
        return evolve(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def with_side(self, side: Side) -> C4State:
        return evolve(self, sides=tuple(side if s.player == side.player else s for s in self.sides))

    def with_fighters(self, fighters: dict[str, Fighter]) -> C4State:
        """The state with these fighters replaced (by id)."""
        return evolve(self, fighters=tuple(fighters.get(f.id, f) for f in self.fighters))


def new_game(
    fighters: tuple[Fighter, ...],
    units: tuple[Unit, ...],
    *,
    players: int = 2,
    mode: Mode | str = DEFAULT,
    rounds: int = 6,
    seed: int = 0,
    width: float = 120.0,
    height: float = 120.0,
    face_up: tuple[int, ...] = (0,),
    profiles: tuple[Stats, ...] = (),
    battle: Battle | None = None,
    scenery: tuple[SceneryPiece, ...] = (),
    edges: tuple[str, ...] = (),
) -> C4State:
    """A C4 game ready to start (``step.start``): deployed fighters, their units, the mode.

    Checks what the flow relies on: every unit's fighters exist and belong to it, its leader
    is one of them, owners are players, and (``# C4 Units``) an Incarnate leads his unit."""
    if players < 2:
        raise ValueError("a game needs two players or more")
    ids = [f.id for f in fighters]
    if len(set(ids)) != len(ids):
        raise ValueError("two fighters share an id")
    if len({u.id for u in units}) != len(units):
        raise ValueError("two units share an id")
    by_id = {f.id: f for f in fighters}
    for u in units:
        if not 0 <= u.owner < players:
            raise ValueError(f"unit {u.id}: owner {u.owner} is not a player")
        if not u.fighters:
            raise ValueError(f"unit {u.id} has no fighter")
        for fid in u.fighters:
            if fid not in by_id or by_id[fid].unit != u.id:
                raise ValueError(f"unit {u.id}: fighter {fid!r} is not one of its fighters")
        if u.leader not in u.fighters:
            raise ValueError(f"unit {u.id}: its leader {u.leader!r} is not in the unit")
        incarnates = [fid for fid in u.fighters if by_id[fid].incarnate]
        if incarnates and u.leader not in incarnates:  # C4 Units: Incarnates always lead
            raise ValueError(f"unit {u.id}: an Incarnate must lead it")
    for f in fighters:
        if f.unit not in {u.id for u in units}:
            raise ValueError(f"fighter {f.id}: no unit {f.unit!r}")
        if not 0 < f.health <= f.max_health:
            raise ValueError(f"fighter {f.id}: health must be within 1..{f.max_health}")
    if edges and (len(edges) != players or any(e not in EDGES for e in edges)):
        raise ValueError(f"edges: one of {', '.join(EDGES)} per player")
    if any(not 0 <= p < players for p in face_up):
        raise ValueError("face_up names a player who is not in the game")
    return C4State(
        mode=Mode(mode),
        players=players,
        fighters=fighters,
        units=units,
        sides=tuple(Side(p) for p in range(players)),
        rounds=rounds,
        seed=seed,
        width=width,
        height=height,
        face_up=face_up,
        profiles=profiles,
        battle=battle,
        scenery=scenery,
        edges=edges,
    )
