"""Euchre written in the language against OpenSpiel's euchre (C++ rules), cost per decision.

    python3.11 benchmarks/euchre_openspiel.py [--games 200] [--rounds 5]      # needs the [openspiel] extra

Both play the very same games. First, ``--games`` random games of ``games/euchre.yaml`` are
played (game ``i`` from seed ``i``, a random legal move at each decision) and each is replayed once
in OpenSpiel with the same deal, checking the legal moves at every decision and the returns at the
end (as ``tests/test_euchre.py`` does). Then each round times, in turn, OpenSpiel's euchre, our
lean and reference engines (A B C A B C ...), each playing every game the way a
random player's Python loop drives a game: at each chance node OpenSpiel's chance outcomes are
listed and one is drawn at random, at each decision the legal moves are listed and one is drawn at
random; then the recorded one is applied, so that the three play the very same games and pay for
the same draws. Our deal is the state's own (``new_state``, its own generator), inside the timing.

The cost per decision is the process CPU time of a round divided by the decisions (the moves of
the players; OpenSpiel's chance steps are not counted, but their time is). The script prints the
median of the rounds for each and the smallest (the least disturbed on a shared machine), and each
engine's ratio to OpenSpiel.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.api import load_game                      # noqa: E402
from interpreter.engine import apply_move, legal_moves      # noqa: E402
from interpreter.lean import lean_game                      # noqa: E402

try:
    import pyspiel
except ImportError:
    sys.exit("this benchmark needs OpenSpiel: pip install 'tablerules[openspiel]'")

GAME = ROOT / "games" / "euchre.yaml"
OPENSPIELS_DEAL = {"openspiel": "true"}        # the game's face with OpenSpiel's rules: one deal
SUITS = ["clubs", "diamonds", "hearts", "spades"]           # OpenSpiel's order: C D H S
RANKS = ["9", "10", "J", "Q", "K", "A"]                     # OpenSpiel's order: 9 T J Q K A
CARD_OF = {RANKS[card // 4] + SUITS[card % 4][0].upper(): card for card in range(24)}
NAMED = {"pass": 24, "go_alone": 29, "with_partner": 30}


def openspiel_action(text: str, turned: str) -> int:
    """Our move's text as OpenSpiel's action."""
    verb, _, arg = text.partition(" ")
    if verb in NAMED:
        return NAMED[verb]
    if verb == "order_up":
        return 25 + SUITS.index({"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[turned[-1]])
    if verb == "name_trump":
        return 25 + SUITS.index(arg)
    return CARD_OF[arg]


def record(loaded, games: int) -> list[tuple]:
    """``games`` random games: for each, its seed, OpenSpiel's chance outcomes for its deal, and
    at each decision the index of the move in our list and OpenSpiel's action for it."""
    game, table = loaded.game, loaded.game.card_table(4)
    played = []
    for seed in range(games):
        state = loaded.new_state(4, seed)
        dealer, turned = state.vars["dealer"].index, str(state.vars["turned"])
        hands = [[table[c].label for c in pile] for pile in state.zones["hand"]]
        chance = [dealer] + [CARD_OF[hands[(dealer + i) % 4].pop()] for i in range(20)] + [CARD_OF[turned]]
        choose, picks, actions = random.Random(seed), [], []
        while not state.over:
            moves = legal_moves(game, state, state.current)
            index = choose.randrange(len(moves))
            picks.append(index)
            actions.append(openspiel_action(moves[index].text, turned))
            apply_move(game, state, moves[index], checked=False)
        played.append((seed, chance, picks, actions, loaded.scores(state)))
    return played


def check_in_openspiel(loaded, played: list[tuple]) -> None:
    """Each recorded game replayed in OpenSpiel: every action legal there, and the same returns."""
    euchre = pyspiel.load_game("euchre")
    for seed, chance, _, actions, scores in played:
        state = euchre.new_initial_state()
        for outcome in chance:
            state.apply_action(outcome)
        for action in actions:
            if action not in state.legal_actions():
                sys.exit(f"game {seed}: action {action} is not legal in OpenSpiel: the rules differ")
            state.apply_action(action)
        if not state.is_terminal() or [int(r) for r in state.returns()] != scores:
            sys.exit(f"game {seed}: OpenSpiel ends with {state.returns()}, ours with {scores}: the rules differ")


def time_openspiel(played: list[tuple]) -> float:
    euchre, draw = pyspiel.load_game("euchre"), random.Random(0).randrange
    started = time.process_time()
    for _, chance, _, actions, _ in played:
        state = euchre.new_initial_state()
        for outcome in chance:
            draw(len(state.chance_outcomes()))
            state.apply_action(outcome)
        for action in actions:
            state.current_player()
            draw(len(state.legal_actions()))
            state.apply_action(action)
        state.is_terminal()
        state.returns()
    return time.process_time() - started


def time_ours(loaded, played: list[tuple]) -> float:
    game, draw = loaded.game, random.Random(0).randrange
    started = time.process_time()
    for seed, _, picks, _, _ in played:
        state = loaded.new_state(4, seed)
        for index in picks:
            moves = legal_moves(game, state, state.current)
            draw(len(moves))
            apply_move(game, state, moves[index], checked=False)
        state.over
        loaded.scores(state)
    return time.process_time() - started


def time_lean(lean, played: list[tuple]) -> float:
    """The lean engine through its API (``LeanGame``: actions as ints, each call guarded)."""
    draw = random.Random(0).randrange
    started = time.process_time()
    for seed, _, picks, _, _ in played:
        state = lean.new_state(4, seed)
        for index in picks:
            actions = lean.legal(state)
            draw(len(actions))
            lean.step(state, actions[index])
        state.over
        lean.scores(state)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    loaded = load_game(GAME, OPENSPIELS_DEAL)
    played = record(loaded, args.games)
    check_in_openspiel(loaded, played)
    decisions = sum(len(picks) for _, _, picks, _, _ in played)
    lean = lean_game(loaded)
    timed: dict[str, list[float]] = {"openspiel": [], "lean": [], "reference": []}
    for _ in range(args.rounds):
        timed["openspiel"].append(time_openspiel(played))
        timed["lean"].append(time_lean(lean, played))
        timed["reference"].append(time_ours(loaded, played))
    print(f"euchre: {args.games} games, {decisions} decisions ({decisions / args.games:.1f} a game), "
          f"{args.rounds} rounds alternating, median of the rounds, process CPU time")
    base = statistics.median(timed["openspiel"]) / decisions * 1e6
    labels = {"openspiel": "OpenSpiel euchre (C++) from Python", "lean": "games/euchre.yaml, lean",
              "reference": "games/euchre.yaml, reference"}
    least = min(timed["openspiel"]) / decisions * 1e6
    for name, runs in timed.items():
        cost, smallest = statistics.median(runs) / decisions * 1e6, min(runs) / decisions * 1e6
        ratio = "" if name == "openspiel" else f"   {cost / base:6.2f}x OpenSpiel ({smallest / least:.2f}x smallest)"
        print(f"  {labels[name]:<36} {cost:8.2f} us/decision (smallest {smallest:7.2f}){ratio}")


if __name__ == "__main__":
    main()
