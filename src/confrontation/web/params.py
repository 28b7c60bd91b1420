"""Parameters the HTTP API's routes share (FastAPI annotations)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path as PathParam

GameId = Annotated[
    int, PathParam(ge=1, lt=2**31, description="A game's number (as the store numbers them).")
]
"""A game's number: 1 … 2³¹ − 1 (what every SQL store can hold); others are a 422."""
