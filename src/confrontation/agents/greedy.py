"""The greedy agent: a sensible one-step player.

Every question is answered by scoring its options with cheap, mostly exact odds
(:mod:`confrontation.agents.assess`) and taking the best one; ties go to a d6 draw from
the agent's own seeded roller, so the agent is deterministic given its seed. How each kind
of question is judged is told in docs/ai.md.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from confrontation.agents import assess
from confrontation.agents.assess import (
    Blow,
    best_of,
    blow_of,
    charge_reach,
    duel,
    enemies_in_play,
    farther_than,
    friends_in_play,
    gap,
    hit_value,
    in_range,
    is_prey,
    keep,
    maybe_in_range,
    not_surely_apart,
    shot_value,
    shot_value_bound,
    spares,
    stake,
    threat_at,
    worth,
)
from confrontation.agents.random import uniform_index
from confrontation.dice import Roller, SeededRoller, standing
from confrontation.engine.actions.scenery import AssaultScenery, ShootScenery
from confrontation.engine.combat.questions import (
    AllocateDice,
    ChooseCombat,
    Defend,
    MakeAttack,
    NameFighter,
    Pursue,
    SplitMelee,
)
from confrontation.engine.combat.scenery_attack import AttackScenery
from confrontation.engine.core.deferred import Deferred, only_one, parts_of
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    ChooseFirst,
    ChoosePlace,
    ChooseVictim,
    ChooseZone,
    EndActivation,
    FighterDone,
    KeepResult,
    Place,
    PlaceCard,
    PlaceScenery,
    PlayReserve,
    PlayReserveAndTop,
    PlayTop,
    PutInReserve,
    Question,
    Raise,
    Redirect,
    Refuse,
    RotateCharged,
    Shoot,
    TacticsFighter,
    TakeCover,
    Walk,
)
from confrontation.engine.core.state import (
    NEUTRAL,
    ActivationStage,
    Card,
    Fighter,
    GameState,
    Phase,
    StrategicProgress,
)
from confrontation.engine.setup.scenery import templates as scenery_templates
from confrontation.engine.table.field import Field, current, field_of, has_field, pass_through
from confrontation.geometry.bases import size_rank
from confrontation.geometry.measure import beyond
from confrontation.odds.exact import attack_stop_natural
from confrontation.rules.characteristics import Characteristic
from confrontation.rules.combat import Combatant, CombatState
from confrontation.scenarios.base import Area
from confrontation.scenarios.control import area_vp, geometry, scenario_of
from confrontation.scenarios.control_points import (
    dominance_at,
    flag_contact_goals,
    shuns_kill_box,
)
from confrontation.scenarios.tokens import move_goals
from confrontation.scenarios.victory import aims, wrecked

C = Characteristic

ADVANCE_PER_CM = 0.02
"""How much (as a share of the mover's worth) a centimetre closer to his goal is worth."""

SHOT_WORTH_TAKING = 0.3
"""A shot is taken when it is expected to take at least this many AP."""

CHARGE_MARGIN = -0.5
"""A charge is announced when the duel it starts is worth at least this many AP."""

AIM_HOLD = 0.5
"""XX-A-4: what standing at one of his aims is worth (a share of the fighter's worth): a
fighter there does not walk or charge out of it for an ordinary gain."""

KILL_BOX_SHUN = 1.0
"""CP-KILL-BOX (the 003 pack): what ending a move in the Kill Box costs his Commander (a share
of his worth: twice what standing at an aim gains)."""

DOMINATE_HOLD = 0.5
"""CP-DOMINATE (the 003 pack): what standing where his Commander dominates an element worth
more dominated than controlled is worth (a share of his worth, per CP more, at most 2), on
top of standing at the aim: the Commander walks into base contact with a flag."""

AIM_TOUCH = 0.6
"""Share of :data:`AIM_HOLD` for a base only touching the aim (contact-mode objectives; a
base half inside a zone does not count there, XX-C-2)."""


def _raise_to(final: int, needed: int) -> Choice:
    """II-A-1, :data:`~confrontation.dice.RaisePolicy.OPTIMAL`: raise while short of the
    result needed."""
    return Raise() if final < needed else KeepResult()


class GreedyAgent:
    """Answers every question with its best-scored option (see the module docstring)."""

    name = "greedy"
    judges_choices = True
    """It reads the legal choices, never the options' wording (``engine.step.asks``)."""

    def __init__(self, seed: int = 0, player: int | None = None, roller: Roller | None = None):
        self.roller = roller if roller is not None else SeededRoller(seed)
        self.player = player

    # --- the entry point ---------------------------------------------------------------------

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        """The best of ``legal`` for the player asked."""
        if only_one(legal):
            return legal[0]
        judge = _JUDGES.get(question.kind)
        if judge is None:
            return legal[0]
        player = question.player if question.player is not None else (self.player or 0)
        choice = judge(self, state, player, legal)
        return choice if choice in legal else legal[0]

    def best(self, legal: Sequence[Choice], score: Callable[[Choice], float]) -> Choice:
        """The option with the highest score; equal scores drawn with the agent's d6."""
        scored = [(score(c), i) for i, c in enumerate(legal)]
        top = max(s for s, _ in scored)
        tied = [i for s, i in scored if s >= top - 1e-9]
        return legal[tied[uniform_index(self.roller, len(tied))] if len(tied) > 1 else tied[0]]

    # --- strategic phase (IV-A) --------------------------------------------------------------

    def place_card(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """IV-A-1: the eagerest cards on top (shooters with targets, chargers in reach)."""
        return self.best(
            legal, lambda c: eagerness(state, c.card) if isinstance(c, PlaceCard) else 0.0
        )

    def tactics_fighter(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """IV-A-2: the best Discipline rolls."""

        def score(c: Choice) -> float:
            if not isinstance(c, TacticsFighter) or c.fighter is None:
                return -1.0
            return float(current(state, state.fighter(c.fighter), C.DIS))

        return self.best(legal, score)

    def tactics_raise(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """Raise while not ahead of the best other result he rolls against (a tie is rolled
        again; a raise wins 5 times in 6); a result ≤ 0 fails, so it is never ahead
        (CLARIFICATIONS §9). With three players or more, against the players he is tied
        with when only they roll again (XX-F-3)."""
        assert state.strategic is not None
        hands = state.strategic.hands
        best = max(standing(hands[p].final) for p in tactics_rivals(state.strategic, player))
        return _raise_to(hands[player].final, best + 1)

    def choose_first(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """Speak first when a card has something to do at once (a charge, a shot);
        otherwise, and for the deployment, let the opponent show his hand first."""
        other = state.enemies(player)[0]  # asked in two-player games only (IV-B-1)
        return ChooseFirst(player if eager_to_act(state, player) else other)

    def choose_place(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """XX-F-1, XX-F-3: as for who speaks first — the first free place when a card has
        something to do at once, else (and for the deployment) the last free one, to see the
        others' hands first."""
        places = sorted(c.place for c in legal if isinstance(c, ChoosePlace))
        if not places:
            return legal[0]
        return ChoosePlace(places[0] if eager_to_act(state, player) else places[-1])

    # --- set-up (III-A, III-B) -----------------------------------------------------------------

    def choose_zone(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """III-A-3: either area (scored the same): the d6 decides."""
        return self.best(legal, lambda c: 0.0 if isinstance(c, ChooseZone) else -1.0)

    def deploy(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """III-B-2: fighters near the front and the middle of the line (shooters a step
        behind), near the scenario's objectives when there are some."""
        assert state.activation is not None and state.activation.current is not None
        fighter = state.fighter(state.activation.current.fighters[0])
        shooter = state.profile(fighter.profile).shooter
        centre = _centre(state)
        places = [c for c in legal if isinstance(c, Place)]
        found = _objective_distances(state, player, [(c.x, c.y) for c in places])
        nears = dict(zip(places, found, strict=True)) if found is not None else {}

        def score(c: Choice) -> float:
            if not isinstance(c, Place):
                return -1e9
            near = nears.get(c)
            if near is None:
                near = math.dist((c.x, c.y), centre)
            return -abs(near - 12.0) if shooter else -near

        return self.best(legal, score)

    def place_scenery(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """XX-A-2: cover where the armies will meet — elements that hide a fighter of normal
        size and can be entered first (forest, ruins, hill), then the other kinds; near the
        scenario's own scenery (its objectives), else near the table's centre; away from the
        elements already placed (the deployment areas are drawn only afterwards)."""
        progress = state.deployment
        placed = progress.placed if progress is not None else ()
        centres = [Polygon(p.outline).centroid for p in placed]
        goals = [(c.x, c.y) for c, p in zip(centres, placed, strict=True) if p.scenario]
        goals = goals or [_centre(state)]
        normal = size_rank("normal")

        def score(c: Choice) -> float:
            if not isinstance(c, PlaceScenery):
                return -1e9
            kind = scenery_templates()[c.template]
            worth = 2.0 * (size_rank(kind.height) >= normal) + 1.0 * kind.passable
            near = min(math.dist((c.x, c.y), g) for g in goals)
            apart = min((math.dist((c.x, c.y), (p.x, p.y)) for p in centres), default=18.0)
            return 10.0 * worth - near + 0.3 * min(apart, 18.0)

        return self.best(legal, score)

    # --- the activation phase (IV-B) ---------------------------------------------------------

    def floor(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """IV-B-1: play the top card; hold back (reserve, refusal) a card whose fighters
        have nothing to do yet; play the reserve once it has."""
        if state.phase is Phase.DEPLOYMENT or not has_field(state):
            return PlayTop() if PlayTop() in legal else legal[0]
        side = state.side(player)
        top = eagerness(state, side.deck[0]) if side.deck else -1.0
        held = eagerness(state, side.reserve) if side.reserve is not None else -1.0
        if held >= 3.0 and PlayReserveAndTop() in legal:
            return PlayReserveAndTop()
        if held >= 3.0 > top and PlayReserve() in legal:
            return PlayReserve()
        waiting = any(state.side(p).cards_left > 0 for p in state.enemies(player))
        if top < 2.0 and waiting:
            if PutInReserve() in legal:
                return PutInReserve()
            if Refuse() in legal:
                return Refuse()
        if PlayTop() in legal:
            return PlayTop()
        if PlayReserve() in legal:
            return PlayReserve()
        return legal[0]

    def activation(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """IV-B-2: announce the charges worth making (and the runs), then the shots and the
        walks, fighter by fighter."""
        assert state.activation is not None and state.activation.current is not None
        current_ = state.activation.current
        if current_.stage == ActivationStage.ANNOUNCE:
            return self._announce(state, legal)
        return self._cumulative(state, legal)

    def _announce(self, state: GameState, legal: Sequence[Choice]) -> Choice:
        """The best announcement whose assault reaches (and the assaults on scenery).

        The assaults' paths (the costly part of :func:`announce_value`) are found from the
        best worth down, only until the best reaching option and its equals are known: the
        options below them cannot be chosen (the same choice, the same dice drawn). The
        deferred assaults (``engine.core.deferred``: charge or engagement, a sight question)
        on enemies within the straight reach wait in the same queue under a bound of their
        worths (:func:`_assault_bound`), worked out only when that bound comes first: those
        below the best reaching option are never worked out; so are the runs (worth -1.0 or
        nothing, :data:`RUN_BOUND`), scored only when no better assault reaches. The queue
        is ordered by worth
        then place in ``legal``, so the paths are asked in the order, and the options found
        are those, of scoring every announcement first."""
        wrecks: list[tuple[float, Choice]] = []  # C3: assaults on scenery (no path asked)
        queue: list[tuple[float, tuple[int, int], Choice | Deferred | _Unscored]] = []
        deferred: dict[str, list[tuple[int, Deferred]]] = {}  # per fighter
        for i, part in enumerate(parts_of(legal)):
            if isinstance(part, Deferred):
                deferred.setdefault(part.key[0], []).append((i, part))
            elif isinstance(part, AssaultScenery):
                value = wreck_value(state, part.fighter, part.element)
                if value is not None:
                    wrecks.append((value, part))
            elif isinstance(part, Announce) and part.action == "run":
                queue.append((-RUN_BOUND, (i, -1), _Unscored(part)))  # scored when first
            elif isinstance(part, Announce):
                score = _kept_worth(state, part)
                if score is not None:
                    queue.append((-score, (i, 0), part))
        for fighter_id, parts in deferred.items():
            for i, part in _maybe_near(state, fighter_id, parts):
                bound = _kept_bound(state, fighter_id, part.key[1])
                if bound is not None:  # else no announcement of it is worth any
                    queue.append((-bound, (i, -1), part))
        heapq.heapify(queue)
        found: list[tuple[tuple[int, int], float, Announce]] = []  # paths asked, reaching
        top: float | None = None
        while queue:
            key, (i, _), item = heapq.heappop(queue)
            if top is not None and -key < top - 1e-9:
                break
            if isinstance(item, _Unscored):
                score = announce_worth(state, item.choice)
                if score is not None:
                    heapq.heappush(queue, (-score, (i, 0), item.choice))
                continue
            if isinstance(item, Deferred):
                for k, c in enumerate(item.choices()):
                    score = _kept_worth(state, c) if isinstance(c, Announce) else None
                    if score is not None:
                        heapq.heappush(queue, (-score, (i, k), c))
                continue
            assert isinstance(item, Announce)
            if not _needs_path(item) or _reaches(state, item):
                found.append(((i, 0), -key, item))
                top = -key if top is None else top
        found.sort(key=lambda f: f[0])
        options = [(score, c) for _, score, c in found] + wrecks
        if not options:
            return AnnouncementsDone() if AnnouncementsDone() in legal else legal[0]
        return self.best([c for _, c in options], _lookup(options))

    def _cumulative(self, state: GameState, legal: Sequence[Choice]) -> Choice:
        shots, values = _shots_worth_weighing(state, legal)
        if shots:
            best = max(values.values())
            if best >= SHOT_WORTH_TAKING:
                return self.best(shots, lambda c: values[c])  # type: ignore[index]
        plain = [c for c in parts_of(legal) if isinstance(c, Choice)]  # no shot among them
        for c in plain:  # C3: a shot at an element he wants destroyed (XX-A-4)
            if isinstance(c, ShootScenery) and wreck_value(state, c.fighter, c.element):
                return c
        for c in plain:
            if isinstance(c, Walk) and c.method is None and walk_pays(state, c.fighter):
                return c
        done = [c for c in plain if isinstance(c, FighterDone)]
        if done:
            return done[0]
        return EndActivation() if EndActivation() in legal else legal[0]

    def destination(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """V-B: the place that brings the mover closest to his goal without standing where
        an enemy still to act would charge and beat him."""
        assert state.activation is not None and state.activation.current is not None
        action = state.activation.current.action
        assert action is not None
        mover = state.fighter(action.fighter)
        if not has_conditions(state):  # (with conditions the goal is his aims)
            spots = [(c.x, c.y) for c in legal if isinstance(c, Place)]
            _prime_objectives(state, mover.player, [(mover.x, mover.y), *spots])
        here = position_value(state, mover, mover.x, mover.y)

        def score(c: Choice) -> float:
            if isinstance(c, Place):
                return position_value(state, mover, c.x, c.y, c.facing)
            return here

        return self.best(legal, score)

    def assault_contact(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """V-B-3: the place in contact with the enemies he fares best against."""
        assert state.activation is not None and state.activation.current is not None
        action = state.activation.current.action
        assert action is not None
        from confrontation.geometry.contact import in_contact

        field = field_of(state)
        me = state.fighter(action.fighter)
        template = field.base(me.id)
        mine = blow_of(state, me)

        def score(c: Choice) -> float:
            if not isinstance(c, Place):
                return -1e9
            base = template.moved(c.x, c.y, c.facing)
            touched = [
                i
                for i in field.ids()
                if field.owners[i] != me.player and in_contact(base, field.base(i))
            ]
            return sum(duel(mine, blow_of(state, state.fighter(t), charged=True)) for t in touched)

        return self.best(legal, score)

    def rotate_charged(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """V-B-3: turning the charged fighters changes nothing the agent values: nobody."""
        return RotateCharged(()) if RotateCharged(()) in legal else legal[0]

    def redirect(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """V-B-3: redirect onto the enemy he beats best, else stay."""
        assert state.activation is not None and state.activation.current is not None
        action = state.activation.current.action
        assert action is not None
        me = state.fighter(action.fighter)
        mine = blow_of(state, me)

        def score(c: Choice) -> float:
            if not isinstance(c, Redirect):
                return -1e9
            if c.to is None:
                return 0.0 if not c.run else -0.1
            if gap(state, me.id, c.to) > action.potential:
                return -1.0
            return duel(mine, blow_of(state, state.fighter(c.to), charged=True))

        return self.best(legal, score)

    def test_raise(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """II-A-1: raise while the test fails."""
        assert state.activation is not None and state.activation.current is not None
        action = state.activation.current.action
        assert action is not None and action.test is not None
        return _raise_to(action.test.final, max(action.test.difficulty, 1))

    def take_cover(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VI-A-2: take cover when the shot is dangerous and the fighter has nothing better
        to do when activated (a move under cover is exclusive)."""
        assert state.activation is not None and state.activation.current is not None
        action = state.activation.current.action
        assert action is not None and action.target is not None
        target = state.fighter(action.target)
        danger = shot_value(state, action.fighter, target.id, unmoving=action.still)
        busy = state.profile(target.profile).shooter or any(
            not farther_than(state, target.id, e.id, charge_reach(state, target))
            for e in enemies_in_play(state, player)
        )
        take = danger >= (0.5 if busy else 0.15) * worth(state, target)
        return TakeCover(take)

    def choose_victim(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VI-B-1: the cheaper friend is hit."""
        return self.best(
            legal,
            lambda c: -worth(state, state.fighter(c.fighter)) if isinstance(c, ChooseVictim) else 0,
        )

    # --- the combat phase (VII) --------------------------------------------------------------

    def split_melee(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VII-A: separate so that his fighters outnumber the enemy where they can (with
        three players or more, XX-F-5: two other players' combats count for nothing)."""

        def score(c: Choice) -> float:
            if not isinstance(c, SplitMelee):
                return -1e9
            total = 0.0
            for combat in c.combats:
                one = state.fighter(combat.one).player
                many = {state.fighter(m).player for m in combat.many}
                if one == player:
                    sign = -1.0
                elif player in many or NEUTRAL in many or one == NEUTRAL:
                    sign = 1.0
                else:
                    sign = 0.0
                total += (len(combat.many) - 1) * sign
            return total

        return self.best(legal, score)

    def name_fighter(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VII-A, VII-B: the best Discipline; VII-C-2: the best initiative value."""
        assert state.combat is not None
        contest = state.combat.contest
        fight = state.combat.fight
        initiative = contest is not None and contest.purpose == "initiative" and fight is not None

        def score(c: Choice) -> float:
            if not isinstance(c, NameFighter):
                return -1e9
            if initiative:
                assert fight is not None
                return float(fight.board.fighter(c.fighter).current(C.INI))
            return float(current(state, state.fighter(c.fighter), C.DIS))

        return self.best(legal, score)

    def contest_raise(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """II-A-3: raise while not ahead of the others."""
        assert state.combat is not None and state.combat.contest is not None
        hands = state.combat.contest.hands
        mine = next(h for h in hands if h.player == player)
        best_other = max((h.standing for h in hands if h.player != player), default=0)
        final = mine.roll.final if mine.roll is not None else 0
        return _raise_to(final, best_other + 1)

    def choose_combat(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VII-B: the combat where his side does best first (XX-F-5: two other players'
        duels count for nothing)."""

        def score(c: Choice) -> float:
            if not isinstance(c, ChooseCombat):
                return -1e9
            one = state.fighter(c.combat.one)
            a = blow_of(state, one)
            total = 0.0
            for m in c.combat.many:
                foe = state.fighter(m)
                total += stake(player, one.player, foe.player, rivals=0.0) * duel(
                    a, blow_of(state, foe)
                )
            return total

        return self.best(legal, score)

    def allocate_dice(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VII-C-1: the split of attack and defence dice with the best expected balance."""
        assert state.combat is not None and state.combat.fight is not None
        fight = state.combat.fight
        board = fight.board

        def score(c: Choice) -> float:
            if not isinstance(c, AllocateDice):
                return -1e9
            return allocation_value(state, board, c.fighter, c.attack, c.defence, fight.to_allocate)

        return self.best(legal, score)

    def make_attack(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VII-C-3: strike where the attack takes most."""
        assert state.combat is not None and state.combat.fight is not None
        board = state.combat.fight.board

        def score(c: Choice) -> float:
            if not isinstance(c, MakeAttack):
                return -1e9
            target = board.fighter(c.target)
            dice = 1 if target.defence_left > 0 else 0
            a = combatant_blow(state, board.fighter(c.attacker))
            value = hit_value(a, combatant_blow(state, target), dice, target.sustaining)
            return -value if spares(state, player, c.target) else value  # XX-C-4

        return self.best(legal, score)

    def defend(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VII-C-4 b, VII-C-5: the defence that keeps the expected loss over this attack and
        the attacks still to come lowest."""
        assert state.combat is not None and state.combat.fight is not None
        fight = state.combat.fight
        assert fight.attack is not None
        board = fight.board
        me = board.fighter(fight.attack.target)
        attacker = combatant_blow(state, board.fighter(fight.attack.attacker))
        later = _attacks_to_come(board, me.id, fight.attack.attacker)
        mine = combatant_blow(state, me)

        def score(c: Choice) -> float:
            if not isinstance(c, Defend):
                return -1e9
            loss = hit_value(attacker, mine, c.dice, c.sustained)
            left = me.defence_left if c.sustained else me.defence_left - c.dice
            for blow in later:
                if c.sustained or me.sustaining:
                    loss += hit_value(blow, mine, 1, True)
                elif left > 0:
                    loss += hit_value(blow, mine, 1)
                    left -= 1
                else:
                    loss += hit_value(blow, mine, 0)
            return -loss

        return self.best(legal, score)

    def attack_raise(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VII-C-4 c: raise while below the natural result that best gets the attack
        through the announced defence (:func:`~confrontation.odds.attack_stop_natural`)."""
        assert state.combat is not None and state.combat.fight is not None
        fight = state.combat.fight
        attack = fight.attack
        assert attack is not None and attack.attack_test is not None
        roll = attack.attack_test
        dice = attack.defence.dice if attack.defence is not None else 0
        if dice == 0:
            return _raise_to(roll.final, 1)
        target = fight.board.fighter(attack.target)
        if attack.defence is not None and attack.defence.sustained:
            from dataclasses import replace

            target = replace(target, sustaining=True)
        stop = attack_stop_natural(roll.value, target.current(C.DEF), dice)
        return Raise() if roll.final - roll.value < stop else KeepResult()

    def defence_raise(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VII-C-4 d: raise while below the attack's result."""
        assert state.combat is not None and state.combat.fight is not None
        attack = state.combat.fight.attack
        assert attack is not None and attack.defence_test is not None
        assert attack.attack_test is not None
        return _raise_to(attack.defence_test.final, attack.attack_test.final)

    def counters(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """XX-B-2: add or remove counters where the scenario's counter conditions and bonuses
        favour him and not his enemies (:func:`counters_value`); nothing when neither does."""
        from confrontation.scenarios.counters import NONE, CounterChoice

        def score(c: Choice) -> float:
            if not isinstance(c, CounterChoice):
                return -1e9
            if c.action == NONE:
                return 1e-6  # nothing, unless a move pays
            return counters_value(state, player, c)

        return self.best(legal, score)

    def attack_scenery(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """C3: every die he may give to an element of scenery whose destruction fulfils one
        of his conditions (XX-A-4), none to any other."""
        wanted = wrecked(state, player) if has_conditions(state) else set()

        def score(c: Choice) -> float:
            if not isinstance(c, AttackScenery):
                return -1e9
            return sum(n if name in wanted else -n for name, n in c.attacks)

        return self.best(legal, score)

    def cp_dominate(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """CP-DOMINATE: the element whose domination gives his player the most CP this
        scoring, less the opponents' (what the others still control counts too)."""
        return self.best(legal, lambda c: dominate_margin(state, player, c))

    def pursue(self, state: GameState, player: int, legal: Sequence[Choice]) -> Choice:
        """VII-C-6: pursue into a fight he wins, else stay."""

        def score(c: Choice) -> float:
            if not isinstance(c, Pursue):
                return -1e9
            me = blow_of(state, state.fighter(c.fighter))
            return sum(duel(me, blow_of(state, state.fighter(e))) for e in c.engage)

        return self.best(legal, score)


def dominate_margin(state: GameState, player: int, choice: Choice) -> float:
    """CP-DOMINATE: the CP ``player`` would score at this scoring with his Commander
    dominating the element ``choice`` names, less his opponents'."""
    from confrontation.scenarios.control_points import (
        DominateElement,
        claims,
        cp_of,
        tactics_winner,
        with_choice,
    )

    cp = cp_of(state)
    if cp is None or not isinstance(choice, DominateElement):
        return 0.0
    there = with_choice(state, player, choice.element)
    got = claims(there, tactics_winner(there))
    return float(sum(c.cp if c.player == player else -c.cp for c in got))


def _lookup(options: list[tuple[float, Choice]]) -> Callable[[Choice], float]:
    table = {c: s for s, c in options}
    return lambda c: table[c]


_JUDGES: dict[str, Callable[[GreedyAgent, GameState, int, Sequence[Choice]], Choice]] = {
    kind: getattr(GreedyAgent, kind)
    for kind in (
        QuestionKind.PLACE_CARD,
        QuestionKind.TACTICS_FIGHTER,
        QuestionKind.TACTICS_RAISE,
        QuestionKind.CHOOSE_FIRST,
        QuestionKind.CHOOSE_PLACE,
        QuestionKind.CHOOSE_ZONE,
        QuestionKind.PLACE_SCENERY,
        QuestionKind.DEPLOY,
        QuestionKind.FLOOR,
        QuestionKind.ACTIVATION,
        QuestionKind.DESTINATION,
        QuestionKind.ASSAULT_CONTACT,
        QuestionKind.ROTATE_CHARGED,
        QuestionKind.REDIRECT,
        QuestionKind.TEST_RAISE,
        QuestionKind.TAKE_COVER,
        QuestionKind.CHOOSE_VICTIM,
        QuestionKind.SPLIT_MELEE,
        QuestionKind.NAME_FIGHTER,
        QuestionKind.CONTEST_RAISE,
        QuestionKind.CHOOSE_COMBAT,
        QuestionKind.ALLOCATE_DICE,
        QuestionKind.MAKE_ATTACK,
        QuestionKind.DEFEND,
        QuestionKind.ATTACK_RAISE,
        QuestionKind.DEFENCE_RAISE,
        QuestionKind.PURSUE,
        QuestionKind.CP_DOMINATE,
        QuestionKind.COUNTERS,
        QuestionKind.ATTACK_SCENERY,
    )
}


# --- judgements shared with the search agent ---------------------------------------------------


def _centre(state: GameState) -> tuple[float, float]:
    ground = state.battleground
    if ground is None:
        return (60.0, 30.0)
    return (ground.width / 2.0, ground.height / 2.0)


def objectives(state: GameState, player: int | None = None) -> list[BaseGeometry]:
    """Where the scenario wants ``player``'s fighters at the end (III-A-2): the areas worth
    at least 2 VP to him (Conquest: the centre and the enemy's deployment area), shrunk so
    that a base standing at a point inside lies wholly in the area; else the scenario
    scenery (XX-A-3)."""
    scenario = scenario_of(state)
    out: list[BaseGeometry] = []
    if scenario is not None and scenario.goal == "control" and state.battleground is not None:
        for area in scenario.areas:
            worth_it = area_vp(area, player) >= 2 if player is not None else area.vp >= 2
            if worth_it:
                out.append(area_shape(state, area))
    if scenario is not None and scenario.conditions and state.battleground is not None:
        # XX-A-4: where the victory conditions want his fighters
        for p in (player,) if player is not None else state.players:
            out.extend(aims(state, p))
    if out or state.battleground is None or not state.battleground.scenery:
        return out
    return [Polygon(p.outline) for p in state.battleground.scenery if p.scenario and p.outline]


_AREAS: dict[tuple[int, object], BaseGeometry] = {}


def area_shape(state: GameState, area: Area) -> BaseGeometry:
    ground = state.battleground
    key = (id(ground), area)
    shape = _AREAS.get(key)
    if shape is None:
        whole = geometry(state, area)
        inner = whole.buffer(-3.0)
        shape = inner if not inner.is_empty else whole
        if len(_AREAS) > 64:
            _AREAS.clear()
        _AREAS[key] = shape
    return shape


def _objective_distance(state: GameState, player: int, x: float, y: float) -> float | None:
    primed: dict[tuple[float, float], float | None] | None = state.scratch.get(
        f"objective-at:{player}"
    )
    if primed is not None:
        found = primed.get((x, y), _MISSING)
        if found is not _MISSING:
            if assess.CHECK_KEPT:
                assert found == _objective_distance_now(state, player, x, y), (x, y, found)
            return found  # type: ignore[return-value]
    return _objective_distance_now(state, player, x, y)


_MISSING = object()


def _prime_objectives(state: GameState, player: int, points: Sequence[tuple[float, float]]) -> None:
    """Measure :func:`_objective_distance` of every one of ``points`` at once
    (:func:`_objective_distances`: the same GEOS distances, equal values) and keep them on
    the state's scratch, where :func:`_objective_distance` finds them: a destination
    question scores every place of its list with the same state."""
    found = _objective_distances(state, player, points)
    primed = state.scratch.setdefault(f"objective-at:{player}", {})
    if found is None:
        primed.update((p, None) for p in points)
    else:
        primed.update(zip(points, found, strict=True))


def _objective_distance_now(state: GameState, player: int, x: float, y: float) -> float | None:
    areas = objectives(state, player)
    if not areas:
        return None
    point = Point(x, y)
    return min(float(a.distance(point)) for a in areas)


def _objective_distances(
    state: GameState, player: int, points: Sequence[tuple[float, float]]
) -> list[float] | None:
    """:func:`_objective_distance` of each of ``points`` (None: no objective), measured
    for all of them at once (the same GEOS distances: equal values)."""
    areas = objectives(state, player)
    if not areas:
        return None
    if not points:
        return []
    at = shapely.points(np.array(points, dtype=float))
    nearest = shapely.distance(areas[0], at)
    for a in areas[1:]:
        nearest = np.minimum(nearest, shapely.distance(a, at))
    return [float(d) for d in nearest]


def eager_to_act(state: GameState, player: int) -> bool:
    """A card of ``player``'s has something to do at once (a charge, a shot: eagerness 4+),
    outside the deployment (IV-B-1, XX-F-3: reason to speak early)."""
    if state.round == 0 or not has_field(state):
        return False
    eager = max((eagerness(state, c.id) for c in state.cards_of(player)), default=0.0)
    return eager >= 4.0


def tactics_rivals(progress: StrategicProgress, player: int) -> tuple[int, ...]:
    """The players whose Tactics results ``player``'s is opposed to (IV-A-2): every other
    one, but with three players or more (XX-F-3) only those of his group while a tied group
    rolls again among themselves (the others keep their places)."""
    for group in progress.ranking:
        if player in group and len(group) > 1:
            return tuple(p for p in group if p != player)
    return tuple(p for p in range(len(progress.hands)) if p != player)


def _late(state: GameState) -> bool:
    """The last two rounds: time to stand where the scenario scores."""
    return state.round >= state.rounds - 1


# --- victory conditions (XX-A-4): where to stand --------------------------------------------------


def has_conditions(state: GameState) -> bool:
    """A chapter-20 scenario with victory conditions on a laid-out table (XX-A-4)."""
    scenario = scenario_of(state)
    return scenario is not None and bool(scenario.conditions) and state.battleground is not None


def _radius(state: GameState, fighter: Fighter) -> float:
    base = field_of(state).base(fighter.id) if has_field(state) else None
    if base is None:
        return 1.25
    return max(base.width_mm, base.depth_mm) / 20.0


@dataclass(frozen=True)
class Aim:
    """A place a victory condition wants his fighters at (XX-A-4): ``contact`` when a base
    touching ``shape`` counts (XX-C-2 contact mode), else the whole base must lie in it;
    ``weight``: how many of the player's conditions and bonuses want it."""

    shape: BaseGeometry
    contact: bool
    weight: int


def at_aim(state: GameState, fighter: Fighter, x: float, y: float, aim: Aim) -> float:
    """How well ``fighter`` standing at (x, y) stands at ``aim``: 1 counted there (the base
    wholly inside a zone, or touching a contact objective), :data:`AIM_TOUCH` with his base
    only partly in a zone, 0 away."""
    r = _radius(state, fighter)
    point = Point(x, y)
    d = float(aim.shape.distance(point))
    if d > r + 0.2:
        return 0.0
    if aim.contact:
        return 1.0
    if d == 0.0 and float(aim.shape.boundary.distance(point)) >= r:
        return 1.0
    return AIM_TOUCH


def aim_distance(state: GameState, fighter: Fighter, x: float, y: float, aim: Aim) -> float:
    """How far (cm) ``fighter`` at (x, y) is from counting at ``aim`` (0: he counts)."""
    r = _radius(state, fighter)
    d = float(aim.shape.distance(Point(x, y)))
    if aim.contact:
        return max(d - r, 0.0)
    if d > 0.0:
        return d + r
    return max(r - float(aim.shape.boundary.distance(Point(x, y))), 0.0)


def _route(state: GameState, fighter: Fighter, aim: Aim) -> list[tuple[tuple[float, float], float]]:
    """V-A: the corners of the most direct way round the scenery and fighters from
    ``fighter`` to the nearest point of ``aim``, each with the length of the way left from it
    to the aim; empty when the straight way is open or there is none (cached per state)."""
    key = f"route:{fighter.id}:{id(aim.shape)}"
    route: list[tuple[tuple[float, float], float]] | None = state.scratch.get(key)
    if route is not None:
        return route
    route = []
    if has_field(state) and fighter.id in field_of(state).battlefield.fighters:
        path = field_of(state).path(fighter.id, _aim_point(state, fighter, aim))
        if path is not None and len(path.points) > 2:
            left, tails = 0.0, []
            for a, b in reversed(list(zip(path.points[1:], path.points[2:], strict=False))):
                left += math.dist(a, b)
                tails.append(left)
            route = list(zip(path.points[1:-1], reversed(tails), strict=True))
    state.scratch[key] = route
    return route


def _aim_point(state: GameState, fighter: Fighter, aim: Aim) -> tuple[float, float]:
    """Where a way to ``aim`` ends: the nearest place where his whole base stands in the
    zone (or just outside a contact objective, touching it)."""
    r = _radius(state, fighter)
    shape = aim.shape.buffer(r + 0.2) if aim.contact else aim.shape.buffer(-r - 0.1)
    if shape.is_empty:
        shape = aim.shape
    point = nearest_points(shape.boundary, Point(fighter.x, fighter.y))[0]
    return float(point.x), float(point.y)


def routed_aim_distance(state: GameState, fighter: Fighter, x: float, y: float, aim: Aim) -> float:
    """How far (cm) ``fighter`` at (x, y) is from counting at ``aim``, going round what
    stands in the straight way (V-A): through the nearest corner of his way (:func:`_route`),
    so that a place pressed against a wall is not taken for progress."""
    straight = aim_distance(state, fighter, x, y, aim)
    route = _route(state, fighter, aim) if straight > 0.0 else []
    if not route:
        return straight
    return max(straight, min(math.dist((x, y), c) + tail for c, tail in route))


def _contact_shapes(state: GameState) -> set[bytes]:
    """The shapes of the scenario's contact-mode objectives (XX-C-2)."""
    from confrontation.scenarios.control import objective_zone

    scenario = scenario_of(state)
    if scenario is None or state.battleground is None:
        return set()
    out = set()
    for objective in scenario.objectives.items:
        zone = objective_zone(state, objective)
        if zone.contact:
            out.add(zone.shape.wkb)
    return out


def _aim_table(state: GameState, player: int) -> list[tuple[Aim, list[Fighter]]]:
    """``player``'s distinct aims (XX-A-4), each with his fighters in play standing at it
    (cached per state)."""
    key = f"aim-table:{player}"
    table: list[tuple[Aim, list[Fighter]]] | None = state.scratch.get(key)
    if table is not None:
        return table
    weights: dict[bytes, tuple[BaseGeometry, int]] = {}
    for shape in aims(state, player):
        wkb = shape.wkb
        old = weights.get(wkb)
        weights[wkb] = (shape, 1 if old is None else old[1] + 1)
    contact = _contact_shapes(state) if weights else set()
    friends = friends_in_play(state, player)
    table = []
    for wkb, (shape, weight) in weights.items():
        aim = Aim(shape, wkb in contact, weight)
        table.append((aim, [f for f in friends if at_aim(state, f, f.x, f.y, aim) > 0.0]))
    state.scratch[key] = table
    return table


def my_aims(state: GameState, fighter: Fighter) -> list[Aim]:
    """The aim ``fighter`` goes for (XX-A-4; empty: none, he fights): his player's fighters
    are shared among the aims in proportion to the conditions and bonuses wanting each;
    those already standing at an aim keep it while its share is not full (the cheapest
    first), the others take the nearest aim with room left (cached per state)."""
    if not has_conditions(state):
        return []
    return _plan(state, fighter.player).get(fighter.id, [])


def _plan(state: GameState, player: int) -> dict[str, list[Aim]]:
    key = f"aim-plan:{player}"
    plan: dict[str, list[Aim]] | None = state.scratch.get(key)
    if plan is not None:
        return plan
    table = _aim_table(state, player)
    friends = friends_in_play(state, player)
    plan = {f.id: [] for f in friends}
    total = sum(aim.weight for aim, _ in table)
    shares = [max(1, math.ceil(len(friends) * aim.weight / total)) for aim, _ in table]
    for i, (aim, there) in enumerate(table):
        for f in sorted(there, key=lambda f: (worth(state, f), f.id)):
            if shares[i] > 0 and not plan[f.id]:
                plan[f.id].append(aim)
                shares[i] -= 1
    pairs = sorted(
        (aim_distance(state, f, f.x, f.y, aim), f.id, i)
        for f in friends
        if not plan[f.id]
        for i, (aim, _) in enumerate(table)
    )
    for _, fid, i in pairs:
        if not plan[fid] and shares[i] > 0:
            plan[fid].append(table[i][0])
            shares[i] -= 1
    state.scratch[key] = plan
    return plan


def aim_hold(state: GameState, fighter: Fighter, x: float, y: float) -> float:
    """How well ``fighter`` at (x, y) stands at his aim (0: at none)."""
    return max((at_aim(state, fighter, x, y, a) for a in my_aims(state, fighter)), default=0.0)


def _fighting(state: GameState, fighter: Fighter) -> bool:
    """An enemy stands within his charge reach (plus a base): he is needed in the fight."""
    reach = charge_reach(state, fighter) + 3.0
    return any(
        math.dist((fighter.x, fighter.y), (e.x, e.y)) <= reach
        for e in enemies_in_play(state, fighter.player)
    )


def eagerness(state: GameState, card_id: str) -> float:
    """How much a card's fighters want to act now (higher: earlier in the sequence).

    5+: a shooter with a target in range; 4+: an enemy within charge reach he beats;
    2: nobody near (move up); 1: held in contact or facing a stronger enemy in reach (let
    the enemy come: being charged costs less than charging what beats him)."""
    card = state.card(card_id)
    if not has_field(state):
        return 3.0 if state.profile(card.profile).shooter else 2.0
    # kept with the card's fighters: the rest it reads (who is in play, each one's
    # eagerness) is the status's (the strategic phase scores every card left again)
    return keep(state, ("card-eager", card.fighters), lambda: _card_eagerness(state, card))


def _card_eagerness(state: GameState, card: Card) -> float:
    best = 0.0
    for fid in card.fighters:
        fighter = state.fighter(fid)
        if not fighter.in_play:
            continue
        best = max(best, fighter_eagerness(state, fighter))
    return best


def fighter_eagerness(state: GameState, fighter: Fighter) -> float:
    """:func:`_fighter_eagerness`, kept while the state's :func:`.assess.status_key` is the
    same (it reads nothing else: the field, the profiles, the fighters' wounds, states,
    covers and worths). The strategic phase scores every card left after each one placed
    (IV-A-1) and the floor scores cards again between announcements, with nobody moved:
    each fighter is scored once per arrangement."""
    return keep(state, ("eager", fighter.id), lambda: _fighter_eagerness(state, fighter))


def _fighter_eagerness(state: GameState, fighter: Fighter) -> float:
    here = field_of(state)
    if here.enemies_in_contact(fighter.id):
        return 1.0
    foes = enemies_in_play(state, fighter.player)
    if not foes:
        return 0.0
    profile = state.profile(fighter.profile)
    if profile.shooter:
        best = best_of(
            maybe_in_range(state, fighter, foes),
            lambda e: shot_value_bound(state, fighter.id, e.id, unmoving=True),
            lambda e: shot_value(state, fighter.id, e.id, unmoving=True),
            floor=SHOT_WORTH_TAKING,  # below it the shot's value is not read: no sight
        )
        if best >= SHOT_WORTH_TAKING:
            return 5.0 + best / 10.0
    reach = charge_reach(state, fighter)
    mine = blow_of(state, fighter)
    # farther_than's two tests: the centres' bound for every enemy at once, then the gap
    near = [
        e
        for e in not_surely_apart(state, fighter.id, foes, reach)
        if gap(state, fighter.id, e.id) <= reach
    ]
    if near:
        edge = max(duel(mine, charged_blow(state, fighter, e)) for e in near)
        if edge >= CHARGE_MARGIN:
            return 4.0 + edge / 10.0
        return 1.0
    return 2.0


def charged_blow(state: GameState, charger: Fighter, target: Fighter) -> Blow:
    """The target's values when ``charger`` charges him (V-B-3: the penalty if the charger's
    Power is at least his)."""
    penalised = state.profile(charger.profile).power >= state.profile(target.profile).power
    return blow_of(state, target, charged=penalised or target.charged)


def announce_value(state: GameState, choice: Announce) -> float | None:
    """The worth of announcing ``choice`` (None: not worth it)."""
    value = announce_worth(state, choice)
    if value is None or not _needs_path(choice):
        return value
    return value if _reaches(state, choice) else None


def _shots_in_range(state: GameState, legal: Sequence[Choice]) -> Iterator[Choice]:
    """``legal`` but for the deferred shots (``engine.core.deferred``) at enemies beyond the
    weapon's long range: their value is 0.0 (VI-A-1), below :data:`SHOT_WORTH_TAKING`, so
    they can neither be the best shot nor tie with it, and whether he sees them is never
    worked out."""
    for part in parts_of(legal):
        if not isinstance(part, Deferred):
            yield part
        elif in_range(state, *part.key):
            yield from part.choices()


def _shots_worth_weighing(
    state: GameState, legal: Sequence[Choice]
) -> tuple[list[Shoot], dict[Shoot, float]]:
    """The shots of ``legal`` that may be taken or tie with the one taken, in ``legal``'s
    order, and their values: every shot valued at least :data:`SHOT_WORTH_TAKING` and
    within 1e-9 of the best (:meth:`GreedyAgent.best`'s ties), maybe some others.

    A deferred part (one shooter and target, ``engine.core.deferred``) is worked out —
    whether he sees the target, then its value as he sees him — only while its bound
    (:func:`.assess.shot_value_bound`, moving or not, without the sight) reaches the best
    value found so far and the threshold, from the largest bound down: a part below cannot
    hold a shot the agent takes or draws among, so the choice and the dice drawn are those
    of weighing every shot. Parts beyond the long range are worth 0.0 (VI-A-1) and never
    worked out (:func:`_shots_in_range`)."""
    found: list[tuple[int, int, Shoot]] = []
    values: dict[Shoot, float] = {}
    pending: list[tuple[float, int, Deferred]] = []

    def weigh(index: int, choices: Sequence[Choice]) -> None:
        for k, c in enumerate(choices):
            if isinstance(c, Shoot):
                values[c] = shot_value(state, c.fighter, c.target, unmoving=c.still)
                found.append((index, k, c))

    for index, part in enumerate(parts_of(legal)):
        if not isinstance(part, Deferred):
            weigh(index, (part,))
        elif in_range(state, *part.key):
            shooter, target = part.key
            bound = max(
                shot_value_bound(state, shooter, target, unmoving=still) for still in (False, True)
            )
            pending.append((bound, index, part))
    top = max(values.values(), default=SHOT_WORTH_TAKING)
    for bound, index, part in sorted(pending, key=lambda p: (-p[0], p[1])):
        if bound < max(top, SHOT_WORTH_TAKING) - 1e-9:
            break
        weigh(index, part.choices())
        top = max(values.values(), default=top)
    found.sort(key=lambda f: (f[0], f[1]))
    return [c for _, _, c in found], values


def _needs_path(choice: Announce) -> bool:
    return choice.action != "run"


def _reaches(state: GameState, choice: Announce) -> bool:
    """The assault of ``choice`` reaches its target (V-B-3, along the path)."""
    assert choice.target is not None
    return _reachable(state, state.fighter(choice.fighter), state.fighter(choice.target))


RUN_BOUND = -1.0 + 1e-6
"""At least the worth of a run (:func:`_run_value`: -1.0 or nothing), with 1e-6 to spare."""


@dataclass(frozen=True)
class _Unscored:
    """An announcement in ``_announce``'s queue under its bound, scored when it comes first
    (a run: its worth reads the goal's distance and the best shot, asked only if no
    assault worth more reaches)."""

    choice: Announce


def _kept_worth(state: GameState, choice: Announce) -> float | None:
    """:func:`announce_worth` of an assault, kept while the state's
    :func:`.assess.status_key` is the same when the scenario has no victory conditions: it
    then reads the field (the straight reach, the contacts), the two fighters' profiles and
    values (``blow_of``: profile, wounds, Stunned, charge penalty), the target's worth and
    the best shot (itself kept on the status), all in the key. Every announcement question
    of an activation (nobody moves between them) scores the same assaults of the card's
    fighters again. A run reads the goal (the round, the tokens): worked out each time."""
    if choice.action == "run" or has_conditions(state):
        return announce_worth(state, choice)
    return keep(state, ("announce", choice), lambda: announce_worth(state, choice))


def _maybe_near(
    state: GameState, fighter_id: str, parts: list[tuple[int, Deferred]]
) -> list[tuple[int, Deferred]]:
    """``parts`` (deferred assaults of ``fighter_id``) but those on enemies whose bases are
    surely farther apart than his charge reach (:func:`.assess.not_surely_apart`, every
    target at once): :func:`_near` is False for them (its first test, ``farther_than``)."""
    fighter = state.fighter(fighter_id)
    targets = [state.fighter(part.key[1]) for _, part in parts]
    near = {
        e.id for e in not_surely_apart(state, fighter_id, targets, charge_reach(state, fighter))
    }
    return [(i, part) for i, part in parts if part.key[1] in near]


def _kept_bound(state: GameState, fighter_id: str, target_id: str) -> float | None:
    """:func:`_assault_bound` of ``fighter_id`` on ``target_id`` (None: not :func:`_near`,
    no announcement of it is worth any), kept while :func:`.assess.status_key` is the same
    (both read only the field, the profiles and the two fighters' values and worths)."""

    def work() -> float | None:
        fighter, target = state.fighter(fighter_id), state.fighter(target_id)
        if not _near(state, fighter, target):
            return None
        return _assault_bound(state, fighter, target)

    return keep(state, ("assault-bound", fighter_id, target_id), work)


def _assault_bound(state: GameState, fighter: Fighter, target: Fighter) -> float:
    """At least :func:`announce_worth` of every announcement of an assault free of contact of
    ``fighter`` on ``target`` (a charge, with or without the assault shot, or an
    engagement): the duel and the friends joined as there, the charge's 0.5 and the shot's
    0.2 added, the cost of leaving an aim (never below 0) and the cases worth nothing left
    out, and 1e-6 to spare for the order of the sums."""
    value = duel(blow_of(state, fighter), charged_blow(state, fighter, target))
    here = field_of(state)
    helpers = [f for f in here.contacts(target.id) if here.owners[f] == fighter.player]
    value += 0.1 * worth(state, target) * len(helpers) + 0.5
    if state.profile(fighter.profile).shooter and not helpers:
        value += 0.2
    return value + 1e-6


def announce_worth(state: GameState, choice: Announce) -> float | None:
    """:func:`announce_value` but for the path of an assault: the straight line only says it
    might reach (the value is pure and far cheaper than the path)."""
    fighter = state.fighter(choice.fighter)
    if choice.action == "cover":
        return None
    if choice.method is not None:
        return None  # the agent does not disengage (V-C): he fights where he stands
    profile = state.profile(fighter.profile)
    if choice.action == "run":
        if profile.shooter and _shot_reaches(state, fighter, SHOT_WORTH_TAKING):
            return None
        return _run_value(state, fighter)
    assert choice.target is not None
    target = state.fighter(choice.target)
    if not _near(state, fighter, target):
        return None
    value = duel(blow_of(state, fighter), charged_blow(state, fighter, target))
    here = field_of(state)
    helpers = [f for f in here.contacts(target.id) if here.owners[f] == fighter.player]
    value += 0.1 * worth(state, target) * len(helpers)  # joining friends: he faces many
    value += 0.5 if choice.action == "charge" else 0.0
    if has_conditions(state):
        value -= _leaving(state, fighter, target)
    if choice.shoot:
        value += 0.2 if not helpers else -1.0
    if profile.shooter and _shot_reaches(state, fighter, value):
        return None  # his best shot is worth as much
    return value if value >= CHARGE_MARGIN else None


WRECK_VALUE = 5.0
"""C3, XX-A-4: what an assault on an element of scenery whose destruction fulfils one of his
conditions is worth (as a duel's AP): more than an even fight, less than a good one."""


def wreck_value(state: GameState, fighter_id: str, element: str) -> float | None:
    """The worth of attacking ``element`` (None: it fulfils none of his conditions)."""
    if not has_conditions(state):
        return None
    return WRECK_VALUE if element in wrecked(state, state.fighter(fighter_id).player) else None


def _leaving(state: GameState, fighter: Fighter, target: Fighter) -> float:
    """XX-A-4: what charging ``target`` costs a fighter standing at one of his aims when the
    target stands away from it (he would leave it): :data:`AIM_HOLD` of his worth."""
    held = [a for a in my_aims(state, fighter) if at_aim(state, fighter, fighter.x, fighter.y, a)]
    if not held:
        return 0.0
    if any(float(a.shape.distance(Point(target.x, target.y))) <= 3.0 for a in held):
        return 0.0
    return AIM_HOLD * worth(state, fighter) * aim_hold(state, fighter, fighter.x, fighter.y)


def counters_value(state: GameState, player: int, choice: object) -> float:
    """XX-B-2: how much moving counters as ``choice`` (a ``CounterChoice``) helps ``player``:
    for every ``counters`` condition (its VP) and bonus (its AP / 10), the counters it sums
    for a player move toward (``at_least``, ``most``) or away from (``at_most``, ``fewest``)
    what it asks, counted for him, against him for his enemies."""
    from confrontation.scenarios.conditions import Bonus, Condition, params_of
    from confrontation.scenarios.counters import ADD, CounterChoice, selection
    from confrontation.scenarios.objectives import COUNTERS, CountersParams
    from confrontation.scenarios.victory import kind_of

    assert isinstance(choice, CounterChoice)
    scenario = scenario_of(state)
    if scenario is None:
        return 0.0
    power = state.profile(state.fighter(choice.fighter).profile).power
    now = scenario.objectives.count(choice.objective)
    delta = power if choice.action == ADD else -min(power, now)
    total = 0.0
    items: tuple[Condition | Bonus, ...] = (*scenario.conditions, *scenario.bonuses)
    for item in items:
        if item.kind != COUNTERS:
            continue
        table = "condition" if isinstance(item, Condition) else "bonus"
        params = params_of(kind_of(state, table, item.kind), item)
        assert isinstance(params, CountersParams)
        weight = float(item.vp) if isinstance(item, Condition) else item.ap / 10.0
        upward = 1.0 if params.at_least is not None or params.most else -1.0
        relative = params.at_least is None and params.at_most is None
        for p in state.players:
            if not item.concerns(p):
                continue
            side = 1.0 if p == player else -1.0
            for q in state.players:
                if choice.objective not in selection(scenario, params, q):
                    continue
                if q == p:
                    total += side * weight * upward * delta
                elif relative:
                    total -= side * weight * upward * delta
    return total


def _near(state: GameState, fighter: Fighter, target: Fighter) -> bool:
    """The straight line says the assault might reach (every path is at least as long)."""
    reach = charge_reach(state, fighter)
    if farther_than(state, fighter.id, target.id, reach):
        return False
    here = field_of(state)
    return not beyond(here.base(fighter.id), here.base(target.id), reach)


def _reachable(state: GameState, fighter: Fighter, target: Fighter) -> bool:
    """V-B-3: the assault reaches (the agent judges distances as a practised player)."""
    if not _near(state, fighter, target):
        return False
    reach = charge_reach(state, fighter)
    here = field_of(state)
    # V-A, CLARIFICATIONS §9: across landforms of his size only within MOV x 1
    mov = state.profile(fighter.profile).mov
    through = _passable(state, here, fighter.id)
    path = here.move_path(fighter.id, target.id, through, mov=mov, potential=reach, reach=reach)
    return path is not None and path.length <= reach


def _passable(state: GameState, here: Field, mover: str) -> tuple[str, ...]:
    """V-A: ``field.pass_through`` (the friends ``mover`` may pass through), kept for the last
    tuple of fighter records and field: it reads the field's fighters, owners and contacts
    and the records' ``activated`` flags only (an activation's announcement questions ask
    it again for the same movers)."""
    fighters = state.fighters
    if _PASSABLE[0] is not fighters or _PASSABLE[1] is not here:
        _PASSABLE[:] = [fighters, here, {}]
    kept: dict[str, tuple[str, ...]] = _PASSABLE[2]
    found = kept.get(mover)
    if found is None:
        found = kept[mover] = pass_through(state, here, mover)
    elif assess.CHECK_KEPT:
        assert found == pass_through(state, here, mover), mover
    return found


_PASSABLE: list[Any] = [None, None, {}]
"""The fighters' tuple and field :func:`_passable` last worked for, and its answers."""


def _best_shot(state: GameState, fighter: Fighter) -> float:
    """The best shot value at an enemy he sees (0.0: none), kept while the state's
    :func:`.assess.status_key` is the same (it reads the field's sight and the shot values)."""
    return keep(state, ("best-shot", fighter.id), lambda: _best_shot_now(state, fighter))


def _shot_reaches(state: GameState, fighter: Fighter, value: float) -> bool:
    """``_best_shot(state, fighter) >= value``, told without the sight when even the best
    bound (:func:`_best_shot_bound`) is below ``value``: the best shot is never above it."""
    if _best_shot_bound(state, fighter) < value:
        if assess.CHECK_KEPT:
            assert _best_shot(state, fighter) < value, (fighter.id, value)
        return False
    return _best_shot(state, fighter) >= value


def _best_shot_bound(state: GameState, fighter: Fighter) -> float:
    """At least :func:`_best_shot`: the largest :func:`.assess.shot_value_bound` (no sight)
    of the enemies maybe in range (0.0: none), kept as :func:`_best_shot` is."""

    def work() -> float:
        foes = maybe_in_range(state, fighter, enemies_in_play(state, fighter.player))
        bounds = [shot_value_bound(state, fighter.id, e.id, unmoving=True) for e in foes]
        return max(bounds, default=0.0)

    return keep(state, ("best-shot-bound", fighter.id), work)


def _best_shot_now(state: GameState, fighter: Fighter) -> float:
    here = field_of(state)
    return float(
        best_of(
            maybe_in_range(state, fighter, enemies_in_play(state, fighter.player)),
            lambda e: shot_value_bound(state, fighter.id, e.id, unmoving=True),
            lambda e: (
                shot_value(state, fighter.id, e.id, unmoving=True)
                if here.sees(fighter.id, e.id)
                else 0.0
            ),
        )
    )


def _run_value(state: GameState, fighter: Fighter) -> float | None:
    """Run when the goal is further than a walk takes him."""
    goal = goal_distance(state, fighter, fighter.x, fighter.y)
    if goal <= state.profile(fighter.profile).mov:
        return None
    return -1.0  # below any charge: only fighters with nothing better run


def walk_pays(state: GameState, fighter_id: str) -> bool:
    """A walk brings him nearer his goal (V-B-1): the goal is more than a step away, or he
    is the Commander and may walk into contact with a flag (CP-DOMINATE)."""
    fighter = state.fighter(fighter_id)
    goal = goal_distance(state, fighter, fighter.x, fighter.y)
    if flag_contact_goals(state, fighter_id) and not dominance_at(
        state, fighter, fighter.x, fighter.y
    ):
        return True  # CP-DOMINATE: his Commander may walk into contact with a flag
    if has_conditions(state) and my_aims(state, fighter):
        return goal > 0.3  # XX-C-2: a base half in the zone does not count there yet
    return goal > 2.0


def goal_distance(state: GameState, fighter: Fighter, x: float, y: float) -> float:
    """How far (cm) the fighter at (x, y) is from where he wants to be: in range of a target
    for a shooter, in contact for the others, or inside an area the scenario scores (in the
    last two rounds, only there). With victory conditions (XX-A-4), at his aims
    (:func:`my_aims`) — only there unless an enemy is within his reach."""
    # XX-D-1: a token he could pick up (his moves may end on it)
    tokens = [math.dist((x, y), (tx, ty)) for _, tx, ty in move_goals(state, fighter.id)]
    if has_conditions(state):
        mine = my_aims(state, fighter)
        area = min((routed_aim_distance(state, fighter, x, y, a) for a in mine), default=None)
        if area is not None and (_late(state) or not _fighting(state, fighter)):
            return min([area, *tokens])
    else:
        area = _objective_distance(state, fighter.player, x, y)
    if area is not None and _late(state):
        return area
    foes = enemies_in_play(state, fighter.player)
    profile = state.profile(fighter.profile)
    goals: list[float] = [] if area is None else [area]
    if tokens:
        goals.append(min(tokens))
    if foes:
        near = _nearest(state, fighter.player, (x, y))
        if profile.shooter and profile.ranges:
            goals.append(max(near - profile.ranges[1], 0.0))
        else:
            goals.append(max(near - 3.0, 0.0))
    if not goals:
        return math.dist((x, y), _centre(state))
    return min(goals)


def _nearest(state: GameState, player: int, spot: tuple[float, float]) -> float:
    """The straight distance from ``spot`` to the nearest centre of ``player``'s enemies in
    play (at least one): ``math.dist`` to each centre, the centres kept for the last tuple
    of fighter records (a destination question measures every place against them)."""
    fighters = state.fighters
    if _CENTRES_OF[0] is not fighters:
        _CENTRES_OF[:] = [fighters, {}]
    kept: dict[int, list[tuple[float, float]]] = _CENTRES_OF[1]
    points = kept.get(player)
    if points is None:
        points = kept[player] = [(e.x, e.y) for e in enemies_in_play(state, player)]
    near = min(map(math.dist, repeat(spot, len(points)), points))
    if assess.CHECK_KEPT:
        assert near == min(math.dist(spot, (e.x, e.y)) for e in enemies_in_play(state, player))
    return near


_CENTRES_OF: list[Any] = [None, {}]
"""The fighters' tuple :func:`_nearest` last worked for, and the enemies' centres per
player."""


def position_value(
    state: GameState, fighter: Fighter, x: float, y: float, facing: float | None = None
) -> float:
    """Where to stand: nearer the goal, out of reach of enemies still to act who would
    charge and beat him there (``facing``: his base's there, None: as now)."""
    value = worth(state, fighter)
    advance = -ADVANCE_PER_CM * value * goal_distance(state, fighter, x, y)
    threat = threat_at(state, fighter, x, y)
    if has_conditions(state):
        # XX-A-4: standing at an aim scores; an enemy's prey (his Commander) keeps away
        advance += AIM_HOLD * value * aim_hold(state, fighter, x, y)
        if is_prey(state, fighter):
            threat *= 2.0
        if shuns_kill_box(state, fighter, x, y):  # CP-KILL-BOX
            advance -= KILL_BOX_SHUN * value
        more = dominance_at(state, fighter, x, y, facing)  # CP-DOMINATE
        if more > 0:
            advance += DOMINATE_HOLD * value * min(more, 2)
    return advance - threat


def combatant_blow(state: GameState, combatant: Combatant) -> Blow:
    """A combatant's current values as an attack reads them."""
    p = _plain_blow(combatant)
    value = worth(state, state.fighter(combatant.id))
    return Blow(p.ini, p.att, p.str_, p.def_, p.res, p.wounds, value)


def _attacks_to_come(board: CombatState, target: str, attacker: str) -> list[Blow]:
    """The attacks still to come against ``target`` in this weapon combat after the one
    under way (every attack die his opponents have left)."""
    return [
        _plain_blow(f)
        for f in board.fighters
        if f.alive and target in board.opponents(f.id)
        for _ in range(max(f.attack_left - (1 if f.id == attacker else 0), 0))
    ]


def _plain_blow(combatant: Combatant) -> Blow:
    """A combatant's current values (worth 0.0), kept per combatant record: they read the
    record only (``Combatant.current``: its stats, modifiers, health and sustained defence),
    and a question's scoring reads the same records many times (``allocation_value``
    scores every split, and each opponent's expected answer to it)."""
    found = _PLAIN_BLOWS.get(id(combatant))
    if found is not None and found[0] is combatant:
        if assess.CHECK_KEPT:
            assert found[1] == _plain_blow_now(combatant), combatant
        return found[1]
    if len(_PLAIN_BLOWS) >= _PLAIN_BLOWS_SIZE:
        _PLAIN_BLOWS.clear()
    blow = _plain_blow_now(combatant)
    _PLAIN_BLOWS[id(combatant)] = (combatant, blow)  # the record held: its id stays its own
    return blow


_PLAIN_BLOWS: dict[int, tuple[Combatant, Blow]] = {}
_PLAIN_BLOWS_SIZE = 4096


def _plain_blow_now(combatant: Combatant) -> Blow:
    return Blow(
        combatant.current(C.INI),
        combatant.current(C.ATT),
        combatant.current(C.STR),
        combatant.current(C.DEF),
        combatant.current(C.RES),
        combatant.health.wound_levels,
        0.0,
    )


def allocation_value(
    state: GameState,
    board: CombatState,
    fighter_id: str,
    attack: int,
    defence: int,
    unallocated: Sequence[str],
    guess: bool = True,
) -> float:
    """Expected AP won minus AP lost in this combat for an allocation of ``fighter_id``'s
    dice, attack by attack (VII-C-1, VII-C-3): his attacks go one to each opponent, the
    likeliest to pay first; his defence dice each block one of the strongest attacks. An
    opponent who has not allocated yet is assumed to answer the same way against an even
    split of this fighter's dice (``guess`` False: to split his own dice evenly)."""
    me = board.fighter(fighter_id)
    mine = combatant_blow(state, me)
    foes = [board.fighter(o) for o in board.opponents(fighter_id)]
    if not foes:
        return 0.0
    waiting = set(unallocated)
    split: dict[str, tuple[int, int]] = {}
    for foe in foes:
        if foe.id not in waiting:
            split[foe.id] = (foe.attack_left, foe.defence_left)
        elif guess:
            split[foe.id] = _expected_split(state, board, foe.id, fighter_id)
        else:
            dice = combat_dice_of(board, foe.id)
            split[foe.id] = (dice - dice // 2, dice // 2)
    gains = []
    player = state.fighter(fighter_id).player
    for foe in foes:
        if spares(state, player, foe.id):  # XX-C-4: a capture target is kept alive
            gains.append([0.0] * attack)
            continue
        blow = combatant_blow(state, foe)
        parry = split[foe.id][1]
        gains.append([hit_value(mine, blow, 1 if k < parry else 0) for k in range(attack)])
    dealt = 0.0
    order = sorted(range(len(foes)), key=lambda i: -gains[i][0] if gains[i] else 0.0)
    for k in range(attack):
        i = order[k % len(order)]
        dealt += gains[i][k // len(order)]
    incoming: list[float] = []
    for foe in foes:
        strikes = split[foe.id][0]
        blow = combatant_blow(state, foe)
        incoming += [hit_value(blow, mine, 0) - hit_value(blow, mine, 1)] * strikes
        dealt -= hit_value(blow, mine, 0) * strikes
    incoming.sort(reverse=True)
    saved = sum(incoming[:defence])
    if defence and defence >= attack and len(incoming) > defence:
        saved += 0.3 * sum(incoming[defence:])  # VII-C-5: a sustained defence keeps a die
    return dealt + saved


def _expected_split(
    state: GameState, board: CombatState, foe: str, against: str
) -> tuple[int, int]:
    """The split an opponent still to allocate is expected to choose (his best answer to an
    even split of ``against``'s dice), kept on the state's scratch per combat record: a
    question scores every split of ``against``'s and each asks the same answer again (it
    reads the state, the record and the two fighters only)."""
    kept: dict[tuple[int, str, str], tuple[CombatState, tuple[int, int]]] = (
        state.scratch.setdefault("expected-splits", {})
    )
    hit = kept.get((id(board), foe, against))
    if hit is not None and hit[0] is board:
        if assess.CHECK_KEPT:
            assert hit[1] == _expected_split_now(state, board, foe, against), (foe, against)
        return hit[1]
    split = _expected_split_now(state, board, foe, against)
    kept[(id(board), foe, against)] = (board, split)  # the record held: its id stays its own
    return split


def _expected_split_now(
    state: GameState, board: CombatState, foe: str, against: str
) -> tuple[int, int]:
    dice = combat_dice_of(board, foe)
    options = [(dice - d, d) for d in range(dice + 1)]
    return max(
        options,
        key=lambda o: allocation_value(state, board, foe, o[0], o[1], (against,), guess=False),
    )


def combat_dice_of(board: CombatState, fighter_id: str) -> int:
    """VII-C-1: 1 + the number of opponents."""
    return 1 + len(board.opponents(fighter_id))
