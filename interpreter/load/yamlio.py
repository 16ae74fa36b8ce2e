"""Safe YAML loading: the bytes of a file become plain data that remembers where each value came from.

PyYAML's composer and constructor recurse (deep input overflows the stack) and follow YAML 1.1
(``yes`` is true, ``012`` is octal). So we read PyYAML's iterative event stream and build the tree
ourselves, counting depth and alias-expanded size as we go, and resolve plain scalars with the
YAML 1.2 core schema. Every problem is a ``YamlError`` or ``LimitError`` with a file position. Positions are kept by
``yaml_positions``, scalars resolved by ``yaml_scalars``.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import yaml

from .. import errors, limits
from ..expr import user_cache
from ..errors import LimitError, Position, RulesError, Source, YamlError, did_you_mean
from .yaml_positions import Document, Node, Text
from .yaml_scalars import cut_hint, cut_message, key_type_error, plain_error, resolve_scalar

_UTF8_BOM = b"\xef\xbb\xbf"
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_HUGE_ESCAPE = re.compile(r"\\U([0-9A-Fa-f]{8})")


# ---------------------------------------------------------------- loading

def load_yaml_file(path: str | os.PathLike) -> Document:
    name = os.fsdecode(path)
    try:
        with open(path, "rb") as stream:
            data = stream.read(limits.MAX_FILE_BYTES + 1)  # never more than one byte past the limit
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise YamlError(f"cannot read {name}: {reason}") from None
    code = _loader_digest()
    if code is None:
        return load_yaml(data, name)
    entry = user_cache.key(code, yaml.__version__, name, data)
    doc = user_cache.load("yaml", entry)
    if not isinstance(doc, Document):
        doc = load_yaml(data, name)
        user_cache.store("yaml", entry, doc)
    return doc


def _loader_digest() -> str | None:
    """What a document read from a file depends on besides its bytes: the code that reads it."""
    here = Path(__file__).parent
    return user_cache.code_digest(*(str(here / f) for f in ("yamlio.py", "yaml_positions.py", "yaml_scalars.py")),
                                  str(Path(errors.__file__)), str(Path(limits.__file__)))


def load_yaml(data: bytes | str, name: str) -> Document:
    text = _decode(data, name)
    located = Text(text, Source.from_text(name, text))
    builder = _TreeBuilder(located)
    for event in _events(located):
        builder.feed(event)
    return Document(builder.root_value, located.source, builder.root_node, located)


def _events(text: Text):
    """PyYAML's events, with its errors turned into ours."""
    events = yaml.parse(text.text, Loader=yaml.SafeLoader)
    while True:
        try:
            event = next(events)
        except StopIteration:
            return
        except yaml.MarkedYAMLError as error:
            raise plain_error(error, text) from None
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
    data = cast(bytes, data).removeprefix(_UTF8_BOM)     # a text was encoded, or refused as too long
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        shown = data.decode("utf-8", "replace")
        where = Text(shown, Source.from_text(name, shown)).at(len(data[:error.start].decode("utf-8")))
        raise YamlError(f"the file is not valid UTF-8 (byte 0x{data[error.start]:02x})", where,
                        hint="save the file with the UTF-8 encoding") from None
    bad = _NOT_PRINTABLE.search(text)
    if bad:
        where = Text(text, Source.from_text(name, text)).at(bad.start())
        raise YamlError(f"the character U+{ord(bad.group()):04X} is not allowed", where,
                        hint="only printable text, tabs and line breaks may appear; is this a binary file?")
    return text


@dataclass(eq=False)
class _Frame:
    """A mapping or sequence under construction."""

    value: dict | list
    node: Node
    anchor: str | None
    count_before: int
    height: int = 0                # containers nested inside it, at the deepest
    key: str = ""
    key_node: Node | None = None  # set between a mapping's key and its value


@dataclass(frozen=True)
class _Anchor:
    value: Any
    node: Node
    size: int    # values in it, aliases expanded
    height: int  # containers nested in it, itself included


class _TreeBuilder:
    """Builds plain data and its nodes from PyYAML events, without recursion."""

    def __init__(self, text: Text):
        self.text = text
        self.stack: list[_Frame] = []
        self.anchors: dict[str, _Anchor] = {}
        self.open_anchors: set[str] = set()
        self.count = 0
        self.aliases = 0
        self.expanded_alias = False
        self.documents = 0
        self.root_value: Any = None
        self.root_node = Node(0)

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
                            self.text.word(cast(yaml.Mark, event.start_mark).index),
                            hint="keep one document per file; remove this '---' and what follows, "
                                 "or move it to a file of its own")

    def scalar(self, event: yaml.ScalarEvent) -> None:
        node = Node(cast(yaml.Mark, event.start_mark).index, cast(yaml.Mark, event.end_mark).index, event.style)
        self.check_tag(event)
        self.add_to_count(1, node)
        try:
            if self.awaiting_key() and event.style is None and event.value == "<<":
                raise YamlError("merge keys (<<) are not supported; write the keys out")
            value = resolve_scalar(event.value, event.style)
            if event.anchor is not None:
                self.anchors[event.anchor] = _Anchor(value, node, 1, 0)
            self.add(value, node, 0, event.value)
        except RulesError as error:
            # positions are worked out only for errors: most scalars never need one
            error.pos = error.pos or self.text.span(node.start, node.end)
            raise

    def alias(self, event: yaml.AliasEvent) -> None:
        name = cast(str, event.anchor)      # an alias names its anchor
        # The position is worked out only for an error: finding the end of a line of thousands of
        # aliases for each of them would take time quadratic in the line's length.
        start, end = cast(yaml.Mark, event.start_mark).index, cast(yaml.Mark, event.end_mark).index

        def where() -> Position:
            return self.text.span(start, end)
        if name in self.open_anchors:
            raise YamlError(f"alias '*{name}' is used inside its own anchor '&{name}'", where(),
                            hint="a value cannot contain itself")
        if name not in self.anchors:
            raise YamlError(f"alias '*{name}' is not defined", where(),
                            hint=did_you_mean(name, self.anchors) or f"define '&{name}' before using it")
        anchor = self.anchors[name]
        self.aliases += 1
        if self.aliases > limits.MAX_YAML_ALIASES:
            raise LimitError(f"too many aliases; the limit is {limits.MAX_YAML_ALIASES}", where(),
                             hint="write the repeated part once, or fewer times")
        if len(self.stack) + anchor.height > limits.MAX_YAML_DEPTH:
            raise LimitError(f"alias '*{name}' nests values deeper than the limit of "
                             f"{limits.MAX_YAML_DEPTH} levels", where())
        node = Node(start, end, anchor.node.style,
                     anchor.node.items, anchor.node.origin or anchor.node)
        self.expanded_alias = True
        self.add_to_count(anchor.size, node)
        self.add(anchor.value, node, anchor.height, f"*{name}")

    def start_collection(self, event: yaml.CollectionStartEvent) -> None:
        node = Node(cast(yaml.Mark, event.start_mark).index)
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
        frame.node.end = cast(yaml.Mark, event.end_mark).index
        height = frame.height + 1
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
            self.anchors[frame.anchor] = _Anchor(frame.value, frame.node, self.count - frame.count_before, height)
        self.add(frame.value, frame.node, height, "")

    def awaiting_key(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1].value, dict) and self.stack[-1].key_node is None

    def add(self, value: Any, node: Node, height: int, raw: str) -> None:
        """Attach a finished value to the collection being built (or make it the root)."""
        if not self.stack:
            self.root_value, self.root_node = value, node
            return
        frame = self.stack[-1]
        frame.height = max(frame.height, height)
        if isinstance(frame.value, list):
            frame.value.append(value)
            cast(list, frame.node.items).append(node)
        elif frame.key_node is None:
            self.set_key(frame, value, node, raw)
        else:
            frame.value[frame.key] = value
            cast(dict, frame.node.items)[frame.key] = (frame.key_node, node)
            frame.key_node = None

    def set_key(self, frame: _Frame, key: Any, node: Node, raw: str) -> None:
        if not isinstance(key, str):
            cut = self.cut_expression(frame)
            if cut is not None:
                name, expression = cut
                raise YamlError(cut_message(expression), self.text.span(node.start, node.end),
                                hint=cut_hint(name, expression))
            raise key_type_error(key, raw, self.text.span(node.start, node.end))
        items = cast(dict, frame.node.items)      # a mapping's nodes, by key
        if key in items:
            first = self.text.line_col(items[key][0].start)[0]
            raise YamlError(f"duplicate key '{key}' (first defined at line {first})",
                            self.text.span(node.start, node.end))
        frame.key, frame.key_node = key, node

    def cut_expression(self, frame: _Frame) -> tuple[str, str] | None:
        """A flow mapping's last entry whose text opened a bracket that a comma cut: its name and
        the whole expression, read from the source up to the bracket that closes it."""
        items = cast(dict, frame.node.items)      # a mapping's, as its key was cut
        if not items or not isinstance(cast(dict, frame.value).get(frame.key), str):
            return None
        start, depth = items[frame.key][1].start, 0
        for at in range(start, len(self.text.text)):
            char = self.text.text[at]
            depth += (char in "([") - (char in ")]")
            if depth < 0 or char == "\n":
                return None
            if depth == 0 and char in ")]":
                return frame.key, self.text.text[start:at + 1]
        return None

    def check_tag(self, event: yaml.ScalarEvent | yaml.CollectionStartEvent) -> None:
        if event.tag is not None:
            start = cast(yaml.Mark, event.start_mark).index
            tag_index = self.text.text.find("!", start)
            raise YamlError("tags are not allowed", self.text.word(max(tag_index, start)),
                            hint="remove the tag; to write text, put it in quotes instead")

    def add_to_count(self, size: int, node: Node) -> None:
        self.count += size
        if self.count > limits.MAX_YAML_NODES:
            message = ("too many values after expanding aliases (an alias bomb?); the limit is "
                       if self.expanded_alias else "too many values; the limit is ")
            raise LimitError(message + str(limits.MAX_YAML_NODES), self.text.span(node.start, node.end))


__all__ = ["Document", "load_yaml", "load_yaml_file"]
