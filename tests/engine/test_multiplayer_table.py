"""The table of a game of three to six players (XX-F-1): the layout's table and areas through
``setup.on_battlefield``, the deployment spots of every player, and the set-up through the
engine's one door. Two-player tables are untouched."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from confrontation.engine.core.codec import encode
from confrontation.engine.core.state import (
    Battleground,
    GameState,
    Phase,
    ProfileSummary,
    state_from_json,
    state_to_json,
)
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import advance, legal, step
from confrontation.engine.table.field import (
    base_of,
    can_deploy,
    deployment_spots,
    deployment_zone,
    median_facing,
    table_of,
)
from confrontation.engine.table.layouts import find_layout
from engine_support import fighter

FOOT = fighter("Footman", ap=20)
OGRE = fighter("Ogre", size="very-large", power=3, ap=60)  # a 50 mm square base


def sides(players: int, cards: Sequence[tuple[ProfileSummary, int]] = ((FOOT, 2),)) -> GameState:
    specs = [SideSpec(f"Side {k + 1}", "lion", tuple(cards)) for k in range(players)]
    return game_from_specs(specs, seed=players)


def shifted(players: int) -> tuple[int, ...]:
    """Player p in area p + 1 (the last in area 1): zones that are not the identity."""
    return tuple((p + 1) % players for p in range(players))


def inside(rect: tuple[float, float, float, float], corners: Sequence[tuple[float, float]]) -> bool:
    x0, y0, x1, y1 = rect
    return all(x0 - 1e-6 <= x <= x1 + 1e-6 and y0 - 1e-6 <= y <= y1 + 1e-6 for x, y in corners)


# --- the table ----------------------------------------------------------------------------------


@pytest.mark.rule("XX-F-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_game_of_three_or_more_is_set_on_its_layout(players: int) -> None:
    state = on_battlefield(sides(players), scenery=(), zones=shifted(players), deploy=False)
    ground = state.battleground
    layout = find_layout(players)
    assert ground is not None
    assert (ground.split, ground.width, ground.height) == (
        f"players-{players}",
        layout.width,
        layout.height,
    )
    assert ground.areas == layout.areas and ground.centre == layout.centre
    names = [z.name for z in table_of(ground).zones]
    assert names == [*(f"deployment-{k}" for k in range(1, players + 1)), "centre"]
    for player in range(players):
        area = layout.areas[(player + 1) % players]
        assert deployment_zone(state, player).area.bounds == area
    assert state_from_json(state_to_json(state)) == state


@pytest.mark.rule("XX-F-1")
def test_a_line_of_battle_or_another_table_is_refused_with_three_players() -> None:
    state = sides(3)
    with pytest.raises(ValueError, match=r"^XX-F-1: a game of 3 players deploys in the areas"):
        on_battlefield(state, split="width")
    with pytest.raises(ValueError, match=r"^XX-F-1: .* 'players-3' .* 120x120 table, not 120x60$"):
        on_battlefield(state, "120x60")
    with pytest.raises(ValueError, match=r"^XX-F-1: layout 'players-4' is for 4 players, not 3$"):
        on_battlefield(state, split="players-4")
    with pytest.raises(ValueError, match=r"^zones must give each of the 3 players one of"):
        on_battlefield(state, zones=(0, 0, 1))
    assert on_battlefield(state, "120x120").battleground == on_battlefield(state).battleground
    # a layout is no line of battle for two players
    with pytest.raises(ValueError, match=r"^split must be 'width' or 'length', not 'players-3'$"):
        on_battlefield(sides(2), split="players-3")


@pytest.mark.rule("XX-F-1")
def test_a_users_layouts_file_travels_in_the_state(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        '[[layouts]]\nname = "line-of-three"\nplayers = 3\nwidth = 200.0\nheight = 60.0\n'
        "areas = [\n  { x0 = 0.0, y0 = 0.0, x1 = 40.0, y1 = 60.0 },\n"
        "  { x0 = 80.0, y0 = 0.0, x1 = 120.0, y1 = 60.0 },\n"
        "  { x0 = 160.0, y0 = 0.0, x1 = 200.0, y1 = 60.0 },\n]\n"
        "centre = { x = 60.0, y = 30.0, radius = 10.0 }\n",
        encoding="utf-8",
    )
    state = on_battlefield(
        sides(3), split="line-of-three", layouts=path, scenery=(), zones=(0, 1, 2), deploy=False
    )
    assert state.battleground is not None and state.battleground.width == 200.0
    again = state_from_json(state_to_json(state))  # nothing outside the state is needed
    assert deployment_zone(again, 2).area.bounds == (160.0, 0.0, 200.0, 60.0)


def test_two_player_tables_are_unchanged() -> None:
    state = on_battlefield(sides(2))
    assert state.battleground == Battleground(120.0, 60.0, "width", None, 6, None)
    encoded = encode(state.battleground)
    assert set(encoded) == {"width", "height", "split", "scenery", "scenery_count", "zones"}
    length = on_battlefield(sides(2), "60x60", split="length", scenery=(), zones=(1, 0))
    assert length.battleground == Battleground(60.0, 60.0, "length", (), 0, (1, 0))


# --- deployment spots -------------------------------------------------------------------------


@pytest.mark.rule("XX-F-1")
def test_each_player_faces_the_layouts_centre() -> None:
    four = on_battlefield(sides(4), scenery=(), zones=(0, 1, 2, 3), deploy=False)
    assert [median_facing(four, p) for p in range(4)] == [45.0, 135.0, 225.0, 315.0]
    three = on_battlefield(sides(3), scenery=(), zones=(2, 0, 1), deploy=False)
    # Player 1 in the top area faces straight down at the centre; the corners face it too
    assert median_facing(three, 0) == 270.0
    dx, dy = 60.0 - 22.5, 56.25 - 22.5
    assert median_facing(three, 1) == round(math.degrees(math.atan2(dy, dx)), 1)


@pytest.mark.rule("XX-F-1", "III-B-2")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_players_spots_lie_in_his_area_facing_the_centre(players: int) -> None:
    state = on_battlefield(sides(players), scenery=(), zones=shifted(players), deploy=False)
    layout = find_layout(players)
    for player in range(players):
        rect = layout.areas[(player + 1) % players]
        fighter_ = next(f for f in state.fighters if f.player == player)
        spots = deployment_spots(state, fighter_)
        assert len(spots) >= 20
        facing = median_facing(state, player)
        for spot in spots:
            assert spot.facing == facing
            base = base_of(state, fighter_).moved(spot.x, spot.y, spot.facing)
            assert inside(rect, base.corners())
            assert can_deploy(state, fighter_, spot.x, spot.y, spot.facing)


@pytest.mark.rule("XX-F-1", "III-B-2")
@pytest.mark.parametrize("players", [4, 6])
def test_twenty_large_bases_fit_in_the_smallest_areas(players: int) -> None:
    """Armies of ~300 AP: twenty 50 mm bases deployed one after the other in a corner area
    facing the centre at an angle (four players) and in the 40x40 areas of six players."""
    state = on_battlefield(
        sides(players, ((OGRE, 20),)), scenery=(), zones=tuple(range(players)), deploy=False
    )
    for fighter_ in [f for f in state.fighters if f.player == 0]:
        spots = deployment_spots(state, fighter_)
        assert spots, f"no room left for {fighter_.id}"
        state = place(state, {fighter_.id: (spots[0].x, spots[0].y, spots[0].facing)})
    rect = find_layout(players).areas[0]
    placed = [base_of(state, f) for f in state.fighters if f.player == 0]
    assert len(placed) == 20 and all(inside(rect, b.corners()) for b in placed)
    for i, a in enumerate(placed):
        for b in placed[:i]:
            assert a.polygon.intersection(b.polygon).area < 1e-4


@pytest.mark.rule("XX-F-1", "III-B")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_set_up_deploys_every_army_in_its_area(players: int) -> None:
    """Scenery laid on the larger table, areas chosen, fighters deployed: through ``step``."""
    state = on_battlefield(sides(players, ((FOOT, 3), (OGRE, 1))), scenery_count=6)
    state, _ = advance(state)
    rng = random.Random(players)
    for _ in range(3000):
        if state.phase is Phase.STRATEGIC and state.round == 1:
            break
        state, _ = step(state, rng.choice(legal(state)))
    assert state.phase is Phase.STRATEGIC and state.round == 1
    ground = state.battleground
    assert ground is not None and ground.zones is not None
    assert sorted(ground.zones) == list(range(players)) and len(ground.scenery or ()) >= 4
    for f in state.fighters:
        assert f.on_table
        rect = ground.areas[ground.zones[f.player]]
        assert inside(rect, base_of(state, f).corners()), f.id
