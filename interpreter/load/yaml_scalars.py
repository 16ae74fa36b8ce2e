"""Plain scalars resolved with the YAML 1.2 core schema (``yes`` is text, ``012`` is not octal),
and PyYAML's own errors worded for authors."""
from __future__ import annotations

import math
import re
from typing import Any, cast

import yaml

from .. import limits
from ..errors import LimitError, Position, RulesError, YamlError
from .yaml_positions import Text

_SURROGATE = re.compile("[\ud800-\udfff]")
_NULLS = {"", "~", "null", "Null", "NULL"}
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_SPECIAL_FLOAT = re.compile(r"[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")


def resolve_scalar(text: str, style: str | None) -> Any:
    """A scalar's value: quoted and block scalars are text; plain ones follow the YAML 1.2 core schema."""
    if len(text) > limits.MAX_SCALAR_CHARS:
        raise LimitError(f"this text has {len(text)} characters; the limit is {limits.MAX_SCALAR_CHARS}")
    surrogate = _SURROGATE.search(text)
    if surrogate:
        raise YamlError(f"'\\u{ord(surrogate.group()):04x}' is a surrogate code, not a character",
                        hint="write the character itself, or its full code point as \\UXXXXXXXX")
    if style is not None:
        return text
    if text in _NULLS:
        return None
    if text in _BOOLS:
        return _BOOLS[text]
    if _INT.fullmatch(text) or _LEADING_ZERO.fullmatch(text):
        return _resolve_int(text)
    number = float(text) if _FLOAT.fullmatch(text) else None
    if _SPECIAL_FLOAT.fullmatch(text) or (number is not None and not math.isfinite(number)):
        raise YamlError(f"'{text}' is not a finite number", hint=f"quote it ('{text}') if you meant text")
    return text if number is None else number


def _resolve_int(text: str) -> int:
    digits = text.lstrip("+-")
    if len(digits) > limits.MAX_INT_DIGITS:
        shown = text[:len(text) - len(digits) + 6]
        raise LimitError(f"integer {shown}... has {len(digits)} digits; the limit is {limits.MAX_INT_DIGITS}")
    if len(digits) > 1 and digits.startswith("0"):
        reading = ("a number with a leading zero" if set(digits) - set("01234567")
                   else f"YAML 1.1 reads it as the octal number {int(text, 8)}")
        raise YamlError(f"'{text}' is ambiguous: {reading}; write {int(text)}, or quote it ('{text}') "
                        f"if you meant text")
    return int(text)


def cut_message(expression: str, where: str = "") -> str:
    """An expression that YAML cut at a comma of a flow mapping (``{points: max(a, b)}``)."""
    return (f"the expression '{expression}'{' ' + where if where else ''} is cut at a comma: in a {{...}} "
            "mapping a comma ends the entry")


def cut_hint(name: str, expression: str) -> str:
    return f"quote the expression: {name}: \"{expression}\""


def key_type_error(key: Any, raw: str, where: Position) -> YamlError:
    if raw == "":
        return YamlError("mapping keys must be text, but this key is empty", where,
                         hint="write a key before the ':'")
    kind = ("null" if key is None else "a boolean" if isinstance(key, bool)
            else "a number" if isinstance(key, (int, float)) else "a list" if isinstance(key, list) else "a mapping")
    hint = "an alias used as a key must stand for text" if raw.startswith("*") else f"quote it: '{raw}'"
    return YamlError(f"mapping keys must be text, but {raw} is read as {kind}", where, hint=hint)


# ---------------------------------------------------------------- PyYAML's own errors



_TOKEN_WORDS = {
    "scalar": "a value", "block mapping start": "a new mapping", "block sequence start": "a new list",
    "block end": "the end of the block", "stream end": "the end of the file", "document start": "'---'",
    "document end": "'...'", "directive": "a directive", "alias": "an alias", "anchor": "an anchor",
    "tag": "a tag", "flow mapping start": "'{'", "flow sequence start": "'['", "flow mapping end": "'}'",
    "flow sequence end": "']'",
}


def _words(text: str) -> str:
    """PyYAML's token names ('<block mapping start>') in plain words."""
    text = re.sub(r"'?<([a-z ]+)>'?", lambda m: _TOKEN_WORDS.get(m.group(1), m.group(1)), text)
    return text.replace("'-'", "a list item ('-')").replace("'?'", "a key")


def plain_error(error: yaml.MarkedYAMLError, text: Text) -> RulesError:
    mark = error.problem_mark or error.context_mark
    where = text.at(mark.index) if mark else None
    message, hint = _rewrite(error.problem or error.context or "invalid YAML", error, text)
    return YamlError(message, where, hint=hint)


_FIXED_PROBLEMS = {
    "mapping values are not allowed here": (
        "': ' is not allowed in an unquoted value",
        "quote the value (key: 'a: b'), or check the indentation of this line"),
    "sequence entries are not allowed here": (
        "a list item ('- ') cannot start here", "put the list on the lines below its key, or quote the value"),
    "mapping keys are not allowed here": (
        "an explicit key ('? ') cannot start here", "quote the value if it starts with '?'"),
}
_UNCLOSED_QUOTE = {
    "found unexpected end of stream": "the file ends inside a quoted string",
    "found unexpected document separator": "a '---' line is inside a quoted string",
}


def _rewrite(problem: str, error: yaml.MarkedYAMLError, text: Text) -> tuple[str, str | None]:
    context = error.context or ""
    opened = f"line {error.context_mark.line + 1}, column {error.context_mark.column + 1}" if error.context_mark else ""
    started = f"line {error.context_mark.line + 1}" if error.context_mark else "the top"
    if problem in _FIXED_PROBLEMS:
        return _FIXED_PROBLEMS[problem]
    if "quoted scalar" in context and problem in _UNCLOSED_QUOTE:
        return _UNCLOSED_QUOTE[problem], f"the quote opened at {opened} is never closed"
    if problem == "found character '\\t' that cannot start any token":
        index = cast(yaml.Mark, error.problem_mark).index     # where the scanner found the tab
        before = text.text[text.line_starts[text.line_col(index)[0] - 1]:index]
        return f"tabs are not allowed {'for indentation' if before.strip() == '' else 'here'}; use spaces", None
    if problem == "could not find expected ':'":
        return f"expected ':' after the key at {opened}", "each entry of a mapping has the form 'key: value'"
    if match := re.fullmatch(r"found character (.*) that cannot start any token", problem):
        return f"a value cannot start with {match.group(1)}", "put the value in quotes"
    if match := re.fullmatch(r"expected <block end>, but found (.*)", problem):
        if "block mapping" in context:
            return (f"expected a key of the mapping that starts at {started}, but found {_words(match.group(1))}",
                    "check the indentation: the keys of one mapping start in the same column")
        return (f"expected an item of the list that starts at {started}, but found {_words(match.group(1))}",
                "check the indentation: the '-' items of one list start in the same column")
    if match := re.fullmatch(r"expected ',' or '([]}])', but got (.*)", problem):
        kind = "list" if match.group(1) == "]" else "mapping"
        return (f"expected ',' or '{match.group(1)}' in the {kind} that starts at {started}, "
                f"but found {_words(match.group(2))}", None)
    if match := re.fullmatch(r"expected the node content, but found (.*)", problem):
        return f"expected a value, but found {_words(match.group(1))}", None
    return _words(problem), None
