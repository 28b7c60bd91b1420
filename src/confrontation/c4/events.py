"""What happens in a C4 game, as events (members of the engine's ``Event`` family).

Inputs are the engine's own ``ChoiceMade`` and ``DieRolled`` (a C4 log replays like an
engine log); the rest are defined here and told in English by :mod:`.narrate`. Events are the
referee's record: they may name a card a player keeps secret (``SequenceBuilt``), the
narration for a player does not (``narrate.narrate(event, viewer)``).
"""

from __future__ import annotations

from dataclasses import dataclass

from confrontation.c4.state import C4State
from confrontation.engine.core.events import ChoiceMade, DieRolled, Event

__all__ = [
    "ActivationEnded",
    "AssaultFailed",
    "AuthorityAllOnes",
    "AuthorityLost",
    "AuthorityRerolled",
    "AuthorityRolled",
    "AuthorityTied",
    "AuthorityWon",
    "C4FlagRemoved",
    "C4GameEnded",
    "C4GameStarted",
    "C4KillBox",
    "C4PhaseStarted",
    "C4PointsScored",
    "C4RoundStarted",
    "CardDrawn",
    "CardHanded",
    "CardReserved",
    "CardRevealed",
    "ChoiceMade",
    "CombatResolved",
    "CourageTested",
    "DieRolled",
    "Disengaged",
    "Engaged",
    "Event",
    "FearIgnored",
    "FighterEliminated",
    "FighterWounded",
    "FirstActiveChosen",
    "FormationChanged",
    "LeaderReplaced",
    "MeleeDue",
    "OutOfFormation",
    "Rallied",
    "Routed",
    "SalvoDue",
    "SalvoResolved",
    "SequenceBuilt",
    "UnitActed",
    "UnitFled",
    "UnitGone",
    "UnitLeftBattlefield",
    "UnitMoved",
    "ZoneControlled",
]


@dataclass(frozen=True)
class C4GameStarted(Event):
    """The game begins from this state (the first line of a C4 record)."""

    kind = "c4_game_started"
    state: C4State


@dataclass(frozen=True)
class C4RoundStarted(Event):
    kind = "c4_round_started"
    round: int


@dataclass(frozen=True)
class C4PhaseStarted(Event):
    kind = "c4_phase_started"
    round: int
    phase: str


@dataclass(frozen=True)
class SequenceBuilt(Event):
    """A player's cards for the round are laid out (``cards`` top first; secret order)."""

    kind = "c4_sequence_built"
    player: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class AuthorityRolled(Event):
    """A player's first Authority dice; ``kept`` the best, ``value`` what he adds."""

    kind = "c4_authority_rolled"
    player: int
    faces: tuple[int, ...]
    kept: int
    value: int


@dataclass(frozen=True)
class AuthorityAllOnes(Event):
    """Every contender rolled a 1: they all roll again."""

    kind = "c4_authority_all_ones"
    players: tuple[int, ...]


@dataclass(frozen=True)
class AuthorityRerolled(Event):
    kind = "c4_authority_rerolled"
    player: int
    face: int
    total: int


@dataclass(frozen=True)
class AuthorityLost(Event):
    """A 1 (first die or re-roll): the player loses the opposition."""

    kind = "c4_authority_lost"
    player: int


@dataclass(frozen=True)
class AuthorityTied(Event):
    kind = "c4_authority_tied"
    players: tuple[int, ...]
    result: int


@dataclass(frozen=True)
class AuthorityWon(Event):
    kind = "c4_authority_won"
    player: int
    result: int


@dataclass(frozen=True)
class FirstActiveChosen(Event):
    kind = "c4_first_active"
    by: int
    player: int


@dataclass(frozen=True)
class CardDrawn(Event):
    """Marauder: ``player`` drew a card (not shown)."""

    kind = "c4_card_drawn"
    player: int


@dataclass(frozen=True)
class CardHanded(Event):
    """Marauder: the drawer revealed an enemy card and handed it to its owner."""

    kind = "c4_card_handed"
    drawer: int
    card: str
    owner: int


@dataclass(frozen=True)
class CardReserved(Event):
    """A card put in reserve, face down (not shown)."""

    kind = "c4_card_reserved"
    player: int


@dataclass(frozen=True)
class CardRevealed(Event):
    kind = "c4_card_revealed"
    player: int
    card: str
    from_reserve: bool = False


@dataclass(frozen=True)
class UnitGone(Event):
    """The revealed card's unit has no fighter left: nothing to activate."""

    kind = "c4_unit_gone"
    unit: str


@dataclass(frozen=True)
class UnitActed(Event):
    kind = "c4_unit_acted"
    unit: str
    action: str
    target: str | None = None


@dataclass(frozen=True)
class UnitMoved(Event):
    kind = "c4_unit_moved"
    unit: str
    dx: float
    dy: float


@dataclass(frozen=True)
class AssaultFailed(Event):
    kind = "c4_assault_failed"
    unit: str
    target: str
    distance: float


@dataclass(frozen=True)
class Engaged(Event):
    kind = "c4_engaged"
    unit: str
    target: str


@dataclass(frozen=True)
class SalvoDue(Event):
    """The seam: the unit shoots at ``target`` here (``actions.SHOOT`` resolves it)."""

    kind = "c4_salvo_due"
    unit: str
    target: str


@dataclass(frozen=True)
class MeleeDue(Event):
    """The seam: the unit's combats are resolved here (``actions.MELEE``)."""

    kind = "c4_melee_due"
    unit: str


@dataclass(frozen=True)
class FormationChanged(Event):
    """``# C4 Moving Miniatures``: the unit takes another formation."""

    kind = "c4_formation_changed"
    unit: str
    formation: str


@dataclass(frozen=True)
class OutOfFormation(Event):
    """``# C4 Units > Unit formation``: after a move the unit breaks its formation (the
    reasons, one line each); a walk or run never does, a successful assault may."""

    kind = "c4_out_of_formation"
    unit: str
    problems: tuple[str, ...]


@dataclass(frozen=True)
class LeaderReplaced(Event):
    """``# C4 Units``: the leader fell; the fighter who now leads."""

    kind = "c4_leader_replaced"
    unit: str
    fallen: str
    leader: str


@dataclass(frozen=True)
class FighterEliminated(Event):
    """``# C4 Damage``: a fighter lost his last health point and leaves the battlefield."""

    kind = "c4_fighter_eliminated"
    fighter: str
    unit: str


@dataclass(frozen=True)
class FighterWounded(Event):
    """``# C4 Damage``: a fighter lost health points and stays."""

    kind = "c4_fighter_wounded"
    fighter: str
    health: int


@dataclass(frozen=True)
class Disengaged(Event):
    """No fighter of the two units touches the other any more: they are free of each other."""

    kind = "c4_disengaged"
    unit: str
    other: str


@dataclass(frozen=True)
class SalvoResolved(Event):
    """``# C4 Unit Ranged Attack``: one salvo (a profile's marksmen) and what it did."""

    kind = "c4_salvo_resolved"
    unit: str
    target: str
    profile: str
    marksmen: int
    distance: float
    difficulty: int
    dice: int
    hits: int
    damage: int
    eliminated: tuple[str, ...]


@dataclass(frozen=True)
class CombatResolved(Event):
    """``# C4 Combat``: one combat, an attacker profile against a defender profile."""

    kind = "c4_combat_resolved"
    unit: str
    target: str
    attacker: str
    defender: str
    dice: int
    weapon: str | None
    hits: int
    damage: int
    eliminated: tuple[str, ...]


@dataclass(frozen=True)
class ActivationEnded(Event):
    kind = "c4_activation_ended"
    unit: str | None
    player: int


@dataclass(frozen=True)
class C4GameEnded(Event):
    """The game is over: ``scores`` per player, ``winner`` None for a draw."""

    kind = "c4_game_ended"
    reason: str
    scores: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True)
class ZoneControlled(Event):
    """A battle's zone at a scoring (``c4.battle``): ``player`` controls it (None: nobody,
    ``contested`` when several players hold it), ``dominated`` by his Commander, ``points``
    he scores for it."""

    kind = "c4_zone_controlled"
    round: int
    zone: str
    player: int | None
    points: int = 0
    dominated: bool = False
    contested: bool = False


@dataclass(frozen=True)
class C4KillBox(Event):
    """003 Kill Box: ``player``'s Commander ended the round within 35 cm of a table edge; his
    opponent gains ``points``."""

    kind = "c4_kill_box"
    round: int
    player: int
    points: int


@dataclass(frozen=True)
class C4PointsScored(Event):
    """A battle's scoring: each player's ``gains`` and ``totals`` (VP or CP, ``unit``)."""

    kind = "c4_points_scored"
    round: int
    gains: tuple[int, ...]
    totals: tuple[int, ...]
    unit: str = "VP"


@dataclass(frozen=True)
class CourageTested(Event):
    """``# C4 Universal table of resolution`` (Courage test: the best of ``faces``) for
    ``# C4 Moving a Unit > Assault`` (``purpose`` "assault", ``against`` the unit causing Fear)
    or a rally (``purpose`` "rally", ``c4.morale``). ``value`` Courage or Fear, ``minimum`` the
    face needed."""

    kind = "c4_courage_tested"
    unit: str
    purpose: str
    against: str | None
    value: int
    difficulty: int
    faces: tuple[int, ...]
    minimum: int
    success: bool


@dataclass(frozen=True)
class FearIgnored(Event):
    """``# C4 Cards``, note 1 (ruling): the unit's own Fear is at least ``fear``: no test."""

    kind = "c4_fear_ignored"
    unit: str
    against: str
    fear: int


@dataclass(frozen=True)
class Routed(Event):
    """``# C4 Moving a Unit > Assault``: the unit failed its test and is in rout; ``active``:
    it was the active unit (its activation ends where it stands)."""

    kind = "c4_routed"
    unit: str
    active: bool


@dataclass(frozen=True)
class UnitFled(Event):
    """A unit in rout flees (``c4.morale``): its leader moved by (dx, dy) cm."""

    kind = "c4_unit_fled"
    unit: str
    dx: float
    dy: float


@dataclass(frozen=True)
class UnitLeftBattlefield(Event):
    """A unit in rout flees off the battlefield: its ``fighters`` are removed."""

    kind = "c4_unit_left_battlefield"
    unit: str
    fighters: int


@dataclass(frozen=True)
class Rallied(Event):
    """A unit in rout passed its rally test: it is no longer in rout."""

    kind = "c4_rallied"
    unit: str


@dataclass(frozen=True)
class C4FlagRemoved(Event):
    """CP-INCURSION-SPECIAL-RULES: the flag ``flag`` taken off the table at random at the end of
    round ``round``."""

    kind = "c4_flag_removed"
    round: int
    flag: str
