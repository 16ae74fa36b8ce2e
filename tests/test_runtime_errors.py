"""Errors raised while a game runs: each is placed at the expression, effect or flow key that
failed (the line and a caret), says where in the game it happened, and is reported the same way
by the API, `rules simulate`, `play`, `replay`, `test`, `bench` and `validate --simulate`, never
as a traceback. A game in which nobody can move, or a turn that never ends, is a stalled game,
reported at its phase."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import main
from interpreter.api import load_game, simulate
from interpreter.errors import EvalError, LimitError, RulesError, StalledGame
from tests.runtime_games import CASES, probe

# Each case as `rules simulate` reports its game of seed 0 (every seat pokes once, by itself).
REPORTS = {
    'division by zero': [
        'probe.yaml:20:19: error: division by zero',
        '   20 |       - set: {n: "1 // (n - n)"}',
        '      |                   ^^^^^^^^^^^^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'index out of range': [
        'probe.yaml:20:19: error: index 5 out of range for a list of length 2',
        '   20 |       - set: {n: "[1, 2][n + 5]"}',
        '      |                   ^^^^^^^^^^^^^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'first of an empty list': [
        'probe.yaml:20:19: error: first() of an empty list',
        '   20 |       - set: {n: "first(pile.cards)"}',
        '      |                   ^^^^^^^^^^^^^^^^^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'a grid slot out of range': [
        'probe.yaml:22:15: error: grid[P1] has slots 0 to 3, not 7',
        '   22 |         slot: 7',
        '      |               ^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'the top of an empty zone': [
        'probe.yaml:20:15: error: move: none is not a card',
        '   20 |       - move: pile.top',
        '      |               ^^^^^^^^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'choose_random from nothing': [
        'probe.yaml:20:29: error: choose_random: nothing to choose for n: the list is empty',
        '   20 |       - choose_random: {n: "[x for x in [1, 2] if x > 5]"}',
        '      |                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'turns.from gives none': [
        'probe.yaml:15:21: error: expected a seat, got none',
        '   15 |       turns: {from: nobody, each: once}',
        '      |                     ^^^^^^',
        "while the game was set up (round 1, phase 'play')",
    ],
    'a score that is none': [
        'probe.yaml:24:10: error: the score of P1 must be a number, not none',
        '   24 |   score: n',
        '      |          ^',
        "while the scores were counted (after 2 moves; round 1, phase 'play')",
    ],
    'a score that is text': [
        "probe.yaml:24:10: error: the score of P1 must be a number, not 'ten'",
        '   24 |   score: n',
        '      |          ^',
        "while the scores were counted (after 2 moves; round 1, phase 'play')",
    ],
    'a trigger that never settles': [
        'probe.yaml:23:11: error: the game did not settle after 1000 automatic steps (a trigger whose effects do not make its condition false?)',
        '   23 |   - when: n >= 0',
        '      |           ^^^^^^',
        "while the game was set up (round 1, phase 'play')",
    ],
    'turns.next gives none': [
        'probe.yaml:15:32: error: expected a seat, got none',
        '   15 |       turns: {from: who, next: nobody, each: once}',
        '      |                                ^^^^^^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    "a parameter's list that is not a list": [
        "probe.yaml:19:24: error: parameter 'k' must range over a list, not none",
        '   19 |     params: {k: {from: nobody}}',
        '      |                        ^^^^^^',
        "while the legal moves of P1 were listed (before the first move; round 1, phase 'play')",
    ],
    'flip of a number': [
        'probe.yaml:20:15: error: flip: 0 is not a card',
        '   20 |       - flip: n',
        '      |               ^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'add to text': [
        "probe.yaml:21:15: error: add: cannot add 1 to n ('ten')",
        '   21 |       - add: {n: 1}',
        '      |               ^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'a for over a number': [
        'probe.yaml:20:17: error: for: cannot loop over 0',
        '   20 |       - for: x in n',
        '      |                 ^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'no legal move': [
        "probe.yaml:14:13: error: the game is stalled in phase 'play': P2 is to move but has no legal move, and the game is not over",
        '   14 |     - name: play',
        '      |             ^^^^',
        'in round 1, after 1 move',
        'the last move was P1: poke',
        "hint: check the 'when' of the phase's moves, or end the phase with 'until' or an effect (end_turn, end_phase...)",
    ],
    'a turn that never ends': [
        "probe.yaml:14:13: error: the game is stalled in phase 'play': P1's turn has not ended after 1000 moves",
        '   14 |     - name: play',
        '      |             ^^^^',
        'in round 1, after 1000 moves',
        'the last move was P1: poke',
        'hint: a move of this phase should end the turn (end_turn) or the phase',
    ],
    'a range too long': [
        'probe.yaml:20:23: error: range too long: 200000 elements (limit 100000)',
        '   20 |       - set: {n: "len(1..(n + 200000))"}',
        '      |                       ^^^^^^^^^^^^^^^',
        "while P1 played 'poke' (move 1; round 1, phase 'play')",
    ],
    'nobody can move in free play': [
        "probe.yaml:14:13: error: the game is stalled in phase 'play': no seat has a legal move, and the game is not over",
        '   14 |     - name: play',
        '      |             ^^^^',
        'in round 1, after 1 move',
        'the last move was P1: poke',
        "hint: check the 'when' of the phase's moves, or end the phase with 'until' or an effect (end_turn, end_phase...)",
    ],
}

EXPECTED = {name: "\n".join(lines) for name, lines in REPORTS.items()}
STALLED = ("no legal move", "a turn that never ends", "nobody can move in free play")


@pytest.fixture
def probe_file(tmp_path, monkeypatch):
    """Writes a probe game as probe.yaml in a fresh working folder (so messages name it so)."""
    monkeypatch.chdir(tmp_path)

    def write(text: str) -> str:
        (tmp_path / "probe.yaml").write_text(text)
        return "probe.yaml"
    return write


def rules(*args, given=None):
    return CliRunner().invoke(main, list(args), input=given)


def test_every_case_has_its_report():
    assert sorted(REPORTS) == sorted(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_simulate_reports_the_place_in_the_file_and_the_position_in_the_game(probe_file, case):
    result = rules("simulate", probe_file(CASES[case]), "-n", "1", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["first_errors"] == [{"seed": 0, "message": EXPECTED[case]}]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_api_reports_it_the_same_way(probe_file, case):
    loaded = load_game(probe_file(CASES[case]))
    assert simulate(loaded, 1).outcomes[0].error == EXPECTED[case]


# The probe with a zone of piles where its grid was (the line numbers stay): the lean engine
# generates it, so each engine meets the fault. The grid's own case needs the grid.
WITHOUT_GRID = {case: text.replace("  grid: {per: seat, grid: {rows: 2, cols: 2}}\n", "  spare: {per: seat}\n")
                for case, text in CASES.items() if case != "a grid slot out of range"}


@pytest.mark.parametrize("case", sorted(WITHOUT_GRID))
def test_every_engine_reports_the_same_error(probe_file, engine, case):
    result = rules("simulate", probe_file(WITHOUT_GRID[case]), "-n", "1", "--json", "--engine", engine)
    assert result.exit_code == 1
    assert json.loads(result.stdout)["first_errors"] == [{"seed": 0, "message": EXPECTED[case]}]


def test_the_probe_without_its_grid_runs_on_the_lean_engine(probe_file):
    result = rules("show", probe_file(WITHOUT_GRID["division by zero"]))
    assert result.exit_code == 0 and "engine: lean" in result.stdout


@pytest.mark.parametrize("case", sorted(set(CASES) - set(STALLED)))
def test_the_error_an_api_call_raises_renders_as_the_commands_show_it(probe_file, case):
    loaded = load_game(probe_file(CASES[case]))
    with pytest.raises(RulesError) as caught:
        state = loaded.new_state(2, 0)
        while not state.over:
            loaded.apply(state, loaded.legal_moves(state)[0])
        loaded.scores(state)
    assert isinstance(caught.value, (EvalError, LimitError))
    assert caught.value.render() == EXPECTED[case]
    assert "Traceback" not in caught.value.render()


def test_an_error_carries_its_place_and_context_as_data(probe_file):
    loaded = load_game(probe_file(CASES["division by zero"]))
    state = loaded.new_state(2, 0)
    with pytest.raises(EvalError) as caught:
        loaded.apply(state, "poke")
    assert caught.value.to_dict() == {
        "kind": "error", "message": "division by zero", "stage": "EvalError",
        "file": "probe.yaml", "line": 20, "col": 19, "width": 12,
        "context": ["while P1 played 'poke' (move 1; round 1, phase 'play')"]}


def test_play_reports_the_error_keeps_the_record_and_exits_1(probe_file):
    result = rules("play", probe_file(CASES["index out of range"]), "--human", "none", "--seed", "4",
                   "--record", "game.jsonl")
    assert result.exit_code == 1
    assert result.stderr == EXPECTED["index out of range"] + "\n"
    assert result.stdout.endswith("\ngame stopped by an error; the record so far is in game.jsonl.\nseed 4\n")
    assert "Traceback" not in result.output
    lines = open("game.jsonl").read().splitlines()
    assert [json.loads(line).get("game") for line in lines] == ["Probe"]       # the header, no move


def test_play_reports_a_seat_without_a_move_as_a_stalled_game_not_an_endless_prompt(probe_file):
    # Both seats are people: P1 pokes, then P2 has no move and nothing can change that.
    result = rules("play", probe_file(CASES["no legal move"]), "--human", "1,2", "--seed", "4",
                   "--record", "game.jsonl", given="1\n\n\n\n")
    assert result.exit_code == 1
    assert result.stderr == EXPECTED["no legal move"] + "\n"
    assert result.stdout.count("P2>") == 0
    assert [json.loads(line) for line in open("game.jsonl").read().splitlines()[1:]] == [
        {"seat": 0, "move": "poke", "t": 0.0}]


def test_play_reports_free_play_in_which_nobody_can_move_any_more(probe_file):
    # One person: several people cannot share a keyboard in free play.
    result = rules("play", probe_file(CASES["nobody can move in free play"]), "--human", "1", "--fake-clock", "1",
                   "--seed", "4", given="1\n\n\n")
    assert result.exit_code == 1
    assert result.stderr == EXPECTED["nobody can move in free play"] + "\n"
    assert result.stdout.endswith("P1> P1: poke\n\ngame stopped by an error.\nseed 4\n")


def test_play_stops_bots_whose_turn_never_ends(probe_file):
    result = rules("play", probe_file(CASES["a turn that never ends"]), "--human", "none", "--seed", "4")
    assert result.exit_code == 1
    assert result.stderr == EXPECTED["a turn that never ends"] + "\n"


def test_play_reports_a_view_line_that_fails(probe_file):
    # 1 // (n - 1) holds while n is 0; the seats' pokes make it 1, and the last view divides by 0.
    text = probe().replace("triggers: []", "triggers: []\nview:\n  game: {half: '1 // (n - 1)'}")
    result = rules("play", probe_file(text), "--human", "1", "--seed", "4", given="1\n")
    assert result.exit_code == 1
    assert result.stderr == (
        "probe.yaml:24:17: error: division by zero\n"
        "   24 |   game: {half: '1 // (n - 1)'}\n"
        "      |                 ^^^^^^^^^^^^\n"
        "while the game's view lines were shown (after 2 moves; round 1, phase 'play')\n")


def test_replay_reports_the_error_and_the_line_of_the_record(probe_file, tmp_path):
    path = probe_file(CASES["division by zero"])
    header = {"record": 1, "game": "Probe", "spec_hash": load_game(path).digest(), "file": path,
              "options": {}, "seed": 0, "players": 2}
    (tmp_path / "r.jsonl").write_text(json.dumps(header) + "\n" + json.dumps({"seat": 0, "move": "poke"}) + "\n")
    result = rules("replay", "r.jsonl")
    assert result.exit_code == 1
    assert result.stderr == EXPECTED["division by zero"] + "\nin line 2 of the record\n"


def test_rules_test_reports_the_game_files_place_then_the_step(probe_file):
    scenario = "scenarios:\n  - name: one poke\n    steps:\n      - poke\n"
    result = rules("test", probe_file(CASES["choose_random from nothing"] + scenario))
    assert result.exit_code == 1
    assert result.output == (
        "FAIL one poke\n"
        "  probe.yaml:20:29: choose_random: nothing to choose for n: the list is empty\n"
        "       20 |       - choose_random: {n: \"[x for x in [1, 2] if x > 5]\"}\n"
        "          |                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    while P1 played 'poke' (move 1; round 1, phase 'play')\n"
        "    in the step at probe.yaml:28:9\n"
        "0 passed, 1 failed\n")


def test_rules_test_reports_an_error_while_the_game_is_set_up_and_in_a_check(probe_file):
    scenario = "scenarios:\n  - name: start\n    steps:\n      - expect: {vars: {n: 0}}\n"
    result = rules("test", probe_file(CASES["turns.from gives none"] + scenario))
    assert result.output == (
        "FAIL start\n"
        "  probe.yaml:15:21: expected a seat, got none\n"
        "       15 |       turns: {from: nobody, each: once}\n"
        "          |                     ^^^^^^\n"
        "    while the game was set up (round 1, phase 'play')\n"
        "    in the scenario at probe.yaml:26:11\n"
        "0 passed, 1 failed\n")
    scenario = "scenarios:\n  - name: scores\n    steps: [poke, poke, expect: {scores: [0, 0]}]\n"
    result = rules("test", probe_file(CASES["a score that is none"] + scenario))
    assert result.output == (
        "FAIL scores\n"
        "  probe.yaml:24:10: the score of P1 must be a number, not none\n"
        "       24 |   score: n\n"
        "          |          ^\n"
        "    while the scores were counted (after 2 moves; round 1, phase 'play')\n"
        "    in the check at probe.yaml:27:42\n"
        "0 passed, 1 failed\n")


def test_bench_reports_the_error_and_the_game(probe_file):
    result = rules("bench", probe_file(CASES["a grid slot out of range"]), "-n", "1", "-r", "1")
    assert result.exit_code == 1
    assert result.stderr == EXPECTED["a grid slot out of range"] + "\nin game 0 (seed 0) of the benchmark\n"


def test_validate_simulate_plays_random_games_and_fails_with_the_first_report(probe_file):
    result = rules("validate", probe_file(CASES["no legal move"]), "--simulate", "3")
    assert result.exit_code == 1
    assert result.stderr == ("probe.yaml: 3 of 3 random games (2 players) failed; the first, seed 0:\n"
                             + EXPECTED["no legal move"] + "\nalso failed: seeds 1, 2\n"
                             "3 failed random games in 1 file\n")
    result = rules("validate", probe_file(probe()), "--simulate", "3")
    assert (result.exit_code, result.output) == (0, "probe.yaml: ok (3 random games with 2 players)\n")


def test_validate_simulate_in_json(probe_file):
    result = rules("validate", probe_file(CASES["turns.from gives none"]), "--simulate", "1", "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == [{"file": "probe.yaml", "ok": False, "errors": [], "players": [2],
                                          "games": [{"seed": 0, "players": 2,
                                                     "message": EXPECTED["turns.from gives none"]}]}]


def test_validate_simulate_fails_a_game_that_does_not_end(probe_file):
    from interpreter.tools.simulate import failures_report, playing_failures
    endless = probe().replace("      turns: {from: who, each: once}", "      turns: {from: who}")
    failed = playing_failures(load_game(probe_file(endless)), 2, max_moves=50)    # validate's: 100,000
    assert failures_report("probe.yaml", failed, 2, [2]) == (
        "probe.yaml: 2 of 2 random games (2 players) failed; the first, seed 0:\n"
        "error: not over after 50 moves (the move limit)\n"
        "also failed: seed 1")


def test_a_stalled_game_is_its_own_kind_of_error(probe_file):
    loaded = load_game(probe_file(CASES["no legal move"]))
    outcome = simulate(loaded, 1).outcomes[0]
    assert outcome.error.startswith("probe.yaml:14:13: error: the game is stalled in phase 'play'")
    from interpreter.play.realtime import Table
    state = loaded.new_state(2, 0)
    loaded.apply(state, "poke")
    with pytest.raises(StalledGame):
        Table(loaded.game, state, {}).check_stalled()


def dealer(target: str) -> str:
    """The probe game whose move deals 30 cards to each seat's ``target``: a hand, or a grid of 40 slots."""
    text = probe("      - deal: 30\n        from: stock\n        to: " + target)
    return text.replace("  grid: {per: seat, grid: {rows: 2, cols: 2}}\n",
                        "  hand: {per: seat, visible_to: owner}\n  grid: {per: seat, grid: {rows: 1, cols: 40}}\n")


@pytest.mark.parametrize("target", ["hand", "grid"])
def test_a_deal_that_runs_out_of_cards_is_placed_at_the_deal_and_keeps_the_cards_dealt(target):
    loaded = load_game("probe.yaml", text=dealer(target))
    state = loaded.new_state(2, 0)
    with pytest.raises(EvalError) as caught:
        loaded.apply(state, "poke")
    assert caught.value.render() == """\
probe.yaml:21:9: error: deal: stock ran out of cards
   21 |       - deal: 30
      |         ^^^^
while P1 played 'poke' (move 1; round 1, phase 'play')"""
    # Dealt one at a time, P1 first: 26 each, the last card of the stock to P2.
    piles = [state.zones[target][seat] for seat in (0, 1)]
    dealt = [[card for card in pile if card is not None] for pile in piles]     # a grid's empty slots: none
    assert [len(cards) for cards in dealt] == [26, 26] and state.zones["stock"] == [[]]
    assert sorted(dealt[0] + dealt[1]) == list(range(52))
    assert all(state.places[card][0] is piles[seat] for seat in (0, 1) for card in dealt[seat])
