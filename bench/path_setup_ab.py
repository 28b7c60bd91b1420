"""The ninth round's setup shortcuts of the path search, on and off in ONE process (issue 22):
replays the questions recorded by ``path_replay.py --record`` alternately with the
shortcuts and with them switched back to the full GEOS work, many times, so the machine's
load falls on both alike; prints each workload's median CPU seconds, both ways, their
ratio, and whether the answers are the same.

Run: ``cd bench && PYTHONPATH=<tree>/src python path_setup_ab.py /tmp/q6.pkl --rounds 5``.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from confrontation.geometry import paths
from path_replay import Call, ask


@contextmanager
def full_work(which: str = "target,window") -> Iterator[None]:
    """The shortcuts (``which``) switched off: the goal base merged with, and its edge cut by,
    every obstacle ("target"); every group built for the straight answer's goal set
    ("window")."""
    saved: dict[str, Callable[..., Any]] = {
        k: getattr(paths, k) for k in ("_near_parts", "_eroded_parts")
    }
    eroded_parts = saved["_eroded_parts"]

    def all_near(polys: np.ndarray, window: Any) -> np.ndarray:
        return np.ones(len(polys), dtype=bool)

    def no_window(pieces: Any, window: Any = None) -> Any:
        return eroded_parts(pieces)

    # (twelfth round: step 4 asks ``_near_parts`` and ``_eroded_parts``, which
    # ``_near_box`` and ``_eroded_union`` are now made of)
    if "target" in which:
        paths._near_parts = all_near
    if "window" in which:
        paths._eroded_parts = no_window
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(paths, k, v)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--off", default="target,window", help="the shortcuts switched off in turn")
    args = parser.parse_args()
    with open(args.file, "rb") as got:
        found: dict[str, list[Call]] = pickle.load(got)
    for kind, calls in found.items():
        on: list[float] = []
        off: list[float] = []
        same = True
        for _ in range(args.rounds):
            t, a = ask(calls)
            on.append(t)
            with full_work(args.off):
                t, b = ask(calls)
            off.append(t)
            same &= a == b == [c[5] for c in calls]
        m_on, m_off = statistics.median(on), statistics.median(off)
        print(
            f"{kind}: full work {m_off:.3f} s, shortcuts {m_on:.3f} s (medians of"
            f" {args.rounds}), ratio {m_on / m_off:.3f}; same answers: {same}"
        )


if __name__ == "__main__":
    main()
