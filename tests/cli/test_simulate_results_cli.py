"""`simulate` for a balance volunteer: wins by army and by side with 95 % Wilson intervals,
a match-up matrix when several armies play in pairs, a PNG chart, nothing stored unless
asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.sim.batch import wilson
from confrontation.store import open_store
from games_support import SMALL_ARMIES

runner = CliRunner()
THIRD = (
    'name = "Small Guards"\npeople = "lion"\npoints = 100\n\n'
    '[[cards]]\nprofile = "alahan-guard"\ncount = 2\n'
)


def armies(folder: Path) -> list[str]:
    paths = []
    for name, text in {**SMALL_ARMIES, "small-guards.toml": THIRD}.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(str(folder / name))
    return paths


def simulate(*args: str) -> list[str]:
    return ["simulate", "--rounds", "1", "--agents", "random,greedy", "--seed", "2", *args]


def test_wins_by_army_and_by_side_with_their_intervals(tmp_path: Path) -> None:
    two = armies(tmp_path)[:2]
    result = runner.invoke(
        app, simulate("--allow-invalid", "--armies", *two, "--games", "4", "--json")
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    by_army = {r["name"]: r for r in document["by_army"]}
    assert set(by_army) == set(two)
    for row in document["by_army"] + document["by_side"]:
        assert row["win_rate_95"] == [round(x, 6) for x in wilson(row["wins"], row["games"])]
    assert sum(r["wins"] for r in document["by_army"]) == sum(document["wins"])
    assert [r["name"] for r in document["by_side"]] == ["Player 1", "Player 2"]
    winners = [g["winner"] for g in document["results"]]
    assert [r["wins"] for r in document["by_side"]] == [winners.count(0), winners.count(1)]
    for name, row in by_army.items():
        won = sum(
            1
            for g in document["results"]
            if g["winner"] is not None and g["armies"][g["winner"]] == name
        )
        assert row["wins"] == won and row["games"] == 4
    assert "matchups" not in document


def test_several_armies_with_two_agents_play_every_pair(tmp_path: Path) -> None:
    three = armies(tmp_path)
    chart = tmp_path / "chart.png"
    args = simulate(
        "--allow-invalid", "--armies", *three, "--games", "2", "--json", "--chart", str(chart)
    )
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["games"] == 6
    pairs = [set(m["armies"]) for m in document["matchups"]]
    assert len(pairs) == 3 and all(len(p) == 2 for p in pairs)
    assert all(m["games"] == 2 for m in document["matchups"])
    assert all(r["games"] == 4 for r in document["by_army"])
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = runner.invoke(app, [a for a in args if a != "--json"])
    assert "Match-ups" in text.stdout and "Wins by army" in text.stdout
    assert "Wins by side" in text.stdout


def test_games_are_not_stored_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "default.db"
    monkeypatch.setenv("CONFRONTATION_DB", str(db))
    two = armies(tmp_path)[:2]
    result = runner.invoke(app, simulate("--allow-invalid", "--armies", *two, "--games", "2"))
    assert result.exit_code == 0, result.output
    assert "not stored" in result.stdout
    assert not db.exists()
    result = runner.invoke(
        app, simulate("--allow-invalid", "--armies", *two, "--games", "2", "--store")
    )
    assert result.exit_code == 0, result.output
    with open_store(str(db)) as store:
        assert store.count() == 2
    bad = runner.invoke(app, simulate("--store", "--no-store"))
    assert bad.exit_code == 2 and "--store and --no-store" in bad.stderr


def test_a_chart_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    two = armies(tmp_path)[:2]
    target = tmp_path / "missing" / "chart.png"
    result = runner.invoke(
        app, simulate("--allow-invalid", "--armies", *two, "--games", "1", "--chart", str(target))
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --chart") and len(result.stderr.splitlines()) == 1


def test_the_three_panel_chart_keeps_every_label_inside_the_picture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wins by army, by side and the match-up matrix: no title, tick name or axis label is cut
    off at the picture's edge (the matrix's x label was, under tight_layout)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    drawn: list[Figure] = []
    close = plt.close
    monkeypatch.setattr(plt, "close", drawn.append)
    chart = tmp_path / "chart.png"
    args = simulate("--allow-invalid", "--armies", *armies(tmp_path), "--games", "2")
    result = runner.invoke(app, [*args, "--chart", str(chart)])
    assert result.exit_code == 0, result.output
    figure = drawn[0]
    figure.canvas.draw()  # laid out as when saved
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    frame = figure.bbox
    texts = [t for t in figure.findobj(Text) if t.get_text() and t.get_visible()]
    assert "against this army" in [t.get_text() for t in texts]
    for text in texts:
        box = text.get_window_extent(renderer)
        inside = frame.x0 - 1 <= box.x0 and box.x1 <= frame.x1 + 1
        assert inside and frame.y0 - 1 <= box.y0 and box.y1 <= frame.y1 + 1, text.get_text()
    close(figure)
