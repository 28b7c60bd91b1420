"""Scenario files the scenario tests share."""

from __future__ import annotations

SCENARIO = """
name = "Hold the centre"
section = "XX-A-4"
rounds = 2
goal = "conditions"

[[areas]]
name = "the centre"
shape = "centre"

[[areas]]
name = "Player 1's deployment area"
shape = "deployment"
owner = 1

[[conditions]]
id = "centre"
kind = "area"
area = "the centre"
when = "round"
text = "control the centre at the end of a round"

[[conditions]]
id = "home"
kind = "area"
area = "Player 1's deployment area"
players = [1]

[[bonus]]
id = "centre-bonus"
kind = "area"
area = "the centre"
ap = 30
"""
"""A two-player scenario of victory conditions (XX-A-4): an `area` condition checked every
round, one for Player 1 only at the end, and a bonus."""
