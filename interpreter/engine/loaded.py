"""A game file loaded, checked and compiled with its options, with the engine's operations as
methods: what the Python API (``interpreter.api``) and every front end hold."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..expr.tree_store import kept_for
from ..load.bundled import resolve_game
from ..load.spec import read_spec
from . import core as engine
from . import views
from .game import Game
from .moves import Move
from .written_names import presets_named
from .state import Presets, State


def compiled_game(game: "Game | LoadedGame") -> Game:
    """The compiled game of what ``load_game`` returns (or of a compiled game itself): every
    function of the API takes either."""
    return game.game if isinstance(game, LoadedGame) else game


class LoadedGame:
    """A compiled game with the engine's operations as methods."""

    def __init__(self, game: Game):
        self.game = game
        self.spec = game.spec
        self.name = game.name
        self.options = game.options

    def new_state(self, players: int | None = None, seed: int = 0, *, stack: dict | None = None,
                  choices: dict | None = None, rolls: list | None = None) -> State:
        """A new game. For tests, chance may be fixed as in a scenario's start: ``stack`` maps
        zones (``"stock"``, ``"hand[P1]"``) to cards by label, first = top, laid on top after each
        shuffle of the setup; ``choices`` maps a variable to the outcomes of its next
        ``choose_random`` effects from the setup on (a value, or a list in order; a seat as
        ``"P2"``, a card by label); ``rolls`` gives the values of the next rolls from the setup on
        (each ``roll`` effect takes the next list: one per cup thrown in the setup)."""
        players = self.game.default_players if players is None else players
        presets = None
        if stack or choices:
            engine.check_players(self.game, players)
            presets = presets_named(self.game, players, stack, choices)
        if rolls:
            presets = presets or Presets()
            presets.rolls = [list(r) for r in rolls]
        return engine.new_state(self.game, players, seed, presets=presets)

    def acting_seats(self, state: State) -> list[int]:
        return engine.acting_seats(self.game, state)

    def legal_moves(self, state: State, seat: int | None = None) -> list[Move]:
        return engine.legal_moves(self.game, state, seat)

    def apply(self, state: State, move: Move | str, seat: int | None = None) -> Move:
        return engine.apply_move(self.game, state, move, seat)

    def move_args(self, move: Move) -> dict[str, Any]:
        """A move's arguments by parameter name (``Move.args`` is the tuple of them in the order
        the parameters are declared, which costs nothing while moves are listed)."""
        return {param.name: value for param, value in zip(self.game.moves[move.name].params, move.args)}

    def view(self, state: State, seat: int | None) -> dict:
        return views.view(self.game, state, seat)

    def scores(self, state: State) -> list:
        return engine.scores(self.game, state)

    def results(self, state: State) -> list:
        return engine.results(self.game, state)

    def ranking(self, state: State, points: list | None = None) -> list[int]:
        return engine.ranking(self.game, state, points)

    def state_from_json(self, data: dict) -> State:
        return State.from_json(data, self.game.card_table(data["players"]))

    def digest(self) -> str:
        return self.spec.digest()


def load_game(path: str | Path, options: dict[str, Any] | None = None, *, text: str | None = None) -> LoadedGame:
    """Read, check and compile a game file, or a bundled game by its name (as ``rules play NAME``); every
    problem is reported at once (``ErrorList``). The game runs on the reference engine (its
    expressions and effects compiled to closures); ``lean_game`` gives its lean engine. A file's
    expressions are parsed once: their trees are kept for its next load (``tree_store``)."""
    if text is not None:
        return LoadedGame(_checked(Game(read_spec(path, options, text=text))))
    path = resolve_game(os.fsdecode(path))
    with kept_for(os.path.abspath(os.fsdecode(path))):
        return LoadedGame(_checked(Game(read_spec(path, options))))


def _checked(game: Game) -> Game:
    """The game, once what can only be counted by setting it up is within the limits."""
    engine.check_piles(game)
    return game
