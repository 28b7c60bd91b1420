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
