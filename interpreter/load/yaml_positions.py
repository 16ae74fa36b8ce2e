"""Positions in a YAML text: line and column of every value, of every key, and of a character
inside a scalar (through its quotes, escapes and folded lines), for errors that point exactly."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any

from yaml.scanner import Scanner

from ..errors import Position, Source

_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what PyYAML counts as a line break
_LINE_BREAK_CHARS = "\r\n\x85\u2028\u2029"
_NON_BLANK = re.compile(r"\S+")

class Text:
    """The decoded file, turning character indexes (PyYAML's marks) into positions."""

    def __init__(self, text: str, source: Source):
        self.text = text
        self.source = source
        breaks = list(_LINE_BREAK.finditer(text))
        self.line_starts = [0] + [m.end() for m in breaks]
        self.line_ends = [m.start() for m in breaks] + [len(text)]

    def line_col(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, index)
        return line, index - self.line_starts[line - 1] + 1

    def line_end(self, index: int) -> int:
        """Where the line holding ``index`` ends (looked up: a file of one long line has many
        places on it). An index inside a two-character break is where that break goes on."""
        line = bisect.bisect_right(self.line_starts, index)
        return max(self.line_ends[line - 1], index)

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
class Node:
    """Where one value came from. Containers keep their children's nodes in the shape of the data."""

    start: int
    end: int | None = None
    style: str | None = None       # scalar style as PyYAML reports it; None when plain or a container
    items: list | dict | None = None   # [value node] or {key: (key node, value node)}
    origin: "Node | None" = None  # for an alias, the anchored node it repeats
    # For a scalar, the source index of each of its value's characters, worked out on first use:
    # every expression in a file asks for the places of its parts.
    aligned: list | None = field(default=None, repr=False, compare=False)


@dataclass
class Document:
    """Plain data loaded from one YAML file, and the file position of every value in it."""

    data: Any
    source: Source
    _root: Node = field(repr=False, compare=False)
    _text: Text = field(repr=False, compare=False)

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

    def _walk(self, path: tuple) -> tuple[Any, Node, Node | None, bool]:
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


def _char_line_col(text: Text, node: Node, value: str, offset: int) -> tuple[int, int]:
    if node.style == "|":
        return _literal_line_col(text, node, value, offset)
    if node.aligned is None:
        node.aligned = _alignment(_raw_units(text, node), value)
    index = node.aligned[offset] if offset < len(node.aligned) else None
    return text.line_col(node.start if index is None else index)


def _literal_line_col(text: Text, node: Node, value: str, offset: int) -> tuple[int, int]:
    """Each line of a literal block is one file line below the header, less its indentation."""
    line_start = value.rfind("\n", 0, offset) + 1
    line_end = value.find("\n", offset)
    content = value[line_start:len(value) if line_end < 0 else line_end]
    line = text.line_col(node.start)[0] + 1 + value.count("\n", 0, offset)
    indent = len(text.source.line(line) or "") - len(content)
    return line, max(indent, 0) + 1 + offset - line_start


def _raw_units(text: Text, node: Node) -> list[tuple[int, str]]:
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
