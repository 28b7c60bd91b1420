"""Start-up (issue 22): the CPU a command costs from exec to exit, next to ``python -c pass``
measured in the same run.

Each command runs as a fresh child process (as the console script runs it) ``--repeat``
times; its CPU (user + system, ``getrusage`` of the children) is the least of the repeats,
the figure least moved by other work on the machine. Printed per command: the CPU in seconds
and as a ratio to ``python -c pass``. ``import typer`` and ``import typer.rich_utils`` are
there as the floor the command-line library sets (every command imports typer; ``--help``
renders with typer's rich help), and the goal is 0.15 s for ``--help`` and ``odds test``.

Run: ``.venv/bin/python bench/startup_bench.py [--repeat 7]`` (or ``make bench``).
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    reference = None
    for name, command in COMMANDS:
        spent = cpu_of(command, options.repeat)
        reference = reference or spent
        goal = f"  (goal ≤ {GOAL} s)" if name in GOALS else ""
        print(f"{name:52} {spent:6.3f} CPU s  {spent / reference:6.1f}× python -c pass{goal}")


if __name__ == "__main__":
    main()
