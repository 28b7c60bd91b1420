"""Exact and Monte Carlo odds of shots, attacks and whole combats."""
