"""An expression's checked tree written as one Python expression over the lean state.

Every author's value (a string, a float) enters as a constant bound outside the code
(``Module.const``); every identifier is made here. Where the language and Python agree (an index
out of range, a division by zero, a member of none, comparing a number with a text) the Python
error is left to happen: the step then fails and is replayed in the reference engine, which
raises the language's own error. Where they differ (a bool that must be one, a number that must
stay within 18 digits, ``/`` of two ints), the code checks, or calls ``runtime``.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from ..expr import nodes as n
from .calls import CallWriter
from ..limits import MAX_COLLECTION
from .code import RANGE_BITS, SAFE_BITS, UNBOUNDED, Code, Env, const_code
from .names import NameWriter
from .work import Counted
from .ltypes import (
    BOOL,
    DYN,
    EMPTY,
    INT,
    NUM,
    STR,
    NONE,
    LType,
    ListT,
    MapT,
    Opt,
    Unsupported,
    element,
    holds_objects,
    is_object,
    join,
    join_all,
    strip,
)

class ExprWriter:
    """Writes expressions for one module; ``module`` keeps the constants, the temporaries, the
    types of the variables and the defined functions (see ``module.Module``)."""

    def __init__(self, module: Any):
        self.m = module
        self.names = NameWriter(self)
        self.calls = CallWriter(self)
        self._nodes: dict[type, Callable[[Any, Env], Code]] = {
            n.Literal: self._literal, n.Name: self.names.name, n.ListDisplay: self._list, n.MapDisplay: self._map,
            n.Range: self._range, n.Negation: self._negation, n.Not: self._not, n.Arith: self._arith,
            n.Compare: self._compare, n.BoolOp: self._bool_op, n.IfElse: self._if_else,
            n.Member: self.names.member, n.Index: self._index, n.Slice: self._slice, n.Call: self.calls.call,
            n.Comprehension: self._comprehension, Counted: self._counted,
        }

    def write(self, node: n.Node, env: Env) -> Code:
        handler = self._nodes.get(type(node))
        if handler is None:
            raise Unsupported(f"an expression of the kind {type(node).__name__}")
        code = handler(node, env)
        return self.charged(code) if _makes_collection(node) else code

    def charged(self, code: Code) -> Code:
        """``code`` spending its items from the budget as it runs, where it may give a list, a
        text or a map, in an expression whose work is counted (else as it is)."""
        kind = strip(code.type)
        if self.m.counting and (kind in (STR, DYN) or isinstance(kind, (ListT, MapT))):
            return replace(code, text=f"_charged({code.text})")
        return code

    def _counted(self, node: Counted, env: Env) -> Code:
        counting, self.m.counting = self.m.counting, True
        try:
            code = self.write(node.tree, env)
        finally:
            self.m.counting = counting
        return replace(code, text=f"(_fill() or {code.text})")

    def condition(self, node: n.Node, env: Env) -> str:
        """A condition: a bool, checked when its type does not say it is one."""
        return self.as_bool(self.write(node, env))

    def as_bool(self, code: Code) -> str:
        return code.text if code.type == BOOL else f"_truth({code.text})"

    # -- leaves and displays ---------------------------------------------------------------------
    def _literal(self, node: n.Literal, env: Env) -> Code:
        return const_code(node.value, self.m)

    def _list(self, node: n.ListDisplay, env: Env) -> Code:
        if node.items and all(isinstance(item, n.Literal) and type(item.value) in (int, str) for item in node.items):
            return const_code([cast(n.Literal, item).value for item in node.items], self.m)     # made once, bound
        items = [self.write(item, env) for item in node.items]
        kind = join_all([c.type for c in items])
        if kind is None:
            raise Unsupported("a list holds values of several kinds")
        items = [self.m.as_type(c, kind) for c in items]
        return Code("[" + ", ".join(c.text for c in items) + "]", ListT(kind), size=len(items),
                    bits=max((c.bits for c in items), default=0))

    def _map(self, node: n.MapDisplay, env: Env) -> Code:
        if node.pairs and all(isinstance(x, n.Literal) and type(x.value) in (int, str)
                              for pair in node.pairs for x in pair):
            literals = cast("tuple[tuple[n.Literal, n.Literal], ...]", node.pairs)
            return const_code({k.value: v.value for k, v in literals}, self.m)      # made once, bound
        keys = [self.write(k, env) for k, _ in node.pairs]
        values = [self.write(v, env) for _, v in node.pairs]
        key_type, value_type = join_all([k.type for k in keys]), join_all([v.type for v in values])
        if key_type is None or value_type is None or strip(key_type) not in (STR, INT, EMPTY):
            raise Unsupported("a map's keys or values are of several kinds")
        # A key that may be none is checked as the language checks it (Python takes None for one).
        written = [k.text if k.type in (STR, INT) else f"_map_key({k.text})" for k in keys]
        pairs = ", ".join(f"{k}: {v.text}" for k, v in zip(written, values))
        return Code("{" + pairs + "}", MapT(strip(key_type), value_type))

    def _range(self, node: n.Range, env: Env) -> Code:
        low, high = self.write(node.low, env), self.write(node.high, env)
        if isinstance(node.low, n.Literal) and isinstance(node.high, n.Literal) and low.type == high.type == INT:
            values = list(range(node.low.value, node.high.value + 1))
            if len(values) <= 1000:
                return Code(self.m.const(values), ListT(INT), live=True, size=len(values), unique=True,
                            bits=max(abs(values[0]), abs(values[-1])).bit_length() if values else 0)
        bits = max(low.bits, high.bits)
        if low.type == high.type == INT and bits < RANGE_BITS:     # too few items to pass the limit
            return Code(f"list(range({low.text}, {high.text} + 1))", ListT(INT), bits=bits, unique=True)
        return Code(f"_inclusive_range({low.text}, {high.text})", ListT(INT), bits=bits, unique=True)

    # -- operators -------------------------------------------------------------------------------
    def _negation(self, node: n.Negation, env: Env) -> Code:
        operand = self.write(node.operand, env)
        if holds_objects(strip(operand.type)):      # a card or a seat is an int here
            raise Unsupported(f"negation of {strip(operand.type)}")
        if _may_be_bool(operand):       # -True is -1 in Python, an error in the language
            return Code(f"_negate({operand.text})", NUM)
        return Code(f"(-{operand.text})", operand.type, bits=operand.bits)

    def _not(self, node: n.Not, env: Env) -> Code:
        operand = self.condition(node.operand, env)
        if operand in ("True", "False"):
            return Code("False" if operand == "True" else "True", BOOL)
        return Code(f"(not {operand})", BOOL)

    def _arith(self, node: n.Arith, env: Env) -> Code:
        result = self.write(node.first, env)
        for op, operand in node.steps:
            result = self._binary(op, result, self.write(operand, env))
        return result

    def _binary(self, op: str, a: Code, b: Code) -> Code:
        at, bt = strip(a.type), strip(b.type)
        if NONE in (at, bt):    # none so far (a later pass may learn more): it fails as the reference's does
            return Code("_fail()", bt if at == NONE else at)
        if op == "+" and (isinstance(at, ListT) or isinstance(bt, ListT)):
            kind = join(at, bt)
            if kind is None:
                raise Unsupported("a list joined to a list of another kind")
            piles = _joined_piles(a, b)
            a, b = self.m.as_type(a, kind), self.m.as_type(b, kind)
            size = None if a.size is None or b.size is None else a.size + b.size
            return Code(f"_sized({a.text} + {b.text})", kind, size=size, piles=piles, bits=max(a.bits, b.bits))
        if op == "+" and STR in (at, bt):
            return Code(f"_sized({a.text} + {b.text})", STR)
        if holds_objects(at) or holds_objects(bt):
            raise Unsupported(f"arithmetic on {at} and {bt}")
        if op == "/":
            return self._divided(a, b, at, bt)
        if _may_be_bool(a) or _may_be_bool(b):     # True + 1 is 2 in Python, an error in the language
            return Code(f"_{ARITHMETIC[op]}({a.text}, {b.text})", NUM if STR not in (at, bt) else DYN)
        numbers = INT if at == bt == INT else NUM
        if op in ("//", "%"):
            # A float's floor division by less than one is larger than the float.
            bits = (a.bits if numbers == INT else UNBOUNDED) if op == "//" else b.bits
            return self._bounded(f"({a.text} {op} {b.text})", numbers, bits, at, bt)
        bits = max(a.bits, b.bits) + 1 if op in "+-" else a.bits + b.bits
        return self._bounded(f"({a.text} {op} {b.text})", numbers, bits, at, bt)

    def _divided(self, a: Code, b: Code, at: LType, bt: LType) -> Code:
        """``/``: by a positive int written in the game, a number no larger than the one divided
        (``runtime.divide_by``: the operands need no checks); else the language's ``divide``."""
        if at in (INT, NUM) and bt == INT and b.text.isdigit() and int(b.text) > 0:
            return self._bounded(f"_divide_by({a.text}, {b.text})", NUM, a.bits, at, bt)
        return Code(f"_divide({a.text}, {b.text})", NUM)

    def _bounded(self, text: str, kind: LType, bits: int, at: LType, bt: LType) -> Code:
        """A number known to be small (an int's or a float's operands small) is left as it is;
        anything else is checked to be within 18 digits (a bool is no operand: the checker refuses
        one at load)."""
        if bits <= SAFE_BITS and at in (INT, NUM) and bt in (INT, NUM):
            return Code(text, kind, bits=bits)
        return Code(f"_number({text})", kind, bits=min(bits, UNBOUNDED))

    def bounded_sum(self, text: str, kind: LType, items: Code) -> Code:
        """The sum of a list whose items and length are known to be small, unchecked."""
        bits = items.bits + (items.size or MAX_COLLECTION).bit_length()
        return self._bounded(text, kind, bits, kind, kind)

    def _compare(self, node: n.Compare, env: Env) -> Code:
        parts = [self.write(node.first, env)]
        ops = []
        for op, operand in node.steps:
            right = self.write(operand, env)
            self._comparable(op, parts[-1], right)
            ops.append(op)
            parts.append(right)
        if any(op in ORDERINGS for op in ops) and any(map(_may_be_bool, parts)):
            # True < 2 holds in Python and fails in the language: the language's own comparisons
            tests = [f'_compared["{op}"]({left.text}, {right.text})' for op, left, right in zip(ops, parts, parts[1:])]
            return Code(f"({' and '.join(tests)})", BOOL)
        text = parts[0].text
        for op, part in zip(ops, parts[1:]):
            text += f" {op} {part.text}"
        return Code(f"({text})", BOOL)

    def _comparable(self, op: str, a: Code, b: Code) -> None:
        """Two values a lean comparison gives the reference's answer for: a card, a seat or a zone
        (ints here) beside a value that may be a number would compare equal to it."""
        at, bt = strip(a.type), strip(b.type)
        if op in ("in", "not in"):
            bt = element(bt) if not isinstance(bt, MapT) else bt.key
        if op in ("<", "<=", ">", ">=") and (holds_objects(at) or holds_objects(bt)):
            raise Unsupported(f"'{op}' between {at} and {bt}")
        plain = (INT, NUM, DYN, BOOL)
        if (holds_objects(at) and bt in plain) or (holds_objects(bt) and at in plain):
            raise Unsupported(f"'{op}' between {at} and {bt}")
        if is_object(at) and is_object(bt) and at != bt:
            raise Unsupported(f"'{op}' between {at} and {bt}")

    def _bool_op(self, node: n.BoolOp, env: Env) -> Code:
        parts = [self.condition(operand, env) for operand in node.operands]
        # An option known at load decides: ``false and x`` is false, ``true and x`` is x.
        deciding, neutral = ("False", "True") if node.op == "and" else ("True", "False")
        kept = []
        for part in parts:
            if part == neutral:
                continue
            kept.append(part)
            if part == deciding:
                break
        if not kept:
            return Code(neutral, BOOL)
        if len(kept) == 1:
            return Code(kept[0], BOOL)
        return Code("(" + f" {node.op} ".join(kept) + ")", BOOL)

    def _if_else(self, node: n.IfElse, env: Env) -> Code:
        test = self.condition(node.test, env)
        then, other = self.write(node.then, env), self.write(node.other, env)
        kind = join(then.type, other.type)
        if kind is None:
            raise Unsupported(f"'if' gives {then.type} or {other.type}")
        then, other = self.m.as_type(then, kind), self.m.as_type(other, kind)
        if test in ("True", "False"):       # an option known at load: the branch it takes, alone
            return replace(then if test == "True" else other, type=kind)
        return Code(f"({then.text} if {test} else {other.text})", kind, then.live or other.live,
                    max(then.bits, other.bits))

    # -- access ----------------------------------------------------------------------------------
    def _index(self, node: n.Index, env: Env) -> Code:
        obj, key = self.write(node.obj, env), self.write(node.index, env)
        kind = strip(obj.type)
        if isinstance(kind, MapT):
            return Code(f"{obj.text}[{key.text}]", kind.value, live=True)
        if kind == STR:
            return Code(f"{obj.text}[{self._int(key)}]", STR)
        if isinstance(kind, ListT):
            elem = kind.elem
            return Code(f"{obj.text}[{self._int(key)}]", elem, live=isinstance(elem, (ListT, MapT)),
                        bits=_item_bits(elem), origin=obj.origin)
        raise Unsupported(f"an index of {kind}")

    def _int(self, key: Code) -> str:
        """An index: an int (a bool is one in Python, never in the language)."""
        return key.text if strip(key.type) == INT else f"_index({key.text})"

    def _slice(self, node: n.Slice, env: Env) -> Code:
        obj = self.write(node.obj, env)
        kind = strip(obj.type)
        if not isinstance(kind, ListT) and kind != STR:
            raise Unsupported(f"a slice of {kind}")
        low = self._int(self.write(node.low, env)) if node.low is not None else ""
        high = self._int(self.write(node.high, env)) if node.high is not None else ""
        return Code(f"{obj.text}[{low}:{high}]", kind, size=obj.size, unique=obj.unique, origin=obj.origin)

    def _comprehension(self, node: n.Comprehension, env: Env) -> Code:
        clauses: list[str | tuple[str, str | None]] = []
        for name, code in self._seat_variables_read(node, env):
            var = self.m.temp(name)
            clauses.append(f"for {var} in ({code.text},)")
            env = env.bind(name, replace(code, text=var))
        size: int | None = 1
        first_unique, first_origin = False, None
        for loop in node.loops:
            items = self.write(loop.iterable, env)
            first_unique, first_origin = first_unique or items.unique, first_origin or items.origin
            size = None if size is None or items.size is None else size * items.size
            kind = strip(items.type)
            if not isinstance(kind, (ListT, MapT)) and kind != STR:
                raise Unsupported(f"a loop over {kind}")
            var = self.m.temp(loop.var)
            item_bits = min(items.bits, _item_bits(element(kind)))     # a list's bits are its items'
            env = env.bind(loop.var, Code(var, element(kind), bits=item_bits))
            clauses.append(f"for {var} in {self.charged(items).text}")
            clauses += [(self.condition(c, env), self._tested_call(c, env)) for c in loop.conditions]
        element_code = self._kept_if_some(node, self.write(node.element, env), env)
        text = self._calls_shared(clauses, element_code.text)
        # One loop whose items are kept as they are (a filter) keeps its list's items different.
        kept = len(node.loops) == 1 and isinstance(node.element, n.Name) and node.element.name == node.loops[0].var
        return Code(text, ListT(element_code.type), size=size,
                    unique=kept and first_unique, origin=first_origin if kept else None, bits=element_code.bits)

    def _seat_variables_read(self, node: n.Comprehension, env: Env) -> list[tuple[str, Code]]:
        """The acting seat's (or its team's) variables that the comprehension reads for each item,
        each read once before its loops (``for _sheet in (s.sv_sheet[me],)``): they do not change
        while it runs, and reading one cannot fail where the acting seat is sure."""
        if not env.me_sure or env.me is None or not env.me.isidentifier() or self.m.counting:
            return []
        looped = {loop.var for loop in node.loops}
        per_item = [node.element] + [c for loop in node.loops for c in loop.conditions] \
            + [loop.iterable for loop in node.loops[1:]]
        read = {x.name: x for part in per_item for x in n.all_nodes(part) if isinstance(x, n.Name)}
        kinds = self.names.kinds
        return [(name, self.write(read[name], env)) for name in sorted(read)
                if kinds.get(name) in ("seat", "team") and name not in env.names and name not in looped]

    def _kept_if_some(self, node: n.Comprehension, element: Code, env: Env) -> Code:
        """The element of ``[e for ... if e != none]`` is no none: ``element`` without it."""
        last = node.loops[-1].conditions[-1:] if node.loops else []
        if not last or not isinstance(element.type, Opt):
            return element
        test = last[0]
        if not (isinstance(test, n.Compare) and len(test.steps) == 1 and test.steps[0][0] == "!="
                and isinstance(test.steps[0][1], n.Literal) and test.steps[0][1].value is None
                and not any(isinstance(x, (n.Comprehension, n.Lambda)) for x in n.all_nodes(test.first))):
            return element
        if self.write(test.first, env).text != element.text:
            return element
        return replace(element, type=strip(element.type))

    def _tested_call(self, condition: n.Node, env: Env) -> str | None:
        """The call of a defined function of names and constants that a comparison always makes
        first (``f(x) != none``), written; else None."""
        if self.m.counting or not isinstance(condition, n.Compare) or len(condition.steps) != 1:
            return None
        call = condition.first
        if not (isinstance(call, n.Call) and isinstance(call.callee, n.Name) and call.callee.name in self.m.definitions
                and all(isinstance(arg, (n.Name, n.Literal)) for arg in call.args)):
            return None
        return self.write(call, env).text

    def _calls_shared(self, clauses: list, element: str) -> str:
        """``[element clauses...]``, where a call that a condition makes first is made once for
        both the condition and what follows it (``for _c in (f(x),) if _c != None``): a defined
        function has no effects and gives the same value for the same arguments."""
        written: list[str] = []
        shared: list[tuple[str, str]] = []     # (the call, its name) made so far
        for at, clause in enumerate(clauses):
            if isinstance(clause, str):
                written.append(_shared(clause, shared))
                continue
            test, call = clause
            test = _shared(test, shared)
            after = [element] + [c if isinstance(c, str) else c[0] for c in clauses[at + 1:]]
            if call is not None and _calls(call, test) and any(_calls(call, text) for text in after):
                name = self.m.temp("call")
                written.append(f"for {name} in ({call},)")
                shared.append((call, name))
                test = _shared(test, shared)
            written.append(f"if {test}")
        return f"[{_shared(element, shared)} {' '.join(written)}]"


def _shared(text: str, shared: list[tuple[str, str]]) -> str:
    """``text`` with the calls made already read from their names."""
    for call, name in shared:
        text = re.sub(_call_pattern(call), name, text)
    return text


def _calls(call: str, text: str) -> bool:
    return re.search(_call_pattern(call), text) is not None


def _call_pattern(call: str) -> str:
    """The call's text where it stands whole (not the end of a longer name)."""
    return r"(?<![\w.])" + re.escape(call)


def _makes_collection(node: n.Node) -> bool:
    """Whether the reference spends the size of what ``node`` gives: a range, a slice, a list
    written out, a sum that may join lists or texts."""
    if isinstance(node, (n.Range, n.Slice, n.ListDisplay)):
        return True
    return isinstance(node, n.Arith) and any(op == "+" for op, _ in node.steps)


def _item_bits(kind: LType) -> int:
    """The magnitude of an int read from a list: a card's id, a seat, else unknown."""
    from .ltypes import CARD, SEAT
    return 14 if kind in (CARD, SEAT) else UNBOUNDED


def _joined_piles(a: Code, b: Code) -> tuple:
    """The whole piles two lists of cards are, joined: each of a zone of its own (so no pile is
    met twice), else none."""
    piles = a.piles + b.piles
    zones = [zone for zone, _ in piles]
    return piles if a.piles and b.piles and len(set(zones)) == len(zones) else ()


# The language's arithmetic by operator: the runtime's functions (``runtime.__all__``).
ARITHMETIC = {"+": "add", "-": "subtract", "*": "multiply", "//": "floor_divide", "%": "modulo"}
ORDERINGS = ("<", "<=", ">", ">=")


def _may_be_bool(code: Code) -> bool:
    """Whether a value may be a bool where Python would take it for a number."""
    return strip(code.type) in (BOOL, DYN)
