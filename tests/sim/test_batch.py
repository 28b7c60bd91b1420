"""Batches of games: sides and armies alternate, seeds depend only on the batch seed and the
game's index, wins are counted per agent, Wilson intervals."""

from __future__ import annotations

import math
import os
import signal
import socket
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.sim.backends import (
    RETRIES,
    BackendError,
    LocalBackend,
    Placement,
    is_loopback,
    make_backend,
    split_address,
)
from confrontation.sim.batch import (
    Z_95,
    BatchResult,
    GameOutcome,
    game_seed,
    plan,
    play_spec,
    simulate,
    wilson,
)
from confrontation.store import Outcome

T = TypeVar("T")
R = TypeVar("R")


def test_four_games_give_each_agent_each_army_from_each_side() -> None:
    specs = plan(4, ("greedy", "random"), ("a.toml", "b.toml"), seed=1)
    greedy = {
        (spec.seats.index(0), spec.armies[spec.seats.index(0)]) for spec in specs
    }  # (side, army) of the first agent
    assert greedy == {(0, "a.toml"), (1, "a.toml"), (0, "b.toml"), (1, "b.toml")}
    assert [s.agents for s in specs] == [
        ("greedy", "random"),
        ("random", "greedy"),
        ("greedy", "random"),
        ("random", "greedy"),
    ]
    assert [s.armies for s in specs] == [
        ("a.toml", "b.toml"),
        ("a.toml", "b.toml"),
        ("b.toml", "a.toml"),
        ("b.toml", "a.toml"),
    ]


@given(st.integers(min_value=1, max_value=60), st.integers(min_value=0, max_value=2**40))
def test_agents_and_armies_stay_balanced(games: int, seed: int) -> None:
    specs = plan(games, ("x", "y"), ("A", "B"), seed=seed)
    for spec in specs:
        assert spec.agents == (("x", "y")[spec.seats[0]], ("x", "y")[spec.seats[1]])
        assert sorted(spec.seats) == [0, 1]
    sides = Counter(spec.seats[0] for spec in specs)
    assert abs(sides[0] - sides[1]) <= 1
    armies = Counter(spec.armies[spec.seats.index(0)] for spec in specs)
    assert abs(armies["A"] - armies["B"]) <= 2
    assert [s.seed for s in specs] == [game_seed(seed, i) for i in range(games)]


def test_game_seeds_are_fixed_by_batch_seed_and_index() -> None:
    seeds = [game_seed(7, i) for i in range(200)]
    assert len(set(seeds)) == 200
    assert all(0 <= s < 2**63 for s in seeds)
    assert game_seed(7, 3) == game_seed(7, 3) != game_seed(8, 3)


def test_wilson_interval_at_the_edges_and_by_symmetry() -> None:
    z2 = Z_95**2
    assert wilson(0, 10)[0] == 0.0
    assert wilson(0, 10)[1] == pytest.approx(z2 / (10 + z2))  # closed form for no success
    assert wilson(10, 10)[0] == pytest.approx(10 / (10 + z2))
    low, high = wilson(7, 20)
    other_low, other_high = wilson(13, 20)
    assert low == pytest.approx(1 - other_high) and high == pytest.approx(1 - other_low)
    assert low < 7 / 20 < high
    assert wilson(0, 0) == (0.0, 1.0)
    # Wide for few games, about ±1.96·sqrt(pq/n) for many.
    low, high = wilson(5000, 10000)
    assert high - low == pytest.approx(2 * Z_95 * math.sqrt(0.25 / 10000), rel=1e-3)


def test_wins_are_counted_per_agent_whatever_side_it_played() -> None:
    specs = plan(4, ("first", "second"), seed=0)
    # winners by player: game 0 player 0 (first), game 1 player 0 (second: sides swapped),
    # game 2 a draw, game 3 player 0 (second).
    winners = [0, 0, None, 0]
    outcomes = [
        GameOutcome(i, Outcome(w, (3, 1) if w == 0 else (1, 1), (10, 20), 6))
        for i, w in enumerate(winners)
    ]
    batch = BatchResult(specs, outcomes, 2.0, ("first", "second"), (None, None), None, 0)
    assert batch.wins() == (1, 2)
    assert batch.draws() == 1
    document = batch.to_json()
    assert document["wins"] == [1, 2] and document["games"] == 4 and document["draws"] == 1
    assert document["games_per_second"] == 2.0
    # first: VP 3 (game 0, player 0), 1 (game 1, player 1), 1, 1 (game 3, player 1)
    assert document["mean_vp"][0] == pytest.approx((3 + 1 + 1 + 1) / 4)
    assert document["mean_losses_ap"] == [pytest.approx(15.0), pytest.approx(15.0)]


def _square(x: int) -> int:
    return x * x


def test_the_local_backend_returns_every_result_with_its_position() -> None:
    """(Two jobs: ``test_results_do_not_depend_on_the_number_of_jobs`` of the CLI tests.)"""
    items = list(range(7))
    assert list(LocalBackend(1).map(_square, items)) == [(i, i * i) for i in items]


def test_backend_errors_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BackendError, match="at least 1"):
        make_backend("local", 0)
    with pytest.raises(BackendError, match="not one of"):
        make_backend("cluster", 1)
    monkeypatch.setitem(__import__("sys").modules, "ray", None)
    with pytest.raises(BackendError, match=r"pip install 'confrontation\[ray\]'"):
        make_backend("ray", 1)


@pytest.mark.parametrize(
    ("address", "host", "port", "loopback"),
    [
        ("127.0.0.1:6379", "127.0.0.1", 6379, True),
        ("ray://10.0.0.5:10001", "10.0.0.5", 10001, False),
        ("[::1]:6379", "::1", 6379, True),
        ("localhost:1234", "localhost", 1234, True),
        ("head.example:6379", "head.example", 6379, False),
    ],
)
def test_ray_addresses_are_split_into_host_and_port(
    address: str, host: str, port: int, loopback: bool
) -> None:
    assert split_address(address) == (host, port)
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("address", ["nonsense", "127.0.0.1:", ":6379", "h:0", "h:70000", "h:x"])
def test_a_ray_address_without_host_and_port_is_one_line(address: str) -> None:
    with pytest.raises(BackendError, match=r"--ray-address: give the head's HOST:PORT"):
        make_backend("ray", 1, address)


def test_a_ray_address_where_nothing_listens_fails_at_once() -> None:
    """Before Ray is imported at all (it would retry for minutes)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(BackendError, match=f"127.0.0.1:{port}: no Ray cluster there"):
        make_backend("ray", 1, f"127.0.0.1:{port}")


class _PlacedBackend:
    """Plays in this process and says each item ran on node "n<position % 2>"."""

    def __init__(self) -> None:
        self.placements: dict[int, Placement] = {}

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        for position, item in enumerate(items):
            self.placements[position] = Placement(f"n{position % 2}", 100 + position)
            yield position, fn(item)


def test_where_each_game_ran_is_in_the_json_only_when_the_backend_tells() -> None:
    specs = plan(2, ("random", "random"), rounds=1, seed=3)
    placed = simulate(specs, play_spec, backend=_PlacedBackend()).to_json()
    plain = simulate(specs, play_spec).to_json()
    assert [(g["node"], g["pid"]) for g in placed["results"]] == [("n0", 100), ("n1", 101)]
    assert all("node" not in g and "pid" not in g for g in plain["results"])
    strip = [{k: v for k, v in g.items() if k not in ("node", "pid")} for g in placed["results"]]
    assert strip == plain["results"]


def _square_where(x: int) -> tuple[int, int]:
    """x², and the process that worked it out (slow enough for both processes to play)."""
    time.sleep(0.05)
    return x * x, os.getpid()


def test_two_jobs_share_the_games_between_this_process_and_a_worker() -> None:
    items = list(range(10))
    results = list(LocalBackend(2).map(_square_where, items))
    assert sorted(position for position, _ in results) == items
    assert all(value == position * position for position, (value, _) in results)
    players = {pid for _, (_, pid) in results}
    assert os.getpid() in players  # this process plays too
    assert len(players) == 2  # and one worker


def test_the_same_seeds_give_the_same_games_with_one_and_two_jobs() -> None:
    """Whole records (every event), not only results: the sweep's figures do not depend on
    which process played which game (issue 22)."""
    specs = plan(5, ("greedy", "greedy"), seed=22, rounds=2, keep_events=True)
    one = simulate(specs, play_spec, backend=LocalBackend(1)).outcomes
    two = simulate(specs, play_spec, backend=LocalBackend(2)).outcomes
    assert [o.index for o in two] == list(range(5))
    assert one == two


def test_a_batch_can_drop_the_records_once_they_are_seen() -> None:
    """``simulate`` stores each record as it comes (``on_result``); the batch then keeps the
    outcomes only, so a 10,000-game stored sweep does not hold every game's events."""
    specs = plan(2, ("random", "random"), seed=5, rounds=1, keep_events=True)
    seen: list[GameOutcome] = []
    kept = simulate(specs, play_spec, on_result=lambda _, o: seen.append(o), keep_records=False)
    assert all(o.events and o.setup is not None for o in seen)
    assert [(o.events, o.setup) for o in kept.outcomes] == [(None, None), (None, None)]
    assert [o.outcome for o in kept.outcomes] == [o.outcome for o in seen]
    full = simulate(specs, play_spec)
    assert [o.events for o in full.outcomes] == [o.events for o in seen]


def _die_once(item: tuple[int, str, int]) -> int:
    """x², but the first worker to play a game dies (killed, as the system kills a process
    short of memory) before it finishes: ``marker`` says it has happened."""
    x, marker, parent = item
    if os.getpid() != parent and not os.path.exists(marker):
        with open(marker, "w"):
            pass
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.05)
    return x * x


def test_a_worker_that_dies_loses_no_game(tmp_path: Path) -> None:
    """Its games (the one it played and those queued for it) are played again in a new pool:
    every result comes once, the right one (the games are deterministic)."""
    marker = str(tmp_path / "died")
    items = [(x, marker, os.getpid()) for x in range(30)]
    backend = LocalBackend(2)
    results = list(backend.map(_die_once, items))
    assert sorted(position for position, _ in results) == list(range(30))
    assert all(value == position * position for position, value in results)
    assert os.path.exists(marker) and backend.deaths == 1


def _always_die(item: tuple[int, int]) -> int:
    """x² in this process; a worker dies on every game."""
    x, parent = item
    if os.getpid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.1)
    return x * x


def test_workers_that_keep_dying_stop_the_batch_in_one_line() -> None:
    backend = LocalBackend(2)
    with pytest.raises(BackendError) as caught:
        list(backend.map(_always_die, [(x, os.getpid()) for x in range(300)]))
    assert str(caught.value) == (
        f"a worker process died {RETRIES + 1} times (killed by the system, or a crash): "
        "the batch is stopped"
    )
