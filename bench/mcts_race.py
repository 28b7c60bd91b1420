"""The race's settings replayed on recorded full searches: decisions kept and CPU spent.

    PYTHONPATH=src .venv/bin/python bench/mcts_race.py record /tmp/a.pkl --seeds 8300 8302
    PYTHONPATH=src .venv/bin/python bench/mcts_race.py replay /tmp/a.pkl /tmp/b.pkl

``record`` plays the default mcts agent with the full search (``prune_after=0``) against
greedy (Conquest, Lion Vanguard mirror, the mcts agent first on even seeds) and stores every
searched decision: its kind (combat, activation phase, last rounds), options, greedy answer,
and each option's imagined games, value and CPU, sweep by sweep. An option's games depend
only on the sweep's key and its own subtree, so these say exactly what a race would have
seen. ``replay`` runs each setting of the race over them (the activation phase's final
included) and prints, per kind, the decisions equal to the full search's, the full search's
overrules kept and the imagined games' CPU as a share of the full search's.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from confrontation.agents import mcts
from confrontation.engine.core.questions import Choice
from confrontation.sim.game import GameConfig, play_game

Settings = tuple[float, int, float]
"""``prune_z``, ``tie_after``, ``win_z``."""


@dataclass
class Record:
    """One ``samples`` call of a full search."""

    kind: str
    options: list[Choice]
    greedy: Choice
    sweeps: int
    values: dict[Choice, list[float]]
    cpu: dict[Choice, list[float]]
    final: bool


def record(path: str, seeds: Sequence[int]) -> None:
    """Play the full search on ``seeds`` and pickle its decisions to ``path``."""
    records: list[Record] = []
    times: list[float] = []
    iterate = mcts.MctsAgent._iterate
    samples = mcts.MctsAgent.samples

    def timed(self: mcts.MctsAgent, *args: Any) -> float:
        begin = time.process_time()
        value = iterate(self, *args)
        times.append(time.process_time() - begin)
        return value

    def kept(self: mcts.MctsAgent, *args: Any, **kwargs: Any) -> dict[Choice, list[float]]:
        times.clear()
        got = samples(self, *args, **kwargs)
        options, sweeps = list(args[2]), args[3]
        whole = kwargs.get("whole_game", args[4] if len(args) > 4 else False)
        expected = kwargs.get("expected", args[5] if len(args) > 5 else False)
        greedy = kwargs.get("greedy", args[6] if len(args) > 6 else None)
        cpu: dict[Choice, list[float]] = {c: [] for c in options}
        for i, spent in enumerate(times):  # sweep by sweep, every option (no race)
            cpu[options[i % len(options)]].append(spent)
        kind = "finale" if whole else "announce" if expected else "combat"
        final = kwargs.get("earlier") is not None
        assert greedy is not None  # every search races against the greedy answer
        records.append(Record(kind, options, greedy, sweeps, got, cpu, final))
        return got

    mcts.MctsAgent._iterate = timed  # type: ignore[method-assign,assignment]
    mcts.MctsAgent.samples = kept  # type: ignore[method-assign]
    for seed in seeds:
        me = seed % 2
        full: dict[str, object] = {"prune_after": 0}
        config = GameConfig(
            scenario="conquest",
            armies=("lion-vanguard", "lion-vanguard"),
            agents=("mcts", "greedy") if me == 0 else ("greedy", "mcts"),
            seed=seed,
            agent_options=(full, {}) if me == 0 else ({}, full),
        )
        begin = time.process_time()
        result = play_game(config)
        spent = time.process_time() - begin
        print(
            f"seed {seed}: winner {result.winner}, mcts p{me + 1}, {spent:.1f} CPU-s, "
            f"{len(records)} searches",
            flush=True,
        )
        with open(path, "wb") as out:
            pickle.dump(records, out)


def race(
    racing: Sequence[Choice], values: dict[Choice, list[float]], greedy: Choice, s: Settings
) -> tuple[list[Choice], bool]:
    """:meth:`~confrontation.agents.mcts.MctsAgent._race` with settings ``s``."""
    agent = mcts.MctsAgent(0, 0)
    return agent._race(racing, values, greedy, s)


def verdict(options: Sequence[Choice], values: dict[Choice, list[float]], greedy: Choice) -> Choice:
    return mcts.MctsAgent(0, 0)._verdict(options, values, greedy)


def run(
    rec: Record, s: Settings, earlier: dict[Choice, list[float]] | None = None
) -> tuple[dict[Choice, list[float]], float]:
    """The race over ``rec`` (``MctsAgent.samples``): the games it plays and their CPU."""
    got: dict[Choice, list[float]] = {c: [] for c in rec.options}
    cost = 0.0
    racing = list(rec.options)
    for sweep in range(rec.sweeps):
        for c in racing:
            got[c].append(rec.values[c][sweep])
            cost += rec.cpu[c][sweep]
        done = sweep + 1 + (len(earlier[rec.greedy]) if earlier else 0)
        if done >= mcts.PRUNE_AFTER and sweep + 1 < rec.sweeps:
            so_far = got if earlier is None else {c: earlier[c] + got[c] for c in racing}
            racing, won = race(racing, so_far, rec.greedy, s)
            if won or len(racing) == 1:
                break
    return got, cost


@dataclass
class Tally:
    decisions: int = 0
    same: int = 0
    overrules: int = 0
    overrules_kept: int = 0
    cpu: float = 0.0
    full_cpu: float = 0.0
    kinds: dict[str, Tally] = field(default_factory=dict)


def replay(records: list[Record], settings: dict[str, Settings]) -> dict[str, Tally]:
    """Each decision through the race: per kind, how many equal the full search's."""
    tallies: dict[str, Tally] = {}
    i = 0
    while i < len(records):
        rec = records[i]
        nxt = records[i + 1] if i + 1 < len(records) and records[i + 1].final else None
        s = settings[rec.kind]
        full_cpu = sum(map(sum, rec.cpu.values()))
        got, cost = run(rec, s)
        if nxt is None:
            full = verdict(rec.options, rec.values, rec.greedy)
            answer = verdict(rec.options, got, rec.greedy)
            i += 1
        else:  # the activation phase's final: the greedy answer and the best other
            full_cpu += sum(map(sum, nxt.cpu.values()))
            merged = {c: rec.values[c] + nxt.values[c] for c in nxt.options}
            full = verdict(nxt.options, merged, rec.greedy)
            rivals = [c for c in rec.options if c != rec.greedy]
            rival = max(rivals, key=lambda c: statistics.fmean(got[c]))
            pair = [rec.greedy, rival]
            if len(race(pair, got, rec.greedy, s)[0]) == 1:
                answer = rec.greedy
            else:
                more, extra = run(nxt, s, earlier=got)
                cost += extra
                answer = verdict(pair, {c: got[c] + more[c] for c in pair}, rec.greedy)
            i += 2
        t = tallies.setdefault(rec.kind, Tally())
        t.decisions += 1
        t.same += answer == full
        t.overrules += full != rec.greedy
        t.overrules_kept += full != rec.greedy and answer == full
        t.cpu += cost
        t.full_cpu += full_cpu
    return tallies


DEFAULT: Settings = (mcts.PRUNE_Z, mcts.TIE_AFTER, mcts.WIN_Z)
VARIANTS: dict[str, dict[str, Settings]] = {
    "the race of the fourth round (every search prune_z=1, tie_after=4, win_z=3)": {
        "combat": DEFAULT, "announce": DEFAULT, "finale": DEFAULT,
    },
    "the default (activation phase and last rounds with their own settings)": {
        "combat": DEFAULT, "announce": mcts.ANNOUNCE_RACE, "finale": mcts.FINALE_RACE,
    },
    "every search at the last rounds' settings": {
        "combat": mcts.FINALE_RACE, "announce": mcts.FINALE_RACE, "finale": mcts.FINALE_RACE,
    },
}  # fmt: skip


def _record(r: Record | dict[str, Any]) -> Record:
    """A stored decision (a first draft of this script stored plain dicts)."""
    if isinstance(r, Record):
        return r
    return Record(
        r["kind"], r["options"], r["greedy"], r["sweeps"], r["samples"], r["times"], r["final"]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="play the full search and store its decisions")
    rec.add_argument("path")
    rec.add_argument("--seeds", type=int, nargs="+", default=[8300])
    rep = sub.add_parser("replay", help="replay the race's settings on recorded decisions")
    rep.add_argument("paths", nargs="+")
    args = parser.parse_args()
    if args.command == "record":
        record(args.path, args.seeds)
        return
    records: list[Record] = []
    for path in args.paths:
        with open(path, "rb") as got:
            records += [_record(r) for r in pickle.load(got)]
    total = sum(sum(map(sum, r.cpu.values())) for r in records)
    print(f"{len(records)} searches recorded, {total:.0f} CPU-s of imagined games")
    for name, settings in VARIANTS.items():
        tallies = replay(records, settings)
        cpu = sum(t.cpu for t in tallies.values())
        same = sum(t.same for t in tallies.values())
        decisions = sum(t.decisions for t in tallies.values())
        print(f"\n{name}: {same}/{decisions} decisions as the full search, "
              f"CPU {cpu / total:.3f} of the full search's")  # fmt: skip
        for kind, t in sorted(tallies.items()):
            print(f"  {kind:8s} {t.same}/{t.decisions} same, overrules kept "
                  f"{t.overrules_kept}/{t.overrules}, CPU {t.cpu / t.full_cpu:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
