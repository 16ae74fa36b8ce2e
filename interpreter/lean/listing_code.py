"""The legal moves written for one game: ``legal(s)`` lists the actions (ints) of the seat to play,
in the reference's order: the phase's moves in turn, each move's choices in the order of its
parameters' lists, the first parameter outermost, each ``when`` clause checked as soon as the
parameters it names are chosen, and a choice whose text another already has left out.

An action is the move's index and its arguments' code in one int (``actions``).
"""
from __future__ import annotations

from typing import Any

from ..expr import nodes as n
from ..limits import MAX_MOVE_CHOICES
from .actions import codec, encode_text
from .code import Code, Env
from .ltypes import CARD, INT, SEAT, STR, LType, ListT, Unsupported, element, strip

A_SEAT = Env(me="me", me_sure=True)


def param_types(m: Any, name: str) -> list[LType]:
    """The types of a move's parameters: an item of its list (``from``), or a list of them
    (``subset_of``)."""
    kept = m.param_type_cache.get(name)
    if kept is not None:
        return kept
    spec = m.game.spec.data["moves"][name]
    env, types = A_SEAT, []
    for i, (pname, pdef) in enumerate(spec.get("params", {}).items()):
        kind = next(iter(pdef))
        domain = m.expr(pdef[kind], env)
        if not isinstance(strip(domain.type), ListT):
            raise Unsupported(f"parameter '{pname}' of '{name}' ranges over {domain.type}")
        item = element(domain.type)
        types.append(item if kind == "from" else ListT(item))
        env = env.bind(pname, param_code(pname, i, types[-1]))
    m.param_type_cache[name] = types
    kinds = [next(iter(pdef)) for pdef in spec.get("params", {}).values()]
    m.actions.codecs[list(m.game.moves).index(name)] = [codec(k, t, m.shape.cards) for k, t in zip(kinds, types)]
    return types


def param_code(name: str, index: int, kind: LType | None) -> Code:
    py = f"p_{name}" if name.isidentifier() and name.isascii() else f"p{index}"
    return Code(py, kind, bits=14 if kind in (CARD, SEAT) else 64)


def write_listing(m: Any) -> list[str]:
    lines = []
    for i, phase in enumerate(m.game.phases):
        lines += [f"def legal_{i}(s, me):", "    out = []"]
        for name in phase.moves:
            lines += _move(m, name, "    ")
        lines += ["    return out", ""]
    count = len(m.game.phases)
    lines += [f"LEGAL = ({''.join(f'legal_{i}, ' for i in range(count))})", "",
              "def legal(s):",
              "    if s.over:",
              "        return []",
              "    return LEGAL[s.phase](s, s.current)", ""]
    return lines


def _move(m: Any, name: str, indent: str) -> list[str]:
    """The lines that append a move's actions to ``out``."""
    spec = m.game.spec.data["moves"][name]
    params = list(spec.get("params", {}).items())
    types = param_types(m, name)
    stages = _stages(m, spec, [p for p, _ in params])
    index = list(m.game.moves).index(name)
    lines = [f"{indent}left = {MAX_MOVE_CHOICES}"]
    seen = m.temp("seen") if _may_repeat(m, params, types) else None
    if seen:
        lines.append(f"{indent}{seen} = set()")
    env = A_SEAT
    depth = indent
    for k, (pname, pdef) in enumerate(params):
        for test in _tests(m, stages[k], env):
            lines.append(f"{depth}if {test}:")
            depth += "    "
        kind = next(iter(pdef))
        domain = m.expr(pdef[kind], env)
        values = m.temp("values")
        code = param_code(pname, k, types[k])
        lines += [f"{depth}{values} = {domain.text}",
                  f"{depth}if type({values}) is not list: _fail()"]
        if kind == "subset_of":
            subsets = "_card_subsets" if strip(element(domain.type)) == CARD else "_plain_subsets"
            lines += [f"{depth}if not _few_sub_collections({values}, left): _fail()",
                      f"{depth}{values} = {subsets}({values})"]
        lines += [f"{depth}left -= len({values})", f"{depth}if left < 0: _fail()",
                  f"{depth}for {code.text} in {values}:"]
        depth += "    "
        env = env.bind(pname, code)
    for test in _tests(m, stages[len(params)], env):
        lines.append(f"{depth}if {test}:")
        depth += "    "
    names = [param_code(p, k, types[k]).text for k, (p, _) in enumerate(params)]
    return lines + _append(m, index, names, types, seen, depth)


def _stages(m: Any, spec: dict, params: list[str]) -> list[list[n.Node]]:
    """``when`` split at its top-level ``and``s, each clause at the stage of the last parameter
    it (or a clause before it) names, as ``GameCompiler._stages`` splits it."""
    stages: list[list[n.Node]] = [[] for _ in range(len(params) + 1)]
    if "when" not in spec:
        return stages
    node = m.parse(spec["when"])
    clauses = node.operands if isinstance(node, n.BoolOp) and node.op == "and" else (node,)
    stage = 0
    for clause in clauses:
        used = n.names_in(clause)
        stage = max([stage] + [i + 1 for i, p in enumerate(params) if p in used])
        stages[stage].append(clause)
    return stages


def _tests(m: Any, clauses: list[n.Node], env: Env) -> list[str]:
    return [m.writer.condition(clause, env) for clause in clauses]


def _may_repeat(m: Any, params: list, types: list[LType]) -> bool:
    """Whether two choices of a move may show as the same text (then only the first is kept): a
    card of a deck with labels that repeat, or a value of a list that may repeat itself."""
    for (pname, pdef), kind in zip(params, types):
        inner = strip(kind)
        if inner == CARD and m.shape.unique_labels and next(iter(pdef)) == "from":
            continue
        if inner == SEAT and next(iter(pdef)) == "from":
            continue
        return True
    return False


def _append(m: Any, index: int, names: list[str], types: list[LType], seen: str | None, depth: str) -> list[str]:
    """The action of the choice made: the move's index and its arguments' code (``actions``)."""
    moves = len(m.game.moves)
    if not names:
        return [f"{depth}out.append({index})"]
    lines = []
    if seen:
        text_key = f"({', '.join(_text_key(m, p, t) for p, t in zip(names, types))},)"
        lines += [f"{depth}if {text_key} not in {seen}:", f"{depth}    {seen}.add({text_key})"]
        depth += "    "
    code = encode_text(m.actions.codecs[index], names)
    return lines + [f"{depth}out.append({index} + {moves} * ({code}))"]


def _text_key(m: Any, name: str, kind: LType) -> str:
    """What a choice shows as, enough to tell two texts apart: a card's label, a value's kind and
    value (1, 1.0 and true show differently)."""
    inner = strip(kind)
    if inner == CARD:
        return f"_LABEL[{name}]"
    if isinstance(inner, ListT) and strip(inner.elem) == CARD:
        return f"tuple(_LABEL[c] for c in {name})"
    if inner in (INT, STR, SEAT):
        return name
    return f"_show({name})"
