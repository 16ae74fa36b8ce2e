"""A game file loaded, checked and compiled with its options, with the engine's operations as
methods: what the Python API (``interpreter.api``) and every front end hold."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..load.spec import read_spec
from . import core as engine
from . import views
from .game import Game
from .moves import Move
from .state import State


class LoadedGame:
    """A compiled game with the engine's operations as methods."""

    def __init__(self, game: Game):
        self.game = game
        self.spec = game.spec
        self.name = game.name
        self.options = game.options

    def new_state(self, players: int | None = None, seed: int = 0) -> State:
        return engine.new_state(self.game, players, seed)

    def acting_seats(self, state: State) -> list[int]:
        return engine.acting_seats(self.game, state)

    def legal_moves(self, state: State, seat: int | None = None) -> list[Move]:
        return engine.legal_moves(self.game, state, seat)

    def apply(self, state: State, move: Move | str, seat: int | None = None) -> Move:
        return engine.apply_move(self.game, state, move, seat)

    def view(self, state: State, seat: int | None) -> dict:
        return views.view(self.game, state, seat)

    def scores(self, state: State) -> list:
        return engine.scores(self.game, state)

    def results(self, state: State) -> list:
        return engine.results(self.game, state)

    def ranking(self, state: State) -> list[int]:
        return engine.ranking(self.game, state)

    def state_from_json(self, data: dict) -> State:
        return State.from_json(data, self.game.card_table(data["players"]))

    def digest(self) -> str:
        return self.spec.digest()


def load_game(path: str | Path, options: dict[str, Any] | None = None, *, text: str | None = None) -> LoadedGame:
    """Read, check and compile a game file; every problem is reported at once (``ErrorList``)."""
    return LoadedGame(Game(read_spec(path, options, text=text)))
