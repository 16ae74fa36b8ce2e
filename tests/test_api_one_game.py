"""One Python API: every function that takes a game takes what `load_game` returns, and gives
exactly what it gives with the compiled game inside it."""
from __future__ import annotations

from interpreter.api import (
    SearchBot,
    load_game,
    make_bot,
    read_record,
    replay,
    sample_state,
)
from interpreter.engine.actions import ActionSpace


def test_bots_samples_replays_and_action_spaces_take_the_loaded_game(tmp_path):
    from click.testing import CliRunner

    from cli import main
    game = load_game("kuhn_poker")
    state = game.new_state(2, 5)
    moves = game.legal_moves(state, 0)
    for kind in ("random", "greedy", "easy", "search:20"):
        chosen = [make_bot(kind, given, 0, seed=3).choose(state, moves) for given in (game, game.game)]
        assert chosen[0] == chosen[1]
    assert SearchBot(game, 0, 1, iterations=20).choose(state, moves) == \
        SearchBot(game.game, 0, 1, iterations=20).choose(state, moves)
    assert sample_state(game, state, 0, 9) == sample_state(game.game, state, 0, 9)
    assert ActionSpace(game, state).texts == ActionSpace(game.game, state).texts
    record = tmp_path / "g.jsonl"
    played = CliRunner().invoke(main, ["play", "kuhn_poker", "--human", "none", "--seed", "4", "--record", str(record)])
    assert played.exit_code == 0, played.output
    loaded = read_record(str(record))
    assert replay(game, loaded) == replay(game.game, loaded, game.digest())


def test_a_watcher_hears_the_log_lines_and_round_ends_of_its_own_state_only():
    class Heard:
        def __init__(self):
            self.lines, self.rounds = [], []

        def heard(self, text):
            self.lines.append(text)

        def round_ended(self, state):
            self.rounds.append(state.round)

    game = load_game("euchre", {"openspiel": "true"})      # one deal
    state = game.new_state(4, 3)
    state.watcher = watcher = Heard()
    bots = [make_bot("greedy", game, seat, seed=1) for seat in range(4)]   # each tries moves on copies
    while not state.over:
        moves = game.legal_moves(state)
        game.apply(state, bots[moves[0].seat].choose(state, moves))
    assert watcher.lines == ["P1 orders up QH: hearts are trumps.",
                             "P1 made hearts and took 3 of the 5 tricks: the makers score 1."]
    assert watcher.rounds == [1]
    assert state.clone().watcher is None and state.clone() == state
