"""Agents: anything that answers the engine's questions (``choose(state, question, legal)``)."""
