"""Tokens on the battlefield (XX-D "Prise de guerre"; the C3 variant "Looting", C3-LOOTING).

"Certaines missions impliquent la présence sur le champ de bataille de marqueurs dont les
combattants doivent s'emparer." The tokens are plain data in the scenario's record
(:class:`~.loot.Loot`, placed by the scenario file's ``tokens``); this module holds the rules
that move them, plugged into the engine through its seams (``engine.core.hooks``):

- **Picking up (XX-D-1, C3-COLLECTING-A-TOKEN).** A fighter who ends a move (a walk, run,
  move under cover, charge or engagement of his activation, or a pursuit move) with tokens
  under his base may pick up as many as his Carry/X leaves room for; they go on his base and
  the move is over. Never while moving with Infiltration/X, never routed, a summoned fighter
  only if of the army's people, never from another level. Chapter 20: one who cannot or will
  not pick them up may still end his move there — the tokens are moved to a side of his
  base; the player is asked (``token_pickup``). C3: one who can collects at once; one who
  cannot may not end his move on a token (the destinations on one are not offered): the
  ``c3`` rules' variant switch ``looting`` (``scenarios.c3``).
- **Carrying (XX-D-2, C3-CARRYING-A-TOKEN).** At most Carry/X tokens; a hidden scout who
  carries is revealed. The other restrictions — never leaving level 0, never faster than
  MOV x 2, never a higher MOV, never a second move in a phase, no Flight — hold by
  construction: no effect of the engine changes a fighter's level, MOV or number of moves
  (docs/rulings.md "XX-D-2").
- **Putting down (XX-D-3, C3-DROPPING-A-TOKEN).** In the maintenance phase each player with
  carriers is asked which of them put tokens down (``token_drop``); a routed carrier drops
  his at once, in contact with his base; a carrier killed or removed from the table drops
  his where he stood. Tokens put down together are a stack; they may be picked up again
  unless the scenario says otherwise (``pick_up_again = false``).

The candidate destinations of a move include one on each stack of tokens the mover may pick
up (``move-goals``), so that players and agents can go for them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from confrontation.engine.actions.shared import finish
from confrontation.engine.core.events import Event
from confrontation.engine.core.hooks import MOVE_END, MOVE_GOALS, MOVE_SPOT, REACTION
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import Narrator
from confrontation.engine.core.questions import Choice, Option, Question
from confrontation.engine.core.registry import EngineError, Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import (
    NEUTRAL,
    Fighter,
    GameState,
    Pending,
    Phase,
    player_name,
)
from confrontation.engine.table.field import base_of, deployment_zone, field_of, has_field
from confrontation.geometry.bases import Base
from confrontation.scenarios.base import BasicScenario
from confrontation.scenarios.c3 import variant
from confrontation.scenarios.conditions import BONUS, CONDITION, ConditionKind
from confrontation.scenarios.control import geometry, present, scenario_of
from confrontation.scenarios.loot import Loot, Token
from confrontation.scenarios.summoned import counts_for_victory

TOKEN_PICKUP = QuestionKind.TOKEN_PICKUP
"""XX-D-1 (chapter 20): does the fighter pick up the tokens he ended his move on?"""
TOKEN_DROP = QuestionKind.TOKEN_DROP
"""XX-D-3: which carrier puts tokens down in the maintenance phase?"""

LOOTING = "looting"
"""The variant switch (``scenarios.c3``) of the text applied where chapter 20 and C3 differ:
off, chapter 20; ``c3``: a fighter who can collect a token does so, one who cannot may not end
his move on it."""

MAINTENANCE_STEP = "various_effects"
"""The maintenance step (IV-D-3 4) in which carriers may put tokens down (XX-D-3)."""

GAP_CM = 1.0
"""How far from a base's edge the centre of a token put down "in contact" with it lies
(XX-D-3), or of one moved to a side of it (XX-D-1): a token is about 2 cm across
(docs/rulings.md "XX-D-1")."""


# --- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TokensPicked(Event):
    """XX-D-1: ``fighter`` picks up ``tokens`` at the end of his move (``how``: the action,
    or "pursuit"); ``revealed``: he was a hidden scout and is revealed (XX-D-2)."""

    kind = "tokens_picked"
    fighter: str
    tokens: tuple[str, ...]
    how: str
    revealed: bool = False


@dataclass(frozen=True)
class TokensMovedAside(Event):
    """XX-D-1: ``fighter`` ends his move on ``tokens`` he does not pick up: they are moved to
    a side of his base, at (``x``, ``y``)."""

    kind = "tokens_moved_aside"
    fighter: str
    tokens: tuple[str, ...]
    x: float
    y: float


@dataclass(frozen=True)
class TokensDropped(Event):
    """XX-D-3: ``fighter`` puts ``tokens`` down at (``x``, ``y``), stacked; ``why``:
    ``maintenance`` (by choice), ``routed``, ``killed`` or ``removed`` (off the table)."""

    kind = "tokens_dropped"
    fighter: str
    tokens: tuple[str, ...]
    x: float
    y: float
    why: str


@dataclass(frozen=True)
class CarrierRevealed(Event):
    """XX-D-2: a hidden scout who carries a token is revealed."""

    kind = "carrier_revealed"
    fighter: str


# --- choices -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PickUp(Choice):
    """XX-D-1: ``fighter`` picks up ``count`` of the tokens under his base (0: none, they are
    moved aside)."""

    kind = "pick_up"
    fighter: str
    count: int


@dataclass(frozen=True)
class PutDown(Choice):
    """XX-D-3: ``fighter`` puts ``count`` of his tokens down; None: nobody (more)."""

    kind = "put_down"
    fighter: str | None = None
    count: int = 0


# --- reading the state ---------------------------------------------------------------------


def loot_of(state: GameState) -> Loot | None:
    """The game's tokens (None: the scenario has none)."""
    scenario = scenario_of(state)
    return None if scenario is None else scenario.loot


def with_loot(state: GameState, loot: Loot) -> GameState:
    """``state`` with its tokens replaced."""
    scenario = scenario_of(state)
    assert scenario is not None
    return dataclasses.replace(state, scenario=dataclasses.replace(scenario, loot=loot))


def carried(loot: Loot, fighter: str) -> tuple[Token, ...]:
    """The tokens ``fighter`` carries."""
    return tuple(t for t in loot.tokens if t.carrier == fighter)


def carriers(loot: Loot) -> tuple[str, ...]:
    """The fighters who carry tokens, in the order of their first token."""
    return tuple(dict.fromkeys(t.carrier for t in loot.tokens if t.carrier is not None))


def on_ground(loot: Loot) -> tuple[Token, ...]:
    """The tokens nobody carries."""
    return tuple(t for t in loot.tokens if t.carrier is None)


def collectable(loot: Loot, token: Token) -> bool:
    """On the ground and not a dropped token the scenario forbids picking up (XX-D-3)."""
    return token.carrier is None and (loot.again or not token.dropped)


def under(base: Base, tokens: Sequence[Token]) -> list[Token]:
    """The tokens lying under ``base`` (a token is a point: its centre, docs/rulings.md)."""
    reach = max(base.width, base.depth)
    near = [t for t in tokens if abs(t.x - base.x) <= reach and abs(t.y - base.y) <= reach]
    if not near:
        return []
    shape = base.polygon.buffer(1e-6)
    return [t for t in near if shape.covers(Point(t.x, t.y))]


def c3_looting(state: GameState) -> bool:
    """The game's rules apply the C3 wording where it differs from chapter 20."""
    return variant(state, LOOTING) == "c3"


def cannot_collect(state: GameState, fighter: Fighter, how: str = "") -> str | None:
    """Why ``fighter`` may not pick up a token at the end of a move made with ``how``
    (None: he may, room allowing)."""
    if fighter.player == NEUTRAL:
        return "a neutral fighter never picks up a token"  # docs/rulings.md "XX-D-1"
    if not fighter.in_play:
        return "not on the table"
    if how == "infiltration":  # XX-D-1
        return "no token is picked up with Infiltration/X"
    if fighter.routed:  # XX-D-1, C3 Looting
        return "a routed fighter never picks up a token"
    if not counts_for_victory(state, fighter):  # XX-D-1, XX-B-3: unless of the army's people
        return "a summoned fighter of another people never picks up a token"
    if fighter.altitude != 0:  # XX-D-1: tokens lie at level 0
        return "not at the tokens' level"
    return None


def room(state: GameState, loot: Loot, fighter: str) -> int:
    """How many more tokens ``fighter`` may carry (XX-D-2: Carry/X)."""
    return max(loot.carry - len(carried(loot, fighter)), 0)


def drawn(state: GameState) -> tuple[list[tuple[float, float, int]], dict[str, int]]:
    """What a picture of the table shows (XX-D): the stacks on the ground (x, y, how many)
    and how many tokens each fighter carries."""
    loot = loot_of(state)
    if loot is None:
        return [], {}
    stacks: dict[tuple[float, float], int] = {}
    for t in on_ground(loot):
        stacks[(t.x, t.y)] = stacks.get((t.x, t.y), 0) + 1
    held = {f: len(carried(loot, f)) for f in carriers(loot)}
    return [(x, y, n) for (x, y), n in stacks.items()], held


# --- where tokens are put ----------------------------------------------------------------------


def beside(state: GameState, base: Base) -> tuple[float, float]:
    """A point of the ground in contact with ``base`` (XX-D-3), or on a side of it (XX-D-1):
    behind it, else on its left, its right, in front — the first on the table and under no
    other base; behind it when none is (the nearest to contact)."""
    a = math.radians(base.facing)
    ux, uy = math.cos(a), math.sin(a)
    back, side = base.depth / 2.0 + GAP_CM, base.width / 2.0 + GAP_CM
    candidates = [
        (base.x - ux * back, base.y - uy * back),
        (base.x - uy * side, base.y + ux * side),
        (base.x + uy * side, base.y - ux * side),
        (base.x + ux * back, base.y + uy * back),
    ]
    ground = state.battleground
    bases = []
    if has_field(state):
        here = field_of(state)
        bases = [here.base(i) for i in here.ids()]
    for x, y in candidates:
        if ground is not None and not (0.0 <= x <= ground.width and 0.0 <= y <= ground.height):
            continue
        point = Point(x, y)
        if any(b.polygon.covers(point) for b in bases):
            continue
        return round(x, 2), round(y, 2)
    x, y = candidates[0]
    if ground is not None:
        x, y = min(max(x, 0.0), ground.width), min(max(y, 0.0), ground.height)
    return round(x, 2), round(y, 2)


def _moved(
    loot: Loot, ids: Sequence[str], x: float, y: float, carrier: str | None, dropped: bool
) -> Loot:
    """The tokens ``ids`` at (x, y), carried by ``carrier`` (None: on the ground)."""
    chosen = set(ids)
    tokens = tuple(
        Token(t.id, x, y, carrier, dropped or t.dropped) if t.id in chosen else t
        for t in loot.tokens
    )
    return dataclasses.replace(loot, tokens=tokens)


def drop(state: GameState, fighter: str, count: int | None, why: str) -> Transition:
    """XX-D-3: ``fighter`` puts ``count`` (None: all) of his tokens down, stacked: where he
    stood when he is no longer on the table, else in contact with his base."""
    loot = loot_of(state)
    assert loot is not None
    mine = carried(loot, fighter)
    chosen = mine if count is None else mine[:count]
    if not chosen:
        return state, []
    who = state.fighter(fighter)
    if who.in_play:
        x, y = beside(state, base_of(state, who))
    else:  # "à l'endroit où le combattant a quitté la table"
        x, y = round(who.x, 2), round(who.y, 2)
    ids = tuple(t.id for t in chosen)
    loot = _moved(loot, ids, x, y, None, dropped=True)
    return with_loot(state, loot), [TokensDropped(fighter, ids, x, y, why)]


# --- XX-D-1: the end of a move -----------------------------------------------------------------


def _takeable(state: GameState, loot: Loot, fighter: Fighter, how: str) -> tuple[Token, ...]:
    """The tokens under ``fighter`` he may pick up now, at most his room, stack order."""
    if cannot_collect(state, fighter, how) is not None:
        return ()
    lying = [t for t in under(base_of(state, fighter), on_ground(loot)) if collectable(loot, t)]
    return tuple(lying[: room(state, loot, fighter.id)])


def _pick(state: GameState, fighter: str, count: int, how: str) -> Transition:
    """``fighter`` picks up ``count`` of the tokens under him; the others are moved aside."""
    loot = loot_of(state)
    assert loot is not None
    who = state.fighter(fighter)
    base = base_of(state, who)
    events: list[Event] = []
    taken = _takeable(state, loot, who, how)[:count]
    if taken:
        ids = tuple(t.id for t in taken)
        loot = _moved(loot, ids, round(who.x, 2), round(who.y, 2), fighter, dropped=False)
        events.append(TokensPicked(fighter, ids, how, who.hidden))
        if who.hidden:  # XX-D-2: a carrying scout is revealed
            state = state.with_fighters(dataclasses.replace(who, hidden=False))
    left = under(base, on_ground(loot))
    if left:
        x, y = beside(state, base)
        ids = tuple(t.id for t in left)
        loot = _moved(loot, ids, x, y, None, dropped=False)
        events.append(TokensMovedAside(fighter, ids, x, y))
    return with_loot(state, dataclasses.replace(loot, picking=None)), events


def move_end(state: GameState, fighter: str, how: str) -> Transition:
    """XX-D-1 at the end of ``fighter``'s move (the ``move-end`` hook)."""
    loot = loot_of(state)
    if loot is None or loot.picking is not None:
        return state, []
    who = state.fighter(fighter)
    if not who.in_play or not under(base_of(state, who), on_ground(loot)):
        return state, []
    takeable = _takeable(state, loot, who, how)
    if takeable and not c3_looting(state):
        # "s'il ne peut/veut pas le ramasser": the player says whether he picks them up
        state = with_loot(state, dataclasses.replace(loot, picking=fighter))
        state = dataclasses.replace(state, pending=Pending(TOKEN_PICKUP, who.player))
        return state, []
    return _pick(state, fighter, len(takeable), how)


def _picker(state: GameState) -> Fighter:
    loot = loot_of(state)
    assert loot is not None and loot.picking is not None
    return state.fighter(loot.picking)


def _how(state: GameState) -> str:
    """The move the picker has just ended: the action under way, else a pursuit."""
    if state.phase is Phase.ACTIVATION and state.activation and state.activation.current:
        action = state.activation.current.action
        if action is not None:
            return action.kind
    return "pursuit"


def _pickup_legal(state: GameState) -> list[Choice]:
    loot = loot_of(state)
    assert loot is not None
    who = _picker(state)
    most = len(_takeable(state, loot, who, _how(state)))
    return [PickUp(who.id, n) for n in range(most, -1, -1)]


def _pickup_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, PickUp)
    how = _how(state)
    state, events = _pick(state, choice.fighter, choice.count, how)
    if how != "pursuit":  # the action under way goes on (engine.core.hooks, MOVE_END)
        state, after = finish(state)
        events.extend(after)
    return state, events


def _pickup_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    who = _picker(state)
    loot = loot_of(state)
    assert loot is not None
    lying = len(under(base_of(state, who), on_ground(loot)))
    options = []
    for c in choices:
        assert isinstance(c, PickUp)
        if c.count:
            options.append(Option(c, f"pick up {_tokens(c.count)}", "his move ends (XX-D-1)"))
        else:
            options.append(Option(c, "leave them", "moved to a side of his base (XX-D-1)"))
    prompt = (
        f"{player_name(who.player)}: {_name(state, who.id)} ends his move on "
        f"{_tokens(lying)}. Pick up?"
    )
    return Question(TOKEN_PICKUP, who.player, prompt, tuple(options))


def move_spot(state: GameState, fighter: str, base: Base) -> str | None:
    """XX-D-1, C3 Looting: may ``fighter`` end a move with his base at ``base``?"""
    loot = loot_of(state)
    if loot is None:
        return None
    lying = under(base, on_ground(loot))
    if not lying:
        return None
    who = state.fighter(fighter)
    if who.altitude != 0:  # XX-D-1: "ne peut jamais terminer son mouvement dessus"
        return "on a token of another level"
    if c3_looting(state):  # C3: "may not end his movement on it"
        ok = cannot_collect(state, who) is None and room(state, loot, fighter) > 0
        if not ok or not any(collectable(loot, t) for t in lying):
            return "on a token he may not collect"
    return None


def move_goals(state: GameState, fighter: str) -> list[tuple[str, float, float]]:
    """The stacks of tokens ``fighter`` could pick up: places his moves may end on."""
    loot = loot_of(state)
    if loot is None:
        return []
    who = state.fighter(fighter)
    if cannot_collect(state, who) is not None or room(state, loot, fighter) == 0:
        return []
    stacks: dict[tuple[float, float], list[str]] = {}
    for t in on_ground(loot):
        if collectable(loot, t):
            stacks.setdefault((t.x, t.y), []).append(t.id)
    return [(ids[0], x, y) for (x, y), ids in stacks.items()]


# --- XX-D-3: putting tokens down -----------------------------------------------------------


def react(state: GameState, events: Sequence[Event]) -> Transition:
    """XX-D-3 at once (the ``reaction`` hook): a carrier routed, killed or off the table
    drops his tokens; XX-D-2: a carrier is never a hidden scout."""
    scenario = state.scenario  # called after every step: the cheapest test first
    loot = scenario.loot if isinstance(scenario, BasicScenario) else None
    if loot is None or not any(t.carrier is not None for t in loot.tokens):
        return state, []
    out: list[Event] = []
    for fighter in carriers(loot):
        who = state.fighter(fighter)
        if not who.in_play:
            state, happened = drop(state, fighter, None, "removed" if who.alive else "killed")
        elif who.routed:  # "aussitôt après avoir raté son test de courage"
            state, happened = drop(state, fighter, None, "routed")
        elif who.hidden:
            state = state.with_fighters(dataclasses.replace(who, hidden=False))
            happened = [CarrierRevealed(fighter)]
        else:
            continue
        out.extend(happened)
    return state, out


def _dropper(state: GameState) -> int | None:
    """The next player to say which tokens his fighters put down, if any."""
    loot = loot_of(state)
    if loot is None:
        return None
    for fighter in carriers(loot):
        player = state.fighter(fighter).player
        if player not in loot.asked and fighter not in loot.done and player != NEUTRAL:
            return player
    return None


def _ask_drop(state: GameState) -> Transition:
    loot = loot_of(state)
    assert loot is not None
    player = _dropper(state)
    if player is None:
        return with_loot(state, dataclasses.replace(loot, asked=(), done=())), []
    return dataclasses.replace(state, pending=Pending(TOKEN_DROP, player)), []


def maintenance(state: GameState) -> Transition:
    """XX-D-3: "un combattant peut volontairement poser un ou plusieurs marqueurs durant la
    phase d'Entretien" — each player with carriers is asked (a maintenance hook)."""
    # a carrier routed earlier in this phase has dropped his tokens already ("aussitôt")
    state, events = react(state, ())
    loot = loot_of(state)
    if loot is None or not any(t.carrier is not None for t in loot.tokens):
        return state, events
    state = with_loot(state, dataclasses.replace(loot, asked=(), done=()))
    state, more = _ask_drop(state)
    return state, [*events, *more]


def _drop_legal(state: GameState) -> list[Choice]:
    loot = loot_of(state)
    player = _dropper(state)
    assert loot is not None and player is not None
    choices: list[Choice] = [PutDown()]
    for fighter in carriers(loot):
        if state.fighter(fighter).player == player and fighter not in loot.done:
            choices += [PutDown(fighter, n) for n in range(1, len(carried(loot, fighter)) + 1)]
    return choices


def _drop_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, PutDown)
    loot = loot_of(state)
    player = _dropper(state)
    assert loot is not None and player is not None
    events: list[Event] = []
    if choice.fighter is None:
        state = with_loot(state, dataclasses.replace(loot, asked=(*loot.asked, player)))
    else:
        state, events = drop(state, choice.fighter, choice.count, "maintenance")
        loot = loot_of(state)
        assert loot is not None
        state = with_loot(state, dataclasses.replace(loot, done=(*loot.done, choice.fighter)))
    state, more = _ask_drop(state)
    return state, [*events, *more]


def _drop_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    player = _dropper(state)
    assert player is not None
    options = []
    for c in choices:
        assert isinstance(c, PutDown)
        if c.fighter is None:
            options.append(Option(c, "nobody puts a token down"))
        else:
            options.append(
                Option(c, f"{_name(state, c.fighter)} puts {_tokens(c.count)} down", "XX-D-3")
            )
    prompt = f"{player_name(player)}: maintenance phase — put tokens down (XX-D-3)?"
    return Question(TOKEN_DROP, player, prompt, tuple(options))


# --- victory conditions (XX-A-4) ---------------------------------------------------------------


class CountParams(BaseModel):
    """``count``: how many tokens (at least 1)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    count: int = Field(default=1, ge=1)


class AreaCountParams(BaseModel):
    """``area``: one of the scenario's areas (none: the player's own deployment area);
    ``count``: how many tokens."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    area: str | None = Field(default=None, min_length=1)
    count: int = Field(default=1, ge=1)


def held_by(state: GameState, player: int) -> int:
    """How many tokens ``player``'s fighters carry."""
    loot = loot_of(state)
    if loot is None:
        return 0
    return sum(
        1
        for t in loot.tokens
        if t.carrier is not None
        and state.fighter(t.carrier).player == player
        and counts_for_victory(state, state.fighter(t.carrier))  # XX-B-3
    )


def _carry_tokens(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """XX-D: ``player``'s fighters carry at least ``count`` tokens."""
    assert isinstance(params, CountParams)
    return held_by(state, player) >= params.count


def _most_tokens(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """XX-D: ``player``'s fighters carry more tokens than each other player's (and one at
    least)."""
    mine = held_by(state, player)
    return mine > 0 and all(mine > held_by(state, other) for other in state.enemies(player))


def _where(state: GameState, player: int, params: AreaCountParams) -> BaseGeometry:
    scenario = scenario_of(state)
    if params.area is None:
        return deployment_zone(state, player).area
    for area in scenario.areas if scenario is not None else ():
        if area.name == params.area:
            return geometry(state, area)
    raise EngineError(f"the scenario has no area {params.area!r} (XX-A-4 condition)")


def _tokens_in_area(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """XX-D: ``player``'s fighters whose whole base lies in the area (XX-C-2) carry at least
    ``count`` tokens."""
    assert isinstance(params, AreaCountParams)
    loot = loot_of(state)
    if loot is None or state.battleground is None:
        return False
    inside = {f.id for f in present(state, _where(state, player, params)) if f.player == player}
    return sum(1 for t in loot.tokens if t.carrier in inside) >= params.count


def _lying(state: GameState) -> list[BaseGeometry]:
    """Where the tokens that may be picked up lie (small discs: where to stand to take one)."""
    loot = loot_of(state)
    if loot is None:
        return []
    spots = {(t.x, t.y) for t in on_ground(loot) if collectable(loot, t)}
    return [Point(x, y).buffer(1.0) for x, y in sorted(spots)]


def _carry_aim(
    state: GameState, item: object, player: int, params: BaseModel
) -> list[BaseGeometry]:
    """Go and pick tokens up while he carries too few."""
    assert isinstance(params, CountParams)
    return _lying(state) if held_by(state, player) < params.count else []


def _most_aim(state: GameState, item: object, player: int, params: BaseModel) -> list[BaseGeometry]:
    """Go and pick tokens up."""
    return _lying(state)


def _area_aim(state: GameState, item: object, player: int, params: BaseModel) -> list[BaseGeometry]:
    """Pick a token up, then bring it there."""
    assert isinstance(params, AreaCountParams)
    if state.battleground is None or state.battleground.zones is None:
        return []
    if held_by(state, player) == 0:
        return _lying(state)
    return [_where(state, player, params)]


CARRY_TOKENS = ConditionKind(
    "carry-tokens",
    "XX-D-2",
    _carry_tokens,
    CountParams,
    "the player's fighters carry at least `count` tokens (default 1)",
    aim=_carry_aim,
)
MOST_TOKENS = ConditionKind(
    "most-tokens",
    "XX-D-2",
    _most_tokens,
    summary="the player's fighters carry more tokens than each other player's (one at least)",
    aim=_most_aim,
)
TOKENS_IN_AREA = ConditionKind(
    "tokens-in-area",
    "XX-D-2",
    _tokens_in_area,
    AreaCountParams,
    "the player's fighters standing wholly in the area named `area` (default: his own "
    "deployment area) carry at least `count` tokens (default 1)",
    aim=_area_aim,
)
KINDS = (CARRY_TOKENS, MOST_TOKENS, TOKENS_IN_AREA)
"""The condition (and bonus) kinds of this module."""


# --- narration ---------------------------------------------------------------------------------


def _name(state: GameState, fighter: str) -> str:
    return f"{state.profile(state.fighter(fighter).profile).name} ({fighter})"


def _tokens(count: int) -> str:
    return "a token" if count == 1 else f"{count} tokens"


def _listed(ids: Sequence[str]) -> str:
    return ", ".join(ids)


def _tell_picked(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, TokensPicked)
    how = " after his pursuit" if event.how == "pursuit" else ""
    revealed = "; he is revealed (XX-D-2)" if event.revealed else ""
    return (
        f"{narrator.fighter(event.fighter)} picks up {_listed(event.tokens)}{how} "
        f"(XX-D-1){revealed}."
    )


def _tell_aside(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, TokensMovedAside)
    return (
        f"{narrator.fighter(event.fighter)} leaves {_listed(event.tokens)}: moved to a side of "
        f"his base, at ({event.x:g}, {event.y:g}) (XX-D-1)."
    )


_WHY = {
    "maintenance": "puts down",
    "routed": "routs and drops",
    "killed": "falls and drops",
    "removed": "leaves the table and drops",
}


def _tell_dropped(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, TokensDropped)
    verb = _WHY.get(event.why, "drops")
    return (
        f"{narrator.fighter(event.fighter)} {verb} {_listed(event.tokens)} at "
        f"({event.x:g}, {event.y:g}) (XX-D-3)."
    )


def _tell_revealed(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, CarrierRevealed)
    return f"{narrator.fighter(event.fighter)} carries a token: he is revealed (XX-D-2)."


def contribute(rules: RulesBuilder) -> None:
    """Tokens (XX-D): the engine's seams, the two questions, the maintenance hook, the
    condition kinds and the sentences."""
    rules.extension(MOVE_END, "tokens", move_end)
    rules.extension(MOVE_SPOT, "tokens", move_spot)
    rules.extension(MOVE_GOALS, "tokens", move_goals)
    rules.extension(REACTION, "tokens", react)
    rules.handler(Handler(TOKEN_PICKUP, _pickup_legal, _pickup_apply, _pickup_describe))
    rules.handler(Handler(TOKEN_DROP, _drop_legal, _drop_apply, _drop_describe))
    rules.maintenance_hook(MAINTENANCE_STEP, maintenance)
    for kind in KINDS:
        rules.extension(CONDITION, kind.name, kind)
        rules.extension(BONUS, kind.name, kind)
    rules.sentence("tokens_picked", _tell_picked)
    rules.sentence("tokens_moved_aside", _tell_aside)
    rules.sentence("tokens_dropped", _tell_dropped)
    rules.sentence("carrier_revealed", _tell_revealed)
