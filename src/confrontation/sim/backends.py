"""Where ``simulate`` plays its games: local processes, or a Ray cluster (optional extra).

A backend maps a picklable function over items and yields ``(position, result)`` as the
results come in (in any order: the caller puts them back in order).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
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

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        if self.jobs == 1 or len(items) <= 1:
            for position, item in enumerate(items):
                yield position, fn(item)
            return
        # forkserver: workers start from a clean process, not a fork of one running threads
        # (the progress bar's); the game modules are imported once, in the server.
        context = get_context("forkserver")
        context.set_forkserver_preload(["confrontation.sim.batch"])
        queue = iter(enumerate(items))
        handing = threading.Lock()  # the queue, shared with the thread starting the workers
        waiting: dict[Future[R], int] = {}

        def take() -> tuple[int, T] | None:
            with handing:
                return next(queue, None)

        with ProcessPoolExecutor(max_workers=self.jobs - 1, mp_context=context) as pool:

            def top_up() -> None:
                while len(waiting) < self.AHEAD * (self.jobs - 1):
                    following = take()
                    if following is None:
                        return
                    waiting[pool.submit(fn, following[1])] = following[0]

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

            # The first submissions start the forkserver and the workers (seconds of imports
            # on a busy machine): a thread waits for that while this process plays.
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
                    for future in [f for f in waiting if f.done()]:
                        yield waiting.pop(future), future.result()
                    top_up()
                    mine = own_game()
                    if mine is None:
                        break
                    yield mine[0], fn(mine[1])
                while waiting:
                    done, _ = wait(waiting, return_when=FIRST_COMPLETED)
                    for future in done:
                        yield waiting.pop(future), future.result()
            finally:
                starting.join()
                for future in waiting:
                    future.cancel()


class RayBackend:
    """Games as Ray tasks on a running cluster (``address``) or a local Ray (None)."""

    def __init__(self, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError(
                "the ray backend needs Ray: pip install 'confrontation[ray]'"
            ) from None
        self.ray: Any = ray
        if not ray.is_initialized():
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        remote = self.ray.remote(fn)
        refs = {remote.remote(item): position for position, item in enumerate(items)}
        while refs:
            done, _ = self.ray.wait(list(refs), num_returns=1)
            for ref in done:
                yield refs.pop(ref), self.ray.get(ref)


def make_backend(name: str, jobs: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name`` ("local" or "ray")."""
    if name == "local":
        return LocalBackend(jobs)
    if name == "ray":
        return RayBackend(address)
    raise BackendError(f"--backend: {name!r} is not one of {', '.join(BACKENDS)}")
