"""Which moves each seat's bot chose: games played exactly as ``rules simulate`` plays them (game
``i`` with seed ``seed + i``, the same bots), counting, seat by seat, the texts of the moves of the
names given that the seat played, and how often the seat won when it played each.

    python benchmarks/move_choices.py games/schmier.yaml 6 200 greedy bid -o target=1
    python benchmarks/move_choices.py games/schmier.yaml 6 50 search:50,greedy,greedy bid,pass -o target=1 --seed 0

Arguments: the game file, the players, the games, the bots seat by seat (a shorter list repeats,
as in ``rules simulate``), the move names counted (comma-separated); then ``--seed S`` and any
``-o OPTION=VALUE``.
"""
from __future__ import annotations

import collections
import sys

from interpreter.engine.loaded import load_game
from interpreter.errors import RulesError
from interpreter.tools.playout import Settings, play_or_raise
from interpreter.tools.simulate import bot_kinds

MAX_MOVES = 100_000


def main() -> None:
    path, players, games, bots, names = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    options, seed, rest = {}, 0, sys.argv[6:]
    while rest:
        flag, value = rest.pop(0), rest.pop(0)
        if flag == "--seed":
            seed = int(value)
        else:
            key, _, text = value.partition("=")     # as `-o` reads it: the value may hold '='
            options[key] = text
    loaded = load_game(path, options)
    settings = Settings(players, tuple(bot_kinds(bots.split(","), players)), seed, MAX_MOVES)
    counted = set(names.split(","))
    played: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    won: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    for index in range(games):
        texts, winners = play(loaded, settings, index, counted)
        for seat, text in texts:
            played[seat][text] += 1
            won[seat][text] += seat in winners
    for seat, kind in enumerate(settings.bots):
        choices = ", ".join(f"{text} {count} (won {won[seat][text]})" for text, count in sorted(played[seat].items()))
        print(f"P{seat + 1} {kind}: {choices or 'none'}")


def play(loaded, settings: Settings, index: int, counted: set[str]) -> tuple[list[tuple[int, str]], set[int]]:
    """Game ``index`` as ``rules simulate`` plays it: the counted moves (seat, text) and the
    seats placed first."""
    texts: list[tuple[int, str]] = []

    def note(action) -> None:
        if action.move.name in counted:
            texts.append((action.seat, action.move.text))
    outcome = play_or_raise(loaded, settings, index, note)
    return texts, {seat for seat, place in enumerate(outcome.places) if place == 1}


if __name__ == "__main__":
    try:
        main()
    except RulesError as error:          # a game file, option or bot kind refused: its message, no traceback
        sys.exit(error.render())
