"""What a player who may measure knows before declaring (001 "Actions and measurement",
docs/rulings.md IV-B-2): a shot's distance, range and exact chances; an assault's path and
reach; the terminal player leaves out what cannot reach."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from rich.console import Console

from confrontation.agents.human import HumanAgent
from confrontation.agents.measured import measure
from confrontation.engine.core.events import Event
from confrontation.engine.core.questions import Announce, AnnouncementsDone, Shoot
from confrontation.engine.core.state import GameState
from confrontation.engine.step import legal, question
from confrontation.rules.shooting import shot_distribution
from engine_support import activate, answer, profile, skirmish


def _duel(gap_cm: float) -> GameState:
    """A Reaper and a Wolfen (large) face to face, ``gap_cm`` between their bases' edges (base
    radii 1.25 and 1.875 cm), on an empty table, the Reaper's card activated."""
    reaper, wolfen = profile("alahan-reaper"), profile("wolfen-hunter")
    positions = {"p1-c1-1": (10, 30, 0), "p2-c1-1": (10 + 3.125 + gap_cm, 30, 180)}
    return activate(skirmish([[(reaper, 1)], [(wolfen, 1)]], positions), "p1-c1")


def _shooting(gap_cm: float) -> GameState:
    log: list[Event] = []
    return answer(_duel(gap_cm), AnnouncementsDone(), log)


@pytest.mark.rule("VI-A-1")
def test_a_shot_in_range_tells_its_distance_and_exact_chances() -> None:
    state = _shooting(15.0)
    shot = Shoot("p1-c1-1", "p2-c1-1")
    assert shot in legal(state)
    facts = measure(state, shot)
    assert facts is not None and facts.reaches
    assert facts.distance == pytest.approx(15.0)
    reaper, wolfen = profile("alahan-reaper"), profile("wolfen-hunter")
    assert reaper.aim is not None and reaper.aim_str is not None
    # VI-A-3: 15 cm is the Reaper's medium range (difficulty 7), a large target -1
    expected = shot_distribution(reaper.aim, 7 - 1, reaper.aim_str, wolfen.res)
    hit = 1 - expected[None]
    assert facts.text().startswith("15.0 cm; Shooting test (difficulty 6) ")
    assert f"hits him {float(hit):.0%}".replace("%", "") in facts.text().replace(" %", "").replace(
        "%", ""
    )


@pytest.mark.rule("VI-A-1")
def test_a_shot_beyond_the_long_range_does_not_reach() -> None:
    state = _shooting(95.0)  # beyond the long range
    facts = measure(state, Shoot("p1-c1-1", "p2-c1-1"))
    assert facts is not None and not facts.reaches
    assert "beyond the long range" in facts.text()


@pytest.mark.rule("V-B-3")
@pytest.mark.parametrize(("gap_cm", "reaches"), [(12.0, True), (80.0, False)])
def test_an_assault_is_measured_along_its_path(gap_cm: float, reaches: bool) -> None:
    game = _duel(gap_cm)
    charge = next(c for c in legal(game) if isinstance(c, Announce) and c.action == "charge")
    facts = measure(game, charge)
    assert facts is not None and facts.reaches is reaches
    assert facts.distance == pytest.approx(gap_cm, abs=0.01)  # nothing in the way: straight
    assert facts.odds == ""


def test_the_terminal_player_leaves_out_what_cannot_reach_and_lists_it_on_demand() -> None:
    far = _duel(85.0)
    asked = question(far)
    assert asked is not None
    charges = [
        o for o in asked.options if isinstance(o.choice, Announce) and o.choice.action == "charge"
    ]
    assert charges
    out = io.StringIO()
    agent = HumanAgent(stdin=io.StringIO("all\nq\n"), console=Console(file=out, width=200))
    with pytest.raises(KeyboardInterrupt):
        agent.choose(far, asked, legal(far))
    text = out.getvalue()
    assert "out of range or reach are not listed" in text
    first, _, after_all = text.partition("Your choice")
    assert charges[0].label not in first
    assert charges[0].label in after_all
    everything = list(asked.options)
    assert HumanAgent(measure=True).measured(far, everything) != everything


def test_measuring_adds_the_facts_to_the_options_that_reach() -> None:
    near = _duel(12.0)
    asked = question(near)
    assert asked is not None
    shown = HumanAgent().measured(near, list(asked.options))
    charge = next(
        o for o in shown if isinstance(o.choice, Announce) and o.choice.action == "charge"
    )
    assert "cm along the path" in charge.detail


def test_deployment_takes_typed_coordinates_and_a_facing() -> None:
    from confrontation.engine.core.kinds import QuestionKind
    from confrontation.engine.core.questions import Place
    from confrontation.engine.step import refusal, start, step
    from confrontation.sim.game import GameConfig, initial_state

    state, _ = start(initial_state(GameConfig(seed=5, agents=("random", "random")))[0])
    while (asked := question(state)) is not None and asked.kind != QuestionKind.DEPLOY:
        state, _ = step(state, legal(state)[0] if asked.player is not None else asked.choices[0])
    asked = question(state)
    assert asked is not None and asked.kind == QuestionKind.DEPLOY
    places = [c for c in legal(state) if isinstance(c, Place)]
    far = max(places, key=lambda p: (p.x, p.y))
    out = io.StringIO()
    agent = HumanAgent(
        stdin=io.StringIO(f"nonsense words here\n{far.x + 0.3} {far.y - 0.2} 45\n"),
        console=Console(file=out, width=200),
    )
    chosen = agent.choose(state, asked, legal(state))
    assert isinstance(chosen, Place)
    assert (chosen.x, chosen.y) == (far.x, far.y)
    if refusal(state, replace(far, facing=45.0)) is None:
        assert chosen.facing == 45.0
    assert "places in all" in out.getvalue()
    assert "Type a number, or x y and a facing" in out.getvalue()
