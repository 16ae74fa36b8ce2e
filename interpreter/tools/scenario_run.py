"""Running scenario tests and reporting like a test runner.

A scenario starts a game (with its stacked deck), sets its starting position and fixed rolls,
then plays its steps in order; it stops at the first step that fails. An ``expect`` step checks
every value it names and reports each one that differs, at its own ``file:line:col``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import engine
from ..engine.state import Presets, State
from ..engine.values import Card, Seat, ZoneRef
from ..errors import IllegalMove, Position, PresetError, RulesError, flatten
from .scenarios import (
    MISSING,
    Check,
    GameLoader,
    Scenario,
    Step,
    scenarios_in_file,
    scenarios_in_game,
    seat_to_act,
)

if TYPE_CHECKING:
    from .scenario_model import Start

SHOWN_ITEMS = 8   # items of a list shown in a report before "... and N more"


@dataclass
class Failure:
    pos: Position | None
    what: str
    lines: list[str] = field(default_factory=list)

    def render(self) -> str:
        where = f"{self.pos}: " if self.pos else ""
        return "\n".join([f"  {where}{self.what}"] + [f"    {line}" for line in self.lines])


@dataclass
class Outcome:
    scenario: Scenario
    failures: list[Failure]

    @property
    def passed(self) -> bool:
        return not self.failures

    def render(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.scenario.name}"
        return "\n".join([head] + [f.render() for f in self.failures])


@dataclass
class TestRun:
    """What a run found, source by source: each outcome or file error, in order."""

    results: list[Outcome | RulesError] = field(default_factory=list)

    @property
    def outcomes(self) -> list[Outcome]:
        return [r for r in self.results if isinstance(r, Outcome)]

    @property
    def errors(self) -> list[RulesError]:
        return [r for r in self.results if isinstance(r, RulesError)]

    @property
    def ok(self) -> bool:
        return bool(self.outcomes) and not self.errors and all(o.passed for o in self.outcomes)

    def summary(self) -> str:
        passed = sum(o.passed for o in self.outcomes)
        text = f"{passed} passed, {len(self.outcomes) - passed} failed"
        errors = len(self.errors)
        return text + (f", {errors} error{'s' if errors != 1 else ''}" if errors else "")


def run_scenarios(game_path: str | Path, files: Sequence[str | Path] = (), options: dict[str, str] | None = None,
                  keyword: str | None = None) -> TestRun:
    """Run the scenarios of a game file and of scenario files for it; ``keyword`` keeps only the
    scenarios whose name contains it (ignoring case)."""
    run = TestRun()
    try:
        games = GameLoader(game_path, options)
    except RulesError as error:
        run.results += flatten([error])
        return run
    readers = [lambda: scenarios_in_game(games)] + [(lambda f: lambda: scenarios_in_file(f, games))(f) for f in files]
    for read in readers:
        try:
            scenarios = read()
        except RulesError as error:
            run.results += flatten([error])
            continue
        for scenario in scenarios:
            if keyword is None or keyword.lower() in scenario.name.lower():
                run.results.append(run_scenario(scenario))
    return run


def run_scenario(scenario: Scenario) -> Outcome:
    state, failure = _start(scenario)
    if failure is not None:
        return Outcome(scenario, [failure])
    assert state is not None        # a start without a failure has its state
    for step in scenario.steps:
        failures = _run_step(scenario, state, step)
        if failures:
            return Outcome(scenario, failures)
    return Outcome(scenario, _unused(scenario, state.presets))


def _unused(scenario: Scenario, presets: Presets | None) -> list[Failure]:
    """A fixed roll or choice that no effect used: the scenario did not test what it meant to."""
    failures = []
    unused = len(presets.rolls) if presets else 0
    if unused:
        rolls = "1 fixed roll was" if unused == 1 else f"{unused} fixed rolls were"
        failures.append(Failure(scenario.start.rolls_pos, f"{rolls} never used"))
    for name, left in (presets.choices.items() if presets else ()):
        if left:
            outcomes = ", ".join(show(plain(v)) for v in left)
            what = "fixed outcome" if len(left) == 1 else "fixed outcomes"
            failures.append(Failure(scenario.start.choices_pos[name], f"{what} for {name} never used: {outcomes}"))
    return failures


def _start(scenario: Scenario) -> tuple[State | None, Failure | None]:
    start = scenario.start
    presets = Presets(stacks=dict(start.stack), choices={k: list(v) for k, v in start.choices.items()})
    try:
        state = engine.new_state(scenario.game.game, scenario.players, scenario.seed, presets=presets)
    except RulesError as error:
        if _of_the_game(error):
            return None, _game_failure(error, f"in the scenario at {scenario.pos}")
        return None, _error_failure(error.pos or _preset_pos(start, error) or scenario.pos, error)
    for change in start.changes:
        try:
            change(state)
        except RulesError as error:
            return None, _error_failure(error.pos or scenario.pos, error)
    if start.rolls:
        state.presets = state.presets or Presets()
        state.presets.rolls = [list(r) for r in start.rolls]
    return state, None


def _run_step(scenario: Scenario, state: State, step: Step) -> list[Failure]:
    if step.kind == "expect":
        return [f for f in (_check(c, state) for c in step.checks) if f is not None]
    loaded = scenario.game
    try:
        seat = seat_to_act(loaded, state, step.seat)
        move = loaded.apply(state, step.text, seat)
    except IllegalMove as error:
        if step.kind == "move":
            return [_error_failure(step.pos, error)]
        if step.message is not None and error.message != step.message:
            return [Failure(step.pos, f"'{step.text}' is illegal, with another message",
                            [f"expected: {step.message}", f"actual:   {error.message}"])]
        return []
    except RulesError as error:
        return [_game_failure(error, f"in the step at {step.pos}") if _of_the_game(error) else _error_failure(step.pos, error)]
    if step.kind == "illegal":
        return [Failure(step.pos, f"'{step.text}' was expected to be illegal, but {Seat(move.seat)} played '{move.text}'")]
    return []


def _preset_pos(start: Start, error: RulesError) -> Position | None:
    """Where the scenario fixed the outcome an error is about: its choices, else its stack."""
    if error.message.startswith("choose_random"):
        return start.choices_key_pos or start.stack_pos
    return start.stack_pos or start.choices_key_pos


def _error_failure(pos: Position | None, error: RulesError) -> Failure:
    return Failure(pos, error.message, [f"hint: {error.hint}"] if error.hint else [])


def _of_the_game(error: RulesError) -> bool:
    """An error of the game's rules while it ran (placed in the game file, with where in the game
    it happened), not one of the scenario's own (a fixed roll that does not fit...)."""
    return error.pos is not None and bool(error.context) and not isinstance(error, PresetError)


def _game_failure(error: RulesError, during: str) -> Failure:
    """An error of the game's rules while a scenario ran: at its place in the game file, reported
    as every front end reports it (the line, the caret, where in the game, the hint), then the
    scenario's step (or the scenario, when the game was being set up)."""
    lines = error.render().splitlines()[1:]
    return Failure(error.pos, error.message, lines + [during])


# ---------------------------------------------------------------- comparing

def _check(check: Check, state: State) -> Failure | None:
    try:
        actual = plain(check.actual(state))
    except RulesError as error:
        if _of_the_game(error):
            return _game_failure(error, f"in the check at {check.pos}")
        return _error_failure(check.pos, error)
    expected = plain(check.expected)
    if check.mode == "include":
        missing = [x for x in expected if not any(same(x, a) for a in actual)]
        return Failure(check.pos, check.what, [f"missing: {_items(missing)}", f"actual:  {show(actual)}"]) if missing else None
    if check.mode == "exclude":
        present = [x for x in expected if any(same(x, a) for a in actual)]
        return Failure(check.pos, check.what, [f"present: {_items(present)}"]) if present else None
    if same(expected, actual):
        return None
    return Failure(check.pos, check.what, [f"expected: {show(expected)}", f"actual:   {show(actual)}"]
                   + list_diff(expected, actual))


def plain(value: Any) -> Any:
    """A game value as a scenario writes it: seats P1.., cards by label, ``none`` as None."""
    if isinstance(value, Seat):
        return str(value)
    if isinstance(value, (Card, ZoneRef)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return None if value == "none" else value


def same(expected: Any, actual: Any) -> bool:
    """Equal as a scenario means it: true is not 1; a map compares only the keys written."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and same(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(expected) == len(actual)
                and all(same(e, a) for e, a in zip(expected, actual)))
    return expected == actual and not isinstance(actual, (list, dict))


def list_diff(expected: Any, actual: Any) -> list[str]:
    """What differs between two lists: the items missing and unexpected, or only their order."""
    if not (isinstance(expected, list) and isinstance(actual, list)):
        return []
    wanted, got = Counter(map(show, expected)), Counter(map(show, actual))
    if wanted == got:
        return ["the same items in another order"]
    lines = []
    if wanted - got:
        lines.append(f"missing:    {_items(list((wanted - got).elements()))}")
    if got - wanted:
        lines.append(f"unexpected: {_items(list((got - wanted).elements()))}")
    return lines


def show(value: Any) -> str:
    if value is MISSING:
        return "nothing (no such key)"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return f"[{_items(value)}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


def _items(values: list) -> str:
    shown = ", ".join(show(v) for v in values[:SHOWN_ITEMS])
    more = len(values) - SHOWN_ITEMS
    return shown + (f", ... and {more} more" if more > 0 else "")
