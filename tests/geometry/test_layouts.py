"""XX-F-1 deployment layouts as data: the bundled file, the checks of the loader (each bad
input one line naming the file, the line and the key), and malformed files."""

from __future__ import annotations

import itertools
import math
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.engine.table.layouts import (
    CENTRE,
    SPACING_CM,
    bundled_path,
    find_layout,
    load_layouts,
)

GOOD = """\
[[layouts]]
name = "trio"
players = 3
width = 120.0
height = 120.0
areas = [
    { x0 = 0.0, y0 = 0.0, x1 = 45.0, y1 = 45.0 },
    { x0 = 75.0, y0 = 0.0, x1 = 120.0, y1 = 45.0 },
    { x0 = 37.5, y0 = 75.0, x1 = 82.5, y1 = 120.0 },
]
centre = { x = 60.0, y = 56.25, radius = 15.0 }
"""

Rect = tuple[float, float, float, float]


def gap(a: Rect, b: Rect) -> float:
    """The distance between two rectangles along the axes, computed by hand."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return math.hypot(dx, dy)


def circle_gap(circle: tuple[float, float, float], rect: Rect) -> float:
    """How far a circle's edge lies from a rectangle (negative: it reaches inside)."""
    x, y, r = circle
    nearest = (min(max(x, rect[0]), rect[2]), min(max(y, rect[1]), rect[3]))
    return math.dist((x, y), nearest) - r


def write(folder: Path, text: str) -> Path:
    path = folder / "layouts.toml"
    path.write_text(text, encoding="utf-8")
    return path


# --- the bundled layouts ------------------------------------------------------------------------


@pytest.mark.rule("XX-F-1")
def test_the_bundled_file_has_a_layout_for_three_to_six_players() -> None:
    layouts = load_layouts()
    assert sorted(layouts) == ["players-3", "players-4", "players-5", "players-6"]
    for players in range(3, 7):
        layout = layouts[f"players-{players}"]
        assert layout.players == players and len(layout.areas) == players
    assert (layouts["players-3"].width, layouts["players-3"].height) == (120.0, 120.0)
    assert (layouts["players-4"].width, layouts["players-4"].height) == (120.0, 120.0)
    assert (layouts["players-6"].width, layouts["players-6"].height) == (180.0, 120.0)


@pytest.mark.rule("XX-F-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_two_bundled_areas_are_at_least_30_cm_apart_on_the_table(players: int) -> None:
    layout = find_layout(players)
    for a, b in itertools.combinations(layout.areas, 2):
        assert gap(a, b) >= 30.0 - 1e-9, (a, b)
    for x0, y0, x1, y1 in layout.areas:
        assert 0 <= x0 < x1 <= layout.width and 0 <= y0 < y1 <= layout.height
        # room for 20 bases of 50 mm on a 6 cm grid (armies of ~300 AP, XX-F-1)
        assert (x1 - x0) * (y1 - y0) >= 20 * 6.0 * 6.0
    x, y, r = layout.centre
    assert r <= x <= layout.width - r and r <= y <= layout.height - r
    assert all(circle_gap(layout.centre, area) >= 0.0 for area in layout.areas)


@pytest.mark.rule("XX-F-1")
def test_the_centre_is_equidistant_from_the_nearest_areas() -> None:
    """docs/rulings.md: three players, 18.75 cm from each area; four, 21.2 cm from each."""
    three, four = find_layout(3), find_layout(4)
    assert [circle_gap(three.centre, a) + 15.0 for a in three.areas] == [18.75] * 3
    assert {round(circle_gap(four.centre, a) + 15.0, 6) for a in four.areas} == {
        round(math.hypot(15, 15), 6)
    }


@pytest.mark.rule("XX-F-1")
def test_the_table_of_a_layout_names_its_zones() -> None:
    table = find_layout(4).table()
    names = [z.name for z in table.zones]
    assert names == ["deployment-1", "deployment-2", "deployment-3", "deployment-4", CENTRE]
    assert table.zone("deployment-3").area.bounds == (75.0, 75.0, 120.0, 120.0)
    assert table.zone(CENTRE).area.bounds == pytest.approx((45.0, 45.0, 75.0, 75.0))


# --- a user's file -------------------------------------------------------------------------------


def test_a_users_file_replaces_the_bundled_one(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    layouts = load_layouts(path)
    assert list(layouts) == ["trio"]
    assert layouts["trio"].areas[2] == (37.5, 75.0, 82.5, 120.0)
    assert find_layout(3, "trio", path).centre == (60.0, 56.25, 15.0)
    assert load_layouts(bundled_path()) == load_layouts()


@pytest.mark.rule("XX-F-1")
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("    { x0 = 37.5, y0 = 75.0, x1 = 82.5, y1 = 120.0 },\n", ""),
            "layouts.toml:6: layouts[1].areas: 2 areas for 3 players: one per player (XX-F-1)",
        ),
        (
            (
                "x0 = 37.5, y0 = 75.0, x1 = 82.5, y1 = 120.0",
                "x0 = 37.5, y0 = 80, x1 = 82.5, y1 = 125",
            ),
            "layouts.toml:6: layouts[1].areas[3]: area 3 is not wholly on the 120x120 table",
        ),
        (
            ("x0 = 75.0, y0 = 0.0", "x0 = 74.0, y0 = 0.0"),
            "layouts.toml:6: layouts[1].areas[2]: areas 1 and 2 are 29 cm apart, at least 30 "
            "needed (XX-F-1)",
        ),
        (
            ("y = 56.25", "y = 110.0"),
            "layouts.toml:11: layouts[1].centre: the centre is not wholly on the 120x120 table",
        ),
        (
            ("radius = 15.0", "radius = 20.0"),
            "layouts.toml:11: layouts[1].centre: the centre overlaps area 1 (XX-C-3: a fighter "
            "counts in one area only)",
        ),
        (("players = 3", "players = 2"), "layouts.toml:3: layouts[1].players: Input should be"),
        (("players = 3", "players = 7"), "layouts.toml:3: layouts[1].players: Input should be"),
        (
            ('name = "trio"', 'name = "width"'),
            "layouts.toml:2: layouts[1].name: 'width' is the line of battle of two players "
            "(III-A-1)",
        ),
        (('name = "trio"', 'name = "Trio!"'), "layouts.toml:2: layouts[1].name: expected lower"),
        (
            ("x1 = 45.0, y1 = 45.0", "x1 = 0.0, y1 = 45.0"),
            "layouts.toml:6: layouts[1].areas[1].x1: an area needs x0 < x1",
        ),
        (
            ("radius = 15.0", "radius = 15.0, colour = 1"),
            "layouts.toml:11: layouts[1].centre.colour: unknown key",
        ),
        (("width = 120.0", "width = nan"), "layouts.toml:4: layouts[1].width: Input should be a"),
        (("height = 120.0", 'height = "120"'), "layouts[1].height: expected a number, got a str"),
        (("centre = { x = 60.0, y = 56.25, radius = 15.0 }\n", ""), "layouts[1].centre: missing"),
        (("[[layouts]]", "[[layout]]"), "layouts.toml:1: layouts: missing key"),
        (("players = 3", "players = 3 3"), "layouts.toml:3: invalid TOML"),
    ],
)
def test_a_bad_file_is_one_line_naming_file_line_and_key(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    assert change[0] in GOOD
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(LoadError) as caught:
        load_layouts(path)
    text = str(caught.value)
    assert text.startswith(str(path).removesuffix("layouts.toml"))
    assert message in text, text
    assert "\n" not in text


def test_a_name_given_twice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + "\n" + GOOD)
    with pytest.raises(
        LoadError, match=r"layouts.toml:14: layouts\[2\].name: layout 'trio' appears"
    ):
        load_layouts(path)


@pytest.mark.rule("XX-F-1")
def test_finding_a_layout_names_xx_f_1(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^XX-F-1: a game of 3 players deploys .* 'width'$"):
        find_layout(3, "width")
    with pytest.raises(ValueError, match=r"^XX-F-1: no deployment layout 'players-9' \(layouts: "):
        find_layout(3, "players-9")
    with pytest.raises(ValueError, match=r"^XX-F-1: layout 'players-4' is for 4 players, not 3$"):
        find_layout(3, "players-4")
    with pytest.raises(ValueError, match=r"no deployment layout 'players-4' \(layouts: trio\)"):
        find_layout(4, path=write(tmp_path, GOOD))


# --- malformed input ---------------------------------------------------------------------------

FUZZ = settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
VALUES = st.one_of(
    st.integers(-1000, 1000).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(['"x"', "true", "[]", "{}", "[1, 2]", "{ x = 1 }", "", "="]),
    st.text(max_size=8),
)


def _outcome(text: str | bytes) -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "layouts.toml"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        try:
            load_layouts(path)
        except LoadError as error:
            message = str(error)
            assert "\n" not in message and message.startswith(str(path)), message
            return "refused"
    return "loaded"


@pytest.mark.rule("XX-F-1")
@FUZZ
@given(st.data())
def test_a_value_replaced_by_anything_loads_or_is_one_line(data: st.DataObject) -> None:
    lines = GOOD.splitlines()
    numbered = [i for i, line in enumerate(lines) if "=" in line]
    index = data.draw(st.sampled_from(numbered))
    line = lines[index]
    keys = [k.split("=")[0].strip(" {,") for k in line.split(",") if "=" in k]
    key = data.draw(st.sampled_from(keys))
    value = data.draw(VALUES)
    start = line.index(key + " =") + len(key) + 3
    end = min((line.find(c, start) for c in ",}" if line.find(c, start) >= 0), default=len(line))
    lines[index] = line[:start] + value + line[end:]
    _outcome("\n".join(lines))


@pytest.mark.rule("XX-F-1")
@FUZZ
@given(st.floats(0, 1), st.binary(max_size=20))
def test_truncated_or_garbled_files_load_or_are_one_line(fraction: float, noise: bytes) -> None:
    raw = GOOD.encode()
    _outcome(raw[: int(len(raw) * fraction)] + noise)


COORD = st.integers(0, 24).map(lambda n: n * 5.0)


@pytest.mark.rule("XX-F-1")
@FUZZ
@given(st.lists(st.tuples(COORD, COORD, COORD, COORD), min_size=3, max_size=3))
def test_the_loader_accepts_exactly_the_layouts_30_cm_apart(corners: list[Rect]) -> None:
    """Random areas on a 120x120 table with a tiny centre in a corner the areas leave free
    (or not): loaded exactly when every area is a proper rectangle, every two are 30 cm apart
    and none touches the centre's circle — computed here by hand."""
    areas = [(min(a, c), min(b, d), max(a, c), max(b, d)) for a, b, c, d in corners]
    centre = (119.0, 119.0, 1.0)
    rows = ",\n".join(f"  {{ x0 = {a}, y0 = {b}, x1 = {c}, y1 = {d} }}" for a, b, c, d in areas)
    text = (
        GOOD.split("areas = [")[0]
        + f"areas = [\n{rows}\n]\ncentre = {{ x = 119.0, y = 119.0, radius = 1.0 }}\n"
    )
    proper = all(a < c and b < d for a, b, c, d in areas)
    apart = all(gap(a, b) >= SPACING_CM for a, b in itertools.combinations(areas, 2))
    clear = all(circle_gap(centre, a) > -1e-3 for a in areas)
    assert _outcome(text) == ("loaded" if proper and apart and clear else "refused")
