"""Where ``simulate`` plays its games: local processes, or a Ray cluster (optional extra).

A backend maps a picklable function over items and yields ``(position, result)`` as the
results come in (in any order: the caller puts them back in order).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import select
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")


class BackendError(Exception):
    """A backend that cannot be used here (told in one line)."""


class Backend(Protocol):
    """Runs ``fn`` over ``items``; yields ``(position in items, result)`` as each finishes."""

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]: ...


def _die_with_parent(parent: int) -> None:
    """A worker's initializer: the worker ends when ``parent`` (the ``simulate`` process) ends,
    even killed by SIGKILL, rather than live on holding the caller's stdout open. The workers'
    own parent is the forkserver, which lives as long as they do, so a thread watches
    ``parent`` itself (Linux: a pidfd, readable once the process has ended)."""
    import signal

    # Ctrl-C reaches the whole process group: the parent stops the batch and terminates the
    # workers (no traceback of theirs on the terminal)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return
    try:
        watched = opener(parent)
    except ProcessLookupError:  # gone already
        os._exit(1)
    except OSError:  # no pidfd here (an old kernel)
        return

    def watch() -> None:
        select.select([watched], [], [])
        os._exit(1)

    threading.Thread(target=watch, name="watch the parent", daemon=True).start()


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the pool at once (an interrupted batch): queued games cancelled, running workers
    terminated rather than waited for."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)


TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"
"""The warning filter :func:`_quiet_tracker` gives multiprocessing's helper processes."""


def _quiet_tracker() -> None:
    """Start multiprocessing's resource tracker (a process, once) without its warning of
    "leaked semaphore objects": a batch stopped by Ctrl-C or SIGTERM leaves at once after its
    one error line (``cli/simulate.py``), and the tracker, which then unlinks the pool's
    semaphores itself, would print two lines of warning after it. The helper processes take
    this process's ``-W`` options (``sys.warnoptions``) when they start."""
    if TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(TRACKER_QUIET)


class LocalBackend:
    """``jobs`` local processes: this one and ``jobs - 1`` workers
    (``concurrent.futures.ProcessPoolExecutor``).

    This process plays games too, between handing back the workers' results: it is already
    running with warm caches and starts playing while a thread starts the workers, so no
    core waits for a worker to start, and on a machine with ``jobs`` cores no extra process
    competes with the games. Each worker has up to
    :attr:`AHEAD` games queued so that it never waits while this process plays a long game;
    when no game is left to hand out, this process takes back queued games a worker has not
    started (``Future.cancel``) rather than wait for them, so the batch ends within about one
    game of the ideal.
    """

    AHEAD = 4
    """Games queued per worker."""

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise BackendError(f"--jobs must be at least 1, not {jobs}")
        self.jobs = jobs
        self.deaths = 0
        """Workers that died while the batch ran (their games were played again)."""

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        if self.jobs == 1 or len(items) <= 1:
            for position, item in enumerate(items):
                yield position, fn(item)
            return
        # forkserver: workers start from a clean process, not a fork of one running threads
        # (the progress bar's); the game modules are imported once, in the server.
        _quiet_tracker()
        context = get_context("forkserver")
        context.set_forkserver_preload(["confrontation.sim.batch"])
        queue = iter(enumerate(items))
        handing = threading.Lock()  # the queue, shared with the thread starting the workers
        waiting: dict[Future[R], int] = {}
        again: list[int] = []  # games lost with a worker that died, played first
        pools = [self._pool(context)]

        def take() -> tuple[int, T] | None:
            with handing:
                if again:
                    position = again.pop()
                    return position, items[position]
                return next(queue, None)

        def top_up() -> None:
            while len(waiting) < self.AHEAD * (self.jobs - 1):
                following = take()
                if following is None:
                    return
                waiting[pools[-1].submit(fn, following[1])] = following[0]

        def own_game() -> tuple[int, T] | None:
            """The next game this process plays: a new one, else one taken back."""
            following = take()
            if following is not None:
                return following
            for future in sorted(waiting, key=waiting.__getitem__, reverse=True):
                if future.cancel():
                    position = waiting.pop(future)
                    return position, items[position]
            return None

        def finished(futures: list[Future[R]]) -> Iterator[tuple[int, R]]:
            """The results of ``futures`` (done); when a worker died (killed by the system
            for its memory, a crash), the pool is broken: every game it held is played
            again, in a new pool (at most :data:`RETRIES` times a batch)."""
            for future in futures:
                if future not in waiting:
                    continue  # a game of a broken pool, already put back
                try:
                    result = future.result()
                except BrokenProcessPool:
                    self.deaths += 1
                    if self.deaths > RETRIES:
                        raise BackendError(
                            f"a worker process died {self.deaths} times (killed by the "
                            "system, or a crash): the batch is stopped"
                        ) from None
                    sys.stderr.write(
                        "warning: a worker process died (killed by the system, or a crash); "
                        "its games are played again\n"
                    )
                    with handing:
                        again.extend(sorted(waiting.values(), reverse=True))
                    waiting.clear()
                    _stop(pools[-1])
                    pools.append(self._pool(context))
                    return
                yield waiting.pop(future), result

        # The first submissions start the forkserver and the workers (seconds of imports on a
        # busy machine): a thread waits for that while this process plays.
        failed: list[BaseException] = []

        def start() -> None:
            try:
                top_up()
            except BaseException as error:  # raised again in this thread below
                failed.append(error)

        starting = threading.Thread(target=start, name="start workers", daemon=True)
        starting.start()
        try:
            while starting.is_alive():
                mine = take()
                if mine is None:
                    break
                yield mine[0], fn(mine[1])
            starting.join()
            if failed:
                raise failed[0]
            while True:
                yield from finished([f for f in waiting if f.done()])
                top_up()
                mine = own_game()
                if mine is None:
                    break
                yield mine[0], fn(mine[1])
            while waiting:
                done, _ = wait(waiting, return_when=FIRST_COMPLETED)
                yield from finished(list(done))
                top_up()  # (a broken pool's games, put back, to the new pool)
        except BaseException:  # Ctrl-C, SIGTERM (simulate), an error: stop the workers
            _stop(pools[-1])
            raise
        else:
            pools[-1].shutdown(wait=True)
        finally:
            starting.join()
            for future in waiting:
                future.cancel()

    def _pool(self, context: Any) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.jobs - 1,
            mp_context=context,
            initializer=_die_with_parent,
            initargs=(os.getpid(),),
        )


RETRIES = 5
"""How many times Ray runs a game again whose worker or node died (its task's
``max_retries``; a game that raises is not retried: the engine is deterministic)."""

CONNECT_TIMEOUT = 60.0
"""Seconds to join a cluster before ``--ray-address`` is given up (Ray itself retries for
minutes when something that is not a Ray head listens there)."""


@dataclass(frozen=True)
class Placement:
    """Where Ray played one item: the node's id (hex) and the worker process."""

    node: str
    pid: int


def run_placed(fn: Callable[[T], R], item: T) -> tuple[R, Placement]:
    """``fn(item)`` and the node and process that ran it (the body of a Ray task; its
    process is titled ``ray::run_placed`` while it runs)."""
    import ray

    return fn(item), Placement(ray.get_runtime_context().get_node_id(), os.getpid())


def split_address(address: str) -> tuple[str, int]:
    """``host:port`` (a ``ray://`` or ``[ipv6]`` form too) → host and port; a BackendError
    when it is not one."""
    text = address.removeprefix("ray://")
    host, colon, port = text.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BackendError(f"--ray-address: give the head's HOST:PORT, not {address!r}")
    return host, int(port)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine's loopback interface (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_listening(address: str, timeout: float) -> None:
    """A BackendError at once when nothing accepts connections at ``address``."""
    host, port = split_address(address)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise BackendError(
            f"--ray-address {address}: no Ray cluster there ({reason.lower()}); "
            "start one with `ray start --head` or check the head's address and port"
        ) from None


class RayBackend:
    """Games as Ray tasks on a running cluster (``address``, the head's ``HOST:PORT``) or a
    Ray started in this process (None). A task whose worker or node dies is run again
    (``retries`` times); :attr:`placements` tells where each item of the last :meth:`map`
    ran."""

    def __init__(
        self,
        address: str | None = None,
        *,
        retries: int = RETRIES,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        if address is not None:
            _check_listening(address, min(connect_timeout, 10.0))
            if is_loopback(split_address(address)[0]):
                # Ray on Linux turns a loopback address into the machine's own (to reach
                # other nodes); a cluster started on 127.0.0.1 listens there only.
                os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        try:
            import ray
        except ImportError:
            raise BackendError(
                "the ray backend needs Ray: pip install 'confrontation[ray]'"
            ) from None
        self.ray: Any = ray
        self.retries = retries
        self.placements: dict[int, Placement] = {}
        if not ray.is_initialized():
            self._connect(address, connect_timeout)

    def _connect(self, address: str | None, timeout: float) -> None:
        """``ray.init``; past ``timeout`` seconds the process ends with one line on stderr
        (Ray's own connection retries cannot be interrupted)."""
        where = f"--ray-address {address}" if address is not None else "the local Ray"
        message = f"error: {where}: no Ray cluster answered within {timeout:g} s\n"
        watchdog = threading.Timer(timeout, _give_up, args=(message,))
        watchdog.daemon = True
        watchdog.start()
        _errors_to_stderr(self.ray)
        try:
            self.ray.init(
                address=address,
                ignore_reinit_error=True,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        except Exception as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise BackendError(f"{where}: cannot join the Ray cluster: {first}") from None
        finally:
            watchdog.cancel()

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        remote = self.ray.remote(max_retries=self.retries, retry_exceptions=False)(run_placed)
        self.placements = {}
        refs = {remote.remote(fn, item): position for position, item in enumerate(items)}
        while refs:
            done, _ = self.ray.wait(list(refs), num_returns=1)
            for ref in done:
                position = refs.pop(ref)
                result, self.placements[position] = self._get(ref, position)
                yield position, result

    def _get(self, ref: Any, position: int) -> Any:
        """A task's result; a BackendError when Ray gave it up (its node died more than
        ``retries`` times). An exception the game itself raised goes through as it is."""
        errors = self.ray.exceptions
        try:
            return self.ray.get(ref)
        except errors.RayTaskError:
            raise
        except errors.RayError as error:
            lines = str(error).strip().splitlines()
            raise BackendError(
                f"item {position} lost after {self.retries} retries: "
                f"{lines[0] if lines else type(error).__name__}"
            ) from None


def _errors_to_stderr(ray: Any) -> None:
    """Send the cluster's messages to the driver ("Task run_placed failed. There are 5
    retries remaining…") to stderr: Ray prints them on stdout, where ``--json`` writes."""
    module = ray._private.worker
    tell = module.print_to_stdstream
    if getattr(tell, "to_stderr", False):
        return

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> None:
        tell({**data, "is_err": True}, ignore_prefix)

    to_stderr.to_stderr = True  # type: ignore[attr-defined]
    module.print_to_stdstream = to_stderr


def _give_up(message: str) -> None:
    """End the process at once with ``message`` on stderr (exit 2, like a bad option)."""
    sys.stderr.write(message)
    sys.stderr.flush()
    os._exit(2)


def make_backend(name: str, jobs: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name`` ("local" or "ray")."""
    if name == "local":
        return LocalBackend(jobs)
    if name == "ray":
        return RayBackend(address)
    raise BackendError(f"--backend: {name!r} is not one of {', '.join(BACKENDS)}")
