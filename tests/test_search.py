"""The search bot (interpreter/search.py) and the observation-consistent redeal it decides from
(interpreter/determinize.py): suits a seat did not follow, hidden cards it cannot read, budgets."""
from __future__ import annotations

import random

import pytest

from interpreter.api import load_game
from interpreter.bots.agents import make_bot, parse_kind
from interpreter.bots.determinize import sample_state
from interpreter.bots.ops import ReferenceOps
from interpreter.bots.rollout import Rollout, looked_at, played, value_after
from interpreter.bots.search import HORIZON, SearchBot, candidate_count
from interpreter.engine import rng
from interpreter.engine.tricks import known_voids
from interpreter.errors import OptionError, RulesError
from interpreter.play.realtime import Table
from tests.helpers import GAMES, load
from tests.test_tricks import GAME, place, write


@pytest.fixture
def little(tmp_path):
    return load_game(write(tmp_path, GAME))


def after_a_heart_is_not_followed(loaded):
    """P3 leads the 9 of hearts; P4, who holds no heart, plays the 4 of diamonds."""
    state = loaded.new_state(4, 1)
    place(loaded, state, [["5H", "2C"], ["KH", "AD"], ["9H", "3S"], ["4D", "Jk1"]])
    loaded.apply(state, "play 9H")
    loaded.apply(state, "play 4D")
    return state


def test_a_suit_led_and_not_followed_is_a_public_void_for_the_round(little):
    state = after_a_heart_is_not_followed(little)
    assert known_voids(little.game, state) == {3: ["hearts"]}
    little.apply(state, "play 5H")
    little.apply(state, "play KH")                       # P2 wins the trick and leads the next one
    assert known_voids(little.game, state) == {3: ["hearts"]}


def test_without_compulsory_following_nothing_is_inferred_and_any_card_may_be_played(tmp_path):
    loaded = load_game(write(tmp_path, GAME.replace("  rank: 'if", "  must_follow: false\n  rank: 'if")))
    state = loaded.new_state(4, 1)
    place(loaded, state, [["5H", "2C"], ["KH", "AD"], ["9H", "3S"], ["4D", "Jk1"]])
    loaded.apply(state, "play 9H")
    assert [m.text for m in loaded.legal_moves(state)] == ["play 4D", "play Jk1"]
    loaded.apply(state, "play 4D")
    assert [m.text for m in loaded.legal_moves(state)] == ["play 5H", "play 2C"]
    assert known_voids(loaded.game, state) == {}


def test_a_redeal_gives_no_card_of_a_suit_a_seat_did_not_follow(little):
    state = after_a_heart_is_not_followed(little)
    table = little.game.card_table(4)
    hidden = sorted(state.zones["hand"][1] + state.zones["hand"][2] + state.zones["hand"][3]
                    + state.zones["stock"][0])
    fourth, second = [], []
    for seed in range(200):
        sample = sample_state(little.game, state, 0, seed)
        assert sorted(sample.zones["hand"][1] + sample.zones["hand"][2] + sample.zones["hand"][3]
                      + sample.zones["stock"][0]) == hidden
        assert little.view(sample, 0) == little.view(state, 0)
        fourth += [table[c].attrs["suit"] for c in sample.zones["hand"][3]]
        second += [table[c].attrs["suit"] for c in sample.zones["hand"][1]]
    assert "hearts" not in fourth
    assert "hearts" in second                # P2 followed: it may hold hearts, and sometimes does


def twin(loaded, state, seat, seed):
    """The same position as ``seat`` sees it, with every card it cannot see dealt again."""
    other = sample_state(loaded.game, state, seat, seed)
    assert loaded.view(other, seat) == loaded.view(state, seat)
    return other


@pytest.mark.parametrize("name, players, skip", [("schmier", 6, 20), ("gnoming_a_round", 3, 20), ("last_card", 3, 1)])
def test_the_search_bot_decides_the_same_whatever_the_cards_it_cannot_see(name, players, skip):
    loaded = load(name)
    state = loaded.new_state(players, 7)
    walker = rng.seed_state(3)
    choices = 0
    while choices < 3 and not state.over:
        moves = loaded.legal_moves(state)
        if len(moves) > 1 and state.moves >= skip:
            seat = state.current
            other = twin(loaded, state, seat, 11)
            assert other.zones != state.zones or other.rng != state.rng
            first = SearchBot(loaded.game, seat, seed=5, iterations=25).choose(state, moves)
            second = SearchBot(loaded.game, seat, seed=5, iterations=25).choose(other, moves)
            assert first == second
            choices += 1
        pick, walker = rng.below(walker, len(moves))
        loaded.apply(state, moves[pick])
    assert choices == 3


def test_the_search_bot_beats_random_play_at_dice():
    loaded = load("dice_poker")
    wins = 0
    for seed in range(3):
        state = loaded.new_state(2, seed)
        bots = {0: make_bot("search:30", loaded.game, 0, seed), 1: make_bot("random", loaded.game, 1, seed)}
        table = Table(loaded.game, state, bots, seed=seed)
        while not state.over:
            table.next_bot_action()
        wins += loaded.ranking(state)[0] == 1
    assert wins == 3


def test_a_rollout_plays_as_the_greedy_bot_the_move_its_hint_values_most():
    # After the third throw only rows can be written: each move's value is known, no chance.
    loaded = load("dice_poker")
    for seed in range(8):
        state = loaded.new_state(2, seed)
        for _ in range(3):
            throws = [m for m in loaded.legal_moves(state) if m.name in ("throw", "rethrow")]
            loaded.apply(state, throws[-1])         # the first throw, then all five dice again
        moves = loaded.legal_moves(state)
        assert len(moves) >= 6 and {m.name for m in moves} <= {"score", "cross"}
        worth = {m.text: value_after(loaded.game, state, m, state.current, lambda n: 0) for m in moves}
        picked, after = Rollout(loaded.game, make_bot("random", loaded.game, 0, seed).draw)._pick(state, moves)
        assert worth[picked.text] == max(worth.values()), seed
        # the position it looked at the move in, no chance drawn: the one the move leads to
        assert after == played(ReferenceOps(loaded.game), state, picked) and after.rng == state.rng


def test_a_rollout_plays_again_a_move_whose_look_drew_chance():
    loaded = load("dice_poker")
    state = loaded.new_state(2, 0)
    throw = loaded.legal_moves(state)[0]
    value, after = looked_at(ReferenceOps(loaded.game), state, throw, state.current, lambda n: 7)
    assert after is None and value == value_after(loaded.game, state, throw, state.current, lambda n: 7)


def test_a_rollout_plays_its_own_position_on_in_place_in_the_hands_last_phase(little):
    """Where the position before a move is not needed again (no move of the hand's last phase
    begins another phase of it), the rollout plays the move on its own copy: the same position."""
    state = after_a_heart_is_not_followed(little)
    only = little.legal_moves(state)
    assert [m.text for m in only] == ["play 5H"] and state.phase == len(little.game.phases) - 1
    world = state.clone()
    reached = Rollout(little.game, make_bot("random", little.game, 0, 1).draw).play_on(world, state.round, 1)
    assert reached is world and reached == played(ReferenceOps(little.game), state, only[0])


def test_the_games_bot_horizon_sets_how_far_the_search_looks_ahead(tmp_path):
    assert SearchBot(load_game(write(tmp_path, GAME)).game, 0).horizon == HORIZON == 3
    far = load_game(write(tmp_path, GAME + "bot: {horizon: 12}\n"))
    assert SearchBot(far.game, 0).horizon == 12 and SearchBot(far.game, 0, horizon=5).horizon == 5
    # Played to the end of the hand: 8 moves from the first (a trick of 4 cards, twice).
    state = far.new_state(4, 1)
    rollout = Rollout(far.game, make_bot("random", far.game, 0, 1).draw)
    assert rollout.play_on(state.clone(), state.round, 12).over
    assert not rollout.play_on(state.clone(), state.round, 3).over


@pytest.mark.parametrize("horizon, message", [
    ("0", "47:16: error: the number 0 in bot.horizon is not a number of moves from 1 to 1000, or hand"),
    ("deep", "47:16: error: 'deep' in bot.horizon is not a number of moves from 1 to 1000, or hand"),
])
def test_a_bot_horizon_that_is_not_a_count_of_moves_is_refused(tmp_path, horizon, message):
    path = write(tmp_path, GAME + f"bot: {{horizon: {horizon}}}\n")
    with pytest.raises(RulesError) as caught:
        load_game(path)
    assert caught.value.render().splitlines()[0] == f"{path}:{message}"


def test_a_time_budget_gives_a_legal_move():
    loaded = load("last_card")
    state = loaded.new_state(3, 4)
    moves = loaded.legal_moves(state)
    bot = make_bot("search:0.05s", loaded.game, state.current, 1)
    assert bot.seconds == 0.05 and bot.choose(state, moves) in moves


@pytest.mark.parametrize("kind, expected", [
    ("search", ("search", {})),
    ("search:300", ("search", {"iterations": 300})),
    ("search:1.5s", ("search", {"seconds": 1.5})),
    ("greedy", ("greedy", {})),
])
def test_bot_kinds_and_budgets(kind, expected):
    assert parse_kind(kind) == expected


@pytest.mark.parametrize("kind, message, hint", [
    ("serch", "there is no bot kind 'serch'", "did you mean 'search'?"),
    ("greedy:5", "the greedy bot takes no budget: write 'greedy', not 'greedy:5'", None),
    ("search:0", "'search:0' is not a budget the search bot takes",
     "write rollouts (search:200, from 1 to 1000000) or seconds per move (search:1.5s, up to 3600)"),
    ("search:fast", "'search:fast' is not a budget the search bot takes",
     "write rollouts (search:200, from 1 to 1000000) or seconds per move (search:1.5s, up to 3600)"),
    ("search:nans", "'search:nans' is not a budget the search bot takes",
     "write rollouts (search:200, from 1 to 1000000) or seconds per move (search:1.5s, up to 3600)"),
])
def test_a_bad_bot_kind_is_refused_with_a_reason(kind, message, hint):
    with pytest.raises(OptionError) as caught:
        parse_kind(kind)
    assert caught.value.message == message and caught.value.hint == hint


def test_the_search_bot_refuses_a_game_played_without_turns():
    with pytest.raises(OptionError) as caught:
        make_bot("search", load("nerts").game, 0)
    assert caught.value.message == "the search bot plays games with turns; Nerts has free play"
    assert caught.value.hint == "use the priority or greedy bot"


def test_the_command_line_takes_a_search_budget_and_refuses_a_bad_one():
    from click.testing import CliRunner

    from cli import main

    bad = CliRunner().invoke(main, ["play", str(GAMES / "dice_poker.yaml"), "--bot", "search:x"])
    assert bad.exit_code == 2
    assert bad.output.splitlines()[-1] == (
        "Error: Invalid value for '--bot': 'search:x' is not a budget the search bot takes; write rollouts "
        "(search:200, from 1 to 1000000) or seconds per move (search:1.5s, up to 3600)")
    free = CliRunner().invoke(main, ["simulate", str(GAMES / "nerts.yaml"), "-n", "1", "--bots", "search"])
    assert free.exit_code == 2
    assert free.output.splitlines()[-1] == ("Error: the search bot plays games with turns; Nerts has free play; "
                                           "use the priority or greedy bot")
    good = CliRunner().invoke(main, ["simulate", str(GAMES / "dice_poker.yaml"), "-n", "1", "--players", "2",
                                     "--bots", "search:5,random"])
    assert good.exit_code == 0, good.output
    assert "search:5" in good.output


TURN_BASED = sorted(p.stem for p in GAMES.glob("*.yaml") if p.stem != "nerts")


@pytest.mark.parametrize("name", TURN_BASED)
def test_the_search_bot_plays_every_game_with_turns(name):
    loaded = load(name)
    state = loaded.new_state(None, 2)
    bots = {s: SearchBot(loaded.game, s, seed=2, iterations=4) for s in range(state.players)}
    while not state.over and state.moves < 150:
        moves = loaded.legal_moves(state)
        choice = bots[state.current].choose(state, moves)
        assert choice in moves
        loaded.apply(state, choice)
    assert state.over or state.moves == 150


def test_every_bundled_game_but_one_has_turns():
    free = [name for name in sorted(p.stem for p in GAMES.glob("*.yaml"))
            if any(phase.turns is None for phase in load(name).game.phases)]
    assert free == ["nerts"]


def test_every_void_a_trick_game_records_is_true_of_the_real_hands():
    from interpreter.engine.context import Ctx, active
    from interpreter.engine.tricks import suit_of
    from interpreter.engine.values import to_json

    loaded = load("schmier")
    game, checked = loaded.game, 0
    for seed in range(3):
        state = loaded.new_state(6, seed)
        walker = rng.seed_state(seed)
        while not state.over and state.round <= 2:
            table = game.card_table(6)
            with active(game, state):
                for seat, suits in known_voids(game, state).items():
                    held = {to_json(suit_of(Ctx(game, state), table[c])) for c in state.zones["hand"][seat]}
                    assert not held & set(suits)
                    checked += 1
            moves = loaded.legal_moves(state)
            pick, walker = rng.below(walker, len(moves))
            loaded.apply(state, moves[pick])
    assert checked > 50


# One round, a turn each; a move that pays now, and one that pays only on the seat's next move.
PATIENCE = """
name: Patience
players: {min: 2, max: 2, default: 2}
variables:
  seat: {points: 0, planted: false}
flow:
  rounds: 1
  phases:
    - name: turns
      turns: {from: 0, each: once}
      moves: [cash, plant, harvest, take]
moves:
  cash:
    when: not planted and pick != "numbers"
    do: [{add: {points: 3}}, end_turn]
  plant:
    when: not planted and pick != "numbers"
    do: [{set: {planted: true}}]
  harvest:
    when: planted
    do: [{add: {points: 10}}, end_turn]
  take:
    params: {n: {from: '1..10'}}
    when: pick == "numbers"
    do: [{set: {points: n}}, end_turn]
options:
  pick: {type: text, default: "crops", description: which moves the seats have}
scoring: {score: points}
bot: {hint: points}
"""


def test_the_search_plays_the_move_that_pays_later_where_greedy_takes_what_pays_now(tmp_path):
    loaded = load_game(write(tmp_path, PATIENCE))
    state = loaded.new_state(2, 1)
    moves = loaded.legal_moves(state)
    assert [m.text for m in moves] == ["cash", "plant"]
    assert make_bot("greedy", loaded.game, 0, 1).choose(state, moves).text == "cash"
    search = SearchBot(loaded.game, 0, seed=1, iterations=10)
    assert search.choose(state, moves).text == "plant"
    assert {text: arm.mean() for text, arm in search.arms.items()} == {"plant": 10.0, "cash": 3.0}


def test_the_search_halves_its_candidates_and_gives_the_best_the_most_rollouts(tmp_path):
    loaded = load_game(write(tmp_path, PATIENCE), {"pick": "numbers"})
    state = loaded.new_state(2, 1)
    moves = loaded.legal_moves(state)
    search = SearchBot(loaded.game, 0, seed=1, iterations=30)
    assert search.choose(state, moves).text == "take 10"
    # The first look keeps the 8 best of 10 (8 * 3 <= 30 < 9 * 4); 3 rounds of at most 10 rollouts.
    counts = {text: arm.count for text, arm in search.arms.items()}
    assert counts == {"take 10": 8, "take 9": 8, "take 8": 3, "take 7": 3, "take 6": 1, "take 5": 1,
                      "take 4": 1, "take 3": 1, "take 2": 0, "take 1": 0}
    assert search.done == 26


@pytest.mark.parametrize("budget, moves, expected", [
    (1, 5, 2), (10, 32, 4), (30, 10, 8), (50, 32, 12), (200, 32, 32), (200, 3, 3), (100, 2, 2),
])
def test_the_budget_sets_how_many_moves_are_compared(budget, moves, expected):
    assert candidate_count(budget, moves) == expected


# Two names for one move: a die thrown for the points.
TWINS = """
name: Twins
players: {min: 2, max: 2, default: 2}
dice: {count: 1, faces: 6}
variables: {seat: {points: 0}}
flow: {rounds: 1, phases: [{name: turns, turns: {from: 0, each: once}, moves: [left, right]}]}
moves:
  left:
    do: [roll: dice, {set: {points: sum(dice)}}, end_turn]
  right:
    do: [roll: dice, {set: {points: sum(dice)}}, end_turn]
scoring: {score: points}
bot: {hint: points}
"""


def test_every_move_of_a_sweep_meets_the_same_throw(tmp_path):
    loaded = load_game(write(tmp_path, TWINS))
    state = loaded.new_state(2, 1)
    totals = []
    for seed in range(3):
        search = SearchBot(loaded.game, 0, seed=seed, iterations=20)
        search.choose(state, loaded.legal_moves(state))
        left, right = search.arms["left"], search.arms["right"]
        assert left.count == right.count == 10 and left.total == right.total
        totals.append(left.total)
    assert len(set(totals)) == 3            # the throws differ from search to search


def test_a_time_budget_is_counted_in_rollouts_at_the_pace_of_the_first_rollout(monkeypatch):
    # A clock that a first look moves on by 1 s and a rollout by 0.01 s: of a 2 s budget, 0.99 s
    # is left after the first rollout, time for 98 more (the first look sets no rollout's pace).
    from interpreter.bots import search as module

    class Clock:
        now = 0.0

        @classmethod
        def perf_counter(cls):
            return cls.now

    def advancing(method, seconds):
        def run(*args):
            Clock.now += seconds
            return method(*args)
        return run
    monkeypatch.setattr(module, "time", Clock)
    monkeypatch.setattr(SearchBot, "_first_look", advancing(SearchBot._first_look, 1.0))
    monkeypatch.setattr(SearchBot, "_roll", advancing(SearchBot._roll, 0.01))
    loaded = load("dice_poker")
    state = loaded.new_state(2, 6)
    loaded.apply(state, loaded.legal_moves(state)[0])
    timed = SearchBot(loaded.game, state.current, seed=4, seconds=2.0)
    timed.choose(state, loaded.legal_moves(state))
    # 99 rollouts in all: 19 candidates (19 * 5 <= 99), halved in 5 rounds that spend 80 of them.
    assert timed.done == sum(arm.count for arm in timed.arms.values()) == 80


# A promise is valued by what it promises until the work is done: the hint of the first phase
# overrates the largest, which the work cannot keep.
PROMISE = """
name: Promise
players: {min: 2, max: 2, default: 2}
variables:
  seat: {promised: 0, made: 0}
define:
  kept: 'if made >= promised then promised else -promised'
flow:
  rounds: 1
  phases:
    - {name: promise, turns: {from: 0, each: once}, moves: [promise]}
    - {name: work, turns: {from: 0, each: once}, moves: [work]}
moves:
  promise:
    params: {n: {from: '1..3'}}
    do: [{set: {promised: n}}, end_turn]
  work:
    do: [{set: {made: 2}}, end_turn]
scoring: {score: kept}
bot:
  hint: 'if made == 0 then promised else kept'
"""


@pytest.mark.parametrize("bot_settings, picked, means", [
    ("", "promise 3", {"promise 3": 3.0, "promise 2": 2.0, "promise 1": 1.0}),
    ("  horizon: 30\n", "promise 3", {"promise 3": 3.0, "promise 2": 2.0, "promise 1": 1.0}),
    ("  horizon: hand\n", "promise 2", {"promise 3": -3.0, "promise 2": 2.0, "promise 1": 1.0}),
    ("  phase_horizons: {promise: hand}\n", "promise 2", {"promise 3": -3.0, "promise 2": 2.0, "promise 1": 1.0}),
    ("  horizon: hand\n  phase_horizons: {promise: 3}\n", "promise 3", {"promise 3": 3.0, "promise 2": 2.0, "promise 1": 1.0}),
])
def test_a_horizon_of_hand_values_a_decision_by_the_hand_played_out_through_its_phases(tmp_path, bot_settings,
                                                                                        picked, means):
    # A number of moves stops a rollout before the work phase, however large; `hand` plays it.
    loaded = load_game(write(tmp_path, PROMISE + bot_settings))
    state = loaded.new_state(2, 1)
    search = SearchBot(loaded.game, 0, seed=1, iterations=12)
    assert search.choose(state, loaded.legal_moves(state)).text == picked
    assert {text: arm.mean() for text, arm in search.arms.items()} == means


def test_a_horizon_given_to_the_bot_holds_in_every_phase(tmp_path):
    loaded = load_game(write(tmp_path, PROMISE + "  phase_horizons: {promise: hand, work: 2}\n"))
    bot = SearchBot(loaded.game, 0)
    assert (bot.horizon_at(0), bot.horizon_at(1)) == ("hand", 2)
    given = SearchBot(loaded.game, 0, horizon=5)
    assert (given.horizon_at(0), given.horizon_at(1)) == (5, 5)


@pytest.mark.parametrize("settings, message, hint", [
    ("{promis: hand}", "21:20: error: unknown phase 'promis'", "did you mean 'promise'?"),
    ("{bidding: hand}", "21:20: error: unknown phase 'bidding'", "the phases are: promise, work"),
])
def test_a_phase_horizon_names_a_phase_of_the_game(tmp_path, settings, message, hint):
    path = write(tmp_path, PROMISE + f"  phase_horizons: {settings}\n")
    with pytest.raises(RulesError) as caught:
        load_game(path)
    lines = caught.value.render().splitlines()
    assert lines[0] == f"{path}:{message}" and lines[-1].strip() == f"hint: {hint}"


def searched(name: str, players: int, engine: str) -> list:
    """The search bot's choice, its rollouts and each move's mean at the first positions of a
    seeded random game with a choice, searching over ``engine`` (the lean engine's state made
    from the reference's, as a table hands it over)."""
    from interpreter.bots.ops import lean_ops
    from interpreter.lean import lean_game
    loaded = load_game(GAMES / f"{name}.yaml")
    lean = lean_game(loaded) if engine == "lean" else None
    state, choose, found = loaded.new_state(players, 1), random.Random(1), []
    while len(found) < 3 and not state.over:
        moves = loaded.legal_moves(state, state.current)
        if len(moves) > 1:
            bot = SearchBot(loaded.game, state.current, 5, iterations=16)
            if lean is not None:
                world = lean.from_state(state)
                picked = lean.action_text(bot._search(lean_ops(lean), world, lean.legal(world, state.current)))
            else:
                picked = bot._search(ReferenceOps(loaded.game), state.clone(), moves).text
            found.append((picked, bot.done, sorted((text, arm.count, arm.total) for text, arm in bot.arms.items())))
        loaded.apply(state, moves[choose.randrange(len(moves))])
    return found


@pytest.mark.parametrize("name, players", [("dice_poker", 2), ("euchre", 4), ("last_card", 3)])
def test_the_search_bot_decides_the_same_on_every_engine(engine, name, players):
    """The same choices, rollouts and values of every move, to the last bit, as on the reference."""
    decisions = searched(name, players, engine)
    assert len(decisions) == 3 and all(10 <= done <= 16 for _, done, _ in decisions)
    assert decisions == searched(name, players, "reference")
