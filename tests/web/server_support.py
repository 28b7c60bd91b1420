"""Real servers for the load tests: `confrontation serve` as its own uvicorn process, and a
throwaway PostgreSQL cluster (Debian's server) on a free local port; both stopped at the end,
even on failure."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def confrontation_command() -> list[str]:
    """The `confrontation` command of this Python (its console script when installed)."""
    script = Path(sys.executable).parent / "confrontation"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from confrontation.cli import main; main()"]


@contextlib.contextmanager
def serve(db: str, log: Path, port: int | None = None, timeout: float = 60.0) -> Iterator[str]:
    """`confrontation serve --db DB` on ``port`` (default: a free one): its base URL once it
    answers; stopped (SIGTERM, then SIGKILL) on leaving. Its output goes to ``log``."""
    port = port or free_port()
    with log.open("ab") as out:
        process = subprocess.Popen(
            [*confrontation_command(), "serve", "--port", str(port), "--db", db],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"the server stopped: {log.read_text()[-2000:]}")
                with contextlib.suppress(httpx2.HTTPError):
                    if httpx2.get(f"{base}/api/options", timeout=5).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not answer in {timeout} s")
                time.sleep(0.2)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def postgres_bin() -> Path:
    """The directory of Debian's PostgreSQL server programs (the newest installed)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if not found:
        raise RuntimeError(
            "no PostgreSQL server: apt-get install postgresql (`make test-load` does)"
        )
    return Path(found[-1]).parent


def _version(path: str) -> int:
    return int(Path(path).parts[-3])


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster made for the test (initdb in a temporary directory, trust
    authentication, on a free port of 127.0.0.1, no fsync: it is thrown away), run as the
    ``postgres`` user when the test runs as root (the server refuses root); its SQLAlchemy
    URL (psycopg 3). Stopped and removed on leaving, even on failure."""
    bin_dir = postgres_bin()
    root = os.geteuid() == 0
    data = Path(tempfile.mkdtemp(prefix="confrontation-pg-"))
    as_user: list[str] = []
    if root:
        user = pwd.getpwnam("postgres")
        os.chown(data, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    pg_ctl = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data)]
    initdb = [*as_user, str(bin_dir / "initdb"), "-D", str(data), "-A", "trust"]
    started = False
    try:
        subprocess.run(
            [*initdb, "-U", "postgres", "-E", "UTF8", "--no-sync"],
            check=True,
            capture_output=True,
        )
        options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            [*pg_ctl, "-o", options, "-l", str(data / "server.log"), "-w", "-t", "60", "start"],
            check=True,
            capture_output=True,
        )
        started = True
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        if started:
            subprocess.run([*pg_ctl, "-m", "fast", "-w", "stop"], capture_output=True)
        shutil.rmtree(data, ignore_errors=True)
