"""A scenario run in the forms CI reads: JSON (``rules test --format json``) and JUnit XML
(``rules test --junit-xml FILE``), one test case per scenario, one error per file that could
not be read."""
from __future__ import annotations

import textwrap
from typing import Any
from xml.etree import ElementTree

from ..errors import Position, RulesError
from .scenario_run import Failure, Outcome, TestRun


def run_json(run: TestRun, game: str) -> dict:
    """The whole run: its counts and each scenario's outcome or each file's error, in order."""
    passed = sum(o.passed for o in run.outcomes)
    return {"game": game, "ok": run.ok, "passed": passed, "failed": len(run.outcomes) - passed,
            "errors": len(run.errors), "results": [_result_json(r) for r in run.results]}


def _result_json(result: Outcome | RulesError) -> dict:
    if isinstance(result, RulesError):
        return {"status": "error", "error": result.to_dict()}
    return {"name": result.scenario.name, **_place(result.scenario.pos),
            "status": "pass" if result.passed else "fail",
            "failures": [_failure_json(f) for f in result.failures]}


def _failure_json(failure: Failure) -> dict:
    return {**_place(failure.pos), "message": failure.what, "details": list(failure.lines)}


def _place(pos: Position | None) -> dict[str, Any]:
    return {"file": pos.file, "line": pos.line, "col": pos.col} if pos is not None else {}


def junit_xml(run: TestRun, game: str) -> str:
    """A JUnit XML report: a test suite named after the game file, a case per scenario."""
    cases = []
    for result in run.results:
        if isinstance(result, RulesError):
            case = ElementTree.Element("testcase", name=result.pos.file if result.pos else game,
                                       classname=game)
            ElementTree.SubElement(case, "error", message=result.message).text = result.render()
        else:
            pos = result.scenario.pos
            case = ElementTree.Element("testcase", name=result.scenario.name, classname=pos.file,
                                       file=pos.file, line=str(pos.line))
            if not result.passed:
                first = result.failures[0]
                element = ElementTree.SubElement(case, "failure", message=first.what)
                element.text = "\n".join(textwrap.dedent(f.render()) for f in result.failures)
        cases.append(case)
    failed = sum(not o.passed for o in run.outcomes)
    suite = ElementTree.Element("testsuite", name=game, tests=str(len(cases)), failures=str(failed),
                                errors=str(len(run.errors)), skipped="0")
    suite.extend(cases)
    root = ElementTree.Element("testsuites")
    root.append(suite)
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"
