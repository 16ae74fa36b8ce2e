"""A move built one choice at a time, so that no list is longer than a screen: first the move,
then each of its parameters in order. A parameter that is a sub-collection (dice to throw again,
cards to discard) is built by toggling its members, then "done"; a parameter whose values are
lists (two slots of a grid) is built one member at a time; a choice with a single option is
made at once. Knows nothing of any game: it reads the legal moves and their parameters.

A value may also be picked on the board (``pick``: a card, a pile, a seat, a die): it is the
parameter being chosen when it is one of its values (a member toggled, for a sub-collection),
else it narrows the moves to those that use it anywhere ("the moves of this card"), and the
choices go on among them. Every choice is kept in order (``actions``): going back one choice
makes all the others again on the moves as they were.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.moves import Move, order_key, show
from ...engine.values import Card, Seat, ZoneRef
from ..card_text import card_text
from ..words import Words

DONE = "done"
PLACES = (Card, ZoneRef, Seat)     # values shown as places of the board


@dataclass(frozen=True)
class Option:
    label: str
    key: Any            # what choosing it means to the builder
    marked: bool = False   # a member toggled on
    enabled: bool = True


def value_text(value: Any) -> str:
    if isinstance(value, Card):
        return card_text(value.label)
    if isinstance(value, (list, tuple)):
        return " ".join(value_text(v) for v in value)
    return show(value) if value is not None else "(none)"


class MoveBuilder:
    """The choices of one seat among ``moves`` (its legal moves), with ``kinds`` the kind of each
    parameter of each move (``{"rethrow": ["subset_of"]}``)."""

    def __init__(self, moves: list[Move], kinds: dict[str, list[str]], words: Words | None = None,
                 seat: int | None = None):
        self.all_moves = moves
        self.kinds = kinds
        self.words = words
        self.seat = seat
        self.actions: list[tuple] = []    # the person's choices in order: ("choose", key), ("pick", values)
        self._start()

    def _start(self) -> None:
        self.moves = self.all_moves   # narrowed by the values picked on the board
        self.name: str | None = None
        self.args: list = []          # the parameters chosen so far
        self.part: list = []          # the members chosen so far of a list-valued parameter
        self.toggled: list[int] = []  # indexes into the pool of a sub-collection being built
        self.picked: list = []        # the values picked on the board that narrowed the moves
        self.placed: dict = {}        # the member of a sub-collection each place picked toggled on
        self.chosen = False           # whether the person has made a choice yet
        self._skip_single()

    # -- where we are ----------------------------------------------------------------------------
    def matching(self) -> list[Move]:
        """The legal moves that agree with every choice made so far."""
        found = [m for m in self.moves if self.name is None or m.name == self.name]
        found = [m for m in found if all(_same(a, b) for a, b in zip(m.args, self.args))]
        if self.part:
            k = len(self.args)
            found = [m for m in found if list(m.args[k])[:len(self.part)] == self.part]
        return found

    def complete(self) -> Move | None:
        """The move, once every choice is made."""
        found = self.matching()
        if self.name is not None and len(self.args) == len(self.kinds[self.name]) and found:
            return found[0]
        return None

    def path(self) -> str:
        """The choices so far, as text: ``throw 6 6 again`` (``rethrow 6 6`` without words)."""
        chosen = {k: self._value_text(a, k) for k, a in enumerate(self.args) if a is not None}
        begun = [self._value_text(self.part, len(self.args))] if self.part else []
        if self.toggled:
            pool = self._pool()
            begun.append("{" + " ".join(self._value_text(pool[i], len(self.args)) for i in sorted(self.toggled)) + "}")
        if begun:
            chosen[len(self.args)] = " ".join(begun)
        if self.words is None or self.name is None:
            return " ".join(([self.name] if self.name else []) + [chosen[k] for k in sorted(chosen)])
        params = self.words.params(self.name)
        return self.words.move_choice(self.name, {params[k]: text for k, text in chosen.items() if k < len(params)})

    def _value_text(self, value: Any, k: int) -> str:
        """The ``k``th parameter's value (of the move being built) as the person reads it."""
        if self.words is None:
            return value_text(value)
        params = self.words.params(self.name) if self.name is not None else []
        return self.words.value(self.name, params[k] if k < len(params) else None, value, self.seat)

    def kind(self) -> str | None:
        if self.name is None:
            return None
        kinds = self.kinds[self.name]
        return kinds[len(self.args)] if len(self.args) < len(kinds) else None

    def options(self) -> list[Option]:
        if self.name is None:
            counts: dict[str, int] = {}
            for m in self.moves:
                counts[m.name] = counts.get(m.name, 0) + 1
            shown = self.words.move_name if self.words is not None else str
            return [Option(shown(name) + (f" ({n})" if n > 1 else ""), name) for name, n in counts.items()]
        kind = self.kind()
        if kind is None:
            return []
        if kind == "subset_of":
            return self._toggle_options()
        values = self._values()
        if self._by_member(values):
            k = len(self.part)
            members = _distinct(list(v)[k] for v in values if len(v) > k)
            return [Option(self._value_text(m, len(self.args)), ("member", m)) for m in members]
        return [Option(self._value_text(v, len(self.args)), ("value", v)) for v in values]

    def current_values(self) -> list:
        """The values the parameter being chosen may take (a sub-collection's members), to mark
        on the board; none before a move or a value is chosen."""
        if self.name is None and self.picked:      # a card picked: every value its moves use
            values = [x for m in self.moves for a in m.args if a is not None
                      for x in (a if isinstance(a, (list, tuple)) else [a])]
            return [v for v in _distinct(values) if not any(_same(v, p) for p in self.picked)]
        if self.name is None or self.part:
            return []
        kind = self.kind()
        if kind == "subset_of":
            return self._pool()
        return self._values() if kind == "from" else []

    def chosen_values(self) -> list:
        """The values chosen so far (parameters, members toggled on, values picked)."""
        out = [a for a in self.args if a is not None] + list(self.picked)
        if self.toggled:
            pool = self._pool()
            placed = set(self.placed.values())
            out += [pool[i] for i in self.toggled if i not in placed]
        return [x for v in out for x in (v if isinstance(v, (list, tuple)) else [v])]

    def chosen_places(self) -> list:
        """The places picked on the board for the members toggled on (the very die picked)."""
        return [where for where, index in self.placed.items() if index in self.toggled]

    # -- choosing --------------------------------------------------------------------------------
    def choose(self, key: Any) -> None:
        self.actions.append(("choose", key))
        self._choose(key)

    def pick(self, candidates: list, shown: str | None = None, where: Any = None) -> str | None:
        """A place picked on the board (``where``), as the values it may stand for, most likely
        first (a card, then its pile); None when taken, else why not (nothing is changed),
        naming the place as ``shown`` (else as its first value)."""
        if not candidates:
            return "nothing to pick there"
        action = ("pick", candidates, where)
        if self.actions and self.actions[-1] == action:
            self.back()                    # the same place again: picked no more
            return None
        for value in candidates:
            if self._take_as_parameter(value, where):
                self.actions.append(action)
                return None
        for value in candidates:
            using = [m for m in self.matching() if _uses(m, value)]
            if using:
                if not self._begin_with(value, using, where):
                    self._narrow(value, using)
                self.actions.append(action)
                return None
        shown = shown or value_text(candidates[0])
        if self.name is not None or self.picked:
            return f"'{self.path()}' cannot use {shown}"
        return f"no legal move uses {shown} now"

    def moves_with(self, key: Any) -> list[Move]:
        """The legal moves that choosing ``key`` now would leave: a move's name, or a value of the
        parameter being chosen (none for a member toggled)."""
        if self.name is None:
            return [m for m in self.moves if m.name == key]
        if isinstance(key, tuple) and key[0] == "value":
            k = len(self.args)
            return [m for m in self.matching() if len(m.args) > k and _same(m.args[k], key[1])]
        return []

    def narrow_to(self, moves: list[Move]) -> None:
        """Only these moves stay to choose from (a pile picked that several moves name)."""
        self.actions.append(("only", [m.text for m in moves]))
        self.moves, self.chosen = moves, True

    def _take_as_parameter(self, value: Any, where: Any = None) -> bool:
        kind = self.kind()
        if kind == "subset_of":
            pool = self._pool()
            matches = [i for i, v in enumerate(pool) if _key(v) == _key(value)]
            if not matches:
                return False
            if where is not None and self.placed.get(where) in self.toggled:
                index = self.placed.pop(where)          # that very member, toggled off
            else:
                off = [i for i in matches if i not in self.toggled]
                if not off:
                    return False
                index = off[0]
                if where is not None:
                    self.placed[where] = index
            self._choose(("toggle", index))
            return True
        if kind == "from" and not self.part:
            found = [v for v in self._values() if _same(v, value)]
            if found:
                self._choose(("value", found[0]))
                return True
        return False

    def _begin_with(self, value: Any, using: list[Move], where: Any = None) -> bool:
        """Before any move is chosen, a value that only one move uses, as a member of the
        sub-collection it builds (a die to throw again): that move begun, the member toggled."""
        names = _distinct(m.name for m in using)
        if self.name is not None or len(names) != 1:
            return False
        saved = (self.name, list(self.args), self.chosen)
        self.name, self.chosen = names[0], True
        self._skip_single()
        if self.kind() == "subset_of" and self._take_as_parameter(value, where):
            return True
        self.name, self.args, self.chosen = saved[0], saved[1], saved[2]
        return False

    def _narrow(self, value: Any, using: list[Move]) -> None:
        self.chosen = True
        self.moves = using
        self.picked.append(value)
        if self.name is None:
            names = _distinct(m.name for m in using)
            if len(names) == 1:
                self.name = names[0]
        self._skip_single()

    def _choose(self, key: Any) -> None:
        self.chosen = True
        if self.name is None:
            self.name = key
        elif key == DONE:
            pool = self._pool()
            chosen = sorted((pool[i] for i in self.toggled), key=order_key)
            self.args.append(chosen)
            self.toggled, self.placed = [], {}
        elif isinstance(key, tuple) and key[0] == "toggle":
            index = key[1]
            self.toggled.remove(index) if index in self.toggled else self.toggled.append(index)
            return
        elif key[0] == "member":
            self.part.append(key[1])
            values = self._values()
            if any(list(v) == self.part for v in values):
                self.args.append(next(v for v in values if list(v) == self.part))
                self.part = []
        else:
            self.args.append(key[1])
        self._skip_single()

    def back(self) -> bool:
        """Undo the last choice (the others made again, on the moves as they were); False when
        there was none."""
        if not self.actions:
            return False
        kept = self.actions[:-1]
        self.actions = []
        self._start()
        for action in kept:
            self.replay(action)
        return True

    def replay(self, action: tuple) -> bool:
        """Make a choice again (kept with the others); False when it is not possible here."""
        what, value = action[0], action[1]
        if what == "pick":
            return self.pick(value, None, action[2]) is None
        if what == "only":
            moves = [m for m in self.moves if m.text in value]
            if moves:
                self.narrow_to(moves)
            return bool(moves)
        if what == "choose":
            if value not in [o.key for o in self.options()]:
                return False
            self.choose(value)
            return True
        return False

    # -- helpers ---------------------------------------------------------------------------------
    def _skip_single(self) -> None:
        """Make at once every choice that has one option (a move's only possible value)."""
        if self.name is None:
            names = _distinct(m.name for m in self.moves)
            if len(names) == 1 and self.kinds.get(names[0]):
                self.name = names[0]
            else:
                return
        while self.kind() == "from" and not self.part:
            values = self._values()
            if len(values) != 1:
                return
            if len(self.args) == len(self.kinds[self.name]) - 1 and not self.chosen:
                return         # the move would be complete: the person confirms it
            if self.picked and isinstance(values[0], PLACES) and not any(_same(values[0], p) for p in self.picked):
                return         # a move begun on the board: its places are picked there too
            self.args.append(values[0])

    def _values(self) -> list:
        return self._values_at(len(self.args))

    def _values_at(self, k: int) -> list:
        found = [m for m in self.moves if m.name == self.name and all(_same(a, b) for a, b in zip(m.args, self.args[:k]))]
        return _distinct(m.args[k] for m in found if len(m.args) > k)

    def _by_member(self, values: list) -> bool:
        return bool(values) and all(isinstance(v, (list, tuple)) for v in values) and len(values) > 1

    def _pool(self) -> list:
        """Every member a sub-collection may take, as often as the largest one has it."""
        pool: list = []
        for subset in self._values():
            counts: dict = {}
            for v in subset:
                counts[_key(v)] = counts.get(_key(v), 0) + 1
            for v in subset:
                have = sum(1 for p in pool if _key(p) == _key(v))
                if have < counts[_key(v)]:
                    pool.append(v)
        return sorted(pool, key=order_key)

    def _toggle_options(self) -> list[Option]:
        pool = self._pool()
        chosen = sorted((pool[i] for i in self.toggled), key=order_key)
        legal = any([_key(v) for v in subset] == [_key(v) for v in chosen] for subset in self._values())
        options = [Option(self._value_text(v, len(self.args)), ("toggle", i), marked=i in self.toggled)
                   for i, v in enumerate(pool)]
        return options + [Option(DONE, DONE, enabled=legal)]


def stable_key(key: Any) -> Any:
    """A choice's key as compared from one list of choices to the next (values by what they are)."""
    if isinstance(key, tuple) and key[0] == "value":
        value = key[1]
        return ("value", tuple(_key(v) for v in value) if isinstance(value, (list, tuple)) else _key(value))
    return key


def _uses(move: Move, value: Any) -> bool:
    """Whether ``value`` is one of the move's arguments, or a member of one."""
    for arg in move.args:
        if isinstance(arg, (list, tuple)):
            if any(_same(member, value) for member in arg):
                return True
        elif arg is not None and _same(arg, value):
            return True
    return False


def _key(value: Any) -> Any:
    if isinstance(value, Card):
        return ("card", value.id)
    if isinstance(value, ZoneRef):      # how it is written (numbered or not) does not matter
        return ("zone", value.name, value.owner, value.index)
    return (type(value).__name__, repr(value))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return _key(a) == _key(b)


def _distinct(values) -> list:
    seen: set = set()
    out = []
    for v in values:
        k = _key(v) if not isinstance(v, (list, tuple)) else tuple(_key(x) for x in v)
        if k not in seen:
            seen.add(k)
            out.append(v)
    return out
