"""A game's lean module put together: its source written (``Module``), compiled once, and run in
a namespace of its own that holds the runtime's helpers, the constants and the tables.

The moves' actions are ints (``actions``): the move and its arguments' code.
"""
from __future__ import annotations

import ast
import copy
from types import CodeType
from typing import Any

from ..engine.game import Game
from ..engine.moves import show, sub_collections
from ..engine.choices import few_sub_collections
from ..engine.rng import seed_state
from ..engine.values import copy_value
from ..limits import MAX_PLAYERS
from . import kept, runtime
from .budget import Budget
from .ref_values import to_ref
from .flow_code import write_flow, write_moves, write_scoring
from .actions import Actions, bits, mask
from .listing_code import param_types, write_listing
from .ltypes import Unsupported
from .module import Module
from .state_code import write_state

FILENAME = "<rules lean>"
# The entry points the engine's face calls with its guard written in: ``guarded_step`` is
# ``step`` within a ``try`` whose handler calls ``_failed_step`` with the same arguments (the face
# sets it: the reference raises the exact error). A ``try`` costs nothing until it catches, a call
# through the face's method does; the bots call the bare ``step``, whose failure they only count.
GUARDED = ("step", "legal")


def write_program(m: Module) -> list[str]:
    m.param_type_cache, m.param_origins, m.param_sizes = {}, {}, {}
    m.actions = Actions(len(m.game.moves))
    for name in m.game.moves:
        param_types(m, name)
    return write_state(m) + write_flow(m) + write_moves(m) + write_listing(m) + write_scoring(m)


class Program:
    """A game's compiled lean module: its namespace (``new_state``, ``legal``, ``step``, ``clone``,
    ``scores``, ``hint``...) and its source."""

    def __init__(self, game: Game):
        module = Module(game)
        self.module = module
        self.source, code = _kept_or_written(module)
        self.budget = Budget()      # of the evaluations whose work is counted as they run
        self.namespace = _namespace(module, self.budget)
        exec(code, self.namespace)       # noqa: S102  (our own code: no user text)
        self.actions = module.actions
        self.cards = module.shape.table

    def __getattr__(self, name: str) -> Any:
        try:
            return self.namespace[name]
        except KeyError:
            raise AttributeError(name) from None

    def text(self) -> str:
        """The module's source as Python prints it (``rules show --generated``), under the values
        bound to its constants."""
        head = [f"# {self.module.game.name}: the lean engine's module. Its constants:"]
        head += [f"#   K{i} = {_shown(value)}" for i, value in enumerate(self.module.consts)]
        return "\n".join(head) + "\n\n" + ast.unparse(_with_guards(ast.parse(self.source))) + "\n"


def _kept_or_written(module: Module) -> tuple[str, CodeType]:
    """The module's source and compiled code: kept from an earlier run, else written (and kept)."""
    key = kept.entry(module.game)
    found = None if key is None else kept.load(key, module)
    if found is not None:
        return found
    try:
        source = "\n".join(module.write(write_program)) + "\n"
    except Unsupported as unsupported:
        if key is not None:
            kept.store_unsupported(key, unsupported.reason)
        raise
    code = compile(_with_guards(ast.parse(source, FILENAME)), FILENAME, "exec")
    if key is not None:
        kept.store(key, module, source, code)
    return source, code


def _with_guards(tree: ast.Module) -> ast.Module:
    """``tree`` with a guarded copy of each function of ``GUARDED``."""
    for node in list(tree.body):
        if isinstance(node, ast.FunctionDef) and node.name in GUARDED:
            guarded = copy.deepcopy(node)
            guarded.name = f"guarded_{node.name}"
            arguments: list[ast.expr] = [ast.Name(arg.arg, ast.Load()) for arg in node.args.args]
            failed = ast.Call(ast.Name(f"_failed_{node.name}", ast.Load()), arguments, [])
            handler = ast.ExceptHandler(ast.Name("Exception", ast.Load()), None, [ast.Return(failed)])
            guarded.body = [ast.Try(guarded.body, [handler], [], [])]
            tree.body.append(guarded)
    return ast.fix_missing_locations(tree)


def _namespace(m: Module, budget: Budget) -> dict[str, Any]:
    game = m.game
    helpers = {f"_{name}": getattr(runtime, name) for name in runtime.__all__}
    helpers.update({
        "_lift": runtime.lift, "_deal": runtime.deal, "_flip": runtime.flip,
        "_roll": runtime.roll, "_roll_cup": runtime.roll_cup, "_seat_number": runtime.seat_number,
        "_reveal_dice": runtime.reveal_dice,
        "_choices": runtime.choices, "_stored": runtime.stored, "_add_to": runtime.add_to,
        "_set_at": runtime.set_at, "_log_length": runtime.log_length, "_higher": runtime.higher,
        "_count_of": runtime.count_of, "_rounds_cap": runtime.rounds_cap, "_score_of": runtime.score_of,
        "_team_number": runtime.team_number, "_pile_count": runtime.pile_count, "_strongest": runtime.strongest,
        "_seed_state": seed_state, "_copy": copy_value, "_show": show, "_list_copy": list.copy,
        "_plain_subsets": lambda values: sub_collections(values)[0], "_card_subsets": runtime.card_subsets,
        "_few_sub_collections": few_sub_collections,
        "_LABEL": m.shape.labels, "_PHASES": tuple(game.phase_names),
        "_FACE_UP": tuple(int(zone.face_up) for zone in m.shape.zones.values()),
        "_PLAYERS": [list(range(count)) for count in range(MAX_PLAYERS + 1)],
        "_VALUES": m.actions.values, "_intern_values": m.actions.intern, "_bits": bits, "_mask": mask,
        "_RAW": m.actions.raw, "_intern_raw": m.actions.intern_raw,
    })
    grids = m.shape.grids
    if grids:       # a card taken out of a grid leaves its slot empty
        helpers["_lift"] = lambda s, card: runtime.lift_in_grids(s, card, grids)
        helpers["_card_slot"] = lambda s, card: runtime.card_slot(s, card, grids)
        sizes = {z.index: z.grid[0] * z.grid[1] for z in m.shape.zones.values() if z.grid is not None}
        helpers["_put_in_place"] = lambda s, place, card, bottom: runtime.put_in_place(s, place, card, bottom, sizes)
    helpers.update({"_fill": budget.fill, "_spend": budget.spend, "_charged": budget.charged,
                    "_recall": budget.recall})
    cards = m.shape.table
    helpers["_ref"] = lambda value, kind: to_ref(value, kind, cards)
    return {"__builtins__": __builtins__, **helpers, **m.globals}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 100 else text[:97] + "..."
