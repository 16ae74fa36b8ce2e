"""Calls in lean code: the built-in functions (the reference's own implementations, bound as
constants, where lean values are the reference's; converted where they are not), the functions a
game defines (one Python function per kind of arguments), and the names and functions of tricks.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from ..expr import BUILTINS
from ..expr import nodes as n
from .code import Code, Env
from .ltypes import (
    BOOL,
    CARD,
    DYN,
    EMPTY,
    FUNC,
    INT,
    NUM,
    SEAT,
    STR,
    LType,
    ListT,
    MapT,
    NONE,
    Opt,
    Unsupported,
    Zone,
    element,
    holds,
    holds_objects,
    is_object,
    join_all,
    strip,
)

# Built-ins whose result is an item of their first argument, or the argument's own type.
ITEM_OF_FIRST = {"first", "last", "max_by", "min_by"}
SAME_AS_FIRST = {"sorted", "sorted_by", "reversed", "unique", "without"}
PLAIN_RESULT = {"len": INT, "count": INT, "any": BOOL, "all": BOOL, "is_subset": BOOL, "index_of": INT,
                "floor": INT, "ceil": INT, "round": INT, "int": INT, "str": STR, "join": STR, "sum_by": NUM}
# Built-ins that compare their argument's items with a value: a card (an int here) must not meet a number.
COMPARING = {"count": 1, "index_of": 1, "without": 1, "is_subset": 1}
LAMBDA_ARGS = {"sorted_by": 1, "max_by": 1, "min_by": 1, "sum_by": 1, "set_value": 2}
ORDERING_BY = {"sorted_by", "max_by", "min_by"}
ORDERING = {"sorted", "max", "min"}


class CallWriter:
    def __init__(self, writer: Any):
        self.w = writer
        self.m = writer.m

    def call(self, node: n.Call, env: Env) -> Code:
        name = cast(n.Name, node.callee).name       # a call's callee is a name (the checker's)
        if name in env.names or name in self.w.names.kinds:
            raise Unsupported(f"a call of '{name}'")
        if name in self.m.definitions:
            return self.user(name, list(node.args), env)
        if self.m.game.tricks is not None and name in ("suit_of", "rank_of", "played_by"):
            return self._trick_function(name, node, env)
        return self._builtin(name, node, env)

    # -- defined functions -----------------------------------------------------------------------
    def user(self, name: str, args: list[n.Node], env: Env) -> Code:
        codes = [self.w.write(arg, env) for arg in args]
        if all(_simple(c.text) for c in codes) and self.m.small_definition(name):
            params, body = self.m.definitions[name]       # written in place: no call
            inner = Env(dict(zip(params, codes)), me=env.me, me_sure=env.me_sure)
            code = self.w.write(self.m.parse(body), inner)
            return replace(code, text=f"(_spend(1) or {code.text})") if self.m.counting else code
        function, result, bits = self.m.function(name, tuple(codes), env.me_sure)
        me = "me" if env.me is None else env.me
        if env.me is None:
            me = "None"
        parts = ["s", me] + [c.text for c in codes]
        call = f"{function}({', '.join(parts)})"
        if self.m.counting and all(_hashable(c.type) for c in codes) and (not codes or self.m.remembered(name)):
            call = f"_recall({', '.join([function, '1' if codes else '0'] + parts)})"
        if self.m.memo is not None and not self.m.counting and env.me == "me" \
                and all(_constant_or_me(c.text) for c in codes):
            # In a listing nothing changes: a call with the same arguments gives the same value,
            # worked out the first time it is asked for (as the reference's listing remembers it).
            key = self.m.memo.setdefault(call, len(self.m.memo))
            call = f"(_memo[{key}] if {key} in _memo else _memo.setdefault({key}, {call}))"
        return Code(call, result, live=_container(result), bits=bits)

    # -- built-ins -------------------------------------------------------------------------------
    def _builtin(self, name: str, node: n.Call, env: Env) -> Code:
        code = self._builtin_code(name, node, env)
        return self.w.charged(code)

    def _builtin_code(self, name: str, node: n.Call, env: Env) -> Code:
        if BUILTINS.get(name) is None:
            raise Unsupported(f"the function '{name}'")
        if name in ("any", "all") and len(node.args) == 1:
            return self._any_all(name, node.args[0], env)
        codes = self._arguments(name, node.args, env)
        types = [strip(c.type) for c in codes]
        if name in COMPARING:
            self._comparable(name, element(types[0]), types[1] if name == "count" or name == "index_of"
                             else element(types[1]))
        if name in ("str", "join") and any(holds_objects(t) for t in types):
            return self._as_text(name, codes)
        if name == "len":
            return Code(f"len({codes[0].text})", INT, bits=17)
        if name in ORDERING and any(map(unordered, types)):
            raise Unsupported(f"{name}() of {', '.join(map(str, types))}: seats and zones have no order")
        native = self._native(name, codes, types)
        if native is not None:
            return native
        result = self._result(name, types)
        impl = self.m.builtin(name)
        # The items of sorted, reversed... are some of the first list's: read from the same pile.
        origin = codes[0].origin if name in SAME_AS_FIRST else None
        return Code(f"{impl}({', '.join(c.text for c in codes)})", result, live=False,
                    bits=17 if name in ("count", "index_of") else 64, origin=origin)

    def _native(self, name: str, codes: list[Code], types: list[LType]) -> Code | None:
        """Python's own list methods where they give what the language's built-in gives: over a
        list of ints, texts, cards or seats (equality without a float's nan; never a bool, never
        none where they differ), the same result, or a Python error where the built-in's is."""
        first = types[0] if types else None
        if name == "sum" and isinstance(first, ListT) and not isinstance(codes[0].type, Opt) and first.elem == NUM:
            # Added up in order, as the built-in does (Python's sum() of floats compensates since 3.12).
            return self.w.bounded_sum(f"_add_up({codes[0].text})", NUM, codes[0])
        exact = isinstance(first, ListT) and not isinstance(codes[0].type, Opt) and first.elem in (INT, STR, CARD, SEAT)
        if not exact:
            return None
        first = cast(ListT, first)      # a list: ``exact`` says so
        xs = codes[0].text
        if name == "count":
            return Code(f"{xs}.count({codes[1].text})", INT, bits=17)
        if name == "index_of":
            return Code(f"{xs}.index({codes[1].text})", INT, bits=17)
        if name == "sum" and first.elem == INT:
            return self.w.bounded_sum(f"sum({xs})", INT, codes[0])
        if name in ("max", "min") and len(codes) == 1 and first.elem in (INT, STR):
            return Code(f"{name}({xs})", first.elem, bits=codes[0].bits)
        return None

    def _arguments(self, name: str, args: tuple, env: Env) -> list[Code]:
        codes: list[Code] = []
        for i, arg in enumerate(args):
            if isinstance(arg, n.Lambda):
                items = element(codes[0].type) if codes else DYN
                codes.append(self.lambda_(arg, [items] * len(arg.params), env, name))
            else:
                code = self.w.write(arg, env)
                codes.append(self.w.charged(code))
        return codes

    def lambda_(self, node: n.Lambda, params: list[LType], env: Env, caller: str = "") -> Code:
        """A function value, handed to the built-in ``caller``: the values of a key of ``max_by``
        (...) are put in order, which the reference refuses of seats and zones, and those of
        ``sum_by`` added up, which it refuses of cards and seats; Python does neither of their ints."""
        names = [self.m.temp(p) for p in node.params]
        inner = env
        for param, py, kind in zip(node.params, names, params):
            inner = inner.bind(param, Code(py, kind))
        written = self.w.write(node.body, inner)
        if caller in ORDERING_BY and unordered(written.type):
            raise Unsupported(f"items ordered by {strip(written.type)}: seats and zones have no order")
        if caller == "sum_by" and holds_objects(written.type):
            raise Unsupported(f"sum_by() of {strip(written.type)}")
        body = written.text
        if self.m.counting:
            body = f"(_spend(1) or {body})"
        return Code(f"_function(lambda {', '.join(names)}: {body}, {len(names)})", FUNC)

    def _any_all(self, name: str, arg: n.Node, env: Env) -> Code:
        """``any``/``all`` stop at the first item that decides them: over a comprehension, a
        function of its own looping over it (quicker than a generator)."""
        if isinstance(arg, n.Comprehension):
            if self.m.counting:
                return self._deciding_loop(name, arg, env)
            return self._over_seat_piles(name, arg, env) or self._deciding_loop(name, arg, env)
        code = self.w.charged(self.w.write(arg, env))
        if strip(code.type) == ListT(BOOL):
            return Code(f"{name}({code.text})", BOOL)
        return Code(f"{self.m.builtin(name)}({code.text})", BOOL)

    def _over_seat_piles(self, name: str, node: n.Comprehension, env: Env) -> Code | None:
        """``any``/``all`` of whether each seat's pile of a zone is empty (or not), over every
        seat in order, as Python's own ``any``/``all`` of the zone's piles (one a seat, in seat
        order); None for any other comprehension."""
        loop, test, empty = node.loops[0], node.element, True
        if isinstance(test, n.Not):
            test, empty = test.operand, False
        if len(node.loops) != 1 or loop.conditions or "players" in env.names \
                or not (isinstance(loop.iterable, n.Name) and loop.iterable.name == "players") \
                or not (isinstance(test, n.Member) and test.name == "empty" and isinstance(test.obj, n.Member)) \
                or not (isinstance(test.obj.obj, n.Name) and test.obj.obj.name == loop.var):
            return None
        zone = self.m.shape.zones.get(test.obj.name)
        if zone is None or zone.per != "seat" or zone.piles is not None or test.obj.name in self.m.shape.seat_vars:
            return None
        piles = f"s.{zone.slot}"
        if empty:       # all empty: none holds a card; any empty: not all hold one
            return Code(f"(not {'any' if name == 'all' else 'all'}({piles}))", BOOL)
        return Code(f"{name}({piles})", BOOL)

    def _deciding_loop(self, name: str, node: n.Comprehension, env: Env) -> Code:
        """``def _any_N(s, me, ...)``: the comprehension's loops, returning at the first item that
        decides; the locals it reads are its arguments."""
        used = [local for local in env.names if local in n.names_in(node)]
        params = [self.m.temp("arg") for _ in used]
        inner = Env({local: Code(param, env.names[local].type, bits=env.names[local].bits)
                     for local, param in zip(used, params)}, me="me", me_sure=env.me_sure)
        helper = self.m.temp(name)
        lines, depth = [f"def {helper}({', '.join(['s', 'me'] + params)}):"], "    "
        with self.m.apart():
            for loop in node.loops:
                items = self.w.write(loop.iterable, inner)
                var = self.m.temp(loop.var)
                inner = inner.bind(loop.var, Code(var, element(strip(items.type))))
                lines.append(f"{depth}for {var} in {self.w.charged(items).text}:")
                depth += "    "
                for condition in loop.conditions:
                    lines.append(f"{depth}if {self.w.condition(condition, inner)}:")
                    depth += "    "
            test = self.w.condition(node.element, inner)
            decided = f"{test}" if name == "any" else f"not {test}"
            lines += [f"{depth}if {decided}:", f"{depth}    return {name == 'any'}", f"    return {name == 'all'}", ""]
        self.m.function_lines += lines
        me = "None" if env.me is None else env.me
        return Code(f"{helper}({', '.join(['s', me] + [env.names[local].text for local in used])})", BOOL)

    def _result(self, name: str, types: list[LType]) -> LType:
        first = types[0] if types else DYN
        if name in PLAIN_RESULT:
            return PLAIN_RESULT[name]
        if name in ITEM_OF_FIRST:
            return element(first)
        if name in SAME_AS_FIRST:
            return first
        if name in ("max", "min"):
            if len(types) == 1 and not isinstance(strip(first), ListT) and strip(first) != DYN:
                return first        # of one value that is no list: the value itself, as the reference gives it
            kind = element(first) if len(types) == 1 else join_all(types)
            if kind is None:
                raise Unsupported(f"{name}() of values of several kinds")
            return kind
        if name in ("sum", "product", "abs"):
            inner = element(first) if name != "abs" else first
            return INT if inner == INT else NUM
        if name == "range":
            return ListT(INT)
        if name == "counts":
            return MapT(element(first), INT)
        if name == "keys":
            return ListT(first.key if isinstance(first, MapT) else DYN)
        if name == "values":
            return ListT(first.value if isinstance(first, MapT) else DYN)
        if name == "flatten":
            inner = element(first)
            return inner if isinstance(inner, ListT) else ListT(DYN)
        if name == "set_value":
            kind = self._lambda_result(types)
            return kind
        raise Unsupported(f"the function '{name}'")

    def _lambda_result(self, types: list[LType]) -> LType:
        if any(holds_objects(t) for t in types[1:]):
            raise Unsupported("set_value() of cards or seats")
        return DYN

    def _comparable(self, name: str, items: LType, value: LType) -> None:
        items, value = strip(items), strip(value)
        if EMPTY in (items, value):
            return
        if (is_object(items) or is_object(value)) and items != value:
            raise Unsupported(f"{name}() compares {items} with {value}")

    def _as_text(self, name: str, codes: list[Code]) -> Code:
        converted = [f"_ref({c.text}, {self.m.const(c.type)})" if holds_objects(c.type) else c.text for c in codes]
        return Code(f"{self.m.builtin(name)}({', '.join(converted)})", STR)

    # -- tricks ----------------------------------------------------------------------------------
    def trick_name(self, name: str, env: Env) -> Code:
        tricks = self.m.tricks()
        me = self.w.names.me(env)
        if name == "led_suit":
            return Code(f"t_led(s, {me})", tricks.suit_type)
        if name == "trick_winner":
            return Code(f"t_winner(s, {me})", Opt(SEAT), bits=7)
        if name == "trick_leader":
            return Code("t_leader(s)", Opt(SEAT), bits=7)
        hand = self.m.shape.zones[self.m.game.tricks.hand].slot
        return Code(f"t_playable(s, {me})", ListT(CARD), live=False, size=self.m.shape.cards, unique=True,
                    origin=f"s.{hand}[{me}]")

    def _trick_function(self, name: str, node: n.Call, env: Env) -> Code:
        tricks = self.m.tricks()
        card = self.w.write(node.args[0], env)
        if strip(card.type) != CARD:
            raise Unsupported(f"{name}() of {card.type}")
        me = self.w.names.me(env)
        if name == "played_by":
            return Code(f"t_played_by(s, {card.text})", Opt(SEAT), bits=7)
        kind = tricks.suit_type if name == "suit_of" else tricks.rank_type
        helper = "t_suit" if name == "suit_of" else "t_rank"
        return Code(f"{helper}(s, {me}, {card.text})", kind)


def _container(kind: LType) -> bool:
    return isinstance(strip(kind), (ListT, MapT))



def _constant_or_me(text: str) -> bool:
    return text == "me" or text.isdigit() or text.startswith("K") and text[1:].isdigit()


def _hashable(kind: LType) -> bool:
    """Whether every value of ``kind`` is a key of a dict: never a list or a map."""
    return strip(kind) in (INT, NUM, STR, BOOL, CARD, SEAT, NONE) or isinstance(strip(kind), Zone)


def _simple(text: str) -> bool:
    """Code that may be written twice at no cost: a name (``s.v_dealer`` too) or a number."""
    return all(part.isidentifier() for part in text.split(".")) or text.isdigit()


def unordered(t: LType) -> bool:
    """Whether a value of ``t`` is, or holds, a seat or a zone: the reference orders neither (two
    seats compared fail), Python orders their ints."""
    return holds(strip(t), lambda x: x == SEAT or isinstance(x, Zone))
