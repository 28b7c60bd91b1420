"""Bundled data files (TOML) and the helpers that locate them."""

from importlib.resources import files
from importlib.resources.abc import Traversable


def data_path(name: str) -> Traversable:
    """Return the bundled data file ``name`` (e.g. ``"wound_table.toml"``)."""
    return files(__name__).joinpath(name)
