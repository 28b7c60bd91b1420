"""The rules of the basic scenarios (III-A-2): victory points, round limits, Execution.

- **Control** scenarios (Bloodbath, Conquest): when the last round is over each area is
  checked (:mod:`~.control`); its controller scores the area's victory points; the player
  with most VP wins, a tie for the most is a draw (Bloodbath: the area is the whole
  battlefield and is worth 1 VP, so its controller wins).
- **Execution**: each player must kill a given enemy — the one with the highest strategic
  value, equipment included, or (variation) every fighter of an enemy card drawn at random.
  "The first player to accomplish this is declared the winner immediately": a watch ends the
  game on the step that kills the last of them. After 5 rounds without it, a draw.

With three players or more (XX-F, docs/rulings.md) the scores have one entry per player, the
enemies are all the other players' fighters, and an Execution target counts only when one of
the player's own fighters kills it.

Plugged into the engine through ``engine.core.ending`` (a scoring hook and a watch) and, for the
random-card draw, the deployment and strategic phase drivers (a chance step before the set-up).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from confrontation.dice import FACES
from confrontation.engine.core.events import Event, FighterKilled
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import Narrator, listed
from confrontation.engine.core.outcome import Ending, Termination
from confrontation.engine.core.questions import Choice, DieFace, Option, Question
from confrontation.engine.core.registry import (
    Handler,
    PhaseDriver,
    Transition,
)
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import NEUTRAL, GameState, Pending, Phase, player_name
from confrontation.engine.round import strategic as _strategic  # noqa: F401
from confrontation.scenarios import parties
from confrontation.scenarios.base import Scenario
from confrontation.scenarios.commander import designate
from confrontation.scenarios.control import (
    area_vp,
    control,
    fighter_value,
    objective_places,
    scenario_of,
)
from confrontation.scenarios.situation import install_scenery
from confrontation.scenarios.victory import score_conditions

# --- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AreaControlled(Event):
    """An area checked at the end of the game (III-A-2): Powers, values, controller."""

    kind = "area_controlled"
    area: str
    powers: tuple[int, ...]
    values: tuple[int, ...]
    controller: int | None


@dataclass(frozen=True)
class ObjectiveScored(Event):
    """``player`` scores ``vp`` victory points for ``objective`` (III-A-2, XX-A-4)."""

    kind = "objective_scored"
    player: int
    objective: str
    vp: int


@dataclass(frozen=True)
class TargetsSet(Event):
    """Execution (III-A-2): the enemy fighters ``player`` must kill (``card`` when drawn)."""

    kind = "targets_set"
    player: int
    fighters: tuple[str, ...]
    card: str | None = None


# --- setting a scenario up ---------------------------------------------------------------------


def highest_value_targets(state: GameState, player: int) -> tuple[str, ...]:
    """III-A-2 Execution: the enemies of ``player`` with the highest strategic value
    (equipment included), among every other player's fighters; killing any one of them
    fulfils the goal (docs/rulings.md)."""
    enemies = [
        f
        for f in state.fighters
        if f.player not in (player, NEUTRAL) and f.alive and not f.passive  # XX-E-6
    ]
    if not enemies:
        return ()
    best = max(fighter_value(state, f) for f in enemies)
    return tuple(f.id for f in enemies if fighter_value(state, f) == best)


def install(
    state: GameState,
    scenario: Scenario,
    *,
    values: Mapping[str, int] | None = None,
    rounds: int | None = None,
    champions: Iterable[str] = (),
) -> GameState:
    """``state`` (before it starts) playing ``scenario``: the record in the state, the round
    limit (``rounds`` overrides the scenario's), the scenario's scenery and how the standard
    scenery is placed (XX-A-2), Execution's highest-value targets, the Commanders when the
    scenario needs them (XX-B-1).

    ``values`` maps a card id to the strategic value of one of its fighters with his
    equipment (I-D-2); :func:`card_values` computes it from the army lists. ``champions``
    names the cards of Champions (:func:`champion_cards`), among whom the Commanders are
    designated. A scenario with areas placed by coordinates is refused for three players or
    more (a one-line ``ValueError`` naming XX-F-1).
    """
    players = state.players
    record = scenario.record(rounds, players=len(players))
    record = dataclasses.replace(
        record,
        values=tuple(sorted((values or {}).items())),
        targets=((),) * len(players),
    )
    state = dataclasses.replace(state, scenario=record, rounds=record.rounds)
    state = install_scenery(  # XX-A-2
        state, scenario.scenario_scenery, scenario.scenery_placement, _kept_clear(state, scenario)
    )
    state = parties.install(state, scenario.neutrals, scenario.passive)  # XX-E, XX-E-6
    if record.goal == "execution" and record.target == "highest-value":
        targets = tuple(highest_value_targets(state, p) for p in players)
        state = dataclasses.replace(state, scenario=dataclasses.replace(record, targets=targets))
    return designate(state, champions)


TOKEN_CLEAR_CM = 1.0
"""docs/rulings.md XX-A-2: a token's place, as a disc this wide, that standard scenery keeps
6 cm from."""


def _kept_clear(state: GameState, scenario: Scenario) -> list[BaseGeometry]:
    """docs/rulings.md XX-A-2: the scenario's objectives and tokens' places (kept 6 cm from
    the standard scenery, as elements are from each other)."""
    ground = state.battleground
    if ground is None:
        return []
    out: list[BaseGeometry] = []
    for objective in scenario.objectives:
        out += objective_places(objective, ground.width, ground.height)
    if scenario.loot is not None:
        out += [Point(t.x, t.y).buffer(TOKEN_CLEAR_CM, 8) for t in scenario.loot.tokens]
    return out


def card_values(armies: Sequence[object]) -> dict[str, int]:
    """Card id → strategic value of one fighter with his equipment (I-D-2), for armies
    loaded with ``armylists.load.load_army`` (ids as ``engine.setup.game.new_game`` gives them)."""
    from confrontation.armylists.cost import strategic_value
    from confrontation.model.army import Army

    out: dict[str, int] = {}
    for player, army in enumerate(armies):
        assert isinstance(army, Army)
        for n, card in enumerate(army.cards, start=1):
            out[f"p{player + 1}-c{n}"] = strategic_value(card.profile, card.equipment).total
    return out


def champion_cards(armies: Sequence[object]) -> tuple[str, ...]:
    """The card ids of the armies' Champions (I-C, I-D-4; C3's Characters), summoned cards
    left out (not recruited, I-D-1), for :func:`install`."""
    from confrontation.model.army import Army

    out = []
    for player, army in enumerate(armies):
        assert isinstance(army, Army)
        for n, card in enumerate(army.cards, start=1):
            if card.profile.champion and not card.profile.summoned:
                out.append(f"p{player + 1}-c{n}")
    return tuple(out)


# --- the random-card draw (Execution variation) ------------------------------------------------


def _drawing(state: GameState) -> int | None:
    """The player whose target card is still to be drawn, if any."""
    scenario = scenario_of(state)
    if scenario is None or scenario.goal != "execution" or scenario.target != "random-card":
        return None
    for player in state.players:
        if not scenario.targets[player]:
            return player
    return None


def _enemy_cards(state: GameState, player: int) -> list[str]:
    """The other players' cards; never the card of passive individuals (XX-E-6: not of the
    defender's army)."""
    return [
        c.id
        for c in state.cards
        if c.player not in (player, NEUTRAL)
        and not any(state.fighter(f).passive for f in c.fighters)
    ]


def _digits(n: int) -> tuple[int, int]:
    """Dice needed to draw one of ``n`` (base-6 digits) and the largest fair value bound."""
    digits, span = 1, 6
    while span < n:
        digits, span = digits + 1, span * 6
    return digits, span - span % n


def _set_target(state: GameState, player: int, card: str) -> Transition:
    scenario = scenario_of(state)
    assert scenario is not None
    fighters = state.card(card).fighters
    targets = list(scenario.targets)
    targets[player] = fighters
    record = dataclasses.replace(scenario, targets=tuple(targets), draw=())
    return dataclasses.replace(state, scenario=record), [TargetsSet(player, fighters, card)]


def _with_draw(inner: PhaseDriver) -> PhaseDriver:
    def drive(state: GameState) -> Transition:
        player = _drawing(state)
        if player is None:
            return inner(state)
        cards = _enemy_cards(state, player)
        if len(cards) == 1:
            return _set_target(state, player, cards[0])
        return dataclasses.replace(state, pending=Pending(QuestionKind.SCENARIO_DRAW, None)), []

    return drive


def _draw_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    scenario = scenario_of(state)
    player = _drawing(state)
    assert scenario is not None and player is not None
    cards = _enemy_cards(state, player)
    dice = (*scenario.draw, choice.face)
    digits, limit = _digits(len(cards))
    if len(dice) < digits:
        return dataclasses.replace(state, scenario=dataclasses.replace(scenario, draw=dice)), []
    value = 0
    for face in dice:
        value = value * 6 + face - 1
    if value >= limit:  # not a fair draw: roll again
        return dataclasses.replace(state, scenario=dataclasses.replace(scenario, draw=())), []
    return _set_target(state, player, cards[value % len(cards)])


def _draw_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    player = _drawing(state)
    assert player is not None
    n = len(_enemy_cards(state, player))
    whose = "the enemy's" if len(state.players) == 2 else "the other players'"
    prompt = f"Execution: {player_name(player)} draws one of {whose} {n} cards (III-A-2)"
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    return Question(QuestionKind.SCENARIO_DRAW, None, prompt, options)


def _draw_subject(state: GameState) -> int | None:
    return _drawing(state)


# --- scoring and the immediate win ---------------------------------------------------------


def execution_met(state: GameState, player: int) -> bool:
    """``player``'s target is dead (highest value: any of them; a drawn card: all). With three
    players or more the watch also asks who killed it (:func:`watch`)."""
    scenario = scenario_of(state)
    if scenario is None or scenario.goal != "execution" or not scenario.targets[player]:
        return False
    dead = [not state.fighter(f).alive for f in scenario.targets[player]]
    return any(dead) if scenario.target == "highest-value" else all(dead)


def watch(state: GameState, events: Sequence[Event]) -> Ending | None:
    """III-A-2 Execution: "declared the winner immediately". Two players: whoever kills the
    target, his enemy has accomplished it; three or more: only a kill by one of his own
    fighters counts (docs/rulings.md), the first such kill of the step wins."""
    scenario = scenario_of(state)
    if scenario is None or scenario.goal != "execution":
        return None
    several = len(state.players) > 2
    for event in events:
        if not isinstance(event, FighterKilled):
            continue
        for player in state.players:
            if event.fighter not in scenario.targets[player]:
                continue
            if several and _killer(state, event) != player:
                continue
            if execution_met(state, player):
                detail = f"{player_name(player)} has killed his target"
                return Ending(Termination.EXECUTION, player, detail)
    return None


def wiped_out(state: GameState, events: Sequence[Event]) -> Ending | None:
    """XX-A-4 (docs/rulings.md, "XX-A-4 — an army wiped out"): when a kill leaves at most one
    player with a living fighter of his army (passive individuals are not of it, XX-E-6;
    neutral fighters are nobody's), nobody is left to play against: the game ends at once and
    the scenario scores it as at the end of the last round (no winner given here)."""
    if not any(isinstance(event, FighterKilled) for event in events):
        return None
    standing = {f.player for f in state.fighters if f.alive and not f.passive}
    left = [p for p in state.players if p in standing]
    if len(left) > 1:
        return None
    gone = [player_name(p) for p in state.players if p not in standing]
    detail = f"{listed(gone)} {'has' if len(gone) == 1 else 'have'} no fighter left"
    return Ending(Termination.WIPED_OUT, None, detail)


def _killer(state: GameState, event: FighterKilled) -> int | None:
    """The player whose fighter made the kill (None: no fighter of the game did)."""
    killers = [f.player for f in state.fighters if f.id == event.by]
    return killers[0] if killers else None


def score(state: GameState) -> Transition:
    """The scenario's victory points and winner when the game ends (III-A-2)."""
    scenario = scenario_of(state)
    if scenario is None:
        return state, []
    events: list[Event] = []
    vp = [0] * len(state.players)
    winner = state.winner
    if scenario.goal == "execution":
        if winner is not None:
            vp[winner] = 1
            events.append(ObjectiveScored(winner, "execution", 1))
    elif scenario.goal == "conditions":  # XX-A-4
        vp, events = score_conditions(state, scenario)
        leaders = [p for p, points in enumerate(vp) if points == max(vp)]
        winner = leaders[0] if len(leaders) == 1 else None
    else:
        for area in scenario.areas:
            checked = control(state, area)
            events.append(
                AreaControlled(area.name, checked.powers, checked.values, checked.controller)
            )
            if checked.controller is not None:
                points = area_vp(area, checked.controller)
                vp[checked.controller] += points
                events.append(ObjectiveScored(checked.controller, area.name, points))
        leaders = [p for p, points in enumerate(vp) if points == max(vp)]
        winner = leaders[0] if len(leaders) == 1 else None  # a tie for the most: a draw
    return dataclasses.replace(state, scores=tuple(vp), winner=winner), events


def provisional_vp(state: GameState) -> tuple[int, ...]:
    """The victory points each player would score if the game ended now (agents, displays)."""
    scored, _ = score(dataclasses.replace(state, winner=None))
    return scored.scores


def losses_ap(state: GameState, player: int) -> int:
    """The strategic value of ``player``'s fighters killed so far (XX-A-5)."""
    return sum(  # XX-E-6: passive individuals are not of his army
        fighter_value(state, f)
        for f in state.fighters
        if f.player == player and not f.alive and not f.passive
    )


# --- narration -------------------------------------------------------------------------------


def _tell_area(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, AreaControlled)
    p, v = event.powers, event.values
    who = "disputed" if event.controller is None else f"held by {player_name(event.controller)}"
    powers, values = " to ".join(map(str, p)), " to ".join(map(str, v))
    return f"{event.area}: Power {powers}, value {values} — {who}."


def _tell_scored(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, ObjectiveScored)
    return f"{player_name(event.player)} scores {event.vp} VP ({event.objective})."


def _tell_targets(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, TargetsSet)
    names = " or ".join(narrator.fighter(f) for f in event.fighters)
    if event.card is not None:
        return f"{player_name(event.player)} must eliminate {narrator.card(event.card)}."
    return f"{player_name(event.player)} must kill {names}."


def contribute(rules: RulesBuilder) -> None:
    """The basic scenarios' rules (III-A-2): draw, scoring, Execution's watch."""
    rules.sentence("area_controlled", _tell_area)
    rules.sentence("objective_scored", _tell_scored)
    rules.sentence("targets_set", _tell_targets)
    rules.handler(
        Handler(
            QuestionKind.SCENARIO_DRAW,
            lambda s: [DieFace(f) for f in FACES],
            _draw_apply,
            _draw_describe,
            subject=_draw_subject,
        )
    )
    for phase in (Phase.DEPLOYMENT, Phase.STRATEGIC):
        rules.phase(phase, _with_draw(rules.drivers[phase]))
    rules.scoring("basic-scenarios", score)
    rules.watch("execution", watch)
    rules.watch("wiped-out", wiped_out)  # XX-A-4: after Execution (its target killed last)
