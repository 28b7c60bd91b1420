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
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")
R = TypeVar("R")
V = TypeVar("V")


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

    Only the dataclass fields are copied: per-instance caches (``cached_property`` or
    :class:`kept` values kept in ``__dict__``) are not carried over to the new record, but
    for those its class names in ``__evolve_keeps__`` whose fields (one, or a tuple of them)
    are not changed (left out of ``changes``, or given as the very same object)."""
    cls = type(record)
    try:
        plan = _PLANS[cls]
    except KeyError:
        plan = _PLANS[cls] = _plan(cls)
    if plan is None:
        return dataclasses.replace(record, **changes)  # type: ignore[type-var]
    names, count, keeps = plan
    if not names.issuperset(changes):
        unknown = changes.keys() - names
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    new = object.__new__(cls)
    values = new.__dict__
    source = record.__dict__
    if len(source) == count:  # only the fields (no cached values): copy it whole
        values.update(source)
    else:  # cached values as well: the fields only (a plain loop is the quickest)
        for name in names:
            values[name] = source[name]
        for cache, fields in keeps:  # caches that only read fields left as they were
            if cache in source:
                for name in fields:
                    if name in changes and changes[name] is not source[name]:
                        break
                else:
                    values[cache] = source[cache]
    values.update(changes)
    return new


_Plan = tuple[frozenset[str], int, tuple[tuple[str, tuple[str, ...]], ...]]
_PLANS: dict[type, _Plan | None] = {}
"""Per class: its field names, their number and its ``__evolve_keeps__`` (cached value's name
→ the fields it is made from), or None when ``dataclasses.replace`` must build it."""


def _plan(cls: type) -> _Plan | None:
    names = _plain_fields(cls)
    if names is None:
        return None
    keeps = getattr(cls, "__evolve_keeps__", {})
    made = tuple(
        (cache, (fields,) if isinstance(fields, str) else tuple(fields))
        for cache, fields in keeps.items()
    )
    return names, len(names), made


class kept(Generic[R, V]):
    """``functools.cached_property`` without its lock (Python 3.11 takes one on every first
    read): the value is computed once and stored in the instance's ``__dict__`` under the
    method's name, where later reads find it without calling the descriptor."""

    def __init__(self, method: Callable[[R], V]) -> None:
        self.method = method
        self.name = method.__name__
        self.__doc__ = method.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> kept[R, V]: ...

    @overload
    def __get__(self, instance: R, owner: type | None = None) -> V: ...

    def __get__(self, instance: R | None, owner: type | None = None) -> V | kept[R, V]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.method(instance)
        return value
