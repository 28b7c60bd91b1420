"""`confrontation army ...`: validate an army list (chapter I-D) and show its composition."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from confrontation.armylists.load import LoadError, load_army
from confrontation.armylists.validate import Report, max_per_card, validate

app = typer.Typer(help="Army lists: validate (I-D) and show.", no_args_is_help=True)

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


def _report(file: Path, profiles: list[Path] | None) -> Report:
    try:
        return validate(load_army(file, profiles or []))
    except LoadError as exc:
        fail(str(exc))


@app.command("validate")
def validate_command(
    file: Annotated[Path, typer.Argument(help="The army list (TOML).")],
    profiles: ProfilesOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check an army list against chapter I-D. Exit 0 valid, 1 invalid, 2 unreadable."""
    report = _report(file, profiles)
    if as_json:
        sys.stdout.write(json.dumps(report.as_json(), ensure_ascii=False) + "\n")
    else:
        verdict = "valid" if report.valid else "INVALID"
        sys.stdout.write(
            f"{report.name}: {verdict} — {report.total_ap}/{report.points} AP, "
            f"{report.fighters}/{report.quota} fighters, champions {report.champions_ap} AP, "
            f"allies {report.allies_ap} AP\n"
        )
        for violation in report.violations:
            sys.stdout.write(f"{violation}\n")
        for note in report.notes:  # XX-B-1: for the scenarios with a Commander
            sys.stdout.write(f"note: {note}\n")
    raise typer.Exit(EXIT_VALID if report.valid else EXIT_INVALID)


def _percent(value: int, points: int) -> str:
    return f"{100 * value / points:.0f} %"


@app.command("show")
def show_command(
    file: Annotated[Path, typer.Argument(help="The army list (TOML).")],
    profiles: ProfilesOption = None,
) -> None:
    """Show the cards, fighters, unit and total costs, quota, champion and ally shares."""
    report = _report(file, profiles)
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
