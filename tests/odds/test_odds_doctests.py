"""The doctested examples of confrontation.odds (so `make test` runs them)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["exact", "combat", "advise", "montecarlo", "__init__"]


@pytest.mark.rule("VII-C-4")
@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(
        "confrontation.odds" if name == "__init__" else f"confrontation.odds.{name}"
    )
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name != "__init__":
        assert result.attempted > 0
