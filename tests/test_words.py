"""The game's words for players: labels of moves, values, zones, phases and variables, the
variables not shown, the rules summary and legend, a hand's named score parts and the showdown;
checked at load with exact positions, and what the tables make of them."""
from __future__ import annotations

import pytest

from interpreter.api import load_game
from interpreter.engine.views import score_parts
from interpreter.errors import ErrorList, IllegalMove
from interpreter.play.hand_events import hand_summary
from interpreter.play.session import Session
from interpreter.play.typed import find_typed
from interpreter.play.words import Words
from tests.helpers import GAMES

CARDS = """
name: Words
summary: Play a card; the higher card wins.
legend: {"▒": a face-down card}
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down, visible_to: none}
  hand: {per: seat, visible_to: owner}
  work: {per: seat, piles: 2, label: work pile}
  pile: {label: middle}
variables:
  game: {note_to_self: 0, top_rank: 0}
  seat: {put_down: 0}
setup:
  - shuffle: stock
  - deal: 3
    from: stock
    to: hand
flow:
  rounds: 1
  phases:
    - name: lay_out
      label: Laying out
      turns: {from: 0}
      until: all(p.hand.empty for p in players)
      moves: [lay, hide_one, say]
moves:
  lay:
    label: put {card} on {target}
    params:
      card: {from: hand.cards}
      target: {from: work}
    do:
      - move: card
        to: target
      - add: {put_down: 1}
      - end_turn
  hide_one:
    params:
      card: {from: hand.cards}
    private: true
    do:
      - move: card
        to: pile
      - end_turn
  say:
    label: say {word}
    params:
      word: {from: '[1, 2]', labels: {'1': hello, '2': goodbye}}
    when: false
    do: [end_turn]
scoring:
  score: put_down
  parts:
    laid: put_down
    left: hand.size
view:
  labels: {put_down: cards laid}
  not_shown: [note_to_self]
"""


def _loaded(text=CARDS):
    return load_game("words.yaml", text=text)


def _errors(text):
    with pytest.raises(ErrorList) as caught:
        _loaded(text)
    return [e.render() for e in caught.value.errors]


def test_moves_read_as_their_labels_with_each_value_in_words_and_private_values_as_seen():
    loaded = _loaded()
    words = Words(loaded.game)
    state = loaded.new_state(2, 4)
    moves = loaded.legal_moves(state, 0)
    lay = [m for m in moves if m.name == "lay"]
    hide = [m for m in moves if m.name == "hide_one"]
    assert lay[0].text == "lay JH work[P1]#1"
    assert words.move(lay[0], 0) == "put J♥ on your work pile 1"
    assert words.move(lay[0], 1) == "put J♥ on P1's work pile 1"
    assert words.move(hide[0], 0) == "hide one J♥" and words.move(hide[0], 1) == "hide one a card"
    assert (words.move_name("lay"), words.move_name("hide_one"), words.move_name("say")) == ("put … on …", "hide one", "say …")
    assert words.move_choice("lay", {"card": "J♥"}) == "put J♥ on …"
    assert words.value("say", "word", 2, 0) == "goodbye"
    assert (words.phase("lay_out"), words.zone("pile"), words.zone("stock")) == ("Laying out", "middle", "stock")
    assert words.values({"note_to_self": 1, "put_down": 2, "top_rank": 3}) == {"cards laid": 2, "top rank": 3}


def test_a_move_may_be_typed_as_its_words_or_as_a_card_alone_when_one_move_uses_it():
    loaded = _loaded()
    words = Words(loaded.game)
    state = loaded.new_state(2, 4)
    game = loaded.game
    assert find_typed(game, state, 0, "put J♥ on your work pile 2", words).text == "lay JH work[P1]#2"
    assert find_typed(game, state, 0, "lay JH work[P1]#2", words).text == "lay JH work[P1]#2"
    with pytest.raises(IllegalMove) as several:
        find_typed(game, state, 0, "J♥", words)
    assert several.value.message == ("'J♥' could be any of: put J♥ on your work pile 1, put J♥ on your work pile 2, "
                                     "hide one J♥")
    with pytest.raises(IllegalMove) as wrong:
        find_typed(game, state, 0, "jump", words)
    assert (wrong.value.message, wrong.value.hint) == ("'jump' is not a legal move now", "legal now: put … on …, hide one")


def test_a_number_typed_is_never_the_beginning_of_a_longer_one():
    """Skat, P2 bid 18 and P1 held: 'bid 18' is no longer legal, and is not read as 'bid 180'."""
    loaded = load_game(GAMES / "skat.yaml")
    state = loaded.new_state(3, 1)
    loaded.apply(state, "bid 18")
    loaded.apply(state, "hold")
    words = Words(loaded.game)
    with pytest.raises(IllegalMove) as refused:
        find_typed(loaded.game, state, 1, "bid 18", words)
    assert refused.value.message == "'bid 18' is not a legal move now"
    with pytest.raises(IllegalMove):
        find_typed(loaded.game, state, 1, "bid 19", words)          # not 'bid 192'
    assert find_typed(loaded.game, state, 1, "bid 20", words).text == "bid 20"
    assert find_typed(loaded.game, state, 1, "pa", words).text == "pass"      # a word may be cut


def test_a_card_alone_plays_the_one_move_that_uses_it():
    loaded = _loaded(CARDS.replace("target: {from: work}", "target: {from: '[work[0]]'}")
                     .replace("moves: [lay, hide_one, say]", "moves: [lay, say]"))
    state = loaded.new_state(2, 4)
    assert find_typed(loaded.game, state, 0, "jh", Words(loaded.game)).text == "lay JH work[P1]#1"


@pytest.mark.parametrize("change, message", [
    (("label: put {card} on {target}", "label: put {card} on {pile}"),
     "words.yaml:31:26: error: '{pile}' in the label of move 'lay' is not one of its parameters"),
    (("labels: {put_down: cards laid}", "labels: {put_dwn: cards laid}"),
     "words.yaml:60:12: error: 'put_dwn' is not a variable"),
    (("not_shown: [note_to_self]", "not_shown: [note_to_self, put_down]"),
     "words.yaml:60:12: error: 'put_down' has a label but is not shown"),
    (("word: {from: '[1, 2]', labels", "word: {labels"),
     "words.yaml:51:13: error: expected exactly one of 'from' or 'subset_of' in moves.say.params.word"),
])
def test_words_that_name_nothing_are_refused_at_load_with_their_place(change, message):
    rendered = _errors(CARDS.replace(*change))
    assert rendered[0].splitlines()[0] == message


def test_a_hands_named_parts_are_worked_out_for_each_seat_and_written_in_the_log():
    loaded = _loaded()
    state = loaded.new_state(2, 4)
    while not state.over:
        seat = state.current
        loaded.apply(state, loaded.legal_moves(state, seat)[0], seat)
    assert score_parts(loaded.game, state) == {"laid": [3, 3], "left": [0, 0]}
    assert hand_summary(score_parts(loaded.game, state), 1, None) == [
        "Hand 1:", "  P1: laid 3, left 0", "  P2: laid 3, left 0"]
    assert hand_summary({"high": [1, 0, 1, 0]}, 2, [0, 1, 0, 1]) == ["Hand 2:", "  T1: high 1", "  T2: high 0"]


SHOWDOWN = """
name: Showdown
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down, visible_to: none}
  hand: {per: seat, visible_to: owner}
variables:
  seat: {folded: false}
setup:
  - shuffle: stock
  - deal: 1
    from: stock
    to: hand
flow:
  rounds: 1
  phases:
    - name: bet
      turns: {from: 0, each: once}
      moves: [call, fold]
moves:
  call:
    do: [end_turn]
  fold:
    do:
      - set: {folded: true}
      - end_game
scoring:
  score: 'if folded then 0 else hand.top.rank'
showdown:
  zones: [hand]
  when: not any(p.folded for p in players)
"""


@pytest.mark.parametrize("moves, shown", [(["call", "call"], True), (["fold"], False)])
def test_the_showdown_shows_the_zones_to_everyone_once_the_hand_is_over_and_only_when_it_holds(moves, shown):
    loaded = load_game("showdown.yaml", text=SHOWDOWN)
    state = loaded.new_state(2, 7)
    assert loaded.view(state, 0)["zones"]["hand"][1] == [None]
    for move in moves:
        loaded.apply(state, move, state.current)
    assert state.over
    other = loaded.view(state, 0)["zones"]["hand"][1]
    assert (other != [None]) is shown
    assert loaded.view(state, None)["zones"]["hand"][0] == (loaded.view(state, 0)["zones"]["hand"][0] if shown else [None])


def test_the_showdown_names_a_zone_the_game_has():
    text = SHOWDOWN.replace("zones: [hand]\n", "zones: [hands]\n")
    assert _errors_of(text) == "showdown.yaml:32:11: error: unknown zone 'hands'"


def _errors_of(text):
    with pytest.raises(ErrorList) as caught:
        load_game("showdown.yaml", text=text)
    return caught.value.errors[0].render().splitlines()[0]


def test_a_session_logs_the_moves_in_words_and_each_hands_parts_at_its_end():
    loaded = _loaded()
    session = Session(loaded, 2, 4, "random", {0})
    move = find_typed(loaded.game, session.state, 0, "put J♥ on your work pile 2", session.words)
    session.submit(0, move, 0.0)
    assert session.log_lines(0)[0] == "P1: put J♥ on your work pile 2"
    assert session.log_lines(1)[0] == "P1: put J♥ on P1's work pile 2"


def test_kuhn_poker_shows_both_cards_at_a_showdown_on_the_table_and_none_after_a_fold():
    from interpreter.play.tui.board import Board
    from tests.helpers import load
    loaded = load("kuhn_poker")
    called = loaded.new_state(2, 3)
    cards = [loaded.game.card_table(2)[pile[0]].label for pile in called.zones["hand"]]
    loaded.apply(called, "bet", 0)
    assert loaded.view(called, 0)["zones"]["hand"][1] == [None]
    loaded.apply(called, "bet", 1)                     # called: a showdown
    assert called.over and loaded.view(called, 0)["zones"]["hand"] == [[cards[0]], [cards[1]]]
    board = Board(0, words=Words(loaded.game)).table(loaded.view(called, 0)).plain
    assert f"card {cards[0]}\n" in board and f"P2 (across)  card {cards[1]}\n" in board
    folded = loaded.new_state(2, 3)
    loaded.apply(folded, "bet", 0)
    loaded.apply(folded, "pass", 1)                    # P2 folds: its card stays hidden
    assert folded.over and loaded.view(folded, 0)["zones"]["hand"][1] == [None]


def test_last_card_shows_every_hand_where_a_hand_is_scored():
    from tests.helpers import load
    session = Session(load("last_card"), 3, 5, "random", set())
    session.advance(limit=400)
    assert session.state.over
    assert session.view(0)["zones"]["hand"] == session.hand_end_view(0)["zones"]["hand"]
    hands = session.view(0)["zones"]["hand"]
    assert hands == [[], ["6D", "JD", "3S"], ["AS", "2C", "AC"]]         # the game's end shows them
    assert session.log_lines(0)[-4:] == ["Hand 1:", "  P1: cards left 0, points 0", "  P2: cards left 3, points 19",
                                         "  P3: cards left 3, points 4"]


def test_rules_show_prints_the_summary_and_the_legend():
    from click.testing import CliRunner

    from cli import main
    out = CliRunner().invoke(main, ["show", "kuhn_poker"]).output
    summary = loaded_words("kuhn_poker").summary
    assert "The rules in brief:\n" in out and " ".join(summary.split())[:60] in " ".join(out.split())
    assert "On the table:\n  ▒  " in out


def loaded_words(name):
    from tests.helpers import load
    return Words(load(name).game)


def test_the_texts_variables_hold_and_their_maps_keys_read_in_the_games_words():
    from interpreter.play.words import Names

    words = Words(load_game(GAMES / "dice_poker.yaml").game)
    drawn = words.values({"sheet": {"ones": 3, "two_pairs": None, "full_house": 25},
                          "crossed": ["four", "poker"], "throws": 2, "first_player": "P1"})
    assert drawn == {"score sheet": {"ones": 3, "two pairs": None, "full house": 25},
                     "crossed out": ["four of a kind", "poker"], "throws this turn": 2, "plays first": "P1"}
    sent = words.for_players()
    assert sent["values"]["small_straight"] == "small straight"
    assert Names.sent(sent).values({"crossed": ["three"]}) == {"crossed out": ["three of a kind"]}
