"""Tricks as a general concept (interpreter/tricks.py): effective suit and rank under a trump, the
led suit, following suit, the winner of a trick, who played each card; their errors; the hidden
information of a trick-taking game (games/schmier.yaml); its text rendering."""
from __future__ import annotations

import textwrap

import pytest

from interpreter.api import load_game
from interpreter.errors import ErrorList, RulesError
from interpreter.play.card_text import card_text, hand_text
from interpreter.play.render import render_view
from tests.helpers import load

# A small game with jokers as the highest trumps, spades trump, four players in two partnerships.
GAME = """
name: Little tricks
players: {min: 4, max: 4}
teams: {of: seat % 2}
decks:
  main: {standard: true, jokers: 2, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
  trick: {}
  won: {per: team}
variables:
  game: {leader: none}
tricks:
  zone: trick
  hand: hand
  trump: '"spades"'
  suit: 'if card.joker then "spades" else card.suit'
  rank: 'if card.joker then 20 else if card.rank == 1 then 14 else card.rank'
setup:
  - deal: 2
    from: stock
    to: hand
    first: 2
flow:
  rounds: 1
  phases:
    - name: play
      turns:
        from: 2
        next: 'if trick.empty then leader else players[(me.index + 1) % player_count]'
      until: all(p.hand.empty for p in players)
      moves: [play]
moves:
  play:
    params:
      card: {from: playable}
    do:
      - play_to_trick: card
      - if: trick.size == player_count
        then:
          - set: {leader: trick_winner}
          - move: trick.cards
            to: trick_winner.won
      - end_turn
scoring:
  score: won.size
"""


def write(tmp_path, text):
    path = tmp_path / "g.yaml"
    path.write_text(textwrap.dedent(text).lstrip())
    return path


@pytest.fixture
def little(tmp_path):
    return load_game(write(tmp_path, GAME))


def labels(loaded, state, zone, owner=0):
    table = loaded.game.card_table(state.players)
    return [table[c].label for c in loaded.game.pile(state, _ref(zone, owner))]


def _ref(zone, owner):
    from interpreter.engine.values import ZoneRef
    return ZoneRef(zone, owner)


def place(loaded, state, hands):
    """Give each seat exactly these cards (labels), the rest to the stock."""
    table = loaded.game.card_table(state.players)
    ids = {c.label: c.id for c in table}
    for seat, hand in enumerate(hands):
        for label in hand:
            loaded.game.place(state, ids[label], _ref("hand", seat), None, False)
    for seat in range(state.players):
        for card in [c for c in state.zones["hand"][seat] if table[c].label not in hands[seat]]:
            loaded.game.place(state, card, _ref("stock", None), None, False)


def value(loaded, state, text, seat=None):
    """Evaluate an expression of the game in ``state`` (as ``seat``)."""
    from interpreter.engine.context import Ctx, active
    from interpreter.engine.game_compiler import GameCompiler as _Compiler
    from interpreter.expr import compile_expression

    compiler = _Compiler.__new__(_Compiler)
    compiler.game, compiler.spec = loaded.game, loaded.game.spec
    scope = compiler._base_scope()
    compiled = compile_expression(text, scope)
    with active(loaded.game, state):
        return compiled(Ctx(loaded.game, state, seat), {})


def test_deal_may_start_at_any_seat(little):
    # The stock is not shuffled: its top is the second joker, then the spades from the king down.
    state = little.new_state(4, 1)
    assert [labels(little, state, "hand", seat) for seat in range(4)] == [
        ["KS", "9S"], ["QS", "8S"], ["Jk2", "JS"], ["Jk1", "10S"]]


def test_a_trick_led_follows_suit_and_the_highest_trump_wins(little):
    state = little.new_state(4, 1)
    place(little, state, [["5H", "2C"], ["KH", "AD"], ["9H", "3S"], ["4D", "Jk1"]])
    little.apply(state, "play 9H")                       # P3 leads hearts
    assert value(little, state, "led_suit") == "hearts"
    assert [m.text for m in little.legal_moves(state)] == ["play 4D", "play Jk1"]   # P4 has no heart
    little.apply(state, "play Jk1")                      # a joker is a spade, so a trump
    assert value(little, state, "trick_winner").index == 3
    assert [m.text for m in little.legal_moves(state)] == ["play 5H"]              # P1 must follow
    little.apply(state, "play 5H")
    little.apply(state, "play KH")
    assert labels(little, state, "won", 1) == ["9H", "Jk1", "5H", "KH"]
    assert state.current == 3 and state.zones["trick"] == [[]]


def test_without_a_trump_the_highest_of_the_suit_led_wins_and_equal_ranks_go_to_the_first(little):
    state = little.new_state(4, 1)
    place(little, state, [["2H", "2C"], ["AH", "AD"], ["9H", "3S"], ["4D", "Jk1"]])
    little.apply(state, "play 9H")
    little.apply(state, "play 4D")
    assert value(little, state, "trick_winner").index == 2
    little.apply(state, "play 2H")
    little.apply(state, "play AH")
    assert labels(little, state, "won", 1) == ["9H", "4D", "2H", "AH"]


def test_suit_rank_and_player_of_cards(little):
    state = little.new_state(4, 1)
    place(little, state, [["5H", "2C"], ["KH", "AD"], ["9H", "3S"], ["4D", "Jk2"]])
    assert value(little, state, "[suit_of(c) for c in hand.cards]", 3) == ["diamonds", "spades"]
    assert value(little, state, "[rank_of(c) for c in hand.cards]", 3) == [4, 20]
    assert value(little, state, "led_suit") is None and value(little, state, "trick_winner") is None
    little.apply(state, "play 3S")
    assert value(little, state, "[played_by(c) for c in trick.cards]") == [value(little, state, "players[2]")]
    assert value(little, state, "played_by(hand.cards[0])", 0) is None
    assert value(little, state, "trick_leader").index == 2


def test_who_played_a_card_is_forgotten_in_the_next_round(little):
    state = little.new_state(4, 1)
    little.apply(state, little.legal_moves(state)[0])
    card = value(little, state, "trick.cards[0]")
    state.round += 1
    assert value(little, state, "played_by(trick.cards[0])") is None and card is not None


def test_a_section_that_asks_about_tricks_itself_is_stopped(tmp_path):
    path = write(tmp_path, GAME.replace("""suit: 'if card.joker then "spades" else card.suit'""",
                                        "suit: 'if led_suit == none then card.suit else card.suit'"))
    loaded = load_game(path)
    state = loaded.new_state(4, 1)
    loaded.apply(state, loaded.legal_moves(state)[0])
    with pytest.raises(RulesError) as caught:
        loaded.legal_moves(state)
    assert caught.value.message == ("the tricks: section's suit, rank and trump may not use led_suit, "
                                    "trick_winner, trick_leader, playable, suit_of, rank_of or played_by")


def test_a_rank_that_is_not_a_number_is_an_error(tmp_path):
    loaded = load_game(write(tmp_path, GAME.replace(
        "rank: 'if card.joker then 20 else if card.rank == 1 then 14 else card.rank'", "rank: card.label")))
    state = loaded.new_state(4, 1)
    place(loaded, state, [["5H", "2C"], ["KH", "AD"], ["9H", "3S"], ["4H", "Jk1"]])
    for text in ["play 9H", "play 4H", "play 5H"]:
        loaded.apply(state, text)
    with pytest.raises(RulesError) as caught:
        loaded.apply(state, "play KH")
    assert caught.value.message == "tricks: a card's rank must be a number, not '4H'"


def test_playing_something_that_is_not_a_card_is_an_error(tmp_path):
    loaded = load_game(write(tmp_path, GAME.replace("- play_to_trick: card", "- play_to_trick: 3")))
    state = loaded.new_state(4, 1)
    with pytest.raises(RulesError) as caught:
        loaded.apply(state, loaded.legal_moves(state)[0])
    assert caught.value.message == "play_to_trick: 3 is not a card"


@pytest.mark.parametrize("old, new, message, hint", [
    ("  zone: trick\n", "  zone: trik\n", "14:9: error: unknown zone 'trik'", "did you mean 'trick'?"),
    ("  zone: trick\n", "  zone: hand\n", "14:9: error: zone 'hand' must be one per game",
     "declare it with 'per: game' under zones:"),
    ("  hand: hand\n", "  hand: trick\n", "15:9: error: zone 'trick' must be one per seat",
     "declare it with 'per: seat' under zones:"),
    ("  rank: 'if card", "  rank: 'if crad", "18:13: error: unknown name 'crad'", "did you mean 'card'?"),
    ("  hand: hand\n", "", "13:1: error: missing 'hand' in tricks", "add a 'hand:' entry"),
])
def test_mistakes_in_the_tricks_section_are_reported_where_they_are(tmp_path, old, new, message, hint):
    path = write(tmp_path, GAME.replace(old, new))
    with pytest.raises(RulesError) as caught:
        load_game(path)
    errors = caught.value.errors if isinstance(caught.value, ErrorList) else [caught.value]
    lines = errors[0].render().splitlines()
    assert (len(errors), lines[0], lines[-1]) == (1, f"{path}:{message}", f"hint: {hint}")


# ---------------------------------------------------------------- hidden information and text

@pytest.fixture(scope="module")
def schmier():
    return load("schmier")


def test_another_seats_hidden_cards_do_not_change_a_view(schmier):
    state = schmier.new_state(6, 3)
    for _ in range(7):        # auction and trump: into the exchange
        schmier.apply(state, schmier.legal_moves(state)[0])
    seat = 0
    before = schmier.view(state, seat)
    other = state.clone()
    hand, stock = other.zones["hand"][2], other.zones["stock"][0]
    hand[0], stock[0] = stock[0], hand[0]
    other.face_up.add(hand[0])
    other.face_up.discard(stock[0])
    other.zones["hand"][4].reverse()
    assert other != state
    assert schmier.view(other, seat) == before


def test_a_view_shows_the_trick_trump_and_own_hand_only(schmier):
    state = schmier.new_state(6, 8)
    moves = ["bid 3", "pass", "pass", "pass", "pass", "pass", "name_trump hearts"]
    for text in moves:
        schmier.apply(state, text)
    view = schmier.view(state, 0)
    assert view["tricks"]["trump"] == "hearts" and view["tricks"]["plays"] == []
    assert view["teams"] == [0, 1, 2, 0, 1, 2]
    assert all(card is None for card in view["zones"]["hand"][1])
    own = view["zones"]["hand"][0]
    assert set(view["tricks"]["cards"]) == set(own)


def test_cards_are_written_with_suit_symbols_and_red_in_colour():
    assert [card_text(c) for c in ["QH", "10S", "AD", "2C", "Jk", "HZ"]] == ["Q♥", "10♠", "A♦", "2♣", "Jk★", "HZ"]
    assert card_text("QH", color=True) == "\x1b[31mQ♥\x1b[0m"
    assert card_text("QS", color=True) == "Q♠"


def test_a_hand_is_sorted_by_suit_with_the_trump_first_and_marked():
    tricks = {"trump": "hearts", "cards": {"JD": ["hearts", 11], "AH": ["hearts", 15], "2S": ["spades", 2],
                                           "KS": ["spades", 13], "Jk": ["hearts", 1], "5C": ["clubs", 5]}}
    assert hand_text(["2S", "JD", "5C", "Jk", "KS", "AH"], tricks) == "♥* A♥ J♦ Jk★ | ♣ 5♣ | ♠ K♠ 2♠"


def test_the_text_view_shows_the_trick_the_scores_and_the_sorted_hand(schmier):
    state = schmier.new_state(6, 8)
    for text in ["bid 3", "pass", "pass", "pass", "pass", "pass", "name_trump hearts"]:
        schmier.apply(state, text)
    while state.phase != schmier.game.phase_names.index("play"):
        schmier.apply(state, schmier.legal_moves(state)[-1])
    schmier.apply(state, schmier.legal_moves(state)[0])
    text = render_view(schmier.view(state, 1))
    lines = text.splitlines()
    assert "T1 (P1 P4)  score: 0  taken: 0" in lines
    assert any(line.startswith("trump: ♥  led: ") and line.endswith(" by P1") for line in lines)
    assert any(line.startswith("played: P1 ") for line in lines)
    hand = next(line for line in lines if line.startswith("hand P2 (you): "))
    assert "|" in hand or hand.count("♥") + hand.count("♦") + hand.count("♣") + hand.count("♠") >= 5
    assert "contract: P1 bid 3 and named hearts" in text and "bids: P1:3 P2:pass" in text


# Each seat may also play a card of its partner's hand for the partner (as a declarer plays the dummy's).
FOR_PARTNER = GAME.replace("moves: [play]", "moves: [play, for_partner]").replace("""scoring:""", """  for_partner:
    params:
      card: {from: 'players[(me.index + 2) % player_count].hand.cards'}
    do:
      - play_to_trick: card
        by: BY
      - end_turn
scoring:""")


def test_a_card_played_for_another_seat_counts_as_that_seats(tmp_path):
    from interpreter.engine.tricks import known_voids
    loaded = load_game(write(tmp_path, FOR_PARTNER.replace("BY", "players[(me.index + 2) % player_count]")))
    state = loaded.new_state(4, 1)
    place(loaded, state, [["5H", "2C"], ["KH", "AD"], ["9H", "3S"], ["4D", "Jk1"]])
    loaded.apply(state, "play 9H")                          # P3 leads hearts
    loaded.apply(state, "for_partner AD")                   # P4 plays P2's diamond: P2 shows out of hearts
    assert value(loaded, state, "[played_by(c) for c in trick.cards]") == [
        value(loaded, state, "players[2]"), value(loaded, state, "players[1]")]
    assert known_voids(loaded.game, state) == {1: ["hearts"]}
    assert loaded.view(state, 0)["tricks"]["plays"] == [[2, "9H"], [1, "AD"]]
    assert value(loaded, state, "trick_winner").index == 2


def test_a_card_played_for_no_seat_is_an_error(tmp_path):
    loaded = load_game(write(tmp_path, FOR_PARTNER.replace("BY", "none")))
    state = loaded.new_state(4, 1)
    with pytest.raises(RulesError) as caught:
        loaded.apply(state, [m for m in loaded.legal_moves(state) if m.text.startswith("for_partner")][0])
    assert caught.value.message == "play_to_trick's by: none is not a seat"


def test_the_lean_engine_plays_a_card_for_another_seat_as_the_reference(tmp_path):
    from interpreter.lean.engine import LeanGame
    from tests.test_lean import lockstep
    loaded = load_game(write(tmp_path, FOR_PARTNER.replace("BY", "players[(me.index + 2) % player_count]")
                             .replace("deal: 2", "deal: 5").replace("first: 2", "first: 0")))
    lean = LeanGame(loaded)
    for seed in range(5):
        lockstep(loaded, lean, None, seed)


def test_the_lean_engine_finds_where_a_trick_goes_before_its_cards_leave(tmp_path):
    """``move: trick.cards, to: trick_winner.won``: the winner is read from the trick still full."""
    from interpreter.lean.engine import LeanGame
    from tests.test_lean import lockstep
    loaded = load_game(write(tmp_path, GAME.replace("deal: 2", "deal: 5").replace("first: 2", "first: 0")))
    for seed in range(3):
        lockstep(loaded, LeanGame(loaded), None, seed)
