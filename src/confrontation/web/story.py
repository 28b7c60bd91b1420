"""The story beside the table: each narrated line with the section of the rules it follows
and the dice rolled for it, as they fell."""

from __future__ import annotations

import re

from confrontation.engine.core.events import Event

CITED = re.compile(r"\b((?:[IVX]+|XX)-[A-Z](?:-\d+)?)\b")
"""A section of the rules as the code and the narration cite it ("XX-F-3", "VII-C-4")."""

UNCITED: dict[str, str] = {
    "game_started": "III-A",
    "round_started": "IV",
    "phase_started": "IV",
    "phase_ended": "IV",
    "activation_ended": "IV-B-2",
    "game_ended": "III-A-2",
}
"""The section of the kinds of event whose class cites none."""


def section_of(event: Event, sentence: str) -> str | None:
    """The section a narrated line cites: the one its sentence names, else the first its
    event's class cites (the engine's own citation), else :data:`UNCITED`'s."""
    for text in (sentence, type(event).__doc__ or ""):
        named = CITED.search(text)
        if named is not None:
            return named.group(1)
    return UNCITED.get(event.kind)
