"""`confrontation scenarios ...`: the bundled scenarios (or a file) listed and shown as a player
reads them before a game (III-A-2, XX-A): the situation, the deployment, the objectives — "summaries
of the goal or goals" (C3-OBJECTIVES), the ``summary`` — the victory conditions, the bonus."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from confrontation.cli.army import fail

if TYPE_CHECKING:
    from confrontation.scenarios.base import Scenario

app = typer.Typer(help="Scenarios: list the bundled ones, show one.", no_args_is_help=True)

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]

_SHOWN = {
    "id",
    "name",
    "summary",
    "section",
    "rounds",
    "table",
    "split",
    "scenery",
    "scenery_placement",
    "goal",
}
"""Fields of :class:`Scenario` the header shows; the other non-empty ones get a section."""


def _load(name: str) -> Scenario:

    from confrontation.armylists.load import LoadError
    from confrontation.scenarios.base import resolve

    try:
        return resolve(name)
    except LoadError as exc:
        message = str(exc)
        fail("scenario: " + message.removeprefix("--scenario: "))


def _plain(value: Any) -> Any:
    """JSON-ready data: dataclasses as dicts, a condition's parameters as an object."""

    from pydantic import BaseModel

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(data.get("params"), str):
            data["params"] = json.loads(data["params"])
        if "players" in data and isinstance(data["players"], list):
            data["players"] = [p + 1 for p in data["players"]]  # as the file numbers them
        if isinstance(data.get("owner"), int):
            data["owner"] += 1
        return data
    if isinstance(value, BaseModel):  # neutral fighters, passive individuals (XX-E, XX-E-6)
        return value.model_dump(mode="json")
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def scenario_document(scenario: Scenario) -> dict[str, Any]:
    """The scenario as JSON data (``scenarios show --json``)."""
    data: dict[str, Any] = _plain(scenario)
    data.pop("path", None)
    return data


@app.command("list")
def list_command(as_json: JsonOption = False) -> None:
    """List the bundled scenarios and their variations."""
    from confrontation.scenarios.base import bundled_scenarios

    scenarios = [_load(name) for name in bundled_scenarios()]
    if as_json:
        typer.echo(
            json.dumps(
                [
                    {
                        "id": s.id,
                        "name": s.name,
                        "section": s.section,
                        "goal": s.goal,
                        "rounds": s.rounds,
                        "conditions": len(s.conditions),
                        "variations": list(s.variations),
                        "summary": s.summary,
                    }
                    for s in scenarios
                ],
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    table = Table(title="Scenarios")
    for column in ("id", "name", "goal", "rounds", "variations"):
        table.add_column(column, no_wrap=True)
    table.add_column("section", overflow="fold", max_width=24)  # long section lists fold
    table.add_column("summary", overflow="fold", min_width=24)
    for s in scenarios:
        table.add_row(
            s.id,
            escape(s.name),
            s.goal,
            str(s.rounds),
            ", ".join(s.variations) or "-",
            s.section,
            escape(s.summary),
        )
    _console().print(table)


@app.command("show")
def show_command(
    scenario: Annotated[
        str, typer.Argument(help="A bundled id (`conquest`, `conquest:campsites`) or a .toml file.")
    ],
    as_json: JsonOption = False,
) -> None:
    """Show one scenario: its situation, goal, areas, victory conditions and bonuses."""
    found = _load(scenario)
    data = scenario_document(found)
    if as_json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    console = _console()
    header = (
        f"{escape(found.summary)}\n\n"
        f"[b]Section[/b] {found.section or '-'}   [b]Rounds[/b] {found.rounds}   "
        f"[b]Table[/b] {found.table} ({found.split})   [b]Scenery[/b] {found.scenery} "
        f"({_placed_by(found.scenery_placement)})   [b]Goal[/b] {found.goal}"
    )
    if found.variations:
        header += f"\n[b]Variations[/b] {', '.join(found.variations)}"
    console.print(Panel(header, title=escape(f"{found.name} [{found.id}]"), expand=False))
    for key, value in data.items():
        if key in _SHOWN or key == "variations" or value in ((), [], None, "", {}):
            continue
        if key == "scenario_scenery":
            value = [_element(entry) for entry in value]
        if key == "passive":  # XX-E-6: the defender's individuals
            key, value = f"passive individuals of Player {value['defender']}", value["individuals"]
        if key == "control_points":  # the 003 pack: its elements, then its rules
            console.print(_section("control-point elements", _cp_elements(value)))
            rules = {
                "win at": value["win_at"],
                "from round": value["from_round"],
                "kill box": value["kill_box"],
                "3rd tiebreaker doubles in": value["tiebreak"],
                "a flag removed after round": value["remove_flag_after"] or "-",
            }
            console.print("   ".join(f"[b]{k}[/b]: {v}" for k, v in rules.items()))
            continue
        if key == "loot":  # XX-D: the stacks of tokens, then Carry/X
            again = "yes" if value["again"] else "no (XX-D-3)"
            console.print(_section("tokens", _stacks(value["tokens"])))
            console.print(
                f"[b]carry[/b]: {value['carry']} (XX-D-2)   [b]picked up again[/b]: {again}"
            )
            continue
        console.print(_section(key, value))


def _cp_elements(points: dict[str, Any]) -> list[dict[str, Any]]:
    """The 003 pack's zones, flags and objectives as a player reads them."""
    out = []
    for element in points["elements"]:
        side = element["side"]
        whose = f"deployment area {side + 1}" if side is not None else "-"
        if side is None and element["kind"] == "objective":
            whose = "enemy to all"
        coords = element["coords"]
        if element["shape"] == "circle":
            where = f"centre ({coords[0]:g}, {coords[1]:g}), radius {coords[2]:g} cm"
        else:
            where = f"x {coords[0]:g}-{coords[2]:g}, y {coords[1]:g}-{coords[3]:g} cm"
        out.append(
            {"name": element["name"], "kind": element["kind"], "side": whose, "where": where}
        )
    return out


def _stacks(tokens: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tokens as a player reads them: one entry per spot, with how many lie there."""
    out: dict[tuple[float, float], dict[str, Any]] = {}
    for token in tokens:
        spot = out.setdefault((token["x"], token["y"]), {"x": token["x"], "y": token["y"]})
        spot["count"] = spot.get("count", 0) + 1
    return list(out.values())


def _placed_by(placement: str) -> str:
    """XX-A-2: who lays the standard scenery."""
    return "placed by the players in turn" if placement == "players" else "laid at random"


def _element(entry: dict[str, Any]) -> dict[str, Any]:
    """An element of scenario scenery as ``show`` prints it: where it lies, not its outline."""
    out = dict(entry)
    outline = out.pop("outline", [])
    if outline:
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        out["where"] = f"x {min(xs):g}-{max(xs):g}, y {min(ys):g}-{max(ys):g} cm"
    out.pop("scenario", None)
    return out


def _console() -> Console:
    """The terminal's width, or (piped) wide enough for the texts not to be cut."""
    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=150)


def _section(key: str, value: Any) -> Table | str:
    """One section of ``scenarios show``: a table of its entries, or a line."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        return f"[b]{key}[/b]: {escape(json.dumps(value, ensure_ascii=False))}"
    columns: list[str] = []
    for entry in value:
        columns.extend(k for k in entry if k not in columns)
    table = Table(title=key.replace("_", " ").capitalize(), title_justify="left")
    for column in columns:
        table.add_column(column, overflow="fold")
    for entry in value:
        table.add_row(*(escape(_cell(entry.get(c))) for c in columns))
    return table


def _cell(value: Any) -> str:
    if value is None or value in ("", [], {}):
        return "-"
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)
