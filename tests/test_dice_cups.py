"""Dice per seat: each seat's cup, seen by whom `visible_to` says, thrown by `roll` (`of:` for
another seat's), lifted by `reveal_dice`; what each seat's view, the bots' samples, the research
tensor and undo see of them; fixed by scenarios and from Python; and the mistakes refused at load."""
from __future__ import annotations

from click.testing import CliRunner

from cli import main
from interpreter.api import load_game, make_bot, sample_state
from interpreter.engine.observe import TensorLayout, observation_view

# Two seats, two dice each, seen by their owner; a seat may peek (lift every cup) or pass.
CUPS = """\
name: Cups
players: {min: 2, max: 3}
dice: {count: 2, faces: 6, per: seat, visible_to: owner}
variables:
  game: {peeked: false}
setup:
  SETUP
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      moves: [peek, again, stop]
moves:
  peek:
    when: not peeked
    do:
      - reveal_dice: players
      - set: {peeked: true}
      - end_turn
  again:
    when: peeked
    do:
      - roll: dice
      - end_turn
  stop:
    do:
      - end_game
scoring:
  score: sum(dice)
"""
ROLL_ALL = "- for: p in players\n    do:\n      - roll: p.dice\n        of: p"


def write(tmp_path, text):
    path = tmp_path / "g.yaml"
    path.write_text(text)
    return path


def cups(tmp_path, setup=ROLL_ALL, **changes):
    text = CUPS.replace("SETUP", setup)
    for old, new in changes.items():
        text = text.replace(old, new)
    return load_game(write(tmp_path, text))


def errors(tmp_path, text):
    result = CliRunner().invoke(main, ["validate", str(write(tmp_path, text))])
    assert result.exit_code == 1
    return [line for line in result.output.splitlines() if ": error: " in line or line.startswith("hint")]


def test_each_seat_sees_its_own_cup_and_a_spectator_none(tmp_path):
    game = cups(tmp_path)
    state = game.new_state(2, 0, rolls=[[3, 5], [6, 1]])
    assert state.dice == [[3, 5], [1, 6]]
    assert game.view(state, 0)["dice"] == [[3, 5], [None, None]]
    assert game.view(state, 1)["dice"] == [[None, None], [1, 6]]
    assert game.view(state, None)["dice"] == [[None, None], [None, None]]
    assert game.scores(state) == [8, 7]      # `dice` is the seat's own cup


def test_reveal_dice_lifts_every_cup_until_it_is_thrown_again(tmp_path):
    game = cups(tmp_path)
    state = game.new_state(2, 0, rolls=[[3, 5], [6, 1], [2, 2]])
    game.apply(state, "peek", 0)
    assert state.dice_shown == [0, 1]
    assert game.view(state, None)["dice"] == [[3, 5], [1, 6]]
    game.apply(state, "again", 1)     # P2 throws its cup again: hidden again, P1's still shown
    assert state.dice == [[3, 5], [2, 2]] and state.dice_shown == [0]
    assert game.view(state, 0)["dice"] == [[3, 5], [None, None]]
    assert game.view(state, 1)["dice"] == [[3, 5], [2, 2]]


def test_cups_seen_by_nobody_and_by_all(tmp_path):
    hidden = cups(tmp_path, **{"visible_to: owner": "visible_to: none"})
    state = hidden.new_state(2, 0, rolls=[[3, 5], [6, 1]])
    assert hidden.view(state, 0)["dice"] == [[None, None], [None, None]]
    public = cups(tmp_path, **{", visible_to: owner": ""})
    state = public.new_state(2, 0, rolls=[[3, 5], [6, 1]])
    assert public.view(state, 0)["dice"] == public.view(state, None)["dice"] == [[3, 5], [1, 6]]


def test_a_state_with_cups_is_saved_and_read_back(tmp_path):
    game = cups(tmp_path)
    state = game.new_state(2, 0, rolls=[[3, 5], [6, 1]])
    game.apply(state, "peek", 0)
    data = state.to_json()
    assert data["dice"] == [[3, 5], [1, 6]] and data["dice_shown"] == [0, 1]
    assert game.state_from_json(data) == state


def test_a_bots_sample_keeps_its_own_cup_and_throws_the_others_again(tmp_path):
    game = cups(tmp_path)
    state = game.new_state(3, 0, rolls=[[3, 5], [6, 1], [4, 4]])
    samples = [sample_state(game.game, state, 0, seed) for seed in range(40)]
    assert all(sample.dice[0] == [3, 5] for sample in samples)
    assert len({tuple(sample.dice[1]) for sample in samples}) > 5
    assert len({tuple(sample.dice[2]) for sample in samples}) > 5
    assert sample_state(game.game, state, 0, 7).dice == sample_state(game.game, state, 0, 7).dice
    assert state.dice == [[3, 5], [1, 6], [4, 4]]      # the real state is untouched
    lifted = state.clone()
    game.apply(lifted, "peek", 0)
    assert all(sample_state(game.game, lifted, 1, seed).dice == lifted.dice for seed in range(5))


def test_the_research_tensor_shows_only_the_seats_own_dice(tmp_path):
    game = cups(tmp_path)
    state = game.new_state(2, 0, rolls=[[3, 5], [6, 1]])
    layout = TensorLayout(game.game, state, [])
    assert dict(layout.sections)["dice"] == 2 * 2 * 6
    tensor = layout.encode(observation_view(game.game, state, 0), 0)
    start = sum(size for name, size in layout.sections[:layout.sections.index(("dice", 24))])
    dice = tensor[start:start + 24]
    assert dice[:12] == [0, 0, 1, 0, 0, 0] + [0, 0, 0, 0, 1, 0]
    assert dice[12:] == [0.0] * 12


def test_dice_named_alone_or_a_roll_without_a_seat_in_setup_are_refused(tmp_path):
    text = CUPS.replace("SETUP", "- roll: players[0].dice\n  - set: {peeked: 'len(dice) == 2'}")
    assert errors(tmp_path, text) == [
        f"{tmp_path / 'g.yaml'}:7:5: error: roll: whose dice? no seat acts in setup",
        "hint: name the seat: 'of: p' with 'for: p in players'",
        f"{tmp_path / 'g.yaml'}:8:24: error: 'dice' is the acting seat's dice, but no seat acts in setup",
        "hint: name the seat: players[0].dice, or p.dice with 'for: p in players'"]


def test_cups_asked_of_table_dice_are_refused(tmp_path):
    text = CUPS.replace("SETUP", "- roll: dice\n    of: players[0]\n  - reveal_dice: players").replace(
        ", per: seat, visible_to: owner", ", visible_to: owner")
    assert errors(tmp_path, text) == [
        f"{tmp_path / 'g.yaml'}:3:40: error: dice: visible_to: owner needs a cup per seat, but the dice are the table's",
        "hint: add per: seat",
        f"{tmp_path / 'g.yaml'}:8:5: error: roll: 'of' names a seat's cup, but the dice are the table's",
        "hint: give each seat its cup: dice: {..., per: seat}",
        f"{tmp_path / 'g.yaml'}:9:5: error: reveal_dice: the dice are the table's, seen by everyone",
        "hint: give each seat a cup seen by its owner: dice: {..., per: seat, visible_to: owner}",
        f"{tmp_path / 'g.yaml'}:20:9: error: reveal_dice: the dice are the table's, seen by everyone",
        "hint: give each seat a cup seen by its owner: dice: {..., per: seat, visible_to: owner}"]


def test_a_view_line_may_count_the_dice_of_hidden_cups_but_not_show_them(tmp_path):
    text = CUPS.replace("SETUP", ROLL_ALL) + "view:\n  game:\n    held: '[len(p.dice) for p in players]'\n" \
        "    total: 'sum(sum(p.dice) for p in players)'\n"
    assert errors(tmp_path, text) == [
        f"{tmp_path / 'g.yaml'}:37:21: error: view: 'total' shows the dice of the cups to every seat, "
        "but only its owner may see a cup",
        "hint: show only what every seat may see, such as how many dice a cup holds"]


def test_undo_is_refused_once_another_seats_cup_was_lifted(tmp_path):
    from interpreter.play.undo import UndoLog
    game = cups(tmp_path)
    state = game.new_state(2, 0, rolls=[[3, 5], [6, 1]])
    undo = UndoLog(game.game, state, 1, None)
    game.apply(state, "peek", 0)
    undo.made()
    assert undo.news == (1, "dice came into sight since (P1's cup)")


def test_a_scenario_gives_cups_by_seat_and_a_list_is_refused(tmp_path):
    game = write(tmp_path, CUPS.replace("SETUP", ROLL_ALL))
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text("scenarios:\n"
                    "  - name: cups by seat\n"
                    "    start: {dice: {P1: [6, 2], P2: [1, 1]}}\n"
                    "    expect: {dice: {P1: [2, 6], P2: [1, 1]}, scores: [8, 2]}\n")
    result = CliRunner().invoke(main, ["test", str(game), str(good)])
    assert (result.exit_code, result.output) == (0, "PASS cups by seat\n1 passed, 0 failed\n")
    bad.write_text("scenarios:\n"
                   "  - name: a list\n"
                   "    start: {dice: [6, 2]}\n"
                   "    expect: {dice: {P3: [1, 1]}}\n")
    result = CliRunner().invoke(main, ["test", str(game), str(bad)])
    assert result.exit_code == 1
    assert [line for line in result.output.splitlines() if not line.lstrip()[:1] in ("|", "3", "4")] == [
        f"{bad}:3:19: error: this game's dice are in cups, one per seat: give them by seat",
        "hint: dice: {P1: [3, 4], P2: [1, 5]}",
        f"{bad}:4:21: error: there is no seat P3: this scenario has 2 players (P1 to P2)",
        "0 passed, 0 failed, 2 errors"]


def test_a_bots_samples_are_the_same_whatever_lies_under_the_other_cups():
    game = load_game("liars_dice")
    mine = [2, 3, 4, 6, 6]
    samples, choices = [], set()
    # P2 bid eight 5s: true when the other cups hold ten 5s and ones, a lie when they hold none.
    for others in ([[1, 1, 1, 5, 5], [1, 5, 5, 5, 5]], [[2, 2, 3, 4, 4], [3, 3, 4, 6, 6]]):
        state = game.new_state(3, 0, rolls=[*others, mine])
        game.apply(state, "bid 1 2", 0)
        game.apply(state, "bid 8 5", 1)
        assert game.view(state, 2)["dice"] == [[None] * 5, [None] * 5, mine]
        samples.append([sample_state(game.game, state, 2, seed).to_json() for seed in range(20)])
        choices.add(make_bot("hard", game.game, 2, seed=11).choose(state, game.legal_moves(state, 2)).text)
    assert samples[0] == samples[1]
    assert len(choices) == 1
