"""`simulate --jobs 2` killed (issue 26): SIGTERM ends it as Ctrl-C does (one line, exit 2,
its workers gone) and its workers die with it even when it is killed by SIGKILL — no
forkserver, resource tracker or worker is left running, holding the caller's stdout open."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux: /proc/PID/task/TID/children)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        current = todo.pop()
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def running(pid: int) -> bool:
    """``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def start_batch(tmp_path: Path) -> tuple[subprocess.Popen[bytes], set[int]]:
    """``simulate --jobs 2`` running, with its forkserver and a worker started."""
    command = [sys.executable, "-c", "from confrontation.cli import main; main()"]
    command += ["simulate", "--games", "200", "--jobs", "2", "--no-store", "--seed", "3"]
    batch = subprocess.Popen(
        command,
        stdout=open(tmp_path / "out.txt", "wb"),  # noqa: SIM115 (closed with the test's folder)
        stderr=open(tmp_path / "err.txt", "wb"),  # noqa: SIM115
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        start_new_session=True,  # a signal of the test reaches it alone
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        # the forkserver and the resource tracker are children; a worker is a grandchild
        below = descendants(batch.pid)
        if below - set(_children(batch.pid)):
            return batch, below
        if batch.poll() is not None:
            break
        time.sleep(0.2)
    batch.kill()
    pytest.fail("the workers never started")


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out += map(int, (task / "children").read_text().split())
    return out


def all_gone(pids: set[int], within: float = 30.0) -> set[int]:
    """The processes of ``pids`` still running after ``within`` seconds."""
    deadline = time.monotonic() + within
    left = {p for p in pids if running(p)}
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = {p for p in left if running(p)}
    return left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and pidfd: Linux")
def test_sigterm_ends_the_batch_as_ctrl_c_does(tmp_path: Path) -> None:
    batch, processes = start_batch(tmp_path)
    try:
        os.kill(batch.pid, signal.SIGTERM)
        assert batch.wait(timeout=60) == 2
    finally:
        if batch.poll() is None:
            batch.kill()
    left = all_gone(processes)
    # the one line, and nothing after it once every helper process is gone (the resource
    # tracker's "leaked semaphore" warning is silenced: sim/backends.py _quiet_tracker)
    assert (tmp_path / "err.txt").read_text(encoding="utf-8").splitlines() == ["error: interrupted"]
    for pid in left:  # the test's own leftovers, before failing
        os.kill(pid, signal.SIGKILL)
    assert not left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and pidfd: Linux")
def test_the_workers_die_with_a_killed_batch(tmp_path: Path) -> None:
    batch, processes = start_batch(tmp_path)
    os.kill(batch.pid, signal.SIGKILL)
    assert batch.wait(timeout=60) == -signal.SIGKILL
    left = all_gone(processes)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left
