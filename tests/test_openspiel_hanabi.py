"""Hanabi (games/hanabi.yaml with `openspiel=true`) played move for move beside OpenSpiel's hanabi
(the Hanabi Learning Environment, needs the [openspiel] extra).

Each game is first played through OpenSpiel, its chance outcomes (one per card dealt or drawn,
"(Deal R1)") sampled and its decisions picked by a policy that plays long games (half the time it
plays a card that fits, read from what the next player sees, so that the deck often runs out and
small fireworks get completed, besides games lost by their last fuse). The cards OpenSpiel dealt, in order, are then stacked on our
deck (``new_state(stack=...)``) and the game is played again through both: at every decision the
same player to act, the same legal moves in the same order (OpenSpiel's actions in our notation:
"(Play 0)" is `play 1`, "(Discard 2)" is `discard 3`, "(Reveal player +1 color Y)" is
`tell_colour P2 yellow` from P1, "(Reveal player +1 rank 3)" is `tell_rank P2 3`), the same
hands, tokens and fireworks, and the same knowledge of each player's own cards (OpenSpiel's
observation "X3"/"RX" against our `told` line "?3"/"R?"), each player's own hand hidden from
them; at the end the same returns (every player's return is the shared score, 0 once the last
life token is lost). HANABI_GAMES=2000 plays more games per test, by hand."""
from __future__ import annotations

import os
import random

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("HANABI_GAMES", "25"))
COLOURS = {"R": "red", "Y": "yellow", "G": "green", "W": "white", "B": "blue"}
TABLES = [                              # OpenSpiel's parameters; the defaults first
    {},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 2, "colors": 3, "ranks": 3, "hand_size": 3, "max_information_tokens": 3, "max_life_tokens": 1},
    {"players": 3, "colors": 2, "ranks": 4, "hand_size": 2, "max_information_tokens": 5, "max_life_tokens": 2},
    {"players": 2, "colors": 5, "ranks": 2, "hand_size": 4},
    {"players": 2, "colors": 4, "ranks": 1, "hand_size": 3, "max_information_tokens": 1},
]


def our_text(theirs, action: int) -> str:
    """One of OpenSpiel's actions, by the player to act, as our move's text."""
    words = theirs.action_to_string(theirs.current_player(), action).strip("()").split()
    if words[0] in ("Play", "Discard"):
        return f"{words[0].lower()} {int(words[1]) + 1}"
    target = (theirs.current_player() + int(words[2])) % theirs.num_players()
    if words[3] == "color":
        return f"tell_colour P{target + 1} {COLOURS[words[4]]}"
    return f"tell_rank P{target + 1} {words[4]}"


def observed(theirs, seat: int) -> dict:
    """What OpenSpiel shows a player: tokens, fireworks, and each hand from the player's own on,
    as (card, knowledge) pairs: ('XX', 'X3') for a card of its own that it was told is a 3."""
    lines = theirs.observation_string(seat).splitlines()
    seen: dict = {"hands": [[]]}
    for line in lines:
        if line.startswith("Life tokens:"):
            seen["fuses"] = int(line.split(":")[1])
        elif line.startswith("Info tokens:"):
            seen["info"] = int(line.split(":")[1])
        elif line.startswith("Fireworks:"):
            seen["fireworks"] = {COLOURS[f[0]]: int(f[1:]) for f in line.split(":")[1].split()}
        elif line == "-----":
            seen["hands"].append([])
        elif " || " in line:
            card, knowledge = line.split(" || ")
            seen["hands"][-1].append((card, knowledge.split("|")[0]))
    return seen


def options_of(params: dict) -> dict:
    return {"openspiel": "true", **{k: str(v) for k, v in params.items() if k != "players"}}


def policy(theirs, choose: random.Random) -> int:
    """A decision that keeps games long: a card that fits (read from what the next player sees of
    the hand to act) half the time, else mostly a discard or a hint, sometimes any legal action."""
    legal = theirs.legal_actions()
    texts = {our_text(theirs, a): a for a in legal}
    seat, players = theirs.current_player(), theirs.num_players()
    seen = observed(theirs, (seat + 1) % players)
    hand = [card for card, _ in seen["hands"][players - 1]]
    fitting = [f"play {i + 1}" for i, card in enumerate(hand)
               if int(card[1]) == seen["fireworks"][COLOURS[card[0]]] + 1]
    if fitting and choose.random() < 0.5:
        return texts[choose.choice(fitting)]
    careful = [a for t, a in texts.items() if not t.startswith("play")]
    if careful and choose.random() < 0.9:
        return choose.choice(careful)
    return choose.choice(legal)


def play_in_openspiel(game, choose: random.Random) -> tuple[list[str], list[int]]:
    """One game played through OpenSpiel alone: the cards dealt (our labels, in order) and the
    decisions."""
    theirs, dealt, decisions = game.new_initial_state(), [], []
    while not theirs.is_terminal():
        if theirs.is_chance_node():
            actions, weights = zip(*theirs.chance_outcomes())
            action = choose.choices(actions, weights)[0]
            dealt.append(theirs.action_to_string(action).strip("()").split()[1])
        else:
            action = policy(theirs, choose)
            decisions.append(action)
        theirs.apply_action(action)
    return dealt, decisions


def check_position(ours, state, theirs) -> None:
    """The same tokens, fireworks, hands and knowledge in both, as each player sees them."""
    players = state.players
    table = ours.game.card_table(players)
    for seat in range(players):
        seen = observed(theirs, seat)
        view = ours.view(state, seat)
        assert state.vars["info_left"] == seen["info"] and state.vars["fuses_left"] == seen["fuses"]
        assert {k: state.vars["heights"][k] for k in seen["fireworks"]} == seen["fireworks"]
        told = view["shown"]["seat"]["told"]
        for k in range(players):
            owner = (seat + k) % players
            cards = [card for card, _ in seen["hands"][k]]
            ours_cards = view["zones"]["hand"][owner]
            if owner == seat:
                assert ours_cards == [None] * len(cards) and set(cards) <= {"XX"}
            else:
                assert ours_cards == cards == [table[c].label for c in state.zones["hand"][owner]]
            assert [t.replace("?", "X") for t in told[owner]] == [kn for _, kn in seen["hands"][k]]


def play_side_by_side(ours, game, players: int, dealt: list[str], decisions: list[int]):
    """The game played again through both, OpenSpiel's deals stacked on our deck (and its chance
    nodes given the same cards); both final states."""
    state = ours.new_state(players, 0, stack={"stock": dealt})
    theirs = game.new_initial_state()
    deals = iter(dealt)
    for done, action in enumerate(decisions):
        while theirs.is_chance_node():
            card = f"(Deal {next(deals)})"
            theirs.apply_action(next(a for a, _ in theirs.chance_outcomes() if theirs.action_to_string(a) == card))
        assert not state.over
        seat = theirs.current_player()
        assert state.current == seat, (done, theirs.history())
        check_position(ours, state, theirs)
        expected = [our_text(theirs, a) for a in theirs.legal_actions()]
        assert [m.text for m in ours.legal_moves(state, seat)] == expected, (done, theirs.history())
        ours.apply(state, our_text(theirs, action), seat)
        theirs.apply_action(action)
    assert theirs.is_terminal() and state.over
    assert ours.scores(state) == [int(r) for r in theirs.returns()]
    return state, theirs


@pytest.mark.parametrize("params", TABLES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "defaults")
def test_every_decision_and_the_returns_match_openspiel(params):
    players = params.get("players", 2)
    ours = load("hanabi", **options_of(params))
    game = pyspiel.load_game("hanabi", params)
    choose = random.Random(len(params) * 100 + players)
    for _ in range(GAMES_PER_TEST):
        play_side_by_side(ours, game, players, *play_in_openspiel(game, choose))


def test_the_games_checked_reach_every_ending():
    """The games checked end in every way: by the last life token, when the deck has run out and
    every player had one more turn, and with every firework complete (on a smaller deck)."""
    endings = set()
    for params in (TABLES[0], TABLES[6]):
        players = params.get("players", 2)
        ours = load("hanabi", **options_of(params))
        game = pyspiel.load_game("hanabi", params)
        most = params.get("colors", 5) * params.get("ranks", 5)
        choose = random.Random(7)
        for _ in range(max(GAMES_PER_TEST, 30)):
            state, theirs = play_side_by_side(ours, game, players, *play_in_openspiel(game, choose))
            ending = ("fuses" if state.vars["fuses_left"] == 0 else "complete" if theirs.returns()[0] == most
                      else "deck")
            if ending == "deck":        # every player had one more turn once the deck ran out
                assert state.vars["final_turns"] == 0 and not state.zones["stock"][0]
            endings.add(ending)
    assert endings == {"fuses", "deck", "complete"}
