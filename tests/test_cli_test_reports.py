"""`rules test --format json` and `--junit-xml FILE`: the scenario run in the forms CI reads."""
from __future__ import annotations

import json
import textwrap
from xml.etree import ElementTree

from click.testing import CliRunner

from cli import main
from tests.helpers import GAMES

DICE = str(GAMES / "dice_poker.yaml")
SCENARIOS = """
    scenarios:
      - name: first throw
        steps: [{expect: {legal: {equal: [throw]}, vars: {throws: 0}}}]
      - name: wrong order
        start: {rolls: [[1, 2, 3, 4, 5]]}
        steps: [throw, {expect: {dice: [5, 4, 3, 2, 1]}}]
"""


def scenarios(tmp_path, text=SCENARIOS, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return str(path)


def test_json_lists_each_scenario_with_its_place_and_failures(tmp_path):
    path = scenarios(tmp_path)
    result = CliRunner().invoke(main, ["test", DICE, path, "--format", "json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "game": DICE, "ok": False, "passed": 1, "failed": 1, "errors": 0,
        "results": [
            {"name": "first throw", "file": path, "line": 2, "col": 11, "status": "pass", "failures": []},
            {"name": "wrong order", "file": path, "line": 4, "col": 11, "status": "fail", "failures": [
                {"file": path, "line": 6, "col": 36, "message": "dice",
                 "details": ["expected: [5, 4, 3, 2, 1]", "actual:   [1, 2, 3, 4, 5]",
                             "the same items in another order"]}]}]}
    assert CliRunner().invoke(main, ["test", DICE, path, "--json"]).stdout == result.stdout


def test_json_reports_a_file_that_cannot_be_read_as_an_error(tmp_path):
    result = CliRunner().invoke(main, ["test", DICE, str(tmp_path / "none.yaml"), "--format", "json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["ok"], data["errors"], len(data["results"])) == (False, 1, 1)
    assert data["results"][0] == {"status": "error", "error": {
        "kind": "error", "message": f"cannot read {tmp_path}/none.yaml: No such file or directory",
        "stage": "YamlError"}}


def test_junit_xml_has_a_case_per_scenario_and_the_failure_text(tmp_path):
    path = scenarios(tmp_path)
    report = tmp_path / "report.xml"
    result = CliRunner().invoke(main, ["test", DICE, path, "--junit-xml", str(report)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "1 passed, 1 failed"      # the text report as before
    suite = ElementTree.parse(report).getroot().find("testsuite")
    assert suite.attrib == {"name": DICE, "tests": "2", "failures": "1", "errors": "0", "skipped": "0"}
    first, second = suite.findall("testcase")
    assert first.attrib == {"name": "first throw", "classname": path, "file": path, "line": "2"}
    assert list(first) == []
    failure = second.find("failure")
    assert failure.attrib == {"message": "dice"}
    assert failure.text == (f"{path}:6:36: dice\n  expected: [5, 4, 3, 2, 1]\n  actual:   [1, 2, 3, 4, 5]\n"
                            "  the same items in another order")


def test_junit_xml_to_a_folder_that_does_not_exist_is_an_error(tmp_path):
    path = scenarios(tmp_path)
    result = CliRunner().invoke(main, ["test", DICE, path, "--junit-xml", str(tmp_path / "no" / "r.xml")])
    assert result.exit_code == 1
    assert result.stderr == f"error: cannot write {tmp_path}/no/r.xml: No such file or directory\n"
