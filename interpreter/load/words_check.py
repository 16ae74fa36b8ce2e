"""Checks of the game's words for people (labels, values' words, the variables not shown) that
need no expression: each names something the game declares, each template's ``{parameter}`` is
one of its move's parameters. A move's parameter is also checked to have exactly one domain
(the schema lets ``labels`` stand beside it)."""
from __future__ import annotations

import re

from ..errors import SpecError, did_you_mean
from .yamlio import Document

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")     # a {parameter} in a move's label
DOMAINS = ("from", "subset_of")


def check_words(doc: Document) -> list[SpecError]:
    data = doc.data
    errors: list[SpecError] = []
    for name, move in (data.get("moves") or {}).items():
        errors += _check_move(doc, name, move)
    view = data.get("view") or {}
    declared = [n for block in (data.get("variables") or {}).values() for n in (block or {})]
    for key in ("labels", "not_shown"):
        for i, name in enumerate(view.get(key) or ()):
            if name not in declared:
                where = doc.key_pos(("view", key, name)) if key == "labels" else doc.pos(("view", key, i))
                errors.append(SpecError(f"'{name}' is not a variable", where,
                                        hint=did_you_mean(name, declared) or "declare it under variables:"))
    both = set(view.get("labels") or ()) & set(view.get("not_shown") or ())
    for name in sorted(both):
        errors.append(SpecError(f"'{name}' has a label but is not shown", doc.key_pos(("view", "labels", name)),
                                hint="give it a label, or list it under not_shown, not both"))
    return errors


def _check_move(doc: Document, name: str, move: dict) -> list[SpecError]:
    errors = []
    params = move.get("params") or {}
    for pname, pdef in params.items():
        if sum(kind in pdef for kind in DOMAINS) != 1:
            errors.append(SpecError(f"expected exactly one of 'from' or 'subset_of' in moves.{name}.params.{pname}",
                                    doc.pos(("moves", name, "params", pname))))
    label = move.get("label")
    if label is not None:
        for match in PLACEHOLDER.finditer(label):
            if match.group(1) not in params:
                where = doc.locate(("moves", name, "label"), match.start(), match.end() - match.start())
                hint = did_you_mean(match.group(1), params) or (
                    f"its parameters are {', '.join(params)}" if params else f"move '{name}' has no parameters")
                errors.append(SpecError(f"'{{{match.group(1)}}}' in the label of move '{name}' is not one of its parameters",
                                        where, hint=hint))
    return errors
