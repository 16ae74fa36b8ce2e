"""Scenarios name one pile of a zone of several piles: `rows#2: [...]` for a shared zone,
`work: {P1#2: [...]}` for a zone per seat, in start positions and in expectations."""
from __future__ import annotations

import textwrap

from click.testing import CliRunner

from cli import main

GAME = """\
name: Piles
players: {min: 2, max: 3}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  rows: {piles: 3}
  work: {per: seat, piles: 2}
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      moves: [lay]
moves:
  lay:
    params:
      pile: {from: work}
      row: {from: rows}
    when: not pile.empty
    do:
      - move: pile.top
        to: row
      - end_turn
"""


def run(tmp_path, scenarios: str):
    game = tmp_path / "piles.yaml"
    game.write_text(GAME)
    path = tmp_path / "s.yaml"
    path.write_text("scenarios:\n" + textwrap.indent(textwrap.dedent(scenarios).strip(), "  ") + "\n")
    result = CliRunner().invoke(main, ["test", str(game), str(path)])
    return result.exit_code, result.stdout + result.stderr, str(path)


def test_piles_are_set_and_compared_by_number(tmp_path):
    code, out, _ = run(tmp_path, """
        - name: second piles
          start:
            zones:
              rows#3: [KD]
              work: {P1: [2C], P1#2: [AS, 3H], P2#2: [4D]}
          steps:
            - expect: {zones: {rows: [], rows#3: [KD], work: {P1: [2C], P1#2: [AS, 3H], P2: 0, P2#2: [4D]}}}
            - lay work[P1]#2 rows#2
            - expect: {zones: {rows#2: [3H], work: {P1#2: [AS]}}}
    """)
    assert (code, out) == (0, "PASS second piles\n1 passed, 0 failed\n")


def test_a_pile_number_on_a_single_pile_zone_is_an_error(tmp_path):
    code, out, path = run(tmp_path, """
        - name: it
          start: {zones: {stock#2: [AS]}}
          steps: [{expect: {round: 1}}]
    """)
    assert code == 1
    assert out.splitlines()[1] == f"{path}:3:21: error: 'stock#2': zone 'stock' is a single pile, it has no pile #2"
    assert "hint: write it without '#2'" in out


def test_a_pile_number_after_a_shared_zone_is_given_after_the_owner_of_a_seat_zone(tmp_path):
    code, out, path = run(tmp_path, """
        - name: it
          start: {zones: {work#2: {P1: [AS]}}}
          steps: [{expect: {round: 1}}]
    """)
    assert code == 1
    assert out.splitlines()[1] == (f"{path}:3:21: error: zone 'work' is one per seat: number the pile "
                                   "after the owner, as work: {P1#2: ...}")


def test_a_pile_beyond_the_zone_fails_the_scenario(tmp_path):
    code, out, path = run(tmp_path, """
        - name: it
          steps:
            - expect: {zones: {rows#4: []}}
    """)
    assert code == 1
    assert out.splitlines()[:2] == ["FAIL it", f"  {path}:4:34: there is no pile rows#4: zone 'rows' has 3 piles here"]
