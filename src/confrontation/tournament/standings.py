"""Results and standings: tournament points by the XX-A-4 table, goal-average and bonus
(XX-A-5) as tie-breakers (docs/rulings.md "Tournaments: standings"), written as JSON, CSV and
a printable HTML page."""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from confrontation.scenarios.results import TournamentPoints, load_tournament_points


@dataclass(frozen=True)
class Result:
    """One table's result: per player (Player 1 first) VP, losses (AP), bonus scored (capped),
    tournament points and goal-average; a bye has one player. ``game`` is the stored game it
    was taken from, if any."""

    vp: tuple[int, ...]
    losses: tuple[int, ...]
    bonus: tuple[int, ...]
    tp: tuple[int, ...]
    ga: tuple[int, ...]
    game: int | None = None


def score(
    vp: tuple[int, int],
    losses: tuple[int, int],
    bonus: tuple[int, int] = (0, 0),
    table: TournamentPoints | None = None,
    game: int | None = None,
) -> Result:
    """A game entered by hand: TP from the XX-A-4 table, GA = enemy losses − own losses + the
    bonus capped at the table's cap (XX-A-5)."""
    table = table if table is not None else load_tournament_points()
    capped = (table.cap(bonus[0]), table.cap(bonus[1]))
    tp = (table.points(vp[0], vp[1]), table.points(vp[1], vp[0]))
    ga = (losses[1] - losses[0] + capped[0], losses[0] - losses[1] + capped[1])
    return Result(vp, losses, capped, tp, ga, game)


def bye_result(bye_vp: int, table: TournamentPoints | None = None) -> Result:
    """A bye: a game won ``bye_vp`` to 0 on the XX-A-4 table, goal-average 0 (docs/rulings.md
    "Tournaments: the bye")."""
    table = table if table is not None else load_tournament_points()
    return Result((bye_vp,), (0,), (0,), (table.points(bye_vp, 0),), (0,))


@dataclass(frozen=True)
class Game:
    """One table of one round: players by their index in the event, Player 1 first; its result
    once entered."""

    round: int
    table: int
    first: int
    second: int | None
    result: Result | None = None

    @property
    def bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    rank: int
    player: int
    name: str
    army: str
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    tp: int
    ga: int
    bonus: int
    vp: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


COLUMNS = ("rank", "name", "army", "played", "won", "drawn", "lost", "byes", "tp", "ga", "bonus")
HEADINGS = ("#", "player", "army", "games", "won", "drawn", "lost", "byes", "TP", "GA", "bonus")


def standings(
    names: Sequence[str], armies: Sequence[str], games: Sequence[Game], upto: int | None = None
) -> list[Standing]:
    """Everyone's totals over the games with a result (rounds up to ``upto``), best first:
    tournament points (XX-A-4), then goal-average, then bonus (XX-A-5), then VP, then name."""
    total: dict[str, list[int]] = {key: [0] * len(names) for key in (*COLUMNS[3:], "vp")}
    for game in games:
        if game.result is None or (upto is not None and game.round > upto):
            continue
        result = game.result
        for side, player in enumerate(game.players):
            total["tp"][player] += result.tp[side]
            total["ga"][player] += result.ga[side]
            total["bonus"][player] += result.bonus[side]
            total["vp"][player] += result.vp[side]
            if game.bye:
                total["byes"][player] += 1
                continue
            total["played"][player] += 1
            mine, theirs = result.vp[side], result.vp[1 - side]
            key = "won" if mine > theirs else "lost" if mine < theirs else "drawn"
            total[key][player] += 1
    order = sorted(
        range(len(names)),
        key=lambda p: (
            -total["tp"][p],
            -total["ga"][p],
            -total["bonus"][p],
            -total["vp"][p],
            names[p].casefold(),
        ),
    )
    return [
        Standing(
            rank=position,
            player=p,
            name=names[p],
            army=armies[p],
            **{key: total[key][p] for key in total},
        )
        for position, p in enumerate(order, start=1)
    ]


def to_csv(rows: Sequence[Standing]) -> str:
    """The standings as CSV (a header line, then one line per player)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADINGS)
    for row in rows:
        writer.writerow([getattr(row, key) for key in COLUMNS])
    return out.getvalue()


def to_html(title: str, subtitle: str, rows: Sequence[Standing]) -> str:
    """A printable page: the standings as a table (self-contained, no script)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in HEADINGS)
    body = "\n".join(
        "<tr>" + "".join(f"<td>{html.escape(str(getattr(row, k)))}</td>" for k in COLUMNS) + "</tr>"
        for row in rows
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: serif; margin: 2em; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border: 1px solid #444; padding: 0.3em 0.6em; text-align: right; }}
td:nth-child(2), td:nth-child(3), th:nth-child(2), th:nth-child(3) {{ text-align: left; }}
@media print {{ body {{ margin: 0; }} }}
</style></head>
<body>
<h1>{html.escape(title)}</h1>
<p>{html.escape(subtitle)}</p>
<table>
<thead><tr>{head}</tr></thead>
<tbody>
{body}
</tbody>
</table>
<p>TP: tournament points (XX-A-4); GA: goal-average, bonus included (XX-A-5). Ties: TP, then
GA, then bonus, then VP.</p>
</body></html>
"""
