"""Dice poker by hand, in plain Python: random playouts with the rules of games/dice_poker.yaml.

The yardstick for the interpreter's speed, and an oracle for its rules: given the same seed, it
offers the same legal moves in the same order and throws the dice with the same generator calls
as the interpreter, and its random bots choose the same way, so both reach the same scores.

- the game's generator is seeded with the game's seed; the first player is drawn from it;
- a throw draws one face per die thrown, in order, then the dice are sorted;
- the legal moves are listed as the spec lists them: throw, then rethrow (each sub-collection of
  the dice, smallest first), then score (each open row of the part, and for the pair each value
  that makes one), then cross (each open row);
- a random bot for seat s has its own generator, seeded with ``seed * 1_000_003 + s``, and picks
  move number ``below(its generator, number of legal moves)``.
"""
from __future__ import annotations

import itertools

from interpreter.engine import rng

PLAYERS = range(2, 5)
DEFAULT_PLAYERS = 3
ROUNDS = 15
PART1 = ("ones", "twos", "threes", "fours", "fives", "sixes")
PART2 = ("pair", "two_pairs", "three", "small_straight", "large_straight", "full_house", "four", "poker",
         "chance")


def play_game(players: int, seed: int) -> tuple[list[int], int]:
    """One game between random bots: each seat's total and the number of moves made."""
    state = rng.seed_state(seed)
    bots = [rng.seed_state(seed * 1_000_003 + seat) for seat in range(players)]
    sheets = [dict.fromkeys(PART1 + PART2) for _ in range(players)]
    first, state = rng.below(state, players)
    moves = 0
    for round_ in range(1, ROUNDS + 1):
        rows = PART1 if round_ <= 6 else PART2
        for turn in range(players):
            seat = (first + turn) % players
            state, bots[seat], made = _turn(state, bots[seat], sheets[seat], rows, round_)
            moves += made
    return [_total(sheet) for sheet in sheets], moves


def _turn(state: int, bot: int, sheet: dict, rows: tuple, round_: int) -> tuple[int, int, int]:
    """One seat's turn: throws, then a row written or crossed. Returns the generators and the moves."""
    dice: list[int] = []
    throws = 0
    made = 0
    while True:
        moves = _legal(dice, throws, sheet, rows, round_)
        choice, bot = rng.below(bot, len(moves))
        kind, arg, value = moves[choice]
        made += 1
        if kind == "throw":
            dice, state = _throw([], 5, state)
            throws += 1
        elif kind == "rethrow":
            kept = list(dice)
            for die in arg:
                kept.remove(die)
            dice, state = _throw(kept, len(arg), state)
            throws += 1
        elif kind == "score":
            sheet[arg] = _points(arg, value, dice, throws)
            return state, bot, made
        else:
            sheet[arg] = 0
            return state, bot, made


def _throw(kept: list[int], count: int, state: int) -> tuple[list[int], int]:
    for _ in range(count):
        face, state = rng.below(state, 6)
        kept.append(face + 1)
    return sorted(kept), state


def _legal(dice: list[int], throws: int, sheet: dict, rows: tuple, round_: int) -> list[tuple]:
    if throws == 0:
        return [("throw", None, None)]
    moves: list[tuple] = []
    if throws < 3:
        moves += [("rethrow", subset, None) for subset in _subsets(dice)]
    open_rows = [row for row in rows if sheet[row] is None]
    for row in open_rows:
        for value in (_pairs(dice) if row == "pair" else [None]):
            if _base(row, value, dice) is not None:
                moves.append(("score", row, value))
    if round_ > 6:
        moves += [("cross", row, None) for row in open_rows]
    return moves


def _subsets(dice: list[int]) -> list[tuple[int, ...]]:
    """Every distinct non-empty sub-collection of the dice, by size, then by values."""
    found = {tuple(sorted(pick)) for size in range(1, len(dice) + 1)
             for pick in itertools.combinations(dice, size)}
    return sorted(found, key=lambda s: (len(s), s))


def _pairs(dice: list[int]) -> list[int]:
    return [v for v in range(1, 7) if dice.count(v) >= 2]


def _highest_with(dice: list[int], k: int) -> int:
    return max([v for v in range(1, 7) if dice.count(v) >= k] + [0])


def _base(row: str, value: int | None, dice: list[int]) -> int | None:
    """The row's score before first-throw doubling, or None when the dice do not make it."""
    if row in PART1:
        face = PART1.index(row) + 1
        return (dice.count(face) - 3) * face
    if row == "pair":
        return 2 * value
    if row == "two_pairs":
        pairs = _pairs(dice)
        return 2 * sum(pairs) if len(pairs) == 2 else None
    if row in ("three", "four", "poker"):
        k = {"three": 3, "four": 4, "poker": 5}[row]
        high = _highest_with(dice, k)
        return k * high if high > 0 else None
    if row == "small_straight":
        return 15 if dice == [1, 2, 3, 4, 5] else None
    if row == "large_straight":
        return 20 if dice == [2, 3, 4, 5, 6] else None
    if row == "full_house":
        return sum(dice) if sorted(dice.count(v) for v in set(dice)) == [2, 3] else None
    return sum(dice)


def _points(row: str, value: int | None, dice: list[int], throws: int) -> int:
    base = _base(row, value, dice)
    if row in PART1 or row == "chance":
        return base
    return base * (2 if throws == 1 else 1) + (50 if row == "poker" else 0)


def _total(sheet: dict) -> int:
    part1 = [sheet[row] for row in PART1 if sheet[row] is not None]
    part2 = [sheet[row] for row in PART2 if sheet[row] is not None]
    bonus = 50 if len(part1) == 6 and sum(part1) >= 0 else 0
    return sum(part1) + bonus + sum(part2)
