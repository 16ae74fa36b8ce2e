"""`rules bench` and ``interpreter.tools.bench``: the text and JSON figures, usage errors, the
hand-written baselines as oracles of the specs (same seed, same moves, same scores), and memory
that the games do not keep."""
from __future__ import annotations

import json
import re
import statistics

import pytest
from click.testing import CliRunner

from cli import main
from interpreter.api import load_game
from interpreter.errors import OptionError, RulesError
from interpreter.tools.bench import (
    find_baseline,
    interpreter_playouts,
    load_baseline,
    memory,
)
from interpreter.tools.playout import play_or_raise
from interpreter.tools.simulate import Settings, play_game
from tests.helpers import GAMES, ROOT

DICE = str(GAMES / "dice_poker.yaml")
SCHMIER = GAMES / "schmier.yaml"
FLOOR = ROOT / "benchmarks" / "floor.yaml"
BASELINES = ROOT / "benchmarks" / "baselines"


def run(args: list[str]):
    return CliRunner().invoke(main, args)


def oracle_mismatches(game_file, baseline_name: str, seeds: range, players: int, options=None,
                      **settings) -> list[str]:
    """The seeds for which the spec's game and the baseline's differ, with both outcomes; the
    game's ``options`` and the baseline's module ``settings`` (the same rule in both)."""
    loaded = load_game(game_file, options)
    baseline = load_baseline(BASELINES / f"{baseline_name}.py")
    for name, value in settings.items():
        setattr(baseline, name, value)
    settings = Settings(players, ("random",) * players, 0, 100_000)
    found = []
    for seed in seeds:
        outcome = play_game(loaded, settings, seed)
        mine = (outcome.scores, outcome.moves, outcome.error)
        theirs = (*baseline.play_game(players, seed), None)
        if mine != theirs:
            found.append(f"seed {seed}: spec {mine}, baseline {theirs}")
    return found


# -- the oracles ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_dice_poker_baseline_reaches_the_specs_scores(players):
    assert oracle_mismatches(DICE, "dice_poker", range(17), players) == []


def _schmier_problem() -> str | None:
    if not SCHMIER.exists():
        return "games/schmier.yaml does not exist yet"
    try:
        load_game(SCHMIER)
    except RulesError as error:
        return f"games/schmier.yaml does not validate yet: {error.headline()}"
    return None


@pytest.mark.skipif(_schmier_problem() is not None, reason=str(_schmier_problem()))
def test_schmier_baseline_reaches_the_specs_scores():
    # A match is some 1,500 moves: a few keep this test short (50 agree too; see docs/performance.md).
    # Capped at 30 deals in both: random bots rarely reach 21, and 1000 deals would take long.
    assert oracle_mismatches(SCHMIER, "schmier", range(8), 6, {"max_deals": "30"}, MAX_DEALS=30) == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_floor_baseline_plays_the_cards_the_spec_plays(seed):
    # Every floor game has the same scores and length: the cards played, move by move, are what
    # tells the two apart.
    baseline = load_baseline(BASELINES / "floor.py")
    played = []
    outcome = play_or_raise(load_game(FLOOR), Settings(6, ("random",) * 6, seed, 100_000), 0,
                            on_action=lambda action: played.append(action.move.args[0].id))
    assert (outcome.scores, outcome.moves) == baseline.play_game(6, seed) == ([0] * 6, 1080)
    assert played == baseline.cards_played(6, seed)


def test_the_euchre_position_by_hand_guesses_the_cards_the_lean_engine_guesses():
    # The yardstick of the lean engine's copy and guess (benchmarks/lookahead.py --baseline).
    import random
    from interpreter.bots.lean_guess import guess
    from interpreter.lean import lean_game
    by_hand = script(BASELINES / "euchre_guess.py")
    lean = lean_game(load_game(GAMES / "euchre.yaml", {"openspiel": "true"}))      # one deal, as by hand
    lacking = 0
    for seed in range(3):
        state, choose = lean.new_state(None, seed), random.Random(seed)
        while not state.over:
            position = by_hand.from_lean(lean, state)
            lacking += bool(position.voids)
            for seat in range(4):
                assert by_hand.matches(guess(lean, state, seat, seed + seat), by_hand.guess(position, seat, seed + seat))
            assert by_hand.matches(state, by_hand.clone(position))
            actions = lean.legal(state)
            lean.step(state, actions[choose.randrange(len(actions))])
    assert lacking > 10        # guesses that keep the suits a seat showed it lacks among them


def test_the_parts_of_a_rollout_are_counted_without_changing_the_search():
    # benchmarks/lookahead.py --parts: the ops that count are the lean ops to the search, and
    # keep every SAMPLE-th call to time.
    from interpreter.bots.ops import lean_ops
    from interpreter.lean import lean_game
    lookahead = script(ROOT / "benchmarks" / "lookahead.py")
    loaded = load_game(GAMES / "euchre.yaml", {"openspiel": "true"})
    lean = lean_game(loaded)
    worlds = [lean.from_state(state) for state in lookahead.positions(loaded, 3)]
    plain, counted = [], []
    for searched, ops in ((plain, lean_ops(lean)), (counted, lookahead.CountingOps(lean_ops(lean)))):
        for i, world in enumerate(worlds):
            bot = lookahead.SearchBot(loaded.game, world.current, seed=i, iterations=20)
            searched.append(lean.action_text(bot._search(ops, lean.clone(world), ops.legal(world))))
            searched.append({move: (arm.total, arm.count) for move, arm in bot.arms.items()})
    assert counted == plain
    counting, draws = lookahead.counted_searches(loaded, worlds, 20, lean_ops(lean))
    assert draws > counting.counts["look"] > 0      # each look's chance is drawn
    assert counting.counts["legal"] > 0 and counting.counts["guess"] > 0
    for part, count in counting.counts.items():
        assert len(counting.kept[part]) == count // lookahead.SAMPLE


def script(path):
    """A script of benchmarks/ loaded as a module (it is no package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_oracle_notices_a_different_rule(tmp_path):
    # Chance doubled on the first throw, in the spec only: the oracle must see it.
    text = (GAMES / "dice_poker.yaml").read_text(encoding="utf-8")
    changed = text.replace('if row in part1_rows or row == "chance" then base(row, v)',
                           'if row in part1_rows then base(row, v)')
    assert changed != text
    path = tmp_path / "dice_poker.yaml"
    path.write_text(changed, encoding="utf-8")
    assert len(oracle_mismatches(path, "dice_poker", range(6), 2)) >= 1


# -- rules bench -------------------------------------------------------------------------------

ROW = r"\s+(\d+)\s+(\d+)\s+\d+\.\d\s+\d+\.\d\s+\d+(?:\.\d)? (?:B|KiB|MiB)\s+\d+(?:\.\d)? (?:B|KiB|MiB)"


def test_bench_text_puts_the_baseline_beside_the_interpreter():
    result = run(["bench", DICE, "--games", "2", "--runs", "1", "--baseline", "dice_poker"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Dice poker: 3 players, random bots, median of 1 run in turn, seed 0"
    assert lines[1].split() == ["games", "moves", "playouts/s", "us/move", "peak", "memory", "retained"]
    mine = re.fullmatch(r"Dice poker" + ROW, lines[2])
    theirs = re.fullmatch(r"baseline dice_poker" + ROW, lines[3])
    assert mine and theirs, lines
    assert mine.groups() == theirs.groups() == ("2", "308")     # the same games, move for move
    assert re.fullmatch(r"interpreter / baseline: \d+\.\d\dx the cost per move, the median of the runs", lines[4])
    assert len(lines) == 5


def test_bench_times_the_baseline_in_turn_and_gives_the_spread_of_the_runs():
    result = run(["bench", DICE, "--games", "1", "--runs", "3", "--baseline", "dice_poker"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Dice poker: 3 players, random bots, median of 3 runs in turn, seed 0"
    ratio = re.fullmatch(r"interpreter / baseline: (\d+\.\d\d)x the cost per move, the median of the runs "
                         r"\(runs (\d+\.\d\d)-(\d+\.\d\d)x\)", lines[4])
    median, lowest, highest = map(float, ratio.groups())
    assert lowest <= median <= highest


def test_bench_json_gives_every_run_and_the_medians():
    result = run(["bench", DICE, "-n", "2", "-r", "3", "--players", "2", "--seed", "5", "--json",
                  "--baseline", str(BASELINES / "dice_poker.py")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {k: data[k] for k in ("game", "players", "seed", "runs")} == \
        {"game": "Dice poker", "players": 2, "seed": 5, "runs": 3}
    mine, theirs = data["interpreter"], data["baseline"]
    assert set(mine) == {"label", "games", "moves", "seconds", "median_seconds", "playouts_per_second",
                         "us_per_move", "peak_bytes", "retained_bytes"}
    assert (mine["label"], theirs["label"]) == ("Dice poker", "baseline dice_poker")
    assert mine["moves"] == theirs["moves"] == 200
    for m in (mine, theirs):
        assert len(m["seconds"]) == 3
        assert m["median_seconds"] == statistics.median(m["seconds"])
        assert m["us_per_move"] == pytest.approx(m["median_seconds"] / m["moves"] * 1e6)
        assert m["playouts_per_second"] == pytest.approx(2 / m["median_seconds"])
        assert m["peak_bytes"] > 0
    pairs = [(a / mine["moves"]) / (b / theirs["moves"]) for a, b in zip(mine["seconds"], theirs["seconds"])]
    assert data["ratios"] == pytest.approx(pairs)
    assert data["ratio"] == pytest.approx(statistics.median(pairs))


def test_bench_without_a_baseline_has_no_ratio():
    result = run(["bench", str(GAMES / "last_card.yaml"), "-n", "1", "-r", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["baseline"], data["ratio"], data["interpreter"]["games"]) == (None, None, 1)


@pytest.mark.parametrize("args, message", [
    (["--players", "5"], "Error: Invalid value for '--players': Dice poker is for 2 to 4 players, not 5"),
    (["--baseline", "no_such_game"], "Error: Invalid value for '--baseline': no baseline 'no_such_game'; looked for "
     f"benchmarks/baselines/no_such_game.py and {ROOT}/benchmarks/baselines/no_such_game.py"),
    (["--baseline", "../x"], "Error: Invalid value for '--baseline': '../x' is neither a baseline's name nor a .py file"),
    (["--baseline", "schmier"], "Error: Invalid value for '--baseline': the baseline plays 6 players, not 3"),
    (["--games", "0"], "Error: Invalid value for '--games' / '-n': 0 is not in the range x>=1."),
])
def test_bench_usage_errors(args, message):
    result = run(["bench", DICE, *args])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == message


def test_bench_reports_a_broken_game_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("name: [\n", encoding="utf-8")
    result = run(["bench", str(path)])
    assert result.exit_code == 1
    assert result.output.startswith(f"{path}:")


def test_a_baseline_without_play_game_is_refused(tmp_path):
    path = tmp_path / "empty.py"
    path.write_text("PLAYERS = range(2, 3)\n", encoding="utf-8")
    with pytest.raises(OptionError) as caught:
        load_baseline(find_baseline(str(path), DICE))
    assert caught.value.message == f"the baseline {path} needs play_game(players, seed) and PLAYERS (a range)"


# -- memory --------------------------------------------------------------------------------------

def test_games_leave_no_memory_behind():
    loaded = load_game(GAMES / "last_card.yaml")
    play = interpreter_playouts(loaded, 3)
    play(2, 0)                                   # the card table and other first-use caches
    few_peak, few_kept = memory(play, 3, 0)
    many_peak, many_kept = memory(play, 24, 0)
    assert few_kept < 4096 and many_kept < 4096  # nothing kept per game
    assert many_peak < few_peak + 256 * 1024     # the peak follows the largest game, not their number
