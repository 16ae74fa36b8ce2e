"""The structure check: a game file against the JSON Schema shipped with the package.

jsonschema finds the problems; this module words them in the author's terms and places each at
the right ``file:line:col`` through the error's path into the document.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources, util
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, cast

from ..expr import user_cache
from ..errors import SchemaError, did_you_mean
from .yaml_scalars import cut_hint, cut_message
from .yamlio import Document

if TYPE_CHECKING:
    import jsonschema

SCHEMA_FILE = "game.schema.json"
EFFECT_WORDS = ("end_turn", "end_phase", "end_round", "end_game")
YAML11_BOOLEANS = {"yes", "no", "on", "off", "y", "n"}
NAME_RULE = "names start with a letter and use only letters, digits and _"
NAME_FORMS = {  # the other forms a key may take in these sections
    "define": "; a function is written name(a, b)",
    "set": "; one place of a list or mapping is written name[key]",
    "add": "; one place of a list or mapping is written name[key]",
}
FOR_FORM = "write 'for: name in list', as in 'for: p in players'"
TYPE_WORDS = {
    "string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
    "object": "a mapping (key: value lines)", "array": "a list", "null": "nothing",
}


@lru_cache(maxsize=1)
def game_schema() -> dict:
    """The JSON Schema of a game file (also published for editors)."""
    text = resources.files("interpreter.load.schema").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    # jsonschema takes about a tenth of a second to import: a document that passed before
    # (``_passed_key``) is not checked again, and needs none of it.
    from .schema_validator import validator_for
    return validator_for(game_schema())


def check_structure(doc: Document) -> list[SchemaError]:
    """Every structural problem of the document, in source order."""
    if not isinstance(doc.data, dict):
        return [SchemaError(
            f"a game file is a mapping of sections (name:, players:, flow:, ...), not {describe_value(doc.data)}",
            doc.pos(()),
        )]
    passed = _passed_key(doc)
    if passed is not None and user_cache.load("passed", passed) is True:
        return []
    errors = check_against(doc, _validator())
    if not errors and passed is not None:
        user_cache.store("passed", passed, True)
    return errors


def _passed_key(doc: Document) -> str | None:
    """The key under which the cache folder keeps that ``doc``'s data passed the check: the data
    (its ``repr`` tells 1, 1.0, true and "1" apart; positions play no part) and the code of the
    check, jsonschema's included (found without importing it); None without that code's source."""
    found = util.find_spec("jsonschema")
    if found is None or not found.submodule_search_locations:
        return None
    library = Path(list(found.submodule_search_locations)[0])
    here = Path(__file__).parent
    code = user_cache.code_digest(str(here / "schema_check.py"), str(here / "schema_validator.py"),
                                  str(here / "schema" / SCHEMA_FILE),
                                  *(str(library / name) for name in ("validators.py", "_keywords.py", "_types.py")))
    return None if code is None else user_cache.key(code, repr(doc.data))


def check_against(doc: Document, validator: jsonschema.protocols.Validator) -> list[SchemaError]:
    """The document's problems against any schema of ours, worded and placed for the author."""
    found = list(_leaf_errors(validator.iter_errors(doc.data)))
    # An expression cut at a comma is one error, said at the cut: not also the stray half's value.
    cut = [tuple(e.absolute_path) + (e.instance,) for e in found if e.validator == "pattern"
           and isinstance(e.instance, str) and _cut_expression(doc, tuple(e.absolute_path), e.instance)]
    found = [e for e in found if not any(tuple(e.absolute_path)[:len(c)] == c for c in cut)]
    errors = [_translate(e, doc) for e in found]
    unique = {(e.pos.line if e.pos else 0, e.pos.col if e.pos else 0, e.message): e for e in errors}
    return list(unique.values())


def _leaf_errors(errors: Iterator[jsonschema.ValidationError]) -> Iterator[jsonschema.ValidationError]:
    """Replace a failed ``oneOf`` over effects by the errors of the branch the author meant."""
    for error in errors:
        if error.validator == "oneOf" and error.context:
            yield from _effect_errors(error)
        elif error.validator == "anyOf" and error.context:
            yield from _branch_errors(error)
        else:
            yield error


JSON_TYPES = {"integer": int, "string": str, "boolean": bool, "array": list, "object": dict, "null": type(None)}


def _branch_errors(error: jsonschema.ValidationError) -> Iterator[jsonschema.ValidationError]:
    """A failed ``anyOf`` (a number, or an expression of the options): the errors of the one
    branch of the value's own kind (``expected at least 1, got 0``), else the failure itself."""
    kinds = [_branch_type(branch) for branch in cast(list, error.validator_value)]     # the anyOf's branches
    value = error.instance
    fits = [i for i, kind in enumerate(kinds)
            if kind is not None and isinstance(value, kind) and not (isinstance(value, bool) and kind is int)]
    if len(fits) == 1:
        found = [e for e in error.context if e.relative_schema_path[0] == fits[0]]
        if found:
            yield from found
            return
    yield error


def _branch_type(branch: dict) -> type | None:
    if "$ref" in branch:
        branch = game_schema()["$defs"].get(branch["$ref"].rsplit("/", 1)[-1], {})
    kind = branch.get("type")
    return JSON_TYPES.get(kind) if isinstance(kind, str) else None


def _effect_errors(error: jsonschema.ValidationError) -> Iterator[jsonschema.ValidationError]:
    instance = error.instance
    branches = cast(list, error.validator_value)     # the oneOf's branches
    if isinstance(instance, dict):
        for index, branch in enumerate(branches):
            required = branch.get("required", [])
            if required and required[0] in instance:     # the branch's own errors, nested effects' too
                yield from _leaf_errors(e for e in error.context if e.relative_schema_path[0] == index)
                return
    yield error


def _translate(error: jsonschema.ValidationError, doc: Document) -> SchemaError:
    path = tuple(error.absolute_path)
    handler = _HANDLERS.get(cast(str, error.validator), _generic)     # set on every error of a validation
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
    if _is_effect_path(path) and key in _effect_names():
        return SchemaError(f"'{key}' starts another effect {_where(path)}", doc.key_pos(path + (key,)),
                           hint=f"each effect is its own list item: start it on a new line as '- {key}: ...'")
    hint = did_you_mean(key, allowed) or ("allowed here: " + ", ".join(allowed) if allowed else None)
    return SchemaError(f"unknown key '{key}' {_where(path)}", doc.key_pos(path + (key,)), hint=hint)


def _type(error, path, doc) -> SchemaError:
    expected = cast("str | list[str]", error.validator_value)      # a type's name, or a list of them
    expected = expected if isinstance(expected, list) else [expected]
    words = " or ".join(TYPE_WORDS.get(t, t) for t in expected)
    hint = None
    value = error.instance
    if "boolean" in expected and isinstance(value, str) and value.lower() in YAML11_BOOLEANS:
        hint = f"'{value}' is text here; write true or false"
    elif path and path[-1] == "illegal" and not isinstance(value, str):
        hint = "'illegal:' takes the move the engine must refuse: write {illegal: MOVE}"
    elif "string" in expected and isinstance(value, bool):
        hint = "quote it if you meant text"
    if error.schema == game_schema()["$defs"]["expression"] and isinstance(value, (list, dict)):
        return SchemaError(f"expected an expression, got {describe_value(value)} {_where(path)}", doc.pos(path),
                           hint=_quote_hint(value))
    return SchemaError(f"expected {words}, got {describe_value(value)} {_where(path)}", doc.pos(path), hint=hint)


def _quote_hint(value: Any) -> str:
    """A list or map of YAML where an expression is expected: the same written as one expression."""
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value):
        text = "[" + ", ".join(str(v) for v in value) + "]"
        quote = '"' if "'" in text else "'"
        return f"a list in an expression is written inside it: quote the whole of it, as {quote}{text}{quote}"
    return "an expression is one text: quote the whole of it"


def _enum(error, path, doc) -> SchemaError:
    choices = [str(c) for c in error.validator_value]
    value = error.instance
    if _is_effect_path(path) and not isinstance(value, dict):
        return _unknown_effect(str(value), path, doc)
    hint = did_you_mean(str(value), choices) if isinstance(value, str) else None
    return SchemaError(f"{_show(value)} {_where(path)} is not one of: {', '.join(choices)}",
                       doc.pos(path), hint=hint)


def _one_of(error, path, doc) -> SchemaError:
    value = error.instance
    if not _is_effect_path(path) and "description" in error.schema:
        return SchemaError(f"{_show(value)} {_where(path)} is not {error.schema['description']}", doc.pos(path))
    hint = "effects are: " + ", ".join(_effect_names())
    if isinstance(value, dict) and value:
        key = next((k for k in value if k not in _effect_keys()), next(iter(value)))
        return _unknown_effect(str(key), path, doc, key_path=path + (key,))
    if isinstance(value, str):
        return _unknown_effect(value, path, doc)
    if isinstance(value, dict):
        return SchemaError(f"an effect cannot be empty {_where(path)}", doc.pos(path), hint=hint)
    return SchemaError(f"expected an effect, got {describe_value(value)} {_where(path)}", doc.pos(path), hint=hint)


BRANCH_WORDS = {"integer": "a whole number", "string": "text", "null": "nothing", "boolean": "true or false",
                "option_expression": "an expression of the options", "expression": "an expression"}


def _any_of(error, path, doc) -> SchemaError:
    """None of the kinds a value may be: each kind said in words."""
    kinds = []
    for branch in error.validator_value:
        name = branch["$ref"].rsplit("/", 1)[-1] if "$ref" in branch else branch.get("type")
        kinds.append(BRANCH_WORDS.get(name, str(name)))
    return SchemaError(f"expected {' or '.join(kinds)}, got {describe_value(error.instance)} {_where(path)}",
                       doc.pos(path))


def _unknown_effect(name: str, path, doc, key_path=None) -> SchemaError:
    names = _effect_names()
    hint = did_you_mean(name, names) or "effects are: " + ", ".join(names)
    pos = doc.key_pos(key_path) if key_path else doc.pos(path)
    return SchemaError(f"unknown effect '{name}'", pos, hint=hint)


def _effect_keys() -> set[str]:
    """Every key an effect mapping may have (``to``, ``face``... as well as the effects' own)."""
    return {k for b in game_schema()["$defs"]["effect"]["oneOf"] for k in b.get("properties", {})}


def _effect_names() -> list[str]:
    branches = game_schema()["$defs"]["effect"]["oneOf"]
    names = list(EFFECT_WORDS)
    names += [b["required"][0] for b in branches if "required" in b]
    return names


def _bound(error, path, doc) -> SchemaError:
    kind, limit = error.validator, error.validator_value
    allowed = list(error.schema.get("properties", {}))
    one_of = error.schema.get("x-exactly-one") or (allowed if error.schema.get("maxProperties") == 1 else None)
    if kind in ("minProperties", "maxProperties") and one_of:
        choices = " or ".join(f"'{k}'" for k in one_of)
        return SchemaError(f"expected exactly one of {choices} {_where(path)}", doc.pos(path))
    word = "at least" if kind.startswith("min") else "at most"
    unit = {"Items": "item", "Length": "character", "Properties": "entry"}.get(kind[3:])
    if unit is None:  # a number's minimum or maximum
        return SchemaError(f"expected {word} {limit}, got {error.instance} {_where(path)}", doc.pos(path))
    amount = ("one" if limit == 1 else limit) if word == "at least" else limit
    units = unit if limit == 1 else ("entries" if unit == "entry" else unit + "s")
    return SchemaError(f"expected {word} {amount} {units} {_where(path)}", doc.pos(path))


def _pattern(error, path, doc) -> SchemaError:
    value = error.instance
    if isinstance(value, str) and value in _keys_at(doc, path):
        cut = _cut_expression(doc, path, value)
        if cut is not None:
            return SchemaError(cut_message(cut[1], _where(path + (cut[0],))), doc.key_pos(path + (value,)),
                               hint=cut_hint(*cut))
        hint: str | None = NAME_RULE + NAME_FORMS.get(path[-1] if path else "", "")
        return SchemaError(f"'{value}' is not a valid name {_where(path)}", doc.key_pos(path + (value,)), hint=hint)
    if error.validator_value == game_schema()["$defs"]["identifier"]["pattern"]:
        return SchemaError(f"{_show(value)} is not a valid name {_where(path)}", doc.pos(path), hint=NAME_RULE)
    hint = FOR_FORM if path and path[-1] == "for" else None
    return SchemaError(f"{_show(value)} is not valid here {_where(path)}", doc.pos(path), hint=hint)


def _generic(error, path, doc) -> SchemaError:
    return SchemaError(f"{error.message} {_where(path)}".rstrip(), doc.pos(path))


def _cut_expression(doc: Document, path: tuple, key: str) -> tuple[str, str] | None:
    """When YAML cut an expression at a comma in a flow mapping (``{add: {points: max(a, b)}}``
    reads as ``points: max(a`` and a key ``b)``): the entry's name and the whole expression."""
    node = _node_at(doc, path)
    keys = list(node) if isinstance(node, dict) else []
    at = keys.index(key) if key in keys else 0
    if at == 0 or node[key] is not None:
        return None
    before, text = keys[at - 1], node[keys[at - 1]]
    if not isinstance(text, str) or _open_brackets(text) <= 0 or _open_brackets(text + key) != 0:
        return None
    return before, f"{text}, {key}"


def _open_brackets(text: str) -> int:
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")


def _node_at(doc: Document, path: tuple) -> Any:
    node: Any = doc.data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _keys_at(doc: Document, path: tuple) -> list:
    node = _node_at(doc, path)
    return list(node) if isinstance(node, dict) else []


_HANDLERS = {
    "required": _required, "additionalProperties": _additional, "type": _type, "enum": _enum,
    "oneOf": _one_of, "anyOf": _any_of, "minimum": _bound, "maximum": _bound, "minItems": _bound, "maxItems": _bound,
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
        text += f"[{part}]" if isinstance(part, int) else ("." if text else "") + str(part)   # from 0, as expressions count
    return f"in {text}"


def describe_value(value: Any) -> str:
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
    return f"'{value}'" if isinstance(value, str) else describe_value(value)
