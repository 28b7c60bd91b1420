"""The odds of an opposed test against the ENGINE's Monte Carlo (CLARIFICATIONS §9).

"One rule everywhere (engine, odds, every opposed roll)": the opposed test as the odds
compute it (`confrontation odds opposed`, :func:`confrontation.odds.combat.initiative_odds`)
must agree with the same test played many times through ``step()`` with a seeded roller, for
match-ups where results ≤ 0 — automatic failures (II-A-4) — happen often: an initiative test
between critically wounded fighters, and a Tactics roll between fighters of very low
Discipline (where two failures are frequent, so the old "higher result wins even if it is 0
or less" is many standard errors away).

Both sides raise as the odds assume (docs/rulings.md, "II-A-3 — what a sensible player
raises"): while their result is not above the other side's current result. The odds decide a
side's raises in one go; the engine asks again after every raise. They differ only when a
re-rolled 6 is later overtaken, far below the tolerance here. Fixed seeds (deterministic);
tolerance 4.5 standard errors, as in test_montecarlo.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from confrontation.armylists.load import bundled_catalog
from confrontation.cli import app
from confrontation.dice import SeededRoller, standing
from confrontation.engine.combat import events as ce
from confrontation.engine.core.events import Event, TacticsRolled
from confrontation.engine.core.questions import (
    Choice,
    DieFace,
    KeepResult,
    PlaceCard,
    Raise,
    TacticsFighter,
)
from confrontation.engine.core.state import GameState, Phase, ProfileSummary
from confrontation.engine.setup.game import SideSpec, game_from_specs, summarise
from confrontation.engine.step import advance, is_chance, legal, step
from confrontation.odds.combat import Fighter, initial_state, initiative_odds
from confrontation.rules.characteristics import HealthState
from confrontation.rules.combat import Stats
from engine_support import plugged

SIGMAS = 4.5
RUNS = 6000

CONSCRIPT, CLONE = "p1-c1-1", "p2-c1-1"


def _close(p: float, wins: int, runs: int) -> bool:
    return abs(wins / runs - p) <= SIGMAS * math.sqrt(p * (1 - p) / runs)


def _cli_opposed(a: int, b: int) -> float:
    result = CliRunner().invoke(app, ["odds", "opposed", "--a", str(a), "--b", str(b), "--json"])
    assert result.exit_code == 0, result.output
    return float(json.loads(result.output)["p_a_wins"])


def _monte_carlo(
    start: GameState,
    raise_of: Callable[[GameState, int], tuple[int, int]],
    decided: Callable[[list[Event]], int | None],
    seed: int,
) -> int:
    """Play the opposed test from ``start`` (its first die due) ``RUNS`` times through
    ``step``: dice from one seeded stream, every raise question answered "raise while not
    ahead". ``raise_of(state, player)`` gives (his final, the other's final); ``decided``
    reads the winner from the events. Returns how often player 0 wins."""
    roller = SeededRoller(seed)
    wins = 0
    for _ in range(RUNS):
        state, winner = start, None
        while winner is None:
            if is_chance(state):
                state, events = step(state, DieFace(roller.d6()))
            else:
                assert state.pending is not None and state.pending.player is not None
                mine, theirs = raise_of(state, state.pending.player)
                choice = Raise() if mine < standing(theirs) + 1 else KeepResult()
                assert choice in legal(state)
                state, events = step(state, choice)
            winner = decided(events)
        wins += winner == 0
    return wins


# --- the initiative test (VII-C-2) between critically wounded fighters ------------------------


def _initiative_start() -> GameState:
    """A Conscript (INI 2) critically wounded and Stunned, INI 2 − 4 = −2, against a Clone of
    Dirz (INI 2) critically wounded, INI −1 (II-B-4), in contact: the combat phase up to the
    first die of the initiative test."""
    catalog = bundled_catalog().profiles
    blue = SideSpec("Blue", "griffin", ((summarise(catalog["griffin-conscript"]), 1),))
    red = SideSpec("Red", "scorpion", ((summarise(catalog["dirz-clone"]), 1),))
    state = game_from_specs([blue, red])
    hurt = (
        dataclasses.replace(state.fighter(CONSCRIPT), wounds=3, stunned=True),
        dataclasses.replace(state.fighter(CLONE), wounds=3),
    )
    state = dataclasses.replace(state.with_fighters(*hurt), phase=Phase.COMBAT)
    state = plugged(state, contacts=lambda state: [(CONSCRIPT, CLONE)])
    state, _ = advance(state)
    faces = iter([5, 1])  # the Authority roll: 5 + 2 against 1 + 1
    while not (
        state.combat and state.combat.contest and state.combat.contest.purpose == "initiative"
    ):
        choice = DieFace(next(faces)) if is_chance(state) else legal(state)[0]
        state, _ = step(state, choice)
    return state


def _initiative_finals(state: GameState, player: int) -> tuple[int, int]:
    assert state.combat is not None and state.combat.contest is not None
    hands = {h.player: h.roll.final if h.roll else h.value for h in state.combat.contest.hands}
    return hands[player], hands[1 - player]


def _initiative_winner(events: list[Event]) -> int | None:
    rolled = [e for e in events if isinstance(e, ce.InitiativeRolled)]
    return rolled[0].order[0] if rolled else None


@pytest.mark.rule("VII-C-2", "II-A-3", "II-A-4", "II-B-4")
def test_initiative_odds_agree_with_the_engine_between_critically_wounded_fighters() -> None:
    """CLARIFICATIONS §9: "A final result ≤ 0 is an automatic failure in every test, opposed
    ones included. In an opposed test a side that fails loses to a side that does not; two
    failures are a tie and are rolled again like any tie. This holds for every opposed roll
    alike: Tactics roll, initiative, …" — in the engine and in the odds alike."""
    start = _initiative_start()
    assert start.combat is not None and start.combat.contest is not None
    values = {h.player: h.value for h in start.combat.contest.hands}
    assert values == {0: -2, 1: -1}  # II-B-4: −4 and −3 on INI 2
    wins = _monte_carlo(start, _initiative_finals, _initiative_winner, seed=19)
    cli = _cli_opposed(-2, -1)
    lone = Fighter("conscript", Stats(ini=2, att=2, str_=4, def_=2, res=6), None)
    clone = Fighter("clone", Stats(ini=2, att=2, str_=4, def_=2, res=6), None)
    board = initial_state(
        dataclasses.replace(lone, health=HealthState(3, True)),
        [dataclasses.replace(clone, health=HealthState(3, False))],
    )
    combat = float(initiative_odds(board))
    assert combat == pytest.approx(cli)
    assert _close(cli, wins, RUNS), (cli, wins / RUNS)


# --- the Tactics roll (IV-A-2) at very low Discipline ---------------------------------------------


def _tactics_start(dis0: int, dis1: int) -> GameState:
    specs = [
        SideSpec("A", "lion", ((ProfileSummary("lion-1", "Lion", "lion", dis0, ()), 1),)),
        SideSpec("B", "wolf", ((ProfileSummary("wolf-1", "Wolf", "wolf", dis1, ()), 1),)),
    ]
    state, _ = advance(game_from_specs(specs))
    answers: list[Choice] = [PlaceCard("p1-c1"), PlaceCard("p2-c1")]
    answers += [TacticsFighter("p1-c1-1"), TacticsFighter("p2-c1-1")]
    for choice in answers:
        state, _ = step(state, choice)
    assert state.pending is not None and state.pending.kind == "tactics_die"
    return state


def _tactics_finals(state: GameState, player: int) -> tuple[int, int]:
    assert state.strategic is not None
    hands = state.strategic.hands
    return hands[player].final, hands[1 - player].final


def _tactics_winner(events: list[Event]) -> int | None:
    rolled = [e for e in events if isinstance(e, TacticsRolled)]
    return rolled[0].winner if rolled else None


@pytest.mark.rule("IV-A-2", "II-A-3", "II-A-4")
def test_tactics_odds_agree_with_the_engine_when_both_sides_often_fail() -> None:
    """CLARIFICATIONS §9: two failures "are a tie and are rolled again like any tie"; the
    Tactics roll included. DIS −6 against −5: both fail in 5/6 × 4/6 of the first rolls; the
    odds say A wins 44 %, the old rule (the higher result wins even if ≤ 0) about 35 %."""
    start = _tactics_start(-6, -5)
    wins = _monte_carlo(start, _tactics_finals, _tactics_winner, seed=9)
    cli = _cli_opposed(-6, -5)
    assert _close(cli, wins, RUNS), (cli, wins / RUNS)
