"""The rules index (docs/rules-index.toml) and the coverage tool (scripts/rules_coverage.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT / "docs" / "rules-index.toml"
RULES_DIR = ROOT.parent / "shared" / "rules"


def _load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


coverage = _load_script("rules_coverage")

# Every body heading of the Confédé rulebook (001), read off the book.
CONFEDE_HEADINGS = [
    *["I-A", "I-B", "I-C", "I-D"],
    *[f"I-D-{n}" for n in range(1, 10)],
    *["II-A", *[f"II-A-{n}" for n in range(1, 5)]],
    *["II-B", *[f"II-B-{n}" for n in range(1, 7)]],
    *["II-C", *[f"II-C-{n}" for n in range(1, 6)]],
    *["II-D", *[f"II-D-{n}" for n in range(1, 5)]],
    *["II-E", *[f"II-E-{n}" for n in range(1, 4)]],
    *["II-F", "II-F-1", "II-F-2"],
    *["III-A", "III-A-1", "III-A-2", "III-A-3", "III-B", "III-B-1", "III-B-2"],
    *["IV-A", "IV-A-1", "IV-A-2", "IV-B", "IV-B-1", "IV-B-2", "IV-C"],
    *["IV-D", "IV-D-1", "IV-D-2", "IV-D-3"],
    *["V-A", "V-B", "V-B-1", "V-B-2", "V-B-3", "V-B-4", "V-C", "V-D"],
    *["VI-A", "VI-A-1", "VI-A-2", "VI-A-3", "VI-B", "VI-B-1", "VI-B-2", "VI-B-3"],
    *["VII-A", "VII-B", "VII-C", *[f"VII-C-{n}" for n in range(1, 7)]],
]
CHAPTER_20_HEADINGS = [
    *["XX-A", *[f"XX-A-{n}" for n in range(1, 6)]],
    *["XX-B", "XX-B-1", "XX-B-2", "XX-B-3"],
    *["XX-C", *[f"XX-C-{n}" for n in range(1, 5)]],
    *["XX-D", "XX-D-1", "XX-D-2", "XX-D-3"],
    *["XX-E", *[f"XX-E-{n}" for n in range(1, 7)]],
    *["XX-F", *[f"XX-F-{n}" for n in range(1, 7)]],
]


@pytest.fixture(autouse=True)
def _bare_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tool's pytest child collects the tiny projects below without the installed
    plugins (schemathesis, hypothesis, xdist, anyio: 4 s of imports a collection on this
    machine, 0.5 s without); the tool passes its environment on. Its collection of the
    real suite (``make rules-check``) keeps them."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


@pytest.fixture(scope="module")
def sections() -> list[dict[str, object]]:
    data = tomllib.loads(INDEX.read_text(encoding="utf-8"))
    entries = data["section"]
    assert isinstance(entries, list)
    return entries


def test_index_parses_with_the_fields_of_every_entry(sections: list[dict[str, object]]) -> None:
    loaded = coverage.load_index(INDEX)
    assert len(loaded) == len(sections) > 200
    for entry in sections:
        assert {"id", "title", "document", "line", "level"} <= entry.keys(), entry
        assert isinstance(entry["line"], int) and entry["line"] >= 1
        assert str(entry["document"])[:3] in {"000", "001", "002", "003", "004"}


def test_ids_are_unique(sections: list[dict[str, object]]) -> None:
    ids = [entry["id"] for entry in sections]
    assert len(ids) == len(set(ids))


def test_every_rulebook_body_heading_is_indexed_and_nothing_else(
    sections: list[dict[str, object]],
) -> None:
    by_document: dict[str, list[object]] = {}
    for entry in sections:
        by_document.setdefault(str(entry["document"])[:3], []).append(entry["id"])
    assert by_document["001"] == CONFEDE_HEADINGS
    assert by_document["004"] == CHAPTER_20_HEADINGS
    prefixes = {"000": "C3-", "002": "C4-", "003": "CP-"}
    for key, prefix in prefixes.items():
        assert by_document[key] and all(str(i).startswith(prefix) for i in by_document[key])


def test_rulebook_entries_point_at_the_body_heading_not_the_contents(
    sections: list[dict[str, object]],
) -> None:
    lines = {str(e["id"]): e["line"] for e in sections}
    # Contents of 001 are lines 25-133; the body headings are further down.
    assert lines["I-A"] == 176
    assert lines["II-A-1"] == 465
    assert lines["II-B-6"] == 599
    assert lines["VII-C-4"] == 1263
    assert lines["XX-E-4"] == 322
    assert all(
        isinstance(line := e["line"], int) and line > 170
        for e in sections
        if str(e["document"]).startswith("001")
    )


def test_entries_match_the_documents_when_they_are_at_hand(
    sections: list[dict[str, object]],
) -> None:
    """With ../shared/rules present, every entry's line holds its heading (renamed garbled
    headings aside) and the index is what the builder produces today."""
    if not RULES_DIR.is_dir():
        return  # the documents live outside the repository; the checks above still hold
    texts: dict[str, list[str]] = {}
    for entry in sections:
        document = str(entry["document"])
        lines = texts.setdefault(
            document, (RULES_DIR / document).read_text(encoding="utf-8").splitlines()
        )
        text = lines[int(str(entry["line"])) - 1]
        if "column" in entry:
            text = text[int(str(entry["column"])) - 1 :]
        title = str(entry["title"])
        if "scanned as" in title or entry["id"] == "C4-FIELD-OF-VISION-AND-LINE-OF-SIGHT":
            continue
        assert title.lower() in text[:200].lower(), (entry["id"], text[:80])
    builder = _load_script("build_rules_index")
    assert builder.render(builder.build(RULES_DIR)) == INDEX.read_text(encoding="utf-8")


IDS = ["II-A", "II-A-1", "II-A-2", "II-C-4", "VII-C-4", "C3-LOOTING", "C3-LOOTING-TOKENS"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# II-A-2", ["II-A-2"]),
        ("(II-A) and II-A-1", ["II-A", "II-A-1"]),
        ("II-A-1 only", ["II-A-1"]),
        ("# VII-C-4 b", ["VII-C-4"]),
        ("VII-C-4 b) then", ["VII-C-4"]),
        ("VII-C-4, not II-C-4 inside it", ["VII-C-4", "II-C-4"]),
        ("II-A-12 and II-AB and XII-A-1", []),
        ("II-A-3 is not indexed here", []),
        ("C3-LOOTING; C3-LOOTING-TOKENS; C3-LOOTING-X", ["C3-LOOTING", "C3-LOOTING-TOKENS"]),
        ("II-A-1/II-A-2.", ["II-A-1", "II-A-2"]),
    ],
)
def test_citation_matcher_boundaries(text: str, expected: list[str]) -> None:
    assert coverage.find_citations(text, coverage.citation_pattern(IDS)) == expected


@pytest.mark.parametrize(
    ("argument", "section"),
    [("II-A-1", "II-A-1"), ("VII-C-4 b", "VII-C-4"), ("VII-C-4 b)", "VII-C-4"), ("II-A", "II-A")],
)
def test_marker_argument_names_its_section(argument: str, section: str) -> None:
    assert coverage.marker_section(argument) == section


def test_unknown_markers_are_reported_and_known_ones_are_not() -> None:
    uses = [
        ("t.py::a", "t.py::a", "II-A-1"),
        ("t.py::b", "t.py::b", "II-A-9"),
        ("t.py::c", "t.py::c", "VII-C-4 b"),
        ("t.py::d", "t.py::d", "II-a-1"),
    ]
    assert coverage.unknown_markers(uses, {"II-A-1", "VII-C-4"}) == [
        ("t.py::b", "II-A-9"),
        ("t.py::d", "II-a-1"),
    ]


def test_required_prefixes_cover_the_section_and_its_children() -> None:
    index = [coverage.Section(i, i, "001_x.txt", 1) for i in ["II-A", "II-A-1", "II-AB", "II-B"]]
    assert coverage.required_sections(index, [], ["II-A"]) == ["II-A", "II-A-1"]
    with pytest.raises(coverage.UsageError):
        coverage.required_sections(index, ["II-Z"], [])


def _project(tmp_path: Path, tests: str) -> list[str]:
    """A tiny project: an index of three sections, one cited module, one test file."""
    (tmp_path / "index.toml").write_text(
        textwrap.dedent(
            """
            [[section]]
            id = "II-A"
            title = "Characteristic test"
            document = "001_x.txt"
            line = 1
            [[section]]
            id = "II-A-1"
            title = "The '1' and the '6'"
            document = "001_x.txt"
            line = 2
            [[section]]
            id = "XX-E-4"
            title = "Combat"
            document = "004_y.txt"
            line = 3
            """
        ),
        encoding="utf-8",
    )
    src = tmp_path / "src"
    src.mkdir()
    (src / "dice.py").write_text('"""Raises (II-A-1)."""\n\nX = 1  # VII-C-4 b\n')
    test_dir = tmp_path / "tests"
    test_dir.mkdir()
    (test_dir / "test_sample.py").write_text(textwrap.dedent(tests), encoding="utf-8")
    return ["--index", str(tmp_path / "index.toml"), "--src", str(src), "--tests", str(test_dir)]


GOOD_TESTS = """
    import pytest

    @pytest.mark.rule("II-A-1")
    @pytest.mark.parametrize("n", [1, 2, 3])
    def test_a(n):
        raise AssertionError("collection must not run tests")

    @pytest.mark.rule("II-A-1", "XX-E-4")
    def test_b():
        raise AssertionError("collection must not run tests")
"""


def test_tool_counts_collected_markers_and_citations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _project(tmp_path, GOOD_TESTS)
    assert coverage.main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {row["id"]: row for row in report["sections"]}
    assert (rows["II-A-1"]["cited"], rows["II-A-1"]["tests"], rows["II-A-1"]["cases"]) == (
        True,
        2,
        4,
    )
    assert (rows["II-A"]["cited"], rows["II-A"]["tests"]) == (False, 0)
    assert (rows["XX-E-4"]["cited"], rows["XX-E-4"]["tests"]) == (False, 1)
    assert report["totals"] == {
        "sections": 3,
        "cited": 1,
        "tested": 2,
        "covered": 1,
        "not_applicable": 0,
    }
    assert report["unknown_markers"] == []

    assert coverage.main([*args, "--json", "--document", "004", "--missing"]) == 0
    assert [r["id"] for r in json.loads(capsys.readouterr().out)["sections"]] == ["XX-E-4"]

    assert coverage.main([*args, "--require", "II-A-1"]) == 0
    capsys.readouterr()
    assert coverage.main([*args, "--require-prefix", "II-A"]) == 1
    assert "required section II-A is not cited in code nor tested" in capsys.readouterr().err


def test_tool_fails_on_a_marker_that_is_not_in_the_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _project(
        tmp_path,
        """
        import pytest

        @pytest.mark.rule("II-A-7")
        def test_typo():
            pass
        """,
    )
    assert coverage.main(args) == 1
    assert "rule marker 'II-A-7' is not in index.toml" in capsys.readouterr().err


def test_tool_rejects_bad_usage_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _project(tmp_path, GOOD_TESTS)
    assert coverage.main([*args, "--document", "009"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown document '009'" in err
    assert coverage.main([*args, "--require", "II-Z-1"]) == 2
    assert "unknown section 'II-Z-1'" in capsys.readouterr().err
    assert coverage.main(["--index", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read the rules index" in capsys.readouterr().err


def test_a_section_declared_not_applicable_is_settled_not_covered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A citation on a line saying "not applicable" reports the section as n/a: not
    missing, not covered, required sections satisfied — unless a test marks it."""
    args = _project(tmp_path, GOOD_TESTS)
    (tmp_path / "src" / "na.py").write_text("# II-A: not applicable (another game's rule)\n")
    assert coverage.main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {row["id"]: row for row in report["sections"]}
    assert rows["II-A"]["not_applicable"] and not rows["II-A"]["cited"]
    (where,) = rows["II-A"]["not_applicable_citations"]
    assert where.endswith("na.py:1")
    assert report["totals"]["not_applicable"] == 1 and report["totals"]["covered"] == 1
    assert coverage.main([*args, "--json", "--missing"]) == 0
    assert [r["id"] for r in json.loads(capsys.readouterr().out)["sections"]] == ["XX-E-4"]
    assert coverage.main([*args, "--require-prefix", "II-A"]) == 0
    capsys.readouterr()
    # a test marking it applies it: then it must be cited plainly like any other
    marked = GOOD_TESTS + '\n    @pytest.mark.rule("II-A")\n    def test_c():\n        pass\n'
    other = tmp_path / "marked"
    other.mkdir()
    args = _project(other, marked)
    (other / "src" / "na.py").write_text("# II-A: not applicable (another game's rule)\n")
    assert coverage.main([*args, "--require-prefix", "II-A"]) == 1
    assert "required section II-A is not cited in code" in capsys.readouterr().err


def test_a_kept_collection_is_written_once_and_read_after(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--markers-file``: the first run collects and keeps the markers; a later run reads
    them and does not collect (a test added meanwhile is not seen), and a broken file is a
    one-line usage error."""
    args = _project(tmp_path, GOOD_TESTS)
    kept = tmp_path / "markers.json"
    assert coverage.main([*args, "--json", "--markers-file", str(kept)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert kept.exists()
    more = GOOD_TESTS + '\n    @pytest.mark.rule("II-A")\n    def test_c():\n        pass\n'
    (tmp_path / "tests" / "test_sample.py").write_text(textwrap.dedent(more), encoding="utf-8")
    assert coverage.main([*args, "--json", "--markers-file", str(kept)]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert coverage.main([*args, "--json"]) == 0
    fresh = {r["id"]: r["tests"] for r in json.loads(capsys.readouterr().out)["sections"]}
    assert fresh["II-A"] == 1
    kept.write_text("[1, 2", encoding="utf-8")
    assert coverage.main([*args, "--markers-file", str(kept)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a marker collection" in err
