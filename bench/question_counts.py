"""Issue 22, twelfth round (scalecount): how many geometry questions a greedy game asks, at
250 AP and at 750 AP (``engine_bench.scaled_army``), per game (seeds 0-2), and why.

Counted where the work is done, below every cache of the engine and the agent:

- path searches (``geometry.field.Battlefield.path``), by caller and answer, and how many
  ask again about a mover and a goal that have not moved since an earlier search of the
  same game (the most any keeping of answers across fields could save);
- the greedy announcement's path questions (``greedy._reaches``) before the best reaching
  assault is found (each "no" needed) and among its ties (the d6 draw);
- GEOS sight questions (``geometry.field.sees`` / ``line_of_sight``, past the caches);
- contact placements (``Field.contact_position``) and new contact searches.

Run from ``bench``: ``PYTHONPATH=../src:. python question_counts.py [--size 250|750]``.
"""

from __future__ import annotations

import argparse
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from confrontation.agents import greedy
from confrontation.engine.table import field as table_field
from confrontation.geometry import field as geometry_field
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import scaled_army

CALLERS = ("_reachable", "pursuit_placement", "_placements", "assault")
COUNTS: Counter[str] = Counter()
SEEN: set[tuple[Any, ...]] = set()
PHASE = {"found": False}


def _caller() -> str:
    names = [f.name for f in traceback.extract_stack(limit=12)]
    return next((c for c in CALLERS if c in names), "other")


def _wrap(owner: Any, name: str, around: Callable[..., Any]) -> None:
    real = getattr(owner, name)
    setattr(owner, name, lambda *a, **k: around(real, *a, **k))


def _path(real: Callable[..., Any], self: Any, mover: str, goal: Any, **kw: Any) -> Any:
    found = real(self, mover, goal, **kw)
    caller = _caller()
    answer = "none" if found is None else "found"
    COUNTS[f"path search {caller} {answer}"] += 1
    ends: tuple[Any, ...] = (mover, goal, kw.get("move_at_most_mov"), self.fighters[mover])
    ends += (self.fighters[goal],) if isinstance(goal, str) else ()
    if ends in SEEN:
        COUNTS[f"path search again, same ends ({caller})"] += 1
    SEEN.add(ends)
    return found


def _reaches(real: Callable[..., Any], state: Any, choice: Any) -> Any:
    reaches = real(state, choice)
    phase = "among the ties" if PHASE["found"] else "before the best"
    COUNTS[f"announce reach {phase} {'yes' if reaches else 'no'}"] += 1
    PHASE["found"] = PHASE["found"] or reaches
    return reaches


def _announce(real: Callable[..., Any], self: Any, state: Any, legal: Any) -> Any:
    PHASE["found"] = False
    COUNTS["announce questions"] += 1
    return real(self, state, legal)


def _counted(label: str) -> Callable[..., Any]:
    def around(real: Callable[..., Any], *a: Any, **k: Any) -> Any:
        COUNTS[label] += 1
        return real(*a, **k)

    return around


def _contact(
    real: Callable[..., Any], self: Any, mover: str, target: str, *a: Any, **k: Any
) -> Any:
    COUNTS[f"contact placement ({_caller()})"] += 1
    if (mover, target) not in self._placing:
        COUNTS["contact search made"] += 1
    return real(self, mover, target, *a, **k)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", choices=("250", "750"), action="append")
    sizes = parser.parse_args().size or ["250", "750"]
    _wrap(geometry_field.Battlefield, "path", _path)
    _wrap(greedy, "_reaches", _reaches)
    _wrap(greedy.GreedyAgent, "_announce", _announce)
    _wrap(geometry_field, "sees", _counted("GEOS sight (sees)"))
    _wrap(geometry_field, "line_of_sight", _counted("GEOS sight (full)"))
    _wrap(table_field.Field, "contact_position", _contact)
    with tempfile.TemporaryDirectory() as folder:
        big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
        for size in sizes:
            COUNTS.clear()
            armies = big if size == "750" else tuple(DEFAULT_ARMIES)
            for seed in (0, 1, 2):
                SEEN.clear()
                play_game(GameConfig(seed=seed, armies=armies))
            print(f"{size} AP, per game (seeds 0-2):")
            for label in sorted(COUNTS):
                print(f"  {label}: {COUNTS[label] / 3:.1f}")


if __name__ == "__main__":
    main()
