"""The grammar builds without conflicts, and the expression package stays safe by construction."""
import importlib.util
import logging
import re
from importlib import resources
from pathlib import Path

import pytest
from lark import Lark
from lark import logger as lark_logger

GRAMMAR = (resources.files("grammar") / "expr.lark").read_text(encoding="utf-8")
PACKAGE = Path(__file__).resolve().parents[1] / "interpreter" / "expr"


@pytest.mark.skipif(importlib.util.find_spec("interegular") is None,
                    reason="lark's strict mode needs the 'interegular' package, which is not a dependency")
def test_grammar_builds_in_strict_mode():
    Lark(GRAMMAR, parser="lalr", strict=True)


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def test_grammar_has_no_lalr_conflicts():
    """What strict mode checks of the parser, without interegular: lark reports every
    shift/reduce conflict it resolves when debug is on (reduce/reduce ones always fail)."""
    collect = _Collect()
    lark_logger.addHandler(collect)
    level = lark_logger.level
    lark_logger.setLevel(logging.DEBUG)
    try:
        Lark(GRAMMAR, parser="lalr", debug=True)
    finally:
        lark_logger.removeHandler(collect)
        lark_logger.setLevel(level)
    assert [m for m in collect.messages if "conflict" in m.lower()] == []


def test_expression_package_has_no_dynamic_code_or_attribute_lookup():
    forbidden = re.compile(r"(?<![\w.])(eval|exec|getattr|compile)\(|__import__")
    assert forbidden.search("x = getattr(obj, name)") and not forbidden.search("compile_expression(text)")
    for path in sorted(PACKAGE.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not forbidden.search(line), f"{path.name}:{number}: {line.strip()}"
