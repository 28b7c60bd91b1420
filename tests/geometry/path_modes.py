"""Fixtures that run path tests with every question answered by the plain search (the
default, ``PathGraph.plain``) and with later questions answered by the graph."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from confrontation.geometry.paths import PathGraph


@pytest.fixture(autouse=True, params=[True, False], ids=["plain", "graph"])
def both_path_modes(request: pytest.FixtureRequest) -> Iterator[None]:
    was = PathGraph.plain
    PathGraph.plain = request.param
    try:
        yield
    finally:
        PathGraph.plain = was


@pytest.fixture(autouse=True)
def graph_mode() -> Iterator[None]:
    was = PathGraph.plain
    PathGraph.plain = False
    try:
        yield
    finally:
        PathGraph.plain = was
