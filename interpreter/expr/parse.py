"""Parses expression text into a syntax tree, with every problem as a positioned ``RulesError``."""
from __future__ import annotations

import functools
import sys
from typing import cast

import lark
from lark import Lark
from lark.exceptions import UnexpectedInput

from .. import limits
from .installed import grammar_file
from . import user_cache
from ..errors import ExprSyntaxError, LimitError, Position, Source
from . import nodes as n
from . import tree_store
from .build import Builder, BuildProblem
from .scope import Locator
from .syntax_errors import describe


@functools.cache
def expression_parser() -> Lark:
    """The one LALR parser, built once; it makes syntax-tree nodes as it parses.

    Analysing the grammar takes most of a second (more with ``interegular`` installed, with which
    lark also looks for colliding terminals), so lark keeps the analysis in the user's cache
    folder. lark checks the file against a digest of the grammar, its options and the versions
    of lark and Python, and builds the parser again when the file is missing, stale, unreadable
    or corrupt; a folder it cannot write to only means no cache."""
    grammar = grammar_file().read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", transformer=Builder(), maybe_placeholders=True,
                cache=grammar_cache_file() or False)


def grammar_cache_file() -> str | None:
    """In the user's cache folder (``user_cache``), or None when there is none."""
    folder = user_cache.folder()
    if folder is None:
        return None
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    return str(folder / f"expr-parser-lark{lark.__version__}-py{version}.cache")


# Trees are immutable and hold offsets within their text only, so one text's tree serves every
# place it is written (a game repeats some, and staged move conditions are parsed again).
PARSED_CACHE = 4096


@functools.lru_cache(maxsize=PARSED_CACHE)
def _parsed(text: str) -> n.Node:
    return cast(n.Node, expression_parser().parse(text))     # lark says a Tree: the Builder makes nodes


def text_locator(text: str, name: str = "<expression>") -> Locator:
    """Positions inside ``text`` itself, for an expression that is not part of a file."""
    source = Source.from_text(name, text)

    def locate(offset: int, width: int) -> Position:
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        return Position(source, line, col, width)
    return locate


def parse_expression(text: str, locate: Locator | None = None) -> n.Node:
    if not isinstance(text, str):
        raise ExprSyntaxError(f"an expression must be text, not {type(text).__name__}",
                              locate(0, 1) if locate else None, "put it in quotes")
    locate = locate or text_locator(text)
    if len(text) > limits.MAX_EXPR_CHARS:
        raise LimitError(f"expression too long: {len(text)} characters (limit {limits.MAX_EXPR_CHARS})",
                         locate(0, 1), "split it up, for example with a defined function")
    try:
        return tree_store.tree(text, _parsed)     # kept from an earlier load of the file, else parsed
    except BuildProblem as problem:
        kind = LimitError if problem.kind == "limit" else ExprSyntaxError
        raise kind(problem.message, locate(problem.start, max(1, problem.end - problem.start)),
                   problem.hint) from None
    except UnexpectedInput as error:
        message, start, width, hint = describe(error, text, expression_parser())
        raise ExprSyntaxError(message, locate(start, width), hint) from None
