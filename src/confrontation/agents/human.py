"""The human agent: the engine's questions asked at the terminal.

Each question is shown with rich — the prompt, then the numbered options with what the
engine tells about them (distances, odds) — and the player types a number. ``?`` shows help
and the state of his fighters, ``q`` (or the end of the input) quits the game cleanly by
raising :class:`HumanQuit`, which the play command treats as Ctrl-C.

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
from typing import TextIO

from rich.console import Console
from rich.table import Table

from confrontation.engine.actions.movement import facing_options, turned
from confrontation.engine.core.questions import FREE_FACING, Choice, Place, Question
from confrontation.engine.core.state import GameState, player_name
from confrontation.engine.step import refusal

HELP = """Type the number of an option and press Enter.
  ?  this help and the state of your fighters
  q  quit the game (it can be resumed later when it is saved)"""

FACING_HELP = """The facing at the end of the move (V-B-1, V-B-2): the base turns about its sight.
  Enter       the facing offered
  an enemy    his id (p2-c1-1) or his name: face him
  median      face the median line (towards the enemy's table edge)
  stood       the facing he had before moving
  a number    an angle in degrees, 0 up to (not including) 360: 0 along the table's length
              (towards higher x), 90 across it (towards higher y)"""


class HumanQuit(KeyboardInterrupt):
    """The player quit (``q`` or end of input): handled like Ctrl-C. ``end_of_input``: the
    input ended (a file read to its end, stdin closed) rather than the player quitting."""

    def __init__(self, reason: str, *, end_of_input: bool = False) -> None:
        super().__init__(reason)
        self.end_of_input = end_of_input


class HumanAgent:
    """Asks a person at the terminal."""

    name = "human"

    def __init__(
        self,
        seed: int = 0,
        player: int | None = None,
        *,
        stdin: TextIO | None = None,
        console: Console | None = None,
    ) -> None:
        del seed  # a person needs no dice
        self.player = player
        self.stdin = stdin
        self.console = console if console is not None else Console(highlight=False)

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        """Show ``question`` and read the number of an option."""
        options = [o for o in question.options if o.choice in legal] or list(question.options)
        if not options:
            raise ValueError("a question without options")
        self.show(state, question)
        while True:
            answer = self._answer(f"[bold]Your choice[/] (1-{len(options)}, ? help, q quit): ")
            if answer in ("?", "h", "help"):
                self.console.print(HELP)
                self.show_fighters(state, question.player)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                choice = options[int(answer) - 1].choice
                if question.free == FREE_FACING and isinstance(choice, Place):
                    return self.facing(state, choice)
                return choice
            self.console.print(f"[red]Please type a number from 1 to {len(options)}.[/]")

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
            raise HumanQuit("end of input", end_of_input=True)
        answer = line.strip().lower()
        if answer in ("q", "quit", "exit"):
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
        for n, option in enumerate(question.options, start=1):
            detail = option.detail
            if option.probability is not None:
                odds = f"{float(option.probability):.0%}"
                detail = f"{detail}; {odds}" if detail else odds
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
