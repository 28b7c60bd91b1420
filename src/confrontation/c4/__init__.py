"""The unit-based ruleset (``002_…``, "C4"): a second game on the same engine.

It reuses :mod:`confrontation.dice`, :mod:`confrontation.geometry` and the engine core's
generic records; it imports nothing of Confédé's rules. See docs/c4.md.
"""
