"""A defined function called with host objects (cards, seats) runs a body compiled for their type:
its member reads go straight to the member. Its meaning and its errors stay those of the body
compiled for values of any type."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from interpreter.errors import EvalError, ExprCheckError
from interpreter.expr import (
    INT,
    STR,
    Binding,
    ListOf,
    Member,
    ObjectType,
    Scope,
    UserFunction,
    compile_expression,
)
from interpreter.expr.compile import item_type
from interpreter.expr.types import register_object_type
from tests.helpers import reads_by_type


@dataclass(frozen=True)
class Tile:
    face: int
    colour: str


TILE = ObjectType("tile", {"face": Member(INT, lambda t: t.face, "the number on it"),
                           "colour": Member(STR, lambda t: t.colour, "its colour")})
register_object_type(Tile, TILE)

TILES = [Tile(3, "red"), Tile(5, "blue")]
SCOPE = Scope(names={"tiles": Binding(ListOf(TILE), lambda ctx: TILES),
                     "loose": Binding(ListOf(TILE), lambda ctx: [None])}).child(functions={
    "high": UserFunction("high", ["t"], "t.face > 4"),
    "shade": UserFunction("shade", ["t"], 'if high(t) then t.colour else "plain"'),
    "odd": UserFunction("odd", ["t"], "t.weight"),
    "same": UserFunction("same", ["t"], "t"),
    "doubled": UserFunction("doubled", ["ts"], "ts + ts"),
    "faces": UserFunction("faces", ["ts"], "[t.face for t in ts]"),
})


def run(text):
    return compile_expression(text, SCOPE)(None, {})


def test_a_call_with_a_typed_argument_gives_the_general_body_s_result():
    assert run("[shade(t) for t in tiles]") == ["plain", "blue"]


def test_its_member_reads_skip_the_look_up_by_type(monkeypatch):
    read_by_type = reads_by_type(monkeypatch)
    fresh = SCOPE.child(functions={"low": UserFunction("low", ["t"], "t.face < 4")})
    assert compile_expression("[low(t) for t in tiles]", fresh)(None, {}) == [True, False]
    assert compile_expression("low(if true then tiles[0] else 0)", fresh)(None, {}) is True
    # Only the call whose argument's type is not known ran the general body, reading by type.
    assert read_by_type == ["face"]


def test_a_body_that_fails_the_stricter_check_keeps_the_general_one_and_its_error():
    with pytest.raises(EvalError) as caught:
        run("odd(tiles[0])")
    assert caught.value.headline() == "<expression>:1:1: error: tile has no member 'weight'"


def test_reading_a_member_of_none_says_so_whatever_the_type_known():
    with pytest.raises(EvalError) as caught:
        run("[t.face for t in loose]")
    assert caught.value.headline() == "<expression>:1:2: error: none has no member 'face'"
    with pytest.raises(EvalError) as caught:
        run("high(loose[0])")
    assert caught.value.message == "none has no member 'face'"


def test_the_items_of_a_typed_collection_have_its_item_type():
    assert item_type(compile_expression("tiles", SCOPE)) is TILE
    assert item_type(compile_expression("[1, 2]", SCOPE)) is None


def test_a_call_has_the_type_of_the_body_compiled_for_its_arguments():
    # In general, 'same' gives a value of any type; given a tile, it gives a tile.
    assert item_type(compile_expression("[same(t) for t in tiles]", SCOPE)) is TILE
    assert item_type(compile_expression("doubled(tiles)", SCOPE)) is TILE
    with pytest.raises(ExprCheckError) as caught:
        compile_expression("same(tiles[0]).weight", SCOPE)
    assert caught.value.headline() == "<expression>:1:16: error: tile has no member 'weight'"


def test_a_list_of_host_objects_passed_in_has_its_items_read_directly(monkeypatch):
    read_by_type = reads_by_type(monkeypatch)
    fresh = SCOPE.child(functions={"colours": UserFunction("colours", ["ts"], "[t.colour for t in ts]")})
    assert compile_expression("colours(tiles)", fresh)(None, {}) == ["red", "blue"]
    assert read_by_type == []
    assert run("faces(doubled(tiles))") == [3, 5, 3, 5]
