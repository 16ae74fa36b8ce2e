"""A fixed, finite space of integer actions for any game, for researchers' tools.

One action is one choice: a move is entered as its name, then each parameter's value; a value
that is a list (``subset_of``, or a domain of lists) is entered as its elements, then ``end``.
So the space is small and every action means the same thing in every state ("the card 7♥",
"the row 'ones'", "the zone d1"), whatever the move:

    [move names in declaration order] + [end] + [none, no, yes] + [numbers] + [texts]
    + [cards, one per distinct label] + [seats] + [piles of every zone]

The numbers and texts a parameter may take are gathered from the game file (every number and
quoted text written in it, its keys and plain words, the cards' attributes); numbers fill the
range from the smallest to the largest. A legal move whose value lies outside the space is
reported as an error naming the move and the value.

Legal actions come from the engine's legal moves: the distinct next choices among the moves
that begin with the choices made so far, sorted. Two moves of the same text are one move (the
engine lists each text once), and a card stands for its label, as in the move's text.

A flat space (``kind="flat"``, or ``"auto"`` when it holds at most ``FLAT_MOST`` moves) gives each
move one action instead: every move name with every combination of its parameters' values, each
parameter's values those of its type among the choices above (a card's the card labels, a
number's the numbers...; every value when its type is not known). So a move is one decision, as
in games written for the tools themselves (one action a card). A game with a parameter that is a
list has no flat space.
"""
from __future__ import annotations

import itertools
import math
import re
from typing import TYPE_CHECKING, Any, cast

from ..errors import RulesError
from ..expr import nodes as n
from ..expr.runtime import Compiled
from ..expr.types import ANY, BOOL, INT, STR, ListOf, ObjectType, element_type
from .game_parts import parsed_definitions
from .loaded import compiled_game
from .moves import Move
from .values import Card, Seat, ZoneRef

if TYPE_CHECKING:
    from .game import Game
    from .game_parts import Param
    from .loaded import LoadedGame
    from .state import State

KINDS = ("factored", "flat", "auto")
FLAT_MOST = 1024            # "auto": the most moves of a flat space; past it, moves are entered choice by choice
FLAT_LIMIT = 1 << 16        # "flat": the most moves a flat space may hold

END = "end"
MAX_NUMBERS = 4096          # a wider range of numbers keeps only those written in the file
QUOTED = re.compile(r'"([^"\\\n]*)"|\'([^\'\\\n]*)\'')
NUMBER = re.compile(r"(?<![\w.])-?\d+(?![\w.])")
PROSE = ("description", "name")      # texts for people, not values
PLAIN_WORD = re.compile(r"^[^\s\"'{}\[\]()]{1,40}$")


class ActionSpace:
    """The actions of one game for one number of seats: ids to choices and back."""

    def __init__(self, game: Game | LoadedGame, state: State, kind: str = "factored"):
        """The space of ``game`` (what ``load_game`` returns, or its compiled game) for the seats
        and zones of ``state`` (any state of the game); ``kind`` one of ``KINDS``."""
        if kind not in KINDS:
            raise RulesError(f"the action space is one of {', '.join(KINDS)}, not '{kind}'")
        self.game = game = compiled_game(game)
        self.players = state.players
        self.move_names = list(game.moves)
        atoms = _atoms(game, state)
        keys: list[tuple] = [("move", name) for name in self.move_names] + [("end",)]
        texts: list[str] = list(self.move_names) + [END]
        for key, text in atoms:
            keys.append(key)
            texts.append(text)
        # The choices' texts, in either kind of space: a text's code in an observation.
        self.choice_texts = texts
        flat = None if kind == "factored" else _flat_space(game, atoms, FLAT_LIMIT if kind == "flat" else FLAT_MOST)
        if kind == "flat" and isinstance(flat, str):
            raise RulesError(f"the action space cannot be flat: {flat}", hint="use the factored space")
        self.flat = isinstance(flat, tuple)
        if isinstance(flat, tuple):
            keys, texts = flat
        self.keys = keys
        self.texts = texts
        self.ids = {key: i for i, key in enumerate(keys)}
        self.end = self.ids.get(("end",))       # None in a flat space

    @property
    def size(self) -> int:
        return len(self.keys)

    def text(self, action: int) -> str:
        return self.texts[action]

    def encode(self, move: Move) -> tuple[int, ...]:
        """The actions that enter ``move``: its name, then each parameter's value (in a flat
        space, the one action of the whole move)."""
        if self.flat:
            action = self.ids.get(("flat", move.name, *(value_key(v) for v in move.args)))
            if action is None:
                raise RulesError(f"action space: the move '{move.text}' is not among the game's actions "
                                 f"(numbers and texts come from those written in the game file)")
            return (action,)
        out = [self.ids[("move", move.name)]]
        for value in move.args:
            self._encode_value(move, value, out)
        return tuple(out)

    def _encode_value(self, move: Move, value: Any, out: list[int]) -> None:
        if isinstance(value, (list, tuple)):
            for item in value:
                self._encode_value(move, item, out)
            out.append(self.ids[("end",)])
            return
        key = value_key(value)
        action = self.ids.get(key)
        if action is None:
            raise RulesError(f"action space: the value {value!r} of move '{move.text}' is not among the game's "
                             f"actions (numbers and texts come from those written in the game file)")
        out.append(action)

    def tree(self, moves: list[Move]) -> "Choices":
        """The legal moves as a tree of choices, for one seat at one moment."""
        return Choices({self.encode(m): m for m in moves})


class Choices:
    """Legal moves keyed by their actions: what may come next after the choices made so far."""

    def __init__(self, by_actions: dict[tuple[int, ...], Move]):
        self.by_actions = by_actions
        for actions in by_actions:
            for k in range(1, len(actions)):
                if actions[:k] in by_actions:
                    raise RulesError(f"action space: the move '{by_actions[actions[:k]].text}' is the beginning "
                                     f"of '{by_actions[actions].text}'")

    def next_actions(self, prefix: tuple[int, ...]) -> list[int]:
        k = len(prefix)
        return sorted({a[k] for a in self.by_actions if len(a) > k and a[:k] == prefix})

    def complete(self, actions: tuple[int, ...]) -> Move | None:
        return self.by_actions.get(actions)


def value_key(value: Any) -> tuple:
    """The key of one parameter value in the action space (a card stands for its label)."""
    if value is None:
        return ("none",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, str):
        return ("str", value)
    if isinstance(value, Card):
        return ("card", value.label)
    if isinstance(value, Seat):
        return ("seat", value.index)
    if isinstance(value, ZoneRef):
        return ("zone", value.name, value.owner, value.index)
    return ("other", repr(value))


def _flat_space(game: Game, atoms: list[tuple[tuple, str]], most: int) -> tuple[list[tuple], list[str]] | str:
    """Every move with every combination of its parameters' values: their keys and texts; or
    why there is no flat space of at most ``most`` moves."""
    domains: dict[str, list[list[tuple[tuple, str]]]] = {}
    written = Written(game)
    for name, move in game.moves.items():
        each = [_values_of(param, atoms, written) for param in move.params]
        if any(d is None for d in each):
            return f"the move '{name}' takes a list"
        domains[name] = [d for d in each if d is not None]
    count = sum(math.prod([len(d) for d in ds]) for ds in domains.values())
    if count > most:
        return f"its moves would be {count} actions, more than {most}"
    keys: list[tuple] = []
    texts: list[str] = []
    for name, ds in domains.items():
        for values in itertools.product(*ds):
            keys.append(("flat", name, *(key for key, _ in values)))
            texts.append(" ".join([name, *(text for _, text in values)]))
    return keys, texts


def _values_of(param: Param, atoms: list[tuple[tuple, str]], written: Written) -> list[tuple[tuple, str]] | None:
    """The choices a parameter may take, by its type (None: a list, which has no flat action);
    texts only those its list can give when the game file writes them all out; cards where the
    checker does not say but the file's definitions do."""
    item = element_type(param.domain.type) if isinstance(param.domain, Compiled) else None
    if param.kind == "subset_of" or isinstance(item, ListOf):
        return None
    kind = item.name if isinstance(item, ObjectType) else {INT: "int", STR: "str", BOOL: "bool"}.get(item or ANY)
    if kind is None and isinstance(param.domain, Compiled) and _surely_cards(param.domain.node, written):
        kind = "card"
    if kind == "str" and isinstance(param.domain, Compiled):
        listed = _written_list(param.domain.node, written)
        if listed is not None and all(isinstance(value, str) for value in listed):
            return [(("str", value), value) for value in dict.fromkeys(listed)]
    if kind in ("card", "seat", "zone", "int", "str", "bool"):
        return [atom for atom in atoms if atom[0][0] == kind]
    return atoms


class Written:
    """What the game file writes that the walks below read: its zones, its definitions (each
    one's parameters and body, parsed once), and while a definition's body is walked, its
    parameters each with whether its argument surely holds cards."""

    def __init__(self, game: Game):
        self.zones = set(game.zones)
        self.functions = parsed_definitions(game.spec.data)
        self.bound: dict[str, bool] = {}
        self.depth = 0


def _written_list(node: n.Node, written: Written, depth: int = 0) -> list | None:
    """The items a list expression can only take from the file's own list: a list of constants
    written out, a definition giving one, or a comprehension whose items are its variable over
    such a list (its conditions only drop some); None when they may come from elsewhere."""
    if depth > len(written.functions):      # definitions naming each other in a ring: they cannot
        return None
    if isinstance(node, n.ListDisplay) and all(isinstance(item, n.Literal) for item in node.items):
        return [cast(n.Literal, item).value for item in node.items]
    if isinstance(node, n.Name) and node.name in written.functions and not written.functions[node.name][0]:
        return _written_list(written.functions[node.name][1], written, depth + 1)      # a definition without parameters
    if isinstance(node, n.Comprehension) and len(node.loops) == 1 and isinstance(node.element, n.Name) \
            and node.element.name == node.loops[0].var:
        return _written_list(node.loops[0].iterable, written, depth + 1)
    return None


# Built-ins whose list holds some of the items of the list given first.
SOME_OF_FIRST = ("sorted", "sorted_by", "reversed", "unique", "without")


def _surely_cards(node: n.Node, written: Written) -> bool:
    """Whether the list ``node`` gives can hold nothing but cards, where the checker does not say
    (a defined function's result): a zone's cards, a filter or sort of such a list, two of them
    joined, both branches of an ``if``, an empty list, a definition giving one."""
    if isinstance(node, n.Member) and node.name == "cards":
        obj = node.obj
        return (isinstance(obj, n.Name) and obj.name not in written.bound and obj.name in written.zones
                or isinstance(obj, n.Member) and obj.name in written.zones)
    if isinstance(node, n.ListDisplay):
        return not node.items
    if isinstance(node, n.IfElse):
        return _surely_cards(node.then, written) and _surely_cards(node.other, written)
    if isinstance(node, n.Arith):
        return all(op == "+" for op, _ in node.steps) and all(
            _surely_cards(part, written) for part in [node.first, *(operand for _, operand in node.steps)])
    if isinstance(node, n.Comprehension):
        loop = node.loops[0]
        return len(node.loops) == 1 and isinstance(node.element, n.Name) and node.element.name == loop.var \
            and _surely_cards(loop.iterable, written)
    if isinstance(node, n.Name):
        if node.name in written.bound:
            return written.bound[node.name]
        return _surely_called(node.name, [], written)
    if isinstance(node, n.Call) and isinstance(node.callee, n.Name) and node.args:
        if node.callee.name in SOME_OF_FIRST:
            return _surely_cards(node.args[0], written)
        return _surely_called(node.callee.name, list(node.args), written)
    return False


def _surely_called(name: str, args: list[n.Node], written: Written) -> bool:
    """Whether the definition ``name`` called with ``args`` surely gives a list of cards."""
    if name not in written.functions or written.depth > len(written.functions):       # a ring of definitions
        return False
    params, body = written.functions[name]
    if len(params) != len(args):
        return False
    bound = {param: _surely_cards(arg, written) for param, arg in zip(params, args)}
    outer, written.bound = written.bound, bound
    written.depth += 1
    try:
        return _surely_cards(body, written)
    finally:
        written.bound = outer
        written.depth -= 1


def _atoms(game: Game, state: State) -> list[tuple[tuple, str]]:
    players = state.players
    atoms: list[tuple[tuple, str]] = [(("none",), "none"), (("bool", False), "no"), (("bool", True), "yes")]
    numbers, words = _written_values(game, players)
    atoms += [(("int", n), str(n)) for n in numbers]
    atoms += [(("str", w), w) for w in words]
    labels: list[str] = []
    for card in game.card_table(players):
        if card.label not in labels:
            labels.append(card.label)
    atoms += [(("card", label), label) for label in labels]
    atoms += [(("seat", s), str(Seat(s))) for s in range(players)]
    for name, piles in state.zones.items():
        per_owner = len(piles) // game.owners(state, name)
        for i in range(len(piles)):
            owner = None if game.zones[name].per == "game" else i // per_owner
            ref = ZoneRef(name, owner, i % per_owner, numbered=per_owner > 1)
            atoms.append((("zone", name, owner, i % per_owner), str(ref)))
    return atoms


def _written_values(game: Game, players: int) -> tuple[list[int], list[str]]:
    """Every number written in the game file and every text it quotes; the keys and texts of its
    variables; the cards' attributes and the options' values. Numbers fill their range."""
    dice = game.dice_count * (players if game.dice_per == "seat" else 1)      # every die in play: a count of them
    numbers: set[int] = set(range(max(players, dice) + 1)) | set(range(1, game.dice_faces + 1))
    words: set[str] = set()

    def visit(node: Any, plain: bool) -> None:
        if isinstance(node, bool):
            return
        if isinstance(node, int):
            numbers.add(node)
        elif isinstance(node, str):
            for m in QUOTED.finditer(node):
                words.add(m.group(1) if m.group(1) is not None else m.group(2))
            for m in NUMBER.finditer(node):
                numbers.add(int(m.group()))
            if plain and PLAIN_WORD.match(node):
                words.add(node)
        elif isinstance(node, dict):
            for k, v in node.items():
                if k not in PROSE:
                    visit(k, plain)
                    visit(v, plain)
        elif isinstance(node, list):
            for v in node:
                visit(v, plain)

    data = game.spec.data
    visit({k: v for k, v in data.items() if k not in ("options", "variables")}, False)   # an option's bounds are no values
    visit(data.get("variables", {}), True)
    visit(list(game.options.values()), True)
    for card in game.card_table(players):
        visit([v for k, v in card.attrs.items() if k not in ("deck", "owner")], True)
    if numbers and max(numbers) - min(numbers) < MAX_NUMBERS:
        numbers = set(range(min(numbers), max(numbers) + 1))
    return sorted(numbers), sorted(words)
