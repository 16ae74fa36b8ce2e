"""A game's lean module put together: its source written (``Module``), compiled once, and run in
a namespace of its own that holds the runtime's helpers, the constants and the tables.

The moves' actions are ints: an index into the module's ``ACTIONS`` (move index, arguments);
index 0 is never an action, so that a lookup's miss and an action never look alike.
"""
from __future__ import annotations

import ast
from typing import Any

from ..engine.game import Game
from ..engine.moves import show, sub_collections
from ..engine.choices import few_sub_collections
from ..engine.rng import seed_state
from ..engine.values import copy_value
from ..limits import MAX_PLAYERS
from . import runtime
from .flow_code import write_flow, write_moves, write_scoring
from .listing_code import write_listing
from .ltypes import CARD, LType
from .module import Module
from .state_code import write_state

FILENAME = "<rules lean>"


class Actions:
    """The actions of one module: (move index, arguments) by id, and ids by key."""

    def __init__(self, module: Module):
        self.m = module
        self.list: list = [None]
        self.of: dict = {}

    def intern(self, key: Any, move: int, args: tuple) -> int:
        self.of[key] = len(self.list)
        self.list.append((move, args))
        return len(self.list) - 1

    def static(self, move: int, args: tuple) -> int:
        key = (move, *args)
        return self.of.get(key) or self.intern(key, move, args)

    def table(self, move: int, kind: LType) -> str:
        """The name of a tuple of a one-parameter move's actions, by card id or seat index."""
        size = self.m.shape.cards if kind == CARD else MAX_PLAYERS
        ids = tuple(self.static(move, (value,)) for value in range(size))
        return self.m.bind(f"A_{move}", ids)


def write_program(m: Module) -> list[str]:
    m.param_type_cache = {}
    m.actions = Actions(m)
    return write_state(m) + write_flow(m) + write_moves(m) + write_listing(m) + write_scoring(m)


class Program:
    """A game's compiled lean module: its namespace (``new_state``, ``legal``, ``step``, ``clone``,
    ``scores``, ``hint``...) and its source."""

    def __init__(self, game: Game):
        module = Module(game)
        lines = module.write(write_program)
        self.module = module
        self.source = "\n".join(lines) + "\n"
        tree = ast.parse(self.source, FILENAME)
        self.namespace = _namespace(module)
        exec(compile(tree, FILENAME, "exec"), self.namespace)       # noqa: S102  (our own code: no user text)
        self.actions = module.actions
        self.cards = game.card_table(game.min_players)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.namespace[name]
        except KeyError:
            raise AttributeError(name) from None

    def text(self) -> str:
        """The module's source as Python prints it (``rules show --generated``)."""
        return ast.unparse(ast.parse(self.source))


def _namespace(m: Module) -> dict[str, Any]:
    game = m.game
    helpers = {f"_{name}": getattr(runtime, name) for name in runtime.__all__}
    helpers.update({
        "_place": runtime.place, "_place_all": runtime.place_all, "_deal": runtime.deal, "_flip": runtime.flip,
        "_roll": runtime.roll, "_choices": runtime.choices, "_stored": runtime.stored, "_add_to": runtime.add_to,
        "_set_at": runtime.set_at, "_log_length": runtime.log_length, "_higher": runtime.higher,
        "_count_of": runtime.count_of, "_rounds_cap": runtime.rounds_cap, "_score_of": runtime.score_of,
        "_team_number": runtime.team_number, "_pile_count": runtime.pile_count,
        "_seed_state": seed_state, "_copy": copy_value, "_show": show,
        "_sub_collections": sub_collections, "_few_sub_collections": few_sub_collections,
        "_LABEL": m.shape.labels, "_PHASES": tuple(game.phase_names),
        "_FACE_UP": tuple(int(zone.face_up) for zone in m.shape.zones.values()),
        "_PLAYERS": [list(range(count)) for count in range(MAX_PLAYERS + 1)],
        "ACTIONS": m.actions.list, "_ACTION_OF": m.actions.of, "_intern": m.actions.intern,
    })
    cards = game.card_table(game.min_players)
    helpers["_ref"] = lambda value, kind: runtime.to_ref(value, kind, cards)
    return {"__builtins__": __builtins__, **helpers, **m.globals}
