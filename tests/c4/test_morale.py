"""The assault's test, rout and rally through step() with scripted dice: # C4 Moving a Unit >
Assault ("This is war!"), # C4 Cards (note 1: Courage can be replaced by Fear), # C4 Universal
table of resolution (a Courage test: one die, several keep the best); the rulings of
data/c4/morale.toml (c4.morale)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4flow_support import feed, kind
from confrontation.armylists.load import LoadError
from confrontation.c4 import events as ev
from confrontation.c4 import morale
from confrontation.c4.choices import ChooseFirst, PickCard, UnitAction
from confrontation.c4.narrate import story
from confrontation.c4.state import C4State, Fighter, Stats, Unit, new_game
from confrontation.c4.step import start
from confrontation.c4.tactical import authority_terms
from confrontation.engine.core.frozen import evolve

BRAVE = Stats("brave", att_dice=1, att=3, strength=3, defense=3, res=3, courage=3)
GHOUL = Stats("ghoul", att_dice=1, att=3, strength=3, defense=3, res=3, fear=5)
HORROR = Stats("horror", att_dice=1, att=3, strength=3, defense=3, res=3, fear=6)
BEARER = Stats("bearer", att_dice=1, att=3, strength=3, defense=3, res=3, courage=3)
PROFILES = (BRAVE, GHOUL, HORROR, BEARER)


def row(uid: str, owner: int, profile: str, spots: list[tuple[float, float]], **kw: object):  # type: ignore[no-untyped-def]
    fs = [
        Fighter(f"{uid}{k + 1}", uid, profile, x, y, 1.25, 1, 1, **kw)  # type: ignore[arg-type]
        for k, (x, y) in enumerate(spots)
    ]
    return fs, Unit(uid, owner, uid, "infantry", tuple(f.id for f in fs), fs[0].id)


def game(*parts, rout: tuple[str, ...] = ()) -> C4State:  # type: ignore[no-untyped-def]
    fighters = tuple(f for fs, _ in parts for f in fs)
    units = tuple(evolve(u, rout=u.id in rout) for _, u in parts)
    return new_game(fighters, units, mode="barbarian", profiles=PROFILES)


def activated(state: C4State, unit_id: str, first: int = 0) -> tuple[C4State, list[ev.Event]]:
    state, _ = start(state)
    return feed(state, 5, 2, ChooseFirst(first), PickCard(unit_id))


FAR = row("z", 1, "brave", [(110.0, 110.0)])  # keeps player 2 in the game, north-east
A_SPOTS = [(60.0, 20.0), (63.0, 20.0), (66.0, 20.0)]
E_SPOTS = [(60.0, 32.5), (63.0, 32.5), (66.0, 32.5)]


def spots(state: C4State, unit: str) -> list[tuple[float, float]]:
    return [(f.x, f.y) for f in state.members(unit)]


@pytest.mark.rule("C4-ASSAULT", "C4-CARDS", "C4-AUTHORITY-OPPOSITION")
def test_the_active_unit_failing_is_in_rout_stays_and_its_activation_ends() -> None:
    # C4 Moving a Unit > Assault: "If the unit fails the test and is the active unit, it is in
    # rout and its activation ends, but it remains where it is." Courage 3 against Fear 5:
    # column -2, 5+ (CLARIFICATIONS 7); the die shows 4.
    a_fs, a_unit = row("a", 0, "brave", A_SPOTS)
    a_fs[0] = evolve(a_fs[0], kind="incarnate", authority=3)  # the Commander leads it
    state = game((a_fs, a_unit), row("e", 1, "ghoul", E_SPOTS), FAR)
    state, _ = activated(state, "a")
    before = spots(state, "a")
    state, events = feed(state, UnitAction("a", "assault", target="e"))
    assert kind(state) == "c4_action_die"  # the test is rolled before the unit moves
    state, events = feed(state, 4)
    tested = next(e for e in events if isinstance(e, ev.CourageTested))
    assert (tested.unit, tested.against, tested.value, tested.difficulty) == ("a", "e", 3, 5)
    assert (tested.faces, tested.minimum, tested.success) == ((4,), 5, False)
    assert ev.Routed("a", True) in events
    assert state.unit("a").rout and spots(state, "a") == before
    assert not any(isinstance(e, (ev.Engaged, ev.AssaultFailed, ev.UnitMoved)) for e in events)
    assert ev.ActivationEnded("a", 0) in events and kind(state) == "c4_turn"
    # C4 Authority Opposition: the Commander in a unit in rout rolls the bare die
    assert authority_terms(state, 0) == (1, 0)


@pytest.mark.rule("C4-ASSAULT", "C4-CARDS")
def test_the_assaulted_unit_failing_is_in_rout_and_flees_then_the_assault_goes_on() -> None:
    # C4 Moving a Unit > Assault: "If the unit fails the test and it is not the active unit,
    # it is in rout and it is subjected to Morale rules" (ruling: it flees at once, 2xMOV to
    # its own edge — north here — and the assault goes on against where it now stands)
    state = game(row("a", 0, "horror", A_SPOTS), row("e", 1, "brave", E_SPOTS), FAR)
    state, _ = activated(state, "a")
    state, _ = feed(state, UnitAction("a", "assault", target="e"))
    state, events = feed(state, 4)  # Courage 3 against Fear 6: column -3, 5+
    tested = next(e for e in events if isinstance(e, ev.CourageTested))
    assert (tested.unit, tested.against, tested.minimum, tested.success) == ("e", "a", 5, False)
    assert ev.Routed("e", False) in events and state.unit("e").rout
    fled = next(e for e in events if isinstance(e, ev.UnitFled))
    assert fled.unit == "e" and fled.dy == pytest.approx(20.0, abs=0.3) and abs(fled.dx) < 0.3
    assert any(isinstance(e, ev.AssaultFailed) for e in events)  # 30 cm off: out of reach
    assert not state.unit("a").rout and not state.unit("a").engaged


@pytest.mark.rule("C4-ASSAULT", "C4-UNIVERSAL-TABLE-OF-RESOLUTION")
def test_a_passed_test_lets_the_assault_take_place_normally() -> None:
    # "If the unit succeeds at the test, the assault takes place normally"; a 6 always passes
    state = game(row("a", 0, "brave", A_SPOTS), row("e", 1, "horror", E_SPOTS), FAR)
    state, _ = activated(state, "a")
    state, _ = feed(state, UnitAction("a", "assault", target="e"))
    state, events = feed(state, 6)
    tested = next(e for e in events if isinstance(e, ev.CourageTested))
    assert tested.success and tested.minimum == 5
    assert ev.Engaged("a", "e") in events and not state.unit("a").rout


@pytest.mark.rule("C4-ASSAULT", "C4-UNIVERSAL-TABLE-OF-RESOLUTION")
def test_a_standard_bearer_adds_a_die_and_the_best_is_kept() -> None:
    # C4 Universal table of resolution: several dice for a Courage test, only the best kept;
    # ruling: a standard bearer adds one ("in charge of fuelling the troops' morale")
    fs, unit = row("a", 0, "brave", A_SPOTS)
    fs[2] = evolve(fs[2], profile="bearer", kind="standard_bearer")
    state = game((fs, unit), row("e", 1, "ghoul", E_SPOTS), FAR)
    state, _ = activated(state, "a")
    state, _ = feed(state, UnitAction("a", "assault", target="e"))
    state, events = feed(state, 2)
    assert kind(state) == "c4_action_die" and not events[1:]  # the second die still to come
    state, events = feed(state, 5)
    tested = next(e for e in events if isinstance(e, ev.CourageTested))
    assert tested.faces == (2, 5) and tested.success
    assert ev.Engaged("a", "e") in events


@pytest.mark.rule("C4-ASSAULT", "C4-CARDS")
def test_fear_at_least_as_high_is_immune_and_rolls_nothing() -> None:
    # C4 Cards, note 1 (ruling): a unit with a Fear of its own at least the enemy's takes no test
    state = game(row("a", 0, "ghoul", A_SPOTS), row("e", 1, "ghoul", E_SPOTS), FAR)
    state, _ = activated(state, "a")
    state, events = feed(state, UnitAction("a", "assault", target="e"))
    assert ev.FearIgnored("a", "e", 5) in events and ev.FearIgnored("e", "a", 5) in events
    assert not any(isinstance(e, ev.CourageTested) for e in events)
    assert ev.Engaged("a", "e") in events


@pytest.mark.rule("C4-ASSAULT")
def test_no_fear_no_test() -> None:
    # the test faces a unit that causes Fear; plain Courage against Courage: no die
    state = game(row("a", 0, "brave", A_SPOTS), row("e", 1, "brave", E_SPOTS), FAR)
    state, _ = activated(state, "a")
    state, events = feed(state, UnitAction("a", "assault", target="e"))
    assert not any(isinstance(e, (ev.CourageTested, ev.FearIgnored)) for e in events)
    assert ev.Engaged("a", "e") in events


@pytest.mark.rule("C4-ASSAULT")
def test_a_unit_whose_flight_reaches_its_edge_leaves_the_battlefield() -> None:
    # ruling: a unit in rout whose flight reaches its own edge is removed
    near_edge = [(60.0, 112.0), (63.0, 112.0), (66.0, 112.0)]
    state = game(
        row("a", 0, "horror", [(60.0, 99.0), (63.0, 99.0), (66.0, 99.0)]),
        row("e", 1, "brave", near_edge),
        FAR,
    )
    state, _ = activated(state, "a")
    state, _ = feed(state, UnitAction("a", "assault", target="e"))
    state, events = feed(state, 1)  # a 1 always fails
    assert ev.UnitLeftBattlefield("e", 3) in events
    assert state.members("e") == ()
    assert not any(isinstance(e, ev.Engaged) for e in events)


@pytest.mark.rule("C4-ASSAULT", "C4-ACTIVATING-UNIT")
def test_a_unit_in_rout_rallies_on_its_activation() -> None:
    # ruling: a unit in rout neither assaults nor shoots; on its activation it takes a rally
    # test (Courage 3 against the data's 4: 4+) — passed, it is no longer in rout
    state = game(row("a", 0, "brave", A_SPOTS), row("e", 1, "brave", E_SPOTS), FAR, rout=("a",))
    state, events = activated(state, "a")
    assert kind(state) == "c4_action_die"  # no action asked: the rally die
    state, events = feed(state, 4)
    tested = next(e for e in events if isinstance(e, ev.CourageTested))
    assert (tested.purpose, tested.value, tested.difficulty, tested.minimum) == ("rally", 3, 4, 4)
    assert ev.Rallied("a") in events and not state.unit("a").rout
    assert ev.ActivationEnded("a", 0) in events and kind(state) == "c4_turn"


@pytest.mark.rule("C4-ASSAULT", "C4-ACTIVATING-UNIT")
def test_a_unit_in_rout_that_fails_to_rally_flees_again() -> None:
    # ruling: the rally failed, it flees 2xMOV towards its own edge
    state = game(
        row("a", 0, "brave", [(60.0, 50.0), (63.0, 50.0), (66.0, 50.0)]),
        row("e", 1, "brave", E_SPOTS),
        row("f", 1, "brave", [(60.0, 90.0)]),
        FAR,
        rout=("a",),
    )
    state, _ = activated(state, "a")
    state, events = feed(state, 3)
    assert not next(e for e in events if isinstance(e, ev.CourageTested)).success
    fled = next(e for e in events if isinstance(e, ev.UnitFled))
    assert state.unit("a").rout and fled.unit == "a"
    # the player's side of the line of battle is south here (enemy centre at y 59.5 and
    # north-east): 2xMOV = 20 cm south, skirting the enemy unit standing in the way
    assert fled.dy < -15.0 and 19.0 <= (fled.dx**2 + fled.dy**2) ** 0.5 <= 20.5
    from confrontation.c4.actions import gap

    assert all(gap(f, g) > -1e-6 for f in state.members("a") for g in state.members("e"))


@pytest.mark.rule("C4-ASSAULT")
def test_narration_of_the_test_the_rout_the_flight_and_the_rally() -> None:
    lines = story(
        [
            ev.CourageTested(
                "p1-wolf-warriors", "assault", "p2-lion-spearmen", 3, 5, (4,), 5, False
            ),
            ev.Routed("p1-wolf-warriors", True),
            ev.FearIgnored("p1-wolf-warriors", "p2-lion-spearmen", 5),
            ev.UnitFled("p1-wolf-warriors", 0.0, -20.0),
            ev.UnitLeftBattlefield("p1-wolf-warriors", 3),
            ev.Rallied("p1-wolf-warriors"),
        ]
    )
    assert len(lines) == 6
    assert "Courage test against the Fear of" in lines[0] and "(3 against 5, 5+)" in lines[0]
    assert lines[0].endswith("rolls 4, fails.")
    assert "in rout" in lines[1] and "no test" in lines[2]
    assert "20 cm south" in lines[3] and "off the battlefield (3 fighters gone)" in lines[4]
    assert "no longer in rout" in lines[5]


# --- the data ------------------------------------------------------------------------------


def test_the_bundled_rulings_load() -> None:
    rules = morale.default_morale()
    assert rules.tests == ("assaulting", "assaulted") and rules.rally_difficulty == 4


def test_a_replaced_file_changes_who_tests(tmp_path: Path) -> None:
    text = morale_text().replace('tests = ["assaulting", "assaulted"]', 'tests = ["assaulted"]')
    path = tmp_path / "morale.toml"
    path.write_text(text, encoding="utf-8")
    rules = morale.load_morale(path)
    assert rules.tests == ("assaulted",)
    state = game(row("a", 0, "brave", A_SPOTS), row("e", 1, "ghoul", E_SPOTS), FAR)

    class Never:
        rolled = 0

        def d6(self) -> int:
            raise AssertionError("no die: the assaulting unit does not test")

    after, events = morale.assault_test(state, "a", "e", Never(), rules)
    assert events == [] and after == state


def morale_text() -> str:
    from confrontation.data import data_path

    return data_path("c4/morale.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('courage_of = "leader"', 'courage_of = "bravest"', "courage_of"),
        ("rally_difficulty = 4", 'rally_difficulty = "4"', "rally_difficulty"),
        ('flight = "run"', 'flight = "crawl"', "flight"),
        ('bonus_in = ["assault", "rally"]', 'bonus_in = ["rally", "rally"]', "bonus_in"),
        ("assaulted_flees = true", "assaulted_flees = true\nfled = 1", "fled"),
    ],
)
def test_bad_fields_are_one_line_errors(tmp_path: Path, old: str, new: str, key: str) -> None:
    path = tmp_path / "morale.toml"
    path.write_text(morale_text().replace(old, new), encoding="utf-8")
    with pytest.raises(LoadError) as err:
        morale.load_morale(path)
    assert "\n" not in str(err.value) and (key in str(err.value) or "twice" in str(err.value))


_VALUES = st.one_of(
    st.integers(-50, 50), st.booleans(), st.text(max_size=8), st.lists(st.text(max_size=8))
)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(list(morale.Morale.__dataclass_fields__)), _VALUES))
def test_any_parsed_table_loads_or_is_a_load_error(data: dict[str, object]) -> None:
    try:
        rules = morale.parse_morale(Path("m.toml"), "", data)
    except LoadError as err:
        assert "\n" not in str(err)
    else:
        assert rules.flight in ("walk", "run") and set(rules.tests) <= {"assaulting", "assaulted"}


@pytest.mark.rule("C4-CARDS")
def test_every_people_has_a_sample_profile_that_causes_fear() -> None:
    # C4 Cards, note 1: Courage can be replaced by Fear — the bundled games roll the test
    from confrontation.c4.cards import bundled_cards

    peoples: dict[str, bool] = {}
    for card in bundled_cards().values():
        profiles = (card.standard, *card.specials)
        peoples[card.people] = peoples.get(card.people, False) or any(
            p.fear is not None for p in profiles
        )
    assert peoples == {"griffin": True, "lion": True, "scorpion": True, "wolf": True}


@pytest.mark.rule("C4-ASSAULT")
def test_a_bundled_game_with_routs_is_recorded_and_replays() -> None:
    # the tests and the rally are chance steps: a record of choices and dice replays them
    from confrontation.agents.c4 import C4GreedyAgent, C4RandomAgent
    from confrontation.c4.setup import bundled_game
    from confrontation.c4.step import replay, run
    from confrontation.engine.core import codec
    from confrontation.engine.core.events import Event

    for seed in range(12):  # the first seeded game with a rout and a rally
        state = bundled_game(["scorpion-cohort", "lion-host"], seed=seed)
        end, events = run(state, [C4GreedyAgent(0), C4RandomAgent(1)])
        if any(isinstance(e, ev.Rallied) for e in events):
            break
    assert any(isinstance(e, ev.Routed) for e in events)
    assert any(isinstance(e, ev.Rallied) for e in events)
    back = [codec.decode(Event, codec.encode(e)) for e in events]
    assert back == events and replay(back) == end


# --- the own edge stored at set-up; leaving the table judged by the fighters (c4ai3) --------


def _routed(*parts, edges: tuple[str, ...]) -> C4State:  # type: ignore[no-untyped-def]
    fighters = tuple(f for fs, _ in parts for f in fs)
    units = tuple(evolve(u, rout=u.id == "a") for _, u in parts)
    return new_game(fighters, units, mode="barbarian", profiles=PROFILES, edges=edges)


@pytest.mark.rule("C4-ASSAULT", "C4-ACTIVATING-UNIT")
def test_the_flight_goes_towards_the_stored_own_edge() -> None:
    # ruling: the flight runs towards the edge the player deployed along (C4State.edges),
    # not the side of the line of battle: with the enemy south of it, player 1's unit whose
    # own edge is east flees east (the inferred edge would have been north)
    parts = (
        row("a", 0, "brave", [(60.0, 50.0), (63.0, 50.0), (66.0, 50.0)]),
        row("e", 1, "brave", E_SPOTS),
    )
    for edges, sign in ((("e", "w"), 1.0), (("w", "e"), -1.0)):
        state, _ = activated(_routed(*parts, edges=edges), "a")
        state, events = feed(state, 3)  # the rally fails (4+)
        fled = next(e for e in events if isinstance(e, ev.UnitFled))
        assert sign * fled.dx > 15.0 and abs(fled.dy) < 1.0
    # an older record (no edges): the side of the line of battle, north here
    state, _ = activated(_routed(*parts, edges=()), "a")
    state, events = feed(state, 3)
    assert next(e for e in events if isinstance(e, ev.UnitFled)).dy > 15.0


@pytest.mark.rule("C4-ASSAULT", "C4-ACTIVATING-UNIT", "C4-UNITS")
def test_fighters_touching_the_own_edge_leave_and_the_leader_is_replaced() -> None:
    # ruling: after the flight, each fighter whose base touches his own edge leaves; 1 of 4
    # is not more than half: the unit stays (in rout), its leader who left replaced
    a = row("a", 0, "brave", [(60.0, 12.0), (60.0, 15.0), (63.0, 15.0), (57.0, 15.0)])
    state, _ = activated(_routed(a, row("e", 1, "brave", E_SPOTS), FAR, edges=("s", "n")), "a")
    state, events = feed(state, 3)
    assert ev.UnitLeftBattlefield("a", 1) in events
    assert ev.LeaderReplaced("a", "a1", "a2") in events
    assert [f.id for f in state.members("a")] == ["a2", "a3", "a4"]
    assert state.unit("a").rout and state.unit("a").leader == "a2"
    assert all(morale.edge_gap(state, f, "s") > 1.0 for f in state.members("a"))
    # next time, all three reach the edge: the unit leaves whole
    state = evolve(state, units=tuple(evolve(u, activated=False) for u in state.units))
    left = morale.flee(state, "a")[1]
    assert ev.UnitLeftBattlefield("a", 3) in left


@pytest.mark.rule("C4-ASSAULT", "C4-ACTIVATING-UNIT")
def test_more_than_half_at_the_edge_takes_the_whole_unit_off() -> None:
    # ruling: 2 of 3 fighters touch the edge (the third 3 cm behind): the unit leaves whole
    a = row("a", 0, "brave", [(60.0, 12.0), (63.0, 12.0), (60.0, 15.0)])
    state, _ = activated(_routed(a, row("e", 1, "brave", E_SPOTS), FAR, edges=("s", "n")), "a")
    state, events = feed(state, 3)
    assert ev.UnitLeftBattlefield("a", 3) in events and state.members("a") == ()


def test_set_up_stores_each_players_own_edge_and_old_records_still_load() -> None:
    from confrontation.c4.setup import bundled_game
    from confrontation.engine.core.codec import decode, encode

    state = bundled_game(["griffin-vanguard", "lion-host"])
    assert state.edges == ("s", "n")
    assert all(
        morale.own_edge(state, u.owner) == ("s" if u.owner == 0 else "n") for u in state.units
    )
    wide = bundled_game(["griffin-vanguard", "lion-host"], split="width")
    assert wide.edges == ("w", "e")
    assert decode(C4State, encode(state)) == state
    old = evolve(state, edges=())
    assert "edges" not in encode(old)  # left out of records when empty
    assert decode(C4State, encode(old)) == old
    with pytest.raises(ValueError, match="edges"):
        new_game(state.fighters, state.units, edges=("s", "x"))
