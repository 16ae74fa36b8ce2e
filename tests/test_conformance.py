"""The same checks for every bundled game (after OpenSpiel's basic tests): random games end
without error; states round-trip through JSON; clones equal their originals; legal moves are
sorted and unique; an illegal move changes nothing; the same seed gives the same game."""
from __future__ import annotations

import json
import os

import pytest

from interpreter.api import load_game
from interpreter.bots.agents import RandomBot
from interpreter.engine.moves import Move
from interpreter.errors import IllegalMove
from interpreter.play.realtime import Table
from tests.helpers import game_files

GAMES_PER_FILE = 200
DEEP_CHECKED_GAMES = 5      # every state of these games gets the expensive checks
# A random game of these takes seconds, not milliseconds: the suite plays fewer, shorter ones so
# that it stays within minutes. RULES_CONFORMANCE_FULL=1 plays GAMES_PER_FILE of every game.
# Random players seldom knock at gin rummy: a match of void hands runs to thousands of moves.
SHORTER = {"nerts": ({"target": "1"}, 6), "schmier": ({"max_deals": "3"}, 50), "gin_rummy": ({"openspiel": "true"}, 50)}
FULL = os.environ.get("RULES_CONFORMANCE_FULL") == "1"
# A stop by a limit some random games meet (else none is allowed): Schmier's random bidders seldom
# reach 21, so its matches may run to the deal cap (3 here; the engine's 1000 rounds in a full run).
ALLOWED_STOP = {"schmier": f"stopped after {1000 if FULL else 3} rounds (the game's max_rounds)"}


@pytest.fixture(scope="module", params=game_files(), ids=lambda p: p.stem)
def loaded(request):
    options, _ = SHORTER.get(request.param.stem, ({}, GAMES_PER_FILE))
    return load_game(request.param, {} if FULL else options)


def games_for(loaded) -> int:
    stem = loaded.spec.file.rsplit("/", 1)[-1].removesuffix(".yaml")
    return GAMES_PER_FILE if FULL else SHORTER.get(stem, ({}, GAMES_PER_FILE))[1]


class CheckingBot(RandomBot):
    """A random bot that first runs the expensive checks on the state it is shown."""

    def __init__(self, loaded, seat, seed, deep):
        super().__init__(loaded.game, seat, seed)
        self.loaded, self.deep = loaded, deep

    def choose(self, state, moves):
        assert moves, f"seat {self.seat} is to act but has no legal move"
        if self.deep:
            check_state(self.loaded, state, moves)
        return super().choose(state, moves)


def play_out(loaded, players, seed, deep=False):
    """A game between random bots on the engine's clock (turns, or free play by speed)."""
    state = loaded.new_state(players, seed)
    table = Table(loaded.game, state, {s: CheckingBot(loaded, s, seed, deep) for s in range(players)}, seed=seed)
    texts = []
    while not state.over:
        action = table.next_bot_action()
        texts.append(f"P{action.seat + 1} {action.move.text}")
    return state, texts


def check_state(loaded, state, moves):
    keys = [m.text for m in moves]
    assert len(keys) == len(set(keys)), "legal moves repeat"
    order = [loaded.game.phases[state.phase].moves.index(m.name) for m in moves]
    assert order == sorted(order), "moves are not in the order of the phase's move list"
    assert [m.text for m in loaded.legal_moves(state, moves[0].seat)] == keys, "legal moves are not stable"
    data = json.loads(json.dumps(state.to_json()))
    again = loaded.state_from_json(data)
    assert again.to_json() == state.to_json()
    assert again == state and state.clone() == state
    assert [m.text for m in loaded.legal_moves(again, moves[0].seat)] == keys
    before = state.to_json()
    with pytest.raises(IllegalMove):
        loaded.apply(state, Move(moves[0].seat, "no_such_move", (), "no such move"))
    with pytest.raises(IllegalMove):
        loaded.apply(state, "zzz not a move")
    assert state.to_json() == before


def test_random_games_end_cleanly(loaded):
    low, high = loaded.game.min_players, loaded.game.max_players
    for seed in range(games_for(loaded)):
        players = low + seed % (high - low + 1)
        state, _ = play_out(loaded, players, seed, deep=seed < DEEP_CHECKED_GAMES)
        allowed = ALLOWED_STOP.get(loaded.spec.file.rsplit("/", 1)[-1].removesuffix(".yaml"))
        assert state.over and state.stop_reason in (None, allowed)
        assert len(loaded.scores(state)) == players
        places = loaded.ranking(state)
        assert min(places) == 1 and all(1 <= p <= players for p in places)


def test_the_same_seed_gives_the_same_game(loaded):
    players = loaded.game.default_players
    first, moves_a = play_out(loaded, players, 1234)
    second, moves_b = play_out(loaded, players, 1234)
    assert moves_a == moves_b and first == second
    _, moves_c = play_out(loaded, players, 4321)
    assert moves_c != moves_a


def test_views_are_plain_json_data(loaded):
    state = loaded.new_state(loaded.game.default_players, 9)
    for seat in range(state.players):
        view = loaded.view(state, seat)
        assert json.loads(json.dumps(view)) == view
