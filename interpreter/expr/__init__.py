"""The expression language: parse, check and compile expressions to closures.

``compile_expression(text, scope)`` is the entry point; ``Scope`` says what names exist,
``BUILTINS`` holds the built-in functions, and ``types`` the static types.
"""
from .builtins import BUILTINS
from .compile import Compiled, check_uses, compile_defined, compile_expression, compile_functions
from .functions import CompiledFunction
from .nodes import Node
from .parse import parse_expression, text_locator
from .registry import Builtin, Param, Registry
from .scope import Binding, Locator, Scope, UserFunction
from .types import (
                    ANY,
                    BOOL,
                    FUNC,
                    INT,
                    NONE,
                    NUMBER,
                    STR,
                    ListOf,
                    MapOf,
                    Member,
                    ObjectType,
                    OneOf,
                    Type,
                    register_object_type,
)

__all__ = [
    "ANY", "BOOL", "BUILTINS", "Binding", "Builtin", "Compiled", "CompiledFunction", "FUNC", "INT", "ListOf",
    "Locator", "MapOf", "Member", "NONE", "NUMBER", "Node", "ObjectType", "OneOf", "Param", "Registry", "STR",
    "Scope", "Type", "UserFunction", "check_uses", "compile_defined", "compile_expression", "compile_functions",
    "parse_expression", "register_object_type", "text_locator",
]
