"""What crosses each seat's socket: its own view and nothing else. Two seats and a spectator of
a real server on a loopback port play whole games; every view received is the engine's view of
that seat in that position, and no card a seat never saw, nor the seed, is ever in its messages
(other seats' private moves arrive in public form only)."""
from __future__ import annotations

import json
import re

import pytest

from tests.serve_client import Client
from interpreter.engine import apply_move, new_state
from interpreter.engine.views import card_visible, move_text, view
from interpreter.play.serve.registry import Tables
from interpreter.play.serve.runner import ServerThread

from tests.helpers import GAMES

SEED = 918273645
MAX_PEOPLE_MOVES = 160


def positions(table):
    """Every position of the game so far: the state after each action (the first: the deal)."""
    game = table.session.game
    state = new_state(game, table.session.players, SEED)
    yield 0, state.clone()
    for count, (_, action) in enumerate(table.history, start=1):
        apply_move(game, state, action.move.text, action.seat)
        yield count, state.clone()


def seen_by_position(table, states, seat):
    """For each position (by its number of actions): every card label ``seat`` could see in it or
    before it, or read in the public form of a move made so far."""
    game = table.session.game
    cards = game.card_table(table.session.players)
    seen, by_count = set(), {}
    moves = [None] + [action for _, action in table.history]
    for count, state in states.items():
        for zone, piles in state.zones.items():
            for i, pile in enumerate(piles):
                for k, card in enumerate(pile):
                    if card is not None and card_visible(game, state, zone, game.pile_owner(state, zone, i), pile, k, seat):
                        seen.add(cards[card].label)
        if moves[count] is not None:
            seen.update(words(move_text(game, moves[count].move, seat)))
        by_count[count] = set(seen)
    return by_count


def words(text):
    return set(re.findall(r"[A-Za-z0-9]+", text))


def play(table, server, people):
    clients = {seat: Client(server, table, table.tokens.token(seat)) for seat in people}
    watcher = Client(server, table)
    for _ in range(MAX_PEOPLE_MOVES):
        state = table.session.state
        if state.over:
            break
        client = clients[state.current]
        before = client.state["version"]
        client.move(client.state["view"]["moves"][0])
        reply = client.wait(lambda m: m["type"] == "refused" or (m["type"] == "state" and m["version"] > before))
        assert reply["type"] == "state", reply
        for other in [*clients.values(), watcher]:
            other.wait_version(reply["version"])
    return clients, watcher


def checked_states(client, seat, game, states, action_count):
    """Each state message the client got, with the number of actions it follows, once its view
    is checked to be the engine's view of that position for that seat."""
    for raw in client.raw:
        message = json.loads(raw)
        if message["type"] != "state":
            continue
        count = max([c for v, c in action_count.items() if v <= message["version"]], default=0)
        expected = json.loads(json.dumps(view(game, states[count], seat)))
        expected.setdefault("moves", [])        # a spectator's: always none
        assert message["view"] == expected
        yield message, count


@pytest.mark.parametrize("name, players", [("schmier", 6), ("last_card", 3)])
def test_nothing_a_seat_may_not_see_crosses_its_socket(name, players):
    tables = Tables()
    table = tables.create(str(GAMES / f"{name}.yaml"), players=players, bots=set(range(2, players)),
                          bot_kind="random", seed=SEED, fake_clock=0.25)
    with ServerThread(tables, rate=1000, burst=1000) as server:     # the test plays fast
        clients, watcher = play(table, server, [0, 1])
        game = table.session.game
        states = dict(positions(table))
        action_count = {version: count for count, (version, _) in enumerate(table.history, start=1)}
        checked = 0
        for seat, client in [*clients.items(), (None, watcher)]:
            assert not any(str(SEED) in raw for raw in client.raw)
            checked += sum(1 for _ in checked_states(client, seat, game, states, action_count))
            if seat is None:
                continue
            labels = {card.label for card in game.card_table(players)}
            seen = seen_by_position(table, states, seat)
            unseen_somewhere = 0
            for raw in client.raw:
                message = json.loads(raw)
                if message["type"] == "welcome":      # the game's words, the same for every seat
                    assert {**message, "seat": None} == table.welcome(None)
                    continue
                count = max([c for v, c in action_count.items() if v <= message.get("version", -1)], default=0)
                hidden = labels - seen[count]
                unseen_somewhere += bool(hidden)
                assert words(raw) & hidden == set()
            assert unseen_somewhere > 20, "nearly every card was seen: the check would prove little"
        assert checked > 50
        for client in [*clients.values(), watcher]:
            client.close()


def test_no_die_under_another_seats_cup_crosses_its_socket():
    """Dice per seat: every view a seat receives is the engine's view of it (its own cup, the
    others' dice ``null`` until a call lifts them), and ``last_dice`` is the cups of the hand
    last ended, as they were lifted."""
    tables = Tables()
    table = tables.create(str(GAMES / "liars_dice.yaml"), players=3, bots={2}, bot_kind="random", seed=SEED,
                          fake_clock=0.25)
    with ServerThread(tables, rate=1000, burst=1000) as server:
        clients, watcher = play(table, server, [0, 1])
        game = table.session.game
        states = dict(positions(table))
        action_count = {version: count for count, (version, _) in enumerate(table.history, start=1)}
        # The actions that ended a hand (a call): the cups are those of the position before it.
        ended = [c for c in range(1, len(states))
                 if states[c].round > states[c - 1].round or (states[c].over and not states[c - 1].over)]
        assert ended, "no call was made: the check would prove little"
        lifted = 0
        for seat, client in [*clients.items(), (None, watcher)]:
            for message, count in checked_states(client, seat, game, states, action_count):
                unseen = [cup for owner, cup in enumerate(message["view"]["dice"]) if owner != seat]
                assert message["view"]["over"] or any(None in cup for cup in unseen)
                last = [c for c in ended if c <= count]
                if not last:
                    assert message["last_dice"] is None
                    continue
                before = states[last[-1] - 1]
                assert message["last_dice"] == {"round": before.round, "dice": before.dice}
                lifted += 1
        assert lifted > 3
        for client in [*clients.values(), watcher]:
            client.close()
