"""`confrontation odds ...`: exact probabilities of tests, opposed tests and wound rolls."""

from __future__ import annotations

import json
from fractions import Fraction

import typer
from rich.console import Console

from confrontation import dice

app = typer.Typer(help="Exact odds: tests, opposed tests, wound rolls.", no_args_is_help=True)


# --- dice: `odds test` and `odds opposed` (II-A) ---------------------------------------------

MAX_DICE = 8
MAX_SPREAD = 600  # |value − difficulty| beyond this is refused: a raise chain of 100 6s


def _usage_error(message: str) -> typer.Exit:
    """Print ONE line on stderr and give the usage exit code (2); ``raise`` the result."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _integer(option: str, text: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """Parse an integer option ourselves so bad input is one clear line, not a usage box."""
    try:
        number = int(text.strip())
    except ValueError:
        raise _usage_error(f"{option} must be an integer, not {text!r}") from None
    if minimum is not None and number < minimum:
        raise _usage_error(f"{option} must be at least {minimum}, not {number}")
    if maximum is not None and number > maximum:
        raise _usage_error(f"{option} must be at most {maximum}, not {number}")
    return number


def _fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


@app.command("test")
def odds_test(
    value: str = typer.Option(
        ..., "--value", metavar="INT", help="Current value of the tested characteristic."
    ),
    difficulty: str = typer.Option(
        ..., "--difficulty", metavar="INT", help="Difficulty to reach (II-A-3)."
    ),
    dice_count: str = typer.Option(
        "1", "--dice", metavar="INT", help="d6 rolled, one kept (II-A-2)."
    ),
    no_raise: bool = typer.Option(
        False, "--no-raise", help="Never raise a 6 (default: raise while failing)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Chance that a characteristic test succeeds against a difficulty (II-A)."""
    v = _integer("--value", value, -MAX_SPREAD, MAX_SPREAD)
    d = _integer("--difficulty", difficulty, v - MAX_SPREAD, v + MAX_SPREAD)
    n = _integer("--dice", dice_count, 1, MAX_DICE)
    policy = dice.RaisePolicy.NEVER if no_raise else dice.RaisePolicy.OPTIMAL
    p = dice.p_success(v, d, n, policy)
    if as_json:
        typer.echo(json.dumps({"p_success": float(p), "fraction": _fraction_text(p)}))
        return
    raising = "never raising" if no_raise else "raising 6s while failing"
    Console(soft_wrap=True).print(
        f"Test of value [bold]{v}[/] against difficulty [bold]{d}[/] with {n}d6 ({raising}): "
        f"[bold green]{float(p):.2%}[/] (exactly {_fraction_text(p)})"
    )


@app.command("opposed")
def odds_opposed(
    a: str = typer.Option(..., "--a", metavar="INT", help="Current value of side A."),
    b: str = typer.Option(..., "--b", metavar="INT", help="Current value of side B."),
    dice_a: str = typer.Option("1", "--dice-a", metavar="INT", help="d6 rolled by side A."),
    dice_b: str = typer.Option("1", "--dice-b", metavar="INT", help="d6 rolled by side B."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Chance that side A wins an opposed test (II-A-3), both sides raising sensibly."""
    va = _integer("--a", a, -MAX_SPREAD, MAX_SPREAD)
    vb = _integer("--b", b, va - MAX_SPREAD, va + MAX_SPREAD)
    na = _integer("--dice-a", dice_a, 1, MAX_DICE)
    nb = _integer("--dice-b", dice_b, 1, MAX_DICE)
    p = dice.p_opposed(va, vb, na, nb)
    if as_json:
        typer.echo(json.dumps({"p_a_wins": float(p), "fraction": _fraction_text(p)}))
        return
    Console(soft_wrap=True).print(
        f"Opposed test, A {va} with {na}d6 against B {vb} with {nb}d6 (ties re-rolled): "
        f"A wins [bold green]{float(p):.2%}[/] (exactly {_fraction_text(p)})"
    )


# --- wounds: `odds wound` (II-B) ---------------------------------------------------------

from pathlib import Path  # noqa: E402

from rich import box  # noqa: E402
from rich.table import Table  # noqa: E402

from confrontation.rules import wounds  # noqa: E402

MAX_STRENGTH = 200  # |STR| and RES beyond this are refused (the table ends at 18+)


def wound_report(
    strength: int,
    resistance: int,
    amplified: bool = False,
    attenuated: bool = False,
    unmoving: bool = False,
    table: wounds.InjuryTable | None = None,
) -> dict[str, object]:
    """The `odds wound --json` document (shape documented in the README)."""
    mode = wounds.net_mode(int(amplified), int(attenuated))  # II-B-6
    odds = wounds.wound_odds(strength, resistance, mode, unmoving, table)
    outcomes = odds.outcomes()
    report: dict[str, object] = {
        "str": strength,
        "res": resistance,
        "mode": mode.value,
        "unmoving": unmoving,
        "outcomes": {r.key: float(p) for r, p in outcomes.items()},
        "fractions": {r.key: _fraction_text(p) for r, p in outcomes.items()},
        "by_location": {
            loc.key: {
                "p_location": float(odds.location(loc)),
                **{r.key: float(p) for r, p in odds.given(loc).items()},
            }
            for loc in wounds.Location
        },
    }
    if amplified and attenuated:
        report["note"] = "amplified and attenuated cancel (II-B-6): normal 2d6 roll"
    return report


@app.command("wound")
def odds_wound(
    strength: str = typer.Option(
        ..., "--str", metavar="INT", help="Attacker's current Strength (STR)."
    ),
    resistance: str = typer.Option(
        ..., "--res", metavar="INT", help="Target's current Resistance (RES, at least 1)."
    ),
    amplified: bool = typer.Option(
        False, "--amplified", help="Amplified roll: 3d6, keep the two highest (II-B-6)."
    ),
    attenuated: bool = typer.Option(
        False, "--attenuated", help="Attenuated roll: 3d6, keep the two lowest (II-B-6)."
    ),
    unmoving: bool = typer.Option(
        False, "--unmoving", help="Unmoving shot: one row more severe (VI-B-2)."
    ),
    table_path: str | None = typer.Option(
        None, "--table", metavar="FILE", help="Your own Injury Table (TOML)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Chances of each wound result, overall and by location (II-B)."""
    s = _integer("--str", strength, -MAX_STRENGTH, MAX_STRENGTH)
    r = _integer("--res", resistance, 1, MAX_STRENGTH)
    try:
        table = wounds.load_injury_table(Path(table_path) if table_path else None)
    except wounds.InjuryTableError as error:
        raise _usage_error(f"--table: {error}") from None
    if as_json:
        typer.echo(json.dumps(wound_report(s, r, amplified, attenuated, unmoving, table)))
        return
    mode = wounds.net_mode(int(amplified), int(attenuated))  # II-B-6
    odds = wounds.wound_odds(s, r, mode, unmoving, table)
    console = Console(soft_wrap=True)
    if amplified and attenuated:
        console.print("Note: amplified and attenuated cancel (II-B-6): normal 2d6 roll.")
    roll = {
        "normal": "2d6",
        "amplified": "3d6 keep the 2 highest",
        "attenuated": "3d6 keep the 2 lowest",
    }
    grid = Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        title=f"Wound roll, STR {s} against RES {r}, {roll[mode.value]}"
        + (", unmoving shot" if unmoving else ""),
    )
    grid.add_column("location")
    grid.add_column("p(hit)", justify="right")
    for result in wounds.WoundResult:
        grid.add_column(result.key, justify="right")
    for loc in wounds.Location:
        given = odds.given(loc)
        grid.add_row(
            loc.key,
            f"{float(odds.location(loc)):.1%}",
            *(f"{float(p):.1%}" for p in given.values()),
        )
    outcomes = odds.outcomes()
    grid.add_row("[bold]all[/]", "100.0%", *(f"[bold]{float(p):.1%}[/]" for p in outcomes.values()))
    console.print(grid)
    wounded = sum(p for result, p in outcomes.items() if result.levels > 0)
    console.print(
        f"STR {s} against RES {r}: at least a Light wound [bold]{float(wounded):.1%}[/], "
        f"Killed Outright [bold red]{float(outcomes[wounds.WoundResult.KILLED]):.1%}[/], "
        f"no effect {float(outcomes[wounds.WoundResult.NONE]):.1%} "
        "(location rows: chance of each result when that location is hit)."
    )
