"""The 10,000-game sweep (issue 22): ``confrontation simulate --games N --agents greedy,greedy
--jobs 2``, run as the command it is, its games per second and the time 10,000 games take.

The sweep runs in a child process exactly as typed at a shell: not stored, as the goal command
(``simulate`` stores nothing unless asked); ``--store`` stores the games in a temporary
database (``simulate --db``). Printed:
the wall time, the batch's games per second, the 10,000-game estimate (the command's start-up
plus the batch time scaled to 10,000 games), the CPU the command used per game, and how busy
the machine was: the load average, and the CPU other processes took during the run (from
``/proc/stat``, minus the sweep's own), i.e. how many of the cores were left to the sweep.
``--compare`` first plays the same games with ``--jobs 1`` and prints the ratio of the two
wall times: that is the ``--jobs 2`` speed-up, measured in the same run (wall time is the point
of parallelism, so other engineers' work moves it; read it with the cores left).

Run: ``.venv/bin/python bench/sweep_bench.py --games 500`` (the estimate of the issue);
``--games 40 --compare`` for the 1-vs-2-jobs ratio; ``--games 40 --scheduling`` for the
local backend's own efficiency (pauses instead of games, so the machine's load barely
counts); ``make test-long`` runs the 10,000 games and fails past ``--limit`` seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

TARGET_GAMES = 10_000


@dataclass(frozen=True)
class Sweep:
    """One ``simulate`` run as measured from outside."""

    jobs: int
    games: int
    wall: float  # seconds, the whole command
    batch: float  # seconds, the games alone (``elapsed_s`` of --json)
    cpu: float  # seconds of CPU of the command and its workers
    others: float  # cores' worth of CPU other processes used during the run
    load: tuple[float, float]  # 1-minute load average before and after

    @property
    def games_per_second(self) -> float:
        return self.games / self.batch

    def estimate(self, games: int = TARGET_GAMES) -> float:
        """Seconds ``games`` games would take: this run's start-up plus its batch, scaled."""
        return (self.wall - self.batch) + self.batch * games / self.games


def busy_ticks() -> int:
    """Clock ticks every core of the machine has spent busy since boot (``/proc/stat``)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return user + nice + system + irq + softirq + steal


class TreeCPU:
    """CPU ticks of a process and its descendants, read from ``/proc`` every half second
    while it runs (the workers are the forkserver's children, which ``getrusage`` of this
    process's children never sees); a worker's last half second may be missed."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.ticks: dict[int, int] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.stop.wait(0.5):
            self.sample()

    def sample(self) -> None:
        parents: dict[int, int] = {}
        spent: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            pid = int(entry.name)
            parents[pid] = int(fields[1])
            spent[pid] = int(fields[11]) + int(fields[12])  # utime, stime
        for pid, ticks in spent.items():
            ancestor = pid
            while ancestor not in (self.root, 0, 1) and ancestor in parents:
                ancestor = parents[ancestor]
            if ancestor == self.root and pid != self.root:
                self.ticks[pid] = max(self.ticks.get(pid, 0), ticks)

    def descendants(self) -> float:
        """CPU seconds of the descendants seen (the root itself not counted)."""
        self.stop.set()
        self.thread.join()
        return sum(self.ticks.values()) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(games: int, jobs: int, agents: str, seed: int, store: bool) -> Sweep:
    """``confrontation simulate`` in a child process, measured."""
    with tempfile.TemporaryDirectory() as scratch:
        where = ["--db", str(Path(scratch) / "sweep.db")] if store else ["--no-store"]
        command = [
            sys.executable,
            "-c",
            "from confrontation.cli import main; main()",
            "simulate",
            "--games",
            str(games),
            "--agents",
            agents,
            "--jobs",
            str(jobs),
            "--seed",
            str(seed),
            "--json",
            *where,
        ]
        load_before = os.getloadavg()[0]
        ticks, cpu = busy_ticks(), children_cpu()
        begin = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        tree = TreeCPU(child.pid)
        stdout, stderr = child.communicate()
        wall = time.perf_counter() - begin
        cpu = children_cpu() - cpu + tree.descendants()
        ticks = busy_ticks() - ticks
    if child.returncode != 0:
        sys.exit(f"simulate failed ({child.returncode}): {stderr.strip()}")
    document = json.loads(stdout)
    machine = ticks / os.sysconf("SC_CLK_TCK")
    return Sweep(
        jobs=jobs,
        games=document["games"],
        wall=wall,
        batch=document["elapsed_s"],
        cpu=cpu,
        others=max(0.0, machine - cpu) / wall,
        load=(load_before, os.getloadavg()[0]),
    )


def pause(seconds: float) -> float:
    """A stand-in for a game that needs no CPU (so other work on the machine barely moves it)."""
    time.sleep(seconds)
    return seconds


def scheduling(games: int, jobs: int) -> tuple[float, float]:
    """(wall time with ``jobs``, the ideal) of the local backend on ``games`` pauses of 0.25 to
    1 s (drawn like games' varied lengths, seed 22): the backend's own losses — the workers'
    start, the games queued at the end — without the engine or the machine's load."""
    from confrontation.sim.backends import LocalBackend

    rng = random.Random(22)
    lengths = [rng.uniform(0.25, 1.0) for _ in range(games)]
    begin = time.perf_counter()
    for _ in LocalBackend(jobs).map(pause, lengths):
        pass
    return time.perf_counter() - begin, sum(lengths) / jobs


def report(sweep: Sweep, cores: int) -> None:
    left = max(0.0, cores - sweep.others)
    print(
        f"--jobs {sweep.jobs}: {sweep.games} games in {sweep.wall:.1f} s "
        f"(batch {sweep.batch:.1f} s): {sweep.games_per_second:.3f} games/s; "
        f"{sweep.cpu / sweep.games:.2f} CPU s a game; "
        f"load average {sweep.load[0]:.1f} → {sweep.load[1]:.1f}, other processes used "
        f"{sweep.others:.2f} of {cores} cores ({left:.2f} left)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--agents", default="greedy,greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--store", action="store_true", help="store the games (simulate --db, a temporary file)"
    )
    parser.add_argument(
        "--compare", action="store_true", help="also play the games with --jobs 1 (first)"
    )
    parser.add_argument(
        "--limit", type=float, help="exit 1 if 10,000 games take (or would take) longer (s)"
    )
    parser.add_argument(
        "--scheduling",
        action="store_true",
        help="measure the local backend alone on pauses instead of games (see scheduling)",
    )
    options = parser.parse_args()
    cores = os.cpu_count() or 1
    if options.scheduling:
        wall, ideal = scheduling(options.games, options.jobs)
        print(
            f"local backend, {options.games} pauses of 0.25–1 s, --jobs {options.jobs}: "
            f"{wall:.2f} s, ideal {ideal:.2f} s: efficiency {ideal / wall:.3f} "
            f"(load average {os.getloadavg()[0]:.1f})"
        )
        return
    store = options.store
    print(
        f"simulate --games {options.games} --agents {options.agents} --seed {options.seed}"
        f"{' --db (temporary)' if store else ''} on {cores} cores"
    )
    one = None
    if options.compare and options.jobs != 1:
        one = run(options.games, 1, options.agents, options.seed, store)
        report(one, cores)
    sweep = run(options.games, options.jobs, options.agents, options.seed, store)
    report(sweep, cores)
    if one is not None:
        print(
            f"ratio --jobs {options.jobs} / --jobs 1 (wall time of the batch): "
            f"{one.batch / sweep.batch:.2f}; of the whole command: {one.wall / sweep.wall:.2f}"
        )
    estimate = sweep.estimate()
    print(
        f"{TARGET_GAMES:,} games with --jobs {options.jobs}: "
        f"{'took' if sweep.games == TARGET_GAMES else 'estimated'} "
        f"{estimate:.0f} s ({estimate / 60:.1f} min)"
    )
    if options.limit is not None and estimate > options.limit:
        sys.exit(f"over the limit of {options.limit:.0f} s")


if __name__ == "__main__":
    main()
