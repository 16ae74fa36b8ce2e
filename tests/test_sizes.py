"""Components sized by the game's options: the dice, a deck's jokers, a card's count and the ends
of an `each:` range take an expression of the options, worked out at load; the game is then the
game with those numbers written out, on every engine; a size out of bounds or not a whole number
is an error at its expression, with the options it was worked out with."""
from __future__ import annotations

import pytest

from interpreter.api import load_game
from interpreter.errors import RulesError
from interpreter.lean.engine import LeanGame
from tests import test_lean

GAME = """\
name: Sized
players: {min: 2, max: 3}
options:
  sides: {type: int, default: 8, min: 2, max: 20}
  numdice: {type: int, default: 3, min: 1, max: 10}
dice: {count: numdice, faces: sides}
decks:
  tiles:
    jokers: numdice - 1
    cards:
      - each: {rank: 1..numdice * 2}
        count: "2"
    zone: stock
zones:
  stock: {face: down}
  hand: {per: seat}
variables:
  seat: {points: 0}
flow:
  rounds: 2
  phases:
    - name: play
      turns: {from: 0, each: once}
      moves: [throw, draw]
moves:
  throw:
    do:
      - roll: dice
      - add: {points: "sum(dice)"}
      - end_turn
  draw:
    when: not stock.empty
    do:
      - move: stock.top
        to: hand
      - end_turn
scoring:
  score: points + hand.size
"""


def sized(tmp_path, text=GAME, **options):
    path = tmp_path / "sized.yaml"
    path.write_text(text)
    return load_game(path, {k: str(v) for k, v in options.items()})


def test_the_dice_and_the_deck_take_their_numbers_from_the_options(tmp_path):
    loaded = sized(tmp_path, sides=20, numdice=5)
    game = loaded.game
    assert (game.dice_count, game.dice_faces) == (5, 20)
    state = loaded.new_state(2, 0)
    assert len(state.dice) == 5 and len(state.zones["stock"][0]) == 2 * 10 + 4     # ranks 1..10 twice, 4 jokers
    default = sized(tmp_path)
    assert (default.game.dice_count, default.game.dice_faces) == (3, 8)
    assert len(default.new_state(2, 0).zones["stock"][0]) == 2 * 6 + 2


@pytest.mark.parametrize("options", [{}, {"sides": 20, "numdice": 5}, {"sides": 2, "numdice": 1}], ids=str)
def test_a_sized_game_plays_the_same_on_every_engine(tmp_path, options):
    path = tmp_path / "sized.yaml"
    path.write_text(GAME)
    text_options = {k: str(v) for k, v in options.items()}
    loaded = load_game(path, text_options)
    lean = LeanGame(loaded)
    assert lean.program is not None
    for seed, players in ((0, 2), (1, 3), (2, 2)):
        assert test_lean.lockstep(loaded, lean, players, seed) == 2 * players


@pytest.mark.parametrize("change, message", [
    (("faces: sides", "faces: sides * 200"),
     "sized.yaml:6:31: error: 'sides * 200' gives 1600 (with sides=8): expected 2 to 1000"),
    (("count: numdice,", "count: numdice - 3,"),
     "sized.yaml:6:15: error: 'numdice - 3' gives 0 (with numdice=3): expected 1 to 100"),
    (("faces: sides", "faces: sides / 3"),
     "sized.yaml:6:31: error: 'sides / 3' gives 2.6666666666666665 (with sides=8): expected a whole number"),
    (("jokers: numdice - 1", "jokers: numdice * 10"),
     "sized.yaml:9:13: error: 'numdice * 10' gives 30 (with numdice=3): expected 0 to 16"),
    (("count: \"2\"", "count: numdice - 3"),
     "sized.yaml:12:16: error: 'numdice - 3' gives 0 (with numdice=3): expected at least 1"),
    (("faces: sides", "faces: player_count"),
     "sized.yaml:6:31: error: unknown name 'player_count'\n"
     "    6 | dice: {count: numdice, faces: player_count}\n"
     "      |                               ^^^^^^^^^^^^\n"
     "hint: a component's size is a number or an expression of the game's options"),
    (("faces: sides", "faces: 2.5"),
     "sized.yaml:6:31: error: expected a whole number or an expression of the options, got the number 2.5 "
     "in dice.faces"),
    (("count: numdice,", "count: 0,"),
     "sized.yaml:6:15: error: expected at least 1, got 0 in dice.count"),
    (("rank: 1..numdice * 2", "rank: 1..numdise"),
     "sized.yaml:11:25: error: unknown name 'numdise'\n"
     "   11 |       - each: {rank: 1..numdise}\n"
     "      |                         ^^^^^^^\n"
     "hint: did you mean 'numdice'?"),
])
def test_a_size_that_does_not_fit_is_an_error_at_its_expression(tmp_path, change, message):
    with pytest.raises(RulesError) as caught:
        sized(tmp_path, GAME.replace(*change))
    assert caught.value.render().replace(str(tmp_path) + "/", "").startswith(message)


def test_a_size_is_checked_with_the_options_given(tmp_path):
    with pytest.raises(RulesError) as caught:
        sized(tmp_path, GAME.replace("faces: sides", "faces: sides * 60"), sides=17)
    assert caught.value.message == "'sides * 60' gives 1020 (with sides=17): expected 2 to 1000"
    assert sized(tmp_path, GAME.replace("faces: sides", "faces: sides * 60"), sides=16).game.dice_faces == 960
