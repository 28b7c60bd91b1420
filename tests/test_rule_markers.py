"""Every ``@pytest.mark.rule(...)`` in tests/ names a section of docs/rules-index.toml."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"


def _coverage_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rules_coverage", ROOT / "scripts" / "rules_coverage.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rules_coverage", module)
    spec.loader.exec_module(module)
    return module


def test_every_rule_marker_in_tests_names_an_indexed_section() -> None:
    coverage = _coverage_module()
    index = tomllib.loads((ROOT / "docs" / "rules-index.toml").read_text(encoding="utf-8"))
    ids = {entry["id"] for entry in index["section"]}
    uses = coverage.static_markers(TESTS)
    assert uses, "no rule marker found in tests/ (the scanner is broken)"
    bad = [
        f"{Path(path).relative_to(ROOT)}:{line}: {argument!r}"
        for path, line, argument in uses
        if coverage.marker_section(argument) not in ids
    ]
    assert not bad, "rule markers naming no section of docs/rules-index.toml:\n" + "\n".join(bad)
