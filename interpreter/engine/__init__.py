"""The engine: a checked spec compiled once into a ``Game``; states, legal moves, effects, flow,
scores and views. Takes a ``Spec`` (``load``) and expressions (``expr``); gives states and views."""
from .core import (
           apply_move,
           evaluate_hint,
           new_state,
           ranking,
           results,
           scores,
           winners,
)
from .legal import acting_seats, find_move, has_move, legal_moves
from .moves import Move

__all__ = ["new_state", "acting_seats", "has_move", "legal_moves", "find_move", "apply_move", "scores", "results",
           "ranking", "winners", "evaluate_hint", "Move"]
