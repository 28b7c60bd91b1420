"""`confrontation army ...`: validate an army list (chapter I-D) and show its composition."""

from __future__ import annotations

import dataclasses
import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from confrontation.armylists.validate import Report

app = typer.Typer(help="Army lists: validate (I-D) and show.", no_args_is_help=True)

PointsOption = Annotated[
    int | None,
    typer.Option(
        "--points",
        metavar="N",
        min=1,
        max=1_000_000,
        help="Check against the event's format of N AP instead of the points each file declares.",
    ),
]

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2

ProfilesOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--profiles",
        help="Extra profile library (TOML); repeat for several. Later ids replace earlier.",
    ),
]


def fail(message: str) -> NoReturn:
    """Print one line on stderr and exit 2 (unreadable input)."""
    sys.stderr.write(" ".join(f"error: {message}".split()) + "\n")
    raise typer.Exit(EXIT_UNREADABLE)


def _load(file: Path, profiles: list[Path] | None, points: int | None = None) -> tuple[Report, int]:
    """The validator's report on ``file`` at ``points`` (else the file's own), and the points
    the file declares; raises LoadError."""

    from confrontation.armylists.load import army_path, load_army
    from confrontation.armylists.validate import validate

    army = load_army(army_path(str(file)), profiles or [])
    declared = army.points
    if points is not None:
        army = dataclasses.replace(army, points=points)
    return validate(army), declared


def _report(file: Path, profiles: list[Path] | None, points: int | None = None) -> Report:

    from confrontation.armylists.load import LoadError

    try:
        return _load(file, profiles, points)[0]
    except LoadError as exc:
        fail(str(exc))


def _summary_line(report: Report, declared: int | None = None) -> str:
    verdict = "valid" if report.valid else "INVALID"
    told = (
        f" (checked at {report.points} AP; the file says {declared} AP)"
        if declared is not None and declared != report.points
        else ""
    )
    return (
        f"{report.name}: {verdict} — {report.total_ap}/{report.points} AP, "
        f"{report.fighters}/{report.quota} fighters, champions {report.champions_ap} AP, "
        f"allies {report.allies_ap} AP{told}"
    )


@app.command("validate")
def validate_command(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE", help="The army lists (TOML files or bundled army ids); one or more."
        ),
    ],
    profiles: ProfilesOption = None,
    points: PointsOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check army lists against chapter I-D, one report for all. Exit 0 all valid, 1 some
    invalid, 2 some unreadable.

    Example: confrontation army validate alice.toml bob.toml --points 300
    """
    from confrontation.armylists.load import LoadError

    entries: list[dict[str, Any]] = []
    unreadable = invalid = 0
    for file in files:
        try:
            report, declared = _load(file, profiles, points)
        except LoadError as exc:
            if len(files) == 1:
                fail(str(exc))
            unreadable += 1
            entries.append({"file": str(file), "error": str(exc)})
            if not as_json:
                sys.stderr.write(" ".join(f"error: {exc}".split()) + "\n")
            continue
        invalid += not report.valid
        entries.append({"file": str(file), "name": report.name, **report.as_json()})
        if as_json:
            continue
        if len(files) > 1:
            sys.stdout.write(f"{file}: ")
        sys.stdout.write(_summary_line(report, declared) + "\n")
        for violation in report.violations:
            sys.stdout.write(f"{violation}\n")
        for note in report.notes:  # XX-B-1: for the scenarios with a Commander
            sys.stdout.write(f"note: {note}\n")
    code = EXIT_UNREADABLE if unreadable else EXIT_INVALID if invalid else EXIT_VALID
    if as_json:
        if len(files) == 1:
            single = dict(entries[0])
            del single["file"], single["name"]
            document: dict[str, Any] = single
        else:
            document = {
                "valid": code == EXIT_VALID,
                "points": points,
                "lists": entries,
                "counts": {
                    "valid": len(files) - invalid - unreadable,
                    "invalid": invalid,
                    "unreadable": unreadable,
                },
            }
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
    elif len(files) > 1:
        fmt = f" at {points} AP" if points is not None else ""
        sys.stdout.write(
            f"{len(files)} lists{fmt}: {len(files) - invalid - unreadable} valid, "
            f"{invalid} invalid, {unreadable} unreadable\n"
        )
    raise typer.Exit(code)


def _percent(value: int, points: int) -> str:
    return f"{100 * value / points:.0f} %"


class Format(StrEnum):
    """The formats of ``army show``."""

    text = "text"
    json = "json"
    md = "md"
    html = "html"


@app.command("show")
def show_command(
    file: Annotated[Path, typer.Argument(help="The army list (TOML file or bundled army id).")],
    profiles: ProfilesOption = None,
    points: PointsOption = None,
    output_format: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            help="text (a table), json (data), md (Markdown) or html (a printable page).",
        ),
    ] = Format.text,
) -> None:
    """Show the roster: every card, fighter, equipment and cost, the quota, the champion and
    ally shares and the validator's verdict.

    Example: confrontation army show lion-vanguard --format html > roster.html
    """
    from confrontation.armylists.roster import roster_document, roster_html, roster_markdown
    from confrontation.armylists.validate import max_per_card

    report = _report(file, profiles, points)
    if output_format is not Format.text:
        document = roster_document(report, str(file))
        if output_format is Format.json:
            text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        elif output_format is Format.md:
            text = roster_markdown(document)
        else:
            text = roster_html(document)
        sys.stdout.write(text)
        return
    console = Console(highlight=False)
    table = Table(title=escape(f"{report.name} ({report.people}, {report.points} AP)"))
    for column in ("#", "card", "fighters", "unit AP", "total AP", "notes"):
        table.add_column(column, justify="right" if "AP" in column or column == "#" else "left")
    for line in report.lines:
        profile = line.card.profile
        notes: list[str] = []
        if profile.champion:
            notes.append("champion")
        if line.ally:
            notes.append(f"ally ({profile.people})")
        if not line.recruited:
            notes.append("summoned: not in the total")
        if profile.sample:
            notes.append("sample profile")
        items = ", ".join(
            f"{item.name} {cost} AP" for item, cost in (line.price.equipment if line.price else ())
        )
        name = profile.name + (f" + {items}" if items else "")
        table.add_row(
            str(line.card.index),
            escape(name),
            f"{line.card.count} (max {max_per_card(line)})",
            str(line.unit_ap),
            str(line.total_ap),
            ", ".join(notes),
        )
    console.print(table)
    console.print(
        f"Total {report.total_ap}/{report.points} AP · fighters {report.fighters}/{report.quota} "
        f"(I-D-1) · champions {report.champions_ap} AP = "
        f"{_percent(report.champions_ap, report.points)} (≥ 20 %, I-D-4) · allies "
        f"{report.allies_ap} AP = {_percent(report.allies_ap, report.points)} (≤ 30 %, I-D-8)"
    )
    carried: dict[str, list[str]] = {}
    for line in report.lines:
        for ability in line.card.profile.parsed_abilities:
            if not ability.applied:
                carried.setdefault(str(ability), []).append(line.card.profile.name)
    if carried:
        listed = "; ".join(
            f"{name} ({', '.join(sorted(set(who)))})" for name, who in carried.items()
        )
        console.print(escape(f"Carried, not applied (CLARIFICATIONS §5): {listed}"))
    if report.valid:
        console.print("[green]Valid army list.[/green]")
    for violation in report.violations:
        console.print(f"[red]{escape(str(violation))}[/red]")
    for note in report.notes:
        console.print(f"[yellow]note: {escape(str(note))}[/yellow]")
