"""Free play on a clock: bots act at their speed, races go to whoever is first, people's moves are
applied at the moment they are typed, and a fake clock makes a game exactly reproducible."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import main
from interpreter import engine
from interpreter.api import load_game
from interpreter.bots.agents import PriorityBot
from interpreter.errors import RulesError
from interpreter.play.realtime import Table

GRAB = """\
name: Grab
description: Everyone grabs coins from the pot at once; whoever grabs most wins.
players: {min: 2, max: 4}
decks:
  main:
    zone: pot
    cards: [{name: c1}, {name: c2}, {name: c3}, {name: c4}, {name: c5}, {name: c6}]
zones:
  pot: {}
  bag: {per: seat}
flow:
  rounds: 1
  phases:
    - name: grab
      until: pot.empty
      moves: [take, look]
moves:
  take:
    params:
      coin: {from: pot.cards}
    do:
      - move: coin
        to: bag
  look:
    description: Do nothing for a moment.
    do: []
scoring:
  score: bag.size
bot:
  priority: [take, look]
"""


def grab():
    return load_game("grab.yaml", text=GRAB)


def race(speeds, seed=1):
    game = grab()
    state = game.new_state(players=len(speeds), seed=seed)
    bots = {s: PriorityBot(game.game, s, seed) for s in range(len(speeds))}
    table = Table(game.game, state, bots, dict(enumerate(speeds)), seed=seed)
    actions = []
    while not state.over:
        actions.append(table.next_bot_action())
    return game, state, actions


def test_every_seat_may_act_in_free_play():
    game = grab()
    state = game.new_state(players=3)
    assert game.acting_seats(state) == [0, 1, 2]
    assert [m.text for m in game.legal_moves(state, 2)][:2] == ["take c1", "take c2"]


def test_whether_a_seat_may_act_is_settled_by_the_first_move_found_quickest_first():
    # 'look' has no parameter: it is tried before 'take', whose condition fails to evaluate.
    broken = load_game("grab.yaml", text=GRAB.replace("      coin: {from: pot.cards}\n",
                                                      "      coin: {from: pot.cards}\n    when: 1 / (bag.size - bag.size) == 1\n"))
    state = broken.new_state(players=2)
    assert engine.has_move(broken.game, state, 1)
    assert broken.acting_seats(state) == [0, 1]
    with pytest.raises(RulesError, match="division by zero"):
        broken.legal_moves(state, 1)
    state.over = True
    assert not engine.has_move(broken.game, state, 1) and broken.acting_seats(state) == []


def test_the_faster_bot_grabs_more_and_time_orders_the_actions():
    game, state, actions = race([0.5, 2.0])
    assert game.scores(state) == [5, 1]
    times = [a.time for a in actions]
    assert times == sorted(times) and times[0] > 0


def test_the_same_seed_gives_the_same_race_and_another_seed_another():
    first = [(a.seat, a.move.text, a.time) for a in race([1.0, 1.0, 1.0], seed=4)[2]]
    again = [(a.seat, a.move.text, a.time) for a in race([1.0, 1.0, 1.0], seed=4)[2]]
    other = [(a.seat, a.move.text, a.time) for a in race([1.0, 1.0, 1.0], seed=5)[2]]
    assert first == again and first != other


def test_a_persons_move_comes_after_every_bot_action_due_before_it():
    game = grab()
    state = game.new_state(players=2, seed=1)
    table = Table(game.game, state, {1: PriorityBot(game.game, 1, 1)}, {1: 1.0}, seed=1)
    action = table.play(0, "look", when=2.2)
    assert action.time == 2.2 and table.now == 2.2
    assert len(state.zones["bag"][1]) == 2 and state.moves == 3     # the bot took two coins before


def _play(args, typed):
    return CliRunner().invoke(main, ["play", "grab.yaml", *args], input=typed)


def test_a_move_that_lost_its_race_is_refused_and_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "grab.yaml").write_text(GRAB)
    result = _play(["-p", "2", "--bot", "priority", "--bot-speed", "1", "--fake-clock", "1.5",
                    "--seed", "2", "--record", "grab.jsonl"], "take c5\ntake c2\n")
    assert result.exit_code == 1, result.output         # the input ends before the game does
    # P1 types 'take c5' at 1.5 s, but P2's bot took it at about 1 s; at 3 s P1 takes c2.
    assert "P1> P2: take c5\ntoo slow: P2 played 'take c5' 0.6 s earlier\n== Grab" in result.output
    assert "P1> P2: take c1\nP2: take c6\nP1: take c2\n" in result.output
    lines = [json.loads(line) for line in (tmp_path / "grab.jsonl").read_text().splitlines()]
    assert [(m["seat"], m["move"]) for m in lines[1:]] == [(1, "take c5"), (1, "take c1"), (1, "take c6"),
                                                           (0, "take c2")]
    assert lines[1]["t"] < 1.5 and lines[4]["t"] == 3.0

    replayed = CliRunner().invoke(main, ["replay", "grab.jsonl"])
    assert replayed.exit_code == 0, replayed.output


def test_the_fake_clock_makes_a_game_with_a_person_reproducible(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "grab.yaml").write_text(GRAB)
    args = ["-p", "3", "--bot", "random", "--bot-speed", "0.7", "--fake-clock", "1", "--seed", "9"]
    typed = "take c3\ntake c4\ntake c5\n\n\n\n"
    first, second = _play(args, typed), _play(args, typed)
    assert first.exit_code == 0 and first.output == second.output


def test_the_priority_bot_prefers_the_first_kind_of_move_it_can_play():
    game = grab()
    state = game.new_state(players=2, seed=1)
    bot = PriorityBot(game.game, 0, 3)
    assert bot.choose(state, game.legal_moves(state, 0)).name == "take"
