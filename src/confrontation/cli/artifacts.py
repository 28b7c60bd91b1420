"""`confrontation artifacts ...`: the artifacts and optional equipment (I-D-6) a list may
buy, with their cost (I-D-2) and restrictions: the peoples they are reserved for, whether they
take an 'Artifact/X' slot, whether one copy only is allowed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from confrontation.armylists.names import did_you_mean
from confrontation.cli.army import ProfilesOption, fail
from confrontation.cli.profiles import people_option, wide_console

if TYPE_CHECKING:
    from confrontation.armylists.load import Catalog
    from confrontation.model.profile import Artifact, Profile

app = typer.Typer(
    help="Artifacts and optional equipment (I-D-6): list and show, with their restrictions.",
    no_args_is_help=True,
)

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


def _catalog(profiles: list[Path] | None) -> Catalog:

    from confrontation.armylists.load import LoadError, catalog_with

    try:
        return catalog_with(profiles or [])
    except LoadError as exc:
        fail(str(exc))


def reserved_for(artifact: Artifact) -> str:
    """Who may carry it: "any people" or the peoples' totems (I-D-6)."""

    from confrontation.armylists.load import bundled_nations

    if not artifact.people:
        return "any people"
    nations = bundled_nations()
    return ", ".join(nations[p].totem if p in nations else p for p in artifact.people)


def may_carry(artifact: Artifact, profile: Profile) -> bool:
    """Whether ``profile`` may be given ``artifact`` (I-D-6): of a people it is reserved for,
    and with an 'Artifact/X' slot unless it is equipment that is no artifact."""
    if artifact.people and profile.people not in artifact.people:
        return False
    return artifact.kind == "equipment" or profile.artifact_slots > 0


def _restrictions(artifact: Artifact) -> str:
    parts = [f"reserved for {reserved_for(artifact)}" if artifact.people else "any people"]
    parts.append("takes an Artifact/X slot" if artifact.kind == "artifact" else "no slot")
    parts.append("one copy a list" if artifact.unique else "several copies allowed")
    return "; ".join(parts)


def artifact_document(artifact: Artifact, carriers: list[Profile]) -> dict[str, Any]:
    """An artifact as JSON data (``artifacts show --json``)."""
    return {
        "id": artifact.id,
        "name": artifact.name,
        "kind": artifact.kind,
        "cost": artifact.cost,
        "modifiers": dict(artifact.modifiers),
        "unique": artifact.unique,
        "people": list(artifact.people),
        "sample": artifact.sample,
        "source": artifact.source,
        "carriers": [p.id for p in carriers],
    }


@app.command("list")
def list_command(
    people: Annotated[
        str | None,
        typer.Option(
            "--people",
            help="Only what this people may carry (key, totem or usual name: Griffin).",
        ),
    ] = None,
    profiles: ProfilesOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the artifacts and optional equipment, with their cost and restrictions.

    Example: confrontation artifacts list --people Alahan
    """
    key = people_option(people)
    catalog = _catalog(profiles)
    chosen = [
        a
        for a in sorted(catalog.artifacts.values(), key=lambda a: a.id)
        if key is None or not a.people or key in a.people
    ]
    if as_json:
        rows = [artifact_document(a, _carriers(a, catalog)) for a in chosen]
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
        return
    table = Table(title="Artifacts" + (f" ({key})" if key else ""))
    longest = max((len(a.id) for a in chosen), default=2)
    table.add_column("id", no_wrap=True, min_width=longest)
    for column in ("name", "cost (AP)", "restrictions", "notes"):
        table.add_column(column, overflow="fold")
    for artifact in chosen:
        table.add_row(
            artifact.id,
            escape(artifact.name),
            escape(str(artifact.cost)),
            escape(_restrictions(artifact)),
            "sample" if artifact.sample else "",
        )
    wide_console(longest).print(table)


def _carriers(artifact: Artifact, catalog: Catalog) -> list[Profile]:
    return sorted(
        (p for p in catalog.profiles.values() if may_carry(artifact, p)), key=lambda p: p.id
    )


@app.command("show")
def show_command(
    ident: Annotated[str, typer.Argument(metavar="ID", help="Artifact id, e.g. heavenly-robes.")],
    profiles: ProfilesOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one artifact: cost, modifiers, restrictions and the profiles that may carry it.

    Example: confrontation artifacts show heavenly-robes
    """
    catalog = _catalog(profiles)
    artifact = catalog.artifacts.get(ident)
    if artifact is None:
        hint = did_you_mean(ident, catalog.artifacts)
        fail(f"ID: unknown artifact id {ident!r}{hint} (see `confrontation artifacts list`)")
    carriers = _carriers(artifact, catalog)
    if as_json:
        document = artifact_document(artifact, carriers)
        sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
        return
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row("Kind", "artifact" if artifact.kind == "artifact" else "equipment, no artifact")
    grid.add_row("Cost", escape(f"{artifact.cost} AP (on the final characteristics, I-D-2)"))
    if artifact.modifiers:
        changes = ", ".join(f"{k.upper()} {v:+d}" for k, v in artifact.modifiers.items())
        grid.add_row("Modifiers", changes)
    grid.add_row("Restrictions", escape(_restrictions(artifact)))
    grid.add_row(
        "May carry it",
        escape(", ".join(p.id for p in carriers) or "no known profile"),
    )
    if artifact.sample:
        grid.add_row("Sample", "not from an official card")
    if artifact.source:
        grid.add_row("Source", escape(artifact.source))
    title = escape(f"{artifact.name} [{artifact.id}]")
    Console(highlight=False, soft_wrap=True).print(Panel(grid, title=title, expand=False))
