"""The unit-based ruleset of ``002_…`` ("C4"): a second game on the same engine.

Units of fighters with a leader and a formation, the tactical phase's six game modes and
Authority opposition, the activation phase, unit actions. It reuses :mod:`confrontation.dice`,
:mod:`confrontation.geometry` and the engine core's generic records; it imports nothing of
Confédé's rules. See ``docs/c4.md``; the game's door is :mod:`confrontation.c4.step`
(``new_game`` is in :mod:`confrontation.c4.state`).
"""
