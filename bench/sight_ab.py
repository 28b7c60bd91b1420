"""Line of sight, this tree's ``geometry/sight.py`` against another tree's, in ONE process
(issue 22, thirteenth round): the questions that reach the geometry's ``sees`` and
``line_of_sight`` in greedy games (three seeds, 250 or 750 AP) recorded once, then asked of
both trees question by question, which goes first alternating by round, each tree's shadow
cache emptied and its barriers built afresh at each round's start (a barrier's convex pieces
are then computed once per round, as the battlefields share them in a game). Prints each
round's CPU seconds both ways, the ratio of the sums, the number of GEOS sight computations
(``_sight_of``) each tree made, and checks that the answers are the same.

Run from ``bench``: ``PYTHONPATH=../src:. python sight_ab.py --record /tmp/s750.pkl
--size 750``, then ``PYTHONPATH=../src:. python sight_ab.py /tmp/s750.pkl
/work/main/src/confrontation/geometry/sight.py --rounds 6``.
"""

from __future__ import annotations

import argparse
import pickle
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from astar_ab import load
from confrontation.geometry import field as geometry_field
from confrontation.geometry import sight
from confrontation.geometry.bases import Base
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import scaled_army

#: a question: "sees" or "sight", the source's and target's bases, and the barriers (a
#: fighter's base, or an element of scenery's footprint and height)
Question = tuple[str, Base, Base, list[Any]]


def record(size: str) -> list[Question]:
    """The questions of three greedy games (seeds 0-2) at ``size`` AP."""
    asked: list[Question] = []
    plain_sees, plain_sight = sight.sees, sight.line_of_sight

    def keys(barriers: Any) -> list[Any]:
        return [b.base if b.base is not None else (b.shape, b.size) for b in barriers]

    def sees(source: Base, target: Base, barriers: Any = ()) -> bool:
        barriers = list(barriers)
        asked.append(("sees", source, target, keys(barriers)))
        return plain_sees(source, target, barriers)

    def line_of_sight(source: Base, target: Base, barriers: Any = ()) -> sight.Sight:
        barriers = list(barriers)
        asked.append(("sight", source, target, keys(barriers)))
        return plain_sight(source, target, barriers)

    setattr(geometry_field, "sees", sees)  # noqa: B010 (the name the battlefield calls)
    setattr(geometry_field, "line_of_sight", line_of_sight)  # noqa: B010
    try:
        with tempfile.TemporaryDirectory() as folder:
            armies = tuple(DEFAULT_ARMIES)
            if size == "750":
                armies = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
            for seed in (0, 1, 2):
                play_game(GameConfig(seed=seed, armies=armies))
    finally:
        setattr(geometry_field, "sees", plain_sees)  # noqa: B010
        setattr(geometry_field, "line_of_sight", plain_sight)  # noqa: B010
    return asked


def one_round(
    modules: tuple[ModuleType, ModuleType], questions: list[Question], first: int
) -> tuple[list[float], list[int]]:
    """Every question asked of both trees (``first`` first each time): each tree's CPU
    seconds and GEOS sight computations."""
    made: list[dict[Any, Any]] = [{}, {}]
    spent, geos = [0.0, 0.0], [0, 0]
    clock = time.process_time
    plain = [getattr(m, "_sight_of") for m in modules]  # noqa: B009
    for k, m in enumerate(modules):
        m._SHADOWS.clear()

        def counted(*a: Any, k: int = k, **kw: Any) -> Any:
            geos[k] += 1
            return plain[k](*a, **kw)

        setattr(m, "_sight_of", counted)  # noqa: B010
    try:
        for kind, source, target, keys in questions:
            got: list[Any] = [None, None]
            for which in (first, 1 - first):
                m = modules[which]
                begin = clock()
                barriers = []
                for key in keys:
                    bar = made[which].get(key)
                    if bar is None:
                        bar = m.Barrier.of_base(key) if isinstance(key, Base) else m.Barrier(*key)
                        made[which][key] = bar
                    barriers.append(bar)
                if kind == "sees":
                    got[which] = m.sees(source, target, barriers)
                else:
                    got[which] = m.line_of_sight(source, target, barriers).value
                spent[which] += clock() - begin
            assert got[0] == got[1], ("the two trees answer differently", kind, source, target)
    finally:
        for m, p in zip(modules, plain, strict=True):
            setattr(m, "_sight_of", p)  # noqa: B010
    return spent, geos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", nargs="?", help="the file of --record")
    parser.add_argument("other", nargs="?", help="the other tree's geometry/sight.py")
    parser.add_argument("--record", help="play the games and write their questions here")
    parser.add_argument("--size", choices=("250", "750"), default="750")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    if args.record:
        asked = record(args.size)
        Path(args.record).write_bytes(pickle.dumps(asked))
        print(f"{len(asked)} questions ({args.size} AP) written to {args.record}")
        return
    questions: list[Question] = pickle.loads(Path(args.questions).read_bytes())
    modules = (load(args.other), sight)
    sums = [0.0, 0.0]
    for r in range(args.rounds):
        spent, geos = one_round(modules, questions, r % 2)
        sums = [a + b for a, b in zip(sums, spent, strict=True)]
        print(
            f"round {r + 1}: other {spent[0]:.3f} s ({geos[0]} GEOS), "
            f"this {spent[1]:.3f} s ({geos[1]} GEOS), ratio {spent[1] / spent[0]:.3f}"
        )
    print(f"{len(questions)} questions: this / other {sums[1] / sums[0]:.3f} (sums)")


if __name__ == "__main__":
    main()
