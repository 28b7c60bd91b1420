"""Tournaments (XX-A-4, XX-A-5, C3 tournament): an event's format and players, their lists
checked by the I-D validator, Swiss pairings, results, tournament points and standings, kept
in the game store; and the AI tournament, a round-robin of seeded AI games."""
