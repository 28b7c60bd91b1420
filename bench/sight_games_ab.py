"""Whole greedy games with this tree's line of sight against another tree's
``geometry/sight.py`` (issue 22, thirteenth round): each run a fresh process (no cache warm
from the other version's games) playing three greedy games (seeds 0-2) at 250 or 750 AP,
the battlefields' ``sees`` and ``line_of_sight`` taken from one tree or the other (the rest of
the engine is this tree's); runs alternate. Prints each run's CPU seconds of play, the
seconds of the battlefields' sight questions (``Battlefield.sees``/``.sight``, inclusive),
the events' hash (the same both ways), and the ratios of the sums per size.

Run from ``bench``: ``PYTHONPATH=../src:. python sight_games_ab.py
/work/main/src/confrontation/geometry/sight.py --rounds 3``.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def play(size: str, other: str | None) -> None:
    """Three greedy games at ``size`` AP, with ``other``'s sight if given: prints the CPU
    seconds, those of the battlefields' sight questions, and the events' hash."""
    from astar_ab import load
    from confrontation.geometry import field as geometry_field
    from confrontation.geometry.bases import Base
    from confrontation.geometry.sight import Sight
    from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
    from engine_bench import scaled_army

    if other is not None:
        module = load(other)

        def line_of_sight(source: Base, target: Base, barriers: Any = ()) -> Sight:
            return Sight(module.line_of_sight(source, target, barriers).value)  # this tree's enum

        setattr(geometry_field, "sees", module.sees)  # noqa: B010 (the battlefield's names)
        setattr(geometry_field, "line_of_sight", line_of_sight)  # noqa: B010
    timed = [0.0]
    clock = time.process_time
    for name in ("sees", "sight"):  # the battlefield's sight questions, timed (inclusive)
        plain = getattr(geometry_field.Battlefield, name)

        def asked(self: Any, source: str, target: str, plain: Any = plain) -> Any:
            begin = clock()
            try:
                return plain(self, source, target)
            finally:
                timed[0] += clock() - begin

        setattr(geometry_field.Battlefield, name, asked)
    digest = hashlib.sha256()
    with tempfile.TemporaryDirectory() as folder:
        armies = tuple(DEFAULT_ARMIES)
        if size == "750":
            armies = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
        begin = time.process_time()
        for seed in (0, 1, 2):
            digest.update(repr(play_game(GameConfig(seed=seed, armies=armies)).events).encode())
        spent = time.process_time() - begin
    print(f"{spent:.3f} {timed[0]:.3f} {digest.hexdigest()[:16]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the other tree's geometry/sight.py")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", choices=("250", "750"), action="append")
    parser.add_argument("--play", choices=("250", "750"), help=argparse.SUPPRESS)
    parser.add_argument("--with", dest="sight", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.play, args.sight)
        return
    for size in args.size or ["250", "750"]:
        sums = {"other": 0.0, "this": 0.0}
        sights = {"other": 0.0, "this": 0.0}
        for r in range(args.rounds):
            order = ("other", "this") if r % 2 == 0 else ("this", "other")
            line = []
            for which in order:
                command = [sys.executable, __file__, args.other, "--play", size]
                if which == "other":
                    command += ["--with", args.other]
                out = subprocess.run(command, check=True, capture_output=True, text=True)
                spent, sight, events = out.stdout.split()
                sums[which] += float(spent)
                sights[which] += float(sight)
                line.append(f"{which} {float(spent):.2f} s, sight {float(sight):.3f} s ({events})")
            print(f"{size} AP, round {r + 1}: " + ", ".join(line))
        print(
            f"{size} AP: this / other {sums['this'] / sums['other']:.3f} (sums), "
            f"sight {sights['this'] / sights['other']:.3f}"
        )


if __name__ == "__main__":
    main()
