"""The human agent: the engine's questions asked at the terminal.

Each question is shown with rich — the prompt, then the numbered options with what the
engine tells about them (distances, odds) — and the player types a number. ``?`` shows help
and the state of his fighters, ``q`` (or the end of the input) quits the game cleanly by
raising :class:`HumanQuit`, which the play command treats as Ctrl-C.

The input is any text stream (standard input by default), so a test or a script can drive
a whole game.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.table import Table

from confrontation.engine.questions import Choice, Question
from confrontation.engine.state import GameState, player_name

HELP = """Type the number of an option and press Enter.
  ?  this help and the state of your fighters
  q  quit the game (it can be resumed later when it is saved)"""


class HumanQuit(KeyboardInterrupt):
    """The player quit (``q`` or end of input): handled like Ctrl-C."""


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
            self.console.print(f"[bold]Your choice[/] (1-{len(options)}, ? help, q quit): ", end="")
            line = self._readline()
            if line is None:
                self.console.print()
                raise HumanQuit("end of input")
            answer = line.strip().lower()
            if answer in ("q", "quit", "exit"):
                raise HumanQuit("the player quit")
            if answer in ("?", "h", "help"):
                self.console.print(HELP)
                self.show_fighters(state, question.player)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1].choice
            self.console.print(f"[red]Please type a number from 1 to {len(options)}.[/]")

    def _readline(self) -> str | None:
        stream = self.stdin if self.stdin is not None else sys.stdin
        line = stream.readline()
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
        """Both sides' fighters in play: health and position."""
        for side in (0, 1):
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
