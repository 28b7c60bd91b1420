"""The help beside a person's C4 question (``web/c4host.py``, ``web/c4odds.py``,
``web/c4words.py``): the greedy AI's hint asked on the seat's own view, the exact odds beside
an assault (``# C4 Moving a Unit > Assault``: the Courage test against Fear, the distance
against twice the Movement, the melee that follows) and a fight (``# C4 Combat``), each checked
against what the engine then resolves, and the moves named in words."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from confrontation.agents.c4 import C4GreedyAgent, C4RandomAgent
from confrontation.c4 import fight, morale
from confrontation.c4.actions import assault
from confrontation.c4.choices import UnitAction
from confrontation.c4.events import (
    AssaultFailed,
    CombatResolved,
    CourageTested,
    Engaged,
    Routed,
)
from confrontation.c4.morale import courage_chance
from confrontation.c4.state import C4State
from confrontation.c4.step import game_roller, is_over, question, roll, start, step
from confrontation.c4.views import redact
from confrontation.engine.core.questions import DieFace, Question
from confrontation.sim.c4game import C4Config, build
from confrontation.web import c4host
from confrontation.web.c4host import hint, question_doc
from confrontation.web.c4odds import assault_lines, melee_law, melee_lines

Found = tuple[C4State, Question, UnitAction]
PLACE = r"\b(to|towards) the (?!enemy)"
"""A move named by a place (not "towards the enemy")."""


def find(
    wanted: Callable[[C4State, UnitAction], bool],
    seed: int = 3,
    mode: str = "marauder",
) -> Found:
    """The first unit action of a greedy-against-greedy game offering an answer ``wanted``."""
    state, _ = start(build(C4Config(seed=seed, mode=mode)))
    dice, agent = game_roller(state), C4GreedyAgent(2)
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
            continue
        if asked.kind == "c4_unit_action":
            for c in asked.choices:
                if isinstance(c, UnitAction) and wanted(state, c):
                    return state, asked, c
        state, _ = step(state, agent.choose(state, asked, asked.choices))
    raise AssertionError("no such action in the game")


def reaching(state: C4State, c: UnitAction) -> bool:
    if c.action != "assault":
        return False
    doc = assault_lines(state, c)
    return doc is not None and doc["reaches"] and "melee" in doc


def fighting(state: C4State, c: UnitAction) -> bool:
    return c.action == "hold" and bool(state.unit(c.unit).engaged) and not c.formation


def losses_of(law: dict[Any, Fraction]) -> tuple[Fraction, Fraction]:
    """Expected fighters eliminated and the chance of one or more, from ``melee_law``."""
    expected = sum((sum(h == 0 for _, h in k) * p for k, p in law.items()), Fraction(0))
    none = sum((p for k, p in law.items() if all(h > 0 for _, h in k)), Fraction(0))
    return expected, 1 - none


def sampled(state: C4State, unit: str, runs: int, seed: int) -> tuple[list[int], list[int]]:
    """The engine's melee (``c4.fight.melee``) resolved ``runs`` times with random dice: the
    fighters eliminated each time, and whether any was."""
    rng = random.Random(seed)
    counts = []
    for _ in range(runs):
        faces = [rng.randint(1, 6) for _ in range(400)]
        _, events = fight.melee(state, unit, fight.Tape(faces))
        counts.append(sum(len(e.eliminated) for e in events if hasattr(e, "eliminated")))
    return counts, [1 if c else 0 for c in counts]


def close_to(sample: list[int], exact: Fraction) -> None:
    n = len(sample)
    mean = sum(sample) / n
    var = sum((x - mean) ** 2 for x in sample) / (n - 1)
    assert abs(mean - float(exact)) <= 4 * (var / n) ** 0.5 + 1e-9, (mean, float(exact))


# --- the hint ------------------------------------------------------------------------------


def test_the_hint_is_a_legal_answer_the_greedy_gives_on_the_seats_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hint is one of the question's options, the one ``C4GreedyAgent`` answers, with its
    reason; the agent is handed the seat's redacted view (General: the other player's
    sequence face down), never the full state."""
    state, _ = start(build(C4Config(seed=5)))
    dice, other_agent = game_roller(state), C4RandomAgent(4)
    while True:  # a question of a player while the other holds a secret (Marauder's cards)
        asked = question(state)
        assert asked is not None and not is_over(state)
        if asked.player is None:
            state, _ = roll(state, dice)
        elif redact(state, asked.player) != state:
            break
        else:
            state, _ = step(state, other_agent.choose(state, asked, asked.choices))
    me = asked.player
    assert me is not None
    other = 1 - me

    seen: list[C4State] = []
    choose = C4GreedyAgent.choose

    def spy(self: C4GreedyAgent, view: C4State, q: Question, legal: Any) -> Any:
        seen.append(view)
        return choose(self, view, q, legal)

    monkeypatch.setattr(C4GreedyAgent, "choose", spy)
    got = hint(redact(state, me), asked)
    assert got is not None
    assert seen and seen[-1] == redact(state, me) and seen[-1] != state
    assert seen[-1].sides[other] != state.sides[other] or seen[-1].activation != state.activation
    assert 0 <= got["index"] < len(asked.options)
    assert asked.options[got["index"]].choice in asked.choices
    assert asked.options[got["index"]].choice == choose(
        C4GreedyAgent(0), redact(state, me), asked, asked.choices
    )
    assert got["reason"] and "\n" not in got["reason"]
    acting, asked_unit, _ = find(lambda s, c: c.action == "walk_shoot")
    assert asked_unit.player is not None
    shot = hint(redact(acting, asked_unit.player), asked_unit)
    buttons = question_doc(asked_unit, 0, acting)["options"]
    assert shot is not None
    assert shot["label"] == next(o["label"] for o in buttons if o["index"] == shot["index"])
    assert shot["reason"] and asked_unit.options[shot["index"]].choice in asked_unit.choices

    # the server's question document carries it, asked on the seat's view
    class Game:
        config = C4Config(seed=0)
        lock = threading.RLock()
        _asked = None

    seen.clear()
    doc = c4host.C4LiveGame._question(Game(), asked, 7, state)  # type: ignore[arg-type]
    assert doc["hint"] == got and seen[-1] == redact(state, me)


def test_the_page_offers_the_hint() -> None:
    text = (Path(c4host.__file__).parent / "static" / "c4game.js").read_text(encoding="utf-8")
    assert "What would the AI do?" in text and "q.hint.reason" in text


# --- the assault ---------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize(("value", "difficulty"), [(6, 5), (3, 5), (1, 9), (9, 1), (5, 5)])
def test_the_courage_chance_is_the_engines_test_exactly(
    value: int, difficulty: int, dice: int
) -> None:
    """Every face of every die: the share of passes of ``c4.morale.courage_test``."""
    passes = sum(
        morale.courage_test(fight.Tape(faces), value, difficulty, dice).success
        for faces in product(range(1, 7), repeat=dice)
    )
    assert courage_chance(value, difficulty, dice) == Fraction(passes, 6**dice)


def resolve(
    state: C4State, choice: UnitAction, courage: int, seed: int
) -> tuple[C4State, list[Any]]:
    """The action through ``step()``: the Courage tests' dice (rolled before the unit moves)
    show ``courage``, the melee's are random."""
    rng = random.Random(seed)
    state, events = step(state, choice)
    moved = (AssaultFailed, Engaged, Routed, CombatResolved)
    while (asked := question(state)) is not None and asked.player is None:
        tested = any(isinstance(e, moved) for e in events)
        state, more = step(state, DieFace(rng.randint(1, 6) if tested else courage))
        events += more
    return state, events


def test_an_assault_that_reaches_engages_as_shown() -> None:
    """Shown reaching, with its Courage tests passed the engine engages; the tests it rolls are
    those shown (value, Fear, dice); the unit stands where the odds placed it for its melee."""
    state, _, choice = find(reaching)
    doc = assault_lines(state, choice)
    assert doc is not None and doc["reaches"] and doc["distance"] <= doc["reach"]
    after, events = resolve(state, choice, 6, 1)
    placed, _ = assault(state, choice.unit, choice.target or "", choice.order, choice.several)
    for f in placed.members(choice.unit):  # the melee's contacts: where the engine put them
        assert (after.fighter(f.id).x, after.fighter(f.id).y) == (f.x, f.y)
    tested = [e for e in events if isinstance(e, CourageTested)]
    assert [(e.value, e.difficulty, len(e.faces)) for e in tested] == [
        (t["value"], t["fear"], t["dice"]) for t in doc["tests"]
    ]
    assert any(isinstance(e, Engaged) and e.target == choice.target for e in events)
    assert not any(isinstance(e, AssaultFailed) for e in events)
    engage = Fraction(doc["engage"])
    want = Fraction(1)
    for t in doc["tests"]:
        want *= Fraction(t["chance"])
    assert engage == want


def test_an_assault_shown_falling_short_fails() -> None:
    """Shown beyond twice the Movement: the engine's assault fails at that distance."""

    def short(state: C4State, c: UnitAction) -> bool:
        doc = assault_lines(state, c) if c.action == "assault" else None
        return doc is not None and not doc["reaches"] and not doc["tests"]

    state, _, choice = find(short, seed=3)
    doc = assault_lines(state, choice)
    assert doc is not None and doc["engage"] == "0"
    _, events = resolve(state, choice, 6, 2)
    failed = [e for e in events if isinstance(e, AssaultFailed)]
    assert failed and abs(failed[0].distance - doc["distance"]) < 0.06
    assert "falls short" in doc["text"] and not any(isinstance(e, Engaged) for e in events)


def test_a_failed_courage_test_routs_as_the_odds_say() -> None:
    """The assaulting unit's test shown: failing it (1s), the unit is routed and stays."""

    def dares(state: C4State, c: UnitAction) -> bool:
        doc = assault_lines(state, c) if c.action == "assault" else None
        return doc is not None and any(t["who"] == "assaulting" for t in doc["tests"])

    state, _, choice = find(dares)
    doc = assault_lines(state, choice)
    assert doc is not None and "to dare" in doc["text"]
    _, events = resolve(state, choice, 1, 3)
    assert any(isinstance(e, Routed) and e.unit == choice.unit and e.active for e in events)
    assert not any(isinstance(e, Engaged) for e in events)


def test_the_melee_after_an_assault_is_the_engines_melee() -> None:
    """The expected losses shown beside a reaching assault are those of the melee the engine
    resolves from where the assault places the unit (4 standard errors, 3,000 melees)."""
    state, _, choice = find(reaching)
    doc = assault_lines(state, choice)
    assert doc is not None
    placed, _ = assault(state, choice.unit, choice.target or "", choice.order, choice.several)
    law = melee_law(placed, choice.unit)
    assert law is not None and sum(law.values()) == 1
    expected, any_loss = losses_of(law)
    assert doc["melee"]["expected_losses"] == str(expected)
    assert doc["melee"]["at_least_one"] == str(any_loss)
    counts, hits = sampled(placed, choice.unit, 3000, 11)
    close_to(counts, expected)
    close_to(hits, any_loss)


def test_the_odds_beside_a_fight_are_the_engines_melee() -> None:
    """An engaged unit's "stay and fight": the melee's exact law against the engine's."""
    state, _, choice = find(fighting)
    shown = melee_lines(state, choice)
    assert shown is not None
    law = melee_law(state, choice.unit)
    assert law is not None
    expected, any_loss = losses_of(law)
    assert shown["melee"]["expected_losses"] == str(expected)
    counts, hits = sampled(state, choice.unit, 3000, 12)
    close_to(counts, expected)
    close_to(hits, any_loss)
    options = question_doc(question(state), 0, state)["options"]  # type: ignore[arg-type]
    fight_option = next(o for o in options if o["label"] == "stay and fight")
    assert fight_option["odds"]["text"].startswith("melee: ")


def test_the_melee_law_is_wrong_if_the_dice_are() -> None:
    """The Monte Carlo check can fail: one die fewer per combat is told apart."""
    state, _, choice = find(fighting)
    law = melee_law(state, choice.unit)
    assert law is not None
    expected, _ = losses_of(law)
    counts, _ = sampled(state, choice.unit, 1500, 13)
    with pytest.raises(AssertionError):
        close_to(counts, expected * 2 + Fraction(1, 2))


# --- the moves in words --------------------------------------------------------------------


def test_walks_and_runs_are_named_in_words_and_keep_their_points() -> None:
    state, asked, _ = find(lambda s, c: c.action == "run")
    options = question_doc(asked, 0, state)["options"]
    moves = [o for o in options if o["action"] in ("walk", "run")]
    assert moves and all("spot" in o and "(" not in o["label"] for o in moves)
    assert all(o["label"].split()[0] in ("walk", "run") and " cm " in o["label"] for o in moves)
    towards = [o for o in moves if "towards Player" in o["label"]]
    assert towards, "the moves towards an enemy unit name it"
    assert len({o["label"] for o in moves}) == len(moves)


def test_moves_whose_words_match_are_told_apart() -> None:
    """A compass point within a few degrees of an enemy unit: the same words, two buttons
    told apart (every label of a question is its own)."""
    for seed in (3, 4, 5):
        state, _ = start(build(C4Config(seed=seed)))
        dice, agent = game_roller(state), C4GreedyAgent(2)
        asked_count = 0
        while not is_over(state) and asked_count < 12:
            asked = question(state)
            assert asked is not None
            if asked.player is None:
                state, _ = roll(state, dice)
                continue
            if asked.kind == "c4_unit_action":
                asked_count += 1
                labels = [o["label"] for o in question_doc(asked, 0, state)["options"]]
                assert len(set(labels)) == len(labels), labels
            state, _ = step(state, agent.choose(state, asked, asked.choices))


def test_moves_into_a_zone_or_towards_scenery_name_it() -> None:
    """In a scenario with scenery (``conquest``): some moves name the zone or element they go
    to ("run 20 cm to the centre"), none the place the unit already stands in (its own
    deployment area)."""
    from shapely.geometry import Point, Polygon

    state, _ = start(build(C4Config(seed=3, scenario="conquest")))
    dice, agent = game_roller(state), C4GreedyAgent(2)
    named: list[str] = []
    while not is_over(state) and not any("the centre" in n for n in named):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
            continue
        if asked.kind == "c4_unit_action":
            unit = state.unit(asked.choices[0].unit)  # type: ignore[attr-defined]
            leader = state.fighter(unit.leader)
            assert state.battle is not None
            standing = [
                z.name
                for z in state.battle.zones
                if Polygon(z.outline).contains(Point(leader.x, leader.y))
            ]
            for o in question_doc(asked, 0, state)["options"]:
                if o.get("action") in ("walk", "run") and re.search(PLACE, o["label"]):
                    assert not any(name in o["label"] for name in standing), o["label"]
                    named.append(o["label"])
        state, _ = step(state, agent.choose(state, asked, asked.choices))
    assert len(named) >= 3 and any("the centre" in n for n in named), named
