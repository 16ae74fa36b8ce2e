"""Lark's parse errors, said in plain words at the exact place.

The message comes from the error itself: what was found, what came just before it, and what
could have come instead (summarised: "a value", "')'", "'then'"...). A hint is added when the
mistake looks like one of a few known slips, recognised the way lark's
``examples/advanced/error_reporting_lalr.py`` does it: by matching the parser state against
small example mistakes (``UnexpectedInput.match_examples``).
"""
from __future__ import annotations

from typing import Iterator, cast

from lark import Lark, Token
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

# Terminals that begin a value and nothing else ("(", "[", "-", "not" and "if" may also continue one).
_VALUE_STARTERS = {"NAME", "INT", "DECIMAL", "STRING", "TRUE", "FALSE", "NONE", "LBRACE"}
# Terminals worth naming when they are what was expected (operators are not: too many to list).
_STRUCTURE = {"RPAR": "')'", "RSQB": "']'", "RBRACE": "'}'", "COMMA": "','", "COLON": "':'",
              "THEN": "'then'", "ELSE": "'else'", "NAME": "a name"}
_STRUCTURE_ORDER = list(_STRUCTURE)

_CHARACTER_HINTS = {
    "=": "use '==' to compare",
    "!": "use 'not', or '!=' to compare",
    "&": "use 'and'",
    "|": "use 'or'",
    "?": "write 'if condition then a else b'",
    "#": "expressions have no comments",
}

# Hints learned from example mistakes; the parser state of the error picks the hint.
_VALUE_ENDINGS = ["a", "1", "1.5", "'s'", "true", "none", "(a)", "[a]", "{}", "f(a)", "a.b", "a[0]", "a[0:1]",
                  "[a for a in b]"]
_EXAMPLE_HINTS = [
    ("write 'if condition then a else b': the condition comes first",
     [f"{v} if b" for v in _VALUE_ENDINGS]),
    ("there is no power operator: multiply, or use product()", [f"{v} ** 2" for v in _VALUE_ENDINGS]),
]


def describe(error: UnexpectedInput, text: str, parser: Lark) -> tuple[str, int, int, str | None]:
    """(message, start offset, width, hint) for a parse error in ``text``."""
    if isinstance(error, UnexpectedCharacters):
        return _bad_character(error, text)
    error = cast("UnexpectedToken | UnexpectedEOF", error)     # the parser's errors, the lexer's being the other
    token = error.token
    at_end = token.type in ("$END", "<EOF>")
    previous = _token_before(text, parser, len(text) if at_end else token.start_pos)
    # `accepts` follows the whole parser stack; `expected` is the state's merged LALR lookahead set.
    accepts = error.accepts if isinstance(error, UnexpectedToken) else None
    acceptable = set(accepts or error.expected)
    expected = _expected(acceptable)
    hint = _example_hint(error, parser)
    if at_end:
        if not text.strip():
            return "empty expression", 0, 1, None
        message = "unexpected end of expression"
        if expected:
            message += f": expected {expected} after {_quote(previous)}"
        return message, len(text.rstrip()), 1, hint
    message = f"unexpected {_describe_token(token)}"
    message += f" after {_quote(previous)}" if previous else " at the start"
    if expected:
        message += f": expected {expected}"
    if hint is None and token.type in _VALUE_STARTERS and "COMMA" in acceptable:
        hint = "separate items with ','"
    if hint is None and previous == "lambda":
        hint = "write a function as 'x => ...'"
    return message, token.start_pos, max(1, len(token)), hint


def _bad_character(error: UnexpectedCharacters, text: str) -> tuple[str, int, int, str | None]:
    at = cast(int, error.pos_in_stream)     # lark declares it None on the base class; a lexer error has it
    char = text[at]
    if char in "\"'":
        line_end = text.find("\n", at)
        width = (len(text) if line_end < 0 else line_end) - at
        return "unterminated string", at, max(1, width), f"close it with {char}"
    shown = char if char.isprintable() else repr(char)[1:-1]
    return f"unexpected character '{shown}'", at, 1, _CHARACTER_HINTS.get(char)


def _expected(names: set[str]) -> str:
    if "INT" in names:
        return "a value"
    if names == {"IN"}:   # after `for x` or `not`; elsewhere 'in' is just one more operator
        return "'in'"
    wanted = [_STRUCTURE[name] for name in _STRUCTURE_ORDER if name in names]
    if not wanted or len(wanted) > 3:
        return ""
    return wanted[0] if len(wanted) == 1 else ", ".join(wanted[:-1]) + " or " + wanted[-1]


def _describe_token(token: Token) -> str:
    if token.type == "NAME":
        return f"name '{token}'"
    if token.type in ("INT", "DECIMAL"):
        return f"number {_short(str(token))}"
    if token.type == "STRING":
        return f"string {_short(str(token))}"
    return f"'{token}'"


def _quote(token: Token | None) -> str:
    return f"'{_short(str(token))}'"


def _short(text: str) -> str:
    return text if len(text) <= 24 else text[:21] + "..."


def _tokens(text: str, parser: Lark) -> Iterator[Token]:
    """The tokens of ``text`` up to the first one the lexer cannot read."""
    try:
        yield from parser.lex(text)
    except UnexpectedInput:
        return


def _token_before(text: str, parser: Lark, offset: int) -> Token | None:
    previous = None
    for token in _tokens(text, parser):
        if cast(int, token.start_pos) >= offset:     # the lexer's tokens have a place
            break
        previous = token
    return previous


def _example_hint(error: UnexpectedInput, parser: Lark) -> str | None:
    try:
        return error.match_examples(parser.parse, _EXAMPLE_HINTS, use_accepts=True)
    except Exception:  # noqa: BLE001 - a hint is a nicety; never let finding one fail the report
        return None
