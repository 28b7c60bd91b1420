"""`confrontation profiles ...`: list the reference cards and show one as a panel (I-C)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from confrontation.armylists.load import (
    LoadError,
    bundled_nations,
    catalog_with,
    load_ranks,
)
from confrontation.cli.army import ProfilesOption, fail
from confrontation.model.profile import Profile

app = typer.Typer(help="Reference cards (profiles): list and show.", no_args_is_help=True)


def _catalog(profiles: list[Path] | None) -> dict[str, Profile]:
    try:
        return catalog_with(profiles or []).profiles
    except LoadError as exc:
        fail(str(exc))


@app.command("list")
def list_command(
    people: Annotated[
        str | None, typer.Option("--people", help="Only this nation (e.g. lion).")
    ] = None,
    profiles: ProfilesOption = None,
) -> None:
    """List the known profiles, optionally of one people."""
    if people is not None and people not in bundled_nations():
        fail(f"--people: unknown people {people!r} (known: {', '.join(bundled_nations())})")
    table = Table(title="Profiles" + (f" ({people})" if people else ""))
    for column in ("id", "name", "people", "rank", "AP", "notes"):
        table.add_column(column, justify="right" if column == "AP" else "left")
    for profile in sorted(_catalog(profiles).values(), key=lambda p: (p.people, p.id)):
        if people is not None and profile.people != people:
            continue
        notes = ", ".join(
            n for n, on in (("champion", profile.champion), ("sample", profile.sample)) if on
        )
        table.add_row(
            profile.id, escape(profile.name), profile.people, profile.rank, str(profile.ap), notes
        )
    Console(highlight=False).print(table)


def card_panel(profile: Profile) -> Panel:
    """The reference card as a rich panel (I-C layout, simplified)."""
    ranks = load_ranks()
    nation = bundled_nations().get(profile.people)
    rank = ranks[profile.rank].name if profile.rank in ranks else profile.rank
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row("People", f"{nation.name} ({nation.totem})" if nation else profile.people)
    grid.add_row(
        "Rank / size",
        f"{'Champion ' if profile.champion else ''}{rank} · {profile.size} "
        f"(size {profile.size_value}, power {profile.size_power})",
    )
    grid.add_row("MOV / INI", f"{profile.mov:g} / {profile.ini}")
    grid.add_row("ATT / STR", f"{profile.att} / {profile.str_}")
    grid.add_row("DEF / RES", f"{profile.def_} / {profile.res}")
    morale = f"FEAR {profile.fear}" if profile.fear is not None else f"COU {profile.courage}"
    grid.add_row("COU-FEAR / DIS", f"{morale} / {profile.dis}")
    if profile.is_shooter and profile.ranges is not None:
        ranges = "-".join(f"{r:g}" for r in profile.ranges)
        grid.add_row("AIM / AIM STR", f"{profile.aim} / {profile.aim_str}  (ranges {ranges} cm)")
    if profile.power is not None:
        grid.add_row("POW", f"{profile.power}  ({', '.join(profile.elements) or 'no element'})")
    if profile.faith is not None:
        f = profile.faith
        grid.add_row(
            "FAITH",
            f"creation {f.creation}, alteration {f.alteration}, destruction {f.destruction}",
        )
    if profile.equipment:
        grid.add_row("Equipment", escape(", ".join(profile.equipment)))
    if profile.abilities:
        shown = [
            str(a) + ("" if a.applied else " (carried, not applied)")
            for a in profile.parsed_abilities
        ]
        grid.add_row("Abilities", escape(", ".join(shown)))
    per_card = f", {profile.max_per_card} per card" if profile.max_per_card else ""
    grid.add_row("AP", f"{profile.ap}{per_card}")
    if profile.sample:
        printed = ", ".join(p.upper() for p in profile.printed) or "none"
        grid.add_row("Sample", f"values not from an official card (printed: {printed})")
    if profile.source:
        grid.add_row("Source", escape(profile.source))
    return Panel(grid, title=escape(f"{profile.name} [{profile.id}]"), expand=False)


@app.command("show")
def show_command(
    ident: Annotated[str, typer.Argument(metavar="ID", help="Profile id, e.g. praetorian-guard.")],
    profiles: ProfilesOption = None,
) -> None:
    """Show one reference card."""
    catalog = _catalog(profiles)
    profile = catalog.get(ident)
    if profile is None:
        fail(f"ID: unknown profile id {ident!r} (see `confrontation profiles list`)")
    Console(highlight=False).print(card_panel(profile))
