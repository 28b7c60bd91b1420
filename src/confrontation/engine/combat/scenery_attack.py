"""Attacking elements of scenery in the combat phase (C3 tournament rules, "Assault and combat
with elements of scenery"; CLARIFICATIONS §6 applies them in every ruleset).

Which elements can be damaged is data: ``data/scenery_structure.toml`` gives, per kind of
element, whether it is destructible and its structure points (SP) and RES; every other element
is Inalterable (C3 "Damaging elements of scenery"). :func:`structured` / :func:`with_structure`
put those values on the state's :class:`~.state.SceneryPiece` records (``structure_points``
are the points left, ``resistance`` the element's RES).

In the combat phase (hooks the combat phase calls, state in ``CombatProgress.scenery``):

- only a fighter in base contact with the element **at the beginning of the combat phase**
  may attack it, and not after a pursuit move (C3 "Elements of scenery and pursuit
  movement", C3-ELEMENTS-OF-SCENERY-AND-PURSUIT-MOVEMENT);
- elements are no fighters of the melees: the frays are split without them, and a fighter
  may attack an element he touches whatever was done to it before in the phase
  (C3-SPLITTING-FRAYS-INVOLVING-ELEMENTS-OF-SCENERY);
- a fighter in contact with enemies too fights his combat with his normal dice (scenery adds
  no die, C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY) and, when his dice are allocated, assigns
  attack dice to the element "at the same time" (``attack_scenery`` question, 0 … his attack
  dice); those attacks are rolled at once;
- a fighter in contact with no enemy has his normal combat dice, 2 (``combat_dice(0,
  scenery=True)``), once the fighters' combats are over (docs/rulings.md);
- each attack: the attack test is rolled (never an opposed test: scenery does not defend) and
  fails only on a final result ≤ 0; then a damage roll read on the Injury Table (highest die
  + STR − the element's RES; doubles are not exceptional, a 6-6 is read in the head column:
  :func:`~confrontation.rules.combat.read_scenery_damage`; C3-DAMAGING-ELEMENTS-OF-SCENERY),
  costing SP by the table of
  ``data/structure_points.toml`` (Stunned 0, Light 1, Serious 2, Critical 3, Killed 4);
- an element with no SP left is destroyed and removed from the battlefield (it no longer
  blocks moves or sight); destroying it grants no pursuit (it is no fighter of the combat).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

from confrontation.dice import FACES
from confrontation.engine.core.combat_state import CombatProgress, DiceOnTable, SceneryWork
from confrontation.engine.core.events import Event, TestRaised
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import Narrator
from confrontation.engine.core.questions import Choice, DieFace, KeepResult, Option, Question, Raise
from confrontation.engine.core.registry import EngineError, Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import GameState, Pending, SceneryPiece, player_name
from confrontation.engine.table.field import field_of, has_field, scenery_of
from confrontation.geometry.contact import CONTACT_TOLERANCE_CM
from confrontation.rules.characteristics import Characteristic, HealthState, current_value
from confrontation.rules.charge import charge_modifiers
from confrontation.rules.combat import (
    combat_dice,
    load_structure_points,
    read_scenery_damage,
)

C = Characteristic

__all__ = [
    "SCENERY_TARGET",
    "AttackScenery",
    "ElementKind",
    "SceneryAttackRolled",
    "SceneryAttacksAssigned",
    "SceneryDamaged",
    "SceneryDestroyed",
    "SceneryStructureError",
    "after_allocation",
    "at_start",
    "damage_element",
    "destructible",
    "drive",
    "element_of",
    "kind_of",
    "load_scenery_structure",
    "may_attack",
    "piece_named",
    "scenery_contacts",
    "standalone",
    "structured",
    "with_structure",
]


# ---------------------------------------------------------------------------------------------
# Data: which elements can be damaged
# ---------------------------------------------------------------------------------------------


class SceneryStructureError(ValueError):
    """A scenery-structure file is unreadable or malformed (names the file and the key)."""


@dataclass(frozen=True)
class ElementKind:
    """A kind of element: destructible or Inalterable, its starting SP and its RES."""

    name: str
    destructible: bool
    structure_points: int = 0
    resistance: int = 1


def _whole(value: object, source: str, key: str, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise SceneryStructureError(f"{source}: key '{key}': expected a whole number >= {least}")
    return value


def _parse(data: Mapping[str, Any], source: str) -> dict[str, ElementKind]:
    kinds = data.get("kinds")
    if not isinstance(kinds, dict) or set(data) != {"kinds"}:
        raise SceneryStructureError(f"{source}: expected exactly one [kinds] table")
    out: dict[str, ElementKind] = {}
    for name, entry in kinds.items():
        where = f"kinds.{name}"
        if not isinstance(entry, dict):
            raise SceneryStructureError(f"{source}: key '{where}': expected a table")
        extra = sorted(set(entry) - {"destructible", "structure_points", "resistance"})
        if extra:
            raise SceneryStructureError(f"{source}: unknown key '{where}.{extra[0]}'")
        flag = entry.get("destructible")
        if not isinstance(flag, bool):
            raise SceneryStructureError(
                f"{source}: key '{where}.destructible': expected true or false"
            )
        if not flag:
            out[name] = ElementKind(name, False)
            continue
        points = _whole(entry.get("structure_points"), source, f"{where}.structure_points", 1)
        res = _whole(entry.get("resistance"), source, f"{where}.resistance", 1)
        out[name] = ElementKind(name, True, points, res)
    return out


def load_scenery_structure(path: str | Path | None = None) -> dict[str, ElementKind]:
    """The kinds of elements (TOML); without ``path`` the bundled ``scenery_structure.toml``."""
    if path is None:
        return dict(_bundled())
    source = str(path)
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise SceneryStructureError(f"{source}: cannot read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise SceneryStructureError(f"{source}: not valid TOML ({error})") from None
    return _parse(data, source)


@cache
def _bundled() -> Mapping[str, ElementKind]:
    from confrontation.data import data_path

    text = data_path("scenery_structure.toml").read_text("utf-8")
    return _parse(tomllib.loads(text), "confrontation/data/scenery_structure.toml")


SCENERY_TARGET = "scenery:"
"""An announcement's target naming an element of scenery (``scenery:<name>``, C3 assaults)."""


def element_of(target: str | None) -> str | None:
    """The element an announcement's or action's target names, if it names one."""
    if target is not None and target.startswith(SCENERY_TARGET):
        return target[len(SCENERY_TARGET) :]
    return None


_NUMBERED = re.compile(r"^(.*)-\d+$")


def kind_of(name: str) -> str:
    """An element's kind: its name without a trailing ``-<number>``."""
    found = _NUMBERED.match(name)
    return found.group(1) if found else name


def structured(piece: SceneryPiece, kinds: Mapping[str, ElementKind] | None = None) -> SceneryPiece:
    """``piece`` with the SP and RES of its kind (by name, then by kind); an element already
    given structure points (by its scenario) keeps them; an unknown kind is Inalterable."""
    if piece.structure_points is not None:
        return piece
    table = kinds if kinds is not None else _bundled()
    kind = table.get(piece.name) or table.get(kind_of(piece.name))
    if kind is None or not kind.destructible:
        return piece
    return evolve(piece, structure_points=kind.structure_points, resistance=kind.resistance)


def with_structure(state: GameState, kinds: Mapping[str, ElementKind] | None = None) -> GameState:
    """The state with every scenery element :func:`structured`."""
    ground = state.battleground
    if ground is None or not ground.scenery:
        return state
    pieces = tuple(structured(p, kinds) for p in ground.scenery)
    return evolve(state, battleground=evolve(ground, scenery=pieces))


def destructible(piece: SceneryPiece) -> bool:
    """An element with structure points left (not Inalterable)."""
    return piece.structure_points is not None and piece.structure_points > 0


def piece_named(state: GameState, name: str) -> SceneryPiece | None:
    """The element of scenery called ``name`` still on the table, if any."""
    return _piece(state, name)


def _piece(state: GameState, name: str) -> SceneryPiece | None:
    ground = state.battleground
    for piece in (ground.scenery or ()) if ground is not None else ():
        if piece.name == name:
            return piece
    return None


def scenery_contacts(state: GameState) -> tuple[tuple[str, str], ...]:
    """(fighter, element) for every fighter in play in base contact with a destructible
    element (his base touches its footprint, II-E tolerance)."""
    if not has_field(state):
        return ()
    ground = state.battleground
    assert ground is not None
    pieces = [p for p in ground.scenery or () if destructible(p)]
    if not pieces:
        return ()
    here = field_of(state)
    shapes = [(p.name, scenery_of(p).footprint) for p in pieces]
    return tuple(
        (fighter, name)
        for fighter in sorted(here.ids())
        for name, shape in shapes
        if float(here.base(fighter).polygon.distance(shape)) <= CONTACT_TOLERANCE_CM
    )


# ---------------------------------------------------------------------------------------------
# Events and the question
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackScenery(Choice):
    """Attack these elements with these many dice each (C3); none: no attack."""

    kind = "attack_scenery"
    fighter: str
    attacks: tuple[tuple[str, int], ...] = ()

    @property
    def dice(self) -> int:
        return sum(n for _, n in self.attacks)


@dataclass(frozen=True)
class SceneryAttacksAssigned(Event):
    """C3: a fighter assigns attack dice to elements of scenery; ``in_fight`` when they are
    taken from his combat's attack dice."""

    kind = "scenery_attacks_assigned"
    fighter: str
    attacks: tuple[tuple[str, int], ...]
    in_fight: bool


@dataclass(frozen=True)
class SceneryAttackRolled(Event):
    """The attack test against an element (no defence; a final result ≤ 0 fails)."""

    kind = "scenery_attack_rolled"
    fighter: str
    element: str
    value: int
    faces: tuple[int, ...]
    natural: int
    final: int
    hit: bool


@dataclass(frozen=True)
class SceneryDamaged(Event):
    """The damage roll on an element: ``dice`` (lowest first), the attacker's STR, the
    element's RES, the table ``row`` and ``result``, SP ``lost`` and ``left``."""

    kind = "scenery_damaged"
    element: str
    fighter: str
    dice: tuple[int, int]
    strength: int
    resistance: int
    row: int
    result: str
    lost: int
    left: int


@dataclass(frozen=True)
class SceneryDestroyed(Event):
    """An element with no structure point left is removed from the battlefield."""

    kind = "scenery_destroyed"
    element: str
    fighter: str


# ---------------------------------------------------------------------------------------------
# Reading the state
# ---------------------------------------------------------------------------------------------


def _progress(state: GameState) -> CombatProgress:
    if state.combat is None:
        raise EngineError("the combat phase is not under way")
    return state.combat


def _work(state: GameState) -> SceneryWork:
    return _progress(state).scenery


def _set(state: GameState, **changes: Any) -> GameState:
    progress = _progress(state)
    work = evolve(progress.scenery, **changes)
    return evolve(state, combat=evolve(progress, scenery=work))


def _current(state: GameState, fighter_id: str, characteristic: Characteristic) -> int:
    """Current value (II-A-4): wounds (II-B-4) and the charge penalty (V-B-3)."""
    fighter = state.fighter(fighter_id)
    profile = state.profile(fighter.profile)
    reference = profile.att if characteristic is C.ATT else profile.strength
    health = HealthState(min(fighter.wounds, 4), fighter.stunned)
    mods = charge_modifiers(characteristic, fighter.charged)
    return current_value(characteristic, reference, mods, health)


def _name(state: GameState, fighter_id: str) -> str:
    return f"{state.profile(state.fighter(fighter_id).profile).name} ({fighter_id})"


def targets(state: GameState, fighter_id: str) -> tuple[str, ...]:
    """The elements ``fighter_id`` may still attack this phase: in contact with him since the
    start of the phase, still standing; none after a pursuit move or once he has placed his
    scenery attacks."""
    progress = _progress(state)
    work = progress.scenery
    fighter = state.fighter(fighter_id)
    if not fighter.in_play or fighter_id in progress.pursued or fighter_id in work.asked:
        return ()
    names = [e for f, e in work.contacts if f == fighter_id and may_attack(state, fighter_id, e)]
    return tuple(e for e in names if (p := _piece(state, e)) is not None and destructible(p))


def may_attack(state: GameState, fighter_id: str, element: str) -> bool:
    """Whether the scenario lets the fighter attack the element (the extension ``scenery`` /
    ``may-attack`` of the rules, e.g. the control-point pack's friendly objectives; none:
    yes)."""
    allowed = rules_of(state).extension("scenery", "may-attack")
    return True if allowed is None else bool(allowed(state, fighter_id, element))


# ---------------------------------------------------------------------------------------------
# Hooks the combat phase calls
# ---------------------------------------------------------------------------------------------


def at_start(state: GameState) -> GameState:
    """The beginning of the combat phase: who is in contact with which element."""
    contacts = scenery_contacts(state)
    return _set(state, contacts=contacts) if contacts else state


def after_allocation(state: GameState, fighter_id: str, attack_dice: int) -> GameState:
    """A fighter of a combat has allocated his dice: if he may attack scenery, he assigns
    some of his attack dice to it now ("at the same time" as his attacks on his enemies)."""
    if attack_dice < 1 or not _work(state).contacts or not targets(state, fighter_id):
        return state
    return _set(state, asking=fighter_id, dice=attack_dice, in_fight=True)


def standalone(state: GameState) -> GameState | None:
    """Once the fighters' combats are over: the next fighter who has not fought, in contact
    with an element, gets his normal combat dice against it (None: nobody left)."""
    progress = _progress(state)
    if not progress.scenery.contacts:
        return None
    for fighter_id in sorted({f for f, _ in progress.scenery.contacts}):
        if fighter_id in progress.fought or not targets(state, fighter_id):
            continue
        if state.fighter(fighter_id).passive:  # XX-E-6: every die in defence, none to strike
            continue
        return _set(state, asking=fighter_id, dice=combat_dice(0, scenery=True), in_fight=False)
    return None


def drive(state: GameState) -> Transition:
    """The scenery attack under way: the question, the attack test, the damage roll."""
    work = _work(state)
    if work.asking is not None:
        player = state.fighter(work.asking).player
        return evolve(state, pending=Pending(QuestionKind.ATTACK_SCENERY, player)), []
    fighter_id, element = work.queue[0]
    piece = _piece(state, element)
    if piece is None or not destructible(piece) or not state.fighter(fighter_id).alive:
        # The element is gone (or the attacker): the die is lost.
        return _next(state), []
    if work.test is None:
        test = DiceOnTable.start(_current(state, fighter_id, C.ATT))
        return _pending(_set(state, test=test), QuestionKind.SCENERY_ATTACK_DIE, None), []
    if work.test.awaiting:
        return _pending(state, QuestionKind.SCENERY_ATTACK_DIE, None), []
    if not work.hit:
        if work.test.may_raise and work.test.final <= 0:
            # Raising only matters while the result fails; a success is all the test gives.
            player = state.fighter(fighter_id).player
            return _pending(state, QuestionKind.SCENERY_ATTACK_RAISE, player), []
        result = work.test.result()
        hit = not result.automatic_failure
        event = SceneryAttackRolled(
            fighter_id, element, result.value, result.faces, result.natural, result.final, hit
        )
        if not hit:
            return _next(state), [event]
        return _set(state, hit=True), [event]
    if len(work.damage) < 2:
        return _pending(state, QuestionKind.SCENERY_DAMAGE_DIE, None), []
    return _damage(state, fighter_id, piece)


def _pending(state: GameState, kind: str, player: int | None) -> GameState:
    return evolve(state, pending=Pending(kind, player))


def _next(state: GameState) -> GameState:
    """The attack at the head of the queue is done."""
    return _set(state, queue=_work(state).queue[1:], test=None, hit=False, damage=())


def _damage(state: GameState, fighter_id: str, piece: SceneryPiece) -> Transition:
    """C3: the damage roll of an attack in the combat phase."""
    work = _work(state)
    strength = _current(state, fighter_id, C.STR)
    state, events = damage_element(state, fighter_id, piece, work.damage, strength)
    return _next(state), events


def damage_element(
    state: GameState,
    fighter_id: str,
    piece: SceneryPiece,
    dice: tuple[int, ...],
    strength: int,
) -> Transition:
    """C3 "Damaging elements of scenery": a damage roll of ``dice`` with ``strength`` read on
    the Injury Table against the element's RES, the SP lost (SP table), the element destroyed
    and removed at 0 SP (its name kept in ``Battleground.destroyed``, a scenario event)."""
    resistance = max(piece.resistance or 1, 1)
    roll = read_scenery_damage(dice, strength, resistance)
    lost = load_structure_points()(roll.result)
    before = piece.structure_points or 0
    left = max(before - lost, 0)
    events: list[Event] = [
        SceneryDamaged(
            piece.name,
            fighter_id,
            roll.kept,
            strength,
            resistance,
            roll.row,
            roll.result.key,
            min(lost, before),
            left,
        )
    ]
    ground = state.battleground
    assert ground is not None and ground.scenery is not None
    scenery = ground.scenery
    if left == 0:
        pieces = tuple(p for p in scenery if p.name != piece.name)
        ground = evolve(ground, destroyed=(*ground.destroyed, piece.name))
        events.append(SceneryDestroyed(piece.name, fighter_id))
    else:
        changed = evolve(piece, structure_points=left)
        pieces = tuple(changed if p.name == piece.name else p for p in scenery)
    return evolve(state, battleground=evolve(ground, scenery=pieces)), events


# ---------------------------------------------------------------------------------------------
# Handlers
# ---------------------------------------------------------------------------------------------


def _splits(elements: Sequence[str], dice: int) -> list[tuple[tuple[str, int], ...]]:
    """Every way to put at most ``dice`` dice on the elements (none on all: no attack)."""
    out = []
    for counts in product(range(dice + 1), repeat=len(elements)):
        if sum(counts) <= dice:
            out.append(tuple((e, n) for e, n in zip(elements, counts, strict=True) if n))
    return sorted(out, key=lambda a: (sum(n for _, n in a), a))


def _assign_legal(state: GameState) -> list[Choice]:
    work = _work(state)
    assert work.asking is not None
    return [AttackScenery(work.asking, a) for a in _splits(targets(state, work.asking), work.dice)]


def _assign_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, AttackScenery)
    work = _work(state)
    progress = _progress(state)
    if work.in_fight and choice.dice:
        # The dice are taken from his attack dice in the combat (used: rolled at once).
        fight = progress.fight
        assert fight is not None
        combatant = fight.board.fighter(choice.fighter)
        combatant = evolve(
            combatant,
            attack_left=combatant.attack_left - choice.dice,
            used=combatant.used + choice.dice,
        )
        fight = evolve(fight, board=fight.board.replaced(combatant))
        state = evolve(state, combat=evolve(progress, fight=fight))
    queue = tuple((choice.fighter, e) for e, n in choice.attacks for _ in range(n))
    state = _set(
        state,
        asking=None,
        dice=0,
        asked=(*work.asked, choice.fighter),
        queue=work.queue + queue,
    )
    if not choice.dice:
        return state, []
    return state, [SceneryAttacksAssigned(choice.fighter, choice.attacks, work.in_fight)]


def _assign_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    work = _work(state)
    assert work.asking is not None
    player = state.fighter(work.asking).player
    options = []
    for c in choices:
        assert isinstance(c, AttackScenery)
        if not c.attacks:
            options.append(Option(c, "do not attack the scenery"))
            continue
        label = "; ".join(f"{n} {'die' if n == 1 else 'dice'} on {e}" for e, n in c.attacks)
        details = []
        for e, _ in c.attacks:
            piece = _piece(state, e)
            if piece is not None:
                details.append(f"{e}: {piece.structure_points} SP, RES {piece.resistance}")
        options.append(Option(c, label, "; ".join(details)))
    where = "of his combat's attack dice" if work.in_fight else "combat dice"
    prompt = (
        f"{player_name(player)}: {_name(state, work.asking)} is in contact with scenery; "
        f"how many of his {work.dice} {where} against it (C3)?"
    )
    return Question(QuestionKind.ATTACK_SCENERY, player, prompt, tuple(options))


def _faces(state: GameState) -> list[Choice]:
    return [DieFace(face) for face in FACES]


def _attack_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    test = _work(state).test
    assert test is not None
    return _set(state, test=test.add(choice.face)), []


def _damage_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    return _set(state, damage=(*_work(state).damage, choice.face)), []


def _raise_legal(state: GameState) -> list[Choice]:
    return [Raise(), KeepResult()]


def _raise_apply(state: GameState, choice: Choice) -> Transition:
    work = _work(state)
    assert work.test is not None
    if isinstance(choice, Raise):
        fighter = state.fighter(work.queue[0][0])
        return _set(state, test=work.test.raise_sixes()), [TestRaised(fighter.player, "attack")]
    return _set(state, test=work.test.keep()), []


def _attacker(state: GameState) -> int | None:
    return state.fighter(_work(state).queue[0][0]).player


def _die_describe(what: str) -> Any:
    def describe(state: GameState, choices: Sequence[Choice]) -> Question:
        fighter, element = _work(state).queue[0]
        options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
        kind = (
            QuestionKind.SCENERY_ATTACK_DIE
            if what == "attack test"
            else QuestionKind.SCENERY_DAMAGE_DIE
        )
        return Question(kind, None, f"{what} of {_name(state, fighter)} on {element}", options)

    return describe


def _raise_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    work = _work(state)
    assert work.test is not None
    fighter, element = work.queue[0]
    player = state.fighter(fighter).player
    prompt = (
        f"{player_name(player)}: the attack test of {_name(state, fighter)} on {element} shows "
        f"a 6 but fails ({work.test.final}; a final result of 1 is enough). Raise?"
    )
    options = (
        Option(Raise(), "raise", "roll the 6 again and add it; a 1 makes the natural result 1"),
        Option(KeepResult(), "keep", f"keep {work.test.final}: the attack fails"),
    )
    return Question(QuestionKind.SCENERY_ATTACK_RAISE, player, prompt, options)


# ---------------------------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------------------------

_RESULTS = {
    "none": "no effect",
    "stunned": "stunned: no effect",
    "light": "light wound",
    "serious": "serious wound",
    "critical": "critical wound",
    "killed": "killed outright",
}


def _tell(n: Narrator, event: Event) -> str | None:
    match event:
        case SceneryAttacksAssigned(fighter=fighter, attacks=attacks):
            what = ", ".join(f"{k} {'die' if k == 1 else 'dice'} on {e}" for e, k in attacks)
            return f"{n.fighter(fighter)} attacks the scenery: {what}."
        case SceneryAttackRolled(
            fighter=fighter, element=element, faces=faces, value=value, final=final, hit=hit
        ):
            shown = " + ".join(str(f) for f in faces)
            outcome = "hits" if hit else "fails (a final result of 1 was needed)"
            return (
                f"{n.fighter(fighter)} attacks {element}: {shown} + {value} = {final}, {outcome}."
            )
        case SceneryDamaged(
            element=element,
            dice=dice,
            strength=strength,
            resistance=resistance,
            row=row,
            result=result,
            lost=lost,
            left=left,
        ):
            return (
                f"Damage roll on {element}: {dice[0]} and {dice[1]}, {max(dice)} + {strength} "
                f"- {resistance} = {row}: {_RESULTS.get(result, result)}, {lost} SP lost, "
                f"{left} left."
            )
        case SceneryDestroyed(element=element, fighter=fighter):
            return f"{element} is destroyed by {n.fighter(fighter)} and removed from the table."
    return None


def contribute(rules: RulesBuilder) -> None:
    """Attacks on scenery: questions and narration."""
    for handler in (
        Handler(QuestionKind.ATTACK_SCENERY, _assign_legal, _assign_apply, _assign_describe),
        Handler(
            QuestionKind.SCENERY_ATTACK_DIE,
            _faces,
            _attack_die_apply,
            _die_describe("attack test"),
            subject=_attacker,
        ),
        Handler(QuestionKind.SCENERY_ATTACK_RAISE, _raise_legal, _raise_apply, _raise_describe),
        Handler(
            QuestionKind.SCENERY_DAMAGE_DIE,
            _faces,
            _damage_die_apply,
            _die_describe("damage roll"),
            subject=_attacker,
        ),
    ):
        rules.handler(handler)
    for kind in (SceneryAttacksAssigned, SceneryAttackRolled, SceneryDamaged, SceneryDestroyed):
        rules.sentence(kind.kind, _tell)
