"""Rule coverage: for every section of docs/rules-index.toml, whether code cites it and how
many tests check it.

    python scripts/rules_coverage.py [--json] [--document 001] [--missing]
                                     [--require II-A-1 II-B-6] [--require-prefix II-A,II-B]

* Cited: a comment or string (docstring) in ``src/`` (``*.py``; any text of ``*.toml`` data
  files) names the id: ``# II-A-2``, ``(II-B-6)``, ``VII-C-4 b``. An id only counts where it
  does not run into more id characters: "II-A-1" cites II-A-1, not II-A; "VII-C-4 b" cites
  VII-C-4; "VII-C-4" does not cite II-C-4.
* Not applicable: a citation whose line also says "not applicable" (``# CP-SOLO: not
  applicable, docs/rulings.md …``) declares that the section has nothing to apply in this
  game (a rule of another game's model types): the section is reported as "n/a" — settled,
  neither missing nor counted as covered — as long as no test marks it (a tested section is
  applied, and reported as usual).
* Tested: tests marked ``@pytest.mark.rule("II-A-1", ...)``, counted by collecting the test
  suite with pytest (``--collect-only``: nothing runs). A parametrised test counts once in
  ``tests`` and once per case in ``cases``.

Exit status: 0; 1 when a ``rule`` marker names an id that is not in the index (a typo guard)
or a required section is not both cited and tested; 2 on bad usage or an unreadable index.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import tokenize
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_INDEX = ROOT / "docs" / "rules-index.toml"
PLUGIN = "rules_markers_plugin"

DOCUMENT_NAMES = {
    "000": "C3 tournament scenario rules",
    "001": "Confédé rulebook, chapters 1-7",
    "002": "Unit-based ruleset (C4)",
    "003": "Control-point scenario pack",
    "004": "Confédé chapter 20, scenarios",
}

# A marker or citation may name a lettered/numbered step of a section: "VII-C-4 b",
# "VII-C-4 b)", "II-A-3 1)". The step is not an index entry; the section is.
STEP_SUFFIX = re.compile(r"^(?P<id>\S+?)(?:\s+\(?[a-z0-9]\)?)?$")
ID_CHARS = r"A-Za-z0-9"


class UsageError(Exception):
    """Bad command line or unreadable input: one line on stderr, exit 2."""


@dataclass(frozen=True)
class Section:
    """One entry of the rules index."""

    id: str
    title: str
    document: str
    line: int


@dataclass
class Coverage:
    """What cites and what tests one section."""

    section: Section
    citations: list[str] = field(default_factory=list)
    tests: set[str] = field(default_factory=set)
    cases: int = 0
    inapplicable: list[str] = field(default_factory=list)
    """The citations (path:line) that declare the section not applicable."""

    @property
    def cited(self) -> bool:
        return bool(self.citations)

    @property
    def covered(self) -> bool:
        return self.cited and bool(self.tests)

    @property
    def not_applicable(self) -> bool:
        """Declared not applicable in code, and no test applies it."""
        return bool(self.inapplicable) and not self.tests

    @property
    def settled(self) -> bool:
        """Covered, or declared not applicable: not missing."""
        return self.covered or self.not_applicable


@dataclass
class MarkerReport:
    """The ``rule`` markers found by collecting the tests."""

    uses: list[tuple[str, str, str]]  # (nodeid, function, raw marker argument)
    errors: list[dict[str, str]]


# --- the index ---------------------------------------------------------------------------


def load_index(path: Path) -> list[Section]:
    """Read docs/rules-index.toml; raise UsageError naming the file and field if malformed."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"{path}: cannot read the rules index ({error.strerror})") from error
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"{path}: not valid TOML ({error})") from error
    entries = data.get("section")
    if not isinstance(entries, list) or not entries:
        raise UsageError(f"{path}: no [[section]] entries")
    sections: list[Section] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        try:
            section = Section(
                str(entry["id"]), str(entry["title"]), str(entry["document"]), int(entry["line"])
            )
        except (KeyError, TypeError, ValueError) as error:
            raise UsageError(f"{path}: section #{number} lacks a valid field {error}") from error
        if section.id in seen:
            raise UsageError(f"{path}: section id {section.id!r} appears twice")
        seen.add(section.id)
        sections.append(section)
    return sections


# --- citations in code -------------------------------------------------------------------


def citation_pattern(ids: Iterable[str]) -> re.Pattern[str]:
    """One regex finding every indexed id as a whole token.

    Longest ids first, so "II-A-1" wins over "II-A" at the same place; the boundaries stop an
    id from matching inside a longer one ("II-A" in "II-A-1", "II-C-4" in "VII-C-4").
    """
    alternatives = "|".join(re.escape(i) for i in sorted(set(ids), key=len, reverse=True))
    return re.compile(rf"(?<![{ID_CHARS}-])(?:{alternatives})(?![{ID_CHARS}])(?!-[{ID_CHARS}])")


def find_citations(text: str, pattern: re.Pattern[str]) -> list[str]:
    """The ids cited in ``text``, in order of appearance (repeats kept)."""
    return [match.group(0) for match in pattern.finditer(text)]


def _python_text(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every comment and string literal of a Python file."""
    source = path.read_text(encoding="utf-8")
    pieces: list[tuple[int, str]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.COMMENT, tokenize.STRING):
                pieces.append((token.start[0], token.string))
    except (tokenize.TokenError, SyntaxError):
        # A file being edited may not tokenize: fall back to its raw lines.
        pieces = list(enumerate(source.splitlines(), start=1))
    return pieces


NOT_APPLICABLE = re.compile(r"not\s+applicable", re.IGNORECASE)
"""A citation on a line that says this declares its section not applicable."""


def source_citations(src: Path, pattern: re.Pattern[str], root: Path) -> dict[str, list[str]]:
    """id -> ["path:line", ...] for every citation under ``src`` (*.py and *.toml); a
    citation on a line that says "not applicable" is marked ``"path:line n/a"``."""
    found: dict[str, list[str]] = {}
    files = sorted([*src.rglob("*.py"), *src.rglob("*.toml")])
    for path in files:
        try:
            pieces = (
                _python_text(path)
                if path.suffix == ".py"
                else list(enumerate(path.read_text(encoding="utf-8").splitlines(), start=1))
            )
        except (OSError, UnicodeDecodeError):
            continue
        where = path.relative_to(root) if path.is_relative_to(root) else path
        for first_line, text in pieces:
            for offset, line_text in enumerate(text.splitlines() or [text]):
                na = " n/a" if NOT_APPLICABLE.search(line_text) else ""
                for section_id in find_citations(line_text, pattern):
                    found.setdefault(section_id, []).append(f"{where}:{first_line + offset}{na}")
    return found


# --- markers in tests --------------------------------------------------------------------


def marker_section(argument: str) -> str:
    """The section a marker argument names: "VII-C-4 b" -> "VII-C-4"."""
    match = STEP_SUFFIX.match(argument.strip())
    return match["id"] if match else argument


def collect_markers(tests: Path, root: Path, kept: Path | None = None) -> MarkerReport:
    """Collect ``tests`` with pytest (no test runs) and return every ``rule`` marker use.
    ``kept``: a file of an earlier collection to read instead, written by this one when it
    does not exist yet (``make rules-check`` checks five documents with one collection)."""
    if kept is not None and kept.exists():
        try:
            return _marker_report(json.loads(kept.read_text(encoding="utf-8")))
        except (ValueError, KeyError, TypeError) as error:
            raise UsageError(f"--markers-file {kept}: not a marker collection ({error})") from None
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "markers.json"
        env = dict(os.environ)
        env["RULES_MARKERS_OUT"] = str(out)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(Path(__file__).resolve().parent), env.get("PYTHONPATH")) if p
        )
        command = [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            PLUGIN,
            "-p",
            "no:cacheprovider",
            "--continue-on-collection-errors",
            str(tests),
        ]
        result = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
        if not out.exists():
            tail = (result.stderr or result.stdout).strip().splitlines()
            reason = tail[-1] if tail else f"exit status {result.returncode}"
            raise UsageError(f"collecting {tests} with pytest failed: {reason}")
        data = json.loads(out.read_text(encoding="utf-8"))
    if kept is not None:
        kept.write_text(json.dumps(data), encoding="utf-8")
    return _marker_report(data)


def _marker_report(data: dict[str, Any]) -> MarkerReport:
    """The marker uses and collection errors of a collection's JSON."""
    uses: list[tuple[str, str, str]] = []
    for item in data["items"]:
        for arguments in item["rules"]:
            if not arguments:
                uses.append((item["nodeid"], item["function"], ""))
            for argument in arguments:
                uses.append((item["nodeid"], item["function"], str(argument)))
    return MarkerReport(uses=uses, errors=list(data["errors"]))


def static_markers(tests: Path) -> list[tuple[str, int, str]]:
    """Every literal argument of ``pytest.mark.rule(...)`` / ``mark.rule(...)`` under ``tests``,
    found by reading the source (no import): (path, line, argument). A non-literal argument
    is returned as its source text, so a check can reject it."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(tests.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError, OSError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if not (isinstance(func, ast.Attribute) and func.attr == "rule"):
                continue
            owner = func.value
            if not (
                (isinstance(owner, ast.Attribute) and owner.attr == "mark")
                or (isinstance(owner, ast.Name) and owner.id == "mark")
            ):
                continue
            for argument in node.args:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    found.append((str(path), node.lineno, argument.value))
                else:
                    found.append((str(path), node.lineno, ast.unparse(argument)))
    return found


def unknown_markers(uses: Iterable[tuple[str, str, str]], ids: set[str]) -> list[tuple[str, str]]:
    """(nodeid, argument) of every marker argument that names no indexed section."""
    return sorted(
        {(nodeid, argument) for nodeid, _, argument in uses if marker_section(argument) not in ids}
    )


# --- the report --------------------------------------------------------------------------


def compute(
    sections: Sequence[Section], citations: dict[str, list[str]], markers: MarkerReport
) -> list[Coverage]:
    """Coverage of every section."""
    table: dict[str, Coverage] = {}
    for s in sections:
        cited = citations.get(s.id, [])
        plain = [c for c in cited if not c.endswith(" n/a")]
        na = [c.removesuffix(" n/a") for c in cited if c.endswith(" n/a")]
        table[s.id] = Coverage(s, citations=plain, inapplicable=na)
    for _nodeid, function, argument in set(markers.uses):
        coverage = table.get(marker_section(argument))
        if coverage is not None:
            coverage.tests.add(function)
            coverage.cases += 1
    return [table[s.id] for s in sections]


def totals(rows: Sequence[Coverage]) -> dict[str, int]:
    return {
        "sections": len(rows),
        "cited": sum(r.cited for r in rows),
        "tested": sum(bool(r.tests) for r in rows),
        "covered": sum(r.covered for r in rows),
        "not_applicable": sum(r.not_applicable for r in rows),
    }


def required_sections(
    sections: Sequence[Section], exact: Sequence[str], prefixes: Sequence[str]
) -> list[str]:
    """The ids named by --require and --require-prefix ("II-A" -> II-A and II-A-x)."""
    ids = [s.id for s in sections]
    known = set(ids)
    chosen: list[str] = []
    for section_id in exact:
        if section_id not in known:
            raise UsageError(f"--require: unknown section {section_id!r} (not in the index)")
        chosen.append(section_id)
    for prefix in prefixes:
        matched = [i for i in ids if i == prefix or i.startswith(prefix + "-")]
        if not matched:
            raise UsageError(f"--require-prefix: no section starts with {prefix!r}")
        chosen.extend(matched)
    return list(dict.fromkeys(chosen))


def document_key(document: str) -> str:
    return document.split("_", 1)[0]


def render_tables(
    rows: Sequence[Coverage], summary: dict[str, int], population: Sequence[Coverage]
) -> None:
    """Rich tables of ``rows``, one per document, captioned with the totals of each document
    in ``population`` (the rows before --missing), then the overall totals."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    by_document: dict[str, list[Coverage]] = {}
    for row in rows:
        by_document.setdefault(row.section.document, []).append(row)
    for document, doc_rows in by_document.items():
        key = document_key(document)
        doc_totals = totals([r for r in population if r.section.document == document])
        table = Table(
            title=f"{key} — {DOCUMENT_NAMES.get(key, document)}",
            caption=(
                f"{doc_totals['sections']} sections, {doc_totals['cited']} cited, "
                f"{doc_totals['tested']} tested"
                + (
                    f", {doc_totals['not_applicable']} not applicable"
                    if doc_totals["not_applicable"]
                    else ""
                )
            ),
        )
        table.add_column("id", no_wrap=True)
        table.add_column("title")
        table.add_column("cited in code", justify="center")
        table.add_column("tests", justify="right")
        for row in doc_rows:
            cited = "[green]yes[/]" if row.cited else "[red]no[/]"
            tests = str(len(row.tests)) if row.tests else "[red]0[/]"
            if row.not_applicable:
                cited, tests = "[yellow]n/a[/]", "[yellow]-[/]"
            table.add_row(row.section.id, row.section.title, cited, tests)
        console.print(table)
    console.print(
        f"[bold]Total:[/] {summary['sections']} sections, {summary['cited']} cited in code, "
        f"{summary['tested']} tested, {summary['covered']} both"
        + (f", {summary['not_applicable']} not applicable" if summary["not_applicable"] else "")
    )


def as_json(
    rows: Sequence[Coverage],
    summary: dict[str, int],
    unknown: Sequence[tuple[str, str]],
    markers: MarkerReport,
    missing_required: Sequence[str],
) -> dict[str, Any]:
    return {
        "sections": [
            {
                "id": r.section.id,
                "title": r.section.title,
                "document": r.section.document,
                "line": r.section.line,
                "cited": r.cited,
                "citations": r.citations,
                "not_applicable": r.not_applicable,
                "not_applicable_citations": r.inapplicable,
                "tests": len(r.tests),
                "cases": r.cases,
                "test_functions": sorted(r.tests),
            }
            for r in rows
        ],
        "totals": summary,
        "unknown_markers": [{"test": n, "marker": a} for n, a in unknown],
        "collection_errors": markers.errors,
        "missing_required": list(missing_required),
    }


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = _Parser(description="Rule coverage: which index sections code cites and tests check.")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--document", help="only this document (001, 004, or a file name)")
    parser.add_argument(
        "--missing",
        action="store_true",
        help="only sections not cited+tested (nor declared not applicable)",
    )
    parser.add_argument("--require", nargs="+", action="extend", default=[], metavar="SECTION")
    parser.add_argument(
        "--require-prefix",
        action="append",
        default=[],
        metavar="PREFIXES",
        help="comma-separated: II-A,II-B requires II-A, II-A-x, II-B, II-B-x",
    )
    parser.add_argument(
        "--markers-file",
        type=Path,
        metavar="FILE",
        help="reuse the test collection kept in FILE; collect and keep it there if missing",
    )
    parser.add_argument("--index", type=Path, default=DEFAULT_INDEX, help=argparse.SUPPRESS)
    parser.add_argument("--src", type=Path, default=ROOT / "src", help=argparse.SUPPRESS)
    parser.add_argument("--tests", type=Path, default=ROOT / "tests", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def run(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sections = load_index(args.index)
    ids = {s.id for s in sections}
    prefixes = [p.strip() for group in args.require_prefix for p in group.split(",") if p.strip()]
    required = required_sections(sections, args.require, prefixes)
    if args.document:
        wanted = args.document
        documents = {s.document for s in sections}
        matching = {d for d in documents if d == wanted or document_key(d) == wanted}
        if not matching:
            keys = ", ".join(sorted(document_key(d) for d in documents))
            raise UsageError(f"--document: unknown document {wanted!r} (known: {keys})")
    for directory in (args.src, args.tests):
        if not directory.is_dir():
            raise UsageError(f"{directory}: no such directory")

    citations = source_citations(args.src, citation_pattern(ids), ROOT)
    markers = collect_markers(args.tests, ROOT, args.markers_file)
    rows = compute(sections, citations, markers)
    unknown = unknown_markers(markers.uses, ids)
    missing_required = [r.section.id for r in rows if r.section.id in required and not r.settled]

    shown = rows
    if args.document:
        shown = [r for r in shown if r.section.document in matching]
    summary = totals(shown)
    population = shown
    if args.missing:
        shown = [r for r in shown if not r.settled]

    if args.json:
        print(json.dumps(as_json(shown, summary, unknown, markers, missing_required), indent=2))
    else:
        render_tables(shown, summary, population)
    for error in markers.errors:
        print(f"warning: {error['nodeid']}: not collected ({error['message']})", file=sys.stderr)
    status = 0
    for nodeid, argument in unknown:
        print(
            f"error: {nodeid}: rule marker {argument!r} is not in {args.index.name}",
            file=sys.stderr,
        )
        status = 1
    if missing_required:
        for section_id in missing_required:
            row = next(r for r in rows if r.section.id == section_id)
            lacks = [
                w for w, ok in (("cited in code", row.cited), ("tested", bool(row.tests))) if not ok
            ]
            print(
                f"error: required section {section_id} is not {' nor '.join(lacks)}",
                file=sys.stderr,
            )
        status = 1
    return status


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(argv)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
