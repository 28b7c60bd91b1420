"""The round-by-round replay of a C4 game (docs/web.md "C4 games"): the state at the start
of each round, rebuilt by ``c4.step.replay`` of the record's prefix, its SVG and the narration
of that round, then the end (or "now" for an unfinished record).

What is shown: a replay that reveals everything (``reveal``: the game is over, or no person
plays in it — exactly when the record, which holds every secret, is given) shows the whole
state and the referee's narration; otherwise each frame is the seats' own view
(``c4.views.redact``) and the story as their player hears it (a spectator: neither player's
secrets)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from confrontation.c4 import events as c4ev
from confrontation.c4.control import scores
from confrontation.c4.picture import svg
from confrontation.c4.state import C4State
from confrontation.c4.step import is_over, replay
from confrontation.c4.views import redact
from confrontation.engine.core.events import ChoiceMade, DieRolled, Event


@dataclass(frozen=True)
class C4Frame:
    """One step of the replay: its round, label, fighters left, table (SVG) and story."""

    round: int
    label: str
    scores: tuple[int, ...]
    svg: str
    lines: tuple[str, ...]


def seen_by(state: C4State, players: frozenset[int], reveal: bool) -> C4State:
    """``state`` as the holder of ``players``' seats may see it (everything if ``reveal``)."""
    if reveal or set(range(state.players)) <= players:
        return state
    if not players:
        for player in range(state.players):
            state = redact(state, player)
        return state
    return redact(state, min(players))


def viewer_of(players: frozenset[int], count: int, reveal: bool) -> int | None:
    """The narration's viewer: None (the referee) when everything is shown."""
    if reveal or set(range(count)) <= players:
        return None
    return min(players) if players else -1


def c4_frames(events: Sequence[Event], players: frozenset[int], *, reveal: bool) -> list[C4Frame]:
    """The replay of a C4 record (``events`` begins with ``C4GameStarted``), as ``players``
    may see it; a ``ValueError``/``EngineError`` for a record that does not replay."""
    from confrontation.web.c4host import named, told  # the page's words for units

    starts = [i for i, e in enumerate(events) if isinstance(e, c4ev.C4RoundStarted)]
    final = replay(events)
    viewer = viewer_of(players, final.players, reveal)
    out: list[C4Frame] = []
    for n, begin in enumerate(starts):
        event = events[begin]
        assert isinstance(event, c4ev.C4RoundStarted)
        state = replay(events[:begin])  # the record's prefix: the round about to start
        end = starts[n + 1] if n + 1 < len(starts) else len(events)
        lines = tuple(
            named(line, final) for e in events[begin:end] if (line := told(e, viewer)) is not None
        )
        seen = seen_by(state, players, reveal)
        label = f"start of round {event.round}"
        out.append(C4Frame(event.round, label, scores(state), svg(seen), lines))
    last_move = max(
        (i for i, e in enumerate(events) if isinstance(e, ChoiceMade | DieRolled)), default=0
    )
    tail = tuple(
        named(line, final)
        for e in events[last_move + 1 :]
        if isinstance(e, c4ev.C4GameEnded) and (line := told(e, viewer)) is not None
    )
    label = f"the end (round {final.round})" if is_over(final) else f"now (round {final.round})"
    seen = seen_by(final, players, reveal)
    out.append(C4Frame(final.round, label, scores(final), svg(seen), tail))
    return out
