"""The command line's common forms: bundled games by name, -p/--players and -n/--games,
--format json (and its short form --json) on every command, a shorter bot list repeating, and
the packaging that installs the bundled games."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli import main
from interpreter.load.bundled import bundled_games, games_folder, resolve_game
from tests.helpers import GAMES, ROOT

BUNDLED = games_folder()     # the installed copy of games/ (the checkout's own in an editable install)


def run(*args, given=""):
    return CliRunner().invoke(main, list(args), input=given)


def test_a_bundled_game_plays_by_name_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "last_card", "--human", "none", "--bot", "random", "-p", "2", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Last card: 2 players. Type 'help' for help.\n")
    assert run("validate", "crazy_eights.yaml").output == "crazy_eights.yaml: ok\n"
    assert run("show", "dice_poker").output.startswith("Dice poker\n==========\n")


def test_a_file_in_the_folder_comes_before_a_bundled_game_of_that_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nerts").write_text("not a game")
    assert resolve_game("nerts") == "nerts"
    assert resolve_game("last_card") == str(BUNDLED / "last_card.yaml")
    assert run("validate", "no_such_game").output.splitlines()[:2] == [
        "error: cannot read no_such_game: No such file or directory",
        "hint: rules games lists the games that come with rules"]


def test_a_bundled_game_is_found_in_any_case_and_a_name_close_to_one_is_named():
    assert resolve_game("Nerts") == resolve_game("NERTS.yaml") == str(BUNDLED / "nerts.yaml")
    result = run("play", "nert")
    assert result.exit_code == 1
    assert result.output == "error: cannot read nert: No such file or directory\nhint: did you mean 'nerts'?\n"


def test_rules_games_lists_every_bundled_game_with_its_description():
    result = run("games")
    assert result.exit_code == 0
    assert result.output.startswith(
        "bridge: Contract bridge, 4 players\n"
        "    Four players in two partnerships, partners opposite: P1 North and P3 South against P2 East\n"
        "    and P4 West. Each deal: thirteen cards each; an auction from the dealer round the table,\n"
        "    each call a bid (a level 1 to 7, the tricks beyond six to be taken, and a strain: clubs,\n"
        "    diamonds, hearts, spades, no trump, in that order), a pass, a double of the opponents' last\n"
        "    bid, or a redouble of one's own side's doubled bid. A bid must be higher than the last. Four\n"
        "    passes at the start pass the deal out; three passes after a bid end the auction, and the\n"
        "    last bid is the contract. The declarer is the player of the contract's side who first named\n"
        "    its strain; the player on the declarer's left leads, then the declarer's partner, the dummy,\n"
        "    lays the hand face up on the table and the declarer plays it. Thirteen tricks; follow suit\n"
        "    if you can; the highest trump, else the highest card of the suit led, wins. Scoring as at\n"
        "    duplicate: trick points (20 a trick in the minors, 30 in the majors, 30 and 40 for the first\n"
        "    in no trump, doubled or redoubled), a game bonus at 100 trick points, slam bonuses,\n"
        "    overtricks, the insult for making a doubled contract, and undertricks by vulnerability and\n"
        "    doubling. By default the game is Chicago: four deals with the dealer and the vulnerability\n"
        "    rotating, part-scores carried toward game; the side with more points wins. With `openspiel:\n"
        "    true`, one deal exactly as OpenSpiel's `bridge` (without its double-dummy shortcut): its\n"
        "    returns are the declarer side's score, and its opposite.\n"
        "crazy_eights: Crazy eights, 2 to 5 players\n"
        "    Last card with wild eights. An eight may be played on any card, and its player names the\n"
        "    suit to follow. An eight left in hand counts 50.\n"
        "cribbage: Cribbage, 2 to 4 players\n"
        "    Cribbage, a match to 121 points. Each hand the dealer deals six cards each (five with three\n"
        "    or four players, and with three one card from the pack to the crib); every player lays away\n"
        "    two (one) face down into the crib, which scores for the dealer. A starter card is cut and\n"
        "    turned up: a jack is \"his heels\", two for the dealer. In the play, from the dealer's left,\n"
        "    each in turn lays a card face up and calls the count (the sum of the cards, court cards\n"
        "    counting ten), never going past 31; a player who cannot play says \"go\". Pegging: two for\n"
        "    making the count fifteen, two for 31, two for a pair with the last card (six for three of a\n"
        "    kind, twelve for four), one a card for a run of three or more among the last cards (in any\n"
        "    order), one for the go or the last card. Then the show: each hand with the starter scores\n"
        "    two for each combination making fifteen, two for each pair, one a card for each run, four\n"
        "    for a flush in hand (five with the starter; the crib only scores a five-card flush) and one\n"
        "    for his nobs (the jack of the starter's suit); the player on the dealer's left counts first,\n"
        "    the dealer last, then the crib. The first to reach 121 wins at once, even during the play or\n"
        "    the show. With four players, partners sit opposite and peg together. The option\n"
        "    openspiel=true plays exactly OpenSpiel's cribbage, quirks included (see the comments in this\n"
        "    file).\n"
        "dice_poker: Dice poker, 2 to 4 players\n")
    names = [line.split(":")[0] for line in result.output.splitlines() if not line.startswith(" ")]
    assert names == sorted(p.stem for p in GAMES.glob("*.yaml")) == list(bundled_games())
    data = json.loads(run("games", "--format", "json").output)
    crazy_eights = next(d for d in data if d["name"] == "crazy_eights")
    assert crazy_eights == {"name": "crazy_eights", "title": "Crazy eights", "file": str(BUNDLED / "crazy_eights.yaml"),
                            "players": {"min": 2, "max": 5, "default": 3},
                            "description": "Last card with wild eights. An eight may be played on any card, and its "
                                           "player names the suit to follow. An eight left in hand counts 50."}


def test_rules_schema_prints_the_schema_files():
    schema = ROOT / "interpreter" / "load" / "schema"
    assert run("schema").output == (schema / "game.schema.json").read_text().rstrip("\n") + "\n"
    assert run("schema", "--scenario").output == (schema / "scenario.schema.json").read_text().rstrip("\n") + "\n"
    assert json.loads(run("schema").output)["title"]


def test_a_shorter_bot_list_repeats_seat_by_seat():
    result = run("simulate", str(GAMES / "last_card.yaml"), "-n", "2", "-p", "3", "--bots", "greedy,random",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"] == ["greedy", "random", "greedy"]


def test_format_json_and_json_are_the_same_on_every_command():
    last_card = str(GAMES / "last_card.yaml")
    for args in (["validate", last_card], ["test", str(GAMES / "dice_poker.yaml")], ["games"]):
        assert run(*args, "--format", "json").output == run(*args, "--json").output
    simulated = [json.loads(run("simulate", last_card, "-n", "2", "-p", "2", *flag).output) for flag in
                 (["--json"], ["--format", "json"])]
    assert [{k: v for k, v in s.items() if k != "timing"} for s in simulated][0] == \
        [{k: v for k, v in s.items() if k != "timing"} for s in simulated][1]
    benched = json.loads(run("bench", last_card, "-n", "1", "-r", "1", "-p", "2", "--format", "json").output)
    assert benched["players"] == 2


def test_the_progress_bar_goes_to_stderr_and_the_report_alone_to_stdout(tmp_path):
    """Stderr a terminal, stdout a pipe (`rules simulate ... > report.txt`): the bar is drawn on
    the terminal, the file gets the report only."""
    import os
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    done = subprocess.run([sys.executable, "-c", "from cli import main; main()", "simulate", "dice_poker", "-n", "3"],
                          stdout=subprocess.PIPE, stderr=follower, cwd=ROOT, timeout=120)
    os.close(follower)
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        drawn += chunk
    os.close(leader)
    assert done.returncode == 0
    assert b"simulating" in drawn
    assert b"simulating" not in done.stdout and done.stdout.startswith(b"Dice poker: 3 games, 3 players")


def test_show_describes_a_game_as_json():
    shown = json.loads(run("show", "kuhn_poker", "--json").output)
    assert (shown["name"], shown["players"], shown["engine"], shown["reason"]) == \
        ("Kuhn poker", {"min": 2, "max": 2, "default": 2}, "lean", None)
    assert shown["phases"] == [{"name": "betting", "label": "Betting", "moves": ["pass", "bet"]}]
    assert list(shown["moves"]) == ["pass", "bet"] and shown["moves"]["bet"]["params"] == []
    assert shown["counted"] == []
    nerts = json.loads(run("show", "nerts", "--json", "-o", "jokers=true").output)
    assert nerts["counted"] == ["not hand_over and all(stuck(p) for p in layouts)"]
    dice = json.loads(run("show", "dice_poker", "--format", "json", "-o", "strict_chance=true").output)
    assert dice["options"]["strict_chance"]["value"] is True and dice["options"]["strict_chance"]["default"] is False
    refused = run("show", "kuhn_poker", "--json", "--resolved")
    assert refused.exit_code == 2 and refused.output.endswith(
        "Error: --format json describes the game: not with --resolved or --generated\n")


def test_replay_reports_a_record_as_json(tmp_path):
    record = tmp_path / "game.jsonl"
    assert run("play", "dice_poker", "--human", "none", "--bot", "random", "--seed", "1", "-p", "2",
               "--record", str(record)).exit_code == 0
    replayed = json.loads(run("replay", str(record), "--json").output)
    written = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    assert [m["move"] for m in replayed["moves"]] == [line["move"] for line in written]
    assert (replayed["game"], replayed["seed"], replayed["players"], replayed["over"]) == ("Dice poker", 1, 2, True)
    text = run("replay", str(record)).output.splitlines()[-2:]
    assert [line.split() for line in text] == [
        [f"P{s['seat']}", str(s["place"]), str(s["score"]), f"{s['result']:+g}"] for s in replayed["standings"]]
