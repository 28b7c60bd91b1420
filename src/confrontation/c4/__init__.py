"""The unit-based ruleset of ``002_…`` ("C4"): a second game on the same engine.

Cards and companies (:mod:`.cards`, :mod:`.company`), the universal table of resolution
(:mod:`.resolution`), salvos and combats (:mod:`.salvo`) and their exact odds (:mod:`.odds`);
see docs/c4.md for the other engineers' modules (formations, movement, the game's flow).
"""
