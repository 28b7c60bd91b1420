"""Whole games: one game (`game.play_game`) and many (`batch`)."""
