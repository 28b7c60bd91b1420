"""Loading profile libraries and army lists from TOML, with errors a player can act on.

Every problem becomes a :class:`LoadError` whose text is one line naming the file, the
line and the key: ``army.toml:14: cards[2].count: expected a whole number``. tomllib gives
no line numbers for values, so :func:`find_line` scans the text for the n-th ``[[table]]``
header and the key inside it. Indices in keys are 1-based (``cards[2]`` is the second
``[[cards]]`` table).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from confrontation.armylists.names import did_you_mean, people_key, people_names, unknown_people
from confrontation.data import data_path, safe_toml
from confrontation.model.army import Army, ArmyFile, Card
from confrontation.model.profile import Artifact, FieldProblem, Library, Profile

Loc = Sequence[str | int]
M = TypeVar("M", bound=BaseModel)


class LoadError(Exception):
    """A data file cannot be used. ``str()`` is one line: ``file:line: key: message``."""

    def __init__(self, file: str | Path, message: str, *, line: int | None = None, key: str = ""):
        self.file = _printable(_shortened(str(file)))
        self.line = line
        self.key = _printable(key)
        self.message = _printable(" ".join(message.split()))
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


def _shortened(name: str, most: int = 200) -> str:
    """A file name cut to ``most`` characters (a 100,000-character name stays one line)."""
    return name if len(name) <= most else f"{name[: most - 21]}…({len(name)} characters)"


def _printable(text: str) -> str:
    """Escape control characters so an error stays one readable line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# -- locating keys in TOML text ----------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _key_pattern(key: str) -> re.Pattern[str]:
    quoted = re.escape(key)
    return re.compile(rf"""^\s*(?:{quoted}|"{quoted}"|'{quoted}')\s*[.=]""")


def find_line(text: str, loc: Loc) -> int:
    """The 1-based line of the key at ``loc`` (e.g. ``("cards", 1, "count")``), best effort.

    Falls back to the enclosing ``[[table]]`` header, then to line 1.
    """
    lines = text.splitlines()
    # Section boundaries: (start index, header name or None for the top level, kind).
    sections: list[tuple[int, str | None, str]] = [(0, None, "top")]
    for number, raw in enumerate(lines):
        match = _HEADER.match(raw)
        if match and not raw.lstrip().startswith(("#", "'", '"')):
            kind = "array" if match.group(1) == "[[" else "table"
            sections.append((number, match.group(2).strip(), kind))

    def span(index: int) -> tuple[int, int]:
        start = sections[index][0]
        end = sections[index + 1][0] if index + 1 < len(sections) else len(lines)
        return start, end

    def search(key: str, start: int, end: int) -> int | None:
        pattern = _key_pattern(key)
        for number in range(start, end):
            if pattern.match(lines[number]):
                return number + 1
        return None

    if not loc:
        return 1
    head = str(loc[0])
    rest = list(loc[1:])
    if rest and isinstance(rest[0], int):
        wanted = rest[0]
        seen = -1
        for index, (_, name, kind) in enumerate(sections):
            if kind == "array" and name == head:
                seen += 1
                if seen == wanted:
                    start, end = span(index)
                    keys = [k for k in rest[1:] if isinstance(k, str)]
                    # Sub-tables such as [profiles.faith] follow the header.
                    stop = end
                    for later in range(index + 1, len(sections)):
                        later_name = sections[later][1] or ""
                        if later_name.startswith(head + "."):
                            stop = span(later)[1]
                        else:
                            break
                    for key in keys:
                        found = search(key, start + 1, stop)
                        if found is not None:
                            return found
                    return start + 1
    top_start, top_end = span(0)
    found = search(head, top_start, top_end)
    if found is not None:
        return found
    for index, (_, name, _) in enumerate(sections):
        if name == head:
            return span(index)[0] + 1
    return 1


def key_name(loc: Loc) -> str:
    """``("cards", 1, "count")`` → ``"cards[2].count"`` (1-based indices)."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part + 1}]"
        else:
            text += ("." if text else "") + str(part)
    return text


# -- reading and validating ----------------------------------------------------------------


def read_toml(path: Path) -> tuple[str, dict[str, Any]]:
    """Read and parse a TOML file (the safe reader, :mod:`confrontation.data.safe_toml`);
    any failure is a one-line :class:`LoadError`."""
    try:
        return safe_toml.read_toml(path)
    except safe_toml.TomlFileError as exc:
        raise LoadError(path, exc.message, line=exc.line) from None


_MESSAGES: dict[str, str] = {
    "extra_forbidden": "unknown key",
    "missing": "missing key",
    "int_type": "expected a whole number",
    "float_type": "expected a number",
    "string_type": "expected a string",
    "bool_type": "expected true or false",
    "list_type": "expected an array",
    "dict_type": "expected a table",
    "model_type": "expected a table",
    "literal_error": "",
    "string_pattern_mismatch": "expected lower-case letters, digits and '-'",
}


def _first_error(path: Path, text: str, exc: ValidationError, prefix: Loc = ()) -> LoadError:
    error = exc.errors()[0]
    loc: list[str | int] = [*prefix]
    for part in error["loc"]:
        # Union members ("int", "str") and validator tags are not keys of the file.
        if isinstance(part, int) or part not in {"int", "str", "float", "function-after"}:
            loc.append(part)
    kind = error["type"]
    message = _MESSAGES.get(kind) or str(error["msg"])
    if kind == "value_error":
        message = str(error["msg"]).removeprefix("Value error, ")
        problem = error.get("ctx", {}).get("error")
        if isinstance(problem, FieldProblem):
            loc.append(problem.key)
    if kind in {"int_type", "float_type", "string_type", "bool_type"} and "input" in error:
        message += f", got {_describe(error['input'])}"
    return LoadError(path, message, line=find_line(text, loc), key=key_name(loc))


def _describe(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    for kind, name in names.items():
        if type(value) is kind:
            return f"{name} ({value!r})"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def parse_model(model: type[M], path: Path, text: str, data: Mapping[str, Any]) -> M:
    """Validate ``data`` against ``model``; the first problem becomes a :class:`LoadError`."""
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as exc:
        raise _first_error(path, text, exc) from exc


# -- nations, alliances, ranks -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Nation:
    """A nation of I-D-8: its people key, totem, name and alliance way."""

    key: str
    totem: str
    name: str
    way: str
    recruited_by: str | None = None
    aliases: tuple[str, ...] = ()
    """Other names players call the people by (``Akkylannie``, ``Alahan``)."""


@dataclass(frozen=True, slots=True)
class Alliances:
    """Which nations may ally (I-D-8, CLARIFICATIONS §4)."""

    nations: Mapping[str, Nation]
    allow: frozenset[frozenset[str]] = frozenset()
    forbid: frozenset[frozenset[str]] = frozenset()

    def compatible(self, first: str, second: str) -> bool:
        """True when ``first`` and ``second`` may fight in the same army."""
        if first == second:
            return True
        pair = frozenset((first, second))
        if pair in self.allow:
            return True
        if pair in self.forbid:
            return False
        a, b = self.nations.get(first), self.nations.get(second)
        if a is None or b is None or a.way == "none" or b.way == "none":
            return False
        return a.way == b.way


@dataclass(frozen=True, slots=True)
class RankInfo:
    """A rank of I-C ⑨: category (warrior, magician, devout) and level 1-4."""

    key: str
    name: str
    category: str
    level: int


def _table_list(path: Path, text: str, data: Mapping[str, Any], name: str) -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise LoadError(path, "expected [[tables]]", line=find_line(text, [name]), key=name)
    return value


def _field(
    path: Path, text: str, loc: list[str | int], table: Mapping[str, Any], kind: type
) -> Any:
    value = table.get(str(loc[-1]))
    if type(value) is not kind:
        raise LoadError(
            path,
            f"expected {'a string' if kind is str else 'a whole number'}",
            line=find_line(text, loc),
            key=key_name(loc),
        )
    return value


def load_nations(path: Path | None = None) -> dict[str, Nation]:
    """Read ``nations.toml`` (bundled by default)."""
    path = path or Path(str(data_path("nations.toml")))
    text, data = read_toml(path)
    nations: dict[str, Nation] = {}
    for index, table in enumerate(_table_list(path, text, data, "nations")):
        loc: list[str | int] = ["nations", index]
        key = _field(path, text, [*loc, "key"], table, str)
        way = _field(path, text, [*loc, "way"], table, str)
        if way not in {"darkness", "light", "doom", "none"}:
            raise LoadError(
                path,
                f"unknown alliance way {way!r}",
                line=find_line(text, [*loc, "way"]),
                key=key_name([*loc, "way"]),
            )
        recruited = table.get("recruited_by")
        aliases = table.get("aliases", [])
        if not isinstance(aliases, list) or not all(
            isinstance(a, str) and a.strip() for a in aliases
        ):
            raise LoadError(
                path,
                "expected an array of names",
                line=find_line(text, [*loc, "aliases"]),
                key=key_name([*loc, "aliases"]),
            )
        nations[key] = Nation(
            key,
            _field(path, text, [*loc, "totem"], table, str),
            _field(path, text, [*loc, "name"], table, str),
            way,
            recruited if isinstance(recruited, str) else None,
            tuple(aliases),
        )
    taken: dict[str, str] = {}
    for index, nation in enumerate(nations.values()):
        for name, owner in people_names({nation.key: nation}).items():
            if taken.setdefault(name, owner) != owner:
                loc = ["nations", index, "aliases"]
                raise LoadError(
                    path,
                    f"the name {name!r} is both {taken[name]!r} and {owner!r}",
                    line=find_line(text, loc),
                    key=key_name(loc),
                )
    return nations


def load_alliances(nations: Mapping[str, Nation], path: Path | None = None) -> Alliances:
    """Read ``alliances.toml`` (bundled by default) against the known nations."""
    path = path or Path(str(data_path("alliances.toml")))
    text, data = read_toml(path)
    pairs: dict[str, set[frozenset[str]]] = {"allow": set(), "forbid": set()}
    for section in ("allow", "forbid"):
        for index, table in enumerate(_table_list(path, text, data, section)):
            loc: list[str | int] = [section, index, "nations"]
            members = table.get("nations")
            if (
                not isinstance(members, list)
                or len(members) != 2
                or not all(isinstance(m, str) and m in nations for m in members)
            ):
                raise LoadError(
                    path,
                    "expected two known nation keys",
                    line=find_line(text, loc),
                    key=key_name(loc),
                )
            pairs[section].add(frozenset(members))
    return Alliances(nations, frozenset(pairs["allow"]), frozenset(pairs["forbid"]))


def load_ranks(path: Path | None = None) -> dict[str, RankInfo]:
    """Read ``ranks.toml`` (bundled by default)."""
    path = path or Path(str(data_path("ranks.toml")))
    text, data = read_toml(path)
    ranks: dict[str, RankInfo] = {}
    for index, table in enumerate(_table_list(path, text, data, "ranks")):
        loc: list[str | int] = ["ranks", index]
        key = _field(path, text, [*loc, "key"], table, str)
        ranks[key] = RankInfo(
            key,
            _field(path, text, [*loc, "name"], table, str),
            _field(path, text, [*loc, "category"], table, str),
            _field(path, text, [*loc, "level"], table, int),
        )
    return ranks


# -- profile libraries -------------------------------------------------------------------


@dataclass
class Catalog:
    """Profiles and artifacts by id, with where each was defined (file, line)."""

    profiles: dict[str, Profile] = field(default_factory=dict)
    artifacts: dict[str, Artifact] = field(default_factory=dict)
    origin: dict[str, tuple[str, int]] = field(default_factory=dict)

    def merged(self, other: Catalog) -> Catalog:
        """A catalog where ``other``'s entries replace this one's of the same id."""
        return Catalog(
            {**self.profiles, **other.profiles},
            {**self.artifacts, **other.artifacts},
            {**self.origin, **other.origin},
        )


def load_library(path: Path, nations: Mapping[str, Nation] | None = None) -> Catalog:
    """Load one library file (``[[profiles]]``, ``[[artifacts]]``); ids unique within it."""
    nations = nations if nations is not None else bundled_nations()
    text, data = read_toml(path)
    library = parse_model(Library, path, text, data)
    catalog = Catalog()
    entries: tuple[tuple[str, Sequence[Profile | Artifact]], ...] = (
        ("profiles", library.profiles),
        ("artifacts", library.artifacts),
    )
    for kind, items in entries:
        store: dict[str, Any] = catalog.profiles if kind == "profiles" else catalog.artifacts
        for index, item in enumerate(items):
            line = find_line(text, [kind, index, "id"])
            if item.id in store:
                raise LoadError(
                    path, f"duplicate id {item.id!r}", line=line, key=key_name([kind, index, "id"])
                )
            store[item.id] = item
            catalog.origin[f"{kind}:{item.id}"] = (str(path), line)
    for index, profile in enumerate(library.profiles):
        key = people_key(profile.people, nations)
        if key is None:
            loc: list[str | int] = ["profiles", index, "people"]
            raise LoadError(
                path,
                unknown_people(profile.people, nations),
                line=find_line(text, loc),
                key=key_name(loc),
            )
        if key != profile.people:  # "Griffin", "Akkylannie" → griffin
            catalog.profiles[profile.id] = profile.model_copy(update={"people": key})
    for index, artifact in enumerate(library.artifacts):
        keys: list[str] = []
        for people in artifact.people:
            key = people_key(people, nations)
            if key is None:
                loc = ["artifacts", index, "people"]
                raise LoadError(
                    path,
                    unknown_people(people, nations),
                    line=find_line(text, loc),
                    key=key_name(loc),
                )
            keys.append(key)
        if keys != artifact.people:
            catalog.artifacts[artifact.id] = artifact.model_copy(update={"people": keys})
    return catalog


def bundled_library_files() -> list[Path]:
    """The bundled profile libraries, ``data/profiles/*.toml``."""
    folder = Path(str(data_path("profiles")))
    return sorted(folder.glob("*.toml"))


def bundled_army_files() -> list[Path]:
    """The bundled army lists, ``data/armies/*.toml``."""
    folder = Path(str(data_path("armies")))
    return sorted(folder.glob("*.toml"))


@lru_cache(maxsize=1)
def bundled_nations() -> dict[str, Nation]:
    """The bundled nations (cached)."""
    return load_nations()


@lru_cache(maxsize=1)
def bundled_alliances() -> Alliances:
    """The bundled alliance matrix (cached)."""
    return load_alliances(bundled_nations())


@lru_cache(maxsize=1)
def bundled_catalog() -> Catalog:
    """Every bundled profile and artifact; an id defined twice is an error."""
    catalog = Catalog()
    for path in bundled_library_files():
        part = load_library(path)
        for key, (file, line) in part.origin.items():
            if key in catalog.origin:
                kind, ident = key.split(":", 1)
                first = catalog.origin[key]
                raise LoadError(
                    file,
                    f"{kind[:-1]} {ident!r} is already defined in {first[0]}:{first[1]}",
                    line=line,
                    key="id",
                )
        catalog = catalog.merged(part)
    return catalog


def catalog_with(libraries: Iterable[Path]) -> Catalog:
    """The bundled catalog, then each library in order (later ids replace earlier ones)."""
    catalog = bundled_catalog()
    for path in libraries:
        catalog = catalog.merged(load_library(path))
    return catalog


# -- army lists ----------------------------------------------------------------------------


def load_army(path: Path, libraries: Iterable[Path] = ()) -> Army:
    """Load an army list, resolving its cards against the profile libraries.

    Libraries: the bundled ones, then the file's own ``profiles = [...]`` (relative to the
    file), then ``libraries`` (e.g. ``--profiles``). Unknown ids are :class:`LoadError`.
    """
    path = Path(path)
    text, data = read_toml(path)
    army_file = parse_model(ArmyFile, path, text, data)
    nations = bundled_nations()
    people = people_key(army_file.people, nations)
    if people is None:
        raise LoadError(
            path,
            unknown_people(army_file.people, nations),
            line=find_line(text, ["people"]),
            key="people",
        )
    catalog = bundled_catalog()
    for index, name in enumerate(army_file.profiles):
        library = path.parent / name
        try:
            catalog = catalog.merged(load_library(library))
        except LoadError as exc:
            if exc.line is not None:
                raise
            loc: list[str | int] = ["profiles", index]
            raise LoadError(
                path,
                f"cannot use the library {name!r}: {exc.message}",
                line=find_line(text, loc),
                key=key_name(loc),
            ) from exc
    for library in libraries:
        catalog = catalog.merged(load_library(library))
    cards: list[Card] = []
    for index, entry in enumerate(army_file.cards):
        loc = ["cards", index]
        profile = catalog.profiles.get(entry.profile)
        if profile is None:
            hint = did_you_mean(entry.profile, catalog.profiles)
            raise LoadError(
                path,
                f"unknown profile id {entry.profile!r}{hint}",
                line=find_line(text, [*loc, "profile"]),
                key=key_name([*loc, "profile"]),
            )
        equipment: list[Artifact] = []
        for ident in entry.artifacts:
            artifact = catalog.artifacts.get(ident)
            if artifact is None:
                raise LoadError(
                    path,
                    f"unknown artifact id {ident!r}{did_you_mean(ident, catalog.artifacts)}",
                    line=find_line(text, [*loc, "artifacts"]),
                    key=key_name([*loc, "artifacts"]),
                )
            equipment.append(artifact)
        cards.append(
            Card(
                index + 1,
                profile,
                entry.count,
                tuple(equipment),
                find_line(text, loc),
                tuple(entry.spells),
                tuple(entry.miracles),
            )
        )
    return Army(army_file.name, people, army_file.points, tuple(cards), path)


def army_path(name: str) -> Path:
    """A bundled army id (``lion-vanguard``) or an army file (also ``sim.game.army_path``:
    here, a command reading one list needs not import the engine)."""
    bundled = {p.stem: p for p in bundled_army_files()}
    if name in bundled:
        return bundled[name]
    path = Path(name)
    try:
        exists = path.exists()
    except (OSError, ValueError):  # a name too long, a NUL byte
        exists = False
    if path.suffix != ".toml" and not exists:
        hint = did_you_mean(name, list(bundled))
        raise LoadError(
            name,
            f"no such army file, nor a bundled army{hint}"
            f" (bundled: {', '.join(sorted(bundled))}; `confrontation armies list`)",
        )
    return path
