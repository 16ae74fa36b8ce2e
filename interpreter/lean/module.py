"""A game's lean module: its source written from the compiled game, compiled once.

``Module`` keeps what the writers share while the source is written: the constants bound outside
the code (every value an author wrote), the tables of the cards' attributes, the temporaries,
the types of the variables (worked out from every value stored in them: a game variable that
starts as none and is set to a card holds a card or none), and the defined functions, written
once for each kind of arguments they are called with.

The source is written twice or more: while variables' types still grow, a pass learns them; the
last pass, with every type known, is the code. Anything it does not generate raises
``Unsupported``, with the reason ``rules show --generated`` prints.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, cast

from ..engine.game import Game
from ..engine.game_parts import defined_functions
from ..expr import BUILTINS, Builtin
from ..expr import nodes as n
from ..expr.parse import parse_expression
from ..limits import MAX_EVAL_STEPS
from .effects import EffectWriter
from .code import UNBOUNDED, Code, Env, const_code, magnitude_bits
from .exprs import ExprWriter
from .interrupts_code import interrupt_lists
from .ltypes import EMPTY, INT, NONE, NUM, LType, Unsupported, join, join_all, strip
from .shape import Shape, ident, shape_of
from .work import ANY_LIST, Work, counted

if TYPE_CHECKING:
    from .actions import Actions

WIDEN_AFTER = 3     # a variable's size grown this many times is taken as unknown
PASSES = 8          # passes that may still teach variables' types; then the types are taken as known
SMALL_BODY = 40     # nodes of a definition's body written in place at its calls
SMALL_ARGUMENT = 32  # bits of a number a defined function may be written for (its sums and products stay small)


class Module:
    # Set by ``program.write_program`` before the passes: each move's parameters' types, the piles
    # their cards came from (or None), and their most items; the codes of the moves' actions.
    param_type_cache: dict[str, list[LType]]
    param_origins: dict[str, list[str | None]]
    param_sizes: dict[str, list[int]]
    actions: Actions

    def __init__(self, game: Game, shape: Shape | None = None):
        self.game = game
        self.shape = shape or shape_of(game)
        self.definitions = defined_functions(game.spec.data)
        self.interrupts = interrupt_lists(game)     # the lists of moves of the game's interrupts
        self.var_types: dict[tuple[str, str], LType] = {}
        for level, names in (("game", self.shape.game_vars), ("seat", self.shape.seat_vars),
                             ("team", self.shape.team_vars)):
            for name, start in names.items():
                self.var_types[(level, name)] = self._start_type(start)
        self._trees: dict[str, n.Node] = {}
        self._small: dict[str, bool] = {}
        self._counted_params: dict[str, set[int]] = {}
        # The work of every expression bounded for each number of players; where a bound passes
        # the budget, the expression counts its work as it runs.
        self.budgets = {p: Work(self, p) for p in range(game.min_players, game.max_players + 1)}
        self.budget = self.budgets[game.max_players]        # sizes stored in variables: the largest
        # Whether more players never mean fewer cards or piles: then a bound that fits the most
        # players fits every number.
        shape = self.shape
        counts = sorted(self.budgets)
        self.growing = all(shape.cards_for[a] <= shape.cards_for[b] and all(
            shape.most_piles[a][z] <= shape.most_piles[b][z] for z in shape.most_piles[a])
            for a, b in zip(counts, counts[1:]))
        # The most items each variable may hold (a list's), learnt as its types are: its start
        # value's, then the largest list stored in it; a list added to without bound, any.
        self.var_sizes: dict[tuple[str, str], int] = {
            key: len(start) if isinstance(start, (list, dict)) else 0
            for key, start in ((("game", k), v) for k, v in self.shape.game_vars.items())}
        for level, names in (("seat", self.shape.seat_vars), ("team", self.shape.team_vars)):
            self.var_sizes.update({(level, k): len(v) if isinstance(v, (list, dict)) else 0 for k, v in names.items()})
        self.growths: dict[tuple[str, str], int] = {}     # the times each variable's size grew
        self.loop_turns = dict.fromkeys(self.budgets, 1)    # players -> turns of the 'for' effects around
        self.loop_depth = 0         # the 'for' effects around
        self.counting = False       # while an expression that counts its work is written

        self._reset()

    def _reset(self) -> None:
        self.consts: list = []
        self._const_ids: dict = {}
        self.globals: dict[str, Any] = {}
        self.bound: dict[str, tuple[str, str]] = {}     # the globals but the constants: how each is made
        self.temps = 0
        self.changed = False
        self.deferred: Unsupported | None = None     # the first effect not written in this pass
        self.counted_texts: list[str] = []      # the expressions that count their work as they run
        self.functions: dict[tuple, tuple[str, LType, int]] = {}
        self.function_lines: list[str] = []
        self.trick_info: Any = None
        self.memo: dict[str, int] | None = None     # while a listing is written: its calls remembered
        self._attr_types: dict[str, tuple[LType, int]] = {}
        self.writer = ExprWriter(self)
        self.effects = EffectWriter(self)

    # -- the passes ----------------------------------------------------------------------------------
    def write(self, body: Any) -> list[str]:
        """The module's lines, ``body(self)`` writing them; again while the variables' types grow."""
        for _ in range(PASSES):
            self._reset()
            for work in self.budgets.values():
                work.forget()
            try:
                lines = body(self)
            except Unsupported:
                if self.changed:        # a variable's type grew before: the next pass may know it
                    continue
                raise
            if not self.changed:
                if self.deferred is not None:
                    raise self.deferred
                return self.function_lines + lines
        raise Unsupported("the types of the variables do not settle")

    def defer(self, reason: Unsupported) -> None:
        """An effect this pass could not write: a variable it reads may not have the type yet
        that an effect written later gives it. The game is not generated if, once the types
        settle, it still cannot be written."""
        if self.deferred is None:
            self.deferred = reason

    # -- constants, tables, temporaries ----------------------------------------------------------------
    def const(self, value: Any) -> str:
        """The name of a constant bound outside the code (equal constants share one)."""
        key = (type(value).__name__, repr(value)) if not isinstance(value, LType) else ("type", value)
        name = self._const_ids.get(key)
        if name is None:
            name = self._const_ids[key] = f"K{len(self.consts)}"
            self.consts.append(value)
            self.globals[name] = value
        return name

    def table(self, attr: str) -> str:
        """The global holding each card's value of the attribute ``attr``."""
        return self._bind(ident("A", attr, len(self.globals)), ("table", attr))

    def builtin(self, name: str) -> str:
        """The global holding the built-in function ``name`` (the caller found it a built-in)."""
        return self._bind(f"B_{name}", ("builtin", name))

    def _bind(self, name: str, made: tuple[str, str]) -> str:
        self.globals[name] = self.made_global(made)
        self.bound[name] = made
        return name

    def made_global(self, made: tuple[str, str]) -> Any:
        """The value of a global bound by ``table`` or ``builtin``, from how it was made (a kept
        module binds its globals again this way: a built-in is no value to keep)."""
        kind, name = made
        return self.shape.attrs[name] if kind == "table" else cast(Builtin, BUILTINS.get(name)).impl

    def temp(self, hint: str = "t") -> str:
        """A new local name: ``_`` and the hint (a name of the game's, or ours) and a number."""
        self.temps += 1
        base = hint if hint.isidentifier() and hint.isascii() else "t"
        return f"_{base}{self.temps}"

    def parse(self, value: Any) -> n.Node:
        text = str(value).lower() if isinstance(value, bool) else str(value)
        tree = self._trees.get(text)
        if tree is None:
            tree = self._trees[text] = parse_expression(text)
        return tree

    def top(self, value: Any, env: Env | None = None) -> n.Node:
        """An expression the game evaluates (not a definition's body): as it is where its work is
        bounded within the reference's budget, each turn of the 'for' effects around it counted
        (``work``), its locals (``env``) as large as known; else to count its work as it runs
        (``work.Counted``)."""
        tree = self.parse(value)
        locals_ = {} if env is None else {name: ANY_LIST if code.size is None else code.size
                                          for name, code in env.names.items()}
        if self.growing and self._fits(tree, self.game.max_players, locals_) \
                or all(self._fits(tree, players, locals_) for players in self.budgets):
            return tree
        if self.loop_depth:     # the 'for' effect's turns share one budget: no evaluation begins one
            raise Unsupported(f"the work of '{_cut(str(value))}' in a 'for' effect is not bounded within "
                              "the budget at load (loops over lists whose length is not known)")
        text = _cut(str(value))
        if text not in self.counted_texts:
            self.counted_texts.append(text)
        return counted(tree)

    def _fits(self, tree: n.Node, players: int, locals_: dict) -> bool:
        return self.budgets[players].of(tree, locals_) * self.loop_turns[players] <= MAX_EVAL_STEPS

    def expr(self, value: Any, env: Env) -> Code:
        return self.writer.write(self.top(value, env), env)

    def choice_size(self, how: str, domain: Any, env: Env) -> int:
        """The most items a move's parameter that is a list may have: an item of its list
        (``from``), or a part of it (``subset_of``), for any number of players."""
        tree = self.parse(domain)
        locals_ = {name: ANY_LIST if code.size is None else code.size for name, code in env.names.items()}
        if how == "from":
            return max(work.item_size(tree, locals_) for work in self.budgets.values())
        return max(work.size(tree, locals_) for work in self.budgets.values())

    # -- variables -----------------------------------------------------------------------------------------
    def level_of(self, name: str) -> str:
        for level, names in (("game", self.shape.game_vars), ("seat", self.shape.seat_vars),
                             ("team", self.shape.team_vars)):
            if name in names:
                return level
        raise Unsupported(f"'{name}' is not a variable")

    def level_of_name(self, name: str) -> str | None:
        """The level of a variable named ``name`` (as an expression names it), or None."""
        kind = self.writer.names.kinds.get(name)
        return kind if kind in ("game", "seat", "team") else None

    def note_size(self, level: str, name: str, size: int) -> None:
        """A list of at most ``size`` items is stored in the variable."""
        key = (level, name)
        if size > self.var_sizes.get(key, 0):
            self.growths[key] = self.growths.get(key, 0) + 1
            # A list grown in pass after pass (one made from itself, longer each time) may
            # hold any number of items.
            self.var_sizes[key] = ANY_LIST if self.growths[key] >= WIDEN_AFTER else size
            self.changed = True

    def var_slot(self, level: str, name: str) -> str:
        prefix = {"game": "v", "seat": "sv", "team": "tv"}[level]
        return ident(prefix, name, 0)

    def var_type(self, level: str, name: str) -> LType:
        return self.var_types[(level, name)]

    def note_var(self, level: str, name: str, kind: LType) -> None:
        """A value of ``kind`` is stored in the variable: its type covers it."""
        old = self.var_types[(level, name)]
        new = join(old, kind)
        if new is None or _any_zone(new) and not (_any_zone(old) and _any_zone(kind)) and old not in (EMPTY, NONE):
            raise Unsupported(f"the variable '{name}' holds {old} and {kind}")
        if new != old:
            self.var_types[(level, name)] = new
            self.changed = True

    def _start_type(self, value: Any) -> LType:
        return const_code(value, _Throwaway()).type

    def attr_type(self, name: str) -> tuple[LType, int]:
        """The type of the card attribute ``name`` (none where a card lacks it) and the most bits of
        its numbers' magnitudes, worked out once a module: the table does not change."""
        known = self._attr_types.get(name)
        if known is None:
            all_values = self.shape.attrs[name]
            values = [v for v in all_values if v is not None]
            kind = join_all([const_code(v, _Throwaway()).type for v in values])
            if kind is None:
                raise Unsupported("a card attribute of several kinds")
            if len(values) < len(all_values):
                kind = join(kind, NONE) or kind
            bits = max((magnitude_bits(v) for v in values if type(v) in (int, float)), default=UNBOUNDED)
            known = self._attr_types[name] = (kind, bits)
        return known

    # -- zones -------------------------------------------------------------------------------------------
    def pile_count(self, name: str) -> str:
        """How many piles of zone ``name`` each owner has, as code."""
        zone = self.shape.zones[name]
        if zone.piles is None:
            return "1"
        node = self.parse(self.game.spec.data["zones"][name]["piles"])
        if isinstance(node, n.Literal) and type(node.value) is int:
            return repr(node.value)
        owners = {"game": "1", "seat": "s.players", "team": "s.nteams"}[zone.per]
        return f"(len(s.{zone.slot}) // {owners})"

    def any_zone(self, code: Code) -> Code:
        """A pile of a known zone as a pile of any zone: its place."""
        from .ltypes import ANY_ZONE, Zone, strip
        kind = strip(code.type)
        if kind == ANY_ZONE or not isinstance(kind, Zone):
            return code
        return Code(f"({self.shape.zones[cast(str, kind.name)].index} << 14 | {code.text})", ANY_ZONE)

    def as_type(self, code: Code, kind: LType) -> Code:
        """``code`` as a value of ``kind``, which covers its type: a pile of a known zone, or a
        list of them, as a pile (a list of piles) of any zone where ``kind`` says so."""
        from .ltypes import ANY_ZONE, ListT, Zone, strip
        have, want = strip(code.type), strip(kind)
        if want == ANY_ZONE and isinstance(have, Zone) and have != ANY_ZONE:
            if have is not code.type:
                raise Unsupported("a pile that may be none among piles of several zones")
            return self.any_zone(code)
        if isinstance(want, ListT) and want.elem == ANY_ZONE and isinstance(have, ListT) \
                and isinstance(have.elem, Zone) and have.elem != ANY_ZONE:
            index = self.shape.zones[cast(str, have.elem.name)].index      # a known zone: named
            return Code(f"[{index} << 14 | _z for _z in {code.text}]", kind, size=code.size, unique=code.unique)
        return code

    def deck_zone(self) -> str:
        for deck in self.game.spec.data.get("decks", {}).values():
            if "zone" in deck:
                return deck["zone"]
        raise Unsupported("a deal without 'from' and no deck's zone")

    # -- defined functions ---------------------------------------------------------------------------
    def function(self, name: str, args: tuple[Code, ...], me_sure: bool) -> tuple[str, LType, int]:
        """The Python function of a defined function for arguments of these kinds (a number's
        magnitude small or not: ``argument_bits``), its result's type and the bits of its
        magnitude (``Code.bits``); written the first time it is asked for."""
        counted = self.counted_params(name)
        kinds = tuple((a.type, argument_bits(a) if i in counted else UNBOUNDED) for i, a in enumerate(args))
        key = (name, kinds, me_sure, self.counting)
        found = self.functions.get(key)
        if found is not None:
            return found
        params, body = self.definitions[name]
        if len(params) != len(args):
            raise Unsupported(f"{name}() called with {len(args)} arguments")
        py = f"d_{name}_{len(self.functions)}" if name.isidentifier() else f"d{len(self.functions)}"
        self.functions[key] = (py, EMPTY, UNBOUNDED)        # a call met while writing it: no recursion (checked)
        names = [f"a{i}" for i in range(len(params))]
        env = Env({p: Code(a, t, bits=bits) for p, a, (t, bits) in zip(params, names, kinds)}, me="me", me_sure=me_sure)
        with self.apart():
            code = self.writer.write(self.parse(body), env)
        self.functions[key] = (py, code.type, code.bits)
        result = f"(_spend(1) or {code.text})" if self.counting else code.text
        self.function_lines += [f"def {py}({', '.join(['s', 'me'] + names)}):", f"    return {result}", ""]
        return py, code.type, code.bits

    @contextmanager
    def apart(self) -> Iterator[None]:
        """While a function of its own is written: the listing's remembered calls are not in reach."""
        memo, self.memo = self.memo, None
        try:
            yield
        finally:
            self.memo = memo

    def remembered(self, name: str) -> bool:
        """Whether the reference keeps a call's result in its memo: a body with a loop, a range
        or a call (``expr.functions.constant_work``; where it keeps more, the lean engine only
        counts more)."""
        tree = self.parse(self.definitions[name][1])
        return any(isinstance(node, (n.Call, n.Comprehension, n.Lambda, n.Range)) for node in n.all_nodes(tree))

    def counted_params(self, name: str) -> set[int]:
        """The positions of a definition's parameters that its arithmetic reads (where a small
        number makes a difference: a function is written apart for small ones only then)."""
        kept = self._counted_params.get(name)
        if kept is None:
            params, body = self.definitions[name]
            named = {x.name for node in n.all_nodes(self.parse(body)) if isinstance(node, (n.Arith, n.Negation))
                     for x in n.all_nodes(node) if isinstance(x, n.Name)}
            kept = self._counted_params[name] = {i for i, param in enumerate(params) if param in named}
        return kept

    def small_definition(self, name: str) -> bool:
        """A definition written in place at its calls: a small body without loops (a call costs
        more than such a body)."""
        kept = self._small.get(name)
        if kept is None:
            tree = self.parse(self.definitions[name][1])
            nodes = list(n.all_nodes(tree))
            kept = self._small[name] = len(nodes) <= SMALL_BODY and not any(
                isinstance(node, (n.Comprehension, n.Lambda)) for node in nodes)
        return kept

    # -- tricks -------------------------------------------------------------------------------------
    def tricks(self) -> Any:
        if self.trick_info is None:
            from .tricks_code import write_tricks
            counting, self.counting = self.counting, False      # written once, for every caller
            try:
                with self.apart():
                    self.trick_info = write_tricks(self)
            finally:
                self.counting = counting
        return self.trick_info


class _Throwaway:
    """A pool for constants whose type alone is wanted."""

    def const(self, value: Any) -> str:
        return "_"


def _any_zone(kind: LType) -> bool:
    """Whether values of ``kind`` are (or hold) piles of any zone, kept as places."""
    from .ltypes import ANY_ZONE, holds
    return holds(kind, lambda t: t == ANY_ZONE)


def _cut(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def argument_bits(arg: Code) -> int:
    """The bits a defined function is written for: ``SMALL_ARGUMENT`` for a number known to be
    that small (its arithmetic then needs no checks), else unbounded (one function for either,
    not one for each size)."""
    return SMALL_ARGUMENT if arg.bits <= SMALL_ARGUMENT and strip(arg.type) in (INT, NUM) else UNBOUNDED
