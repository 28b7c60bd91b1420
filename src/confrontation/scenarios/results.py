"""A game's result as tournaments read it: tournament points (XX-A-4), goal-average and bonus
(XX-A-5).

- **Tournament points.** "De nombreux scénarios se jouent avec 3 conditions de victoire, afin
  d'utiliser le système de points de tournoi" (XX-A-4): the table of
  ``data/tournament_points.toml`` (a user may give his own, :func:`load_tournament_points`)
  turns the VP a player scored and those of his adversary into his TP. A game scores TP when
  its scenario has victory conditions (goal ``conditions``). A pair the table does not list
  scores the row of the nearest difference, then the nearest VP; with three players or more
  each player is read against the best score of the others (docs/rulings.md "XX-A-4").
- **Goal-average.** "Faire le total de la valeur stratégique de ses propres pertes (quelles
  qu'en soient les causes, les combattants sacrifiés ou tués par des combattants neutres sont
  aussi pris en compte, de même que les combattants invoqués). Faire le total de la valeur
  stratégique des pertes adverses (idem)." (XX-A-5). GA = enemy losses − own losses + bonus,
  good when positive (docs/rulings.md "XX-A-5"); neutral fighters' losses never count
  (C3-NEUTRAL-FIGHTERS: "it is not counted as a 'kill' or 'loss' for the purposes of Goal
  Average").
- **Bonus.** "Le joueur qui remplit les conditions décrites peut ajouter les points indiqués à
  son goal-average. Le bonus maximal est de 100PA." (XX-A-5, C3-BONUS): the scenario's
  ``[[bonus]]`` entries are checked when the game ends (:func:`~.victory.fulfils`), the total
  capped by the table's ``bonus_cap``.

The scoring hook records the bonuses met in the scenario record and tells the result
(:class:`BonusEarned`, :class:`ResultScored`); :func:`standings` reads any state.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from confrontation.armylists.load import LoadError, find_line, parse_model, read_toml
from confrontation.data import data_path
from confrontation.engine.core.events import Event
from confrontation.engine.core.narrate import Narrator
from confrontation.engine.core.registry import Transition
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import GameState, player_name
from confrontation.scenarios.base import BasicScenario
from confrontation.scenarios.basic import losses_ap
from confrontation.scenarios.conditions import BONUS, CONDITION, ConditionKind
from confrontation.scenarios.control import scenario_of
from confrontation.scenarios.victory import fulfils

SCORING = "scoring"
"""The extension table of the result's data (``tournament-points``: a :class:`TournamentPoints`)."""
TOURNAMENT_POINTS = "tournament-points"
BONUS_CAP = 100
"""XX-A-5: "Le bonus maximal est de 100PA" (the bundled table's ``bonus_cap``)."""


# --- the table of tournament points -----------------------------------------------------------


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    vp: int = Field(ge=0)
    enemy_vp: int = Field(ge=0)
    points: int = Field(ge=0)


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    bonus_cap: int = Field(default=BONUS_CAP, ge=0)
    rows: list[_Row] = Field(min_length=1)


@dataclass(frozen=True)
class TournamentPoints:
    """The table of XX-A-4: ``rows`` (vp, enemy_vp, points) in the file's order, and the
    bonus cap of XX-A-5."""

    rows: tuple[tuple[int, int, int], ...]
    bonus_cap: int = BONUS_CAP

    def points(self, vp: int, enemy_vp: int) -> int:
        """The TP of a player who scored ``vp`` against ``enemy_vp``: the row of that pair;
        a pair not listed scores the row with the nearest difference ``vp - enemy_vp``, then
        the nearest ``vp``, the first listed of two as near (docs/rulings.md "XX-A-4")."""
        difference = vp - enemy_vp

        def distance(row: tuple[int, int, int]) -> tuple[int, int]:
            return abs(row[0] - row[1] - difference), abs(row[0] - vp)

        return min(self.rows, key=distance)[2]  # min keeps the first of equal rows

    def cap(self, claimed: int) -> int:
        """XX-A-5: "Même si un joueur peut réclamer plus de 100PA, il ne peut pas marquer plus
        de 100PA"."""
        return min(claimed, self.bonus_cap)


def load_tournament_points(path: Path | None = None) -> TournamentPoints:
    """Read a table of tournament points (the bundled ``data/tournament_points.toml`` by
    default); a bad file is a one-line :class:`LoadError` naming the line and the key."""
    if path is None:
        return _bundled()
    return _load(path)


@cache
def _bundled() -> TournamentPoints:
    return _load(Path(str(data_path("tournament_points.toml"))))


def _load(path: Path) -> TournamentPoints:
    text, data = read_toml(path)
    spec = parse_model(_File, path, text, data)
    seen: set[tuple[int, int]] = set()
    for n, row in enumerate(spec.rows, start=1):
        pair = (row.vp, row.enemy_vp)
        if pair in seen:
            raise LoadError(
                path,
                f"the pair {row.vp}-{row.enemy_vp} appears twice (XX-A-4)",
                line=find_line(text, ["rows", n, "vp"]),
                key=f"rows[{n}]",
            )
        seen.add(pair)
    rows = tuple((r.vp, r.enemy_vp, r.points) for r in spec.rows)
    return TournamentPoints(rows, spec.bonus_cap)


def table_of(state: GameState) -> TournamentPoints:
    """The table the state's rules score with (the bundled one unless a ruleset gives another,
    ``rules.with_extension(SCORING, TOURNAMENT_POINTS, table)``)."""
    table = rules_of(state).extension(SCORING, TOURNAMENT_POINTS)
    return table if isinstance(table, TournamentPoints) else _bundled()


def tournament_points(
    scores: tuple[int, ...], table: TournamentPoints | None = None
) -> tuple[int, ...]:
    """Each player's TP for these VP (Player 1 first): read against the adversary's VP, with
    three players or more against the best VP of the others (docs/rulings.md "XX-A-4")."""
    table = table if table is not None else _bundled()
    out = []
    for player, vp in enumerate(scores):
        others = [s for p, s in enumerate(scores) if p != player]
        out.append(table.points(vp, max(others, default=0)))
    return tuple(out)


# --- losses and the goal-average --------------------------------------------------------------


def losses(state: GameState, player: int) -> int:
    """XX-A-5: the strategic value (equipment included) of ``player``'s fighters killed, whatever
    killed them — sacrificed, killed by neutral fighters, summoned ones at their card's AP
    (``control.fighter_value``)."""
    return losses_ap(state, player)


def enemy_losses(state: GameState, player: int) -> int:
    """XX-A-5: "les pertes adverses" — every other player's losses (XX-F: every other player
    is an adversary); neutral fighters' never count (C3 "Neutral Fighters")."""
    return sum(losses(state, other) for other in state.enemies(player))


@dataclass(frozen=True)
class Standing:
    """One player's result: VP, TP (None: the scenario has no victory conditions), losses
    (own and enemy, AP), the bonus claimed and the bonus scored (capped, XX-A-5)."""

    player: int
    vp: int
    tp: int | None
    losses: int
    enemy_losses: int
    claimed: int
    bonus: int

    @property
    def goal_average(self) -> int:
        """XX-A-5: enemy losses − own losses + bonus (good when positive)."""
        return self.enemy_losses - self.losses + self.bonus


def claimed_bonus(state: GameState, player: int) -> int:
    """The AP of the bonuses ``player`` fulfilled when the game ended (before the cap)."""
    scenario = scenario_of(state)
    if scenario is None:
        return 0
    met = set(scenario.bonuses_met)
    return sum(b.ap for b in scenario.bonuses if (player, b.id) in met)


def has_conditions(state: GameState) -> bool:
    """The game is played for victory conditions (XX-A-4): it scores tournament points."""
    scenario = scenario_of(state)
    return scenario is not None and scenario.goal == "conditions"


def scored(state: GameState) -> bool:
    """The game's result has a goal-average worth telling: its scenario has victory conditions
    or bonuses (XX-A-4, XX-A-5). The results of the other scenarios stay as they were."""
    scenario = scenario_of(state)
    return scenario is not None and (scenario.goal == "conditions" or bool(scenario.bonuses))


def standings(state: GameState) -> tuple[Standing, ...]:
    """Every player's result in ``state`` (Player 1 first)."""
    table = table_of(state)
    tp = tournament_points(state.scores, table) if has_conditions(state) else None
    out = []
    for player in state.players:
        claimed = claimed_bonus(state, player)
        out.append(
            Standing(
                player=player,
                vp=state.scores[player],
                tp=None if tp is None else tp[player],
                losses=losses(state, player),
                enemy_losses=enemy_losses(state, player),
                claimed=claimed,
                bonus=table.cap(claimed),
            )
        )
    return tuple(out)


# --- the scoring hook -------------------------------------------------------------------------


@dataclass(frozen=True)
class BonusEarned(Event):
    """XX-A-5: ``player`` fulfils the bonus ``bonus`` worth ``ap`` when the game ends."""

    kind = "bonus_earned"
    player: int
    bonus: str
    ap: int


@dataclass(frozen=True)
class ResultScored(Event):
    """The tournament result (XX-A-4, XX-A-5), one entry per player: tournament points (empty
    without victory conditions), own losses, enemy losses, bonus scored, goal-average."""

    kind = "result_scored"
    points: tuple[int, ...]
    losses: tuple[int, ...]
    enemy_losses: tuple[int, ...]
    bonus: tuple[int, ...]
    goal_average: tuple[int, ...]


def score_results(state: GameState) -> Transition:
    """When the game ends (after the victory points): the bonuses met, then the result. Only
    for a scenario with victory conditions or bonuses (the others' records stay as they were)."""
    scenario = scenario_of(state)
    if scenario is None or not scored(state):
        return state, []
    events: list[Event] = []
    met = []
    for bonus in scenario.bonuses:
        for player in state.players:
            if fulfils(state, bonus, player):
                met.append((player, bonus.id))
                events.append(BonusEarned(player, bonus.id, bonus.ap))
    if met:
        record = dataclasses.replace(scenario, bonuses_met=tuple(met))
        state = dataclasses.replace(state, scenario=record)
    rows = standings(state)
    events.append(
        ResultScored(
            points=tuple(r.tp for r in rows if r.tp is not None),
            losses=tuple(r.losses for r in rows),
            enemy_losses=tuple(r.enemy_losses for r in rows),
            bonus=tuple(r.bonus for r in rows),
            goal_average=tuple(r.goal_average for r in rows),
        )
    )
    return state, events


# --- the kind "inflict-losses" ----------------------------------------------------------------


class LossesParams(BaseModel):
    """``margin``: the enemy losses must exceed the player's own by more than this (AP)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    margin: int = Field(default=0, ge=0)


def _inflicts(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """XX-A-5: the enemy losses exceed the player's own by more than ``margin`` AP."""
    assert isinstance(params, LossesParams)
    return enemy_losses(state, player) - losses(state, player) > params.margin


INFLICT_LOSSES = ConditionKind(
    "inflict-losses",
    "XX-A-5",
    _inflicts,
    LossesParams,
    "his enemies' losses exceed his own by more than `margin` AP (strategic value, default 0)",
)


# --- narration --------------------------------------------------------------------------------


def signed(value: int) -> str:
    """A goal-average as tournaments write it: ``+25``, ``-10``, ``0``."""
    return f"{value:+d}" if value else "0"


def _tell_bonus(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, BonusEarned)
    scenario = narrator.state.scenario if narrator.state is not None else None
    text = event.bonus
    if isinstance(scenario, BasicScenario):
        text = next((b.text or b.id for b in scenario.bonuses if b.id == event.bonus), text)
    return f"{player_name(event.player)} earns a bonus ({text}): {event.ap} AP."


def _tell_result(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, ResultScored)
    parts = []
    for player, ga in enumerate(event.goal_average):
        tp = f"{event.points[player]} TP, " if event.points else ""
        parts.append(f"{player_name(player)} {tp}goal-average {signed(ga)}")
    return f"result (XX-A-4, XX-A-5): {'; '.join(parts)}."


def contribute(rules: RulesBuilder) -> None:
    """The tournament result (XX-A-4, XX-A-5): the table, the scoring hook (after the victory
    points), the kind ``inflict-losses`` and the narration."""
    rules.extension(SCORING, TOURNAMENT_POINTS, _bundled())
    rules.extension(CONDITION, INFLICT_LOSSES.name, INFLICT_LOSSES)
    rules.extension(BONUS, INFLICT_LOSSES.name, INFLICT_LOSSES)
    rules.scoring("results", score_results)
    rules.sentence(BonusEarned.kind, _tell_bonus)
    rules.sentence(ResultScored.kind, _tell_result)
