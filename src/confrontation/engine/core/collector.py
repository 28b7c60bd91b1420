"""Python's garbage collector while a game plays: collected less often.

A game allocates a great many short-lived containers (frozen states, events, choices) and
keeps large caches (bases, fields, paths). With the interpreter's default threshold (700
new containers) the young generation is collected hundreds of times a game and every
older collection walks the caches again: 5-7 % of a game's CPU (``docs/performance.md``,
"Speed, tenth round (lead)"). While a game plays the young generation is collected every
:data:`YOUNG` containers instead; the older generations keep their ratios. Garbage is still
collected, only in fewer, larger passes, and the threshold is put back when the last game
playing in the process ends (games may play in several threads: web hosts, tournaments).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: young-generation threshold while a game plays (the interpreter's default is 700)
YOUNG = 50_000

_lock = threading.Lock()
_playing = 0
_saved: tuple[int, int, int] | None = None


@contextmanager
def fewer_collections(young: int | None = None) -> Iterator[None]:
    """Collect the young generation every ``young`` (default :data:`YOUNG`) new containers,
    never more often than the threshold already set, until the last game playing in the
    process ends."""
    global _playing, _saved
    young = YOUNG if young is None else young
    with _lock:
        if _playing == 0:
            _saved = gc.get_threshold()
            first, *older = _saved
            if first and first < young:  # a threshold of 0 means collection is off: kept
                gc.set_threshold(young, *older)
        _playing += 1
    try:
        yield
    finally:
        with _lock:
            _playing -= 1
            if _playing == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None
