"""`simulate --backend ray` on a real Ray cluster: a head and a worker node started as
separate processes on 127.0.0.1 (`make test-cluster`; deselected from `make test`).

The games are the same as `--backend local` plays for the same seeds, they spread over both
nodes, a worker node killed mid-run loses no game (Ray runs its games again), and the
cluster is stopped at the end whatever happens. Needs the ``[ray]`` extra.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.cluster

SRC = Path(__file__).resolve().parents[2] / "src"
CLI = "from confrontation.cli import main; main()"
# The `ray` command with one change: a node started on 127.0.0.1 keeps that address. Ray on
# Linux replaces a loopback --node-ip-address and --address by the machine's own address
# (ray._private.services.resolve_ip_for_localhost), and its servers then listen on every
# interface; kept on 127.0.0.1, every server of the node listens on the loopback only.
RAY = (
    "from ray._private import services\n"
    "services.resolve_ip_for_localhost = lambda host: host\n"
    "from ray.scripts.scripts import main\n"
    "main()\n"
)
GAMES = 6
SEED = 11
# Short games that still take a while: random agents, two rounds.
BATCH = ("--agents", "random,random", "--rounds", "2", "--seed", str(SEED), "--no-store")
WHERE = ("node", "pid")
TIMING = ("games_per_second", "elapsed_s")
START_TIMEOUT = 90.0
RUN_TIMEOUT = 240.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _environment() -> dict[str, str]:
    """This project's sources first (for the nodes' workers too), usage statistics off."""
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
    return env


def _session(leader: int) -> list[int]:
    """The live processes of the session ``leader`` started (a node: `ray start --block`,
    its GCS or raylet, agents and workers all stay in it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == leader:  # state, ..., session id
            found.append(int(entry.name))
    return found


def _kill_session(leader: int) -> None:
    """SIGKILL every process of the session, again until none is left (a raylet may be
    starting a worker meanwhile)."""
    deadline = time.monotonic() + 10
    while (found := _session(leader)) and time.monotonic() < deadline:
        for pid in found:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)


@dataclass
class Node:
    """One `ray start --block` in a session of its own, its output in ``log``."""

    process: subprocess.Popen[bytes]
    log: Path

    def wait_started(self, deadline: float) -> None:
        while "Ray runtime started" not in self.log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the Ray node did not start:\n{self.log.read_text()}")
            time.sleep(0.2)

    def processes(self) -> list[int]:
        return _session(self.process.pid)

    def kill(self) -> None:
        """Every process of the node, at once (a machine that disappears)."""
        _kill_session(self.process.pid)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        """`ray start --block` stops its processes on SIGTERM; what is left is killed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=20)
        _kill_session(self.process.pid)
        self.process.wait(timeout=30)


@dataclass
class Cluster:
    address: str
    head: Node
    worker: Node


def _start(kind: str, directory: Path, *options: str) -> Node:
    log = directory / f"{kind}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", RAY, "start", "--block", *options],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=_environment(),
            start_new_session=True,
        )
    return Node(process, log)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A head and one worker node, one CPU each, loopback only, in a temporary directory
    of their own (short: Ray's socket paths must stay under 108 characters)."""
    directory = Path(tempfile.mkdtemp(prefix="cfr-ray-"))
    port = _free_port()
    address = f"127.0.0.1:{port}"
    common = (
        "--node-ip-address=127.0.0.1",
        "--num-cpus=1",
        "--num-gpus=0",
        "--object-store-memory=80000000",
        "--disable-usage-stats",
    )
    nodes: list[Node] = []
    try:
        head = _start(
            "head",
            directory,
            "--head",
            f"--port={port}",
            "--include-dashboard=false",
            f"--temp-dir={directory / 'head'}",
            *common,
        )
        nodes.append(head)
        deadline = time.monotonic() + START_TIMEOUT
        head.wait_started(deadline)
        worker = _start(
            "worker", directory, f"--address={address}", f"--temp-dir={directory / 'w'}", *common
        )
        nodes.append(worker)
        worker.wait_started(deadline)
        yield Cluster(address, head, worker)
    finally:
        for node in reversed(nodes):
            node.stop()
        left = [pid for node in nodes for pid in node.processes()]
        shutil.rmtree(directory, ignore_errors=True)
        assert not left, f"Ray processes left running: {left}"


def _simulate(*options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CLI, "simulate", "--games", str(GAMES), *BATCH, "--json", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(),
    )


def _run(process: subprocess.Popen[str]) -> tuple[dict[str, Any], str]:
    """The batch's JSON document (stdout holds nothing else) and its stderr."""
    out, err = process.communicate(timeout=RUN_TIMEOUT)
    assert process.returncode == 0, err
    document: dict[str, Any] = json.loads(out)
    return document, err


def _document(process: subprocess.Popen[str]) -> dict[str, Any]:
    return _run(process)[0]


def _figures(document: dict[str, Any]) -> dict[str, Any]:
    """The document without timings and without where each game ran."""
    figures = {k: v for k, v in document.items() if k not in TIMING}
    figures["results"] = [
        {k: v for k, v in game.items() if k not in WHERE} for game in document["results"]
    ]
    return figures


@pytest.fixture(scope="module")
def local() -> dict[str, Any]:
    """The same batch played in this machine's processes."""
    return _figures(_document(_simulate("--backend", "local")))


def _nodes(document: dict[str, Any]) -> list[str]:
    return [game["node"] for game in document["results"]]


def test_the_cluster_plays_the_local_games_on_both_nodes(
    cluster: Cluster, local: dict[str, Any]
) -> None:
    document = _document(_simulate("--backend", "ray", "--ray-address", cluster.address))
    assert _figures(document) == local
    assert document["games"] == GAMES
    assert len(set(_nodes(document))) == 2, _nodes(document)
    assert all(isinstance(game["pid"], int) for game in document["results"])


def _running_a_game(node: Node) -> bool:
    """Whether a worker process of ``node`` is playing a game (Ray titles it by its task)."""
    for pid in node.processes():
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if title.startswith(b"ray::run_placed"):
            return True
    return False


def test_a_worker_node_killed_mid_run_loses_no_game(
    cluster: Cluster, local: dict[str, Any]
) -> None:
    # Runs after the test above: the worker node is gone afterwards.
    run = _simulate("--backend", "ray", "--ray-address", cluster.address)
    deadline = time.monotonic() + RUN_TIMEOUT
    try:
        while not _running_a_game(cluster.worker):
            assert run.poll() is None, "the batch ended before the worker node played a game"
            assert time.monotonic() < deadline, "the worker node never played a game"
            time.sleep(0.02)
        cluster.worker.kill()
        assert cluster.worker.processes() == []
        document, err = _run(run)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert _figures(document) == local
    assert len(document["results"]) == GAMES
    # The game the worker node was playing was played again (Ray says so on stderr).
    assert "will be retried" in err, err


def test_a_wrong_address_is_one_line_and_exit_2() -> None:
    address = f"127.0.0.1:{_free_port()}"
    begin = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            CLI,
            "simulate",
            "--games",
            "1",
            *BATCH,
            "--backend",
            "ray",
            "--ray-address",
            address,
        ],
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: --ray-address {address}: no Ray cluster there")
    assert done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert time.monotonic() - begin < 30


def test_something_else_listening_gives_up_after_the_timeout() -> None:
    """A port that accepts connections but is no Ray head: Ray would retry for minutes."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"127.0.0.1:{server.getsockname()[1]}"
        code = (
            "from confrontation.sim.backends import RayBackend\n"
            f"RayBackend({address!r}, connect_timeout=3)\n"
        )
        begin = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=_environment(),
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr.endswith(
        f"error: --ray-address {address}: no Ray cluster answered within 3 s\n"
    ), done.stderr
    assert time.monotonic() - begin < 30
