"""The project's safe TOML reader: any file a user names becomes data or one line saying why
not — never a traceback, never unbounded memory or time.

A file is read up to :data:`MAX_BYTES` (``/dev/zero`` or ``/dev/full`` would never end),
decoded as UTF-8 and parsed with :mod:`tomllib`, whose recursion on deeply nested arrays
or inline tables is caught.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

MAX_BYTES = 4 * 1024 * 1024
"""The largest data file read (4 MiB: the bundled files are a few KiB)."""


class TomlFileError(Exception):
    """A file that is not usable TOML: ``message`` and the 1-based ``line`` (None: the file
    as a whole)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def read_bytes(path: Path, limit: int = MAX_BYTES) -> bytes:
    """At most ``limit`` bytes of ``path``; more, or an unreadable file, is a
    :class:`TomlFileError`."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        reason = getattr(exc, "strerror", None) or str(exc)
        raise TomlFileError(f"cannot read the file ({reason})") from None
    except MemoryError:
        raise TomlFileError("cannot read the file (out of memory)") from None
    if len(raw) > limit:
        raise TomlFileError(f"the file is larger than {limit // (1024 * 1024)} MiB") from None
    return raw


def parse_toml(raw: bytes) -> tuple[str, dict[str, Any]]:
    """Decode and parse ``raw``: its text and its data, else a :class:`TomlFileError`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise TomlFileError("the file is not UTF-8 text", line) from None
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise TomlFileError("invalid TOML: nested too deeply", 1) from None
    except tomllib.TOMLDecodeError as exc:
        found: int | None = getattr(exc, "lineno", None)
        message = getattr(exc, "msg", None) or str(exc)
        match = re.search(r"\(at line (\d+)", str(exc))
        if found is None and match:
            found = int(match.group(1))
        if found is None and "end of document" in str(exc):
            found = max(1, len(text.splitlines()))
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
        raise TomlFileError(f"invalid TOML: {message}", found or 1) from None
    return text, data


def read_toml(path: Path, limit: int = MAX_BYTES) -> tuple[str, dict[str, Any]]:
    """Read and parse the TOML file ``path``: its text and data, else a
    :class:`TomlFileError`."""
    return parse_toml(read_bytes(path, limit))
