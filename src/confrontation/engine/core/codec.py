"""Lossless JSON for the engine's plain data (frozen dataclasses, tuples, enums).

The engine's records are frozen dataclasses whose fields are ``int``, ``str``, ``bool``,
``float``, ``None``, string enums, tuples and other such records. :func:`encode` turns one
into JSON-ready Python values; :func:`decode` rebuilds it from the type hints, so
``decode(type(x), encode(x)) == x`` for every engine record. Polymorphic families
(choices, events) derive from :class:`Tagged`: each member has a ``kind`` and is written
with a ``"kind"`` key, so a field typed with the family's base class decodes to the right
member.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any, ClassVar, Union, get_args, get_origin

Json = Any
"""A JSON-ready value: dict, list, str, int, float, bool or None."""


class Tagged:
    """Base of a family of records told apart by their ``kind`` (choices, events).

    A class that sets ``family_root = True`` starts a family; every subclass with a ``kind``
    registers in it.
    """

    kind: ClassVar[str] = ""
    family_root: ClassVar[bool] = False
    _members: ClassVar[dict[str, type[Tagged]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("family_root", False):
            cls._members = {}
        elif cls.kind:
            members = cls._members
            if cls.kind in members and members[cls.kind] is not cls:
                raise TypeError(f"two records share the kind {cls.kind!r}")
            members[cls.kind] = cls

    @classmethod
    def member(cls, kind: str) -> type[Tagged]:
        """The member of this family whose ``kind`` is ``kind``."""
        try:
            return cls._members[kind]
        except KeyError:
            raise ValueError(f"unknown {cls.__name__} kind {kind!r}") from None


def encode(value: Any) -> Json:
    """``value`` as JSON-ready data (dataclasses become dicts, tuples lists)."""
    if value is None or isinstance(value, bool | int | float | str):
        if isinstance(value, enum.Enum):
            return value.value
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Json] = {}
        if isinstance(value, Tagged):
            out["kind"] = value.kind
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if field.metadata.get("omit_default") and item == field.default:
                continue
            out[field.name] = encode(item)
        return out
    if isinstance(value, tuple | list):
        return [encode(item) for item in value]
    raise TypeError(f"cannot encode {type(value).__name__} as engine JSON")


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(annotation: Any, data: Json) -> Any:
    """Rebuild a value of type ``annotation`` from :func:`encode`'s output."""
    origin = get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        options = get_args(annotation)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return decode(option, data)
            except (TypeError, ValueError, KeyError) as error:
                errors.append(str(error))
        raise ValueError(f"{data!r} fits none of {annotation}: {'; '.join(errors)}")
    if origin is tuple:
        args = get_args(annotation)
        if not isinstance(data, list):
            raise TypeError(f"expected a list for {annotation}, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], item) for item in data)
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} items for {annotation}, got {len(data)}")
        return tuple(decode(arg, item) for arg, item in zip(args, data, strict=True))
    if origin is typing.Literal:
        if data not in get_args(annotation):
            raise ValueError(f"{data!r} is not one of {get_args(annotation)}")
        return data
    if annotation is Any:
        return data
    if isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return annotation(data)
        if issubclass(annotation, Tagged) and isinstance(data, dict) and "kind" in data:
            member = annotation.member(data["kind"])
            if not issubclass(member, annotation):
                raise ValueError(f"{data['kind']!r} is not a {annotation.__name__}")
            return _decode_record(member, data)
        if dataclasses.is_dataclass(annotation):
            if not isinstance(data, dict):
                raise TypeError(f"expected an object for {annotation.__name__}, got {data!r}")
            return _decode_record(annotation, data)
        if annotation is float and isinstance(data, int | float) and not isinstance(data, bool):
            return float(data)
        if annotation in (int, str, bool) and type(data) is annotation:
            return data
        if annotation is type(None) and data is None:
            return None
    raise TypeError(f"cannot decode {data!r} as {annotation}")


def _decode_record(cls: Any, data: dict[str, Json]) -> Any:
    hints = _hints(cls)
    kwargs = {}
    for field in dataclasses.fields(cls):
        if field.name not in data:
            if field.metadata.get("omit_default"):
                continue
            raise KeyError(f"{cls.__name__} record lacks the field {field.name!r}")
        kwargs[field.name] = decode(hints[field.name], data[field.name])
    return cls(**kwargs)
