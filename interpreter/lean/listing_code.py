"""The legal moves written for one game: ``legal(s)`` lists the actions (ints) of the seat to play,
in the reference's order: the phase's moves in turn, each move's choices in the order of its
parameters' lists, the first parameter outermost, each ``when`` clause checked as soon as the
parameters it names are chosen, and a choice whose text another already has left out.

An action is the move's index and its arguments' code in one int (``actions``).
"""
from __future__ import annotations

import re

from typing import Any

from ..expr import nodes as n
from ..limits import MAX_MOVE_CHOICES
from ..load.spec import param_kind
from .actions import codec, encode_text
from .code import Code, Env
from .ltypes import CARD, INT, SEAT, STR, LType, ListT, Unsupported, Zone, element, strip

A_SEAT = Env(me="me", me_sure=True)


def param_types(m: Any, name: str) -> list[LType]:
    """The types of a move's parameters: an item of its list (``from``), or a list of them
    (``subset_of``)."""
    kept = m.param_type_cache.get(name)
    if kept is not None:
        return kept
    spec = m.game.spec.data["moves"][name]
    env, types, origins, sizes = A_SEAT, [], [], []
    for i, (pname, pdef) in enumerate(spec.get("params", {}).items()):
        kind = param_kind(pdef)
        domain = m.expr(pdef[kind], env)
        if not isinstance(strip(domain.type), ListT):
            raise Unsupported(f"parameter '{pname}' of '{name}' ranges over {domain.type}")
        item = element(domain.type)
        types.append(item if kind == "from" else ListT(item))
        origins.append(domain.origin)
        sizes.append(m.choice_size(kind, pdef[kind], env))
        env = env.bind(pname, param_code(pname, i, types[-1], size=sizes[-1]))
    m.param_type_cache[name] = types
    m.param_origins[name] = origins
    m.param_sizes[name] = sizes
    kinds = [param_kind(pdef) for pdef in spec.get("params", {}).values()]
    m.actions.codecs[list(m.game.moves).index(name)] = [codec(k, t, m.shape.cards, len(m.shape.zones))
                                                          for k, t in zip(kinds, types)]
    return types


def param_code(name: str, index: int, kind: LType, origin: str | None = None, size: int | None = None) -> Code:
    """A move's parameter as its effects and listing see it; ``origin``: the pile its card (or
    cards) came from, where the effects look for it first; ``size``: a list's most items."""
    return Code(param_name(name, index), kind, bits=14 if kind in (CARD, SEAT) else 64, origin=origin, size=size)


def param_name(name: str, index: int) -> str:
    """The Python name of a move's parameter (the ``index``-th)."""
    return f"p_{name}" if name.isidentifier() and name.isascii() else f"p{index}"


def write_listing(m: Any) -> list[str]:
    """``legal(s, me)``: the phases' listings in one function, the phase chosen by an if chain (an
    interrupt's list of moves while one goes on); in a game with free play or interrupts,
    ``any_legal(s, me)``: whether there is one (the listing stops at the first found), asked of
    every seat after every move in free play, of each interrupting seat in turn."""
    any_legal = free_play(m.game) or m.interrupts
    return _listing(m, first_only=False) + (_listing(m, first_only=True) if any_legal else [])


def free_play(game: Any) -> bool:
    """Whether a phase of the game has no turns: every seat may move at any moment."""
    return any(phase.turns is None for phase in game.phases)


def _listing(m: Any, first_only: bool) -> list[str]:
    none = "False" if first_only else "[]"
    lines = [f"def {'any_legal' if first_only else 'legal'}(s, me=None):", "    if s.over:", f"        return {none}",
             "    if me is None:", "        me = s.current",      # ``me``: the seat asked about, in free play
             "    elif s.current is not None and me != s.current:", f"        return {none}"]
    lines += [] if first_only else ["    out = []"]
    body_at = len(lines)
    m.memo = {}
    try:
        lists = [phase.moves for phase in m.game.phases]
        if m.interrupts:
            lines += ["    if s.intr:", "        which = s.intr[-1][1]"]
            lines += _branches(m, "which", m.interrupts, "        ", first_only)
            lines.append("    else:")
            lines += _branches(m, "s.phase", lists, "        ", first_only)
        else:
            lines += ["    ph = s.phase"] if len(lists) > 1 else []
            lines += _branches(m, "ph", lists, "    ", first_only)
        if m.memo:
            lines.insert(body_at, "    _memo = {}")
    finally:
        m.memo = None
    if first_only:
        return lines + ["    return False", ""]
    if not any(_OUT.search(line) for line in lines[body_at:]):     # each phase returns its own list
        lines = lines[:body_at - 1] + lines[body_at:]
        return lines + ([""] if lines[-1].startswith("    return ") else ["    return []", ""])
    return lines + ["    return out", ""]


_OUT = re.compile(r"\bout\b")


def _branches(m: Any, index: str, lists: list, indent: str, first_only: bool) -> list[str]:
    """The listing of each list of moves, the one at ``index`` chosen by an if chain; to find
    any move, those without parameters first (as the reference looks for one)."""
    lines = []
    for i, names in enumerate(lists):
        inner = indent
        if len(lists) > 1:
            lines.append(f"{indent}{'if' if i == 0 else 'elif'} {index} == {i}:")
            inner = indent + "    "
        if first_only:
            names = sorted(names, key=lambda name: len(m.game.moves[name].params))
        body = [line for name in names for line in _move(m, name, inner, first_only)]
        if len(body) == 1 and body[0].startswith(f"{inner}out += ["):      # the phase's one comprehension
            body = [body[0].replace("out += ", "return ", 1)]
        lines += body or [inner + "pass"]
    return lines


def _move(m: Any, name: str, indent: str, first_only: bool = False) -> list[str]:
    """The lines that append a move's actions to ``out``: each parameter's values tried, counted
    against ``MAX_MOVE_CHOICES`` unless the lists' sizes known at load keep them within it."""
    spec = m.game.spec.data["moves"][name]
    params = list(spec.get("params", {}).items())
    types = param_types(m, name)
    stages = _stages(m, spec, [p for p, _ in params], _bound_params(m, name, A_SEAT))
    index = list(m.game.moves).index(name)
    counted = _needs_counting(m, name, params)
    seen = m.temp("seen") if not first_only and _may_repeat(m, name, params, types) else None
    if len(params) == 1 and not counted and not seen and param_kind(params[0][1]) == "from" and not first_only:
        return _one_list(m, index, params[0], types[0], stages, indent)
    lines = [f"{indent}left = {MAX_MOVE_CHOICES}"] if counted else []
    if seen:
        lines.append(f"{indent}{seen} = set()")
    env = A_SEAT
    depth = indent
    for k, (pname, pdef) in enumerate(params):
        for test in _tests(m, stages[k], env):
            lines.append(f"{depth}if {test}:")
            depth += "    "
        kind = param_kind(pdef)
        domain = m.expr(pdef[kind], env)
        values = m.temp("values")
        code = param_code(pname, k, types[k], size=m.param_sizes[name][k])
        lines.append(f"{depth}{values} = {domain.text}")
        if not isinstance(domain.type, ListT):
            lines.append(f"{depth}if type({values}) is not list: _fail()")
        if kind == "subset_of":
            subsets = "_card_subsets" if strip(element(domain.type)) == CARD else "_plain_subsets"
            lines += [f"{depth}if not _few_sub_collections({values}, left): _fail()",
                      f"{depth}{values} = {subsets}({values})"]
        if counted:
            lines += [f"{depth}left -= len({values})", f"{depth}if left < 0: _fail()"]
        lines.append(f"{depth}for {code.text} in {values}:")
        depth += "    "
        env = env.bind(pname, code)
    for test in _tests(m, stages[len(params)], env):
        lines.append(f"{depth}if {test}:")
        depth += "    "
    if first_only:
        return lines + [f"{depth}return True"]
    names = [param_code(p, k, types[k]).text for k, (p, _) in enumerate(params)]
    return lines + _append(m, index, names, types, seen, depth)


def _one_list(m: Any, index: int, param: tuple, kind: LType, stages: list, indent: str) -> list[str]:
    """A move of one parameter whose choices need no counting and never repeat: its actions made
    by one comprehension over the parameter's list."""
    pname, pdef = param
    lines, depth = [], indent
    for test in _tests(m, stages[0], A_SEAT):
        lines.append(f"{depth}if {test}:")
        depth += "    "
    domain = m.expr(pdef["from"], A_SEAT)
    code = param_code(pname, 0, kind, size=m.param_sizes[list(m.game.moves)[index]][0])
    env = A_SEAT.bind(pname, code)
    tests = "".join(f" if {test}" for test in _tests(m, stages[1], env))
    action = _action(m, index, [code.text], [kind])
    if action == code.text and not tests:       # each value its own action: the list copied whole
        return lines + [f"{depth}out += [*{domain.text}]"]
    return lines + [f"{depth}out += [{action} for {code.text} in {domain.text}{tests}]"]


def _action(m: Any, index: int, names: list[str], types: list[LType]) -> str:
    code = encode_text(m.actions.codecs[index], names, types)
    moves = len(m.game.moves)
    return code if moves == 1 else f"{index} + {moves} * ({code})"


def _needs_counting(m: Any, name: str, params: list) -> bool:
    """Whether the values tried could pass the limit: a sub-collection's, or lists whose sizes
    are not known at load, or known and too many together (every value of every list counts)."""
    env, tried, product = A_SEAT, 0, 1
    for k, (pname, pdef) in enumerate(params):
        kind = param_kind(pdef)
        if kind == "subset_of":
            return True
        domain = m.expr(pdef[kind], env)
        if domain.size is None:
            return True
        product *= domain.size
        tried += product
        env = env.bind(pname, param_code(pname, k, element(domain.type), size=m.param_sizes[name][k]))
    return tried > MAX_MOVE_CHOICES


def _bound_params(m: Any, name: str, env: Env) -> Env:
    """``env`` with a move's parameters, as large as they may be."""
    params = m.game.spec.data["moves"][name].get("params", {})
    for k, (pname, kind) in enumerate(zip(params, param_types(m, name))):
        env = env.bind(pname, param_code(pname, k, kind, size=m.param_sizes[name][k]))
    return env


def _stages(m: Any, spec: dict, params: list[str], env: Env) -> list[list[n.Node]]:
    """``when`` split at its top-level ``and``s, each clause at the stage of the last parameter
    it (or a clause before it) names, as ``GameCompiler._stages`` splits it."""
    stages: list[list[n.Node]] = [[] for _ in range(len(params) + 1)]
    if "when" not in spec:
        return stages
    node = m.top(spec["when"], env)
    clauses = node.operands if isinstance(node, n.BoolOp) and node.op == "and" else (node,)
    stage = 0
    for clause in clauses:
        used = n.names_in(clause)
        stage = max([stage] + [i + 1 for i, p in enumerate(params) if p in used])
        stages[stage].append(clause)
    return stages


def _tests(m: Any, clauses: list[n.Node], env: Env) -> list[str]:
    return [m.writer.condition(clause, env) for clause in clauses]


def _may_repeat(m: Any, name: str, params: list, types: list[LType]) -> bool:
    """Whether two choices of a move may show as the same text (then only the first is kept):
    unless each parameter's list has no item twice and no two items that show alike (cards of
    a deck whose labels repeat, texts that may hold spaces...)."""
    env = A_SEAT
    for k, ((pname, pdef), kind) in enumerate(zip(params, types)):
        how = param_kind(pdef)
        domain = m.expr(pdef[how], env)
        item = strip(element(domain.type))
        if how == "subset_of":
            distinct = item == INT or item == CARD and m.shape.unique_labels
        else:
            distinct = domain.unique and (item in (SEAT, INT, STR) or item == CARD and m.shape.unique_labels)
        if not distinct:
            return True
        env = env.bind(pname, param_code(pname, k, kind, size=m.param_sizes[name][k]))
    return False


def _append(m: Any, index: int, names: list[str], types: list[LType], seen: str | None, depth: str) -> list[str]:
    """The action of the choice made: the move's index and its arguments' code (``actions``)."""
    if not names:
        return [f"{depth}out.append({index})"]
    lines = []
    if seen:
        text_key = f"({', '.join(_text_key(m, p, t) for p, t in zip(names, types))},)"
        lines += [f"{depth}if {text_key} not in {seen}:", f"{depth}    {seen}.add({text_key})"]
        depth += "    "
    return lines + [f"{depth}out.append({_action(m, index, names, types)})"]


def _text_key(m: Any, name: str, kind: LType) -> str:
    """What a choice shows as, enough to tell two texts apart: a card's label, a value's kind and
    value (1, 1.0 and true show differently)."""
    inner = strip(kind)
    if inner == CARD:
        return f"_LABEL[{name}]"
    if isinstance(inner, ListT) and strip(inner.elem) == CARD:
        return f"tuple(_LABEL[c] for c in {name})"
    if isinstance(inner, ListT) and strip(inner.elem) == INT:
        return f"tuple({name})"
    if inner in (INT, STR, SEAT) or isinstance(inner, Zone):     # a pile: its number (or place) names it
        return name
    return f"_show({name})"
