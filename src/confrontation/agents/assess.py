"""What the computer players know about a position: fighters' worth, material, the odds of
one attack, one shot and a duel, and who threatens whom.

Cheap on purpose (a greedy decision takes milliseconds): per-attack odds come from
:mod:`confrontation.odds.exact` (exact Fractions, cached) and are turned into floats here; a
duel is estimated attack by attack rather than solved whole (see docs/ai.md).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from confrontation.engine.core.state import KILLED_LEVELS, NEUTRAL, Fighter, GameState, Phase
from confrontation.engine.table.field import current, field_of, has_field, shot_distance
from confrontation.geometry.bases import Base
from confrontation.geometry.sight import Sight
from confrontation.odds.exact import attack_odds
from confrontation.rules.characteristics import Characteristic
from confrontation.rules.shooting import RangeBand, range_band, shot_distribution
from confrontation.rules.wounds import WoundResult
from confrontation.scenarios.control import fighter_value, scenario_of
from confrontation.scenarios.victory import fulfils, prey, spared

T = TypeVar("T")

C = Characteristic

LOST: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 1.0)
"""Share of a fighter's worth lost at 0-4 wound levels (II-B-2: 4 = killed; every level
also costs 1 on his tests, II-B-4)."""

STUN = 0.05
"""Share of a fighter's worth a Stunned state costs (II-B-5: until the end of the round)."""

DEFAULT_WORTH = 20.0
"""Worth of a fighter whose profile has no strategic value (made-up test profiles)."""


TARGET_FACTOR = 3.0
"""Execution (III-A-2): a fighter whose death wins the game is worth this many times more."""


def worth(state: GameState, fighter: Fighter) -> float:
    """A fighter's worth: his strategic value in AP with his equipment (I-D-2), more for an
    Execution target (III-A-2). Without victory conditions it reads only the scenario record,
    the profiles and the fighter's id, card, profile and ``summoned``: kept on those."""
    scenario = scenario_of(state)
    if scenario is not None and scenario.conditions:
        return _worth(state, fighter)
    kept = _WORTHS
    if kept[0] is not state.scenario or kept[1] is not state.profiles:
        kept[:] = [state.scenario, state.profiles, {}]
    values: dict[tuple[str, str, str, bool], float] = kept[2]
    key = (fighter.id, fighter.card, fighter.profile, fighter.summoned)
    value = values.get(key)
    if value is None:
        value = values[key] = _worth(state, fighter)
    elif CHECK_KEPT:
        assert value == _worth(state, fighter), (key, value)
    return value


_WORTHS: list[Any] = [None, None, {}]
"""The scenario record and profiles :func:`worth`'s kept values are for, and the values."""


def _worth(state: GameState, fighter: Fighter) -> float:
    scenario = scenario_of(state)
    ap = fighter_value(state, fighter)
    value = float(ap) if ap > 0 else DEFAULT_WORTH
    if scenario is not None and any(fighter.id in t for t in scenario.targets):
        value *= TARGET_FACTOR
    elif scenario is not None and scenario.conditions and fighter.id in _prey(state):
        value *= TARGET_FACTOR  # XX-A-4: his death fulfils a victory condition
    return value


def _prey(state: GameState) -> set[str]:
    """The fighters whose death fulfils some player's condition (cached per state)."""
    found: set[str] | None = state.scratch.get("prey")
    if found is None:
        found = state.scratch["prey"] = {f for p in state.players for f in prey(state, p)}
    return found


def is_prey(state: GameState, fighter: Fighter) -> bool:
    """``fighter``'s death fulfils a victory condition of an enemy's (his Commander, XX-B-1)."""
    scenario = scenario_of(state)
    if scenario is None or not scenario.conditions:
        return False
    key = f"prey-of:{fighter.player}"
    hunted: set[str] | None = state.scratch.get(key)
    if hunted is None:
        hunted = {f for p in state.enemies(fighter.player) for f in prey(state, p)}
        state.scratch[key] = hunted
    return fighter.id in hunted


def spares(state: GameState, player: int, fighter_id: str) -> bool:
    """``player`` wants ``fighter_id`` alive for a victory condition (a capture target,
    XX-C-4): striking him gains nothing (cached per state)."""
    scenario = scenario_of(state)
    if scenario is None or not scenario.conditions:
        return False
    key = f"spared-by:{player}"
    kept: set[str] | None = state.scratch.get(key)
    if kept is None:
        kept = state.scratch[key] = spared(state, player)
    return fighter_id in kept


def lost_share(wounds: int) -> float:
    """Share of worth lost at ``wounds`` wound levels."""
    return LOST[min(max(wounds, 0), KILLED_LEVELS)]


def standing(state: GameState, player: int) -> float:
    """What ``player`` has left: the worth of his fighters less their wounds."""
    return sum(
        worth(state, f) * (1.0 - lost_share(f.wounds) - (STUN if f.stunned and f.alive else 0.0))
        for f in state.fighters
        if f.player == player
    )


def material(state: GameState, player: int) -> float:
    """``player``'s standing minus the other players' together, plus his lead in scenario
    points over the best of them weighted as worth (a victory point is counted as 10 AP;
    with victory conditions, the points he would score now: :func:`provisional`).

    With two players: his standing minus his opponent's, plus the score difference. With
    more (XX-F), every enemy's loss is a gain as large — whoever inflicts it — while only the
    leader's score stands between him and the victory (docs/ai.md)."""
    enemies = state.enemies(player)
    scores = provisional(state)
    score = scores[player] - max(scores[e] for e in enemies)
    return standing(state, player) - sum(standing(state, e) for e in enemies) + 10.0 * score


def provisional(state: GameState) -> tuple[int, ...]:
    """The players' scores: while a game with victory conditions (XX-A-4) goes on, the VP of
    the conditions they would fulfil if it ended now (a ``round`` condition met stays met;
    one fulfilled now counts as well), cached per state; else ``state.scores``."""
    scenario = scenario_of(state)
    if scenario is None or not scenario.conditions or state.phase is Phase.OVER:
        return state.scores
    cached: tuple[int, ...] | None = state.scratch.get("provisional")
    if cached is None:
        met = set(scenario.met)
        vp = [0] * len(state.players)
        for condition in scenario.conditions:
            for p in state.players:
                if (p, condition.id) in met or fulfils(state, condition, p):
                    vp[p] += condition.vp
        cached = state.scratch["provisional"] = tuple(vp)
    return cached


def stake(player: int, gainer: int, loser: int, rivals: float) -> float:
    """How ``player`` counts what a fighter of ``gainer`` wins from one of ``loser``: +1 when
    the gainer is his, -1 when the loser is; between two other players (XX-F) ``rivals``
    (docs/ai.md); with a neutral fighter (XX-E) on either side -1, as in a two-player game
    (what the side that is not his wins or loses against a neutral counts against him)."""
    if gainer == player:
        return 1.0
    if loser == player:
        return -1.0
    return -1.0 if NEUTRAL in (gainer, loser) else rivals


# --- one attack (VII-C-4) --------------------------------------------------------------------


@lru_cache(maxsize=65536)
def attack_loss(
    att: int, str_: int, def_: int, res: int, dice: int, sustained: bool, wounds: int
) -> float:
    """Expected share of the target's worth one attack takes (target at ``wounds`` levels,
    defending with ``dice`` dice, ``sustained`` defence)."""
    odds = attack_odds(
        att=att, str_=str_, def_=def_, res=max(res, 0), defence_dice=dice, sustained=sustained
    )
    return _expected_loss(odds.wounds, wounds)


def _expected_loss(results: object, wounds: int) -> float:
    assert isinstance(results, dict)
    before = lost_share(wounds)
    total = 0.0
    for result, p in results.items():
        if not p:
            continue
        if result is WoundResult.STUNNED:
            total += float(p) * STUN
            continue
        after = lost_share(min(wounds + result.levels, KILLED_LEVELS))
        total += float(p) * (after - before)
    return total


@dataclass(frozen=True)
class Blow:
    """The combat values of one fighter as an attack reads them (current values)."""

    ini: int
    att: int
    str_: int
    def_: int
    res: int
    wounds: int
    worth: float


def blow_of(state: GameState, fighter: Fighter, *, charged: bool | None = None) -> Blow:
    """A fighter's current combat values (wounds, Stunned and charge penalties included);
    ``charged`` True/False overrides whether he suffers the charge penalty (V-B-3)."""
    penalised = fighter.charged if charged is None else charged
    ini, att, str_, def_, res = _values_of(state, fighter, penalised)
    # the worth does not read ``charged`` (:func:`worth`): the fighter's own record serves
    return Blow(ini, att, str_, def_, res, fighter.wounds, worth(state, fighter))


def _values_of(state: GameState, fighter: Fighter, charged: bool) -> tuple[int, ...]:
    """INI, ATT, STR, DEF and RES now (``current``), kept per fighter record, profiles and
    charge penalty: ``current`` reads his profile, wounds, Stunned and the penalty only. An
    eagerness or announcement reads the same enemies' values for every fighter scored."""
    key = (id(fighter), charged)
    found = _VALUES.get(key)
    if found is not None and found[0] is fighter and found[1] is state.profiles:
        if CHECK_KEPT:
            assert found[2] == _values_now(state, fighter, charged), (fighter.id, charged)
        values: tuple[int, ...] = found[2]
        return values
    if len(_VALUES) >= _VALUES_SIZE:
        _VALUES.clear()
    values = _values_now(state, fighter, charged)
    _VALUES[key] = (fighter, state.profiles, values)  # the record held: its id stays its own
    return values


_VALUES: dict[tuple[int, bool], tuple[Fighter, Any, tuple[int, ...]]] = {}
_VALUES_SIZE = 8192


def _values_now(state: GameState, fighter: Fighter, charged: bool) -> tuple[int, ...]:
    f = fighter if fighter.charged == charged else _with_charged(fighter, charged)
    return tuple(current(state, f, c) for c in (C.INI, C.ATT, C.STR, C.DEF, C.RES))


def _with_charged(fighter: Fighter, charged: bool) -> Fighter:
    from dataclasses import replace

    return replace(fighter, charged=charged)


def hit_value(a: Blow, t: Blow, dice: int = 0, sustained: bool = False) -> float:
    """Expected worth (AP) one attack of ``a`` takes from ``t``."""
    return t.worth * attack_loss(a.att, a.str_, t.def_, t.res, dice, sustained, t.wounds)


def duel(me: Blow, foe: Blow) -> float:
    """A rough one-round balance of ``me`` against ``foe`` (AP won minus AP lost): both
    with one die in attack and one in defence, plus a second attack for the faster one
    (VII-C-2: the initiative winner may strike before the other can). Kept per pair of
    blows (:func:`_duel_now` reads nothing else): an eagerness, an announcement's bound and
    worth, and a threat ask the same pairs again after every move, and a move changes no
    blow."""
    key = (me, foe)
    found = _DUELS.get(key)
    if found is None:
        if len(_DUELS) >= _DUELS_SIZE:
            _DUELS.clear()
        found = _DUELS[key] = _duel_now(me, foe)
    elif CHECK_KEPT:
        fresh = _duel_now(me, foe)
        assert fresh == found, (me, foe, found, fresh)
    return found


_DUELS: dict[tuple[Blow, Blow], float] = {}
_DUELS_SIZE = 65536


def _duel_now(me: Blow, foe: Blow) -> float:
    dealt = hit_value(me, foe, 1)
    taken = hit_value(foe, me, 1)
    edge = 0.5 + 0.08 * (me.ini - foe.ini)
    edge = min(max(edge, 0.1), 0.9)
    return dealt - taken + (edge - 0.5) * (dealt + taken)


# --- one shot (VI) ---------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def _shot_loss(
    aim: int, difficulty: int, aim_str: int, res: int, unmoving: bool, wounds: int
) -> float:
    dist = shot_distribution(aim, difficulty, aim_str, max(res, 0), unmoving=unmoving)
    results = {r: p for r, p in dist.items() if r is not None}
    return _expected_loss(results, wounds)


# --- answers kept across states -------------------------------------------------------------

CHECK_KEPT = False
"""Tests set it: every kept answer is worked out again and compared (``tests/agents``)."""

_KEPT: OrderedDict[tuple[Any, ...], tuple[Any, ...]] = OrderedDict()
"""The kept answers (:func:`kept`) for the last few :func:`status_key` values: the key's
objects compared by identity are held in the value so that their ids stay theirs."""

_KEPT_SIZE = 16


def status_key(state: GameState) -> tuple[Any, ...]:
    """What a fighter's shot values, best shot and eagerness read of a state (one per state):
    the field (the in-play fighters' places, facings, altitudes and the battleground, as
    ``field_of`` keys it: its sight, contacts and distances), the profiles and rules, and for
    each fighter in play his player, profile, wounds, Stunned, charge penalty, cover
    (VI-A-3) and worth (which reads the scenario). Nothing else goes into those answers, so
    two states with equal keys give equal answers; announcements, a card placed or an
    ``activated`` flag leave it as it was."""
    found: tuple[Any, ...] | None = state.scratch.get("status-key")
    if found is None:
        here = field_of(state)
        scenario = scenario_of(state)
        if scenario is not None and scenario.conditions:
            rows = tuple(_status_row_now(state, f) for f in state.fighters if f.in_play)
        else:
            rows = _status_rows(state)
        found = state.scratch["status-key"] = (here, state.profiles, state.rules, rows)
    return found


def _status_rows(state: GameState) -> tuple[tuple[Any, ...], ...]:
    """The in-play fighters' :func:`_status_row`, kept for the last tuple of fighter records
    (held: its id stays its own) while the scenario record and profiles are the same
    objects: the states of a strategic phase, of announcements and of most steps share
    their fighters' tuple. A scenario without victory conditions only (as
    :func:`_status_row`)."""
    last = _LAST_ROWS
    fighters = state.fighters
    if last[0] is fighters and last[1] is state.scenario and last[2] is state.profiles:
        rows: tuple[tuple[Any, ...], ...] = last[3]
        if CHECK_KEPT:
            fresh = tuple(_status_row_now(state, f) for f in fighters if f.in_play)
            assert rows == fresh, "status rows"
        return rows
    rows = tuple(_status_row(state, f) for f in fighters if f.in_play)
    last[:] = [fighters, state.scenario, state.profiles, rows]
    return rows


_LAST_ROWS: list[Any] = [None, None, None, ()]
"""The fighters' tuple, scenario record and profiles :func:`_status_rows` last worked for,
and the rows."""


def _status_row(state: GameState, f: Fighter) -> tuple[Any, ...]:
    """One fighter's part of :func:`status_key`, kept per fighter record (records are
    shared by the states a move or an announcement leaves them in) while the scenario
    record and the profiles are the same objects; for a scenario without victory
    conditions only (then :func:`worth` reads nothing else of the state)."""
    kept = _ROWS
    if kept[0] is not state.scenario or kept[1] is not state.profiles or len(kept[2]) > 8192:
        kept[:] = [state.scenario, state.profiles, {}]
    rows: dict[int, tuple[Fighter, tuple[Any, ...]]] = kept[2]
    hit = rows.get(id(f))
    if hit is not None and hit[0] is f:
        if CHECK_KEPT:
            assert hit[1] == _status_row_now(state, f), f.id
        return hit[1]
    row = _status_row_now(state, f)
    rows[id(f)] = (f, row)  # the record held: its id stays its own
    return row


_ROWS: list[Any] = [None, None, {}]
"""The scenario record and profiles :func:`_status_row`'s kept rows are for, and the rows."""


def _status_row_now(state: GameState, f: Fighter) -> tuple[Any, ...]:
    return (
        f.id,
        f.player,
        f.profile,
        f.wounds,
        f.stunned,
        f.charged,
        f.cover,
        f.must_cover,
        worth(state, f),
    )


def kept(state: GameState) -> dict[Any, Any]:
    """The answers kept for the state's :func:`status_key` (a dict the callers fill, keyed by
    what they were asked): the same dict for every state with an equal key."""
    answers: dict[Any, Any] | None = state.scratch.get("kept")
    if answers is not None:
        return answers
    here, profiles, rules, fighters = status_key(state)
    key = (id(here), id(profiles), rules, fighters)
    hit = _KEPT.get(key)
    if hit is not None and hit[0] is here and hit[1] is profiles:
        _KEPT.move_to_end(key)
        answers = hit[2]
    else:
        answers = {}
        _KEPT[key] = (here, profiles, answers)
        if len(_KEPT) > _KEPT_SIZE:
            _KEPT.popitem(last=False)
    state.scratch["kept"] = answers
    return answers


def keep(state: GameState, ask: tuple[Any, ...], work: Callable[[], T]) -> T:
    """``work()``, kept for ``ask`` (a tuple naming the question) while :func:`status_key`
    stays the same; with :data:`CHECK_KEPT`, worked out again and compared."""
    answers = kept(state)
    if ask in answers:
        value: T = answers[ask]
        if CHECK_KEPT:
            fresh = work()
            assert fresh == value, (ask, value, fresh)
        return value
    value = answers[ask] = work()
    return value


def shot_value(
    state: GameState,
    shooter: str,
    target: str,
    *,
    unmoving: bool,
    partial: bool | None = None,
) -> float:
    """Expected worth (AP) a shot of ``shooter`` takes from ``target`` now (0: out of
    range). A target in contact with the shooter's friends may be missed for a friend
    (VI-B-1): such a shot counts half its value. ``partial``: the target taken as partially
    visible or not, without looking (None: as the shooter sees him)."""
    return _shot_values(state, shooter, target, unmoving, (partial,))[0]


def _shot_values(
    state: GameState,
    shooter: str,
    target: str,
    unmoving: bool,
    partials: tuple[bool | None, ...],
) -> list[float]:
    """:func:`shot_value` for each of ``partials``, the parts they share worked out once;
    kept (:func:`_pair_answers`) on everything the value reads of the two fighters, so that
    a value outlives the moves and wounds of every other fighter. The bases are read only
    through the range band (VI-A-1, kept per pair of bases) and the sight (asked here, not
    kept), so the value is kept on the band: it outlives the two fighters' own moves within
    a band (the difficulty reads the band, the target's size, Target/X, cover and altitude,
    ``shooting.difficulties_of``; the loss the shooter's AIM, the target's RES, wounds and
    worth, and whether a friend of the shooter touches him)."""
    if not has_field(state):
        return _shot_values_now(state, shooter, target, unmoving, partials)
    # first the answers kept for the state's status (:func:`kept`: it holds all the value
    # reads, the sight included): a best shot, an eagerness and a cumulative question ask
    # the same pairs of one arrangement again
    status = kept(state)
    asked = ("shots", shooter, target, unmoving, partials)
    known: list[float] | None = status.get(asked)
    if known is not None:
        if CHECK_KEPT:
            fresh = _shot_values_now(state, shooter, target, unmoving, partials)
            assert fresh == known, (shooter, target, partials, known, fresh)
        return known
    found = status[asked] = _pair_shot_values(state, shooter, target, unmoving, partials)
    return found


def _pair_shot_values(
    state: GameState,
    shooter: str,
    target: str,
    unmoving: bool,
    partials: tuple[bool | None, ...],
) -> list[float]:
    """:func:`_shot_values` kept per pair of fighters (see there)."""
    here = field_of(state)
    me, it = state.fighter(shooter), state.fighter(target)
    answers = _pair_answers(state)
    band = _band(state, me, it)
    if band is None:
        found = [0.0] * len(partials)
    else:
        sees = partials
        if None in partials:  # VI-A-3: as the shooter sees him
            partial = here.sight(shooter, target) is Sight.PARTIAL
            sees = tuple(partial if p is None else p for p in partials)
        friends = any(here.owners[f] == me.player for f in here.contacts(target))
        ask = (
            "shot",
            band,
            me.profile,
            me.altitude,
            me.wounds,
            me.stunned,
            me.charged,
            it.profile,
            it.altitude,
            it.wounds,
            it.stunned,
            it.charged,
            it.cover,
            it.must_cover,
            worth(state, it),
            friends,
            unmoving,
            sees,
        )
        kept_values: list[float] | None = answers.get(ask)
        if kept_values is None:
            kept_values = answers[ask] = _shot_values_now(state, shooter, target, unmoving, sees)
        found = kept_values
    if CHECK_KEPT:
        fresh = _shot_values_now(state, shooter, target, unmoving, partials)
        assert fresh == found, (shooter, target, partials, found, fresh)
    return found


def _band(state: GameState, me: Fighter, it: Fighter) -> RangeBand | None:
    """VI-A-1: the range band of ``me``'s shot at ``it``. It reads the two bases and ``me``'s
    ranges only, and a base is its fighter's record's (``field.base_of``, given the
    profiles): kept per pair of records, else per pair of bases (:func:`_pair_answers`)."""
    answers = _pair_answers(state)
    mark = ("band-of", id(me), id(it))
    hit = answers.get(mark)
    if hit is not None and hit[0] is me and hit[1] is it:
        band: RangeBand | None = hit[2]
        if CHECK_KEPT:
            assert band == _band_now(state, me, it), (me.id, it.id, band)
        return band
    here = field_of(state)
    reach = ("band", here.base(me.id), here.base(it.id), me.profile)
    found = answers.get(reach, _MISSING)
    band = answers[reach] = _band_now(state, me, it) if found is _MISSING else found
    answers[mark] = (me, it, band)  # the records held: their ids stay theirs
    return band


def _band_now(state: GameState, me: Fighter, it: Fighter) -> RangeBand | None:
    here = field_of(state)
    return range_band(shot_distance(here, me.id, it.id), state.profile(me.profile).ranges)


_MISSING = object()

_PAIRS: list[Any] = [None, None, None, {}]
"""The profiles, battleground and rules the kept pair answers are for, and the answers."""

_PAIRS_SIZE = 50_000


def _pair_answers(state: GameState) -> dict[Any, Any]:
    """Answers about two fighters kept while the state's profiles, battleground and rules are
    the same objects (the keys hold every other input: their bases, records and worths)."""
    kept = _PAIRS
    if (
        kept[0] is not state.profiles
        or kept[1] is not state.battleground
        or kept[2] is not (state.rules)
        or len(kept[3]) > _PAIRS_SIZE
    ):
        kept[:] = [state.profiles, state.battleground, state.rules, {}]
    answers: dict[Any, Any] = kept[3]
    return answers


def _shot_values_now(
    state: GameState,
    shooter: str,
    target: str,
    unmoving: bool,
    partials: tuple[bool | None, ...],
) -> list[float]:
    from confrontation.engine.actions.shooting import difficulties_of

    difficulties = difficulties_of(state, shooter, target, partials)
    me, it = state.fighter(shooter), state.fighter(target)
    profile = state.profile(me.profile)
    if difficulties is None or profile.aim_str is None:
        return [0.0] * len(partials)
    here = field_of(state)
    aim, res, value_of = current(state, me, C.AIM), current(state, it, C.RES), worth(state, it)
    friends = any(here.owners[f] == me.player for f in here.contacts(target))
    out: list[float] = []
    for difficulty in difficulties:
        loss = _shot_loss(aim, difficulty.total, profile.aim_str, res, unmoving, it.wounds)
        value = value_of * loss
        if friends:
            value *= 0.25  # VI-B-1: the distribution roll may hit a friend
        out.append(value)
    return out


def shot_value_bound(state: GameState, shooter: str, target: str, *, unmoving: bool) -> float:
    """At least :func:`shot_value`, without the line of sight (the only costly part): the
    larger of the values with the target wholly and partially visible."""
    return max(_shot_values(state, shooter, target, unmoving, (False, True)))


def best_of(
    items: Sequence[T],
    bound: Callable[[T], float],
    exact: Callable[[T], float],
    floor: float = -math.inf,
) -> float:
    """``max(exact(i) for i in items)`` (``default`` 0.0) when ``bound(i) >= exact(i)``
    always: the exact values are computed from the largest bound down, only while a bound
    is above the best value found (those below cannot change the maximum). With ``floor``,
    a maximum below it is not wanted: when the bounds left are all below ``floor`` and no
    value found reaches it, a value below ``floor`` is returned (the largest bound, or the
    best value found), with no more exact value worked out."""
    bounds = sorted(((bound(i), k) for k, i in enumerate(items)), reverse=True)
    best: float | None = None
    for b, k in bounds:
        if best is not None and b <= best:
            break
        if b < floor:  # every value left is below floor, and so is every one found
            below = b if best is None else max(best, b)
            if CHECK_KEPT:
                fresh = max((exact(i) for i in items), default=0.0)
                assert fresh < floor, (fresh, floor)
            return below
        value = exact(items[k])
        best = value if best is None else max(best, value)
    return 0.0 if best is None else best


def maybe_in_range(state: GameState, shooter: Fighter, foes: Sequence[Fighter]) -> list[Fighter]:
    """``foes`` but those surely beyond ``shooter``'s long range (VI-A-1: every shot at them
    is worth 0.0), told by the bases' centres alone (:func:`surely_apart`: the sight lies
    on the shooter's base, the distance is to the target's edge). A best shot over the
    others is the best over all: shot values are never below 0.0."""
    ranges = state.profile(shooter.profile).ranges
    if not ranges:
        return list(foes)
    return not_surely_apart(state, shooter.id, foes, max(ranges))


def not_surely_apart(
    state: GameState, fighter_id: str, others: Sequence[Fighter], cm: float
) -> list[Fighter]:
    """``others`` but those :func:`surely_apart` from ``fighter_id`` by more than ``cm``
    (the same list, in its order): :func:`surely_apart`'s sums in its order, read from the
    field's centres and radii (:func:`centres`) with no base looked up."""
    if not others:
        return []
    kept = centres(field_of(state))
    x, y, r = kept[fighter_id]
    near = []
    for e in others:
        ex, ey, er = kept[e.id]
        if math.hypot(x - ex, y - ey) <= cm + (r + er + 1e-6):
            near.append(e)
    if CHECK_KEPT:
        here = field_of(state)
        mine = here.base(fighter_id)
        assert near == [e for e in others if not surely_apart(mine, here.base(e.id), cm)], (
            fighter_id,
            cm,
        )
    return near


Centres = dict[str, tuple[float, float, float]]
"""Each fighter's base centre and outer radius (:func:`_outer_radius`) in one field."""


def centres(here: Any) -> Centres:
    """The :data:`Centres` of ``here`` (a ``Field``: one arrangement of the fighters, whose
    bases never change), kept for the last few fields."""
    hit = _CENTRES.get(id(here))
    if hit is not None and hit[0] is here:
        found: Centres = hit[1]
        return found
    found = {}
    for i in here.ids():
        b = here.base(i)
        found[i] = (b.x, b.y, _outer_radius(b))
    if len(_CENTRES) >= 8:
        _CENTRES.pop(next(iter(_CENTRES)))
    _CENTRES[id(here)] = (here, found)  # the field held: its id stays its own
    return found


_CENTRES: dict[int, tuple[Any, Centres]] = {}


def in_range(state: GameState, shooter: str, target: str) -> bool:
    """Within the weapon's long range (VI-A-1)."""
    return _band(state, state.fighter(shooter), state.fighter(target)) is not None


# --- reach and threats -----------------------------------------------------------------------


def gap(state: GameState, a: str, b: str) -> float:
    """Straight distance between the edges of two fighters' bases (cm), kept per pair of
    bases (:func:`_pair_answers`: it reads the two bases only, so it outlives every other
    fighter's move and the two fighters' own moves back to where they stood)."""
    from confrontation.geometry.measure import distance

    here = field_of(state)
    one, other = here.base(a), here.base(b)
    answers = _pair_answers(state)
    key = ("gap", one, other)
    found: float | None = answers.get(key)
    if found is None:
        found = answers[key] = float(distance(one, other))
    elif CHECK_KEPT:
        fresh = float(distance(one, other))
        assert fresh == found, (a, b, found, fresh)
    return found


def farther_than(state: GameState, a: str, b: str, cm: float) -> bool:
    """``gap(state, a, b) > cm``, the bases' centres measured first: each base lies within
    the circle of its half diagonal (half its width when round), so centres farther apart
    than ``cm`` plus both circles' radii (and 1e-6 cm for rounding) are bases farther apart
    than ``cm``, with no polygon measured; nearer ones are measured as :func:`gap` does."""
    here = field_of(state)
    if surely_apart(here.base(a), here.base(b), cm):
        return True
    return gap(state, a, b) > cm


def surely_apart(one: Base, other: Base, cm: float) -> bool:
    """The bases' centres are farther apart than ``cm`` plus the radii of the circles
    holding them (and 1e-6 cm): then the bases are more than ``cm`` apart (False: maybe)."""
    slack = _outer_radius(one) + _outer_radius(other) + 1e-6
    return math.hypot(one.x - other.x, one.y - other.y) > cm + slack


def _outer_radius(base: Base) -> float:
    """The radius (cm) of a circle round the base's centre holding the whole base."""
    if base.shape == "round":
        return base.width_mm / 20.0
    return math.hypot(base.width_mm, base.depth_mm) / 20.0


def charge_reach(state: GameState, fighter: Fighter) -> float:
    """How far an assault carries him (V-B-3: MOV x 2)."""
    return 2.0 * state.profile(fighter.profile).mov


def enemies_in_play(state: GameState, player: int) -> tuple[Fighter, ...]:
    """``player``'s enemies in play, in the fighters' order (:func:`_in_play`)."""
    return _in_play(state, player)[0]


def friends_in_play(state: GameState, player: int) -> tuple[Fighter, ...]:
    """``player``'s fighters in play, in the fighters' order (:func:`_in_play`)."""
    return _in_play(state, player)[1]


def _in_play(state: GameState, player: int) -> tuple[tuple[Fighter, ...], tuple[Fighter, ...]]:
    """``player``'s enemies and friends in play, kept for the last tuple of fighter records
    (held: its id stays its own): they read those records only, and most states share
    their fighters' tuple with the state before."""
    fighters = state.fighters
    if _IN_PLAY[0] is not fighters:
        _IN_PLAY[:] = [fighters, {}]
    split: dict[int, tuple[tuple[Fighter, ...], tuple[Fighter, ...]]] = _IN_PLAY[1]
    found = split.get(player)
    if found is None:
        found = split[player] = (
            tuple(f for f in fighters if f.player != player and f.in_play),
            tuple(f for f in fighters if f.player == player and f.in_play),
        )
    if CHECK_KEPT:
        assert found == (
            tuple(f for f in fighters if f.player != player and f.in_play),
            tuple(f for f in fighters if f.player == player and f.in_play),
        ), player
    return found


_IN_PLAY: list[Any] = [None, {}]
"""The fighters' tuple :func:`_in_play` last worked for, and its answers per player."""


def threat_at(state: GameState, fighter: Fighter, x: float, y: float) -> float:
    """Expected AP ``fighter`` would lose, standing at (x, y), to the enemies not yet
    activated this round that could charge him there (a charge puts the charge penalty on
    him, V-B-3) — the worst of them, a rough guide for where to stop."""
    if not has_field(state):
        return 0.0
    # a destination question scores every place with the same state and fighter: his
    # charged values and each enemy's duel against them are worked out once per state
    # (and the enemies still to act, each with how far from him a charge is feared)
    key = f"threat:{fighter.id}"
    found = state.scratch.get(key)
    if found is None or found[0] is not fighter:
        waiting = [
            (enemy, (charge_reach(state, enemy) + 1.0) + 3.0)
            for enemy in enemies_in_play(state, fighter.player)
            if not enemy.activated
        ]
        found = (fighter, blow_of(state, fighter, charged=True), {}, waiting)
        state.scratch[key] = found
    me_charged: Blow = found[1]
    balances: dict[str, float] = found[2]
    worst = 0.0
    for enemy, feared in found[3]:
        if math.dist((enemy.x, enemy.y), (x, y)) > feared:
            continue
        balance = balances.get(enemy.id)
        if balance is None:
            balance = balances[enemy.id] = duel(blow_of(state, enemy), me_charged)
        elif CHECK_KEPT:
            fresh = duel(blow_of(state, enemy), blow_of(state, fighter, charged=True))
            assert balance == fresh, (fighter.id, enemy.id, balance, fresh)
        worst = max(worst, balance)
    return worst
