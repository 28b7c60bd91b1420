"""Whole C4 games: every game mode AI against AI, records that encode and replay, games saved
in the store, interrupted and resumed, and the SVG picture (# C4 Playing a game)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from confrontation.c4 import events as ev
from confrontation.c4.picture import svg
from confrontation.c4.step import replay
from confrontation.engine.core.codec import decode, encode
from confrontation.engine.core.events import Event
from confrontation.sim.c4game import (
    MODES,
    C4Config,
    C4SetupError,
    build,
    play_c4,
    play_c4_stored,
    resume_c4_stored,
)
from confrontation.store import INTERRUPTED, open_store


@pytest.mark.rule("C4-ORDERING-THE-ACTIVATION-SEQUENCE", "C4-PLAYING-A-GAME")
@pytest.mark.parametrize("mode", MODES)
def test_every_mode_plays_to_the_end(mode: str) -> None:
    # C4 Ordering the activation sequence: the six game modes; C4 Playing a game: rounds
    config = C4Config(agents=("greedy", "random"), seed=7, mode=mode, rounds=2)
    result = play_c4(config)
    assert isinstance(result.events[-1], ev.C4GameEnded)
    assert result.state.mode == mode
    assert any(isinstance(e, ev.UnitActed) for e in result.events)


def test_a_record_encodes_and_replays() -> None:
    result = play_c4(C4Config(agents=("greedy", "greedy"), seed=2, rounds=3))
    back = [decode(Event, encode(e)) for e in result.events]
    assert back == result.events
    assert replay(back) == result.state


def test_same_seed_same_game() -> None:
    a = play_c4(C4Config(agents=("random", "random"), seed=5, rounds=2))
    b = play_c4(C4Config(agents=("random", "random"), seed=5, rounds=2))
    c = play_c4(C4Config(agents=("random", "random"), seed=6, rounds=2))
    assert a.events == b.events and a.events != c.events


def test_a_saved_game_round_trips_and_an_interrupted_one_resumes(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "games.db"))
    config = C4Config(agents=("random", "greedy"), seed=4, mode="warlord", rounds=2)
    whole = play_c4(config)
    game_id, result = play_c4_stored(config, store)
    saved = store.load(game_id)
    assert saved.events == result.events == whole.events
    assert replay(saved.events) == result.state
    assert saved.summary.outcome is not None and saved.summary.outcome.vp == result.scores

    seen = 0

    def stop(event: Event) -> None:
        nonlocal seen
        seen += 1
        if seen == 40:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play_c4_stored(config, store, on_event=stop)
    broken = max(g.id for g in store.list())
    assert store.load(broken).status == INTERRUPTED
    assert len(store.load(broken).events) < len(whole.events)
    _, resumed = resume_c4_stored(broken, store)
    assert resumed.events == whole.events  # it goes on exactly as it would have
    assert store.load(broken).events == whole.events


def test_a_bad_set_up_is_one_error() -> None:
    with pytest.raises(C4SetupError, match="no C4 company"):
        build(C4Config(companies=("griffin-vanguard", "nobody")))
    with pytest.raises(C4SetupError, match="no C4 game mode"):
        build(C4Config(mode="chess"))


def test_the_picture_draws_units_leaders_and_formations() -> None:
    state = build(C4Config())
    doc = ET.fromstring(svg(state))
    ns = "{http://www.w3.org/2000/svg}"
    fighters = [c for c in doc.iter(f"{ns}circle") if c.get("class") == "fighter"]
    leaders = [c for c in doc.iter(f"{ns}circle") if c.get("class") == "leader"]
    shapes = [p for p in doc.iter(f"{ns}polygon") if "formation" in (p.get("class") or "")]
    assert len(fighters) == len(state.fighters)
    assert len(leaders) == len(shapes) == len(state.units)
    assert all("scattered" in (p.get("class") or "") for p in shapes)


def test_companies_are_validated_and_deployed_in_formation() -> None:
    # C4 Units: each unit has a leader (its Incarnate); C4 Special fighters: each company has
    # at least one Incarnate; the deployed units are in scattered formation, bases apart
    from confrontation.c4.actions import formation_problems, gap
    from confrontation.c4.company import bundled_companies
    from confrontation.c4.setup import company_game

    known = bundled_companies()
    state = company_game([known["griffin-vanguard"], known["wolf-pack"]])
    for unit in state.units:
        assert formation_problems(state, unit.id) == []
        incarnates = [f.id for f in state.members(unit.id) if f.incarnate]
        assert unit.leader == (incarnates[0] if incarnates else unit.leader)
    fs = state.fighters
    assert all(gap(a, b) > 0 for i, a in enumerate(fs) for b in fs[i + 1 :])
    assert {s.id for s in state.profiles} == {f.profile for f in fs}
    broken = known["griffin-crusade"].model_copy(
        update={"unit": [u for u in known["griffin-crusade"].unit if not u.specials]}
    )
    with pytest.raises(ValueError, match="no Incarnate"):
        company_game([broken, known["wolf-pack"]])
