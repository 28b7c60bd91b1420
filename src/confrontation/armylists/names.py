"""Names as people type them: "did you mean …" for an unknown id, peoples by their usual names.

:func:`did_you_mean` gives the close known names (difflib) as a clause to append to an
error line; :func:`people_key` reads a people as the key (``griffin``), the totem
(``Griffin``), the nation's name or one of its ``aliases`` in ``nations.toml``
(``Akkylannie``), whatever the case.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Protocol


def did_you_mean(
    word: str, known: Iterable[str], *, meaning: Mapping[str, str] | None = None, limit: int = 3
) -> str:
    """``"; did you mean 'lion-vanguard'?"`` for the known names close to ``word``, else ``""``.

    ``meaning`` maps a name to what to suggest for it (an alias to its people key)."""
    meaning = meaning or {}
    folded: dict[str, str] = {}
    for name in sorted(known):
        folded.setdefault(_fold(name), meaning.get(name, name))
    part = _fold(word)
    close = difflib.get_close_matches(part, list(folded), n=2 * limit, cutoff=0.6)
    if not close and len(part) >= 3:  # a part of an id ("templar")
        close = [name for name in folded if part in name]
    picks = list(dict.fromkeys(folded[name] for name in close))[:limit]
    if not picks:
        return ""
    return f"; did you mean {' or '.join(repr(p) for p in picks)}?"


def _fold(text: str) -> str:
    """Lower case, accents and spacing dropped: "Bran-Ô-Kor" → "bran-o-kor"."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "-".join(plain.replace("_", " ").replace("-", " ").split())


class _Named(Protocol):
    @property
    def key(self) -> str: ...
    @property
    def totem(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...


def people_names(nations: Mapping[str, _Named]) -> dict[str, str]:
    """Every name a people is known by (folded) → its key."""
    names: dict[str, str] = {}
    for key, nation in nations.items():
        for name in (key, nation.totem, nation.name, *nation.aliases):
            names.setdefault(_fold(name), key)
    return names


def people_key(name: str, nations: Mapping[str, _Named]) -> str | None:
    """The people key ``name`` stands for (key, totem, nation name or alias; any case)."""
    if name in nations:
        return name
    return people_names(nations).get(_fold(name))


def unknown_people(name: str, nations: Mapping[str, _Named]) -> str:
    """The message for a people nobody knows, with the close names."""
    names = people_names(nations)
    hint = did_you_mean(name, names, meaning=names)
    return f"unknown people {name!r}{hint or ' (see nations.toml)'}"
