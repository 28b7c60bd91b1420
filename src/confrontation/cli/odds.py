"""`confrontation odds ...`: exact probabilities of tests, opposed tests and wound rolls."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import typer

from confrontation import dice
from confrontation.cli.plain import say

# The rules, profiles and odds modules are imported where a command needs them, so that
# `confrontation odds test` starts in a fraction of the time (issue 22).

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
    say(
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
    """Chance that side A wins an opposed test (II-A-3), both sides raising sensibly; two
    results ≤ 0 are a tie, re-rolled (II-A-4, CLARIFICATIONS §9)."""
    va = _integer("--a", a, -MAX_SPREAD, MAX_SPREAD)
    vb = _integer("--b", b, va - MAX_SPREAD, va + MAX_SPREAD)
    na = _integer("--dice-a", dice_a, 1, MAX_DICE)
    nb = _integer("--dice-b", dice_b, 1, MAX_DICE)
    p = dice.p_opposed(va, vb, na, nb)
    if as_json:
        typer.echo(json.dumps({"p_a_wins": float(p), "fraction": _fraction_text(p)}))
        return
    say(
        f"Opposed test, A {va} with {na}d6 against B {vb} with {nb}d6 (ties re-rolled): "
        f"A wins [bold green]{float(p):.2%}[/] (exactly {_fraction_text(p)})"
    )


# --- wounds: `odds wound` (II-B) ---------------------------------------------------------

from pathlib import Path  # noqa: E402

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from confrontation.rules import wounds


def _console() -> Console:
    """rich's console for an answer's markup (imported when a command prints one: rich's
    console is ≈ 0.02 s of start-up, issue 22)."""
    from rich.console import Console

    return Console(soft_wrap=True)


def _grid(**options: Any) -> Table:
    """A table of results (``box.SIMPLE_HEAD``), rich imported then."""
    from rich import box
    from rich.table import Table

    return Table(box=box.SIMPLE_HEAD, **options)


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
    from confrontation.rules import wounds

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
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Also save a bar chart (PNG)."
    ),
) -> None:
    """Chances of each wound result, overall and by location (II-B)."""
    from confrontation.rules import wounds

    s = _integer("--str", strength, -MAX_STRENGTH, MAX_STRENGTH)
    r = _integer("--res", resistance, 1, MAX_STRENGTH)
    try:
        table = wounds.load_injury_table(Path(table_path) if table_path else None)
    except wounds.InjuryTableError as error:
        raise _usage_error(f"--table: {error}") from None
    mode = wounds.net_mode(int(amplified), int(attenuated))  # II-B-6
    odds = wounds.wound_odds(s, r, mode, unmoving, table)
    if plot:
        _plot(
            plot,
            f"Wound roll, STR {s} against RES {r} ({mode.value}"
            + (", unmoving shot)" if unmoving else ")"),
            {result.key: float(p) for result, p in odds.outcomes().items()},
            xlabel="wound result",
        )
    if as_json:
        typer.echo(json.dumps(wound_report(s, r, amplified, attenuated, unmoving, table)))
        return
    console = _console()
    if amplified and attenuated:
        console.print("Note: amplified and attenuated cancel (II-B-6): normal 2d6 roll.")
    roll = {
        "normal": "2d6",
        "amplified": "3d6 keep the 2 highest",
        "attenuated": "3d6 keep the 2 lowest",
    }
    grid = _grid(
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


# --- shots, attacks, whole combats, advice: `odds shot|attack|combat|advise` (VI, VII-C) -------

from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import replace  # noqa: E402
from typing import Annotated  # noqa: E402

if TYPE_CHECKING:
    from confrontation.model.profile import Profile
    from confrontation.odds import CombatOdds, DefencePolicy, Fighter
    from confrontation.rules.combat import Allocation, Stats
    from confrontation.rules.shooting import RangeBand

MAX_VALUE = 60  # |characteristic| beyond this is refused
MAX_ENEMIES_EXACT = 3
MAX_ENEMIES_MC = 12

Profiles = Annotated[
    list[Path] | None,
    typer.Option(
        "--profiles", metavar="FILE", help="Extra profile library (TOML); repeat for several."
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]
PlotFile = Annotated[
    str | None, typer.Option("--plot", metavar="FILE.png", help="Also save a bar chart (PNG).")
]


def _profiles(paths: list[Path] | None) -> dict[str, Profile]:
    from confrontation.armylists.load import LoadError, catalog_with

    try:
        return catalog_with(paths or []).profiles
    except LoadError as error:
        raise _usage_error(str(error)) from None


def _profile(option: str, ident: str, catalog: dict[str, Profile]) -> Profile:
    if ident not in catalog:
        raise _usage_error(
            f"{option}: unknown profile id {ident!r} (see `confrontation profiles list`)"
        )
    return catalog[ident]


def _optional_int(option: str, text: str | None, lo: int, hi: int) -> int | None:
    return None if text is None else _integer(option, text, lo, hi)


def _pick(option: str, text: str | None, lo: int, hi: int, fallback: int | None, what: str) -> int:
    """The option's integer if given (within lo..hi), else the fallback (a profile's value)."""
    given = _optional_int(option, text, lo, hi)
    if given is not None:
        return given
    if fallback is None:
        raise _usage_error(f"{option} is needed ({what})")
    return fallback


INLINE_KEYS = ("ini", "att", "str", "def", "res")


def _inline(option: str, spec: str) -> tuple[Stats, int]:
    """``ini=3,att=5,str=8,def=5,res=11[,power=2]`` → (Stats, Power)."""
    from confrontation.rules.combat import Stats

    values: dict[str, int] = {}
    for part in spec.split(","):
        key, sep, text = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in (*INLINE_KEYS, "power"):
            raise _usage_error(
                f"{option}: {spec!r} is neither a profile id nor ini=..,att=..,str=..,def=..,res=.."
            )
        values[key] = _integer(f"{option} {key}", text, -MAX_VALUE, MAX_VALUE)
    missing = [k for k in INLINE_KEYS if k not in values]
    if missing:
        raise _usage_error(f"{option}: {spec!r} lacks {', '.join(missing)}")
    if values["res"] < 1:
        raise _usage_error(f"{option}: res must be at least 1 (II-A-4)")
    stats = Stats(values["ini"], values["att"], values["str"], values["def"], values["res"])
    return stats, max(values.get("power", 1), 0)


def _fighters(specs: Sequence[tuple[str, str]], catalog: dict[str, Profile]) -> list[Fighter]:
    """Fighters from (option, profile id or inline spec); names made unique with #n."""
    from confrontation.odds import Fighter
    from confrontation.rules.combat import Stats

    raw: list[tuple[str, Stats, int, int]] = []
    for option, spec in specs:
        if "=" in spec:
            stats, power = _inline(option, spec)
            raw.append((option.lstrip("-"), stats, power, 0))
        else:
            p = _profile(option, spec, catalog)
            raw.append((p.id, Stats(p.ini, p.att, p.str_, p.def_, p.res), p.size_power, p.ap))
    names = [name for name, *_ in raw]
    seen: dict[str, int] = {}
    fighters = []
    for name, stats, power, ap in raw:
        if names.count(name) > 1:
            seen[name] = seen.get(name, 0) + 1
            name = f"{name}#{seen[name]}"
        fighters.append(Fighter(name, stats, power=power, strategic_value=ap))
    return fighters


def _allocation(option: str, text: str, dice: int) -> Allocation:
    from confrontation.rules.combat import Allocation

    attack, sep, defence = text.partition(":")
    if not sep:
        raise _usage_error(f"{option} is ATTACK:DEFENCE dice, e.g. 2:1, not {text!r}")
    a = _integer(f"{option} (attack dice)", attack, 0, dice)
    d = _integer(f"{option} (defence dice)", defence, 0, dice)
    if a + d != dice:
        raise _usage_error(
            f"{option} {text}: the fighter has {dice} combat dice (VII-C-1: 1 + his opponents)"
        )
    return Allocation(a, d)


def _policy(option: str, text: str) -> DefencePolicy:
    from confrontation.odds import DefencePolicy

    try:
        return DefencePolicy(text.strip().lower())
    except ValueError:
        known = ", ".join(p.value for p in DefencePolicy)
        raise _usage_error(f"{option}: unknown defence policy {text!r} ({known})") from None


def _spread(option: str, values: list[str] | None, count: int) -> list[str | None]:
    """One value for everybody, or one per defender in order."""
    if not values:
        return [None] * count
    if len(values) == 1:
        return [values[0]] * count
    if len(values) != count:
        raise _usage_error(f"{option}: give it once, or once per --defender ({count})")
    return [*values]


def _health_changes(
    fighters: list[Fighter], stunned: list[str] | None, wounds: list[str] | None
) -> list[Fighter]:
    from confrontation.rules.characteristics import HealthState

    names = [f.name for f in fighters]
    levels = {f.name: f.health.wound_levels for f in fighters}
    dazed = {f.name: f.health.stunned for f in fighters}
    for name in stunned or []:
        if name not in names:
            raise _usage_error(f"--stunned: no fighter {name!r} ({', '.join(names)})")
        dazed[name] = True
    for item in wounds or []:
        name, sep, text = item.partition("=")
        if not sep or name not in names:
            raise _usage_error(f"--wounds: NAME=LEVELS with NAME one of {', '.join(names)}")
        levels[name] = _integer(f"--wounds {name}", text, 0, 3)
    return [replace(f, health=HealthState(levels[f.name], dazed[f.name])) for f in fighters]


def _plot(
    path: str,
    title: str,
    bars: dict[str, float],
    ylabel: str = "chance (0 to 1)",
    xlabel: str = "outcome",
) -> None:
    """A bar chart with matplotlib's Agg backend (no display needed): ``title`` names the
    match-up, both axes are labelled in words."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(max(6.0, 0.6 * len(bars) + 2), 4))
    axes.bar(list(bars), list(bars.values()), color="#4a6fa5")
    axes.set_title(title)
    axes.set_ylabel(ylabel)
    axes.set_xlabel(xlabel)
    axes.tick_params(axis="x", labelrotation=45)
    plt.setp(axes.get_xticklabels(), ha="right", rotation_mode="anchor")
    figure.tight_layout()
    try:
        figure.savefig(path, format="png")
    except (OSError, ValueError) as error:
        raise _usage_error(f"--plot: cannot write {path!r} ({error})") from None
    finally:
        plt.close(figure)


def _emit(
    as_json: bool,
    document: dict[str, object],
    render: Callable[[Console], None],
) -> None:
    if as_json:
        typer.echo(json.dumps(document))
    else:
        render(_console())


def _outcome_table(title: str, rows: dict[str, Fraction]) -> Table:
    grid = _grid(show_edge=False, title=title)
    grid.add_column("outcome")
    grid.add_column("p", justify="right")
    grid.add_column("exactly", justify="right")
    for name, p in rows.items():
        grid.add_row(name, f"{float(p):.2%}", _fraction_text(p))
    return grid


@app.command("shot")
def odds_shot(
    shooter: Annotated[
        str | None,
        typer.Option("--shooter", metavar="ID", help="The shooter's profile id (AIM, weapon)."),
    ] = None,
    target: Annotated[
        str | None, typer.Option("--target", metavar="ID", help="The target's profile id (RES).")
    ] = None,
    aim: Annotated[str | None, typer.Option("--aim", metavar="INT", help="Shooter's AIM.")] = None,
    aim_str: Annotated[
        str | None, typer.Option("--aim-str", metavar="INT", help="The weapon's Strength.")
    ] = None,
    res: Annotated[str | None, typer.Option("--res", metavar="INT", help="Target's RES.")] = None,
    size: Annotated[
        str | None,
        typer.Option("--size", metavar="INT", help="Target's Size (2 normal, 3 large…)."),
    ] = None,
    band: Annotated[
        str | None, typer.Option("--range", metavar="BAND", help="short, medium or long.")
    ] = None,
    distance: Annotated[
        float | None, typer.Option("--distance", metavar="CM", help="Distance to the target.")
    ] = None,
    partial: Annotated[bool, typer.Option("--partial", help="Target partially visible.")] = False,
    altitude: Annotated[
        bool, typer.Option("--altitude", help="Target at another altitude level.")
    ] = False,
    target_x: Annotated[
        str | None, typer.Option("--target-x", metavar="INT", help="X of the target's Target/X.")
    ] = None,
    cover: Annotated[bool, typer.Option("--cover", help="Target moving under cover.")] = False,
    unmoving: Annotated[bool, typer.Option("--unmoving", help="Unmoving shot (VI-B-2).")] = False,
    assault: Annotated[bool, typer.Option("--assault", help="Assault shot (VI-B-3).")] = False,
    friend: Annotated[
        str | None,
        typer.Option("--melee-friend", metavar="ID|RES", help="Shooting into a melee (VI-B-1)."),
    ] = None,
    profiles: Profiles = None,
    as_json: AsJson = False,
    plot: PlotFile = None,
) -> None:
    """Outcome of one shot (VI): miss, or the wound on the target (or on a friend in melee)."""
    from confrontation.odds import shot_odds
    from confrontation.rules.shooting import RangeBand

    catalog = (
        _profiles(profiles) if (shooter or target or (friend and not friend.isdigit())) else {}
    )
    s = _profile("--shooter", shooter, catalog) if shooter else None
    t = _profile("--target", target, catalog) if target else None
    if s is not None and not s.is_shooter:
        raise _usage_error(f"--shooter: {s.id} has no shooting weapon (AIM)")
    v_aim = _pick(
        "--aim",
        aim,
        -MAX_VALUE,
        MAX_VALUE,
        None if s is None else s.aim,
        "or --shooter",
    )
    v_str = _pick(
        "--aim-str",
        aim_str,
        -MAX_VALUE,
        MAX_VALUE,
        None if s is None else s.aim_str,
        "or --shooter",
    )
    v_res = _pick(
        "--res",
        res,
        1,
        MAX_VALUE,
        None if t is None else t.res,
        "or --target",
    )
    v_size = _pick("--size", size, 1, 10, t.size_value if t else 2, "")
    v_x = _pick("--target-x", target_x, -20, 20, t.target_bonus if t else 0, "")
    ranges = tuple(s.ranges) if s is not None and s.ranges else None
    chosen: RangeBand | None = None
    if band is not None:
        try:
            chosen = RangeBand[band.strip().upper()]
        except KeyError:
            raise _usage_error(f"--range: {band!r} is not short, medium or long") from None
    elif distance is not None and ranges is None:
        raise _usage_error("--distance needs --shooter (the weapon's ranges); or give --range")
    elif not assault and distance is None:
        raise _usage_error("give --range, --distance (with --shooter) or --assault")
    if distance is not None and not math.isfinite(distance):
        raise _usage_error(f"--distance must be a number of cm, not {distance}")
    if distance is not None and distance < 0:
        raise _usage_error("--distance cannot be negative")
    friend_res = None
    if friend is not None:
        friend_res = (
            _integer("--melee-friend", friend, 1, MAX_VALUE)
            if friend.isdigit()
            else _profile("--melee-friend", friend, catalog).res
        )
    odds = shot_odds(
        aim=v_aim,
        aim_str=v_str,
        res=v_res,
        band=chosen,
        distance=distance,
        ranges=ranges,  # type: ignore[arg-type]
        assault=assault,
        size=v_size,
        partial=partial,
        altitude=altitude,
        target_bonus=v_x,
        cover=cover,
        unmoving=unmoving,
        friend_res=friend_res,
    )
    rows = odds.outcomes()
    document: dict[str, object] = {
        "difficulty": odds.difficulty,
        "difficulty_terms": odds.explain,
        "p_hit": float(odds.hit),
        "outcomes": {k: float(p) for k, p in rows.items()},
        "fractions": {k: _fraction_text(p) for k, p in rows.items()},
    }
    title = f"Shot: AIM {v_aim}, difficulty {odds.explain}, STR {v_str} against RES {v_res}"

    def render(console: Console) -> None:
        console.print(_outcome_table(title, rows))
        console.print(f"Hit: [bold green]{float(odds.hit):.2%}[/]")

    _emit(as_json, document, render)
    if plot:
        who = f"{shooter or f'AIM {v_aim}'} shooting at {target or f'RES {v_res}'}"
        _plot(plot, f"{who}\n{title}", {k: float(p) for k, p in rows.items()})


@app.command("attack")
def odds_attack(
    attacker: Annotated[
        str | None,
        typer.Option("--attacker", metavar="ID", help="The attacker's profile id (ATT, STR)."),
    ] = None,
    defender: Annotated[
        str | None,
        typer.Option("--defender", metavar="ID", help="The defender's profile id (DEF, RES)."),
    ] = None,
    att: Annotated[str | None, typer.Option("--att", metavar="INT", help="Attacker's ATT.")] = None,
    strength: Annotated[
        str | None, typer.Option("--str", metavar="INT", help="Attacker's STR.")
    ] = None,
    def_: Annotated[
        str | None, typer.Option("--def", metavar="INT", help="Defender's DEF.")
    ] = None,
    res: Annotated[str | None, typer.Option("--res", metavar="INT", help="Defender's RES.")] = None,
    dice_count: Annotated[
        str, typer.Option("--defence-dice", metavar="INT", help="Defence dice used (0: none).")
    ] = "1",
    sustained: Annotated[
        bool, typer.Option("--sustained", help="A sustained defence (one die, DEF-2, VII-C-5).")
    ] = False,
    profiles: Profiles = None,
    as_json: AsJson = False,
    plot: PlotFile = None,
) -> None:
    """One attack against k defence dice (VII-C-4): failed, blocked or the wound result.

    Values are current values (put wounds and charge penalties in --att/--def yourself);
    --att/--str/--def/--res override the profiles' values.
    """
    from confrontation.odds import attack_odds

    catalog = _profiles(profiles) if (attacker or defender) else {}
    a = _profile("--attacker", attacker, catalog) if attacker else None
    d = _profile("--defender", defender, catalog) if defender else None
    v_att = _pick(
        "--att",
        att,
        -MAX_VALUE,
        MAX_VALUE,
        None if a is None else a.att,
        "or --attacker",
    )
    v_str = _pick(
        "--str",
        strength,
        -MAX_VALUE,
        MAX_VALUE,
        None if a is None else a.str_,
        "or --attacker",
    )
    v_def = _pick(
        "--def",
        def_,
        -MAX_VALUE,
        MAX_VALUE,
        None if d is None else d.def_,
        "or --defender",
    )
    v_res = _pick(
        "--res",
        res,
        1,
        MAX_VALUE,
        None if d is None else d.res,
        "or --defender",
    )
    k = _integer("--defence-dice", dice_count, 0, MAX_DICE)
    if sustained and k != 1:
        raise _usage_error("--sustained uses exactly one defence die (VII-C-5)")
    odds = attack_odds(
        att=v_att, str_=v_str, def_=v_def, res=v_res, defence_dice=k, sustained=sustained
    )
    rows = odds.outcomes()
    document: dict[str, object] = {
        "p_hit": float(odds.hit),
        "outcomes": {key: float(p) for key, p in rows.items()},
        "fractions": {key: _fraction_text(p) for key, p in rows.items()},
    }
    title = (
        f"Attack: ATT {v_att}, STR {v_str} against DEF {v_def}"
        f"{' (sustained, -2)' if sustained else ''}, RES {v_res}, {k} defence dice"
    )

    def render(console: Console) -> None:
        console.print(_outcome_table(title, rows))
        console.print(f"The attack gets through: [bold green]{float(odds.hit):.2%}[/]")

    _emit(as_json, document, render)
    if plot:
        who = f"{attacker or f'ATT {v_att}'} attacking {defender or f'DEF {v_def}'}"
        _plot(plot, f"{who}\n{title}", {key: float(p) for key, p in rows.items()})


ALLOC_HELP = (
    "The attacker's combat dice as ATTACK:DEFENCE, e.g. 2:1. He has 1 + his opponents dice "
    "(VII-C-1), every enemy 2. Default: all in attack."
)
POLICY_HELP = "Defence policy: none, one (a die per attack), all (every die at once), sustain."


def _combat_setup(
    attacker: str,
    defenders: list[str],
    alloc: str | None,
    defender_alloc: list[str] | None,
    defence: str,
    defender_defence: list[str] | None,
    stunned: list[str] | None,
    wounds: list[str] | None,
    profiles: list[Path] | None,
    most: int,
) -> tuple[Fighter, list[Fighter]]:
    from confrontation.odds import DefencePolicy

    if not defenders:
        raise _usage_error("give at least one --defender")
    if len(defenders) > most:
        raise _usage_error(f"at most {most} --defender here")
    needs_catalog = any("=" not in s for s in (attacker, *defenders))
    catalog = _profiles(profiles) if needs_catalog else {}
    fighters = _fighters(
        [("--attacker", attacker), *(("--defender", d) for d in defenders)], catalog
    )
    fighters = _health_changes(fighters, stunned, wounds)
    lone, enemies = fighters[0], fighters[1:]
    lone = replace(lone, defence=_policy("--defence", defence))
    if alloc is not None:
        lone = replace(lone, allocation=_allocation("--alloc", alloc, 1 + len(enemies)))
    allocs = _spread("--defender-alloc", defender_alloc, len(enemies))
    policies = _spread("--defender-defence", defender_defence, len(enemies))
    enemies = [
        replace(
            e,
            allocation=None if a is None else _allocation("--defender-alloc", a, 2),
            defence=DefencePolicy.ONE if p is None else _policy("--defender-defence", p),
        )
        for e, a, p in zip(enemies, allocs, policies, strict=True)
    ]
    return lone, enemies


def _matchup(names: Sequence[str]) -> str:
    """ "A against B and C": the lone fighter first."""
    return f"{names[0]} against {' and '.join(names[1:])}"


def _level_bars(odds: CombatOdds) -> dict[str, float]:
    bars: dict[str, float] = {}
    for i, name in enumerate(odds.names):
        for level, label in enumerate(("unhurt", "light", "serious", "critical", "killed")):
            bars[f"{name}: {label}"] = float(
                odds.p(lambda s, i=i, level=level: s[i].wound_levels == level)
            )
    return bars


DefendersOption = Annotated[
    list[str],
    typer.Option(
        "--defender",
        metavar="ID|SPEC",
        help="An enemy: a profile id or ini=..,att=..,str=..,def=..,res=..; repeat for several.",
    ),
]
AttackerOption = Annotated[
    str,
    typer.Option(
        "--attacker",
        metavar="ID|SPEC",
        help="The lone fighter: a profile id or ini=..,att=..,str=..,def=..,res=..[,power=..].",
    ),
]


@app.command("combat")
def odds_combat(
    attacker: AttackerOption,
    defenders: DefendersOption,
    alloc: Annotated[str | None, typer.Option("--alloc", metavar="A:D", help=ALLOC_HELP)] = None,
    defender_alloc: Annotated[
        list[str] | None,
        typer.Option(
            "--defender-alloc",
            metavar="A:D",
            help="Each enemy's 2 dice as ATTACK:DEFENCE (once for all, or once per --defender).",
        ),
    ] = None,
    defence: Annotated[str, typer.Option("--defence", help=POLICY_HELP)] = "one",
    defender_defence: Annotated[
        list[str] | None,
        typer.Option("--defender-defence", help="The enemies' policy (once, or per --defender)."),
    ] = None,
    charge: Annotated[bool, typer.Option("--charge", help="The attacker charged (V-B-3).")] = False,
    charged: Annotated[
        bool, typer.Option("--charged", help="The defenders charged the attacker (V-B-3).")
    ] = False,
    stunned: Annotated[
        list[str] | None, typer.Option("--stunned", metavar="NAME", help="Stunned at the start.")
    ] = None,
    wounds: Annotated[
        list[str] | None,
        typer.Option("--wounds", metavar="NAME=LEVELS", help="Wound levels at the start (0-3)."),
    ] = None,
    first: Annotated[
        str | None,
        typer.Option(
            "--first", help="Who won the initiative: attacker or defenders (default: rolled)."
        ),
    ] = None,
    rounds: Annotated[
        str, typer.Option("--rounds", metavar="INT", help="Rounds of combat (survivors fight on).")
    ] = "1",
    mc: Annotated[
        str | None,
        typer.Option("--mc", metavar="RUNS", help="Monte Carlo with RUNS combats instead (numpy)."),
    ] = None,
    seed: Annotated[str, typer.Option("--seed", metavar="INT", help="Monte Carlo seed.")] = "1",
    top: Annotated[str, typer.Option("--top", metavar="INT", help="End states shown.")] = "12",
    profiles: Profiles = None,
    as_json: AsJson = False,
    plot: PlotFile = None,
) -> None:
    """Exact end state of a combat (VII-C): one fighter against one to three enemies."""
    from confrontation.odds import combat_odds, simulate

    n_rounds = _integer("--rounds", rounds, 1, 6)
    runs = _optional_int("--mc", mc, 2, 10_000_000)
    lone, enemies = _combat_setup(
        attacker,
        defenders,
        alloc,
        defender_alloc,
        defence,
        defender_defence,
        stunned,
        wounds,
        profiles,
        MAX_ENEMIES_MC if runs is not None else MAX_ENEMIES_EXACT,
    )
    side: bool | None = None
    if first is not None:
        if first not in ("attacker", "defenders"):
            raise _usage_error("--first is attacker or defenders")
        side = first == "attacker"
    if runs is not None:
        if side is not None:
            raise _usage_error("--first is not available with --mc")
        result = simulate(
            lone,
            enemies,
            runs=runs,
            seed=_integer("--seed", seed, 0, 2**63 - 1),
            rounds=n_rounds,
            charge=charge,
            charged=charged,
        )
        document = result.to_json()

        def render_mc(console: Console) -> None:
            grid = _grid(show_edge=False, title=f"Monte Carlo, {runs} combats (95 %)")
            for column in ("fighter", "p(killed)", "expected wound levels"):
                grid.add_column(column, justify="left" if column == "fighter" else "right")
            for name in result.names:
                k, e = result.p_killed(name), result.expected_levels(name)
                grid.add_row(
                    name,
                    f"{k.estimate:.2%} [{k.low:.2%}, {k.high:.2%}]",
                    f"{e.estimate:.3f} [{e.low:.3f}, {e.high:.3f}]",
                )
            console.print(grid)

        _emit(as_json, document, render_mc)
        if plot:
            _plot(
                plot,
                f"{_matchup(result.names)}: chance each fighter is killed (Monte Carlo)",
                {n: result.p_killed(n).estimate for n in result.names},
                xlabel="fighter",
            )
        return
    odds = combat_odds(lone, enemies, charge=charge, charged=charged, first=side, rounds=n_rounds)
    shown = _integer("--top", top, 0, 10_000)

    def render(console: Console) -> None:
        grid = _grid(show_edge=False, title="Combat: each fighter at the end")
        for column in ("fighter", "p(killed)", "expected wound levels"):
            grid.add_column(column, justify="left" if column == "fighter" else "right")
        for name in odds.names:
            grid.add_row(
                name,
                f"{float(odds.p_killed(name)):.2%}",
                f"{float(odds.expected_levels(name)):.3f}",
            )
        console.print(grid)
        states = _grid(show_edge=False, title="Most likely end states")
        for name in odds.names:
            states.add_column(name)
        states.add_column("p", justify="right")
        for end, p in sorted(odds.outcomes.items(), key=lambda item: -item[1])[:shown]:
            states.add_row(
                *(h.name + (", stunned" if h.stunned and not h.killed else "") for h in end),
                f"{float(p):.2%}",
            )
        console.print(states)
        console.print(
            f"{odds.names[0]} wins the initiative {float(odds.p_first):.1%}; "
            f"all enemies killed [bold green]{float(odds.p_defenders_killed):.2%}[/], "
            f"{odds.names[0]} killed [bold red]{float(odds.p_attacker_killed):.2%}[/] "
            f"({len(odds.outcomes)} end states)."
        )

    _emit(as_json, odds.to_json(), render)
    if plot:
        _plot(
            plot,
            f"{_matchup(odds.names)}: wound levels at the end of the combat",
            _level_bars(odds),
            xlabel="fighter: wound level",
        )


@app.command("advise")
def odds_advise(
    attacker: AttackerOption,
    defenders: DefendersOption,
    goal: Annotated[
        str, typer.Option("--goal", help="kill (every enemy), survive, or levels (dealt − taken).")
    ] = "survive",
    defender_alloc: Annotated[
        list[str] | None,
        typer.Option("--defender-alloc", metavar="A:D", help="The enemies' allocations."),
    ] = None,
    defender_defence: Annotated[
        list[str] | None, typer.Option("--defender-defence", help="The enemies' defence policy.")
    ] = None,
    charge: Annotated[bool, typer.Option("--charge", help="The attacker charged (V-B-3).")] = False,
    charged: Annotated[
        bool, typer.Option("--charged", help="The defenders charged the attacker (V-B-3).")
    ] = False,
    stunned: Annotated[
        list[str] | None, typer.Option("--stunned", metavar="NAME", help="Stunned at the start.")
    ] = None,
    wounds: Annotated[
        list[str] | None,
        typer.Option("--wounds", metavar="NAME=LEVELS", help="Wound levels at the start (0-3)."),
    ] = None,
    profiles: Profiles = None,
    as_json: AsJson = False,
    plot: PlotFile = None,
) -> None:
    """Best allocation and defence policy of the attacker against one or two enemies.

    Every split of the lone fighter's combat dice (VII-C-1) is tried with every defence policy
    that can differ for it, solved exactly and ranked by --goal; the last lines say what the
    enemies are assumed to do and give the best choice as one sentence.

    Defence policies (VII-C-4 b, VII-C-5): none = never defend; one = one die against each
    attack while dice remain; all = every defence die against the first attack; sustain = one
    die against each attack, the last one as a sustained defence when allowed.
    Enemies defend with --defender-defence (default: one) and, without --defender-alloc, put
    every die in attack."""
    from confrontation.odds import Goal, advise
    from confrontation.odds.advise import advice_sentence, assumptions, charge_matters

    try:
        wanted = Goal(goal.strip().lower())
    except ValueError:
        raise _usage_error(f"--goal: {goal!r} is not kill, survive or levels") from None
    lone, enemies = _combat_setup(
        attacker,
        defenders,
        None,
        defender_alloc,
        "one",
        defender_defence,
        stunned,
        wounds,
        profiles,
        2,
    )
    rows = advise(lone, enemies, wanted, charge=charge, charged=charged)
    sentence = advice_sentence(rows[0], wanted)
    assumed = assumptions(enemies)
    notes = [
        f"{option} changes nothing here: the Powers give no one a charge penalty (V-B-3)."
        for option, given, by_enemies in (("--charge", charge, False), ("--charged", charged, True))
        if given and not charge_matters(lone, enemies, charged=by_enemies)
    ]
    document: dict[str, object] = {
        "goal": wanted.value,
        "advice": sentence,
        "assumed": assumed,
        "notes": notes,
        "alternatives": [
            {
                "alloc": f"{r.allocation.attack}:{r.allocation.defence}",
                "defence": r.defence.value,
                "score": float(r.score),
                "p_defender_killed": float(r.odds.p_defenders_killed),
                "p_attacker_killed": float(r.odds.p_attacker_killed),
                "expected_balance": float(r.odds.expected_balance),
            }
            for r in rows
        ],
    }

    def render(console: Console) -> None:
        grid = _grid(
            show_edge=False,
            title=f"{lone.name}: best for goal {wanted.value!r} first",
        )
        for column in (
            "alloc A:D",
            "defence",
            "all enemies killed",
            "survives",
            "levels dealt − taken",
        ):
            grid.add_column(column, justify="right")
        for r in rows:
            grid.add_row(
                f"{r.allocation.attack}:{r.allocation.defence}",
                r.defence.value,
                f"{float(r.odds.p_defenders_killed):.2%}",
                f"{float(1 - r.odds.p_attacker_killed):.2%}",
                f"{float(r.odds.expected_balance):+.3f}",
            )
        console.print(grid)
        for note in notes:
            console.print(note, markup=False)
        console.print(assumed, markup=False)
        console.print(sentence, markup=False)

    _emit(as_json, document, render)
    if plot:
        _plot(
            plot,
            f"{lone.name} against {' and '.join(e.name for e in enemies)}: goal {wanted.value}",
            {
                f"{r.allocation.attack}:{r.allocation.defence} {r.defence.value}": float(r.score)
                for r in rows
            },
            {"kill": "chance to kill every enemy", "survive": "chance to survive"}.get(
                wanted.value, "wound levels dealt minus taken"
            ),
            xlabel="dice in attack:defence, defence policy",
        )


# --- the unit-based ruleset (002_…, "C4"): `odds c4-test`, `c4-salvo`, `c4-combat` ------------
# Exact laws from confrontation.c4.odds (imported when the command runs).

C4_MAX_DICE = 40  # dice of one test; with the two limits below an answer takes ≤ ~2 s
C4_MAX_FIGHTERS = 30
C4_MAX_HEALTH = 10
C4_SHOWN = 12  # rows of a law shown in the table (the JSON lists every itemised count)


def _c4_law_rows(probabilities: Sequence[Fraction], tail: Fraction) -> dict[str, Fraction]:
    rows = {str(k): p for k, p in enumerate(probabilities[:C4_SHOWN])}
    rest = sum(probabilities[C4_SHOWN:], Fraction(0)) + tail
    if rest:
        rows[f"{min(len(probabilities), C4_SHOWN)}+"] = rest
    return rows


def _c4_json_law(probabilities: Sequence[Fraction], tail: Fraction) -> dict[str, object]:
    return {
        "p": [_fraction_text(p) for p in probabilities],
        "tail_from": len(probabilities),
        "tail": _fraction_text(tail),
    }


@app.command("c4-test")
def odds_c4_test(
    dice_count: Annotated[str, typer.Option("--dice", metavar="INT", help="Dice rolled.")] = "1",
    action: Annotated[
        str, typer.Option("--action", metavar="INT", help="Action value (a characteristic).")
    ] = "0",
    difficulty: Annotated[
        str, typer.Option("--difficulty", metavar="INT", help="Difficulty of the test.")
    ] = "0",
    as_json: AsJson = False,
) -> None:
    """C4 test on the universal table: law of the successes (natural 6s roll again)."""
    from confrontation.c4.resolution import minimum_roll, successes_distribution

    n = _integer("--dice", dice_count, 0, C4_MAX_DICE)
    a = _integer("--action", action, -MAX_VALUE, MAX_VALUE)
    d = _integer("--difficulty", difficulty, -MAX_VALUE, MAX_VALUE)
    law = successes_distribution(n, a, d)
    least = minimum_roll(a, d)
    document: dict[str, object] = {
        "minimum": least,
        "successes": _c4_json_law(law.probabilities, law.tail),
        "p_at_least_one": _fraction_text(law.at_least(1)) if n else "0/1",
    }

    def render(console: Console) -> None:
        console.print(
            f"{n} dice, action {a} against difficulty {d}: column {a - d}, "
            f"a success on [bold]{least}+[/] (a 1 fails, a 6 rolls again)"
        )
        console.print(_outcome_table("successes", _c4_law_rows(law.probabilities, law.tail)))

    _emit(as_json, document, render)


def _c4_healths(option: str, text: str | None, targets: int, health: int) -> list[int]:
    """``--healths 2,2,1`` (nearest first) or ``--targets N --health H``."""
    if text is None:
        return [health] * targets
    parts = [p for p in text.split(",") if p.strip()]
    if not parts or len(parts) > C4_MAX_FIGHTERS:
        raise _usage_error(f"{option} lists 1-{C4_MAX_FIGHTERS} health values, e.g. 2,2,1")
    return [_integer(option, p, 1, C4_MAX_HEALTH) for p in parts]


def _c4_losses_output(
    title: str, odds: object, as_json: bool, head: dict[str, object], line: str
) -> None:
    from confrontation.c4.odds import LossOdds

    assert isinstance(odds, LossOdds)
    document: dict[str, object] = {
        **head,
        "hits": _c4_json_law(odds.hits.probabilities, odds.hits.tail),
        "damage": _c4_json_law(odds.damage.probabilities, odds.damage.tail),
        "losses": [_fraction_text(p) for p in odds.losses],
        "expected_losses": float(odds.expected_losses()),
    }

    def render(console: Console) -> None:
        console.print(line)
        console.print(_outcome_table("hits", _c4_law_rows(odds.hits.probabilities, odds.hits.tail)))
        console.print(
            _outcome_table("fighters eliminated", {str(k): p for k, p in enumerate(odds.losses)})
        )
        console.print(
            f"{title}: [bold]{float(odds.expected_losses()):.3f}[/] eliminated on average"
        )

    _emit(as_json, document, render)


C4Strength = Annotated[
    str, typer.Option("--strength", metavar="INT", help="The weapon's Strength.")
]
C4Resilience = Annotated[
    str, typer.Option("--resilience", metavar="INT", help="The targets' Resilience.")
]
C4Health = Annotated[
    str, typer.Option("--health", metavar="INT", help="Health points of each target.")
]


@app.command("c4-salvo")
def odds_c4_salvo(
    marksmen: Annotated[
        str, typer.Option("--marksmen", metavar="INT", help="Marksmen of the profile who see.")
    ] = "1",
    dice_count: Annotated[
        str, typer.Option("--dice", metavar="INT", help="Ranged dice of the profile.")
    ] = "1",
    ranged: Annotated[str, typer.Option("--ranged", metavar="INT", help="Ranged attack.")] = "3",
    difficulty: Annotated[
        str | None, typer.Option("--difficulty", metavar="INT", help="The range's difficulty.")
    ] = None,
    distance: Annotated[
        str | None,
        typer.Option("--distance", metavar="CM", help="Leader to leader (bundled tape bands)."),
    ] = None,
    strength: C4Strength = "3",
    resilience: C4Resilience = "3",
    targets: Annotated[
        str, typer.Option("--targets", metavar="INT", help="Fighters in the target unit.")
    ] = "10",
    health: C4Health = "1",
    healths: Annotated[
        str | None, typer.Option("--healths", metavar="H,H,…", help="Each target, nearest first.")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """C4 salvo (exact): hits, damage points and fighters eliminated (≤ weapons shot)."""
    from confrontation.c4.odds import salvo_odds
    from confrontation.c4.salvo import default_range_bands

    m = _integer("--marksmen", marksmen, 1, C4_MAX_FIGHTERS)
    n = _integer("--dice", dice_count, 1, 10)
    if m * n > C4_MAX_DICE:
        raise _usage_error(f"--marksmen × --dice is at most {C4_MAX_DICE}, not {m * n}")
    if (difficulty is None) == (distance is None):
        raise _usage_error("give exactly one of --difficulty and --distance")
    if distance is not None:
        try:
            cm = float(distance.strip())
        except ValueError:
            raise _usage_error(f"--distance must be a number of cm, not {distance!r}") from None
        if not 0 <= cm <= 10_000:
            raise _usage_error(f"--distance must be 0-10000 cm, not {distance!r}")
        found = default_range_bands().band(cm)
        if found is None:
            raise _usage_error(f"--distance {cm:g} cm is beyond the tape's last band")
        d = found.difficulty
    else:
        d = _integer("--difficulty", difficulty or "", -MAX_VALUE, MAX_VALUE)
    fighters = _c4_healths(
        "--healths",
        healths,
        _integer("--targets", targets, 1, C4_MAX_FIGHTERS),
        _integer("--health", health, 1, C4_MAX_HEALTH),
    )
    values = {
        "ranged": _integer("--ranged", ranged, -MAX_VALUE, MAX_VALUE),
        "strength": _integer("--strength", strength, -MAX_VALUE, MAX_VALUE),
        "resilience": _integer("--resilience", resilience, -MAX_VALUE, MAX_VALUE),
    }
    odds = salvo_odds(
        marksmen=m,
        dice=n,
        ranged_attack=values["ranged"],
        difficulty=d,
        strength=values["strength"],
        resilience=values["resilience"],
        healths=fighters,
    )
    line = (
        f"{m} marksmen × {n} dice, Ranged attack {values['ranged']} against range {d}, "
        f"Strength {values['strength']} against RES {values['resilience']}, "
        f"{len(fighters)} targets"
    )
    _c4_losses_output("salvo", odds, as_json, {"difficulty": d, "targets": fighters}, line)


@app.command("c4-combat")
def odds_c4_combat(
    dice_count: Annotated[
        str, typer.Option("--dice", metavar="INT", help="The attackers' dice in this combat.")
    ] = "1",
    attack: Annotated[str, typer.Option("--attack", metavar="INT", help="ATT value.")] = "3",
    defense: Annotated[str, typer.Option("--defense", metavar="INT", help="Defenders' DEF.")] = "3",
    strength: C4Strength = "3",
    resilience: C4Resilience = "3",
    targets: Annotated[
        str, typer.Option("--targets", metavar="INT", help="Defenders in contact.")
    ] = "1",
    health: C4Health = "1",
    healths: Annotated[
        str | None, typer.Option("--healths", metavar="H,H,…", help="Each defender, nearest first.")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """C4 combat of a melee (exact): hits, damage points and defenders eliminated."""
    from confrontation.c4.odds import combat_odds

    n = _integer("--dice", dice_count, 0, C4_MAX_DICE)
    values = {
        name: _integer(f"--{name}", text, -MAX_VALUE, MAX_VALUE)
        for name, text in (
            ("attack", attack),
            ("defense", defense),
            ("strength", strength),
            ("resilience", resilience),
        )
    }
    fighters = _c4_healths(
        "--healths",
        healths,
        _integer("--targets", targets, 1, C4_MAX_FIGHTERS),
        _integer("--health", health, 1, C4_MAX_HEALTH),
    )
    odds = combat_odds(
        dice=n,
        attack=values["attack"],
        defense=values["defense"],
        strength=values["strength"],
        resilience=values["resilience"],
        healths=fighters,
    )
    line = (
        f"{n} dice, ATT {values['attack']} against DEF {values['defense']}, "
        f"Strength {values['strength']} against RES {values['resilience']}, "
        f"{len(fighters)} defenders in contact"
    )
    _c4_losses_output("combat", odds, as_json, {"targets": fighters}, line)
