"""Two versions of ``geometry/contact.py`` in ONE process, alternated on the contact
placements of whole games (issue 22, thirteenth round).

Every :meth:`~confrontation.engine.table.field.Field.contact_position` of three greedy v
greedy games (seeds 0-2, 250 AP or 750 AP by ``engine_bench.scaled_army``) is recorded as
its search (mover, target, others, obstacles, table) and the questions asked of it in
order (reference, and what ``accept`` answered for each place it was shown). The searches
are then made again by each version's ``ContactSearch``, ``accept`` answered from the
record, and the answers asserted equal (the same floats); printed per round: each
version's CPU seconds and their ratio (this tree ÷ base), then the median and range.

Run: ``cd bench && PYTHONPATH=../src:. python contact_ab.py --base /tmp/base_contact.py
--size 750 --rounds 6`` (``git show <commit>:src/confrontation/geometry/contact.py >
/tmp/base_contact.py`` gives the base; ``--base`` the tree's own file is an A/A run).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from confrontation.geometry import contact
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import scaled_army
from path_ab import load_module


@dataclass
class Search:
    """One recorded contact search and the questions asked of it."""

    args: tuple[Any, ...]
    table: Any
    #: (reference, {(base, pushed): accept's answer} or None when accept was None)
    asks: list[tuple[Any, dict[Any, bool] | None]] = field(default_factory=list)
    #: did a walk of it look for fighters to push (II-E-1)?
    pushed: bool = False


def recorded(size: int) -> list[Search]:
    """The contact searches of three greedy games at ``size`` AP."""
    searches: list[Search] = []
    kept: dict[int, tuple[Any, Search]] = {}
    real = contact.ContactSearch.nearest
    real_pushed = contact._Walk._pushed

    def pushing(
        walk: contact._Walk, accept: Callable[[contact.ContactPlacement], bool] | None
    ) -> contact.ContactPlacement | None:
        kept[id(walk.search)][1].pushed = True
        return real_pushed(walk, accept)

    def spy(
        self: contact.ContactSearch,
        reference: Any = None,
        accept: Callable[[contact.ContactPlacement], bool] | None = None,
    ) -> Any:
        found = kept.get(id(self))
        if found is None or found[0] is not self:
            pushable = self._pushable
            assert callable(pushable)
            search = Search(
                (self.mover, self.target, list(self.others), list(self.obstacles)), self.table
            )
            searches.append(search)
            kept[id(self)] = (self, search)
        else:
            search = found[1]
        answers: dict[Any, bool] | None = None if accept is None else {}
        search.asks.append((reference, answers))
        if accept is None or answers is None:
            return real(self, reference, None)

        def noted(placement: contact.ContactPlacement) -> bool:
            ok = accept(placement)
            assert answers is not None
            answers[(placement.base, placement.pushed)] = ok
            return ok

        return real(self, reference, noted)

    contact.ContactSearch.nearest = spy  # type: ignore[method-assign]
    contact._Walk._pushed = pushing  # type: ignore[method-assign, assignment]
    try:
        with tempfile.TemporaryDirectory() as folder:
            armies = DEFAULT_ARMIES
            if size != 250:
                armies = tuple(str(scaled_army(a, size // 250, Path(folder))) for a in armies)
            for seed in (0, 1, 2):
                play_game(GameConfig(seed=seed, armies=armies))
    finally:
        contact.ContactSearch.nearest = real  # type: ignore[method-assign]
        contact._Walk._pushed = real_pushed  # type: ignore[method-assign]
    return searches


def replay(module: ModuleType, s: Search) -> tuple[float, list[Any]]:
    """Search ``s`` made again by ``module``: its CPU seconds and answers."""
    answers: list[Any] = []
    begin = time.process_time()
    mover, target, others, obstacles = s.args

    def pushable() -> list[int]:
        return [k for k, b in enumerate(others) if module.in_contact(b, target)]

    search = module.ContactSearch(
        mover, target, others, obstacles, table=s.table, pushable=pushable
    )
    for reference, known in s.asks:
        accept = None if known is None else _lookup(known)
        got = search.nearest(reference, accept)
        answers.append(None if got is None else (got.base, got.pushed))
    return time.process_time() - begin, answers


def _lookup(known: dict[Any, bool]) -> Callable[[Any], bool]:
    def accept(placement: Any) -> bool:
        return known[(placement.base, placement.pushed)]

    return accept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the other version's contact.py")
    parser.add_argument("--size", type=int, default=750)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--pushing", action="store_true", help="only the searches that push")
    options = parser.parse_args()
    base = load_module("contact_base", options.base)
    searches = recorded(options.size)
    if options.pushing:
        searches = [s for s in searches if s.pushed]
    asks = sum(len(s.asks) for s in searches)
    print(f"{options.size} AP: {len(searches)} searches, {asks} questions")
    ratios: list[float] = []
    times: dict[str, list[float]] = {"base": [], "tree": []}
    for n in range(options.rounds):
        spent = {"base": 0.0, "tree": 0.0}
        for k, search in enumerate(searches):
            # the two versions one after the other on each search, the first in turn
            order = [("base", base), ("tree", contact)]
            if (n + k) % 2:
                order.reverse()
            got = {}
            for name, module in order:
                took, got[name] = replay(module, search)
                spent[name] += took
            assert got["base"] == got["tree"], "the two versions answer differently"
        for name in spent:
            times[name].append(spent[name])
        ratios.append(spent["tree"] / spent["base"])
        print(
            f"  round {n}: base {spent['base']:.3f}  tree {spent['tree']:.3f}  "
            f"ratio {ratios[-1]:.3f}"
        )
    print(
        f"median base {statistics.median(times['base']):.3f} tree "
        f"{statistics.median(times['tree']):.3f} CPU-s; ratio median "
        f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})"
    )


if __name__ == "__main__":
    main()
