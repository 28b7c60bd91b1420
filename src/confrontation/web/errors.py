"""The web server's refusals: :class:`WebError` (an HTTP status and one line saying why)."""

from __future__ import annotations


class WebError(Exception):
    """A request the server refuses, with its HTTP status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
