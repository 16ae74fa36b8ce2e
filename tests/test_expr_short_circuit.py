"""``any`` and ``all`` over a comprehension stop at the first item that decides them."""
import pytest

from interpreter.errors import EvalError, LimitError
from interpreter.expr import ANY, INT, Binding, ListOf, Scope, compile_expression
from interpreter.limits import MAX_EVAL_STEPS

SCOPE = Scope(names={"dice": Binding(ListOf(INT), lambda ctx: ctx["dice"])})


def run(text, dice):
    return compile_expression(text, SCOPE)({"dice": dice})


@pytest.mark.parametrize("text, dice, value", [
    ("any(d == 6 for d in dice)", [1, 6, 3], True),
    ("any(d == 6 for d in dice)", [1, 2, 3], False),
    ("any(d == 6 for d in dice)", [], False),
    ("all(d > 2 for d in dice)", [3, 4], True),
    ("all(d > 2 for d in dice)", [3, 1, 4], False),
    ("all(d > 2 for d in dice)", [], True),
    ("any(d > 4 for d in dice if d % 2 == 0)", [5, 3, 6], True),     # 5 is filtered out
    ("all(d < 4 for d in dice if d % 2 == 1)", [1, 6, 3, 8], True),
    ("any([d == 6 for d in dice])", [6, 1], True),                    # the bracketed form too
])
def test_values(text, dice, value):
    assert run(text, dice) is value


def test_items_after_the_deciding_one_are_not_worked_out():
    # 6 / 0 would fail: any stops at the first true item, all at the first false one.
    assert run("any(6 / d > 2 for d in dice)", [1, 0]) is True
    assert run("all(6 / d > 2 for d in dice)", [6, 0]) is False


def test_an_item_before_the_deciding_one_still_fails():
    with pytest.raises(EvalError) as caught:
        run("any(6 / d > 2 for d in dice)", [0, 1])
    assert caught.value.message == "division by zero"
    assert (caught.value.pos.line, caught.value.pos.col) == (1, 5)


def test_a_non_bool_item_is_refused_where_it_is_met():
    with pytest.raises(EvalError) as caught:
        compile_expression("all(x for x in xs)", SCOPE.child(names={
            "xs": Binding(ListOf(ANY), lambda ctx: [1])}))({})
    assert caught.value.message == "each item of all() must be a bool, got int"


def test_the_loop_spends_the_work_budget():
    # The host's list is not limited in size; each item the loop visits costs a step.
    with pytest.raises(LimitError) as caught:
        run("all(d >= 0 for d in dice)", [1] * (MAX_EVAL_STEPS + 1))
    assert caught.value.message.startswith("expression takes too many steps")
