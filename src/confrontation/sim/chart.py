"""``simulate --chart FILE.png``: win rates by army and by side with their 95 % intervals,
and the match-up matrix when several armies met (matplotlib, Agg backend: no display)."""

from __future__ import annotations

from pathlib import Path

from confrontation.sim.batch import BatchResult, WinRecord, by_army, by_side, matchups


class ChartError(Exception):
    """The chart cannot be written (one line)."""


def _label(name: str) -> str:
    """An army as the chart names it: a list given as a file by its file name's stem (the
    whole path would squeeze the panels), a bundled list by its id."""
    return Path(name).stem if name.endswith(".toml") else name


def _bars(axes: object, records: list[WinRecord], title: str) -> None:
    names = [_label(r.name) for r in records]
    rates = [100 * r.win_rate for r in records]
    low = [max(0.0, 100 * (r.win_rate - r.interval[0])) for r in records]
    high = [max(0.0, 100 * (r.interval[1] - r.win_rate)) for r in records]
    axes.bar(names, rates, yerr=[low, high], capsize=4, color="#4a6fa5")  # type: ignore[attr-defined]
    axes.set_title(title)  # type: ignore[attr-defined]
    axes.set_ylabel("games won (%), 95 % interval")  # type: ignore[attr-defined]
    axes.set_ylim(0, 100)  # type: ignore[attr-defined]
    axes.tick_params(axis="x", labelrotation=30)  # type: ignore[attr-defined]


def write_chart(result: BatchResult, path: Path, title: str) -> None:
    """Draw the figures of ``result`` into the PNG ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    armies = by_army(result)
    pairs = matchups(result)
    names = [r.name for r in armies]
    matrix = len(names) > 2 and bool(pairs)
    panels = 3 if matrix else 2
    # constrained layout keeps the rotated names, the axis labels and the colour bar inside
    # the picture (tight_layout gave up on the match-up matrix: its x label was cut off)
    figure, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 4.8), layout="constrained")
    _bars(axes[0], armies, "Wins by army")
    _bars(axes[1], by_side(result), "Wins by side")
    if matrix:
        size = len(names)
        grid = [[float("nan")] * size for _ in range(size)]
        for pair in pairs:
            i, j = names.index(pair.first), names.index(pair.second)
            if pair.games and i != j:
                grid[i][j] = 100 * pair.wins[0] / pair.games
                grid[j][i] = 100 * pair.wins[1] / pair.games
        image = axes[2].imshow(grid, cmap="RdYlGn", vmin=0, vmax=100)
        labels = [_label(n) for n in names]
        axes[2].set_xticks(range(size), labels, rotation=30, ha="right")
        axes[2].set_yticks(range(size), labels)
        axes[2].set_xlabel("against this army")
        axes[2].set_ylabel("this army")
        axes[2].set_title("Games won by the row's army (%)")
        for i in range(size):
            for j in range(size):
                if grid[i][j] == grid[i][j]:  # not NaN
                    axes[2].text(j, i, f"{grid[i][j]:.0f}", ha="center", va="center")
        figure.colorbar(image, ax=axes[2])
    figure.suptitle(title)
    try:
        figure.savefig(path, format="png")
    except (OSError, ValueError) as error:
        raise ChartError(f"--chart: cannot write {str(path)!r} ({error})") from None
    finally:
        plt.close(figure)
