"""`confrontation armies list`: the bundled army lists, their people, format and verdict (I-D),
by the ids ``play --armies``, ``simulate --armies`` and ``army show`` accept."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from confrontation.armylists.load import LoadError, bundled_army_files, bundled_nations, load_army
from confrontation.armylists.validate import validate
from confrontation.cli.army import fail
from confrontation.cli.profiles import people_option, wide_console

app = typer.Typer(help="Bundled army lists: list them.", no_args_is_help=True)


def bundled_rows() -> list[dict[str, Any]]:
    """Every bundled army with its verdict (``armies list --json``)."""
    rows = []
    for path in bundled_army_files():
        try:
            report = validate(load_army(path))
        except LoadError as exc:  # a broken installation: say which file
            fail(str(exc))
        champions = [
            line.card.profile.id
            for line in report.recruited
            if line.card.profile.champion and not line.ally
        ]
        rows.append(
            {
                "id": path.stem,
                "name": report.name,
                "people": report.people,
                "points": report.points,
                "total_ap": report.total_ap,
                "fighters": report.fighters,
                "champions": champions,
                "valid": report.valid,
            }
        )
    return rows


@app.command("list")
def list_command(
    people: Annotated[
        str | None,
        typer.Option("--people", help="Only this people (key, totem or usual name: Griffin)."),
    ] = None,
    points: Annotated[
        int | None, typer.Option("--points", metavar="N", help="Only lists of this format.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the bundled army lists: id, name, people, format, cost and verdict.

    Example: confrontation armies list --points 300
    """
    key = people_option(people)
    rows = [
        row
        for row in bundled_rows()
        if (key is None or row["people"] == key) and (points is None or row["points"] == points)
    ]
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
        return
    nations = bundled_nations()
    table = Table(title="Bundled army lists")
    longest = max((len(row["id"]) for row in rows), default=2)
    table.add_column("id", no_wrap=True, min_width=longest)
    table.add_column("name", overflow="fold")
    for column in ("people", "AP", "fighters"):
        table.add_column(column, no_wrap=True, justify="left" if column == "people" else "right")
    table.add_column("champions", overflow="fold")
    table.add_column("verdict", no_wrap=True)
    for row in rows:
        nation = nations.get(row["people"])
        table.add_row(
            row["id"],
            escape(row["name"]),
            nation.totem if nation else row["people"],
            f"{row['total_ap']}/{row['points']}",
            str(row["fighters"]),
            ", ".join(row["champions"]),
            "valid" if row["valid"] else "INVALID",
        )
    wide_console(longest).print(table)
