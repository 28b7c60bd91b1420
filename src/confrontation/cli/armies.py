"""`confrontation armies list`: the bundled army lists, their people, format and verdict (I-D),
by the ids ``play --armies``, ``simulate --armies`` and ``army show`` accept; `armies peoples`:
the peoples of I-D-8, their other names and whom they may ally with."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from confrontation.cli.army import fail
from confrontation.cli.profiles import people_option, wide_console

app = typer.Typer(
    help="Bundled army lists and the peoples (I-D-8): list them.", no_args_is_help=True
)


def bundled_rows() -> list[dict[str, Any]]:
    """Every bundled army with its verdict (``armies list --json``)."""

    from confrontation.armylists.load import LoadError, bundled_army_files, load_army
    from confrontation.armylists.validate import validate

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
    from confrontation.armylists.load import bundled_nations

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


@app.command("peoples")
def peoples_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the peoples (I-D-8): key, totem, nation, alliance way, other names and the peoples
    each may ally with (data/nations.toml and data/alliances.toml).

    Example: confrontation armies peoples --json
    """
    from confrontation.armylists.load import bundled_alliances

    alliances = bundled_alliances()
    rows: list[dict[str, Any]] = [
        {
            "key": nation.key,
            "totem": nation.totem,
            "name": nation.name,
            "way": nation.way,
            "aliases": list(nation.aliases),
            "recruited_by": nation.recruited_by,
            "allies": [
                other
                for other in alliances.nations
                if other != nation.key and alliances.compatible(nation.key, other)
            ],
        }
        for nation in alliances.nations.values()
    ]
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
        return
    table = Table(title="Peoples (I-D-8)")
    table.add_column("key", no_wrap=True)
    for column in ("totem", "nation", "way", "also called", "may ally with"):
        table.add_column(column, overflow="fold")
    for row in rows:
        allies = ", ".join(row["allies"]) or (
            f"through '{row['recruited_by']}/X'" if row["recruited_by"] else "nobody"
        )
        table.add_row(
            row["key"],
            escape(row["totem"]),
            escape(row["name"]),
            row["way"],
            escape(", ".join(row["aliases"])),
            allies,
        )
    wide_console(12).print(table)
