"""Start-up (issue 22): the CPU a command costs from exec to exit, next to ``python -c pass``
measured in the same run.

Each command runs as a fresh child process (as the console script runs it) ``--repeat``
times; its CPU (user + system, ``getrusage`` of the children) is the least of the repeats,
the figure least moved by other work on the machine. Printed per command: the CPU in seconds
and as a ratio to ``python -c pass``. ``import typer`` and ``import typer.rich_utils`` are
there as the floor the command-line library sets (every command imports typer; ``--help``
renders with typer's rich help), and the goal is 0.15 s for ``--help`` and ``odds test``.

Then (help4) every command's and subcommand's ``--help``, walked from the command tree, in a
table worst first, each against the same 0.15 s goal; ``--help-only`` prints that table alone,
``--repeat-help`` sets its repeats (3: 44 commands).

Run: ``.venv/bin/python bench/startup_bench.py [--repeat 7] [--help-only]`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys

GOAL = 0.15
CLI = [sys.executable, "-c", "from confrontation.cli import main; main()"]
COMMANDS: list[tuple[str, list[str]]] = [
    ("python -c pass (reference)", [sys.executable, "-c", "pass"]),
    ("python -c 'import typer'", [sys.executable, "-c", "import typer"]),
    ("python -c 'import typer.rich_utils'", [sys.executable, "-c", "import typer.rich_utils"]),
    ("confrontation --help", [*CLI, "--help"]),
    (
        "confrontation odds test --value 3 --difficulty 5",
        [*CLI, "odds", "test", "--value", "3", "--difficulty", "5"],
    ),
    ("confrontation odds --help", [*CLI, "odds", "--help"]),
    ("confrontation simulate --help", [*CLI, "simulate", "--help"]),
]
GOALS = ("confrontation --help", "confrontation odds test --value 3 --difficulty 5")


def cpu_of(command: list[str], repeat: int) -> float:
    """The least CPU seconds (user + system) of ``repeat`` runs of ``command``."""
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = min(best, spent)
    return best


TREE = """
from confrontation.cli import COMMANDS, load_command


def walk(command, path):
    print(" ".join(path))
    for name in list(getattr(command, "commands", {}) or {}):
        walk(command.commands[name], [*path, name])


for lazy in COMMANDS:
    walk(load_command(lazy), [lazy.name])
"""


def command_tree() -> list[str]:
    """Every command path (``simulate``, ``odds``, ``odds test``...), in the help's order."""
    done = subprocess.run([sys.executable, "-c", TREE], capture_output=True, text=True, check=True)
    return done.stdout.split("\n")[:-1]


def help_table(repeat: int) -> None:
    """Every command's ``--help``: CPU seconds, worst first, with the goal's verdict."""
    rows = [(cpu_of([*CLI, *path.split(), "--help"], repeat), path) for path in command_tree()]
    rows.sort(reverse=True)
    print(f"\nevery command's --help ({len(rows)}), worst first, least of {repeat} runs:")
    print(f"{'command':40} {'CPU s':>7}  goal ≤ {GOAL} s")
    for spent, path in rows:
        verdict = "ok" if spent <= GOAL else "OVER"
        print(f"{'confrontation ' + path + ' --help':40} {spent:7.3f}  {verdict}")
    over = sum(spent > GOAL for spent, _ in rows)
    worst, name = rows[0]
    print(f"{len(rows) - over} of {len(rows)} within the goal; worst {name!r} {worst:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--repeat-help", type=int, default=3)
    parser.add_argument("--help-only", action="store_true", help="only every command's --help")
    options = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    reference = None
    for name, command in [] if options.help_only else COMMANDS:
        spent = cpu_of(command, options.repeat)
        reference = reference or spent
        goal = f"  (goal ≤ {GOAL} s)" if name in GOALS else ""
        print(f"{name:52} {spent:6.3f} CPU s  {spent / reference:6.1f}× python -c pass{goal}")
    help_table(options.repeat_help)


if __name__ == "__main__":
    main()
