"""The variant branch of the game schema, derived from the full one.

A game file with ``extends:`` is merged into its base mapping by mapping (``variants``), so in a
variant every mapping reached through mappings may be partial and any of its values may be null
(which removes the base's entry); a list, a text or a number replaces the base's whole, so a list's
items stay complete. The game schema (``game.schema.json``) says so for editors: a file with
``extends`` is checked against ``$defs/variant_game``, derived here from ``$defs/game`` (the
full form, which the engine checks after merging). The derived part is stored in the file, so that
editors read one plain file; ``python -m interpreter.load.schema_variant`` writes it again after
the full form changes, and a test checks it is up to date.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

SCHEMA_PATH = Path(__file__).parent / "schema" / "game.schema.json"
PREFIX = "variant_"
NULL = {"type": "null"}


def with_variants(schema: dict) -> dict:
    """The schema with every ``variant_*`` definition derived again from the full form."""
    out = copy.deepcopy(schema)
    defs = {k: v for k, v in out["$defs"].items() if not k.startswith(PREFIX)}
    derived: dict[str, Any] = {}
    pending = ["game"]
    while pending:
        name = pending.pop()
        if PREFIX + name not in derived:
            derived[PREFIX + name] = _partial(defs[name], defs, pending)
    derived[PREFIX + "game"]["description"] = (
        "A variant: a game file with 'extends', merged into its base; any mapping may be partial and "
        "a null value removes the base's entry.")
    out["$defs"] = {**defs, **dict(sorted(derived.items()))}
    return out


def _partial(node: Any, defs: dict, pending: list[str]) -> Any:
    """A mapping's schema with nothing required, each value also allowed to be null; the
    definitions of mappings it refers to are queued in ``pending`` to be derived too."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "required":
            continue
        if key in ("properties", "patternProperties"):
            out[key] = {name: _nullable(_partial(sub, defs, pending)) for name, sub in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_partial(value, defs, pending))
        elif key in ("anyOf", "oneOf", "allOf"):
            # Without their required keys two branches may both match: any of them will do.
            out["allOf" if key == "allOf" else "anyOf"] = [_partial(sub, defs, pending) for sub in value]
        elif key == "$ref" and _is_mapping(defs.get(value.rsplit("/", 1)[-1], {})):
            name = value.rsplit("/", 1)[-1]
            pending.append(name)
            out[key] = f"#/$defs/{PREFIX}{name}"
        else:
            out[key] = value        # items of lists, types, patterns, descriptions: as they are
    return out


def _nullable(node: Any) -> Any:
    return {"anyOf": [NULL, node]}


def _is_mapping(node: dict) -> bool:
    """Definitions of mappings get a partial form; others (expressions, lists) are used as they are."""
    return node.get("type") == "object" or "properties" in node


def derived_schema(path: Path = SCHEMA_PATH) -> dict:
    return with_variants(json.loads(path.read_text(encoding="utf-8")))


def write_schema(path: Path = SCHEMA_PATH) -> None:
    path.write_text(json.dumps(derived_schema(path), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    write_schema()
