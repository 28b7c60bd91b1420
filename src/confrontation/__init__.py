"""confrontation: an engine for the Confrontation skirmish game (Conf'fédé rules)."""

__version__ = "0.1.0"
