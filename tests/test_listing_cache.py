"""Each seat's legal moves kept while nothing they read changes (engine/listing_cache.py, with the
reads worked out by engine/reads.py) give exactly the games played without it: every bundled
game and every scenario file, played with the cache used for every listing and without it."""
from __future__ import annotations

import functools
import random

import pytest

from interpreter import engine
from interpreter.api import load_game
from interpreter.bots.agents import make_bot
from interpreter.engine import listing_cache
from interpreter.engine.listing_cache import same_value
from interpreter.engine.reads import move_reads
from interpreter.play.realtime import Table
from interpreter.tools.scenario_context import GameLoader
from interpreter.tools.scenarios import scenarios_in_file, scenarios_in_game
from tests import helpers
from tests.helpers import GAMES, ROOT, game_files
from tests.test_differential import SCENARIO_FILES, outcome

FLOOR = ROOT / "benchmarks" / "floor.yaml"
PLAYS = {"nerts": (3, 80), "schmier": (2, 200), "gnoming_a_round": (2, 150), "gnoming_a_round_two_players": (2, 150),
         "floor": (1, 150), "dice_poker": (3, 200)}
DEFAULT_PLAYS = (4, 300)


@functools.lru_cache(maxsize=None)
def load(name: str, **options: str):
    return helpers.load(name, **options)


def under(mode: str, run):
    """``run()``'s outcome with the cache in ``mode``."""
    with listing_cache.mode(mode):
        return outcome(run)


def listed(game, state, seat) -> list:
    return [(m.seat, m.name, m.args, m.text) for m in engine.legal_moves(game, state, seat)]


def lockstep(game, players: int | None, seed: int, most: int) -> int:
    """One game played twice from the same seed, without the cache and with it for every
    listing, the same random choice each move; everything compared at each step."""
    made = [under(mode, lambda: engine.new_state(game, players, seed)) for mode in ("off", "all")]
    assert made[0][0] == made[1][0] == "value"
    states = [made[0][1], made[1][1]]
    choose = random.Random(seed)
    for _ in range(most):
        assert states[0].to_json() == states[1].to_json()
        seats = [under(mode, lambda s=s: engine.acting_seats(game, s)) for mode, s in zip(("off", "all"), states)]
        assert seats[0] == seats[1]
        if seats[0][0] != "value" or not seats[0][1]:
            break
        # Every seat, acting or not, in an order of its own: a seat's listing may be asked for in any order.
        order = list(range(states[0].players))
        choose.shuffle(order)
        for seat in order:
            found = [under(mode, lambda s=s: listed(game, s, seat)) for mode, s in zip(("off", "all"), states)]
            assert found[0] == found[1]
        seat = choose.choice(seats[0][1])
        moves = under("off", lambda: engine.legal_moves(game, states[0], seat))[1]
        if not moves:
            break
        pick = choose.randrange(len(moves))
        applied = [under(mode, lambda s=s: engine.apply_move(game, s, moves[pick].text, seat).text)
                   for mode, s in zip(("off", "all"), states)]
        assert applied[0] == applied[1]
        if applied[0][0] != "value":
            break
    assert states[0].to_json() == states[1].to_json()
    for operation in (engine.scores, engine.results, engine.ranking):
        assert outcome(lambda: operation(game, states[0])) == outcome(lambda: operation(game, states[1]))
    return states[0].moves


@pytest.mark.parametrize("path", game_files() + [FLOOR], ids=lambda p: p.stem)
def test_every_game_plays_the_same_with_and_without_the_cache(path):
    game = load_game(path).game
    seeds, most = PLAYS.get(path.stem, DEFAULT_PLAYS)
    counts = list(range(game.min_players, max(game.min_players, min(game.max_players, 4)) + 1))
    played = [lockstep(game, counts[seed % len(counts)], seed, most) for seed in range(seeds)]
    assert all(moves >= 2 for moves in played)


def table_game(loaded, players: int, seed: int, most: int) -> tuple:
    """A free-play game driven as ``rules simulate`` drives it (random bots on the table's clock):
    every action, the last state and the scores."""
    state = loaded.new_state(players, seed)
    bots = {seat: make_bot("random", loaded.game, seat, seed) for seat in range(players)}
    table = Table(loaded.game, state, bots, seed=seed)
    actions = []
    while not state.over and state.moves < most:
        action = table.next_bot_action()
        actions.append((action.seat, action.move.text, action.time))
    return actions, state.to_json(), loaded.scores(state) if state.over else None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nerts_on_the_table_plays_the_same_with_and_without_the_cache(players):
    loaded = load("nerts", target=1)
    played = [under(mode, lambda: table_game(loaded, players, players, 300)) for mode in ("off", "free")]
    assert played[0][0] == "value" and len(played[0][1][0]) == 300
    assert played[0] == played[1]


def test_a_whole_nerts_hand_plays_the_same_with_and_without_the_cache():
    loaded = load("nerts", target=1)
    played = [under(mode, lambda: table_game(loaded, 2, 1, 10_000)) for mode in ("off", "free")]
    assert played[0][0] == "value" and played[0][1][2] is not None      # the game ended: it was scored
    assert played[0] == played[1]


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.name)
def test_every_scenario_walks_the_same_with_and_without_the_cache(path):
    games = GameLoader(GAMES / f"{path.stem}.yaml")
    scenarios = scenarios_in_game(games) + scenarios_in_file(path, games)
    records = [under(mode, lambda: [(s.name, walked(s)) for s in scenarios]) for mode in ("off", "all")]
    assert records[0][0] == "value" and len(records[0][1]) > 20
    assert records[0] == records[1]


# ------------------------------------------------------------------------------------ the reads

def test_the_reads_of_nerts_moves_are_their_seats_piles_and_the_foundations():
    reads = move_reads(load("nerts").game)
    own = [("pile", zone, "me") for zone in ("nerts", "waste", "work")]
    assert reads["shift"] == {("pile", "work", "me")}
    assert reads["turn"] == {("pile", "stock", "me")}
    assert reads["nerts"] == {("pile", "nerts", "me")}
    assert reads["recycle"] == {("pile", "stock", "me"), ("pile", "waste", "me")}
    assert reads["play"] == reads["fill"] == reads["slide"] == reads["start"] == set(own)
    assert reads["build"] == set(own) | {("pile", "foundations", None), ("var", "declared")}
    assert reads["rotate"] == set(own) | {("pile", "foundations", None), ("var", "declared"),
                                          ("pile", "stock", "me"), ("seatvar", "idle", "me")}


def test_options_decide_the_reads():
    # With jokers, a run may end on a joker: shift looks at the Nerts and waste tops too (run_from).
    assert move_reads(load("nerts", jokers="true").game)["shift"] == {
        ("pile", zone, "me") for zone in ("nerts", "waste", "work")}
    # In partnerships a seat plays its layout's piles: another seat's, as far as the walk can tell.
    assert move_reads(load("nerts", partnerships="true").game)["turn"] == {("pile", "stock", "any")}


def test_a_move_reading_what_the_walk_cannot_bound_is_never_kept():
    reads = move_reads(load("schmier").game)
    assert reads["play"] is None                            # the tricks' names read the whole table
    assert reads["bid"] == {("var", "high_bid")}


# ------------------------------------------------------------------------------------ refreshing

def _nerts_state(seed: int = 0):
    loaded = load("nerts")
    return loaded, loaded.new_state(3, seed)


def test_a_change_to_a_pile_a_seat_reads_refreshes_its_listing():
    loaded, state = _nerts_state()
    game = loaded.game
    before = listed(game, state, 0)
    cache = state.listings.seats[0]
    assert set(cache.entries) == set(game.phases[0].moves)
    # P1's waste gets the ace of spades from P1's own stock, written straight into the state.
    table = game.card_table(3)
    ace = next(c for c in state.zones["stock"][0] if table[c].label == "AS")
    state.zones["stock"][0].remove(ace)
    state.zones["waste"][0].append(ace)
    after = listed(game, state, 0)
    assert ("start AS" in [m[3] for m in after]) and "start AS" not in [m[3] for m in before]
    assert after == under("off", lambda: listed(game, state, 0))[1]
    # Only the moves that read the stock or the waste were listed again: shift kept its moves.
    assert cache.get("shift", False) is not None


def test_a_change_to_another_seats_pile_keeps_the_listing():
    loaded, state = _nerts_state()
    game = loaded.game
    listed(game, state, 0)
    kept = dict(state.listings.seats[0].entries)
    state.zones["waste"][1].append(state.zones["stock"][1].pop())     # P2 turns a card
    listed(game, state, 0)
    assert state.listings.seats[0].entries == kept


def test_a_seat_variable_read_by_a_move_refreshes_it():
    loaded, state = _nerts_state()
    game = loaded.game
    listed(game, state, 0)
    cache = state.listings.seats[0]
    rotate, shift = cache.entries["rotate"], cache.entries["shift"]
    state.seat_vars[0]["idle"] = 1
    listed(game, state, 1)
    assert cache.entries["rotate"] is rotate              # P2's listing leaves P1's alone
    assert listed(game, state, 0) == under("off", lambda: listed(game, state, 0))[1]
    assert cache.entries["rotate"] is not rotate and cache.entries["shift"] is shift


def test_a_value_equal_but_of_another_type_refreshes_the_listing():
    # Every part compares equal by ``==`` (0 == 0.0): the parts compared strictly are compared again.
    loaded, state = _nerts_state()
    game = loaded.game
    listed(game, state, 0)
    cache = state.listings.seats[0]
    assert cache.seen
    rotate, shift = cache.entries["rotate"], cache.entries["shift"]
    state.seat_vars[0]["idle"] = 0.0
    assert listed(game, state, 0) == under("off", lambda: listed(game, state, 0))[1]
    assert cache.entries["rotate"] is not rotate and cache.entries["shift"] is shift


def test_the_acting_seat_listed_right_after_acting_seats_gets_the_same_moves():
    from interpreter.engine.legal import legal_moves_as_asked
    loaded, state = _nerts_state(1)
    game = loaded.game
    choose = random.Random(1)
    for _ in range(60):
        seats = engine.acting_seats(game, state)
        seat = choose.choice(seats)
        moves = legal_moves_as_asked(game, state, seat)
        assert [(m.seat, m.text) for m in moves] == [(m.seat, m.text) for m in
                                                     under("off", lambda: engine.legal_moves(game, state, seat))[1]]
        engine.apply_move(game, state, choose.choice(moves), seat)


def test_the_cache_is_the_states_own():
    import copy
    import pickle
    loaded, state = _nerts_state()
    moves = listed(loaded.game, state, 0)
    for other in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert other.listings is None and other == state
        assert listed(loaded.game, other, 0) == moves


def test_stored_values_are_the_same_only_when_equal_and_of_the_same_types():
    assert same_value({"a": [1, 2]}, {"a": [1, 2]})
    assert not same_value(1, True) and not same_value(1, 1.0) and not same_value([1], [True])
    assert not same_value({"a": 1, "b": 2}, {"b": 2, "a": 1})      # the order of a map's keys shows
    from interpreter.engine.values import ZoneRef
    assert not same_value(ZoneRef("work", 0, 1), ZoneRef("work", 0, 1, numbered=True))


BRITTLE = """
name: Brittle
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  pile: {}
  hand: {per: seat}
setup:
  - shuffle: stock
  - deal: 4
    from: stock
    to: hand
flow:
  rounds: 1
  phases:
    - name: race
      moves: [drop]
moves:
  drop:
    params:
      card: {from: hand.cards}
    when: 12 // (hand.size - 2) > card.rank
    do:
      - move: card
        to: pile
scoring:
  score: 0
"""


def test_a_listing_that_fails_fails_the_same_way_with_the_cache(tmp_path):
    path = tmp_path / "brittle.yaml"
    path.write_text(BRITTLE)
    game = load_game(path).game
    ended = []
    for seed in range(6):
        lockstep(game, None, seed, 50)
        ended.append(under("free", lambda: _to_the_end(game, seed)))
        assert ended[-1] == under("off", lambda: _to_the_end(game, seed))
    assert any(e[0] == "error" and e[2] == "division by zero" and e[4].endswith(":24:11") for e in ended)


def _to_the_end(game, seed: int) -> list:
    state = engine.new_state(game, None, seed)
    while not state.over:
        seats = engine.acting_seats(game, state)
        if not seats:
            break
        moves = engine.legal_moves(game, state, seats[seed % len(seats)])
        engine.apply_move(game, state, moves[seed % len(moves)])
    return engine.scores(game, state)


def walked(scenario) -> list:
    """A scenario walked step by step: the state, legal moves and checks' values after each."""
    start = scenario.start
    made = outcome(lambda: engine.new_state(scenario.game.game, scenario.players, scenario.seed,
                                            stack=start.stack or None))
    if made[0] != "value":
        return [made]
    state, record = made[1], []
    for change in start.changes:
        record.append(outcome(lambda change=change: change(state)))
    if start.rolls:
        state.presets = engine.core.Presets(rolls=[list(r) for r in start.rolls])
    loaded = scenario.game
    for step in scenario.steps:
        record.append(outcome(lambda: [m.text for m in loaded.legal_moves(state, step.seat)]))
        if step.kind == "expect":
            record.append([outcome(lambda c=c: c.actual(state)) for c in step.checks])
        else:
            record.append(outcome(lambda step=step: loaded.apply(state, step.text, step.seat).text))
        record.append(state.to_json())
    return record
