"""The lean engine: each game compiled to a module of its own, over a state of the game's own
shape (cards, seats and piles as ints, each variable a slot), with the reference engine as its
specification and its fallback (``engine.LeanGame``)."""
