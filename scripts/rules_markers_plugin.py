"""pytest plugin for scripts/rules_coverage.py: record the ``rule`` marker of every collected test.

Loaded with ``-p rules_markers_plugin`` during ``pytest --collect-only`` (nothing is run), or
during ``make test``'s own run of the suite, so that ``make test`` collects the suite once.
It writes a JSON file (path in ``$RULES_MARKERS_OUT``)::

    {"items": [{"nodeid": ..., "function": ..., "rules": [[arg, ...], ...]}],
     "errors": [{"nodeid": ..., "message": ...}]}

``function`` is the node id without its parametrisation (``test_x[3]`` -> ``test_x``), so a
parametrised test counts once as a test and once per case.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

_errors: list[dict[str, str]] = []


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker even when pytest runs outside the project (tests of this tool)."""
    config.addinivalue_line("markers", "rule(section): the rule-document section(s) a test checks")


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """Remember files that failed to collect: their tests are missing from the counts."""
    if report.failed:
        lines = str(report.longrepr).strip().splitlines()
        _errors.append({"nodeid": report.nodeid, "message": lines[-1] if lines else "error"})


def pytest_collection_finish(session: pytest.Session) -> None:
    """Write every item's ``rule`` marker arguments (all markers: function, class, module)."""
    out = os.environ.get("RULES_MARKERS_OUT")
    if not out:
        return
    worker = getattr(session.config, "workerinput", None)
    if worker is not None and worker.get("workerid") != "gw0":
        return  # pytest-xdist: every worker collects the whole suite; the first one writes
    records: list[dict[str, Any]] = []
    for item in session.items:
        rules = [[_plain(arg) for arg in mark.args] for mark in item.iter_markers("rule")]
        function = item.nodeid.split("[", 1)[0]
        records.append({"nodeid": item.nodeid, "function": function, "rules": rules})
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"items": records, "errors": _errors}, handle)


def _plain(value: object) -> object:
    """A marker argument as JSON: strings stay strings, anything else becomes its repr."""
    return value if isinstance(value, str) else repr(value)
