"""The unit actions wired to the table's geometry, through step(): # C4 Moving a Unit,
# C4 Moving Miniatures, # C4 Moving a Unit > Assault, # C4 Units (the leader replaced)."""

from __future__ import annotations

import math

import pytest

from c4flow_support import feed, kind
from confrontation.c4 import events as ev
from confrontation.c4.actions import formation_problems, gap, remove_fighters, unit_gap
from confrontation.c4.choices import ChooseFirst, PickCard, UnitAction
from confrontation.c4.state import C4State, Fighter, Formation, Unit, new_game
from confrontation.c4.step import refusal, start
from confrontation.engine.core.frozen import evolve


def unit(
    uid: str,
    owner: int,
    x: float,
    y: float,
    n: int = 3,
    *,
    category: str = "infantry",
    formation: Formation = Formation.SCATTERED,
    incarnate: bool = False,
    step: float = 3.0,
) -> tuple[list[Fighter], Unit]:
    """``n`` fighters in a row from (x, y), ``step`` cm between centres (radius 1.25)."""
    fs = [
        Fighter(
            f"{uid}f{k + 1}",
            uid,
            "hero" if incarnate and k == 0 else "trooper",
            x + step * k,
            y,
            1.25,
            1,
            1,
            kind="incarnate" if incarnate and k == 0 else "standard",
            authority=3 if incarnate and k == 0 else None,
        )
        for k in range(n)
    ]
    return fs, Unit(uid, owner, uid, category, tuple(f.id for f in fs), fs[0].id, formation)


def table(*parts: tuple[list[Fighter], Unit]) -> C4State:
    fighters = tuple(f for fs, _ in parts for f in fs)
    return new_game(fighters, tuple(u for _, u in parts), mode="barbarian")


def activated(state: C4State, unit_id: str) -> C4State:
    """Barbarian: player 1 wins the opposition, goes first and picks ``unit_id``."""
    state, _ = start(state)
    state, _ = feed(state, 5, 2, ChooseFirst(0), PickCard(unit_id))
    assert kind(state) == "c4_unit_action"
    return state


def lead(state: C4State, unit_id: str) -> Fighter:
    return state.fighter(state.unit(unit_id).leader)


@pytest.mark.rule("C4-MOVING-MINIATURES", "C4-OBSTACLES")
def test_a_run_passes_through_friendly_scattered_infantry() -> None:
    # C4 Moving Miniatures: infantry and cavalry units on the same side and in scattered
    # formation do not hinder each other's movement
    state = activated(
        table(unit("a", 0, 60, 20), unit("f", 0, 57, 28, 5), unit("e", 1, 60, 100)), "a"
    )
    before = lead(state, "a")
    state, events = feed(state, UnitAction("a", "run", before.x, before.y + 20.0))
    after = lead(state, "a")
    assert math.isclose(after.x, before.x, abs_tol=1e-6)
    assert math.isclose(after.y - before.y, 20.0, abs_tol=1e-6)
    assert not any(isinstance(e, ev.OutOfFormation) for e in events)


@pytest.mark.rule("C4-MOVING-MINIATURES", "C4-OBSTACLES")
def test_other_categories_and_enemies_are_skirted() -> None:
    # C4 Moving Miniatures: other fighters are obstacles that need to be skirted around (a
    # friendly creature unit, or an enemy unit)
    for category, owner in (("creature", 0), ("infantry", 1)):
        blocker = unit("f", owner, 54, 30, 5, category=category)
        state = activated(table(unit("a", 0, 60, 20), blocker, unit("e", 1, 60, 100)), "a")
        before = lead(state, "a")
        state, _ = feed(state, UnitAction("a", "run", before.x, before.y + 20.0))
        after = lead(state, "a")
        moved = math.hypot(after.x - before.x, after.y - before.y)
        assert moved < 20.0 - 0.5  # round the blocker: the path is longer than the way made
        assert after.y > 30.0  # it went past it
        assert all(gap(a, b) > -1e-6 for a in state.members("a") for b in state.members("f"))


@pytest.mark.rule("C4-OBSTACLES")
def test_the_one_cm_stop_in_front_of_a_friendly_formation() -> None:
    # C4 Moving a Unit > Obstacles: they cannot finish their movement inside one another's
    # formation; the unit stops 1 cm in front of it
    state = activated(
        table(unit("a", 0, 60, 20), unit("f", 0, 55, 30, 5), unit("e", 1, 60, 100)), "a"
    )
    before = lead(state, "a")
    state, _ = feed(state, UnitAction("a", "walk", before.x, 30.0))
    assert unit_gap(state, "a", "f") >= 1.0 - 0.02
    assert lead(state, "a").y > before.y


@pytest.mark.rule("C4-UNIT-FORMATION")
def test_close_formation_is_kept_through_the_move() -> None:
    # C4 Units > Unit formation: close formation, the fighters must remain in formation
    state = table(
        unit("a", 0, 60, 20, 4, formation=Formation.CLOSE, step=2.5), unit("e", 1, 60, 100)
    )
    assert formation_problems(state, "a") == []
    state = activated(state, "a")
    before = lead(state, "a")
    state, events = feed(state, UnitAction("a", "run", 20.0, 70.0))
    assert lead(state, "a") != before
    assert state.unit("a").formation is Formation.CLOSE
    assert formation_problems(state, "a") == []
    assert not any(isinstance(e, ev.OutOfFormation) for e in events)


@pytest.mark.rule("C4-MOVING-MINIATURES", "C4-UNIT-FORMATION")
def test_formation_changes_at_the_start_and_after_a_move() -> None:
    # C4 Moving Miniatures: a unit can change formation at the beginning of its activation; a
    # free unit can change formation after any movement
    state = activated(table(unit("a", 0, 60, 20, 4), unit("e", 1, 60, 100)), "a")
    assert UnitAction("a", "hold", formation="close") in _legal(state)
    held, events = feed(state, UnitAction("a", "hold", formation="close"))
    assert ev.FormationChanged("a", "close") in events
    assert held.unit("a").formation is Formation.CLOSE and formation_problems(held, "a") == []
    walked, events = feed(state, UnitAction("a", "walk", 60.0, 30.0, after="close"))
    assert [e for e in events if isinstance(e, ev.FormationChanged)] == [
        ev.FormationChanged("a", "close")
    ]
    assert walked.unit("a").formation is Formation.CLOSE
    assert formation_problems(walked, "a") == []
    assert refusal(state, UnitAction("a", "walk", 60.0, 30.0, formation="square")) is not None
    engaged = state.with_unit(evolve(state.unit("a"), engaged=("e",)))
    assert refusal(engaged, UnitAction("a", "hold", formation="close")) is not None


def _legal(state: C4State) -> list[object]:
    from confrontation.c4.step import legal

    return list(legal(state))


@pytest.mark.rule("C4-ASSAULT")
def test_a_successful_assault_places_fighters_in_the_players_order() -> None:
    # C4 Moving a Unit > Assault: the unit goes into scattered formation, the assaulting
    # fighters are moved in the order chosen by the player, each placed in contact
    base = table(
        unit("a", 0, 60, 20, 3, formation=Formation.CLOSE, step=2.5), unit("e", 1, 57, 35, 3)
    )
    state = activated(base, "a")
    order = ("af3", "af2", "af1")
    assert refusal(state, UnitAction("a", "assault", target="e", order=order)) is None
    assert refusal(state, UnitAction("a", "assault", target="e", order=("ef1",))) is not None
    state, events = feed(state, UnitAction("a", "assault", target="e", order=order))
    assert ev.Engaged("a", "e") in events
    assert state.unit("a").formation is Formation.SCATTERED
    assert state.unit("a").engaged == ("e",) and state.unit("e").engaged == ("a",)
    for f in state.members("a"):
        assert min(gap(f, g) for g in state.members("e")) <= 0.01
    assert ev.MeleeDue("a") in events or any(isinstance(e, ev.CombatResolved) for e in events)


@pytest.mark.rule("C4-ASSAULT", "C4-UNIT-FORMATION")
def test_a_failed_assault_keeps_the_formation() -> None:
    # C4 Moving a Unit > Assault: farther than twice the Movement: the assault fails, the unit
    # moves as close as possible and remains in formation
    base = table(unit("a", 0, 60, 20, 4, formation=Formation.CLOSE, step=2.5), unit("e", 1, 60, 70))
    state, events = feed(activated(base, "a"), UnitAction("a", "assault", target="e"))
    assert any(isinstance(e, ev.AssaultFailed) for e in events)
    assert state.unit("a").formation is Formation.CLOSE and not state.unit("a").engaged
    assert formation_problems(state, "a") == []
    assert 0.0 < unit_gap(state, "a", "e") < 70 - 20 - 2.5 - 19.0


@pytest.mark.rule("C4-UNITS")
def test_a_fallen_leader_is_replaced_by_the_nearest_standard() -> None:
    # C4 Units: the standard fighter closest to the former leader becomes the new leader;
    # Incarnates are always the leaders of their unit
    state = table(unit("a", 0, 60, 20, 4), unit("e", 1, 60, 100))
    state, events = remove_fighters(state, ("af1",))
    assert state.unit("a").leader == "af2"
    assert ev.LeaderReplaced("a", "af1", "af2") in events
    fs, u = unit("h", 0, 60, 20, 4, incarnate=True)
    state = table((fs, u), unit("e", 1, 60, 100))
    state, events = remove_fighters(state, ("hf2",))
    assert state.unit("h").leader == "hf1" and not any(
        isinstance(e, ev.LeaderReplaced) for e in events
    )
