"""The structure check: a game file against the JSON Schema shipped with the package.

jsonschema finds the problems; this module words them in the author's terms and places each at
the right ``file:line:col`` through the error's path into the document.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

import jsonschema

from .errors import SchemaError, did_you_mean
from .yamlio import Document

SCHEMA_FILE = "game.schema.json"
EFFECT_WORDS = ("end_turn", "end_phase", "end_round", "end_game")
YAML11_BOOLEANS = {"yes", "no", "on", "off", "y", "n"}
TYPE_WORDS = {
    "string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
    "object": "a mapping (key: value lines)", "array": "a list", "null": "nothing",
}


@lru_cache(maxsize=1)
def game_schema() -> dict:
    """The JSON Schema of a game file (also published for editors)."""
    text = resources.files("interpreter.schema").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    schema = game_schema()
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def check_structure(doc: Document) -> list[SchemaError]:
    """Every structural problem of the document, in source order."""
    if not isinstance(doc.data, dict):
        return [SchemaError(
            f"a game file is a mapping of sections (name:, players:, flow:, ...), not {_describe(doc.data)}",
            doc.pos(()),
        )]
    errors = [_translate(e, doc) for e in _leaf_errors(_validator().iter_errors(doc.data))]
    unique = {(e.pos.line if e.pos else 0, e.pos.col if e.pos else 0, e.message): e for e in errors}
    return list(unique.values())


def _leaf_errors(errors: Iterator[jsonschema.ValidationError]) -> Iterator[jsonschema.ValidationError]:
    """Replace a failed ``oneOf`` over effects by the errors of the branch the author meant."""
    for error in errors:
        if error.validator == "oneOf" and error.context:
            yield from _effect_errors(error)
        else:
            yield error


def _effect_errors(error: jsonschema.ValidationError) -> Iterator[jsonschema.ValidationError]:
    instance = error.instance
    branches = error.validator_value
    if isinstance(instance, dict):
        for index, branch in enumerate(branches):
            required = branch.get("required", [])
            if required and required[0] in instance:
                yield from (e for e in error.context if e.relative_schema_path[0] == index)
                return
    yield error


def _translate(error: jsonschema.ValidationError, doc: Document) -> SchemaError:
    path = tuple(error.absolute_path)
    handler = _HANDLERS.get(error.validator, _generic)
    return handler(error, path, doc)


def _required(error, path, doc) -> SchemaError:
    missing = [k for k in error.validator_value if k not in error.instance]
    name = missing[0] if missing else "?"
    return SchemaError(f"missing '{name}' {_where(path)}", doc.key_pos(path) if path else doc.pos(path),
                       hint=f"add a '{name}:' entry")


def _additional(error, path, doc) -> SchemaError:
    allowed = list(error.schema.get("properties", {}))
    extra = [k for k in error.instance if k not in allowed]
    key = extra[0] if extra else "?"
    hint = did_you_mean(key, allowed) or ("allowed here: " + ", ".join(allowed) if allowed else None)
    return SchemaError(f"unknown key '{key}' {_where(path)}", doc.key_pos(path + (key,)), hint=hint)


def _type(error, path, doc) -> SchemaError:
    expected = error.validator_value
    expected = expected if isinstance(expected, list) else [expected]
    words = " or ".join(TYPE_WORDS.get(t, t) for t in expected)
    hint = None
    value = error.instance
    if "boolean" in expected and isinstance(value, str) and value.lower() in YAML11_BOOLEANS:
        hint = f"'{value}' is text here; write true or false"
    elif "string" in expected and isinstance(value, bool):
        hint = "quote it if you meant text"
    return SchemaError(f"expected {words}, got {_describe(value)} {_where(path)}", doc.pos(path), hint=hint)


def _enum(error, path, doc) -> SchemaError:
    choices = [str(c) for c in error.validator_value]
    value = error.instance
    if _is_effect_path(path) and not isinstance(value, dict):
        return _unknown_effect(str(value), path, doc)
    hint = did_you_mean(str(value), choices) if isinstance(value, str) else None
    return SchemaError(f"{_show(value)} is not one of: {', '.join(choices)} {_where(path)}".rstrip(),
                       doc.pos(path), hint=hint)


def _one_of(error, path, doc) -> SchemaError:
    value = error.instance
    if isinstance(value, dict):
        key = next(iter(value), "?")
        return _unknown_effect(str(key), path, doc, key_path=path + (key,))
    return _unknown_effect(str(value) if isinstance(value, str) else _describe(value), path, doc)


def _unknown_effect(name: str, path, doc, key_path=None) -> SchemaError:
    names = _effect_names()
    hint = did_you_mean(name, names) or "effects are: " + ", ".join(names)
    pos = doc.key_pos(key_path) if key_path else doc.pos(path)
    return SchemaError(f"unknown effect '{name}'", pos, hint=hint)


def _effect_names() -> list[str]:
    branches = game_schema()["$defs"]["effect"]["oneOf"]
    names = list(EFFECT_WORDS)
    names += [b["required"][0] for b in branches if "required" in b]
    return names


def _bound(error, path, doc) -> SchemaError:
    words = {"minimum": "at least", "maximum": "at most", "minItems": "at least", "maxItems": "at most",
             "minLength": "at least", "minProperties": "at least", "maxProperties": "at most"}
    unit = {"minItems": " items", "maxItems": " items", "minLength": " characters",
            "minProperties": " entries", "maxProperties": " entry"}.get(error.validator, "")
    return SchemaError(f"must be {words[error.validator]} {error.validator_value}{unit} {_where(path)}".rstrip(),
                       doc.pos(path))


def _pattern(error, path, doc) -> SchemaError:
    if isinstance(error.instance, str) and error.instance in _keys_at(doc, path):
        return SchemaError(f"'{error.instance}' is not a valid name {_where(path)}".rstrip(),
                           doc.key_pos(path + (error.instance,)),
                           hint="names start with a letter and use only letters, digits and _")
    return SchemaError(f"{_show(error.instance)} is not valid here {_where(path)}".rstrip(), doc.pos(path))


def _generic(error, path, doc) -> SchemaError:
    return SchemaError(f"{error.message} {_where(path)}".rstrip(), doc.pos(path))


def _keys_at(doc: Document, path: tuple) -> list:
    node: Any = doc.data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return []
    return list(node) if isinstance(node, dict) else []


_HANDLERS = {
    "required": _required, "additionalProperties": _additional, "type": _type, "enum": _enum,
    "oneOf": _one_of, "minimum": _bound, "maximum": _bound, "minItems": _bound, "maxItems": _bound,
    "minLength": _bound, "minProperties": _bound, "maxProperties": _bound, "pattern": _pattern,
}


def _is_effect_path(path: tuple) -> bool:
    return len(path) >= 2 and isinstance(path[-1], int) and path[-2] in (
        "do", "then", "else", "setup", "round_start", "round_end", "start", "end", "turn_start", "turn_end")


def _where(path: tuple) -> str:
    """Name the place in the author's terms: 'in moves.throw.when'."""
    if not path:
        return "at the top level"
    text = ""
    for part in path:
        text += f"[{part + 1}]" if isinstance(part, int) else ("." if text else "") + str(part)
    return f"in {text}"


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value}'" if len(value) < 40 else "a text"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


def _show(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else _describe(value)
