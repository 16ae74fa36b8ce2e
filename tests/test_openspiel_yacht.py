"""Yacht (games/yacht.yaml with `openspiel=true`) played move for move beside OpenSpiel's C++ yacht
(needs the [openspiel] extra): at every decision the same seat to act, the same dice at the same
places, and the same legal moves in the same order (OpenSpiel's actions written in our notation:
action 0 `Keep all` is `keep`, a reroll mask is `reroll` and the places 1 to 5 of its bits,
`Score in Chance` is `score choice`...), and at the end the same scores and the same returns.

Both directions of chance are checked: OpenSpiel's chance outcomes (sampled first) forced on our
throws with `new_state(rolls=...)`, and our seeded throws written as OpenSpiel's chance outcomes.
OpenSpiel's parameters `sort_dice` and `rolls_per_turn` are checked too, as our options of those
names. YACHT_GAMES=1000 plays more games per test, by hand."""
from __future__ import annotations

import os
import random

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("YACHT_GAMES", "25"))
SIDES, DICE = 6, 5
# OpenSpiel's categories, in the order of its actions 32 to 43, as our sheet names them.
CATEGORIES = ["ones", "twos", "threes", "fours", "fives", "sixes", "choice", "four_of_a_kind",
              "full_house", "little_straight", "big_straight", "yacht"]
TABLES = [{}, {"sort_dice": True}, {"rolls_per_turn": 2}, {"rolls_per_turn": 1}, {"rolls_per_turn": 4}]


def our_text(action: int) -> str:
    """One of OpenSpiel's actions as our move's text."""
    if action == 0:
        return "keep"
    if action < 1 << DICE:
        return "reroll " + " ".join(str(i + 1) for i in range(DICE) if action >> i & 1)
    return "score " + CATEGORIES[action - (1 << DICE)]


def their_dice(theirs) -> list[int]:
    """OpenSpiel's dice at their places (its dice_), read from its state's text."""
    line = next(row for row in str(theirs).splitlines() if row.startswith("Dice: "))
    return [int(d) for d in line[len("Dice: "):].split()]


def their_totals(theirs, players: int) -> list[int]:
    text = str(theirs)
    return [int(text.split(f"Player {p} (total: ")[1].split(")")[0]) for p in range(players)]


def outcome_values(theirs, outcome: int) -> list[int]:
    """The faces a chance outcome gives the dice thrown, in the order of their places."""
    thrown = theirs.action_to_string(pyspiel.PlayerId.CHANCE, outcome)   # "Roll: 3,1"
    return [int(v) for v in thrown[len("Roll: "):].split(",")]


def outcome_of(values: list[int]) -> int:
    """OpenSpiel's chance outcome for these faces of the dice thrown (the first die the lowest digit)."""
    return sum((v - 1) * SIDES ** i for i, v in enumerate(values))


def options_of(params: dict) -> dict:
    return {"openspiel": "true", **{k: str(v).lower() for k, v in params.items()}}


def check_decision(ours, state, theirs):
    """The same seat, dice and legal moves; where the seat scores, the same points in every open
    category (each tried on a copy of both states)."""
    seat = theirs.current_player()
    assert state.current == seat
    assert state.vars["in_place"] == their_dice(theirs)
    assert sorted(state.dice) == sorted(their_dice(theirs))
    actions = theirs.legal_actions()
    assert [m.text for m in ours.legal_moves(state, seat)] == [our_text(a) for a in actions]
    for action in actions:
        if action >= 1 << DICE:
            after = theirs.child(action)
            points = their_totals(after, 2)[seat] - their_totals(theirs, 2)[seat]
            mine = state.clone()
            ours.apply(mine, our_text(action), seat)
            assert mine.seat_vars[seat]["sheet"][CATEGORIES[action - (1 << DICE)]] == points
    return seat


def pick(chooser, actions: list[int]) -> int:
    """A random action; keeping all the dice a third of the time, so that early scores are played."""
    return 0 if actions[0] == 0 and chooser.random() < 1 / 3 else chooser.choice(actions)


def check_end(ours, state, theirs, players: int):
    assert theirs.is_terminal() and state.over
    assert ours.scores(state) == their_totals(theirs, players)
    assert ours.results(state) == pytest.approx(theirs.returns())


@pytest.mark.parametrize("params", TABLES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "defaults")
def test_openspiel_chance_forced_on_ours(params):
    """OpenSpiel plays a whole game first (random actions, sampled chance); ours replays it with
    OpenSpiel's throws fixed, and every decision is compared."""
    ours = load("yacht", **options_of(params))
    game = pyspiel.load_game("yacht", params)
    chooser = random.Random(len(params) * 100 + params.get("rolls_per_turn", 3))
    for number in range(GAMES_PER_TEST):
        theirs = game.new_initial_state()
        rolls, decisions = [], []
        while not theirs.is_terminal():
            if theirs.is_chance_node():
                outcome = chooser.choice([a for a, _ in theirs.chance_outcomes()])
                rolls.append(outcome_values(theirs, outcome))
                theirs.apply_action(outcome)
                continue
            action = pick(chooser, theirs.legal_actions())
            decisions.append((theirs.clone(), action))
            theirs.apply_action(action)
        state = ours.new_state(2, number, rolls=rolls)
        for before, action in decisions:
            seat = check_decision(ours, state, before)
            ours.apply(state, our_text(action), seat)
        assert not state.presets.unused
        check_end(ours, state, theirs, 2)


@pytest.mark.parametrize("params", TABLES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "defaults")
def test_our_chance_written_as_openspiel_outcomes(params):
    """Ours throws its dice from its seed; each throw is written as OpenSpiel's chance outcome
    (the new dice are the engine's last ones, in the order thrown) and both play on."""
    ours = load("yacht", **options_of(params))
    game = pyspiel.load_game("yacht", params)
    chooser = random.Random(7 + len(params))
    for number in range(GAMES_PER_TEST):
        state = ours.new_state(2, 1000 + number)
        theirs = game.new_initial_state()
        theirs.apply_action(outcome_of(state.dice))           # the first throw of the first turn
        while not theirs.is_terminal():
            seat = check_decision(ours, state, theirs)
            action = pick(chooser, theirs.legal_actions())
            ours.apply(state, our_text(action), seat)
            theirs.apply_action(action)
            if theirs.is_chance_node():                       # a reroll, or the next turn's first throw
                thrown = action.bit_count() if 0 < action < 1 << DICE else DICE
                theirs.apply_action(outcome_of(state.dice[-thrown:]))
        check_end(ours, state, theirs, 2)


def test_a_tie_shares_nothing_and_the_scores_match():
    """Both seats keep their first throw and score the same categories with the same dice: a tie,
    returns 0 each in both."""
    ours = load("yacht", openspiel="true")
    theirs = pyspiel.load_game("yacht").new_initial_state()
    rolls = []
    for turn in range(24):
        values = [1 + (turn // 2 + i) % 6 for i in range(DICE)]
        rolls.append(values)
    state = ours.new_state(2, 0, rolls=rolls)
    for turn in range(24):
        theirs.apply_action(outcome_of(rolls[turn]))
        for action in (0, (1 << DICE) + turn // 2):
            seat = check_decision(ours, state, theirs)
            ours.apply(state, our_text(action), seat)
            theirs.apply_action(action)
    check_end(ours, state, theirs, 2)
    assert ours.results(state) == [0, 0]


@pytest.mark.parametrize("throw", [[6, 6, 6, 6, 6], [2, 5, 2, 2, 2], [3, 3, 5, 5, 3], [4, 4, 4, 1, 1],
                                   [5, 3, 1, 4, 2], [6, 2, 4, 5, 3], [1, 2, 3, 4, 6], [6, 6, 5, 5, 1]])
def test_every_category_of_a_throw_scores_as_openspiel(throw):
    """The hard throws (a yacht, four alike, full houses, straights), kept at once: every open
    category scores the same in both, five alike included in OpenSpiel's full house."""
    ours = load("yacht", openspiel="true")
    theirs = pyspiel.load_game("yacht").new_initial_state()
    theirs.apply_action(outcome_of(throw))
    state = ours.new_state(2, 0, rolls=[throw])
    for action in (0, 1 << DICE):                  # keep all, then the scores of every category
        seat = check_decision(ours, state, theirs)
        ours.apply(state, our_text(action), seat)
        theirs.apply_action(action)
