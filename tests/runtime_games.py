"""Small games that fail while they run, one way each: the first effect of the move ``poke``
(line 20), its condition, the first seat (``turns.from``, line 15), the triggers and the score
(line 24) are swapped in. Each seat pokes once; then the game is over."""
from __future__ import annotations

PROBE = """\
name: Probe
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  pile: {}
  grid: {per: seat, grid: {rows: 2, cols: 2}}
variables:
  game: {n: 0, who: 0, nobody: none}
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: who, each: once}
      moves: [poke]
moves:
  poke:
    do:
      - set: {n: 1}
      - end_turn
triggers: []
scoring:
  score: n
"""


def probe(effect: str | None = None, first: str = "who", score: str = "n", when: str | None = None,
          triggers: str = "[]") -> str:
    """The probe game with ``effect`` in place of the move's first effect (one line or several,
    indented as an item of its list), and the other parts given."""
    text = PROBE.replace("turns: {from: who,", f"turns: {{from: {first},")
    text = text.replace("  score: n\n", f"  score: {score}\n").replace("triggers: []", f"triggers: {triggers}")
    if effect is not None:
        text = text.replace("      - set: {n: 1}\n", effect + "\n")
    if when is not None:
        text = text.replace("  poke:\n    do:", f"  poke:\n    when: {when}\n    do:")
    return text


CASES = {
    "division by zero": probe('      - set: {n: "1 // (n - n)"}'),
    "index out of range": probe('      - set: {n: "[1, 2][n + 5]"}'),
    "first of an empty list": probe('      - set: {n: "first(pile.cards)"}'),
    "a grid slot out of range": probe("      - move: stock.top\n        to: grid\n        slot: 7"),
    "the top of an empty zone": probe("      - move: pile.top\n        to: stock"),
    "choose_random from nothing": probe('      - choose_random: {n: "[x for x in [1, 2] if x > 5]"}'),
    "turns.from gives none": probe(first="nobody"),
    "a score that is none": probe("      - set: {n: nobody}"),
    "a score that is text": probe("      - set: {n: \"'ten'\"}"),
    "a range too long": probe('      - set: {n: "len(1..(n + 200000))"}'),
    "a trigger that never settles": probe(triggers="\n  - when: n >= 0\n    do: [add: {n: 1}]"),
    "turns.next gives none": probe(first="who, next: nobody"),
    "a parameter's list that is not a list": probe().replace(
        "  poke:\n    do:", "  poke:\n    params: {k: {from: nobody}}\n    do:"),
    "flip of a number": probe("      - flip: n"),
    "add to text": probe("      - set: {n: \"'ten'\"}\n      - add: {n: 1}"),
    "a for over a number": probe("      - for: x in n\n        do: [end_turn]"),
    "no legal move": probe("      - add: {n: 1}", when="n < 1"),
    "a turn that never ends": probe("      - add: {n: 1}").replace("      - end_turn\n", ""),
    "nobody can move in free play": probe("      - add: {n: 1}", when="n < 1").replace(
        "      turns: {from: who, each: once}\n", ""),
}
