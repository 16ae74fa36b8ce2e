"""jsonschema's validator for our schemas, with a quicker ``oneOf``.

Every effect of a game file is checked against a ``oneOf`` of fourteen kinds of effect. jsonschema
checks an instance against each branch in turn and builds every error of every branch that fails,
to throw them away when one branch holds: in a valid file, most of the structure check's time.
Most branches can be ruled out at a glance instead: a branch that requires a key the mapping does
not have, that lists values (``enum``) the instance is not among, or that is for another type.
When exactly one branch is left and it holds, there is nothing to report. Otherwise jsonschema's
own ``oneOf`` runs, so that a file with a problem gets exactly the errors it always got.
"""
from __future__ import annotations

from typing import Any, Iterator

import jsonschema

_TYPES: dict[Any, type] = {"object": dict, "array": list, "string": str}


def validator_for(schema: dict) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema)
    checks_one_of = cls.VALIDATORS["oneOf"]

    def one_of(validator: jsonschema.protocols.Validator, branches: list, instance: Any,
               here: dict) -> Iterator[jsonschema.ValidationError]:
        left = [branch for branch in branches if not _ruled_out(branch, instance)]
        if len(left) == 1 and validator.evolve(schema=left[0]).is_valid(instance):
            return
        yield from checks_one_of(validator, branches, instance, here)
    return jsonschema.validators.extend(cls, {"oneOf": one_of})(schema)


def _ruled_out(branch: Any, instance: Any) -> bool:
    """Whether ``instance`` fails ``branch`` for a reason seen without descending into it."""
    if not isinstance(branch, dict):
        return False
    wanted = _TYPES.get(branch.get("type"))
    if wanted is not None and not isinstance(instance, wanted):
        return True
    if isinstance(instance, dict) and any(key not in instance for key in branch.get("required", ())):
        return True
    # An enum of texts: a text compares equal to a text only (true is never "yes" here).
    values = branch.get("enum")
    return values is not None and all(isinstance(v, str) for v in values) and not (
        isinstance(instance, str) and instance in values)
