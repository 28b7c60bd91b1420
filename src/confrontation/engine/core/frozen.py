"""A fast :func:`dataclasses.replace` for the engine's frozen records.

Every step of the engine builds new frozen records (ARCHITECTURE: "state is plain data"),
and ``dataclasses.replace`` — which goes through ``__init__`` and ``fields()`` on every call —
was a third of the time of a combat search (docs/performance.md). The engine's records
have no ``__post_init__`` and no ``init=False`` fields, so a copy of their field values with
the changes on top is the same record; :func:`evolve` does exactly that, and falls back on
``dataclasses.replace`` for any other dataclass (slots, ``__post_init__``, ``init=False``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_PLAIN: dict[type, frozenset[str] | None] = {}
"""Per class: its field names when a copy of ``__dict__`` entries is a valid replace, else None."""


def _plain_fields(cls: type) -> frozenset[str] | None:
    fields = dataclasses.fields(cls)
    plain = (
        hasattr(cls, "__dict__")
        and "__slots__" not in cls.__dict__
        and not hasattr(cls, "__post_init__")
        and all(f.init and not isinstance(f.type, dataclasses.InitVar) for f in fields)
    )
    return frozenset(f.name for f in fields) if plain else None


def evolve(record: T, **changes: Any) -> T:
    """``dataclasses.replace(record, **changes)``, without calling ``__init__``.

    Only the dataclass fields are copied: per-instance caches (``cached_property`` values kept
    in ``__dict__``) are not carried over to the new record."""
    cls = type(record)
    try:
        names = _PLAIN[cls]
    except KeyError:
        names = _PLAIN[cls] = _plain_fields(cls)
    if names is None:
        return dataclasses.replace(record, **changes)  # type: ignore[type-var]
    if not names.issuperset(changes):
        unknown = changes.keys() - names
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    new = object.__new__(cls)
    values = new.__dict__
    source = record.__dict__
    if len(source) == len(names):  # only the fields (no cached values): copy it whole
        values.update(source)
    else:
        for name in names:
            values[name] = source[name]
    values.update(changes)
    return new
