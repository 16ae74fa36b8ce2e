"""Bots: what a bot may see (states sampled from one seat's observations) and how it decides.
Takes a ``Game`` and a state; gives a move. The kinds are in ``agents.make_bot``."""
