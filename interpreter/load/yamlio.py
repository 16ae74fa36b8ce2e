"""Safe YAML loading: the bytes of a file become plain data that remembers where each value came from.

PyYAML's composer and constructor recurse (deep input overflows the stack) and follow YAML 1.1
(``yes`` is true, ``012`` is octal). So we read PyYAML's iterative event stream and build the tree
ourselves, counting depth and alias-expanded size as we go, and resolve plain scalars with the
YAML 1.2 core schema. Every problem is a ``YamlError`` or ``LimitError`` with a file position.
"""
from __future__ import annotations

import bisect
import math
import os
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.scanner import Scanner

from interpreter import limits
from interpreter.errors import LimitError, Position, RulesError, Source, YamlError, did_you_mean

_UTF8_BOM = b"\xef\xbb\xbf"
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what PyYAML counts as a line break
_LINE_BREAK_CHARS = "\r\n\x85\u2028\u2029"
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_HUGE_ESCAPE = re.compile(r"\\U([0-9A-Fa-f]{8})")
_NON_BLANK = re.compile(r"\S+")

_NULLS = {"", "~", "null", "Null", "NULL"}
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_SPECIAL_FLOAT = re.compile(r"[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")


# ---------------------------------------------------------------- positions in the text

class _Text:
    """The decoded file, turning character indexes (PyYAML's marks) into positions."""

    def __init__(self, text: str, source: Source):
        self.text = text
        self.source = source
        self.line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]

    def line_col(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, index)
        return line, index - self.line_starts[line - 1] + 1

    def line_end(self, index: int) -> int:
        match = _LINE_BREAK.search(self.text, index)
        return match.start() if match else len(self.text)

    def next_line_start(self, index: int) -> int:
        line, _ = self.line_col(index)
        return self.line_starts[line] if line < len(self.line_starts) else len(self.text)

    def at(self, index: int, width: int = 1) -> Position:
        line, col = self.line_col(index)
        return Position(self.source, line, col, max(width, 1))

    def span(self, start: int, end: int | None = None) -> Position:
        """The position of text starting at ``start``; its width stops at ``end`` or the line's end."""
        line_end = self.line_end(start)
        if end is not None and end <= line_end:
            return self.at(start, len(self.text[start:end].rstrip()))
        return self.at(start, len(_without_comment(self.text[start:line_end]).rstrip()))

    def word(self, index: int) -> Position:
        """The position of the run of non-blank characters at ``index``."""
        match = _NON_BLANK.match(self.text, index)
        return self.at(index, len(match.group()) if match else 1)


def _without_comment(line: str) -> str:
    """The text before a ' #' comment that is not inside quotes."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"" and (i == 0 or line[i - 1] in " [{,:-?"):
            quote = char
        elif char == "#" and i > 0 and line[i - 1] in " \t":
            return line[:i]
    return line


@dataclass(eq=False)
class _Node:
    """Where one value came from. Containers keep their children's nodes in the shape of the data."""

    start: int
    end: int | None = None
    style: str | None = None       # scalar style as PyYAML reports it; None when plain or a container
    items: list | dict | None = None   # [value node] or {key: (key node, value node)}
    origin: "_Node | None" = None  # for an alias, the anchored node it repeats
    # For a scalar, the source index of each of its value's characters, worked out on first use:
    # every expression in a file asks for the places of its parts.
    aligned: list | None = field(default=None, repr=False, compare=False)


@dataclass
class Document:
    """Plain data loaded from one YAML file, and the file position of every value in it."""

    data: Any
    source: Source
    _root: _Node = field(repr=False, compare=False)
    _text: _Text = field(repr=False, compare=False)

    def pos(self, path: tuple = ()) -> Position:
        """The value at ``path``, or its closest existing ancestor."""
        _, node, _, _ = self._walk(path)
        return self._text.span(node.start, node.end)

    def key_pos(self, path: tuple) -> Position:
        """The mapping key whose value is at ``path``; ``pos(path)`` when there is none."""
        _, _, key_node, found = self._walk(path)
        if found and key_node is not None:
            return self._text.span(key_node.start, key_node.end)
        return self.pos(path)

    def locate(self, path: tuple, offset: int, width: int = 1) -> Position:
        """Character ``offset`` of the string value at ``path``, as a place in the file."""
        value, node, _, found = self._walk(path)
        if not found or not isinstance(value, str) or not value:
            return self.pos(path)
        offset = min(max(offset, 0), len(value))
        past_end = offset == len(value)
        line, col = _char_line_col(self._text, node.origin or node, value, offset - past_end)
        return Position(self.source, line, col + past_end, max(width, 1))

    def _walk(self, path: tuple) -> tuple[Any, _Node, _Node | None, bool]:
        value, node, key_node = self.data, self._root, None
        for step in path:
            items = node.items
            if isinstance(items, dict) and isinstance(step, str) and step in items:
                key_node, node = items[step]
            elif isinstance(items, list) and type(step) is int and 0 <= step < len(items):
                key_node, node = None, items[step]
            else:
                return value, node, None, False
            value = value[step]
        return value, node, key_node, True


def _char_line_col(text: _Text, node: _Node, value: str, offset: int) -> tuple[int, int]:
    if node.style == "|":
        return _literal_line_col(text, node, value, offset)
    if node.aligned is None:
        node.aligned = _alignment(_raw_units(text, node), value)
    index = node.aligned[offset] if offset < len(node.aligned) else None
    return text.line_col(node.start if index is None else index)


def _literal_line_col(text: _Text, node: _Node, value: str, offset: int) -> tuple[int, int]:
    """Each line of a literal block is one file line below the header, less its indentation."""
    line_start = value.rfind("\n", 0, offset) + 1
    line_end = value.find("\n", offset)
    content = value[line_start:len(value) if line_end < 0 else line_end]
    line = text.line_col(node.start)[0] + 1 + value.count("\n", 0, offset)
    indent = len(text.source.line(line) or "") - len(content)
    return line, max(indent, 0) + 1 + offset - line_start


def _raw_units(text: _Text, node: _Node) -> list[tuple[int, str]]:
    """(index, produced character) for each piece of a scalar's source text; escapes decoded."""
    if node.style in ("'", '"'):
        start, end = node.start + 1, (node.end or node.start) - 1
    elif node.style == ">":
        start, end = text.next_line_start(node.start), node.end or node.start
    else:
        start, end = node.start, node.end or node.start
    units, i = [], start
    while i < end:
        produced, length = text.text[i], 1
        if node.style == "'" and text.text.startswith("''", i):
            produced, length = "'", 2
        elif node.style == '"' and produced == "\\":
            produced, length = _escape(text.text, i)
        units.append((i, produced))
        i += length
    return units


def _escape(text: str, i: int) -> tuple[str, int]:
    code = text[i + 1:i + 2]
    if code in Scanner.ESCAPE_CODES:
        digits = Scanner.ESCAPE_CODES[code]
        try:
            return chr(int(text[i + 2:i + 2 + digits], 16)), 2 + digits
        except (ValueError, OverflowError):
            return "", 2 + digits
    return Scanner.ESCAPE_REPLACEMENTS.get(code, ""), 2  # "" for an escaped line break


def _alignment(units: list[tuple[int, str]], value: str) -> list[int | None]:
    """For each character of the value, the source index it comes from: the value's characters
    are matched to the source in order, skipping what folding removed. A character past the
    last match gets the last match found."""
    aligned: list[int | None] = []
    j, found = 0, None
    for want in value:
        while j < len(units) and not _produces(units[j][1], want):
            j += 1
        if j == len(units):
            aligned.extend([found] * (len(value) - len(aligned)))
            break
        found = units[j][0]
        j += 1
        aligned.append(found)
    return aligned


def _produces(unit: str, want: str) -> bool:
    return unit == want or (want in " \n" and unit != "" and unit in _LINE_BREAK_CHARS)


# ---------------------------------------------------------------- loading

def load_yaml_file(path: str | os.PathLike) -> Document:
    name = os.fsdecode(path)
    try:
        with open(path, "rb") as stream:
            data = stream.read(limits.MAX_FILE_BYTES + 1)  # never more than one byte past the limit
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise YamlError(f"cannot read {name}: {reason}") from None
    return load_yaml(data, name)


def load_yaml(data: bytes | str, name: str) -> Document:
    text = _decode(data, name)
    located = _Text(text, Source.from_text(name, text))
    builder = _TreeBuilder(located)
    for event in _events(located):
        builder.feed(event)
    return Document(builder.root_value, located.source, builder.root_node, located)


def _events(text: _Text):
    """PyYAML's events, with its errors turned into ours."""
    events = yaml.parse(text.text, Loader=yaml.SafeLoader)
    while True:
        try:
            event = next(events)
        except StopIteration:
            return
        except yaml.MarkedYAMLError as error:
            raise _plain_error(error, text) from None
        except yaml.YAMLError as error:
            raise YamlError(str(error).splitlines()[0]) from None
        except (ValueError, OverflowError):  # PyYAML's own chr() on a \U escape past U+10FFFF
            match = _HUGE_ESCAPE.search(text.text)
            where = text.at(match.start(), len(match.group())) if match else None
            raise YamlError("escape sequence beyond the last Unicode character U+10FFFF", where) from None
        yield event


def _decode(data: bytes | str, name: str) -> str:
    # A text with more characters than the limit has more bytes too: it is refused without encoding it.
    # A lone surrogate in a text fails below as bad UTF-8.
    if isinstance(data, str) and len(data) <= limits.MAX_FILE_BYTES:
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > limits.MAX_FILE_BYTES:
        raise LimitError(f"the file is larger than the limit of {limits.MAX_FILE_BYTES} bytes",
                         Position(Source(name), 1, 1))
    data = data.removeprefix(_UTF8_BOM)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        shown = data.decode("utf-8", "replace")
        where = _Text(shown, Source.from_text(name, shown)).at(len(data[:error.start].decode("utf-8")))
        raise YamlError(f"the file is not valid UTF-8 (byte 0x{data[error.start]:02x})", where,
                        hint="save the file with the UTF-8 encoding") from None
    bad = _NOT_PRINTABLE.search(text)
    if bad:
        where = _Text(text, Source.from_text(name, text)).at(bad.start())
        raise YamlError(f"the character U+{ord(bad.group()):04X} is not allowed", where,
                        hint="only printable text, tabs and line breaks may appear; is this a binary file?")
    return text


@dataclass(eq=False)
class _Frame:
    """A mapping or sequence under construction."""

    value: dict | list
    node: _Node
    anchor: str | None
    count_before: int
    height: int = 0                # containers nested inside it, at the deepest
    key: str = ""
    key_node: _Node | None = None  # set between a mapping's key and its value


@dataclass(frozen=True)
class _Anchor:
    value: Any
    node: _Node
    size: int    # values in it, aliases expanded
    height: int  # containers nested in it, itself included


class _TreeBuilder:
    """Builds plain data and its nodes from PyYAML events, without recursion."""

    def __init__(self, text: _Text):
        self.text = text
        self.stack: list[_Frame] = []
        self.anchors: dict[str, _Anchor] = {}
        self.open_anchors: set[str] = set()
        self.count = 0
        self.expanded_alias = False
        self.documents = 0
        self.root_value: Any = None
        self.root_node = _Node(0)

    def feed(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.start_document(event)
        elif isinstance(event, yaml.StreamEndEvent) and self.documents == 0:
            raise YamlError("the file is empty", Position(self.text.source, 1, 1))
        elif isinstance(event, yaml.ScalarEvent):
            self.scalar(event)
        elif isinstance(event, yaml.AliasEvent):
            self.alias(event)
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            self.start_collection(event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.end_collection(event)

    def start_document(self, event: yaml.DocumentStartEvent) -> None:
        self.documents += 1
        if self.documents > 1:
            raise YamlError("the file holds more than one YAML document",
                            self.text.word(event.start_mark.index),
                            hint="keep one document per file; remove this '---' and what follows, "
                                 "or move it to a file of its own")

    def scalar(self, event: yaml.ScalarEvent) -> None:
        node = _Node(event.start_mark.index, event.end_mark.index, event.style)
        self.check_tag(event)
        self.add_to_count(1, node)
        try:
            if self.awaiting_key() and event.style is None and event.value == "<<":
                raise YamlError("merge keys (<<) are not supported; write the keys out")
            value = _resolve_scalar(event.value, event.style)
            if event.anchor is not None:
                self.anchors[event.anchor] = _Anchor(value, node, 1, 0)
            self.add(value, node, 0, event.value)
        except RulesError as error:
            # positions are worked out only for errors: most scalars never need one
            error.pos = error.pos or self.text.span(node.start, node.end)
            raise

    def alias(self, event: yaml.AliasEvent) -> None:
        name = event.anchor
        where = self.text.span(event.start_mark.index, event.end_mark.index)
        if name in self.open_anchors:
            raise YamlError(f"alias '*{name}' is used inside its own anchor '&{name}'", where,
                            hint="a value cannot contain itself")
        if name not in self.anchors:
            raise YamlError(f"alias '*{name}' is not defined", where,
                            hint=did_you_mean(name, self.anchors) or f"define '&{name}' before using it")
        anchor = self.anchors[name]
        if len(self.stack) + anchor.height > limits.MAX_YAML_DEPTH:
            raise LimitError(f"alias '*{name}' nests values deeper than the limit of "
                             f"{limits.MAX_YAML_DEPTH} levels", where)
        node = _Node(event.start_mark.index, event.end_mark.index, anchor.node.style,
                     anchor.node.items, anchor.node.origin or anchor.node)
        self.expanded_alias = True
        self.add_to_count(anchor.size, node)
        self.add(anchor.value, node, anchor.height, f"*{name}")

    def start_collection(self, event: yaml.CollectionStartEvent) -> None:
        node = _Node(event.start_mark.index)
        is_mapping = isinstance(event, yaml.MappingStartEvent)
        self.check_tag(event)
        if self.awaiting_key():
            kind = "a mapping" if is_mapping else "a list"
            raise YamlError(f"mapping keys must be text, but this key is {kind}", self.text.span(node.start),
                            hint="write the key as text, in quotes if needed")
        if len(self.stack) >= limits.MAX_YAML_DEPTH:
            raise LimitError(f"values are nested deeper than the limit of {limits.MAX_YAML_DEPTH} levels",
                             self.text.span(node.start))
        before = self.count
        self.add_to_count(1, node)
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        node.items = {} if is_mapping else []
        self.stack.append(_Frame({} if is_mapping else [], node, event.anchor, before))

    def end_collection(self, event: yaml.CollectionEndEvent) -> None:
        frame = self.stack.pop()
        frame.node.end = event.end_mark.index
        height = frame.height + 1
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
            self.anchors[frame.anchor] = _Anchor(frame.value, frame.node, self.count - frame.count_before, height)
        self.add(frame.value, frame.node, height, "")

    def awaiting_key(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1].value, dict) and self.stack[-1].key_node is None

    def add(self, value: Any, node: _Node, height: int, raw: str) -> None:
        """Attach a finished value to the collection being built (or make it the root)."""
        if not self.stack:
            self.root_value, self.root_node = value, node
            return
        frame = self.stack[-1]
        frame.height = max(frame.height, height)
        if isinstance(frame.value, list):
            frame.value.append(value)
            frame.node.items.append(node)
        elif frame.key_node is None:
            self.set_key(frame, value, node, raw)
        else:
            frame.value[frame.key] = value
            frame.node.items[frame.key] = (frame.key_node, node)
            frame.key_node = None

    def set_key(self, frame: _Frame, key: Any, node: _Node, raw: str) -> None:
        if not isinstance(key, str):
            raise _key_type_error(key, raw, self.text.span(node.start, node.end))
        if key in frame.node.items:
            first = self.text.line_col(frame.node.items[key][0].start)[0]
            raise YamlError(f"duplicate key '{key}' (first defined at line {first})",
                            self.text.span(node.start, node.end))
        frame.key, frame.key_node = key, node

    def check_tag(self, event: yaml.NodeEvent) -> None:
        if event.tag is not None:
            tag_index = self.text.text.find("!", event.start_mark.index)
            raise YamlError("tags are not allowed", self.text.word(max(tag_index, event.start_mark.index)),
                            hint="remove the tag; to write text, put it in quotes instead")

    def add_to_count(self, size: int, node: _Node) -> None:
        self.count += size
        if self.count > limits.MAX_YAML_NODES:
            message = ("too many values after expanding aliases (an alias bomb?); the limit is "
                       if self.expanded_alias else "too many values; the limit is ")
            raise LimitError(message + str(limits.MAX_YAML_NODES), self.text.span(node.start, node.end))


# ---------------------------------------------------------------- scalars

def _resolve_scalar(text: str, style: str | None) -> Any:
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


def _key_type_error(key: Any, raw: str, where: Position) -> YamlError:
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


def _plain_error(error: yaml.MarkedYAMLError, text: _Text) -> RulesError:
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


def _rewrite(problem: str, error: yaml.MarkedYAMLError, text: _Text) -> tuple[str, str | None]:
    context = error.context or ""
    opened = f"line {error.context_mark.line + 1}, column {error.context_mark.column + 1}" if error.context_mark else ""
    started = f"line {error.context_mark.line + 1}" if error.context_mark else "the top"
    if problem in _FIXED_PROBLEMS:
        return _FIXED_PROBLEMS[problem]
    if "quoted scalar" in context and problem in _UNCLOSED_QUOTE:
        return _UNCLOSED_QUOTE[problem], f"the quote opened at {opened} is never closed"
    if problem == "found character '\\t' that cannot start any token":
        index = error.problem_mark.index
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
