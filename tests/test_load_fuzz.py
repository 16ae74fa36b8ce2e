"""Property tests of the whole loading pipeline: any text either loads or raises a RulesError.

Two sources of input: random YAML documents built from a game file's own vocabulary (so they get
past the YAML level and into the structure and semantic checks), and small mutations of a real
game file (so they reach the expression checks and the compiler).
"""
from __future__ import annotations

import signal
from contextlib import contextmanager

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.api import load_game
from interpreter.errors import RulesError
from tests.helpers import GAMES

DICE_POKER = (GAMES / "dice_poker.yaml").read_text(encoding="utf-8")
SECONDS_PER_EXAMPLE = 5

# Keys and words of the game format, so random documents look like (broken) games.
KEYS = ["name", "players", "min", "max", "default", "flow", "phases", "moves", "when", "do", "set", "add",
        "variables", "game", "seat", "team", "define", "options", "type", "choices", "zones", "per", "decks",
        "standard", "cards", "dice", "count", "faces", "turns", "from", "order", "each", "until", "rounds",
        "roll", "move", "to", "deal", "if", "then", "else", "for", "log", "params", "subset_of", "scoring",
        "score", "result", "bot", "hint", "triggers", "setup", "f(x)", "x", "2x", ""]
WORDS = ["end_turn", "end_game", "clockwise", "once", "seat", "bool", "int", "choice", "none", "throws",
         "dice", "x + 1", "x <", "len(dice)", "f(1)", "[v for v in 1..6]", "me.index", "true", "{x}", "x in y",
         "if x then 1 else 2", "(((", "sum(dice) / 0"]

scalars = st.one_of(
    st.sampled_from(WORDS), st.sampled_from(KEYS), st.integers(-5, 70), st.booleans(), st.none(),
    st.floats(allow_nan=False, allow_infinity=False, width=32), st.text(max_size=8),
)
documents = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.sampled_from(KEYS), children, max_size=5)),
    max_leaves=30,
)
game_like = st.fixed_dictionaries(
    {"name": st.one_of(st.just("G"), scalars), "players": documents, "flow": documents},
    optional={key: documents for key in ("moves", "variables", "define", "options", "zones", "setup", "scoring")},
)


@contextmanager
def time_limit(seconds: int):
    """Fail an example that takes too long instead of hanging the run (POSIX alarm; no limit elsewhere)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def expired(signum, frame):
        raise TimeoutError(f"one example took more than {seconds} s")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def loads_or_rules_error(text: str) -> None:
    with time_limit(SECONDS_PER_EXAMPLE):
        try:
            load_game("fuzz.yaml", text=text)
        except RulesError as error:
            assert error.render()  # rendering must not fail either


FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.one_of(documents, game_like))
def test_random_documents_load_or_raise_a_rules_error(data):
    loads_or_rules_error(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))


# -- mutations of a real game file -------------------------------------------------------------

LINES = DICE_POKER.splitlines(keepends=True)


@st.composite
def mutated_game(draw) -> str:
    kind = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "truncate"]))
    text = DICE_POKER
    if kind == "delete":
        i = draw(st.integers(0, len(LINES) - 1))
        return "".join(LINES[:i] + LINES[i + 1:])
    if kind == "duplicate":
        i = draw(st.integers(0, len(LINES) - 1))
        return "".join(LINES[:i + 1] + LINES[i:])
    if kind == "truncate":
        return text[:draw(st.integers(0, len(text)))]
    i = draw(st.integers(0, len(text) - 2))
    if kind == "swap":
        return text[:i] + text[i + 1] + text[i] + text[i + 2:]
    char = draw(st.one_of(st.sampled_from(list(" \t\n:-[]{}()'\"#&*!|>%@`,.+<=0_aZ")), st.characters()))
    return text[:i] + char + text[i:]


def test_the_unmutated_game_loads():
    assert load_game("dice_poker.yaml", text=DICE_POKER).name == "Dice poker"


@FUZZ
@given(mutated_game())
def test_mutated_game_files_load_or_raise_a_rules_error(text):
    loads_or_rules_error(text)


@pytest.mark.parametrize("text", [
    "",                                   # empty
    "\ufeff",                             # a byte order mark alone
    "[" * 200,                            # deep nesting
    "name: G\nplayers: {min: 2, max: 4}\nflow: {phases: [{name: p, moves: [m]}]}\n"
    "moves: {m: {do: [], when: '" + "(" * 500 + "'}}\n",   # a deeply nested expression
    "name: G\nplayers: {min: 2, max: 4}\nflow: {phases: [{name: p, moves: [m]}]}\n"
    "moves: {m: {do: [], when: '" + "not " * 500 + "true'}}\n",
])
def test_awkward_texts_load_or_raise_a_rules_error(text):
    loads_or_rules_error(text)


# -- random expressions in a real game ---------------------------------------------------------

TOKENS = ["throws", "dice", "row", "value", "me", "players", "round", "sheet", "open_rows", "base", "len", "sum",
          "count", "sorted", "(", ")", "[", "]", "{", "}", ":", ",", ".", "..", "=>", "1", "0", "-1", "none", "true",
          '"a"', "and", "or", "not", "if", "then", "else", "for", "in", "+", "*", "/", "%", "==", "<"]
SCORE_WHEN = "    when: 'throws >= 1 and base(row, value) != none and (row != \"chance\" or chance_allowed)'\n"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12), st.sampled_from(["when", "define"]))
def test_random_expressions_in_a_real_game_load_or_raise_a_rules_error(tokens, place):
    expression = " ".join(tokens).replace("'", "''")
    if place == "when":
        text = DICE_POKER.replace(SCORE_WHEN, f"    when: '{expression}'\n")
    else:
        text = DICE_POKER.replace("define:\n", f"define:\n  extra: '{expression}'\n  extra_f(a): '{expression}'\n", 1)
    loads_or_rules_error(text)


def test_the_expression_fuzz_changes_the_game():
    assert SCORE_WHEN in DICE_POKER and "\ndefine:\n" in DICE_POKER
