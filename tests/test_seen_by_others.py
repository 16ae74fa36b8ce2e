"""`visible_to: others`: cards (or a cup of dice) every seat sees but their owner, as a hand held
facing out. What each seat's view, a spectator, the bots' guesses (both engines) and a `view:` line
see of them."""
from __future__ import annotations

import random

from click.testing import CliRunner

from cli import main
from interpreter.api import load_game, sample_state
from interpreter.bots.lean_guess import guess
from interpreter.lean.engine import LeanGame

# Each seat holds two cards facing out; on its turn it names a slot of its own hand it believes
# higher than the other, or gives up. Nobody sees their own cards, every seat sees the others'.
FACING_OUT = """\
name: Facing out
players: {min: 2, max: 4}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: others}
  shown: {}
variables:
  seat: {named: 0}
setup:
  - shuffle: stock
  - deal: 2
    from: stock
    to: hand
flow:
  rounds: 1
  phases:
    - name: guess
      turns: {from: 0, each: once}
      moves: [name, give_up]
moves:
  name:
    params:
      slot: {from: '1..hand.size'}
    do:
      - set: {named: slot}
      - move: hand.cards[slot - 1]
        to: shown
      - end_turn
  give_up:
    do:
      - end_turn
scoring:
  score: sum([c.rank for c in shown.cards if c.owner == me]) + named
"""


def write(tmp_path, text):
    path = tmp_path / "g.yaml"
    path.write_text(text)
    return path


def facing_out(tmp_path, **changes):
    text = FACING_OUT
    for old, new in changes.items():
        text = text.replace(old, new)
    return load_game(write(tmp_path, text))


def test_each_seat_sees_the_other_hands_but_not_its_own(tmp_path):
    game = facing_out(tmp_path)
    state = game.new_state(3, 0, stack={"stock": ["2C", "3C", "4C", "5C", "6C", "7C"]})
    assert game.view(state, 0)["zones"]["hand"] == [[None, None], ["3C", "6C"], ["4C", "7C"]]
    assert game.view(state, 1)["zones"]["hand"] == [["2C", "5C"], [None, None], ["4C", "7C"]]
    assert game.view(state, None)["zones"]["hand"] == [[None, None]] * 3    # what every seat sees


def test_a_card_played_from_the_hand_is_seen_by_its_owner_where_it_lands(tmp_path):
    game = facing_out(tmp_path)
    state = game.new_state(2, 0, stack={"stock": ["2C", "3C", "4C", "5C"]})
    assert [m.text for m in game.legal_moves(state, 0)] == ["name 1", "name 2", "give_up"]
    game.apply(state, "name 2", 0)
    assert game.view(state, 0)["zones"]["shown"] == [["4C"]]
    assert game.view(state, 0)["zones"]["hand"] == [[None], ["3C", "5C"]]


def test_a_bots_guess_deals_again_only_its_own_hand_and_the_stock(tmp_path):
    game = facing_out(tmp_path)
    state = game.new_state(3, 0)
    samples = [sample_state(game.game, state, 0, seed) for seed in range(30)]
    assert all(s.zones["hand"][1:] == state.zones["hand"][1:] for s in samples)
    assert len({tuple(s.zones["hand"][0]) for s in samples}) > 20
    assert all(set(s.zones["hand"][0]) | set(s.zones["stock"][0])
               == set(state.zones["hand"][0]) | set(state.zones["stock"][0]) for s in samples)


def test_the_lean_engine_guesses_as_the_reference_does(tmp_path):
    loaded = facing_out(tmp_path)
    lean = LeanGame(loaded)
    for seed in range(3):
        ref, state, choose = loaded.new_state(3, seed), lean.new_state(3, seed), random.Random(seed)
        while not ref.over:
            for seat in range(3):
                assert lean.to_state(guess(lean, state, seat, seed + seat)) == sample_state(
                    loaded.game, ref, seat, seed + seat)
            moves = loaded.legal_moves(ref, ref.current)
            pick = choose.randrange(len(moves))
            loaded.apply(ref, moves[pick], ref.current)
            lean.step(state, lean.legal(state)[pick])


def test_cups_seen_by_the_others(tmp_path):
    text = """\
name: Foreheads
players: {min: 3, max: 3}
dice: {count: 1, faces: 6, per: seat, visible_to: others}
setup:
  - for: p in players
    do:
      - roll: p.dice
        of: p
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0, each: once}
      moves: [stop]
moves:
  stop:
    do:
      - end_turn
scoring:
  score: sum(dice)
"""
    game = load_game(write(tmp_path, text))
    state = game.new_state(3, 0, rolls=[[3], [6], [1]])
    assert game.view(state, 0)["dice"] == [[None], [6], [1]]
    assert game.view(state, 2)["dice"] == [[3], [6], [None]]
    assert game.view(state, None)["dice"] == [[None], [None], [None]]
    samples = [sample_state(game.game, state, 1, seed) for seed in range(20)]
    assert all(s.dice[0] == [3] and s.dice[2] == [1] for s in samples)
    assert len({s.dice[1][0] for s in samples}) > 3


def test_a_view_line_may_not_show_cards_their_owner_may_not_see(tmp_path):
    path = write(tmp_path, FACING_OUT.replace("scoring:", "view:\n  game:\n    held: '[c.rank for c in hand.cards]'\nscoring:"))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert "view: 'held' shows the cards of zone 'hand' to every seat, but its owner may not see them" in result.output


def test_a_move_may_not_name_its_own_cards_that_its_owner_may_not_see(tmp_path):
    path = write(tmp_path, FACING_OUT.replace("slot: {from: '1..hand.size'}", "slot: {from: hand.cards}"))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"{path}:25:20: error: parameter 'slot' of move 'name' names the cards of zone 'hand', "
        "but their owner, who makes the move, may not see them")
    assert "hint: name them by their place: {from: '1..hand.size'}, then hand.cards[place - 1]" in result.output
