"""`confrontation profiles ...`: list the reference cards and show one as a panel (I-C)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from confrontation.armylists.names import did_you_mean, people_key, unknown_people
from confrontation.cli.army import ProfilesOption, fail

if TYPE_CHECKING:
    from confrontation.model.profile import Profile

app = typer.Typer(help="Reference cards (profiles): list and show.", no_args_is_help=True)


def _catalog(profiles: list[Path] | None) -> dict[str, Profile]:

    from confrontation.armylists.load import LoadError, catalog_with

    try:
        return catalog_with(profiles or []).profiles
    except LoadError as exc:
        fail(str(exc))


def people_option(people: str | None) -> str | None:
    """``--people``: a people by key, totem, name or alias (any case), else one line."""

    from confrontation.armylists.load import bundled_nations

    if people is None:
        return None
    nations = bundled_nations()
    key = people_key(people, nations)
    if key is None:
        fail(f"--people: {unknown_people(people, nations)} (known: {', '.join(nations)})")
    return key


@app.command("list")
def list_command(
    people: Annotated[
        str | None,
        typer.Option(
            "--people",
            help="Only this people: key, totem or usual name (lion, Griffin, Akkylannie).",
        ),
    ] = None,
    profiles: ProfilesOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the profiles as JSON.")] = False,
    plain: Annotated[
        bool,
        typer.Option("--plain", help="One profile a line, tab-separated, no table (for scripts)."),
    ] = False,
) -> None:
    """List the known profiles, optionally of one people. Ids are never cut short.

    Example: confrontation profiles list --people Akkylannie --plain
    """
    if as_json and plain:
        fail("--json and --plain cannot be used together")
    key = people_option(people)
    chosen = [
        p
        for p in sorted(_catalog(profiles).values(), key=lambda p: (p.people, p.id))
        if key is None or p.people == key
    ]
    if as_json:
        rows = [
            {
                "id": p.id,
                "name": p.name,
                "people": p.people,
                "rank": p.rank,
                "ap": p.ap,
                "champion": p.champion,
                "sample": p.sample,
            }
            for p in chosen
        ]
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
        return
    if plain:
        for p in chosen:
            fields = (p.id, p.name, p.people, p.rank, str(p.ap), _notes(p))
            sys.stdout.write("\t".join(" ".join(f.split()) for f in fields) + "\n")
        return
    table = Table(title="Profiles" + (f" ({key})" if key else ""))
    longest = max((len(p.id) for p in chosen), default=2)
    table.add_column("id", no_wrap=True, min_width=longest)  # ids are never cut short
    for column in ("name", "people", "rank", "AP", "notes"):
        table.add_column(column, justify="right" if column == "AP" else "left", overflow="fold")
    for profile in chosen:
        table.add_row(
            profile.id,
            escape(profile.name),
            profile.people,
            profile.rank,
            str(profile.ap),
            _notes(profile),
        )
    wide_console(longest).print(table)


def wide_console(longest_id: int) -> Console:
    """A console wide enough for ids of ``longest_id`` characters and a little more: a
    narrow terminal wraps the lines rather than cut an id short."""
    console = Console(highlight=False)
    if console.width < longest_id + 40:
        console = Console(highlight=False, width=longest_id + 40)
    return console


def _notes(profile: Profile) -> str:
    return ", ".join(
        n for n, on in (("champion", profile.champion), ("sample", profile.sample)) if on
    )


def card_panel(profile: Profile) -> Panel:
    """The reference card as a rich panel (I-C layout, simplified)."""

    from confrontation.armylists.load import bundled_nations, load_ranks

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
        hint = did_you_mean(ident, catalog)
        fail(f"ID: unknown profile id {ident!r}{hint} (see `confrontation profiles list`)")
    Console(highlight=False).print(card_panel(profile))
