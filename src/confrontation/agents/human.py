"""The human agent: the engine's questions asked at the terminal.

Each question is shown with rich — the prompt, then the numbered options with what the
engine tells about them (distances, odds) — and the player types a number. ``?`` shows help
and the state of his fighters, ``map`` draws the battlefield into an SVG file, ``q`` (or the
end of the input) quits the game cleanly by raising :class:`HumanQuit`. A question with one
answer is answered for him unless ``auto=False`` (``--agents human:auto=false``).

After a destination of a walk, a run or a move under cover (a question whose ``free`` is
:data:`~confrontation.engine.core.questions.FREE_FACING`) he is asked the facing (V-B-1, V-B-2:
the player's choice): Enter keeps the one offered; an enemy's id or name, ``median`` (straight
at the median line), ``stood`` (as he stood), or an angle in degrees (0 along the table's
length, 90 across it) turns the base about its sight. A bad answer gets a one-line error and
the question again.

The input is any text stream (standard input by default), so a test or a script can drive
a whole game.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from confrontation.agents.advice import option_odds, trivial
from confrontation.agents.measured import measure
from confrontation.engine.actions.movement import facing_options, turned
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import (
    FREE_FACING,
    Choice,
    Option,
    Place,
    Question,
    Shoot,
)
from confrontation.engine.core.state import GameState, player_name
from confrontation.engine.step import refusal
from confrontation.scenarios.picture import table_svg

HELP = """Type the number of an option and press Enter.
  ?         this help and the state of your fighters
  map       draw the battlefield as it stands into an SVG file (map FILE: into FILE)
  all       list the shots and assaults left out because they cannot reach
  q         quit the game (it can be resumed later when it is saved)
A question with a single answer, or a raise that cannot change the test's outcome, is
answered for you (play --agents human:auto=false asks every one)."""

DEPLOY_SHOWN = 8
"""A deployment question lists this many places; the player may type coordinates instead."""

FACING_HELP = """The facing at the end of the move (V-B-1, V-B-2): the base turns about its sight.
  Enter       the facing offered
  an enemy    his id (p2-c1-1) or his name: face him
  median      face the median line (towards the enemy's table edge)
  stood       the facing he had before moving
  a number    an angle in degrees, 0 up to (not including) 360: 0 along the table's length
              (towards higher x), 90 across it (towards higher y)"""


class HumanQuit(KeyboardInterrupt):
    """The player quit (``q``: ``chosen``) or his input ended: the game stops, saved."""

    def __init__(self, reason: str, *, chosen: bool = True) -> None:
        super().__init__(reason)
        self.chosen = chosen


class HumanAgent:
    """Asks a person at the terminal."""

    name = "human"

    def __init__(
        self,
        seed: int = 0,
        player: int | None = None,
        *,
        auto: bool = True,
        measure: bool = True,
        map: str = "confrontation-table.svg",
        stdin: TextIO | None = None,
        console: Console | None = None,
    ) -> None:
        """``auto``: answer questions with a single answer for the player; ``measure``: show
        each shot's and assault's distance and chance, and leave out those that cannot reach
        (001 "Actions and measurement", :mod:`confrontation.agents.measured`); ``map``: the
        file the ``map`` answer draws the battlefield into."""
        del seed  # a person needs no dice
        if not map.strip():
            raise ValueError("map: expected a file name")
        self.player = player
        self.auto = auto
        self.measure = measure
        self.map_path = Path(map)
        self.stdin = stdin
        self.console = console if console is not None else Console(highlight=False)

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        """Show ``question`` and read the number of an option (a question with one answer
        and nothing else to choose is answered for the player when ``auto``)."""
        options = [o for o in question.options if o.choice in legal] or list(question.options)
        if not options:
            raise ValueError("a question without options")
        everything = options
        if self.measure:
            options = self.measured(state, options)
        if self.auto and question.free is None:
            found = trivial(state, replace(question, options=tuple(options)))
            if found is not None:
                index, why = found
                self.console.print(
                    f"[dim]{escape(question.prompt)} {escape(options[index].label)}: answered "
                    f"for you ({escape(why)}).[/]"
                )
                return options[index].choice
        deploying = question.kind == QuestionKind.DEPLOY
        if deploying and len(options) > DEPLOY_SHOWN:
            self.show_places(state, question, options)
        else:
            self.show(state, replace(question, options=tuple(options)))
        left_out = len(everything) - len(options)
        if left_out:
            self.console.print(
                f"[dim]{left_out} shot(s) or assault(s) out of range or reach are not listed "
                "(type all to list every option).[/]"
            )
        while True:
            answer = self._answer(f"[bold]Your choice[/] (1-{len(options)}, ? help, map, q quit): ")
            if answer in ("?", "h", "help"):
                self.console.print(HELP)
                self.show_fighters(state, question.player)
                continue
            if answer == "map" or answer.startswith("map "):
                self.draw_map(state, answer.removeprefix("map").strip())
                continue
            if answer == "all" and len(options) < len(everything):
                options = everything
                self.show(state, question)
                continue
            if deploying:
                typed = self.typed_place(state, answer, options)
                if typed is not None:
                    return typed
                if not answer.isdigit():
                    continue
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                choice = options[int(answer) - 1].choice
                if (
                    question.free == FREE_FACING
                    and isinstance(choice, Place)
                    and question.kind != QuestionKind.DEPLOY  # the terminal deploys as offered
                ):
                    return self.facing(state, choice)
                return choice
            self.console.print(f"[red]Please type a number from 1 to {len(options)}.[/]")

    def show_places(self, state: GameState, question: Question, options: list[Option]) -> None:
        """A deployment question (III-B-2) in a few lines: the first places offered and the
        span of the grid; the player types a number or coordinates."""
        self.show(state, replace(question, options=tuple(options[:DEPLOY_SHOWN])))
        places = [o.choice for o in options if isinstance(o.choice, Place)]
        xs, ys = [p.x for p in places], [p.y for p in places]
        self.console.print(
            f"[dim]… {len(options)} places in all, x {min(xs):g} to {max(xs):g}, "
            f"y {min(ys):g} to {max(ys):g} (map draws the table). Type a number, or x y and "
            "a facing in degrees (e.g. 30 12 90): the offered place nearest (x, y) is taken.[/]"
        )

    def typed_place(self, state: GameState, answer: str, options: list[Option]) -> Place | None:
        """``x y [facing]`` at a deployment: the offered place nearest (x, y), turned to the
        facing when one is given and the engine accepts it (III-B-2); None (and why) else."""
        words = answer.replace(",", " ").split()
        if answer.isdigit():
            return None
        if len(words) not in (2, 3):
            self.console.print("[red]Type a number, or x y and a facing (e.g. 30 12 90).[/]")
            return None
        try:
            numbers = [float(word.removesuffix("°")) for word in words]
        except ValueError:
            self.console.print("[red]Type a number, or x y and a facing (e.g. 30 12 90).[/]")
            return None
        if not all(math.isfinite(n) for n in numbers):
            self.console.print("[red]Coordinates and facing are finite numbers.[/]")
            return None
        x, y = numbers[0], numbers[1]
        places = [o.choice for o in options if isinstance(o.choice, Place)]
        if not places:
            return None
        nearest = min(places, key=lambda p: (math.dist((p.x, p.y), (x, y)), p.x, p.y))
        if len(numbers) == 2:
            return nearest
        wanted = replace(nearest, facing=numbers[2] % 360.0)
        refused = refusal(state, wanted)
        if refused is not None:
            self.console.print(f"[red]{escape(refused)}.[/]")
            return None
        return wanted

    def measured(self, state: GameState, options: list[Option]) -> list[Option]:
        """``options`` with each shot's and assault's distance and chance in its detail, those
        that cannot reach left out (all of them kept if none would be left)."""
        kept: list[Option] = []
        for option in options:
            facts = measure(state, option.choice)
            if facts is None:
                kept.append(option)
            elif facts.reaches:
                detail = "; ".join(d for d in (option.detail, facts.text()) if d)
                kept.append(replace(option, detail=detail))
        return kept or options

    def draw_map(self, state: GameState, where: str = "") -> None:
        """Write the battlefield as the player sees it now into an SVG file and say where."""
        path = Path(where) if where else self.map_path
        picture = table_svg(state)
        if picture is None:
            self.console.print("[red]There is no battlefield to draw yet.[/]")
            return
        try:
            path.write_text(picture, encoding="utf-8")
        except OSError as error:
            self.console.print(f"[red]Cannot write {escape(str(path))}: {error.strerror}.[/]")
            return
        self.console.print(f"The battlefield is drawn in {escape(str(path.resolve()))}.")

    def facing(self, state: GameState, place: Place) -> Place:
        """Ask the facing at ``place`` (V-B-1, V-B-2): the place offered, or turned."""
        menu = facing_options(state, place)
        shown = "; ".join(f"{label} {angle:g}°" for label, angle in menu)
        self.console.print(f"[bold cyan]Facing[/] ({shown})")
        while True:
            answer = self._answer(
                "[bold]Facing[/] (Enter as offered, an enemy, median, stood, or degrees; "
                "? help, q quit): "
            )
            if answer in ("?", "h", "help"):
                self.console.print(FACING_HELP)
                continue
            if answer == "map" or answer.startswith("map "):
                self.draw_map(state, answer.removeprefix("map").strip())
                continue
            if not answer:
                return place
            angle, error = _angle(answer, menu)
            if angle is None:
                self.console.print(f"[red]{error}[/]")
                continue
            if angle == place.facing:
                return place
            candidate = turned(state, place, angle)
            refused = refusal(state, candidate)
            if refused is None:
                return candidate
            self.console.print(f"[red]{refused}.[/]")

    def _answer(self, prompt: str) -> str:
        """Show ``prompt`` and read one answer, stripped and lower-case; the end of the input
        or "q" is :class:`HumanQuit`."""
        self.console.print(prompt, end="")
        line = self._readline()
        if line is None:
            self.console.print()
            raise HumanQuit("end of input", chosen=False)
        answer = line.strip()
        if not answer.lower().startswith("map "):
            answer = answer.lower()  # a file name keeps its case
        if answer.lower() in ("q", "quit", "exit"):
            raise HumanQuit("the player quit")
        return answer

    def _readline(self) -> str | None:
        stream = self.stdin if self.stdin is not None else sys.stdin
        if stream is None:  # stdin closed (``<&-``): nobody can answer
            return None
        try:
            line = stream.readline()
        except (OSError, ValueError):  # a closed or unreadable stream: the end of the input
            return None
        if line and not stream.isatty():
            self.console.print(line.rstrip("\n"))  # echo answers read from a file or pipe
        return line if line else None

    def show(self, state: GameState, question: Question) -> None:
        """The question and its numbered options."""
        where = f"Round {state.round}, {state.phase.value} phase"
        self.console.rule(f"[bold]{where}[/]")
        self.console.print(f"[bold cyan]{question.prompt}[/]")
        table = Table(show_header=False, box=None, padding=(0, 1))
        table.add_column(justify="right", style="bold")
        table.add_column()
        table.add_column(style="dim")
        chances = option_odds(state, question)
        for n, (option, chance) in enumerate(zip(question.options, chances, strict=True), 1):
            detail = option.detail
            if chance is not None and not isinstance(option.choice, Shoot):  # shots: measured
                detail = "; ".join(d for d in (detail, str(chance["text"])) if d)
            if option.probability is not None:
                face = f"{float(option.probability):.0%}"
                detail = f"{detail}; {face}" if detail else face
            table.add_row(str(n), option.label, detail)
        self.console.print(table)

    def show_fighters(self, state: GameState, player: int | None) -> None:
        """Every player's fighters: health and position."""
        for side in state.players:
            mine = " (you)" if side == player else ""
            table = Table(title=f"{player_name(side)}{mine}: {state.side(side).name}")
            for column in ("fighter", "profile", "health", "x", "y", "markers"):
                table.add_column(column)
            for f in state.fighters:
                if f.player != side:
                    continue
                health = ("healthy", "light", "serious", "critical", "killed")[min(f.wounds, 4)]
                marks = [m for m, on in (("stunned", f.stunned), ("charged", f.charged)) if on]
                table.add_row(
                    f.id,
                    state.profile(f.profile).name,
                    health,
                    f"{f.x:.1f}" if f.on_table else "-",
                    f"{f.y:.1f}" if f.on_table else "-",
                    ", ".join(marks),
                )
            self.console.print(table)


def _angle(answer: str, menu: Sequence[tuple[str, float]]) -> tuple[float | None, str]:
    """The facing a typed answer names: a number of degrees, ``median``, ``stood``, or an
    enemy by id or name (as listed in ``menu``); else None and why."""
    text = answer.removesuffix("°").strip()
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is not None:
        if math.isfinite(value) and 0.0 <= value < 360.0:
            return value, ""
        return None, f"An angle is at least 0 and less than 360 degrees, not {text}."
    keys = {"median": "the median line", "stood": "as he stood"}
    if text in keys:
        return next(angle for label, angle in menu if label == keys[text]), ""
    enemies = [(label, angle) for label, angle in menu if label.startswith("towards ")]
    found = [angle for label, angle in enemies if f"({text})" in label.lower()]
    if not found:  # by name: "towards Z (p2-c1-1)"
        found = [a for label, a in enemies if label.lower().startswith(f"towards {text} (")]
    if len(found) == 1:
        return found[0], ""
    if found:
        return None, f"Several enemies are called {text}: type his id."
    return None, f"Type an enemy's id or name, median, stood, or an angle, not {answer!r}."
