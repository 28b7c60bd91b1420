"""# C4 Activating Unit and # C4 Moving a Unit through step() (the seam's straight-line moves),
the game's set-up checks, its record and its end (# C4 Playing a game)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4flow_support import RandomAgent, company, feed, game, kind
from confrontation.c4 import events as ev
from confrontation.c4.actions import CONTACT, STOP_GAP, gap, unit_gap, unit_mov
from confrontation.c4.choices import PickCard, UnitAction
from confrontation.c4.narrate import story
from confrontation.c4.state import C4State, Fighter, Phase, Unit, new_game
from confrontation.c4.step import legal, question, replay, run, start
from confrontation.engine.core.codec import decode, encode
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve


def activated(state: C4State, unit: str) -> C4State:
    """Barbarian, player 1 wins the opposition and goes first, then picks ``unit``."""
    from confrontation.c4.choices import ChooseFirst

    state, _ = start(state)
    state, _ = feed(state, 5, 2, ChooseFirst(0), PickCard(unit))
    assert kind(state) == "c4_unit_action"
    return state


def near_game(distance: float) -> C4State:
    """Two one-unit companies facing each other ``distance`` cm apart (edge to edge)."""
    f1, u1 = company(0, units=1, y=20.0)
    f2, u2 = company(1, units=1, y=20.0 + 2.5 + distance)
    return new_game(tuple(f1 + f2), tuple(u1 + u2), mode="barbarian")


def leader(state: C4State, unit: str) -> Fighter:
    return state.fighter(state.unit(unit).leader)


@pytest.mark.rule("C4-ACTIVATING-UNIT")
def test_the_action_menu() -> None:
    # C4 Activating Unit: walk; walk and/or ranged attack; run; assault; or nothing
    state = activated(game("barbarian"), "p1u2")  # p1u2 has marksmen
    actions = {c.action for c in legal(state) if isinstance(c, UnitAction)}
    assert actions == {"hold", "walk", "walk_shoot", "run", "assault"}
    state = activated(game("barbarian"), "p1u1")  # no ranged weapon: no ranged attack
    actions = {c.action for c in legal(state) if isinstance(c, UnitAction)}
    assert actions == {"hold", "walk", "run", "assault"}
    q = question(state)
    assert q is not None and q.player == 0


@pytest.mark.rule("C4-MOVING-A-UNIT")
def test_walk_and_run_distances_use_the_slowest_member() -> None:
    # C4 Moving a Unit: the unit's Movement is that of its slowest member; walk MOV, run 2×MOV
    base = game("barbarian")
    slow = base.with_fighters({"p1u1f2": evolve(base.fighter("p1u1f2"), mov=7.5)})
    assert unit_mov(slow, "p1u1") == 7.5
    for action, reach in (("walk", 7.5), ("run", 15.0)):
        state = activated(slow, "p1u1")
        before = leader(state, "p1u1")
        state, events = feed(state, UnitAction("p1u1", action, before.x, before.y + 50.0))
        after = leader(state, "p1u1")
        assert math.isclose(after.y - before.y, reach, abs_tol=1e-6)
        assert ev.UnitActed("p1u1", action) in events
        for fid in state.unit("p1u1").fighters:  # the whole unit moves alike
            assert math.isclose(state.fighter(fid).y, slow.fighter(fid).y + reach, abs_tol=1e-6)


@pytest.mark.rule("C4-OBSTACLES")
def test_a_walk_stops_one_cm_in_front() -> None:
    # C4 Moving a Unit > Obstacles: not enough movement to move through: stop 1 cm in front;
    # walking does not allow the unit to engage an enemy unit
    state = activated(near_game(6.0), "p1u1")
    start_leader = leader(state, "p1u1")
    state, _ = feed(state, UnitAction("p1u1", "walk", start_leader.x, 100.0))
    # the table backs along the path 0.25 cm at a time (c4-table ruling)
    assert STOP_GAP - 0.02 <= unit_gap(state, "p1u1", "p2u1") <= STOP_GAP + 0.25 + 0.02
    assert not state.unit("p1u1").engaged


@pytest.mark.rule("C4-ASSAULT")
def test_a_failed_assault_moves_as_close_as_possible() -> None:
    # C4 Moving a Unit > Assault: farther than twice the Movement: the assault fails, the unit
    # moves as close as possible and remains in formation
    state = activated(near_game(40.0), "p1u1")
    state, events = feed(state, UnitAction("p1u1", "assault", target="p2u1"))
    assert any(isinstance(e, ev.AssaultFailed) for e in events)
    assert not state.unit("p1u1").engaged
    assert math.isclose(unit_gap(state, "p1u1", "p2u1"), 20.0, abs_tol=0.02)


@pytest.mark.rule("C4-ASSAULT", "C4-COMBAT")
def test_a_successful_assault_engages_and_fights() -> None:
    # C4 Moving a Unit > Assault: within twice the Movement: scattered formation, both units
    # engaged;
    # C4 Combat: a combat is resolved when a unit is engaged at the end of its movement
    state = activated(near_game(15.0), "p1u1")
    state, events = feed(state, UnitAction("p1u1", "assault", target="p2u1"))
    assert ev.Engaged("p1u1", "p2u1") in events
    assert ev.MeleeDue("p1u1") in events
    assert state.unit("p1u1").engaged == ("p2u1",) and state.unit("p2u1").engaged == ("p1u1",)
    assert state.unit("p1u1").formation == "scattered"
    assert -1e-6 <= unit_gap(state, "p1u1", "p2u1") <= CONTACT


@pytest.mark.rule("C4-ASSAULT", "C4-COMBAT")
def test_an_engaged_unit_fights_or_assaults_only_in_contact() -> None:
    # C4 Moving a Unit > Assault: an engaged unit can assault an enemy unit it is in contact with;
    # Unit Ranged
    # Attack: only a free unit shoots; Combat: an engaged unit that does not move fights
    state = activated(near_game(0.0), "p1u1")
    engaged = state.with_unit(evolve(state.unit("p1u1"), engaged=("p2u1",)))
    assert {(c.action, c.target) for c in legal(engaged) if isinstance(c, UnitAction)} == {
        ("hold", None),
        ("assault", "p2u1"),
    }
    _, events = feed(engaged, UnitAction("p1u1", "hold"))
    assert ev.MeleeDue("p1u1") in events


@pytest.mark.rule("C4-CHOICE-OF-THE-TARGET-AND-THE-MARKSMEN")
def test_an_engaged_unit_is_no_target() -> None:
    # C4 Unit Ranged Attack > Choice of the target: it is impossible to target an engaged unit
    state = activated(game("barbarian"), "p1u2")
    free = {
        c.target for c in legal(state) if isinstance(c, UnitAction) and c.action == "walk_shoot"
    }
    assert free == {"p2u1", "p2u2"}  # shots and assaults
    busy = state.with_unit(evolve(state.unit("p2u1"), engaged=("p1u1",)))
    shots = {
        c.target for c in legal(busy) if isinstance(c, UnitAction) and c.action == "walk_shoot"
    }
    assert shots == {"p2u2"}
    x = leader(state, "p1u2").x
    _, events = feed(state, UnitAction("p1u2", "walk_shoot", x, 20.0, "p2u1"))
    assert ev.SalvoDue("p1u2", "p2u1") in events


def test_a_wiped_out_units_card_activates_nothing() -> None:
    state, _ = start(game("general"))
    gone = evolve(state, fighters=tuple(f for f in state.fighters if f.unit != "p1u1"))
    from confrontation.c4.choices import ChooseFirst, PlaceCard, PlayTop

    gone, _ = feed(gone, PlaceCard("p1u2"), PlaceCard("p2u1"), 5, 1, ChooseFirst(0))
    assert gone.sides[0].sequence == ("p1u2",)  # only units on the battlefield get cards
    state, _ = feed(state, PlaceCard("p1u1"), PlaceCard("p2u1"), 5, 2, ChooseFirst(0))
    state = evolve(state, fighters=tuple(f for f in state.fighters if f.unit != "p1u1"))
    state, events = feed(state, PlayTop())
    assert ev.UnitGone("p1u1") in events
    assert state.pending is not None and state.pending.player == 1


@pytest.mark.rule("C4-PLAYING-A-GAME")
def test_the_game_ends_after_its_rounds_and_scores_fighters() -> None:
    # C4 Playing a game: a game lasts a certain number of rounds (the default battle: ruling)
    state, events = run(game("warlord", rounds=2), [RandomAgent(1), RandomAgent(2)])
    assert state.phase is Phase.OVER and state.round == 2
    assert events[-1] == ev.C4GameEnded("2 rounds played", (6, 6), None)
    assert story(events)[-1] == "The game is over (2 rounds played): fighters left 6-6, a draw."


def test_a_company_wiped_out_ends_the_game() -> None:
    state, _ = start(game("barbarian"))
    state = evolve(state, fighters=tuple(f for f in state.fighters if not f.unit.startswith("p2")))
    state, events = run(state, [RandomAgent(0), RandomAgent(1)])
    assert events[-1] == ev.C4GameEnded("a company has no fighter left", (6, 0), 0)
    assert state.round == 1


def test_records_encode_and_replay() -> None:
    state, events = run(game("marauder", seed=7, rounds=2), [RandomAgent(3), RandomAgent(4)])
    data = [encode(e) for e in events]
    back = [decode(Event, d) for d in data]
    assert back == events
    assert replay(back) == state
    assert decode(C4State, encode(state)) == state


def test_narration_hides_a_sequence_from_the_other_player() -> None:
    _, events = run(game("general", rounds=1), [RandomAgent(3), RandomAgent(4)])
    built = [e for e in events if isinstance(e, ev.SequenceBuilt) and e.player == 1]
    assert "p2u" in story(built, 1)[0] and "p2u" not in story(built, 0)[0]


# --- new_game's checks of its input (hypothesis: bad input is refused with ValueError) --------


def _valid() -> tuple[list[Fighter], list[Unit]]:
    f1, u1 = company(0, y=20.0)
    f2, u2 = company(1, y=100.0)
    return f1 + f2, u1 + u2


@st.composite
def broken(draw: st.DrawFn) -> tuple[tuple[Fighter, ...], tuple[Unit, ...], dict[str, object]]:
    fighters, units = _valid()
    how = draw(st.sampled_from(["owner", "leader", "foreign", "dup", "health", "empty", "hero"]))
    i = draw(st.integers(0, len(units) - 1))
    kw: dict[str, object] = {}
    if how == "owner":
        units[i] = evolve(units[i], owner=draw(st.sampled_from([-1, 2, 7])))
    elif how == "leader":
        units[i] = evolve(units[i], leader=draw(st.text(min_size=1, max_size=5)))
    elif how == "foreign":
        other = units[(i + 1) % len(units)].fighters[0]
        units[i] = evolve(units[i], fighters=(*units[i].fighters, other))
    elif how == "dup":
        fighters.append(fighters[draw(st.integers(0, len(fighters) - 1))])
    elif how == "health":
        j = draw(st.integers(0, len(fighters) - 1))
        bad = draw(st.sampled_from([0, -1, fighters[j].max_health + 1]))
        fighters[j] = evolve(fighters[j], health=bad)
    elif how == "empty":
        units[i] = evolve(units[i], fighters=())
    else:  # an Incarnate who does not lead his unit
        units[0] = evolve(units[0], leader=units[0].fighters[1])
    return tuple(fighters), tuple(units), kw


@given(broken())
def test_new_game_refuses_broken_set_ups(
    case: tuple[tuple[Fighter, ...], tuple[Unit, ...], dict[str, object]],
) -> None:
    fighters, units, _ = case
    try:
        new_game(fighters, units)
    except ValueError:
        return
    raise AssertionError("a broken set-up was accepted")


@given(st.integers(-3, 1), st.text(max_size=12))
def test_new_game_refuses_bad_players_and_modes(players: int, name: str) -> None:
    fighters, units = _valid()
    for kwargs in ({"players": players}, {"mode": name + "?"}, {"face_up": (players - 5,)}):
        try:
            new_game(tuple(fighters), tuple(units), **kwargs)
        except ValueError:
            continue
        raise AssertionError(f"accepted {kwargs}")


@pytest.mark.rule("C4-UNITS", "C4-SPECIAL-FIGHTERS-AND-STANDARD-FIGHTERS")
def test_incarnates_lead_their_unit() -> None:
    # C4 Units: Incarnates are always the leaders of their unit
    fighters, units = _valid()
    assert fighters[0].incarnate and units[0].leader == fighters[0].id
    new_game(tuple(fighters), tuple(units))
    units[0] = evolve(units[0], leader=units[0].fighters[2])
    try:
        new_game(tuple(fighters), tuple(units))
    except ValueError as error:
        assert "Incarnate" in str(error)
    else:
        raise AssertionError("an Incarnate followed another leader")


def test_bases_never_overlap_after_moves() -> None:
    for seed in range(40):
        state, _ = run(near_game(seed % 25), [RandomAgent(seed), RandomAgent(seed + 1)])
        fs = state.fighters
        assert all(gap(a, b) > -1e-6 for i, a in enumerate(fs) for b in fs[i + 1 :])


@pytest.mark.rule("C4-MOVING-A-UNIT")
@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(-50, 200))
def test_free_destinations(x: float, y: float) -> None:
    # C4 Moving a Unit: "A unit can move in any direction": any point of the battlefield
    from confrontation.c4.step import refusal

    state = activated(game("barbarian"), "p1u1")
    act = UnitAction("p1u1", "walk", x, y)
    on_field = math.isfinite(x) and 0 <= x <= state.width and 0 <= y <= state.height
    assert (refusal(state, act) is None) == on_field
    q = question(state)
    assert q is not None and q.free == "destination"
    engaged = state.with_unit(evolve(state.unit("p1u1"), engaged=("p2u1",)))
    assert refusal(engaged, UnitAction("p1u1", "walk", 50.0, 50.0)) is not None
    assert refusal(state, UnitAction("p2u1", "walk", 50.0, 50.0)) is not None
