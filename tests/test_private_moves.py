"""Private moves: the mover reads the whole move, every other seat its public form; and nothing a
seat is shown (the line mode's board, the full-screen table's board and values, the moves it
reads in the log) depends on what it may not see."""
from __future__ import annotations

import contextlib
import random

import pytest

from interpreter.api import load_game
from interpreter.engine import apply_move, legal_moves
from interpreter.engine.moves import Move
from interpreter.engine.values import Card
from interpreter.engine.views import card_visible, hidden_in_pile, move_text
from interpreter.errors import RulesError
from interpreter.play.card_text import card_text
from interpreter.play.render import render_view
from interpreter.play.tui.board import Board
from tests.helpers import game_files, load

SMALL = """
name: Secret
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down, visible_to: none}
  hand: {per: seat, visible_to: owner}
  pile: {face: down, visible_to: none}
setup:
  - deal: 3
    from: stock
    to: hand
flow:
  phases:
    - name: main
      turns: {from: 0}
      until: all(p.hand.empty for p in players)
      moves: [bury, show]
moves:
  bury:
    params:
      cards: {subset_of: hand.cards}
      count: {from: '[len(cards)]'}
    private: [cards]
    do:
      - move: cards
        to: pile
      - end_turn
  show:
    params:
      card: {from: hand.cards}
    do:
      - move: card
        to: pile
      - end_turn
"""


def _game(text=SMALL):
    return load_game("secret.yaml", text=text)


def test_the_mover_reads_the_whole_move_and_the_others_its_public_form():
    loaded = _game()
    state = loaded.new_state(2, 1)
    bury = next(m for m in loaded.legal_moves(state, 0) if m.name == "bury" and len(m.args[0]) == 2)
    show = next(m for m in loaded.legal_moves(state, 0) if m.name == "show")
    assert move_text(loaded.game, bury, 0) == bury.text
    assert bury.text.startswith("bury ") and bury.text.endswith(" 2")
    assert move_text(loaded.game, bury, 1) == "bury (2 cards) 2"
    assert move_text(loaded.game, bury, None) == "bury (2 cards) 2"
    assert move_text(loaded.game, show, 1) == show.text        # nothing private in it


def test_schmier_discards_are_private():
    loaded = load("schmier")
    game = loaded.game
    cards = [c for c in game.card_table(6) if c.label in ("KC", "2S", "10S")]
    discard = Move(1, "discard", (cards,), "discard KC 2S 10S")
    assert move_text(game, discard, 0) == "discard (3 cards)"
    assert move_text(game, discard, 1) == "discard KC 2S 10S"
    dealer = Move(4, "dealer_discard", (cards[0],), "dealer_discard KC")
    assert move_text(game, dealer, 0) == "dealer_discard (a card)"
    assert move_text(game, Move(0, "play", (cards[0],), "play KC"), 3) == "play KC"


def test_a_private_name_that_is_not_a_parameter_is_an_error():
    text = SMALL.replace("private: [cards]", "private: [crads]")
    with pytest.raises(RulesError) as caught:
        _game(text)
    assert caught.value.render().splitlines()[:3] == [
        "secret.yaml:25:15: error: 'crads' is not a parameter of move 'bury'",
        "   25 |     private: [crads]",
        "      |               ^^^^^",
    ]
    assert "did you mean 'cards'?" in caught.value.render()


def test_private_must_be_true_false_or_a_list_of_names():
    with pytest.raises(RulesError) as caught:
        _game(SMALL.replace("private: [cards]", "private: 3"))
    assert "secret.yaml:25:14: error: expected true or false or a list, got the number 3 in moves.bury.private" \
        in caught.value.render()


def _visible_ids(loaded, state, seat) -> set[int]:
    game = loaded.game
    seen = set()
    for zone, piles in state.zones.items():
        for i, pile in enumerate(piles):
            owner = game.pile_owner(state, zone, i)
            seen.update(c for k, c in enumerate(pile)
                        if c is not None and card_visible(game, state, zone, owner, pile, k, seat))
    return seen


def _cards_in(value) -> list[Card]:
    if isinstance(value, Card):
        return [value]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _cards_in(v)]
    return []


@contextlib.contextmanager
def _watching_places(game, passing: list):
    """While the block runs, every card put face up somewhere (one card, or a list by a ``move``
    effect) is added to ``passing`` as (card, zone, owner)."""
    place, place_cards = type(game).place, type(game).place_cards

    def face_up(card_id, target, face):
        if (face or game.zones[target.name].face) == "up":
            passing.append((card_id, target.name, target.owner))

    def placing(state, card_id, target, face, at_bottom, slot=None):
        face_up(card_id, target, face)
        return place(game, state, card_id, target, face, at_bottom, slot)

    def placing_cards(state, cards, target, face, at_bottom, not_a_card):
        for card in cards:
            if isinstance(card, Card):
                face_up(card.id, target, face)
        return place_cards(game, state, cards, target, face, at_bottom, not_a_card)
    game.place, game.place_cards = placing, placing_cards
    try:
        yield
    finally:
        del game.place, game.place_cards


def _random_game(loaded, seed, moves, passing=None):
    """(state before, move, state after) for the first ``moves`` moves of a random game; every
    card put face up somewhere during a move is added to ``passing`` as (card, zone, owner)."""
    rng = random.Random(seed)
    state = loaded.new_state(None, seed)
    with _watching_places(loaded.game, [] if passing is None else passing):
        for _ in range(moves):
            if state.over:
                return
            seats = loaded.acting_seats(state)
            seat = rng.choice(seats)
            move = rng.choice(legal_moves(loaded.game, state, seat))
            before = state.clone()
            if passing is not None:
                passing.clear()
            apply_move(loaded.game, state, move, seat)
            yield before, move, state


def _seen_in_passing(game, passing, seat) -> set[int]:
    """The cards put face up during the move where ``seat`` could see them (a trick's last card)."""
    return {card for card, zone, owner in passing
            if game.zones[zone].visible_to == "all"
            or game.zones[zone].visible_to == "owner" and owner is not None and owner == seat}


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
def test_no_seat_reads_a_card_it_could_not_see_in_anothers_move(path):
    """Every card named in a move as another seat reads it was visible to that seat just before
    the move or just after it: a face-down discard must be private."""
    loaded = load_game(path)
    game = loaded.game
    passing: list = []
    for seed in (1, 2):
        for before, move, after in _random_game(loaded, seed, 150, passing):
            definition = game.moves[move.name]
            for seat in range(after.players):
                if seat == move.seat:
                    continue
                seen = (_visible_ids(loaded, before, seat) | _visible_ids(loaded, after, seat)
                        | _seen_in_passing(game, passing, seat))
                named = [c for p, v in zip(definition.params, move.args) if not p.private for c in _cards_in(v)]
                hidden = [c.label for c in named if c.id not in seen]
                assert not hidden, f"P{seat + 1} reads '{move_text(game, move, seat)}' naming {hidden}"
                for card in _cards_in(move.args):
                    if card.id not in seen:
                        assert card.label not in move_text(game, move, seat).split()


def _swap_hidden(loaded, state, seat, rng):
    """A copy of ``state`` where two cards hidden from ``seat`` (with the same back: the same deck
    and owner) have changed places, each place keeping its face; None when there are none."""
    game = loaded.game
    table = game.card_table(state.players)
    visible = _visible_ids(loaded, state, seat)
    places = [(zone, i, k, c) for zone, piles in state.zones.items() for i, pile in enumerate(piles)
              for k, c in enumerate(pile) if c is not None and c not in visible]
    by_back: dict = {}
    for place in places:
        card = table[place[3]]
        by_back.setdefault((card.attrs.get("deck"), str(card.attrs.get("owner"))), []).append(place)
    groups = [g for g in by_back.values() if len({table[p[3]].label for p in g}) > 1]
    if not groups:
        return None
    group = rng.choice(groups)
    first = rng.choice(group)
    second = rng.choice([p for p in group if table[p[3]].label != table[first[3]].label])
    other = state.clone()
    (z1, i1, k1, a), (z2, i2, k2, b) = first, second
    other.zones[z1][i1][k1], other.zones[z2][i2][k2] = b, a
    a_up, b_up = a in state.face_up, b in state.face_up
    for card, up in ((a, b_up), (b, a_up)):
        (other.face_up.add if up else other.face_up.discard)(card)
    return other


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
def test_a_seats_screen_is_the_same_whatever_it_may_not_see(path):
    loaded = load_game(path)
    if not loaded.game.card_table(loaded.game.default_players):
        pytest.skip("a game without cards hides nothing")
    rng = random.Random(5)
    compared = 0
    for seed in range(3, 23):          # two games, more when a game is short (a hand of two cards)
        if seed > 4 and compared > 10:
            break
        for step, (_, _, state) in enumerate(_random_game(loaded, seed, 200)):
            if step % 7:
                continue
            for seat in range(state.players):
                other = _swap_hidden(loaded, state, seat, rng)
                if other is None:
                    continue
                compared += 1
                view, other_view = loaded.view(state, seat), loaded.view(other, seat)
                assert render_view(other_view) == render_view(view)
                board = Board(seat)
                assert board.table(other_view).plain == board.table(view).plain
                assert board.values(other_view).plain == board.values(view).plain
    assert compared > 10


def test_the_log_each_seat_reads_has_the_others_private_moves_in_public_form():
    from interpreter.play.session import Session
    session = Session(load("schmier"), 6, 5, "random", set())
    while session.state.round < 3 and not session.state.over:
        session.advance(limit=50)
    discards = [e for e in session.log if e.move is not None and "discard" in e.move.name]
    assert len(discards) > 6
    for viewer in range(6):
        for entry in discards:
            text = session.entry_text(entry, viewer)
            if entry.seat == viewer:
                assert text == f"P{viewer + 1}: {session.words.move(entry.move, viewer)}"
                assert all(card_text(c.label) in text for c in entry.move.args[0] if isinstance(c, Card)) \
                    if isinstance(entry.move.args[0], list) else card_text(entry.move.args[0].label) in text
            else:
                args = entry.move.args[0]
                said = "discard a card" if entry.move.name == "dealer_discard" else f"exchange {len(args)} card"
                assert text.startswith(f"P{entry.seat + 1}: {said}")


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
def test_the_hidden_cards_of_a_pile_are_those_card_visible_hides(path):
    """``hidden_in_pile`` works a zone's rules out once for a pile: the same positions as asking
    ``card_visible`` of each card, for every seat and for a spectator, all through random games."""
    loaded = load_game(path)
    chooser = random.Random(7)
    for seed in range(3):
        state = loaded.new_state(None, seed)
        for _ in range(150):
            for name, piles in state.zones.items():
                for i, pile in enumerate(piles):
                    owner = loaded.game.pile_owner(state, name, i)
                    for seat in [None, *range(state.players)]:
                        expected = [k for k, c in enumerate(pile)
                                    if c is not None and not card_visible(loaded.game, state, name, owner, pile, k, seat)]
                        assert hidden_in_pile(loaded.game, state, name, owner, pile, seat) == expected
            if state.over:
                break
            seat = next(iter(loaded.acting_seats(state)), None) if state.current is None else state.current
            if seat is None:
                break
            loaded.apply(state, chooser.choice(loaded.legal_moves(state, seat)), seat)


def _has_private_moves(path) -> bool:
    return any(param.private for move in load_game(path).game.moves.values() for param in move.params)


PRIVATE_GAMES = [path for path in game_files() if _has_private_moves(path)]
SHORT = {"schmier": {"max_deals": "2"}}      # a whole match is long: two deals show every move


def _play_for_a_players_record(path, seed, seat, record):
    """A game with one person (``seat``, playing at random) and random bots, kept as that person's
    record; the labels of every card the seat saw, at any moment of it."""
    from interpreter.play.terminal import open_session
    session = open_session(str(path), SHORT.get(path.stem, {}), None, seed, "random", str(record),
                           lambda players: {seat % players}, full_record=False)
    loaded, game, state = session.loaded, session.game, session.state
    seat = seat % state.players
    table = game.card_table(state.players)
    passing: list = []
    chooser = random.Random(seed)
    seen = set(_visible_ids(loaded, state, seat))
    with _watching_places(game, passing):
        while not state.over:
            if session.human_to_act() is None:
                session.advance(limit=1)
            else:
                session.submit(seat, chooser.choice(session.legal(seat)), 0.0)
            seen |= _visible_ids(loaded, state, seat) | _seen_in_passing(game, passing, seat)
            passing.clear()
    session.close_record()
    return {table[card].label for card in seen}, {card.label for card in table}


@pytest.mark.parametrize("path", PRIVATE_GAMES, ids=lambda p: p.stem)
def test_a_players_record_names_no_card_its_seat_never_saw(path, tmp_path):
    """``--player-record``: the other seats' private moves in the public form the seat read."""
    import json
    public_forms = 0
    for seed in range(12):
        record = tmp_path / f"{seed}.jsonl"
        seen, labels = _play_for_a_players_record(path, seed, seed, record)
        lines = [json.loads(line) for line in record.read_text().splitlines()]
        owner = lines[0]["seat"]
        assert lines[0]["full"] is False and "seed" not in lines[0]
        for line in lines[1:]:
            named = [word for word in line["move"].split() if word in labels]
            unseen = [label for label in named if label not in seen]
            assert not unseen, f"seed {seed}: P{owner + 1}'s record has '{line['move']}' of P{line['seat'] + 1}"
            public_forms += line["seat"] != owner and "(" in line["move"]
    assert public_forms >= 5
