"""The combat phase's own part of the game state (IV-C, chapter VII), as plain data.

:class:`CombatProgress` is what ``GameState.combat`` holds while the combat phase runs:
the melees still to separate, the combats separated and not yet resolved, the Authority
roll's speaking order, the combat being resolved (:class:`Fight`) and the round's pursuit
bookkeeping. Every record is a frozen dataclass of strings, numbers and tuples (the engine's
JSON codec round-trips them); the combat arithmetic itself is :mod:`confrontation.rules.combat`,
whose :class:`~confrontation.rules.combat.CombatState` a :class:`Fight` carries.

Dice are rolled one at a time, as chance steps: :class:`DiceOnTable` is a test whose dice
arrive one by one (II-A, raises II-A-1, several dice II-A-2); :class:`Contest` an opposed
test (II-A-3) between the players (Discipline to separate a melee, Authority, initiative).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from confrontation.dice import PendingTest, RollOff, TestResult, standing
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.melee import Combat
from confrontation.rules.combat import CombatState, DefenceChoice


@dataclass(frozen=True)
class DiceOnTable:
    """A characteristic test rolled die by die (II-A).

    ``chains`` are the dice still in play, each a face and its raises (II-A-1); ``due`` the
    number of chains, counted from the end, still waiting for a face; ``faces`` every face
    rolled, in order; ``stopped`` once the player keeps a 6 rather than raising it.
    """

    value: int
    chains: tuple[tuple[int, ...], ...]
    due: int
    faces: tuple[int, ...] = ()
    raised: bool = False
    stopped: bool = False

    @classmethod
    def start(cls, value: int, dice: int = 1) -> DiceOnTable:
        """A test of a characteristic worth ``value`` with ``dice`` dice, none rolled yet."""
        if dice < 1:
            raise ValueError(f"a test rolls at least one die, not {dice}")
        return cls(value, ((),) * dice, dice)

    @property
    def awaiting(self) -> bool:
        """A die is due."""
        return self.due > 0

    def add(self, face: int) -> DiceOnTable:
        """The next due die shows ``face``."""
        if not self.awaiting:
            raise ValueError("no die is due")
        at = len(self.chains) - self.due
        chains = list(self.chains)
        chains[at] = (*chains[at], face)
        return evolve(self, chains=tuple(chains), due=self.due - 1, faces=(*self.faces, face))

    @property
    def may_raise(self) -> bool:
        """All dice are down, one shows a 6 and the player has not kept it (II-A-1)."""
        return not self.awaiting and not self.stopped and any(c[-1] == 6 for c in self.chains)

    def raise_sixes(self) -> DiceOnTable:
        """Re-roll every 6 and lose the other dice (II-A-1, II-A-2, CLARIFICATIONS §2)."""
        if not self.may_raise:
            raise ValueError("nothing to raise")
        kept = tuple(c for c in self.chains if c[-1] == 6)
        return evolve(self, chains=kept, due=len(kept), raised=True)

    def keep(self) -> DiceOnTable:
        """The player keeps his result."""
        return evolve(self, stopped=True)

    @property
    def done(self) -> bool:
        """No die is due and no raise remains to decide."""
        return not self.awaiting and not self.may_raise

    def result(self) -> TestResult:
        """The finished test (the best kept die, II-A-2)."""
        if self.awaiting:
            raise ValueError("dice are still due")
        return PendingTest(self.value, self.chains, self.faces, self.raised).stop()

    @property
    def final(self) -> int:
        """The final result as the dice stand (the value alone before any die)."""
        down = tuple(c for c in self.chains if c)
        if not down:
            return self.value
        return PendingTest(self.value, down, self.faces, self.raised).final


@dataclass(frozen=True)
class Hand:
    """One player's side of an opposed test: the fighter he names and his die."""

    player: int
    fighter: str | None = None
    value: int = 0
    roll: DiceOnTable | None = None

    @property
    def named(self) -> bool:
        return self.roll is not None

    @property
    def standing(self) -> int:
        """What the result is worth in the opposition (≤ 0 counts as 0, II-A-4)."""
        return standing(self.roll.final) if self.roll is not None else 0


@dataclass(frozen=True)
class Contest:
    """An opposed test (II-A-3) between the players: ``purpose`` is "split" (VII-A),
    "authority" (VII-B) or "initiative" (VII-C-2); ``ties`` counts the re-rolled ties.
    ``ranking``: with three or more sides (XX-F-5, XX-E-4), the groups of players already
    ordered by earlier rolls, best first; a group of several rolls again among themselves.
    ``rolloff``: sides showing a 6 with equal results, the roll-off ordering their decisions
    to raise (II-A-3, CLARIFICATIONS §9)."""

    purpose: str
    hands: tuple[Hand, ...]
    ties: int = 0
    ranking: tuple[tuple[int, ...], ...] = ()
    rolloff: RollOff | None = None

    def hand(self, player: int) -> Hand:
        return next(h for h in self.hands if h.player == player)

    def with_hand(self, hand: Hand) -> Contest:
        return evolve(self, hands=tuple(hand if h.player == hand.player else h for h in self.hands))


class AttackStage(StrEnum):
    """Where one attack stands (VII-C-4 b-e); the values are the record's."""

    DEFENCE = "defence"
    """b: the target announces his defence."""
    ATTACK = "attack"
    """c: the attack test."""
    DEFENCE_TEST = "defence-test"
    """d: the defence test."""
    WOUND = "wound"
    """e: the wound roll."""


class FightStage(StrEnum):
    """Where the combat being resolved stands (VII-C); the values are the record's."""

    ALLOCATE = "allocate"
    """VII-C-1: the combat dice allocated, fighter by fighter."""
    INITIATIVE = "initiative"
    """VII-C-2: the initiative test."""
    ATTACKS = "attacks"
    """VII-C-3: the weapon combats."""
    PURSUIT = "pursuit"
    """VII-C-6: the pursuits."""


@dataclass(frozen=True)
class AttackInProgress:
    """One attack, VII-C-4 a-e: ``stage`` is "defence" (b, the target's announcement),
    "attack" (c, the attack test), "defence-test" (d), "wound" (e)."""

    attacker: str
    target: str
    stage: AttackStage = AttackStage.DEFENCE
    defence: DefenceChoice | None = None
    attack_test: DiceOnTable | None = None
    defence_test: DiceOnTable | None = None
    wound: tuple[int, ...] = ()


@dataclass(frozen=True)
class Fight:
    """The combat being resolved (VII-C).

    ``stage``: "allocate" (VII-C-1, ``to_allocate`` in order), "initiative" (VII-C-2),
    "attacks" (VII-C-3, the side ``board.side_order[side]`` attacking; ``made`` its attacks
    in this weapon combat), "pursuit" (VII-C-6, ``pursuers`` still to decide). ``chooser``
    is the player who chose the combat (the allocation tie rule). ``draw``: the targets of a
    neutral fighter tied in the XX-E order, a d6 to choose among them (``engine.neutral``).
    """

    combat: Combat
    chooser: int
    board: CombatState
    stage: FightStage = FightStage.ALLOCATE
    to_allocate: tuple[str, ...] = ()
    side: int = 0
    made: tuple[tuple[str, str], ...] = ()
    attack: AttackInProgress | None = None
    pursuers: tuple[str, ...] = ()
    draw: tuple[str, ...] = ()


@dataclass(frozen=True)
class SceneryWork:
    """Attacks on elements of scenery during the combat phase (C3, CLARIFICATIONS §6).

    ``contacts``: (fighter, element) pairs in contact at the start of the phase (only they
    may attack); ``asked`` the fighters who have placed their scenery attacks; ``asking`` the
    fighter placing them now, with ``dice`` attack dice and ``in_fight`` when they are taken
    from his combat's attack dice; ``queue`` the attacks still to roll, one (fighter, element)
    per die; ``test`` the attack test on the table, ``hit`` once it succeeded, ``damage`` the
    damage dice rolled so far.
    """

    contacts: tuple[tuple[str, str], ...] = ()
    asked: tuple[str, ...] = ()
    asking: str | None = None
    dice: int = 0
    in_fight: bool = False
    queue: tuple[tuple[str, str], ...] = ()
    test: DiceOnTable | None = None
    hit: bool = False
    damage: tuple[int, ...] = ()

    @property
    def busy(self) -> bool:
        """A question or a die of a scenery attack is due."""
        return self.asking is not None or bool(self.queue)


@dataclass(frozen=True)
class CombatProgress:
    """The combat phase (IV-C, chapter VII) under way.

    ``melees``: melees still to separate, the first one now; ``splitter`` the player who
    separates it (set by the Discipline opposition, or the pursuer's player after a pursuit);
    ``combats`` the combats separated and not yet resolved; ``contest`` an opposed test on
    the table; ``speakers`` (Authority winner, other) once the Authority roll is made,
    ``opening`` the winner's combat, ``turn`` the speaking turn; ``fight`` the combat being
    resolved; ``fought`` every fighter who has fought this phase (in order, once each);
    ``pursued`` who has made his pursuit move this round; ``urgent`` pursuers whose new
    combat is resolved at once (VII-C-6 c); ``engaged`` contacts made by pursuit moves when
    no geometry places the fighters; ``scenery`` the attacks on scenery (C3).
    """

    started: bool = False
    melees: tuple[tuple[str, ...], ...] = ()
    splitter: int | None = None
    combats: tuple[Combat, ...] = ()
    contest: Contest | None = None
    speakers: tuple[int, ...] = ()
    opening: Combat | None = None
    turn: int = 0
    fight: Fight | None = None
    fought: tuple[str, ...] = ()
    pursued: tuple[str, ...] = ()
    urgent: tuple[str, ...] = ()
    engaged: tuple[tuple[str, str], ...] = ()
    scenery: SceneryWork = SceneryWork()
